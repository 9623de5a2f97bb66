import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../bindings/ChatEvent";
import type { TurnMessages } from "../bindings/TurnMessages";
import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";
import { streamTurn, type StreamReader } from "./backend";

const said = (text: string) => ({ to: "chat" as const, message: { kind: "delta" as const, text } });

/** A reader that answers from `batches`, one request at a time, and logs every call. */
function fakeBridge(batches: TurnMessages[]) {
  const calls: string[] = [];
  let turnOf: number | undefined;
  const call: StreamReader = {
    async next(turn) {
      calls.push("turn_stream");
      turnOf ??= turn;
      expect(turn).toBe(turnOf);
      await new Promise((r) => setTimeout(r, 1));
      return batches.shift() ?? { items: [], done: true };
    },
    async end() {
      calls.push("end_turn_stream");
    },
  };
  return { call, calls, turn: () => turnOf };
}

describe("a turn's stream", () => {
  it("reads every message in order before the turn resolves, and ends the stream", async () => {
    const bridge = fakeBridge([
      { items: [said("a")], done: false },
      { items: [], done: false },
      { items: [said("b"), { to: "surface", message: { kind: "text", surfaceId: "main", seq: 1, path: "/basics/summary", append: "x" } }], done: false },
      { items: [said("c")], done: true },
    ]);
    const chat: string[] = [];
    const surface: SurfaceUpdate[] = [];
    let started: number | undefined;
    const result = await streamTurn(
      async (turn) => {
        started = turn;
        return "summary";
      },
      { surface: (u) => surface.push(u), chat: (e: ChatEvent) => chat.push(e.kind === "delta" ? e.text : e.kind) },
      bridge.call,
    );
    expect(result).toBe("summary");
    expect(chat).toEqual(["a", "b", "c"]);
    expect(surface).toHaveLength(1);
    expect(bridge.turn()).toBe(started);
    expect(bridge.calls.filter((c) => c === "turn_stream")).toHaveLength(4);
    expect(bridge.calls).toContain("end_turn_stream");
  });

  it("tells the benchmark's probe, when the page has one, each batch handled and when its handling began", async () => {
    const bridge = fakeBridge([
      { items: [said("a")], done: false },
      { items: [said("b")], done: true },
    ]);
    const handled: number[] = [];
    const page = globalThis as { __redlineProbe?: unknown };
    page.__redlineProbe = { applied: () => {}, handled: (start: number) => handled.push(start) };
    try {
      const before = performance.now();
      await streamTurn(async () => undefined, { surface: () => {}, chat: () => {} }, bridge.call);
      expect(handled).toHaveLength(2);
      for (const start of handled) {
        expect(start).toBeGreaterThanOrEqual(before);
        expect(start).toBeLessThanOrEqual(performance.now());
      }
    } finally {
      delete page.__redlineProbe;
    }
  });

  it("a turn that fails still reads what it said, then rejects", async () => {
    const bridge = fakeBridge([{ items: [said("before the error")], done: true }]);
    const chat: string[] = [];
    await expect(
      streamTurn(async () => Promise.reject(new Error("no key")), {
        surface: () => {},
        chat: (e) => chat.push(e.kind === "delta" ? e.text : e.kind),
      }, bridge.call),
    ).rejects.toThrow("no key");
    expect(chat).toEqual(["before the error"]);
  });

  it("a message the view cannot take does not stop the ones after it", async () => {
    const bridge = fakeBridge([{ items: [said("bad"), said("good")], done: true }]);
    const chat: string[] = [];
    const quiet = console.error;
    console.error = () => {};
    try {
      await streamTurn(async () => 1, {
        surface: () => {},
        chat: (e) => {
          const text = e.kind === "delta" ? e.text : e.kind;
          if (text === "bad") throw new Error("bad message");
          chat.push(text);
        },
      }, bridge.call);
    } finally {
      console.error = quiet;
    }
    expect(chat).toEqual(["good"]);
  });
});
