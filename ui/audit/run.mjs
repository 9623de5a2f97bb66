// The accessibility audit: axe-core in headless Chromium (Debian's, /usr/bin/chromium) against the built
// UI with mocked IPC (audit/audit.ts, built by `vite build --config vite.audit.config.ts`), in the light and
// the dark theme: the main window, then each dialog — export (with the ATS check's result), settings,
// documents, history, tailoring — and the page view. Any serious or critical violation (colour contrast AA included) fails it;
// each is printed with the rule, the element and how to fix it. Then each screen with text at 200%: nothing
// may run off the side of the window.
//
// Usage: node audit/run.mjs [DIST] (default: dist-audit).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const dist = process.argv[2] ?? "dist-audit";
const axeSource = await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json" };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  const file = join(dist, path === "/" || path === "\\" ? "index.html" : path);
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

// As root in a container, with the network closed: no sandbox, no background connections.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});

/** The screens: how to get there from the main window, and what shows it is there. */
const screens = [
  { name: "main window", open: null, ready: "[data-testid='basics-name']" },
  { name: "export dialog, with the ATS check", open: "open-export", then: "ats-check", ready: "[data-testid='ats-missing']" },
  { name: "settings", open: "open-settings", ready: "[data-testid='settings-dialog']" },
  { name: "documents", open: "open-documents", ready: "[data-testid='documents-row']" },
  { name: "history", open: "open-history", ready: "[data-testid='history-dialog'] li" },
  { name: "tailoring", open: "open-tailor", ready: "[data-testid='tailor-dialog']" },
  { name: "page view", open: "toggle-pages", ready: "[data-testid='page-2']" },
  { name: "main window, with words longer than a line", query: "?long-words", open: null, ready: "[data-testid='basics-name']" },
];

/** Opens `screen` from a fresh load of the main window. */
async function show(page, screen) {
  await page.goto(url + (screen.query ?? ""));
  await page.waitForSelector("[data-testid='basics-name']");
  if (screen.open) await page.click(`[data-testid='${screen.open}']`);
  if (screen.then) await page.click(`[data-testid='${screen.then}']`);
  await page.waitForSelector(screen.ready);
}

let failures = 0;
let checked = 0;
for (const theme of ["light", "dark"]) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on("pageerror", (err) => { console.error(`page error (${theme}): ${err.message}`); failures++; });
  // (Also run in the export preview's sandboxed frame, which has no storage.)
  await page.addInitScript((t) => {
    try {
      localStorage.setItem("redline.theme", t);
    } catch {}
  }, theme);
  for (const screen of screens) {
    await show(page, screen);
    await page.waitForTimeout(150); // Transitions (the controls' fade) settle before colours are measured.
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () =>
      // eslint-disable-next-line no-undef
      await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }),
    );
    checked++;
    const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    const minor = result.violations.length - serious.length;
    console.log(`${theme} / ${screen.name}: ${result.passes.length} rules pass, ${serious.length} serious or critical, ${minor} minor`);
    for (const v of serious) {
      failures++;
      console.log(`  ✗ ${v.id} (${v.impact}): ${v.help}`);
      for (const node of v.nodes.slice(0, 5)) console.log(`      ${node.target.join(" ")} — ${node.failureSummary?.split("\n").slice(1).join("; ")}`);
    }
  }
  await page.close();
}
// Text zoomed to 200% (WCAG 1.4.4): the window at half its CSS width, twice the pixels. Nothing may run
// off the side — the main window, and each dialog.
{
  const page = await browser.newPage({ viewport: { width: 640, height: 430 }, deviceScaleFactor: 2 });
  for (const screen of screens) {
    await show(page, screen);
    const off = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && (r.right > innerWidth + 1 || r.left < -1);
        })
        .map((e) => `${e.tagName.toLowerCase()}${e.className ? "." + String(e.className).trim().split(/\s+/).join(".") : ""}`),
    );
    checked++;
    console.log(`200% / ${screen.name}: ${off.length === 0 ? "everything within the window" : `${off.length} elements run off the side`}`);
    if (off.length > 0) {
      failures++;
      console.log(`  ✗ ${[...new Set(off)].slice(0, 8).join(", ")}`);
    }
  }
  await page.close();
}

// The audit must be able to fail: a page with text too faint to read and an image with no text must be
// caught, or the audit above proved nothing.
{
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main>
    <p style="color:#c8c8c8;background:#ffffff">Faint</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>`);
  await page.addScriptTag({ content: axeSource });
  const ids = await page.evaluate(async () => (await axe.run(document)).violations.map((v) => v.id));
  if (!ids.includes("color-contrast") || !ids.includes("image-alt")) {
    console.error(`accessibility audit: a page with known faults passed (${ids.join(", ")}): the audit is not working`);
    failures++;
  }
  await page.close();
}
await browser.close();
server.close();
if (failures > 0) {
  console.error(`accessibility audit: ${failures} serious or critical violations on ${checked} screens`);
  process.exit(1);
}
console.log(`accessibility audit: ${checked} screens (two themes, and text at 200%), no serious or critical violations`);
