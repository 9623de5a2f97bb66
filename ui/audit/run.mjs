// The accessibility audit: axe-core in headless Chromium (Debian's, /usr/bin/chromium) against the built
// UI with mocked IPC (audit/audit.ts, built by `vite build --config vite.audit.config.ts`), in the light and
// the dark theme: the main window (its frame: the navigation, the toolbar, the chat), a toolbar button's
// tooltip, the toolbar's More menu, then each dialog — export (with the ATS check's result), settings,
// documents, tailoring, the keyboard shortcuts (opened from the app's menu) — the history panel, the writing
// checks' panel, the page view, and the page view with the history. Any serious or critical violation
// (colour contrast AA included) fails it; each is printed with the rule, the element and how to fix it.
// Then each screen with text at 200%: nothing may run off the side of the window. Then every screen at
// 1024×700 and 1920×1080 in both themes, and the frame with the resume in each of the eight languages: its
// toolbar on one row, and no control of the frame or of an open dialog over another or out of the window.
//
// Usage: node audit/run.mjs [DIST] (default: dist-audit).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

/** The frame's check, one expression run in the page (shared with the window test, tests/e2e.rs). */
const frameProblems = await readFile(new URL("./frame-problems.js", import.meta.url), "utf8");

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

/** The screens: how to get there from the main window (`open`, then `then`: test ids clicked, or for `open` a
 * CSS selector; `palette`: an action's name run
 * from the command palette; `hover`: one the
 * pointer rests on; `key`: a key pressed; `menu`: an item of the app's menu, a `MenuAction` id), and what shows
 * it is there. */
const screens = [
  { name: "main window", open: null, ready: "[data-testid='basics-name']" },
  { name: "a toolbar button's tooltip", open: null, hover: "undo", ready: "[data-testid='undo'] + [role='tooltip']" },
  { name: "the toolbar's More menu", open: "more-menu", ready: "[role='menu'] [data-testid='menu-new']" },
  { name: "export dialog, with the ATS check", open: "open-export", then: "ats-check", ready: "[data-testid='ats-missing']" },
  { name: "settings", open: "open-settings", ready: "[data-testid='settings-dialog']" },
  { name: "documents", open: "open-documents", ready: "[data-testid='documents-row']" },
  { name: "history panel", open: "open-history", ready: "[data-testid='history-dialog'] li" },
  { name: "writing checks panel", open: "open-checks", ready: "[data-testid='check-finding']" },
  { name: "design panel", open: "open-design", ready: "[data-testid='design-panel'] .design img" },
  { name: "applications board", open: null, palette: "Applications", ready: "[data-testid='application-card']" },
  { name: "applications table", open: null, palette: "Applications", then: "applications-table-view", ready: "[data-testid='applications-table'] td" },
  { name: "a new application", open: null, palette: "Applications", then: "application-add", ready: "[data-testid='application-form']" },
  { name: "tailoring", open: "open-tailor", ready: "[data-testid='tailor-dialog']" },
  { name: "write a cover letter", open: null, palette: "Write a cover letter", ready: "[data-testid='letter-posting']" },
  { name: "page view", open: "toggle-pages", ready: "[data-testid='page-2']" },
  { name: "page view and history panel", open: "toggle-pages", then: "open-history", ready: "[data-testid='history-dialog'] li" },
  { name: "main window, with words longer than a line", query: "?long-words", open: null, ready: "[data-testid='basics-name']" },
  { name: "first start", query: "?first-run", open: null, ready: "[data-testid='first-run-import']" },
  { name: "command palette", open: null, key: "Control+k", ready: "[data-testid='command-palette-item']" },
  { name: "review cards", query: "?held", open: null, ready: "[data-testid='held-edits']" },
  { name: "keyboard shortcuts", open: null, menu: "shortcuts", ready: "[data-testid='shortcuts-dialog'] kbd" },
];

/** A new page at `viewport` in `theme`, which the window reads from its storage as it starts. (Also set in the
 * export preview's sandboxed frame, which has no storage.) */
async function themedPage(viewport, theme) {
  const page = await browser.newPage({ viewport });
  await page.addInitScript((t) => {
    try {
      localStorage.setItem("redline.theme", t);
    } catch {}
  }, theme);
  return page;
}

/** Opens `screen` from a fresh load of the main window. */
async function show(page, screen) {
  await page.goto(url + (screen.query ?? ""));
  await page.waitForSelector("[data-testid='basics-name']");
  // An action run from the command palette, by its name (the way there at any width).
  if (screen.palette) {
    await page.keyboard.press("Control+k");
    await page.fill("[data-testid='command-palette-input']", screen.palette);
    await page.keyboard.press("Enter");
  }
  if (screen.open) await page.click(screen.open.startsWith("[") ? screen.open : `[data-testid='${screen.open}']`);
  if (screen.then) await page.click(`[data-testid='${screen.then}']`);
  // The pointer rests on the control named, or else out of the way (a button it was left on would show its
  // tooltip halfway through fading in while the colours are measured).
  if (screen.hover) await page.hover(`[data-testid='${screen.hover}']`);
  else await page.mouse.move(1, 1);
  if (screen.key) await page.keyboard.press(screen.key);
  // The app's menu speaks to the window by an event (desktop.rs `on_menu`), which the mocked IPC passes on.
  if (screen.menu) {
    await page.evaluate((id) => window.__TAURI_INTERNALS__.invoke("plugin:event|emit", { event: "menu", payload: id }), screen.menu);
  }
  await page.waitForSelector(screen.ready);
}

let failures = 0;
let checked = 0;
for (const theme of ["light", "dark"]) {
  const page = await themedPage({ width: 1280, height: 860 }, theme);
  page.on("pageerror", (err) => { console.error(`page error (${theme}): ${err.message}`); failures++; });
  for (const screen of screens) {
    await show(page, screen);
    // Transitions (the controls' fade, a tooltip's coming) settle before colours are measured.
    await page.waitForTimeout(screen.hover ? 700 : 150);
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


// Every screen at the sizes the frame is drawn for, in both themes: the toolbar one row, every control of the
// frame (the navigation, the toolbar and its menu, the panels' heads, the chat's composer) and of an open
// dialog inside the window and clear of the others. What scrolls inside a pane (the resume, a list) is the
// pane's, and left out.
for (const [width, height] of [[1024, 700], [1920, 1080]]) {
  for (const theme of ["light", "dark"]) {
    const page = await themedPage({ width, height }, theme);
    for (const screen of screens) {
      await show(page, screen);
      const found = await page.evaluate(frameProblems);
      checked++;
      const where = `${width}×${height} ${theme} / ${screen.name}`;
      console.log(`${where}: ${found.problems.length === 0 ? `one toolbar row; ${found.checked} controls clear of each other and in the window` : `${found.problems.length} problems`}`);
      for (const problem of found.problems.slice(0, 8)) {
        failures++;
        console.log(`  ✗ ${problem}`);
      }
    }
    await page.close();
  }
}
// … and in each of the eight languages the resume may be written in (German's long headings, Arabic right to
// left), at both sizes, in the light theme (the themes differ in colour only, checked above).
const LANGUAGES = ["en", "de", "fr", "es", "pt", "ja", "zh", "ar"];
const LANGUAGE_SCREENS = ["main window", "page view", "page view and history panel"];
for (const [width, height] of [[1024, 700], [1920, 1080]]) {
  const page = await browser.newPage({ viewport: { width, height } });
  for (const lang of LANGUAGES) {
    for (const screen of screens.filter((s) => LANGUAGE_SCREENS.includes(s.name))) {
      await show(page, { ...screen, query: `?lang=${lang}` });
      const found = await page.evaluate(frameProblems);
      checked++;
      const where = `${width}×${height} ${lang} / ${screen.name}`;
      if (found.problems.length > 0) console.log(`${where}: ${found.problems.length} problems`);
      for (const problem of found.problems.slice(0, 8)) {
        failures++;
        console.log(`  ✗ ${problem}`);
      }
    }
  }
  console.log(`${width}×${height}, eight languages: ${LANGUAGES.length * LANGUAGE_SCREENS.length} screens looked at`);
  await page.close();
}
// … and that check must be able to fail: a toolbar whose groups lie over each other, wrapped to a second row.
{
  const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
  await show(page, screens[0]);
  await page.addStyleTag({ content: ".tool-group + .tool-group { margin-inline-start: -40px; } .toolbar { flex-wrap: wrap; } .toolbar .title { flex-basis: 100%; }" });
  const { problems } = await page.evaluate(frameProblems);
  if (!problems.some((p) => p.includes("overlaps")) || !problems.some((p) => p.includes("more than one row"))) {
    console.error(`frame check: a toolbar wrapped and overlapping passed (${problems.join("; ")}): the check is not working`);
    failures++;
  }
  await page.close();
}
// … and a dialog whose actions lie over its fields without staying in view over them (not sticky).
{
  const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
  await show(page, screens.find((s) => s.name === "settings"));
  await page.addStyleTag({ content: "dialog.modal .actions { position: static !important; margin-block-start: -80px !important; }" });
  const { problems } = await page.evaluate(frameProblems);
  if (!problems.some((p) => p.includes("overlaps"))) {
    console.error(`frame check: a dialog's actions over its fields passed (${problems.join("; ")}): the check is not working`);
    failures++;
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
console.log(`accessibility audit: ${checked} screens (two themes, text at 200%, the frame at two sizes), no serious or critical violations, nothing overlapping`);
