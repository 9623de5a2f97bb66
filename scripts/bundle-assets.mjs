// Run by `tauri build` between compiling and packing (tauri.conf.json `beforeBundleCommand`): the `redline`
// command line just built writes its manual page and shell completions, generated from its argument
// definitions (clap_mangen, clap_complete), where the .deb and .rpm pick them up (`bundle.linux.*.files`).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const profile = process.env.TAURI_ENV_DEBUG === "true" ? "debug" : "release";
const triple = process.env.TAURI_ENV_TARGET_TRIPLE;
const exe = process.platform === "win32" ? "redline.exe" : "redline";
const candidates = [triple && join(target, triple, profile, exe), join(target, profile, exe)].filter(Boolean);
const cli = candidates.find((path) => existsSync(path));
if (!cli) {
  console.error(`bundle-assets: the redline binary was not built (looked for ${candidates.join(", ")})`);
  process.exit(1);
}

const share = join(target, "share");
const run = (...args) => execFileSync(cli, args, { maxBuffer: 16 << 20 });
mkdirSync(join(share, "man", "man1"), { recursive: true });
mkdirSync(join(share, "completions"), { recursive: true });
writeFileSync(join(share, "man", "man1", "redline.1"), run("man"));
for (const [shell, file] of [
  ["bash", "redline.bash"],
  ["zsh", "_redline"],
  ["fish", "redline.fish"],
  ["powershell", "redline.ps1"],
]) {
  writeFileSync(join(share, "completions", file), run("completions", shell));
}
console.log(`bundle-assets: the manual page and completions of ${cli} are in ${share}`);
