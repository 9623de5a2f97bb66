// Writes THIRD-PARTY-NOTICES.md: the licences of everything compiled into Redline, from its dependency
// graph. Run by `tauri build` before it compiles (tauri.conf.json `beforeBuildCommand`), so every package
// carries a current one; the copy in the repository is what plain `cargo build`s embed, and the test run
// fails when it is out of date.
//
//   - the Rust crates in the app and the `redline` command line: cargo-about (`cargo install cargo-about
//     --features cli`), configured by scripts/notices/about.toml, laid out by scripts/notices/about.hbs;
//   - the npm packages bundled into the window: the UI's dependencies and the Svelte runtime, with the
//     packages they depend on, each with its licence file;
//   - the fonts, the JSON Resume schema and libgit2 (C, built into the git2 crate), whose licences are kept in assets/.
//
// Usage: node scripts/notices.mjs [OUTPUT] (default: THIRD-PARTY-NOTICES.md at the repository's root).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const output = process.argv[2] ?? join(root, "THIRD-PARTY-NOTICES.md");

let rust;
try {
  rust = execFileSync(
    "cargo",
    ["about", "generate", "--locked", "-c", "scripts/notices/about.toml", "scripts/notices/about.hbs"],
    { cwd: root, maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "inherit"] },
  ).toString();
} catch (err) {
  console.error("notices: cargo-about failed (install it with `cargo install cargo-about --locked --features cli`)");
  process.exit(1);
}

// The npm packages in the window's bundle.
const ui = join(root, "ui");
const pkg = (name) => JSON.parse(readFileSync(join(ui, "node_modules", name, "package.json"), "utf8"));
const roots = [...Object.keys(JSON.parse(readFileSync(join(ui, "package.json"), "utf8")).dependencies ?? {}), "svelte"];
const seen = new Map();
const visit = (name) => {
  if (seen.has(name) || !existsSync(join(ui, "node_modules", name, "package.json"))) return;
  const p = pkg(name);
  seen.set(name, p);
  Object.keys(p.dependencies ?? {}).forEach(visit);
};
roots.forEach(visit);
const licenceText = (name) => {
  const dir = join(ui, "node_modules", name);
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  return file ? readFileSync(join(dir, file), "utf8").trim() : "(no licence file in the package)";
};
const npm = [...seen.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, p]) => `### ${name} ${p.version}\n\nLicence: ${p.license ?? "see below"}\n\n\`\`\`text\n${licenceText(name)}\n\`\`\`\n`)
  .join("\n");

const asset = (title, file) => `### ${title}\n\n\`\`\`text\n${readFileSync(join(root, file), "utf8").trim()}\n\`\`\`\n`;
const assets = [
  asset("DejaVu fonts (DejaVu Sans, DejaVu Serif), embedded in PDF exports", "assets/fonts/DejaVu.LICENSE.txt"),
  asset("Droid Sans Fallback (Chinese, Japanese), embedded in PDF exports", "assets/fonts/DroidSansFallback.LICENSE.txt"),
  asset("Carlito (a font the PDF designs may use), embedded in PDF exports", "assets/fonts/Carlito.LICENSE.txt"),
  asset("EB Garamond (a font the PDF designs may use), embedded in PDF exports", "assets/fonts/EBGaramond.LICENSE.txt"),
  asset("JSON Resume schema and sample resume", "assets/jsonresume.LICENSE.md"),
  asset("libgit2 1.9 (sync through a git remote), compiled into the programs by the git2 crate: GPL-2.0 with its linking exception, and the licences of the code it carries", "assets/licenses/libgit2.COPYING.txt"),
  ...["en", "de", "fr", "es", "pt"].map((tag) =>
    asset(`Hunspell dictionary "${tag}", installed beside the program for the spelling check (assets/dictionaries/README.md)`, `assets/dictionaries/${tag}/LICENSE`)),
].join("\n");

const text = `${rust.trim()}\n\n## npm packages in the window\n\n${npm}\n## Fonts, data and C libraries\n\n${assets}`;
const notices = text.replace(/[ \t]+$/gm, "");
// Written only when it changed: Cargo rebuilds the app when a file it embeds is touched.
if (!existsSync(output) || readFileSync(output, "utf8") !== notices) writeFileSync(output, notices);
console.log(`notices: ${output} (${seen.size} npm packages; ${(text.length / 1024).toFixed(0)} KB)`);
