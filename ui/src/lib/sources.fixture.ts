// For tests that read the project's own sources.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The files under `dir` whose names match `keep`, leaving out the folders named in `skip`. */
export function sourceFiles(dir: string, keep: RegExp, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip.includes(name) ? [] : sourceFiles(path, keep, skip);
    return keep.test(name) ? [path] : [];
  });
}
