// Touched nodes only: a change to one field of the resume changes a handful of DOM nodes, however large
// the resume — what keeps the view smooth while a model streams into it. Counted with a MutationObserver
// on the real view, fed by the real surface store, for the sample and for a resume ten times its size.
import { cleanup, render } from "@testing-library/svelte";
import { flushSync } from "svelte";
import { SvelteMap } from "svelte/reactivity";
import { afterEach, describe, expect, it, vi } from "vitest";
import sample from "../../../assets/sample.resume.json";
import type { SurfaceUpdate } from "../bindings/SurfaceUpdate";
import { EDITING_KEY, type Editing } from "../lib/editing";
import type { Resume } from "../lib/resume";
import { SurfaceStore } from "../lib/surface.svelte";

vi.mock("../lib/backend", () => ({ openLink: async () => {}, errorMessage: String }));

import ResumeView from "./ResumeView.svelte";

afterEach(cleanup);

/** The sample with every list ten times as long. */
function tenTimes(): Resume {
  const big = structuredClone(sample) as Record<string, unknown>;
  for (const [key, value] of Object.entries(big)) {
    if (Array.isArray(value)) {
      big[key] = Array.from({ length: 10 }, (_, i) =>
        value.map((entry) => ({ ...(entry as object), name: `${(entry as { name?: string }).name ?? key} ${i}` })),
      ).flat();
    }
  }
  return big as Resume;
}

let seq = 0;
const message = (m: Record<string, unknown>): SurfaceUpdate => ({ surfaceId: "main", seq: ++seq, ...m }) as SurfaceUpdate;

/** The view of `resume`, fed by a surface store, with a MutationObserver counting what each update changes. */
function watched(
  resume: Resume,
  turn: SvelteMap<"running", boolean> = new SvelteMap(),
  asked: { count: number } = { count: 0 },
): { store: SurfaceStore; count: (update: SurfaceUpdate) => number; size: number; container: HTMLElement } {
  const store = new SurfaceStore();
  seq = 0;
  store.apply(message({ kind: "create", revision: 1, document: resume }));
  const editing: Editing = {
    get enabled() {
      return turn.get("running") !== true;
    },
    commit: () => {},
    selected: null,
    select: () => {},
    highlight: (path) => {
      asked.count++;
      return store.highlight(path);
    },
    removing: (list) => store.removedFrom(list),
  };
  const { container } = render(ResumeView, {
    props: { resume: store.document as Resume },
    context: new Map([[EDITING_KEY, editing]]),
  });
  flushSync();
  const observer = new MutationObserver(() => {});
  observer.observe(container, { subtree: true, childList: true, characterData: true, attributes: true });
  const count = (update: SurfaceUpdate): number => {
    store.apply(update);
    flushSync();
    return observer.takeRecords().length;
  };
  return { store, count, size: container.querySelectorAll("*").length, container };
}

describe("a change touches only its own nodes", () => {
  it.each([
    ["the sample", () => structuredClone(sample) as Resume],
    ["a resume ten times its size", tenTimes],
  ])("in %s", (_, resume) => {
    const { count, size } = watched(resume());
    expect(size).toBeGreaterThan(100);
    // Text streaming into a job's summary, fragment by fragment: each fragment is one field's text.
    const first = count(message({ kind: "text", path: "/work/0/summary", append: " And more" }));
    const next = count(message({ kind: "text", path: "/work/0/summary", append: " words." }));
    // A committed replacement of one field.
    const replaced = count(
      message({ kind: "patch", revision: 2, state: "committed", ops: [{ op: "replace", path: "/basics/label", value: "Founder" }] }),
    );
    // A keyword added to a skill.
    const added = count(
      message({ kind: "patch", revision: 3, state: "committed", ops: [{ op: "add", path: "/skills/0/keywords/-", value: "Rust" }] }),
    );
    for (const [what, n] of [["first fragment", first], ["next fragment", next], ["replace", replaced], ["add", added]] as const) {
      expect(n, `${what}: ${n} mutations`).toBeGreaterThan(0);
      expect(n, `${what}: ${n} mutations`).toBeLessThanOrEqual(5);
    }
  });
});

describe("a turn starting and ending", () => {
  it.each([
    ["the sample", () => structuredClone(sample) as Resume],
    ["a resume ten times its size", tenTimes],
  ])("changes the root of the view of %s, not every field", (_, resume) => {
    const turn = new SvelteMap<"running", boolean>();
    const { container, size } = watched(resume(), turn);
    const observer = new MutationObserver(() => {});
    observer.observe(container, { subtree: true, childList: true, characterData: true, attributes: true });
    const edits = container.querySelectorAll("button.edit").length;
    expect(edits).toBeGreaterThan(20);
    turn.set("running", true);
    flushSync();
    const started = observer.takeRecords();
    expect(container.querySelector(".resume")?.classList.contains("locked")).toBe(true);
    turn.set("running", false);
    flushSync();
    const ended = observer.takeRecords();
    expect(container.querySelector(".resume")?.classList.contains("locked")).toBe(false);
    // Svelte sets the root's attributes together (its `dir` again, unchanged): at most two records, both
    // attributes of the view's root; no node is added or removed.
    const root = container.querySelector(".resume");
    for (const [what, records] of [["start", started], ["end", ended]] as const) {
      expect(records.length, `${what}: ${records.length} mutations in a view of ${size} elements`).toBeLessThanOrEqual(2);
      expect(records.every((r) => r.type === "attributes" && r.target === root), what).toBe(true);
    }
    // The controls were there all along.
    expect(container.querySelectorAll("button.edit").length).toBe(edits);
  });
});

describe("a highlight", () => {
  it("is worked out again only for the fields it concerns, however large the resume", () => {
    const asked = { count: 0 };
    const { count } = watched(tenTimes(), new SvelteMap(), asked);
    const fields = asked.count;
    expect(fields).toBeGreaterThan(500);
    const again = (update: SurfaceUpdate): number => {
      asked.count = 0;
      expect(count(update)).toBeGreaterThan(0);
      return asked.count;
    };
    // A preview starts on one field, text streams into it, it is committed (pending → changed), it fades.
    const previewed = again(message({ kind: "patch", revision: 1, state: "preview", ops: [{ op: "replace", path: "/work/3/summary", value: "A" }] }));
    asked.count = 0;
    count(message({ kind: "text", path: "/work/3/summary", append: " longer" }));
    const streamed = asked.count;
    const committed = again(message({ kind: "patch", revision: 2, state: "committed", ops: [] }));
    for (const [what, n] of [["preview", previewed], ["text", streamed], ["commit", committed]] as const) {
      expect(n, `${what}: ${n} of ${fields} fields asked again`).toBeLessThanOrEqual(10);
    }
  });
});
