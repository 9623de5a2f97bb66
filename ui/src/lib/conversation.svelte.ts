// The chat beside the resume: its lines (read from the store a page at a time, the oldest let go in a long
// session), the turn that runs, and the model's held edits decided on their cards, each with what the
// writing checks find in it before it is accepted. The window (App.svelte)
// owns one; what a turn sends and where its events go are the window's, passed in.
import {
  applyHeld,
  chatHistory,
  discardHeld,
  errorKind,
  errorMessage,
  heldEdits,
  heldFindings,
} from "./backend";
import type { ErrorKind } from "../bindings/ErrorKind";
import type { ChatLine } from "../bindings/ChatLine";
import { cutPoint, heldMessage, spokenAtTurnEnd, type ChatMessage } from "./chat";

/** The store's side of the chat: its pages and its held edits (the backend's, or a test's). */
export interface ChatSource {
  history: typeof chatHistory;
  held: typeof heldEdits;
  apply: typeof applyHeld;
  discard: typeof discardHeld;
  findings: typeof heldFindings;
}

const BACKEND: ChatSource = {
  history: chatHistory,
  held: heldEdits,
  apply: applyHeld,
  discard: discardHeld,
  findings: heldFindings,
};

/** What the user can do about a failure of this kind, from the chat line that reports it. */
export function actionFor(kind: ErrorKind): ChatMessage["action"] {
  switch (kind) {
    case "unauthorized":
      return "replace-key";
    case "not_configured":
    case "model_not_found":
    case "unreachable":
      return "settings";
    default:
      return undefined;
  }
}

function chatLine(line: ChatLine): ChatMessage {
  return { role: line.role === "user" ? "user" : "assistant", text: line.text };
}

export class Conversation {
  messages = $state<ChatMessage[]>([]);
  /** A turn runs. */
  running = $state(false);
  /** From Send until the model's first word (or the turn's end). */
  thinking = $state(false);
  /** Said once to screen readers when a turn ends: the reply, or the error. */
  announcement = $state("");
  /** What to ask for the older lines of the conversation, not yet read (null: there are none). */
  older = $state<number | null>(null);
  /** Which load of the conversation is the latest: an older one that answers late is dropped. */
  #load = 0;
  /** How many older lines have been put in front of the chat (a turn finds its own lines by it). */
  #prepended = 0;
  readonly #source: ChatSource;

  constructor(source: ChatSource = BACKEND) {
    this.#source = source;
  }

  /** A line the window has to say (an error, a notice). */
  say(message: ChatMessage): void {
    this.messages.push(message);
  }

  /** Another resume is on screen: its own conversation replaces this one. */
  replace(): Promise<void> {
    this.messages.length = 0;
    this.older = null;
    return this.load();
  }

  /** The conversation so far, kept with the document across restarts, and the edits still held for the user. */
  async load(): Promise<void> {
    const mine = ++this.#load;
    try {
      const [page, waiting] = await Promise.all([this.#source.history(), this.#source.held()]);
      if (mine === this.#load && this.messages.length === 0) {
        this.messages.push(...page.lines.map(chatLine));
        this.older = page.older;
        for (const edits of waiting) this.messages.push(heldMessage(edits));
        this.#checkHeld(0);
      }
    } catch {
      // The resume view already says why the store could not be opened.
    }
  }

  /** Reads the page of the conversation before the lines in the chat into its start; how many came. */
  async loadOlder(): Promise<number> {
    const before = this.older;
    if (before === null) return 0;
    const mine = this.#load;
    try {
      const page = await this.#source.history(before);
      if (mine !== this.#load || this.older !== before) return 0;
      this.messages.unshift(...page.lines.map(chatLine));
      this.#prepended += page.lines.length;
      this.older = page.older;
      return page.lines.length;
    } catch (err) {
      this.messages.push({ role: "error", text: errorMessage(err) });
      return 0;
    }
  }

  /** Runs one turn; its reply and edits arrive as events, its failure as a plain line in the chat. `ended`
   * runs once it is over, whatever became of it. */
  async turn(run: () => Promise<unknown>, ended: () => void): Promise<void> {
    this.running = true;
    this.thinking = true;
    this.announcement = "";
    // A long session lets its oldest lines go; they come back from the store as the user scrolls up.
    const cut = cutPoint(this.messages);
    if (cut) {
      this.messages.splice(0, cut.index);
      this.older = cut.before;
    }
    const before = this.messages.length - this.#prepended;
    try {
      await run();
    } catch (err) {
      this.messages.push({ role: "error", text: errorMessage(err), action: actionFor(errorKind(err)) });
    } finally {
      this.running = false;
      this.thinking = false;
      ended();
      this.announcement = spokenAtTurnEnd(this.messages.slice(before + this.#prepended));
      this.#checkHeld(before + this.#prepended);
    }
  }

  /** Asks what the writing checks find in the open held edits of messages `from` onwards that have not been
   * checked yet. A check that fails leaves the card as it is: accepting the edits says what is wrong. */
  #checkHeld(from: number): void {
    for (const message of this.messages.slice(from)) {
      const held = message.held;
      if (!held || held.state !== "open" || held.findings) continue;
      const edits = held.edits;
      this.#source.findings(edits).then(
        (findings) => {
          // Only for the edits as they were asked about: a decision since then asks again.
          if (held.edits === edits && Array.isArray(findings) && findings.length === edits.ops.length) {
            held.findings = findings;
          }
        },
        () => {},
      );
    }
  }

  /** Accepts or rejects the held edits of message `index`: all of them, or only operation `op` (the rest
   * keep waiting, and are checked again when accepted). */
  async decideHeld(index: number, accept: boolean, op?: number): Promise<void> {
    const held = this.messages[index]?.held;
    if (!held || held.state !== "open") return;
    const only = <T>(list: T[]): T[] => (op === undefined ? list : list.slice(op, op + 1));
    const edits = { ...held.edits, ops: only(held.edits.ops), descriptions: only(held.edits.descriptions), why: only(held.edits.why) };
    held.state = "applying";
    held.error = undefined;
    try {
      if (accept) await this.#source.apply(edits);
      else await this.#source.discard(edits);
      if (op === undefined || held.edits.ops.length === 1) {
        held.state = accept ? "applied" : "discarded";
      } else {
        const rest = <T>(list: T[]): T[] => list.filter((_, j) => j !== op);
        held.edits = { ...held.edits, ops: rest(held.edits.ops), descriptions: rest(held.edits.descriptions), why: rest(held.edits.why) };
        // What the others bring is checked again: an accepted one is in the resume now.
        held.findings = undefined;
        held.state = "open";
        this.#checkHeld(index);
      }
    } catch (err) {
      held.state = "open";
      held.error = errorMessage(err);
    }
  }
}
