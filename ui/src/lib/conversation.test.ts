import { describe, expect, it, vi } from "vitest";
import type { HeldEdits } from "../bindings/HeldEdits";
import type { ChatPage } from "../bindings/ChatPage";
import type { Finding } from "../bindings/Finding";

vi.mock("./backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  errorKind: (err: unknown) => (err as { kind?: string }).kind ?? "internal",
  chatHistory: async () => ({ lines: [], older: null }),
  heldEdits: async () => [],
  applyHeld: async () => {},
  discardHeld: async () => {},
  heldFindings: async () => [],
}));

import { Conversation, type ChatSource } from "./conversation.svelte";

const edits: HeldEdits = {
  documentId: 1,
  base: 3,
  ops: [
    { op: "replace", path: "/basics/label", value: "CTO" },
    { op: "add", path: "/skills/0/keywords/-", value: "Rust" },
  ],
  descriptions: ["Change your title", "Add Rust"],
  proposal: true,
  why: ["outside", "outside"],
} as HeldEdits;

function spelled(path: string, text: string): Finding {
  return { rule: "spelling", path, start: 0, end: text.length, text, message: "Not a word.", fix: null };
}

/** Lets the promises already settled run their callbacks. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

function source(over: Partial<ChatSource> = {}): ChatSource & { applied: HeldEdits[] } {
  const applied: HeldEdits[] = [];
  return {
    applied,
    history: async () => ({ lines: [{ role: "user", text: "Hi" }], older: null }) as ChatPage,
    held: async () => [structuredClone(edits)],
    apply: async (e: HeldEdits) => {
      applied.push(e);
    },
    discard: async () => {},
    // A finding in each edit's new words, one per edit: "CTO" for the title, "Rust" for the skill.
    findings: async (e: HeldEdits) => e.ops.map((op) => [spelled(op.path, String((op as { value?: unknown }).value))]),
    ...over,
  } as ChatSource & { applied: HeldEdits[] };
}

describe("the conversation beside the resume", () => {
  it("loads its lines and the edits still held, and accepts one edit of a card, keeping the rest open", async () => {
    const from = source();
    const chat = new Conversation(from);
    await chat.load();
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "held"]);
    await chat.decideHeld(1, true, 1);
    expect(from.applied.map((e) => e.ops.map((o) => o.path))).toEqual([["/skills/0/keywords/-"]]);
    const held = chat.messages[1]!.held!;
    expect(held.state).toBe("open");
    expect(held.edits.descriptions).toEqual(["Change your title"]);
    await chat.decideHeld(1, false);
    expect(held.state).toBe("discarded");
  });

  it("shows what the writing checks find in held edits before they are accepted, and asks again after one is", async () => {
    const asked: string[][] = [];
    const from = source();
    const check = from.findings;
    from.findings = (e) => {
      asked.push(e.ops.map((o) => o.path));
      return check(e);
    };
    const chat = new Conversation(from);
    await chat.load();
    await settled();
    const held = chat.messages[1]!.held!;
    expect(held.findings?.map((list) => list.map((f) => f.text))).toEqual([["CTO"], ["Rust"]]);
    await chat.decideHeld(1, true, 0);
    await settled();
    // The edit left is checked again against the resume that now holds the first.
    expect(asked).toEqual([["/basics/label", "/skills/0/keywords/-"], ["/skills/0/keywords/-"]]);
    expect(held.findings?.map((list) => list.map((f) => f.text))).toEqual([["Rust"]]);
  });

  it("checks the edits a turn held once it ends, and leaves a card as it is when the check fails", async () => {
    for (const fails of [false, true]) {
      const over: Partial<ChatSource> = { held: async () => [] };
      if (fails) over.findings = () => Promise.reject(new Error("The check stopped."));
      const chat = new Conversation(source(over));
      await chat.load();
      await chat.turn(async () => {
        chat.say({ role: "held", text: "For your review", held: { edits: structuredClone(edits), state: "open" } });
      }, () => {});
      await settled();
      const held = chat.messages.at(-1)!.held!;
      expect(held.findings?.length).toBe(fails ? undefined : 2);
      expect(held.state).toBe("open");
      expect(held.error).toBeUndefined();
    }
  });

  it("says a failed turn in the chat with what the user can do, and ends the turn whatever happened", async () => {
    const chat = new Conversation(source());
    let ended = 0;
    await chat.turn(() => Promise.reject({ kind: "unauthorized", message: "The key was refused." }), () => ended++);
    expect(ended).toBe(1);
    expect(chat.running).toBe(false);
    expect(chat.messages.at(-1)).toMatchObject({ role: "error", text: "The key was refused.", action: "replace-key" });
    expect(chat.announcement).toContain("The key was refused.");
  });

  it("keeps a card open with its error when accepting it fails", async () => {
    const chat = new Conversation(source({ apply: () => Promise.reject(new Error("The resume changed.")) }));
    await chat.load();
    await chat.decideHeld(1, true);
    expect(chat.messages[1]!.held).toMatchObject({ state: "open", error: "The resume changed." });
  });
});
