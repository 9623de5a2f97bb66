import { flushSync } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";
import { FADE_MS } from "./editing";
import { PointerSet, SurfaceStore } from "./surface.svelte";
import { watch } from "./watch.fixture.svelte";

const create = (seq = 0): SurfaceUpdate => ({
  kind: "create",
  surfaceId: "main",
  seq,
  revision: 4,
  document: {
    basics: { name: "Ada", summary: "Writes" },
    skills: [{ name: "Rust", keywords: ["async"] }],
    work: [{ name: "A" }, { name: "B" }],
  },
});

function opened(): SurfaceStore {
  const store = new SurfaceStore();
  expect(store.apply(create())).toEqual({ kind: "applied" });
  return store;
}

const snapshot = (store: SurfaceStore) => JSON.parse(JSON.stringify(store.document));

describe("surface store", () => {
  it("shows the document a create message carries", () => {
    const store = opened();
    expect(store.document?.basics?.name).toBe("Ada");
    expect(store.revision).toBe(4);
  });

  it("grows a previewed string by the appended text only", () => {
    const store = opened();
    store.apply({ kind: "text", surfaceId: "main", seq: 1, path: "/basics/summary", append: " code" });
    store.apply({ kind: "text", surfaceId: "main", seq: 2, path: "/basics/summary", append: "." });
    expect(store.document?.basics?.summary).toBe("Writes code.");
    expect(store.pending).toEqual(["/basics/summary"]);
  });

  it("applies every RFC 6902 operation in place", () => {
    const store = opened();
    const result = store.apply({
      kind: "patch",
      surfaceId: "main",
      seq: 1,
      revision: 4,
      state: "preview",
      ops: [
        { op: "add", path: "/skills/0/keywords/-", value: "Python" },
        { op: "replace", path: "/basics/name", value: "Ada Lovelace" },
        { op: "move", from: "/work/0", path: "/work/1" },
        { op: "copy", from: "/basics/name", path: "/basics/label" },
        { op: "remove", path: "/basics/summary" },
        { op: "test", path: "/work/0/name", value: "B" },
      ],
    });
    expect(result).toEqual({ kind: "applied" });
    expect(snapshot(store)).toEqual({
      basics: { name: "Ada Lovelace", label: "Ada Lovelace" },
      skills: [{ name: "Rust", keywords: ["async", "Python"] }],
      work: [{ name: "B" }, { name: "A" }],
    });
  });

  it("moves to the committed revision and clears the previews", () => {
    const store = opened();
    store.apply({ kind: "text", surfaceId: "main", seq: 1, path: "/basics/summary", append: "!" });
    store.apply({ kind: "patch", surfaceId: "main", seq: 2, revision: 5, state: "committed", ops: [] });
    expect(store.revision).toBe(5);
    expect(store.pending).toEqual([]);
  });

  it("rolls back by applying the operations it is sent", () => {
    const store = opened();
    store.apply({ kind: "text", surfaceId: "main", seq: 1, path: "/basics/summary", append: " a lot" });
    store.apply({
      kind: "patch", surfaceId: "main", seq: 2, revision: 4, state: "rolledBack",
      ops: [{ op: "replace", path: "/basics/summary", value: "Writes" }],
    });
    expect(store.document?.basics?.summary).toBe("Writes");
    expect(store.revision).toBe(4);
  });

  it("asks for a resync when a message is missed", () => {
    const store = opened();
    const result = store.apply({ kind: "text", surfaceId: "main", seq: 3, path: "/basics/name", append: "x" });
    expect(result.kind).toBe("resync");
    expect(store.document?.basics?.name).toBe("Ada");
  });

  it("ignores a message it has already applied", () => {
    const store = opened();
    const text: SurfaceUpdate = { kind: "text", surfaceId: "main", seq: 1, path: "/basics/name", append: "!" };
    store.apply(text);
    expect(store.apply(text).kind).toBe("ignored");
    expect(store.document?.basics?.name).toBe("Ada!");
  });

  it("asks for a resync when an operation does not fit the document", () => {
    const store = opened();
    const result = store.apply({
      kind: "patch", surfaceId: "main", seq: 1, revision: 4, state: "preview",
      ops: [{ op: "add", path: "/work/9", value: {} }],
    });
    expect(result).toEqual({ kind: "resync", reason: "index 9 is out of range (2 items)" });
  });

  it("starts over from a fresh create", () => {
    const store = opened();
    store.apply({ kind: "text", surfaceId: "main", seq: 1, path: "/basics/name", append: "!" });
    expect(store.apply(create(7)).kind).toBe("applied");
    expect(store.document?.basics?.name).toBe("Ada");
    expect(store.apply({ kind: "text", surfaceId: "main", seq: 8, path: "/basics/name", append: "?" }).kind).toBe("applied");
  });

  it("highlights what a preview touches, then what the commit changed, until it fades", () => {
    const store = opened();
    store.apply({ kind: "patch", surfaceId: "main", seq: 1, revision: 4, state: "preview",
      ops: [{ op: "add", path: "/skills/0/keywords/-", value: "tokio" }] });
    expect(store.highlight("/skills/0/keywords/1")).toBe("pending");
    expect(store.highlight("/skills/0/keywords/0")).toBeNull();
    store.apply({ kind: "text", surfaceId: "main", seq: 2, path: "/basics/summary", append: " code" });
    store.apply({ kind: "patch", surfaceId: "main", seq: 3, revision: 5, state: "committed",
      ops: [{ op: "add", path: "/work/2", value: { name: "C" } }] });
    expect(store.document?.skills?.[0]?.keywords).toEqual(["async", "tokio"]);
    expect(store.pending).toEqual([]);
    expect(store.highlight("/skills/0/keywords/1")).toBe("changed");
    expect(store.highlight("/basics/summary")).toBe("changed");
    // A new entry is highlighted whole, down to its fields; its neighbours are not.
    expect(store.highlight("/work/2")).toBe("changed");
    expect(store.highlight("/work/2/name")).toBe("changed");
    expect(store.highlight("/work/1")).toBeNull();
    expect(store.highlight("/basics/name")).toBeNull();
    store.fade();
    expect(store.highlight("/basics/summary")).toBeNull();
  });

  it("fades slowly when asked: `fading` for FADE_MS, then nothing; at once otherwise", () => {
    vi.useFakeTimers();
    try {
      const store = opened();
      const commit = (seq: number) =>
        store.apply({ kind: "patch", surfaceId: "main", seq, revision: 4 + seq, state: "committed",
          ops: [{ op: "replace", path: "/basics/name", value: `Ada ${seq}` }] });
      commit(1);
      store.fade(true);
      expect(store.highlight("/basics/name")).toBe("fading");
      vi.advanceTimersByTime(FADE_MS - 1);
      expect(store.highlight("/basics/name")).toBe("fading");
      vi.advanceTimersByTime(1);
      expect(store.highlight("/basics/name")).toBeNull();
      // A turn starting while it fades ends it at once; so does a fade not asked to be slow.
      commit(2);
      store.fade(true);
      store.fade();
      expect(store.highlight("/basics/name")).toBeNull();
      expect(store.fading).toEqual([]);
      // A new commit outranks a fade still running, and the old timer does not end the new highlight.
      commit(3);
      store.fade(true);
      commit(4);
      vi.advanceTimersByTime(FADE_MS);
      expect(store.highlight("/basics/name")).toBe("changed");
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps what a preview removes, with where it was, until the bundle ends", () => {
    const store = opened();
    store.apply({ kind: "patch", surfaceId: "main", seq: 1, revision: 4, state: "preview",
      ops: [{ op: "remove", path: "/work/0" }, { op: "remove", path: "/skills/0/keywords/0" }] });
    expect(store.document?.work).toEqual([{ name: "B" }]);
    expect(store.removedFrom("/work")).toEqual([{ index: 0, key: "0", value: { name: "A" } }]);
    expect(store.removedFrom("/skills/0/keywords")).toEqual([{ index: 0, key: "0", value: "async" }]);
    expect(store.removedFrom("/skills")).toEqual([]);
    store.apply({ kind: "patch", surfaceId: "main", seq: 2, revision: 4, state: "rolledBack",
      ops: [{ op: "add", path: "/work/0", value: { name: "A" } }, { op: "add", path: "/skills/0/keywords/0", value: "async" }] });
    expect(store.removed).toEqual([]);
    expect(store.document?.work).toEqual([{ name: "A" }, { name: "B" }]);
  });
});

describe("a set of pointers", () => {
  it("covers a pointer and everything under it, nothing beside it", () => {
    const set = new PointerSet();
    set.set(["/work/1", "/skills/0/keywords/2"]);
    expect(["/work/1", "/work/1/summary", "/work/1/highlights/0"].map((p) => set.covers(p))).toEqual([true, true, true]);
    expect(["/work", "/work/10", "/work/0", "/skills/0/keywords/20", "/skills/0", ""].map((p) => set.covers(p))).toEqual(
      [false, false, false, false, false, false],
    );
    set.set(["/work"]);
    expect([set.covers("/work/10/name"), set.covers("/work/1"), set.covers("/skills/0/keywords/2")]).toEqual([true, true, false]);
    // The whole document.
    set.set([""]);
    expect([set.covers("/basics/name"), set.covers("")]).toEqual([true, true]);
    set.set([]);
    expect(set.covers("/basics/name")).toBe(false);
  });

  it("tells a reader when its own pointer comes or goes", () => {
    const set = new PointerSet();
    const { seen, stop } = watch(() => set.covers("/work/0/summary"));
    flushSync();
    set.set(["/work/0"]);
    flushSync();
    set.set(["/work/0", "/basics/name"]);
    flushSync();
    set.set([]);
    flushSync();
    stop();
    // Once at first, then when /work/0 came and when it went (and, at most, once more for a shared bucket).
    expect(seen.slice(0, 2)).toEqual([false, true]);
    expect(seen.at(-1)).toBe(false);
    expect(seen.length).toBeLessThanOrEqual(4);
  });
});

