// Writes the updater's `latest.json` for a release from its installers and their signatures (`X.sig`
// beside each updater artifact, made by `tauri build` with `createUpdaterArtifacts`).
//
// Usage: node scripts/latest-json.mjs --dir DIR --version 1.2.3 --url BASE_URL [--notes-file CHANGELOG.md]
//
// Each platform key is `{os}-{arch}` (the default installer) or `{os}-{arch}-{installer}`, as
// tauri-plugin-updater looks them up; macOS's universal app serves both architectures.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
for (const required of ["dir", "version", "url"]) {
  if (!args[required]) {
    console.error(`latest-json: --${required} is required`);
    process.exit(2);
  }
}

/** The architecture a file name names. */
function arch(name) {
  if (/universal/i.test(name)) return ["x86_64", "aarch64"];
  if (/(aarch64|arm64)/i.test(name)) return ["aarch64"];
  if (/(x86_64|amd64|x64)/i.test(name)) return ["x86_64"];
  return [];
}

/** [pattern, os, installer, is the default for its os]. */
const KINDS = [
  [/\.app\.tar\.gz$/, "darwin", "app", true],
  [/\.msi$/, "windows", "msi", false],
  [/-setup\.exe$/, "windows", "nsis", true],
  [/\.AppImage$/, "linux", "appimage", true],
  [/\.deb$/, "linux", "deb", false],
  [/\.rpm$/, "linux", "rpm", false],
];

const files = readdirSync(args.dir);
const platforms = {};
for (const file of files) {
  const kind = KINDS.find(([pattern]) => pattern.test(file));
  if (!kind || !files.includes(`${file}.sig`)) continue;
  const [, os, installer, isDefault] = kind;
  const entry = {
    signature: readFileSync(join(args.dir, `${file}.sig`), "utf8").trim(),
    url: `${args.url.replace(/\/$/, "")}/${encodeURIComponent(file)}`,
  };
  const archs = os === "darwin" && arch(file).length === 0 ? ["x86_64", "aarch64"] : arch(file);
  for (const a of archs) {
    platforms[`${os}-${a}-${installer}`] = entry;
    if (isDefault) platforms[`${os}-${a}`] = entry;
  }
}
if (Object.keys(platforms).length === 0) {
  console.error(`latest-json: no signed updater artifact in ${args.dir}`);
  process.exit(1);
}

/** The CHANGELOG's section for this version, without its heading. */
function notes() {
  if (!args["notes-file"]) return "";
  const text = readFileSync(args["notes-file"], "utf8");
  const heading = new RegExp(`^## \\[?${args.version.replace(/\./g, "\\.")}\\]?.*$`, "m");
  const start = text.search(heading);
  if (start < 0) return "";
  const body = text.slice(start).split("\n").slice(1).join("\n");
  const next = body.search(/^## /m);
  return (next < 0 ? body : body.slice(0, next)).trim();
}

const manifest = {
  version: args.version,
  notes: notes(),
  pub_date: args["pub-date"] ?? new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
  platforms,
};
console.log(JSON.stringify(manifest, null, 2));
