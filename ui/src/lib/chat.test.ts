import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../bindings/ChatEvent";
import { heldEdits } from "./values.fixture";
import { applyChatEvent, cutPoint, heldMessage, importedNotice, KEEP_HELD, spokenAtTurnEnd, type ChatMessage } from "./chat";

describe("applyChatEvent", () => {
  it("grows the assistant's reply in place and keeps other events as their own lines", () => {
    const messages: ChatMessage[] = [];
    applyChatEvent(messages, { kind: "user", text: "Add Rust" });
    applyChatEvent(messages, { kind: "delta", text: "Sure" });
    applyChatEvent(messages, { kind: "delta", text: " — adding it." });
    applyChatEvent(messages, { kind: "planning", changes: "Add Rust to skills" });
    applyChatEvent(messages, { kind: "refused", reason: "/meta is protected", retrying: true });
    applyChatEvent(messages, { kind: "committed", revision: 2, summary: "Add Rust" });
    applyChatEvent(messages, { kind: "status", text: "" });
    applyChatEvent(messages, { kind: "delta", text: "Done." });
    expect(messages).toEqual([
      { role: "user", text: "Add Rust" },
      { role: "assistant", text: "Sure — adding it." },
      { role: "notice", text: "Editing: Add Rust to skills" },
      { role: "warning", text: "Refused: /meta is protected — asking the model again." },
      { role: "notice", text: "Saved as revision 2.", savedAs: 2 },
      { role: "assistant", text: "Done." },
    ]);
  });

  it("says at a turn's end its reply, what it was saved as and any error, chosen by what each message is", () => {
    // (A notice or a warning that reads like what was saved is not said: what a message is decides.)
    const events: ChatEvent[] = [
      { kind: "planning", changes: "Add Rust to skills" },
      { kind: "status", text: "Saved as a draft, says the model" },
      { kind: "warning", text: "Saved as nothing" },
      { kind: "delta", text: "Added Rust." },
      { kind: "committed", revision: 7, summary: "Add Rust" },
    ];
    const messages: ChatMessage[] = [];
    for (const event of events) applyChatEvent(messages, event);
    messages.push({ role: "error", text: "The model stopped answering." });
    expect(spokenAtTurnEnd(messages)).toBe("Added Rust. Saved as revision 7. The model stopped answering.");
    expect(spokenAtTurnEnd([])).toBe("");
  });

  it("keeps held edits as a message of their own, open for the user to decide", () => {
    const messages: ChatMessage[] = [];
    const edits = heldEdits;
    applyChatEvent(messages, { kind: "held", edits });
    expect(messages).toEqual([
      {
        role: "held",
        text: "Also proposed, outside what you asked — not applied: one edit.",
        held: { edits, state: "open" },
      },
    ]);
  });

  it("a bundle proposed for review says nothing is saved until accepted", () => {
    const messages: ChatMessage[] = [];
    const edits = {
      documentId: 1,
      base: 2,
      ops: [
        { op: "add" as const, path: "/skills/0/keywords/-", value: "Python" },
        { op: "replace" as const, path: "/basics/label", value: "Pythonista" },
      ],
      descriptions: ["Add “Python” to the keywords of your skill “Web Development”", "Change your title to “Pythonista”"],
      proposal: true,
      why: [],
    };
    applyChatEvent(messages, { kind: "held", edits });
    expect(messages[0]?.text).toBe("For your review — nothing is saved until you accept: 2 edits.");
  });
});

describe("heldMessage", () => {
  const edits = {
    documentId: 1,
    base: 2,
    ops: [
      { op: "add" as const, path: "/basics/profiles/-", value: { network: "GitHub", url: "https://evil.example" } },
      { op: "remove" as const, path: "/work/1" },
    ],
    descriptions: ["Add a profile on GitHub", "Remove your job at Pied Piper"],
    proposal: false,
  };

  it("says why each kind of edit waits, once each", () => {
    const held = heldMessage({ ...edits, why: ["newLink", "removesEntry"] });
    expect(held.text).toBe("Held for you to confirm — not applied: 2 edits (a link you never gave; a whole entry removed).");
    const about = heldMessage({ ...edits, why: ["aboutYou", "aboutYou"] });
    expect(about.text).toBe("Held for you to confirm — not applied: 2 edits (a change to who the resume is about).");
  });

  it("keeps the words of edits outside the ask, and of edits kept before the reason was", () => {
    expect(heldMessage({ ...edits, why: ["outside", "outside"] }).text).toBe(
      "Also proposed, outside what you asked — not applied: 2 edits.",
    );
    expect(heldMessage({ ...edits, why: [] }).text).toBe("Also proposed, outside what you asked — not applied: 2 edits.");
  });
});

describe("importedNotice", () => {
  const state = { documentId: 4, title: "Ada — Engineer", demo: false, revision: 1, undo: null, redo: null };

  it("says what the file was read as, and quotes every line that found no place", () => {
    expect(importedNotice({ state, format: "pdf", unplaced: [], misfits: [] })).toBe("Imported “Ada — Engineer” (PDF).");
    const said = importedNotice({ state, format: "docx", unplaced: ["Things I Keep", "A clock"], misfits: [] });
    expect(said).toContain("2 lines of it found no place");
    expect(said.split("\n").slice(1)).toEqual(["• Things I Keep", "• A clock"]);
  });

  it("names each value that did not fit its field, whose text is among the lines not placed", () => {
    const misfits = [{ pointer: "/basics/email", field: "your e-mail", text: "ada at example", reason: "is not an e-mail address" }];
    const said = importedNotice({ state, format: "pdf", unplaced: ["ada at example"], misfits });
    expect(said.split("\n")[0]).toContain("“ada at example” was read as your e-mail but is not an e-mail address; it was left out.");
    expect(said.split("\n").slice(1)).toEqual(["• ada at example"]);
  });

  it("counts what it does not quote", () => {
    const unplaced = Array.from({ length: 25 }, (_, i) => `line ${i}`);
    const lines = importedNotice({ state, format: "text", unplaced, misfits: [] }).split("\n");
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines.at(-1)).toBe("and 5 more");
  });
});

describe("the chat's list over a long session", () => {
  const session = (turns: number, storedFrom = 0): ChatMessage[] =>
    Array.from({ length: turns }, (_, t): ChatMessage[] => [
      { role: "user", text: `ask ${t}`, ...(t >= storedFrom ? { stored: 1000 + 2 * t } : {}) },
      { role: "notice", text: `Editing: ${t}` },
      { role: "assistant", text: `Done ${t}.` },
      { role: "notice", text: `Saved as revision ${t + 2}.` },
    ]).flat();

  it("lets nothing go until it holds more than its bound", () => {
    expect(cutPoint(session(100))).toBeNull();
  });

  it("keeps about the newest messages, cut at an ask whose place in the store is known", () => {
    const messages = session(101);
    const cut = cutPoint(messages);
    expect(cut).not.toBeNull();
    if (!cut) return;
    expect(messages.length - cut.index).toBeLessThanOrEqual(KEEP_HELD);
    expect(messages.length - cut.index).toBeGreaterThan(KEEP_HELD - 4);
    const first = messages[cut.index];
    expect(first?.role).toBe("user");
    expect(first?.stored).toBe(cut.before);
  });

  it("lets nothing go while a card of edits still waits, nor without a known place", () => {
    const waiting = session(101);
    waiting.splice(2, 0, { ...heldMessage({ documentId: 1, base: 1, ops: [], descriptions: ["x"], proposal: false, why: [] }) });
    expect(cutPoint(waiting)).toBeNull();
    expect(cutPoint(session(101, 1000))).toBeNull();
  });
});
