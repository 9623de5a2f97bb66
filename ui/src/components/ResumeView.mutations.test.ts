// Touched nodes only: a change to one field of the resume changes a handful of DOM nodes, however large
// the resume — what keeps the view smooth while a model streams into it. Counted with a MutationObserver
// on the real view, fed by the real surface store, for the sample and for a resume ten times its size.
import { cleanup, render } from "@testing-library/svelte";
import { flushSync } from "svelte";
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
function watched(resume: Resume): { store: SurfaceStore; count: (update: SurfaceUpdate) => number; size: number } {
  const store = new SurfaceStore();
  seq = 0;
  store.apply(message({ kind: "create", revision: 1, document: resume }));
  const editing: Editing = {
    enabled: true,
    commit: () => {},
    selected: null,
    select: () => {},
    highlight: (path) => store.highlight(path),
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
  return { store, count, size: container.querySelectorAll("*").length };
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
