// Editing the resume by hand in the view: a field's new text becomes operations (the same kind the model
// writes), which the engine checks with the same policy and commits as a revision of the user's own.

import { getContext, setContext } from "svelte";
import type { Operation } from "../bindings/Operation";
import type { WordsChange } from "../bindings/WordsChange";

/** A field's highlight: a change previewed (`pending`), just committed (`changed`), or fading out after it
 * (`fading`, for {@link FADE_MS}, only when the view is at rest); null if none. */
export type Highlight = "pending" | "changed" | "fading" | null;

/** How long a highlight takes to fade out: app.css's `.fading` transition. */
export const FADE_MS = 1200;

/** What the view's editable fields need from the app. */
export interface Editing {
  /** False while the model is editing (a field being streamed is not the user's to change). The editing
   * controls stay in place meanwhile: hover no longer shows them (`.resume.locked`) and they do nothing
   * ({@link ifEnabled}), so a turn starting or ending changes one attribute, not every field of the view. */
  readonly enabled: boolean;
  /** True for a copy of the resume that is only for reading (the history's): it has no editing controls. */
  readonly copy?: boolean;
  /** Told when the user reaches for a control while the model edits (it stays in place, and does nothing):
   * the app says why, for those who cannot see that nothing happened. */
  busy?(): void;
  /** Commits operations made in the view. */
  commit(ops: Operation[]): void;
  /** The field the user selected (its pointer), which the next message is about; null if none. */
  readonly selected: string | null;
  /** Selects the field at `path` (`label` says what it is, for the chat), or clears the selection. */
  select(path: string | null, label?: string): void;
  /** How the field at `path` is highlighted (a change landing, or the change a past revision made). */
  highlight(path: string): Highlight;
  /** What a preview is removing from the list or object at `parent` (each with the index or key it had),
   * shown struck through. */
  removing?(parent: string): { index: number; key: string; value: unknown }[];
  /** Changes the resume's language or a section's heading (`meta`, which no other edit may touch). */
  words?(change: WordsChange): void;
}

/** A removed value as the view shows it struck through: text as it is, an entry by what names it. */
export function ghostText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const named = value as Record<string, unknown>;
    for (const key of ["position", "name", "title", "institution", "organization", "language"]) {
      if (typeof named[key] === "string" && named[key] !== "") return named[key] as string;
    }
  }
  return JSON.stringify(value);
}

/** True when `path` is one of `changed` or inside one of them. */
export function touched(changed: readonly string[], path: string): boolean {
  return changed.some((c) => c === path || path.startsWith(`${c}/`));
}

/** The context key (exported for tests that render a view with editing). */
export const EDITING_KEY = Symbol("editing");

/** Makes `editing` available to every editable field below the calling component (`undefined`: none of
 * them is editable, as in the history's copy of the resume). */
export function provideEditing(editing: Editing | undefined): void {
  setContext(EDITING_KEY, editing);
}

/** Whether `editing` is that of a view whose fields have editing controls (the history's copy has none). */
export function hasControls(editing: Editing | undefined): editing is Editing {
  return editing !== undefined && !editing.copy;
}

/** `value` when the user may edit now; otherwise null, and the app is told the user reached for a control
 * while the model edits (so that it can say why nothing happens). */
export function ifEnabled<T>(editing: Editing | undefined, value: T): T | null {
  if (editing?.enabled) return value;
  editing?.busy?.();
  return null;
}

/** The editing of the view this field is in, if the view is editable (the history's copy is not). */
export function useEditing(): Editing | undefined {
  return getContext<Editing | undefined>(EDITING_KEY);
}

/** The operations that make the text at `path` read `value`: nothing when unchanged; a field emptied is
 * removed (JSON Resume leaves out what it does not know), a new one added. Surrounding space is trimmed. */
export function fieldOps(path: string, value: string, was: string | undefined): Operation[] {
  const text = value.trim();
  if (text === (was ?? "").trim()) return [];
  if (text === "") return was === undefined ? [] : [{ op: "remove", path }];
  if (was === undefined) return [{ op: "add", path, value: text }];
  return [{ op: "replace", path, value: text }];
}

/** The operation that appends `value` to the list at `listPath` (nothing for empty text). */
export function appendOps(listPath: string, value: string, listExists: boolean): Operation[] {
  const text = value.trim();
  if (text === "") return [];
  return listExists ? [{ op: "add", path: `${listPath}/-`, value: text }] : [{ op: "add", path: listPath, value: [text] }];
}

/** The operation that moves item `from` of the list at `listPath` to index `to`. */
export function moveOps(listPath: string, from: number, to: number, length: number): Operation[] {
  if (to < 0 || to >= length || to === from) return [];
  return [{ op: "move", from: `${listPath}/${from}`, path: `${listPath}/${to}` }];
}

/** Brings the element into view when a change starts landing in it — its mark turns `pending`, or
 * `changed` from nothing — and it is off screen: a field as near as it can be (with room below it to grow
 * into: its `scroll-margin`, app.css), an entry (`top`) from its top, so that the fields the model writes into
 * it next are in view without a scroll each. At once while the model is still writing or the user asks for
 * less motion: a smooth scroll repaints the whole pane at every frame it lasts, and a turn adding a job would
 * keep one going all along. A frame late: the frame that lays out what came (off screen, it paints almost
 * nothing) is not also the one that scrolls, which repaints the whole pane. */
export function reveal(node: HTMLElement, mark: Highlight, top = false): { update: (mark: Highlight) => void } {
  let was: Highlight = null;
  const lit = (m: Highlight) => m === "pending" || m === "changed";
  const show = (now: Highlight) => {
    const starts = now === "pending" ? was !== "pending" : now === "changed" && !lit(was);
    was = now;
    if (!starts || typeof node.getBoundingClientRect !== "function") return;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (!node.isConnected) return;
        const box = node.getBoundingClientRect();
        if (box.bottom <= window.innerHeight && box.top >= 0) return;
        const still =
          node.closest(".locked") !== null || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
        node.scrollIntoView?.({ block: top ? "start" : "nearest", behavior: still ? "instant" : "smooth" });
      }),
    );
  };
  show(mark);
  return { update: show };
}

/** {@link reveal} for an entry: from its top. */
export function revealEntry(node: HTMLElement, mark: Highlight): { update: (mark: Highlight) => void } {
  return reveal(node, mark, true);
}

/** Where proposed operations would change the resume, to outline in the view while they wait: a field
 * replaced or removed, or — for an addition to a list — the list. */
export function proposedPaths(ops: readonly Operation[]): string[] {
  return ops.map((op) => (op.op === "add" ? op.path.replace(/\/(-|\d+)$/, "") : op.path));
}

/** The keys of a one-line field that adds or renames: Enter does `done`; Escape does `cancel`, and stops there
 * (the dialog or view around the field does not take it too). */
export function enterOrEscape(done: () => void, cancel: () => void): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      done();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  };
}

/** `use:focusOnShow`: the field takes the focus as it appears. */
export function focusOnShow(node: HTMLElement): void {
  node.focus();
}
