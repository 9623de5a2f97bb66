// The bridge to the Rust engine: Tauri commands and the surface event.

import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type { AppInfo } from "../bindings/AppInfo";
import type { AtsView } from "../bindings/AtsView";
import type { ChatEvent } from "../bindings/ChatEvent";
import type { ChatPage } from "../bindings/ChatPage";
import type { ConnectionReport } from "../bindings/ConnectionReport";
import type { LocalServer } from "../bindings/LocalServer";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { ProviderView } from "../bindings/ProviderView";
import type { ErrorKind } from "../bindings/ErrorKind";
import type { ExportDone } from "../bindings/ExportDone";
import type { DesignInfo } from "../bindings/DesignInfo";
import type { Design } from "../bindings/Design";
import type { FitDone } from "../bindings/FitDone";
import type { Template } from "../bindings/Template";
import type { Format } from "../bindings/Format";
import type { Sent } from "../bindings/Sent";
import type { ExportRequest } from "../bindings/ExportRequest";
import type { HeldEdits } from "../bindings/HeldEdits";
import type { IpcError } from "../bindings/IpcError";
import type { TurnMessages } from "../bindings/TurnMessages";
import type { TidySource } from "../bindings/TidySource";
import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";
import type { TurnOutcome } from "../bindings/TurnOutcome";
import type { DocState } from "../bindings/DocState";
import type { ImportDone } from "../bindings/ImportDone";
import type { ImportFormat } from "../bindings/ImportFormat";
import type { ImportPreview } from "../bindings/ImportPreview";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { DocumentRow } from "../bindings/DocumentRow";
import type { HistoryPage } from "../bindings/HistoryPage";
import type { HistoryQuery } from "../bindings/HistoryQuery";
import type { RevisionView } from "../bindings/RevisionView";
import type { Operation } from "../bindings/Operation";
import type { TailorView } from "../bindings/TailorView";
import type { WordsChange } from "../bindings/WordsChange";
import type { MenuAction } from "../bindings/MenuAction";
import type { Finding } from "../bindings/Finding";
import type { Application } from "../bindings/Application";
import type { ApplicationFields } from "../bindings/ApplicationFields";
import type { Stage } from "../bindings/Stage";
import type { FolderChosen } from "../bindings/FolderChosen";
import type { SyncSummary } from "../bindings/SyncSummary";
import { CHAT_EVENT, MENU_EVENT, REVIEW_EVENT, SURFACE_EVENT, SYNCED_EVENT } from "../bindings/events";
import { PageUrls, type PagesShown } from "./pages";
import { probeHandled } from "./probe";


/** A command's failure: what kind (the UI picks its action by it), or `internal` if it is not one of ours. */
export function errorKind(err: unknown): ErrorKind {
  if (typeof err === "object" && err !== null && "kind" in err) {
    return (err as IpcError).kind;
  }
  return "internal";
}

/** Opens a link from the resume in the system's browser or mail program (never in the window). */
export const openLink = (url: string) => invoke<void>("open_link", { url });

/** A command's failure as the user should read it. */
export function errorMessage(err: unknown): string {
  if (typeof err === "object" && err !== null && "message" in err) {
    return String((err as IpcError).message);
  }
  return String(err);
}

/** A subscription to the app-wide event `name`: its handler is called with each payload. */
function on<T>(name: string): (handler: (payload: T) => void) => Promise<UnlistenFn> {
  return (handler) => listen<T>(name, (event) => handler(event.payload));
}

/** The current document as a `create` message. */
export const openSurface = () => invoke<SurfaceUpdate>("open_surface");

/** The app's version and data folder. */
export const appInfo = () => invoke<AppInfo>("app_info");

/** Calls `handler` with every surface message the engine emits. */
export const onSurface = on<SurfaceUpdate>(SURFACE_EVENT);

/** Calls `handler` with each menu item the page carries out (the event's names: ipc.rs `AppEvent`). */
export const onMenu = on<MenuAction>(MENU_EVENT);

/** The view has painted the resume for the first time. */
export const painted = () => invoke<void>("painted");


/** Where a turn's stream goes: the resume view's surface messages and the chat's events, in order. */
export interface TurnStream {
  surface(update: SurfaceUpdate): void;
  chat(event: ChatEvent): void;
}

/** How a turn's stream is read: the next of its messages, and its end (Tauri's commands; a fake in tests). */
export interface StreamReader {
  next(turn: number): Promise<TurnMessages>;
  end(turn: number): Promise<void>;
}

const commandReader: StreamReader = {
  next: (turn) => invoke<TurnMessages>("turn_stream", { turn }),
  end: (turn) => invoke("end_turn_stream", { turn }),
};

/** Runs a turn that `start` begins under a new turn number, and reads its stream (ipc.rs `TurnMessage`) into
 * `to` while it runs: ordered, and this window's alone. The window asks for the messages (`turn_stream`),
 * each answer all there are since the last, rather than having each pushed in as a script of its own, which
 * WebKit would keep (engine `streams.rs`). Resolves as the turn does, once every message has been read. */
export async function streamTurn<T>(
  start: (turn: number) => Promise<T>,
  to: TurnStream,
  reader: StreamReader = commandReader,
): Promise<T> {
  const turn = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  const reading = (async () => {
    for (;;) {
      const batch = await reader.next(turn);
      const start = performance.now();
      for (const streamed of batch.items) {
        try {
          if (streamed.to === "surface") to.surface(streamed.message);
          else to.chat(streamed.message);
        } catch (err) {
          console.error(err);
        }
      }
      probeHandled(start);
      if (batch.done) return;
    }
  })();
  try {
    return await start(turn);
  } finally {
    // The command ends the stream itself, unless it never ran (its arguments refused).
    await reader.end(turn).catch(() => undefined);
    await reading.catch((err: unknown) => console.error(err));
  }
}

/** Runs an AI turn for `text`; the reply and the edits stream `to` the view and the chat while it runs. */
export const sendMessage = (text: string, selected: string | null, to: TurnStream) =>
  streamTurn((turn) => invoke<TurnOutcome>("send_message", { text, selected, turn }), to);

/** "Tidy with the model" after an import from a file: a turn whose every edit waits for the user's review. */
export const tidyImport = (source: TidySource, to: TurnStream) =>
  streamTurn((turn) => invoke<TurnOutcome>("tidy_import", { source, turn }), to);

/** Plays the scripted demo (no model, no key) on a fresh copy of the sample resume, streaming `to`. */
export const startDemo = (to: TurnStream) =>
  streamTurn((turn) => invoke<TurnOutcome>("start_demo", { turn }), to);

/** A cover letter for the job `posting`, begun for the resume on screen and opened; the model's first draft
 * streams `to`. */
export const writeLetter = (posting: string, to: TurnStream) =>
  streamTurn((turn) => invoke<TurnOutcome>("write_letter", { posting, turn }), to);

/** From a job `posting` in one step: a tailored copy of the resume on screen, its cover letter (the model's
 * draft streams `to`) and a saved application that pins both. */
export const applyFor = (posting: string, to: TurnStream) =>
  streamTurn((turn) => invoke<TurnOutcome>("apply_for", { posting, turn }), to);

/** Applies edits a turn held for confirmation, as a new revision (its number). */
export const applyHeld = (edits: HeldEdits) => invoke<number>("apply_held", { edits });

/** Stops the running turn; every preview is rolled back. */
export const stopTurn = () => invoke<boolean>("stop_turn");

/** Calls `handler` with every chat event of a running turn. */
export const onChat = on<ChatEvent>(CHAT_EVENT);

/** A page of the conversation about the document on screen: its newest lines before `before` (the newest
 * of all when null), oldest first. */
export const chatHistory = (before: number | null = null) => invoke<ChatPage>("chat_history", { before });

/** The HTML export of the document on screen, for the export dialog's preview. */
export const exportPreview = (request: ExportRequest) => invoke<string>("export_preview", { request });

/** Exports the document on screen into the Downloads folder. */
export const exportDocument = (request: ExportRequest, theme: string | null = null) =>
  invoke<ExportDone>("export_document", { request, theme });

/** Every design a resume can be shown in: the built-in ones, then the user's themes. */
export const designs = () => invoke<DesignInfo[]>("designs");

/** The resume on screen's design and its options (`/meta/design`), as a revision of the user's own. */
export const setDesign = (base: number, design: Design) => invoke<DocState>("set_design", { base, design });

/** The resume on screen fitted to `pages` pages (spacing, then margins, then size), as a revision. */
export const fitPages = (base: number, pages: number) => invoke<FitDone>("fit_pages", { base, pages });
/** The photo from the image at `path`, or from the one picked in the system's dialog (`null`: cancelled). */
export const choosePhoto = (base: number, path: string | null) =>
  invoke<DocState | null>("choose_photo", { base, path });
export const removePhoto = (base: number) => invoke<DocState>("remove_photo", { base });

/** The first page of the resume on screen in `template`, small, as an object URL (the caller revokes it). */
export async function designThumbnail(template: Template): Promise<string> {
  const bytes = await invoke<ArrayBuffer | number[]>("design_thumbnail", { template });
  const buffer = bytes instanceof ArrayBuffer ? bytes : new Uint8Array(bytes).buffer;
  return URL.createObjectURL(new Blob([buffer], { type: "image/png" }));
}

/** What the user's theme `name`'s files are now: it changes when one of them changes. */
export const themeStamp = (name: string) => invoke<string>("theme_stamp", { name });

/** What application `id` sent (its resume or letter at the revisions it pinned), made again as `format` in the
 * pinned resume's design, into the Downloads folder. */
export const exportSent = (id: number, sent: Sent, format: Format) =>
  invoke<ExportDone>("export_sent", { id, sent, format });

/** The saved provider: its settings, and whether a key is set (never the key). */
export const providerSettings = () => invoke<ProviderView>("provider_settings");

/** Saves the provider settings. */
export const saveProvider = (settings: ProviderSettings) => invoke<ProviderView>("save_provider", { settings });

/** Keeps `key` in the OS keychain for the saved provider; the reply says only that a key is set. */
export const setKey = (key: string) => invoke<ProviderView>("set_key", { key });

/** Removes the saved provider's key from the OS keychain. */
export const clearKey = () => invoke<ProviderView>("clear_key");

/** Tests the connection to the saved provider and its two models. */
export const testConnection = () => invoke<ConnectionReport>("test_connection");

/** The model servers that answer at their usual addresses on this computer. */
export const findLocalServers = () => invoke<LocalServer[]>("find_local_servers");

/** Every resume that is not deleted, most recently changed first. */
export const listDocuments = () => invoke<DocumentRow[]>("list_documents");

/** The resume on screen: which, its revision, what Undo and Redo would do. */
export const documentState = () => invoke<DocState>("document_state");

/** Opens another resume; the view hears it as a `create`. */
export const openDocument = (id: number) => invoke<DocState>("open_document", { id });

/** A new resume, blank or a copy of the sample, opened. */
export const newDocument = (fromSample: boolean) => invoke<DocState>("new_document", { fromSample });

/** Imports a resume (PDF, Word, OpenDocument, LinkedIn's export, text or JSON Resume) and opens it: the file
 * at `path`, or (without) the one picked in the system's open dialog — `null` when the user cancels. What it
 * was read as comes back, with the lines that found no place. */
export const importDocument = (path: string | null = null) => invoke<ImportDone | null>("import_document", { path });

/** Reads a resume for the import review, writing nothing: the file at `path`, or (without) the one picked
 * in the system's open dialog — `null` when the user cancels. */
export const previewImport = (path: string | null = null) => invoke<ImportPreview | null>("preview_import", { path });

/** The files the app was asked to open before the window was there (a PDF, a Word file, …), for the
 * import review, once. */
export const takeReviews = () => invoke<ImportPreview[]>("take_reviews");

/** A file the running app was asked to open (a second launch), read for the import review. */
export const onReview = on<ImportPreview>(REVIEW_EVENT);

/** Imports the resume the review shows (fixed by hand, perhaps) and opens it. */
export const importReviewed = (document: JsonValue, format: ImportFormat) =>
  invoke<ImportDone>("import_reviewed", { document, format });

/** A copy of a resume with its own history, opened. */
export const duplicateDocument = (id: number) => invoke<DocState>("duplicate_document", { id });

/** Gives a resume a new title. */
export const renameDocument = (id: number, title: string) => invoke<void>("rename_document", { id, title });

/** Deletes a resume softly (undeleteDocument brings it back); returns the resume now on screen. */
export const deleteDocument = (id: number) => invoke<DocState>("delete_document", { id });

/** Brings a deleted resume back. */
export const undeleteDocument = (id: number) => invoke<void>("undelete_document", { id });

/** Takes back the latest change to the resume on screen (a new revision: nothing is lost). */
export const undo = () => invoke<DocState>("undo");

/** Applies again the change undone last. */
export const redo = () => invoke<DocState>("redo");

/** A page of the history of the resume on screen, newest first: the revisions older than `before` (from the
 * newest when null) whose words have each of `words` (all when null). */
export const history = (query: HistoryQuery) => invoke<HistoryPage>("history", { query });

/** One revision as it was, and what it changed, in words. */
export const revision = (number: number) => invoke<RevisionView>("revision", { number });

/** Makes the resume read as it did at revision `number`, as a new revision. */
export const restore = (number: number) => invoke<DocState>("restore", { number });

/** What happened at start that the user should hear of (a file that could not be opened), once. */
export const takeNotices = () => invoke<string[]>("take_notices");

/** An edit made by hand in the view: `ops` against revision `base`, committed as a revision of the user's. */
export const editDocument = (base: number, ops: Operation[]) => invoke<DocState>("edit_document", { base, ops });

/** The resume's language or a section's heading (`meta.language`, `meta.headings`), as a revision. */
export const setWords = (base: number, change: WordsChange) => invoke<DocState>("set_words", { base, change });

const pageUrls = new PageUrls();

/**
 * The pages of `document` (the view's, previews included) as the PDF prints them, for the Page view: each
 * page an object URL, made once per picture (the engine sends only the pages the window does not hold).
 */
export async function pageImages(
  document: unknown,
  request: ExportRequest,
  theme: string | null = null,
  shownWidth: number | null = null,
): Promise<PagesShown> {
  const ask = (have: string[]) =>
    invoke<ArrayBuffer | number[]>("page_images", { document, request, have, theme, shownWidth });
  const shown = pageUrls.take(await ask(pageUrls.keys()));
  if (shown) return shown;
  // A page neither sent nor held: ask for every page.
  pageUrls.clear();
  const all = pageUrls.take(await ask([]));
  if (!all) throw new Error("the pages did not arrive");
  return all;
}

/** How an applicant tracking system reads the resume's PDF (in `request`'s template and page size). */
/** How an ATS reads the PDF in a built-in design, or in the user's theme `theme` (laid out by its child). */
export const atsCheck = (request: ExportRequest, theme: string | null = null) =>
  invoke<AtsView>("ats_check", { request, theme });

/** A copy of the resume on screen tailored to a job posting, opened, with its coverage report. */
export const tailorDocument = (posting: string) => invoke<TailorView>("tailor_document", { posting });

/** The tailoring report of the resume on screen, or null if it is not a tailored copy. */
export const tailoring = () => invoke<TailorView | null>("tailoring");

/** The edits held for the user's confirmation on the resume on screen (kept across restarts). */
export const heldEdits = () => invoke<HeldEdits[]>("held_edits");

/** What held edits would bring to the resume's writing, before they are accepted: the writing checks'
 * findings, one list per edit. */
export const heldFindings = (edits: HeldEdits) => invoke<Finding[][]>("held_findings", { edits });

/** Discards held edits: they are not offered again. */
export const discardHeld = (edits: HeldEdits) => invoke<void>("discard_held", { edits });

/** Whether review mode is on: every AI edit waits on a card for Accept. */
export const reviewMode = () => invoke<boolean>("review_mode");

/** Turns review mode on or off; returns the new state. */
export const setReviewMode = (on: boolean) => invoke<boolean>("set_review_mode", { on });

/** The writing checks of the resume on screen: spelling, grammar and a recruiter's rules (the engine's `lint`). */
export const lintDocument = () => invoke<Finding[]>("lint_document");

/** Applies a finding's suggested words on revision `base`, as a revision of its own (source "check"). */
export const fixFinding = (base: number, finding: Finding) => invoke<DocState>("fix_finding", { base, finding });

/** Turns a writing check's rule on or off (kept in the settings). */
export const setRuleEnabled = (rule: string, on: boolean) => invoke<void>("set_rule_enabled", { rule, on });

/** Adds a word to the user's dictionary (the data folder's, never the resume's). */
export const addWord = (word: string) => invoke<void>("add_word", { word });

/** Every application, newest first. */
export const listApplications = () => invoke<Application[]>("list_applications");

/** Records a new application; with `pin`, the resume on screen at its head revision is pinned to it. */
export const addApplication = (fields: ApplicationFields, pin: boolean) =>
  invoke<Application>("add_application", { fields, pin });

/** Moves an application to another stage, dated today. */
export const moveApplication = (id: number, stage: Stage) => invoke<Application>("move_application", { id, stage });

/** Writes every application as CSV to a file the user picks; where, or null if they cancelled. */
export const exportApplicationsCsv = () => invoke<string | null>("export_applications_csv");

/** Reads applications from a CSV file the user picks; how many were added, or null if they cancelled. */
export const importApplicationsCsv = () => invoke<number | null>("import_applications_csv");

/** Where this device syncs, when it last did, and the other devices seen (nothing is synced). */
export const syncStatus = () => invoke<SyncSummary>("sync_status");

/** One sync: this device's changes out, the other devices' in, merged. */
export const syncNow = () => invoke<SyncSummary>("sync_now");

/** Calls `handler` with each sync the app ran by itself, after another device's files came into the folder. */
export const onSynced = on<SyncSummary>(SYNCED_EVENT);

/** Syncs through a folder the user picks from now on, and syncs once; or, when it holds resumes from other
 * devices, what it holds, to offer before anything is brought in; null if they cancelled. */
export const chooseSyncFolder = () => invoke<FolderChosen | null>("choose_sync_folder");

/** Syncs through the folder at `path` from now on, and syncs once (once the user said to bring in what it holds). */
export const syncThroughFolder = (path: string) => invoke<SyncSummary>("sync_through_folder", { path });

/** Syncs through the git remote at `url` from now on, and syncs once. */
export const syncThroughGit = (url: string) => invoke<SyncSummary>("sync_through_git", { url });

/** Stops syncing; what was synced stays. */
export const syncOff = () => invoke<SyncSummary>("sync_off");
