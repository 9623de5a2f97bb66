// OpenResume's parser, as its site runs it, on PDFs: `OPENRESUME_DIR=<checkout> node run.mjs A.pdf B.pdf`
// prints one line of JSON per file, the resume OpenResume read (its own shape: profile, workExperiences,
// educations, projects, skills). crates/import/tests/openresume.rs puts it into JSON Resume's places and
// scores it beside Redline's import.
//
// OpenResume (xitanggg/open-resume) is AGPL-3.0: none of it is in this repository. This script bundles its
// `parse-resume-from-pdf` from the checkout with esbuild (its tsconfig's paths), changing one thing: pdfjs
// is pdfjs-dist's Node build (the same version, 3.7.107), as a browser's worker cannot load in Node.
import { build } from "esbuild";
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const checkout = process.env.OPENRESUME_DIR;
if (!checkout) {
  console.error("OPENRESUME_DIR must name a checkout of https://github.com/xitanggg/open-resume");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));

const nodePdfjs = {
  name: "pdfjs-for-node",
  setup(b) {
    b.onResolve({ filter: /^pdfjs-dist$/ }, () => ({ path: "pdfjs", namespace: "shim" }));
    b.onResolve({ filter: /^pdfjs-dist\/build\/pdf\.worker\.entry$/ }, () => ({
      path: "worker",
      namespace: "shim",
    }));
    b.onLoad({ filter: /^pdfjs$/, namespace: "shim" }, () => ({
      contents: `import { createRequire } from "node:module";
        const pdfjs = createRequire(import.meta.url)("pdfjs-dist/legacy/build/pdf.js");
        export const { getDocument, GlobalWorkerOptions } = pdfjs;`,
    }));
    b.onLoad({ filter: /^worker$/, namespace: "shim" }, () => ({
      contents: "export default undefined;",
    }));
  },
};

const bundled = await build({
  stdin: {
    contents: 'export { parseResumeFromPdf } from "lib/parse-resume-from-pdf";',
    resolveDir: join(checkout, "src/app"),
    loader: "ts",
  },
  tsconfig: join(checkout, "tsconfig.json"),
  bundle: true,
  // The checkout's own packages are not installed: its imports are found in this folder's.
  nodePaths: [join(here, "node_modules")],
  platform: "node",
  format: "esm",
  write: false,
  logLevel: "error",
  plugins: [nodePdfjs],
});
// Written beside this script, so that Node finds pdfjs-dist in its node_modules.
const work = mkdtempSync(join(here, ".bundle-"));
try {
  const file = join(work, "parser.mjs");
  writeFileSync(file, bundled.outputFiles[0].text);
  // pdfjs's Node build wants node-canvas for drawing; reading text draws nothing.
  globalThis.DOMMatrix ??= class DOMMatrix {};
  globalThis.Path2D ??= class Path2D {};
  const { parseResumeFromPdf } = await import(pathToFileURL(file).href);
  for (const pdf of process.argv.slice(2)) {
    // readPdf hands its argument to pdfjs.getDocument, which takes the bytes as well as an address.
    const resume = await parseResumeFromPdf({ data: new Uint8Array(readFileSync(pdf)) });
    process.stdout.write(JSON.stringify(resume) + "\n");
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
