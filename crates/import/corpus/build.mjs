// Builds the import's corpus: `node build.mjs OUT_DIR [--count N] [--seed S]`, or `node build.mjs --cached`
// (what the tests run): the corpus of this version of the scripts and themes, built only if the cache
// (`$XDG_CACHE_HOME/redline/import-corpus/KEY`) does not have it yet, its folder printed.
//
// Draws N resumes (default 200) with generate.mjs and seed S (default 1) and writes
//   OUT_DIR/resumes/NNN.json        each resume (NNN: the index, zero-padded to three digits),
//   OUT_DIR/html/THEME/NNN.html     it rendered by each published theme installed here (package.json),
//   OUT_DIR/pdf/THEME/NNN.pdf       that page printed by Chromium on Letter paper,
//   OUT_DIR/manifest.json           {seed, count, themes, heldOutThemes, heldOut, tuning, failed}.
// The corpus is split before any tuning: resumes at odd indices, and every theme but the first four
// (even, flat, macchiato, stackoverflow), are held out. A theme that throws on a resume is logged and
// listed under `failed`, and nothing is written for that pair. The tests check every resume against the
// JSON Resume schema (crates/import/tests/common/corpus.rs).
//
// Themes render in worker threads (two) while one Chromium (puppeteer-core, the system's
// /usr/bin/chromium; no browser is downloaded) prints three pages at a time. Every request a page
// makes is refused but data: and about:, so a theme's CDN stylesheet or font cannot hang or change it.
// The print matches `chromium --headless --print-to-pdf` (crates/import/tests/common): Letter unless the
// page's CSS sets a size, backgrounds printed, 0.4in margins, no header or footer.
//
// Published themes tried and left out (each but the last two installs from npm with --ignore-scripts):
//   actual 0.2.2              throws on a profile with no url, and on projects missing fields
//   classy 1.0.9              throws when basics.label is missing, and on missing sections
//   sceptile 1.0.5            classy's code: the same throws
//   cora 0.1.1                throws on an empty profiles list and on missing sections
//   crisp 0.2.12              throws on interests with no keywords
//   modern 0.0.18             throws on a school with no startDate
//   kards 1.0.2               throws on a skill with no level (and inlines 3 MB of fonts in each page)
//   paper-plus-plus 0.5.1     throws on a missing field its wordWrap helper reads
//   papirus 0.0.5             the same helper, the same throw
//   rocketspacer 1.2.2        throws on interests with no keywords
//   relaxed 0.2.1             throws on year-only dates ("Invalid time value") and unknown skill levels
//   kwan 0.0.2                does not load: requires underscore.string, which it does not declare
//   professional 1.1.0        ships JSX source: needs a build step
//   mocha-responsive 1.1.1    reads Font Awesome from its own nested node_modules, which npm hoists away
//   tan-responsive 0.0.7      does not install: depends on fs@0.0.1-security, not in the registry
//   local                     not on npm
// The generator always writes basics.location (an object, parts left out) and basics.profiles (a list,
// maybe empty), which elegant and simplyelegant read unguarded. The themes that read the older
// work[].company (flat, macchiato, ace, caffeine, class, compact, eloquent, onepage, onepage-efficient,
// paper, pumpkin, short, simplyelegant, slick, spartan, srt) are given it beside work[].name, as a resume
// kept since JSON Resume 0.x has it (`withOlderFields`).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { generate, split } from "./generate.mjs";

const HERE = new URL(".", import.meta.url);
const TUNING_THEMES = ["even", "flat", "macchiato", "stackoverflow"];
const WORKERS = 2;
const PAGES = 3;
const LOAD_TIMEOUT_MS = 10_000;
const RENDER_TIMEOUT_MS = 60_000;
const PDF_OPTIONS = {
  format: "letter",
  preferCSSPageSize: true,
  printBackground: true,
  margin: { top: "0.4in", right: "0.4in", bottom: "0.4in", left: "0.4in" },
};

// ---------------------------------------------------------------------------------------------------------
// Rendering, in a worker: messages {id, theme, resume} in, {id, html} or {id, error} out.

function renderWorker() {
  // Themes talk (console.log of dates, Sass deprecation warnings); the build's own log is the main thread's.
  for (const key of ["log", "info", "warn", "error", "debug"]) console[key] = () => {};
  process.stdout.write = process.stderr.write = () => true;
  const renders = new Map();
  parentPort.on("message", async ({ id, theme, resume }) => {
    try {
      if (!renders.has(theme)) renders.set(theme, await loadTheme(theme));
      const html = await renders.get(theme)(withOlderFields(resume));
      if (typeof html !== "string") throw new Error(`render returned ${typeof html}`);
      parentPort.postMessage({ id, html });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error?.message ?? error).split("\n")[0] });
    }
  });
}

/**
 * The resume with the fields of JSON Resume before 1.0 beside the current ones (a job's `company` beside
 * its `name`), as a resume kept since then has them: the themes written for the older schema print them.
 */
function withOlderFields(resume) {
  if (!Array.isArray(resume.work)) return resume;
  const work = resume.work.map((job) => (job.name === undefined ? job : { company: job.name, ...job }));
  return { ...resume, work };
}

/** A theme's render function, found as render.mjs finds it. */
async function loadTheme(theme) {
  const module = await import(`jsonresume-theme-${theme}`);
  const render = module.render ?? module.default?.render;
  if (typeof render !== "function") throw new Error("the theme exports no render function");
  return render;
}

/**
 * A pool of render workers: `render(theme, resume)` resolves to the page's HTML or rejects. A theme that
 * kills its worker, or takes longer than RENDER_TIMEOUT_MS, fails the jobs that worker had, and a fresh
 * worker takes its place.
 */
function renderPool(size) {
  const pending = new Map();
  let nextId = 0, turn = 0, closing = false;
  const spawn = () => {
    const worker = new Worker(new URL(import.meta.url));
    let death;
    worker.on("message", ({ id, html, error }) => {
      const job = pending.get(id);
      pending.delete(id);
      clearTimeout(job.timer);
      if (error === undefined) job.resolve(html);
      else job.reject(new Error(error));
    });
    worker.on("error", (error) => (death = String(error?.message ?? error).split("\n")[0]));
    worker.on("exit", (code) => {
      death ??= `its worker stopped (exit code ${code})`;
      for (const [id, job] of pending) {
        if (job.worker !== worker) continue;
        pending.delete(id);
        clearTimeout(job.timer);
        job.reject(new Error(job.timedOut ? `no page after ${RENDER_TIMEOUT_MS / 1000} s` : death));
      }
      if (!closing) workers[workers.indexOf(worker)] = spawn();
    });
    return worker;
  };
  const workers = Array.from({ length: size }, spawn);
  const render = (theme, resume) => new Promise((resolve, reject) => {
    const worker = workers[turn++ % workers.length];
    const id = nextId++;
    const job = { resolve, reject, worker, timedOut: false };
    job.timer = setTimeout(() => ((job.timedOut = true), worker.terminate()), RENDER_TIMEOUT_MS);
    pending.set(id, job);
    worker.postMessage({ id, theme, resume });
  });
  const close = () => ((closing = true), Promise.all(workers.map((w) => w.terminate())));
  return { render, close };
}

// ---------------------------------------------------------------------------------------------------------
// Printing

async function launchChromium() {
  const { default: puppeteer } = await import("puppeteer-core");
  return puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update",
    ],
  });
}

/** A page that loads nothing from outside: every request but data: and about: is aborted. */
async function offlinePage(browser) {
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("about:")) request.continue();
    else request.abort("blockedbyclient");
  });
  return page;
}

async function print(page, html) {
  await page.setContent(html, { waitUntil: "load", timeout: LOAD_TIMEOUT_MS });
  return page.pdf(PDF_OPTIONS);
}

// ---------------------------------------------------------------------------------------------------------
// The build

function parseArgs(argv) {
  const options = { out: undefined, count: 200, seed: 1, cached: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--count") options.count = Number(argv[++i]);
    else if (arg === "--seed") options.seed = Number(argv[++i]);
    else if (arg === "--cached") options.cached = true;
    else if (!arg.startsWith("--") && options.out === undefined) options.out = arg;
    else throw new Error(`unknown argument ${arg}`);
  }
  const { out, count, seed, cached } = options;
  const usage = "usage: node build.mjs OUT_DIR [--count N] [--seed S] | node build.mjs --cached";
  if (!out === !cached || !Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    throw new Error(usage);
  }
  return options;
}

/** The files that make the corpus: a change to any of them makes another. */
const SOURCES = ["generate.mjs", "build.mjs", "render.mjs", "package-lock.json"];

/** Where the cache keeps this version of the corpus: its folder, and the folder of all versions. */
function cachedFolder() {
  const hash = createHash("sha256");
  for (const file of SOURCES) hash.update(readFileSync(new URL(file, HERE)));
  const cache = process.env.XDG_CACHE_HOME || `${process.env.HOME}/.cache`;
  const root = `${cache}/redline/import-corpus`;
  return { root, folder: `${root}/${hash.digest("hex").slice(0, 16)}` };
}

/** The cached corpus, built first when it is not there (older versions removed: each is some 600 MB);
 * prints its folder. */
async function cached(options, start) {
  const { root, folder } = cachedFolder();
  if (!existsSync(`${folder}/manifest.json`)) {
    mkdirSync(root, { recursive: true });
    for (const old of readdirSync(root)) rmSync(`${root}/${old}`, { recursive: true, force: true });
    await build({ ...options, out: `${folder}.partial` }, start);
    renameSync(`${folder}.partial`, folder);
  }
  process.stdout.write(`${folder}\n`);
}

/** The themes installed here: package.json's jsonresume-theme-* dependencies, the tuning four first. */
function installedThemes() {
  const { dependencies } = JSON.parse(readFileSync(new URL("package.json", HERE), "utf8"));
  const all = Object.keys(dependencies)
    .filter((name) => name.startsWith("jsonresume-theme-"))
    .map((name) => name.slice("jsonresume-theme-".length));
  const tuning = TUNING_THEMES.filter((t) => all.includes(t));
  return [...tuning, ...all.filter((t) => !tuning.includes(t)).sort()];
}

const pad = (index) => String(index).padStart(3, "0");
const seconds = (start) => ((performance.now() - start) / 1000).toFixed(1);

function writeResumes(out, resumes) {
  mkdirSync(`${out}/resumes`, { recursive: true });
  resumes.forEach((resume, index) => {
    writeFileSync(`${out}/resumes/${pad(index)}.json`, `${JSON.stringify(resume, null, 2)}\n`);
  });
}

/** A rejection handler that names the step that failed. */
const step = (name) => (error) => Promise.reject(new Error(`${name}: ${error.message}`));

/** Renders and prints every (resume, theme) pair; returns the failures. */
async function renderAll(out, resumes, themes, start) {
  for (const kind of ["html", "pdf"]) {
    for (const theme of themes) mkdirSync(`${out}/${kind}/${theme}`, { recursive: true });
  }
  const jobs = resumes.flatMap((resume, index) => themes.map((theme) => ({ theme, index, resume })));
  const pool = renderPool(WORKERS);
  const browser = await launchChromium();
  const failed = [];
  let next = 0, done = 0;
  const lane = async () => {
    const page = await offlinePage(browser);
    while (next < jobs.length) {
      const { theme, index, resume } = jobs[next++];
      const name = `${theme}/${pad(index)}`;
      try {
        const html = await pool.render(theme, resume).catch(step("render"));
        await writeFile(`${out}/html/${name}.html`, html);
        const pdf = await print(page, html).catch(step("print"));
        await writeFile(`${out}/pdf/${name}.pdf`, pdf);
      } catch (error) {
        failed.push({ theme, index, error: error.message });
        console.error(`failed ${name}: ${error.message}`);
      }
      if (++done % 100 === 0 || done === jobs.length) {
        console.error(`${done}/${jobs.length} pages, ${seconds(start)} s`);
      }
    }
    await page.close();
  };
  try {
    await Promise.all(Array.from({ length: PAGES }, lane));
  } finally {
    await browser.close();
    await pool.close();
  }
  return failed.sort((a, b) => a.theme.localeCompare(b.theme) || a.index - b.index);
}

async function main() {
  const start = performance.now();
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  if (options.cached) await cached(options, start);
  else await build(options, start);
}

/** Writes the corpus into `options.out`. */
async function build(options, start) {
  const resumes = generate(options.count, options.seed);
  writeResumes(options.out, resumes);
  const themes = installedThemes();
  console.error(`${resumes.length} resumes × ${themes.length} themes (${themes.join(", ")})`);
  const failed = await renderAll(options.out, resumes, themes, start);
  const indices = resumes.map((_, index) => index);
  const manifest = {
    seed: options.seed,
    count: options.count,
    themes,
    heldOutThemes: themes.filter((t) => !TUNING_THEMES.includes(t)),
    heldOut: indices.filter((i) => split(i) === "heldOut"),
    tuning: indices.filter((i) => split(i) === "tuning"),
    failed,
  };
  writeFileSync(`${options.out}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const pages = resumes.length * themes.length;
  const what = `${resumes.length} resumes × ${themes.length} themes = ${pages} pages`;
  console.error(`built ${what} (${failed.length} failed) in ${seconds(start)} s`);
}


// Last, so that every const above is initialized: the main thread builds, a worker renders.
if (isMainThread) await main();
else renderWorker();
