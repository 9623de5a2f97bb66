export type CoverageTerm = { term: string, count: number, found: boolean, };
