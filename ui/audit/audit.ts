// The window as the accessibility audit sees it (scripts/audit.mjs): the real App, its IPC answered by
// mocks with the sample resume, a history and a few documents, so that every screen and dialog can be
// opened in a plain browser. Built on its own (vite.audit.config.ts), never into the app.
import { mockIPC, mockWindows } from "@tauri-apps/api/mocks";
import { mount } from "svelte";
import sample from "../../assets/sample.resume.json";
import "virtual:palette.css";
import "../src/app.css";
import App from "../src/App.svelte";
import { applyTheme, savedTheme } from "../src/lib/theme";

const now = Math.floor(Date.now() / 1000);

function pageBytes(count: number): ArrayBuffer {
  const png = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="),
    (c) => c.charCodeAt(0),
  );
  const pages = Array.from({ length: count }, (_, i) => ({ key: `page-${i}`, bytes: png.length }));
  const header = new TextEncoder().encode(JSON.stringify({ pages, count, width: 595.28, height: 841.89 }));
  const out = new Uint8Array(4 + header.length + count * png.length);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  for (let i = 0; i < count; i++) out.set(png, 4 + header.length + i * png.length);
  return out.buffer;
}
// `?long-words`: a resume and a chat with a word longer than any line (a pasted token, or a model's hostile
// answer) everywhere text is shown; nothing may run off the side.
const longWords = new URLSearchParams(location.search).has("long-words");
const word = "Supercalifragilisticexpialidocious".repeat(6);
function withLongWords(resume: typeof sample): typeof sample {
  const r = structuredClone(resume);
  r.basics.name = word;
  r.basics.email = `${word}@example.com`;
  r.basics.url = `https://example.com/${word}`;
  r.basics.summary = `Before ${word} after.`;
  const first = <T,>(list: T[], change: (item: T) => T) => list.map((item, i) => (i === 0 ? change(item) : item));
  r.work = first(r.work, (w) => ({ ...w, position: word, location: word, highlights: first(w.highlights, () => `Before ${word} after.`) }));
  r.skills = first(r.skills, (s) => ({ ...s, keywords: first(s.keywords, () => word) }));
  return r;
}
// `?lang=TAG`: the resume in one of the eight languages (`meta.language`), so that the frame is looked at with
// its headings in German's long words and with Arabic right to left.
const language = new URLSearchParams(location.search).get("lang");
function inLanguage(resume: typeof sample, tag: string): typeof sample {
  return { ...resume, meta: Object.assign({ language: tag }, resume.meta) };
}
const plain = longWords ? withLongWords(sample) : sample;
const resume = language ? inLanguage(plain, language) : plain;
// `?first-run`: nothing saved yet, so the window opens on its first start.
const firstRun = new URLSearchParams(location.search).has("first-run");
// `?held`: edits the model proposed, waiting on review cards (one of several edits, one of a single edit).
const held = new URLSearchParams(location.search).has("held");
const heldCards = [
  {
    documentId: 1,
    base: 3,
    ops: [
      { op: "replace", path: "/basics/summary", value: "Builds compression software and the team that ships it." },
      { op: "add", path: "/skills/0/keywords/-", value: "Rust" },
      { op: "replace", path: "/basics/url", value: "https://piedpiper.example" },
    ],
    descriptions: ["Change your summary", "Add “Rust” to your skills", "Change your website"],
    proposal: true,
    why: ["outside", "outside", "newLink"],
  },
  {
    documentId: 1,
    base: 3,
    ops: [{ op: "replace", path: "/basics/label", value: "Chief Compression Officer" }],
    descriptions: ["Change your title to “Chief Compression Officer”"],
    proposal: false,
    why: ["aboutYou"],
  },
];
const state = { documentId: 1, title: "Richard Hendriks — Programmer", demo: false, revision: 3, undo: "Add Rust to your skills", redo: null };
// What the writing checks find in the sample, as the engine would say it.
const findings = [
  { rule: "spelling", path: "/basics/summary", start: 19, end: 24, text: "Tulsa", message: "Tulsa is not in the dictionary.", fix: null },
  { rule: "bullet.action-verb", path: "/work/0/highlights/0", start: 0, end: 5, text: "Build", message: "A bullet of an ended job says what you did, in the past: “Built”.", fix: "Built" },
  { rule: "bullet.no-number", path: "/work/0/highlights/1", start: 0, end: 35, text: "Successfully won Techcrunch Disrupt", message: "No bullet of this job has a number: how many, how much, how fast?", fix: null },
];
// Applications at every stage: one with its follow-up due, one with the resume pinned.
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const application = (id: number, company: string, role: string, stage: string, timeline: string[], extra = {}) => ({
  id, company, role, posting: "", source: "LinkedIn", url: "", stage, contacts: "", notes: "", salary: "", followUp: null,
  tags: ["backend"], resume: null, letter: null, createdAt: now * 1000, updatedAt: now * 1000 - id,
  timeline: timeline.map((s, i) => ({ stage: s, date: day(30 - i * 7) })), ...extra,
});
const applications = [
  application(1, "Hooli", "Staff Engineer", "interviewing", ["saved", "applied", "interviewing"], { resume: { documentId: 1, revision: 3 } }),
  application(2, "Raviga Capital", "Platform Engineer", "applied", ["applied"], { followUp: day(1) }),
  application(3, "Endframe", "Compression Lead", "rejected", ["applied", "rejected"]),
  application(4, "Bachmanity", "CTO", "saved", ["saved"]),
  application(5, "Aviato", "Backend Engineer", "offer", ["applied", "interviewing", "offer"]),
];
const answers: Record<string, unknown> = {
  lint_document: findings,
  list_applications: applications,
  open_surface: { kind: "create", surfaceId: "main", seq: 0, revision: 3, document: resume },
  document_state: state,
  app_info: { version: "0.1.0", dataDir: "/home/you/.local/share/app.redline.desktop" },
  chat_history: { older: null, lines: firstRun ? [] : [
    { role: "user", text: "Add Rust to my skills" },
    { role: "assistant", text: longWords ? `Added ${word} to your skills.` : "Added Rust to your skills." },
  ] },
  provider_settings: {
    settings: { preset: "ollama", baseUrl: "http://127.0.0.1:11434/v1", chatModel: "llama3.1", patchModel: "llama3.1", firstTokenTimeoutSecs: 60, idleTimeoutSecs: 30 },
    saved: !firstRun,
    keySet: false,
    keyFor: "ollama@127.0.0.1",
    keychainProblem: null,
    fromEnv: false,
  },
  find_local_servers: [],
  sync_status: {
    place: { kind: "folder", path: "/home/you/Dropbox" }, device: "5f0c1d2e-0000-4000-8000-000000000001",
    sent: 0, read: 0, accepted: 0, written: 0, bytesWritten: 0, skipped: [], broughtIn: [], updated: [], deleted: [],
    held: 0, notices: [], devices: ["9a8b7c6d-0000-4000-8000-000000000002"], lastSyncedAt: now * 1000 - 300_000,
  },
  list_documents: [
    { id: 1, title: state.title, name: "Richard Hendriks", updatedAt: now - 60, revision: 3, current: true, demo: false, variantOf: null, problem: null, kind: "resume" },
    { id: 2, title: "Richard Hendriks — for Hooli", name: "Richard Hendriks", updatedAt: now - 3600, revision: 5, current: false, demo: false, variantOf: state.title, problem: null, kind: "resume" },
  ],
  history: {
    rows: [
      { number: 3, createdAt: now - 60, source: "ai", summary: "Add Rust to your skills" },
      { number: 2, createdAt: now - 120, source: "user", summary: "Change your title to “Programmer”" },
      { number: 1, createdAt: now - 3600, source: "import", summary: "Imported" },
    ],
    more: false,
    head: 3,
  },
  revision: { number: 3, document: sample, changes: ["Add Rust to your skills"], paths: ["/skills/0/keywords/3"] },
  take_notices: [],
  take_reviews: [],
  held_edits: held ? heldCards : [],
  review_mode: false,
  tailoring: null,
  export_preview: "<!doctype html><html lang='en'><head><title>Preview</title></head><body><main><h1>Richard Hendriks</h1></main></body></html>",
  // A white 1×1 PNG as each of two pages: the audit checks the page view's text and controls, not Typst's
  // drawing. Framed as the engine sends it (ipc.rs `PageImages::to_bytes`).
  page_images: pageBytes(2),
  // The design gallery: the built-in designs and a theme of the user's own, each thumbnail the same 1×1 PNG.
  designs: [
    { name: "classic", label: "Classic", description: "serif, one column, centred header", builtIn: true },
    { name: "mine", label: "Mine", description: "made from Modern", builtIn: false },
  ],
  design_thumbnail: pageBytes(1).slice(4 + new DataView(pageBytes(1)).getUint32(0, true)),
  ats_check: {
    pages: 1,
    sections: [{ id: "basics", heading: "", text: "Richard Hendriks Programmer" }, { id: "work", heading: "Work", text: "Work CEO/President" }],
    missing: [{ section: "work", field: "item", text: "Won Techcrunch Disrupt" }],
    outOfOrder: [],
  },
};

/** What the writing checks find in held edits: one thing in a new summary, nothing in the rest. */
const heldFindings = (edits: { ops: { path: string }[] }) =>
  edits.ops.map((op) =>
    op.path === "/basics/summary"
      ? [{ rule: "bullet.first-person", path: op.path, start: 0, end: 6, text: "Builds", message: "A resume speaks without “I”: start with what you did.", fix: null }]
      : [],
  );

mockWindows("main");
mockIPC(
  (cmd, args) =>
    cmd === "held_findings"
      ? heldFindings((args as { edits: { ops: { path: string }[] } }).edits)
      : cmd in answers
        ? structuredClone(answers[cmd])
        : null,
  { shouldMockEvents: true },
);

applyTheme(savedTheme());
const target = document.getElementById("app");
if (!target) throw new Error("no #app");
mount(App, { target });
