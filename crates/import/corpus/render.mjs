// Renders a JSON Resume with a published theme, as the theme's own users do: `node render.mjs THEME
// RESUME.json > resume.html`. crates/import/tests/others.rs prints the page to PDF with Chromium and reads
// it back.
import { readFileSync } from "node:fs";

const [theme, file] = process.argv.slice(2);
const resume = JSON.parse(readFileSync(file, "utf8"));
const module = await import(`jsonresume-theme-${theme}`);
const render = module.render ?? module.default?.render;
process.stdout.write(await render(resume));
