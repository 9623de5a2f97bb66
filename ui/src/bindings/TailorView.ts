import type { CoverageTerm } from "./CoverageTerm";
export type TailorView = { documentId: number, master: string | null, headline: string, terms: Array<CoverageTerm>, changes: Array<string>, };
