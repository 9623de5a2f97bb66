import { describe, expect, it, vi } from "vitest";
import type { HeldEdits } from "../bindings/HeldEdits";
import type { ChatPage } from "../bindings/ChatPage";

vi.mock("./backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  errorKind: (err: unknown) => (err as { kind?: string }).kind ?? "internal",
  chatHistory: async () => ({ lines: [], older: null }),
  heldEdits: async () => [],
  applyHeld: async () => {},
  discardHeld: async () => {},
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
