// The chat's messages, and how each chat event of a running turn changes them.

import type { ChatEvent } from "../bindings/ChatEvent";
import type { Finding } from "../bindings/Finding";
import type { HeldEdits } from "../bindings/HeldEdits";
import type { Hold } from "../bindings/Hold";
import type { ImportDone } from "../bindings/ImportDone";
import type { ImportMisfit } from "../bindings/ImportMisfit";
import type { TidySource } from "../bindings/TidySource";
import type { ImportFormat } from "../bindings/ImportFormat";
import { IMPORT_FORMATS } from "../bindings/vocabulary";

export interface ChatMessage {
  role: "user" | "assistant" | "notice" | "warning" | "error" | "held";
  text: string;
  /** For `error`: what the user can do about it (the chat shows a button). */
  action?: "settings" | "replace-key";
  /** For a notice after an import from a file: what the model needs to tidy it (the chat shows a button). */
  tidy?: TidySource;
  /** For `held`: the edits waiting for the user, what became of them, and what the writing checks find in
   * each (one list per edit, once checked). */
  held?: {
    edits: HeldEdits;
    state: "open" | "applying" | "applied" | "discarded";
    error?: string;
    findings?: Finding[][];
  };
  /** For a `user` message: where it is in the stored conversation, once its turn has said. */
  stored?: number;
  /** For the notice that a turn's edits were saved: the revision they were saved as. */
  savedAs?: number;
}

/** The most messages the chat's list holds before it lets the oldest go, and about how many it keeps then.
 * (The page shows 100 at a time; a session of a thousand asks would otherwise keep five thousand.) */
export const MOST_HELD = 400;
export const KEEP_HELD = 300;

/** Where to cut the chat's list once it holds more than `most` messages, keeping about the newest `keep`:
 * at a message of the user's whose place in the store is known, so that what was let go can be read back
 * from there as the user scrolls up. Null when nothing is to go — or when an edit still waiting for the user
 * is among what would (its card must stay). */
export function cutPoint(
  messages: readonly ChatMessage[],
  keep = KEEP_HELD,
  most = MOST_HELD,
): { index: number; before: number } | null {
  if (messages.length <= most) return null;
  for (let i = Math.max(0, messages.length - keep); i < messages.length; i++) {
    const stored = messages[i]?.stored;
    if (stored === undefined) continue;
    const waiting = messages.slice(0, i).some((m) => m.held && m.held.state !== "applied" && m.held.state !== "discarded");
    return waiting ? null : { index: i, before: stored };
  }
  return null;
}

/** Applies one chat event: reply text grows the assistant's message in place; the rest are lines of their own. */
export function applyChatEvent(messages: ChatMessage[], event: ChatEvent): void {
  switch (event.kind) {
    case "user":
      messages.push({ role: "user", text: event.text });
      break;
    case "delta": {
      const last = messages[messages.length - 1];
      if (last?.role === "assistant") last.text += event.text;
      else messages.push({ role: "assistant", text: event.text });
      break;
    }
    case "planning":
      messages.push({ role: "notice", text: `Editing: ${event.changes}` });
      break;
    case "committed":
      messages.push({ role: "notice", text: `Saved as revision ${event.revision}.`, savedAs: event.revision });
      break;
    case "refused":
      messages.push({
        role: "warning",
        text: `Refused: ${event.reason}${event.retrying ? " — asking the model again." : ""}`,
      });
      break;
    case "warning":
      messages.push({ role: "warning", text: event.text });
      break;
    case "status":
      if (event.text !== "") messages.push({ role: "notice", text: event.text });
      break;
    case "held":
      messages.push(heldMessage(event.edits));
      break;
  }
}

/** What a finished turn said, for screen readers (once, when it ends): its reply, what it was saved as, and
 * any error; not the other notices and warnings on the way. */
export function spokenAtTurnEnd(said: readonly ChatMessage[]): string {
  return said
    .filter((m) => m.role === "assistant" || m.role === "error" || m.savedAs !== undefined)
    .map((m) => m.text)
    .join(" ");
}

/** Why an edit was held, as the chat's card says it. */
const HELD_BECAUSE: Record<Hold, string> = {
  outside: "outside what you asked",
  aboutYou: "a change to who the resume is about",
  removesEntry: "a whole entry removed",
  newLink: "a link you never gave",
  notInResume: "not in your resume",
  otherDevice: "changed on another device too",
};

/** The chat's card for edits held for the user: why, then each listed in words, with Accept and Reject. */
export function heldMessage(edits: HeldEdits): ChatMessage {
  const n = edits.ops.length;
  const count = n === 1 ? "one edit" : `${n} edits`;
  const reasons = [...new Set(edits.why)];
  let text: string;
  if (edits.proposal) text = `For your review — nothing is saved until you accept: ${count}.`;
  else if (reasons.length === 0 || (reasons.length === 1 && reasons[0] === "outside"))
    text = `Also proposed, outside what you asked — not applied: ${count}.`;
  else text = `Held for you to confirm — not applied: ${count} (${reasons.map((r) => HELD_BECAUSE[r]).join("; ")}).`;
  return { role: "held", text, held: { edits, state: "open" } };
}

/** The most lines not placed an import's notice quotes; the rest are counted. */
const MAX_QUOTED = 20;

/** What a file was read as, in words ("PDF", "Word document", …). */
export function importFormatLabel(format: ImportFormat): string {
  return IMPORT_FORMATS.find((f) => f.value === format)?.label ?? format;
}

/** A value read into a field it does not fit, left out of the resume, in words. */
export function misfitSaid(misfit: ImportMisfit): string {
  return `“${misfit.text}” was read as ${misfit.field} but ${misfit.reason}; it was left out.`;
}

/** What the chat says after an import: what the file was read as, and every line that found no place in
 * the resume (the first ones quoted, the rest counted), so that nothing is dropped in silence. */
export function importedNotice(done: ImportDone): string {
  const said = [`Imported “${done.state.title}” (${importFormatLabel(done.format)}).`, ...done.misfits.map(misfitSaid)].join(" ");
  const n = done.unplaced.length;
  if (n === 0) return said;
  const quoted = done.unplaced.slice(0, MAX_QUOTED).map((line) => `• ${line}`);
  if (n > MAX_QUOTED) quoted.push(`and ${n - MAX_QUOTED} more`);
  const lines = n === 1 ? "One line" : `${n} lines`;
  return `${said} ${lines} of it found no place in the resume; add ${n === 1 ? "it" : "them"} by hand if they belong:\n${quoted.join("\n")}`;
}

