import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import sample from "../../../assets/sample.resume.json";

const calls: {
  document: { basics?: { label?: string } };
  request: unknown;
  theme: string | null;
  shownWidth: number | null;
}[] = [];

/** jsdom lays nothing out: the view's size is told to it by hand, as WebKit's ResizeObserver would. */
const observed: ((entries: { contentRect: { width: number } }[]) => void)[] = [];
vi.stubGlobal(
  "ResizeObserver",
  class {
    constructor(private readonly told: (entries: { contentRect: { width: number } }[]) => void) {}
    observe() {
      observed.push(this.told);
    }
    disconnect() {}
  },
);
let failing = false;
let stamp = "one";

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  designs: async () => [
    { name: "classic", label: "Classic", description: "", builtIn: true },
    { name: "mine", label: "Mine", description: "made from Modern", builtIn: false },
    { name: "broken", label: "broken", description: "", builtIn: false, problem: "theme.json: cut short" },
  ],
  themeStamp: async () => stamp,
  pageImages: async (
    document: { basics?: { label?: string } },
    request: unknown,
    theme: string | null = null,
    shownWidth: number | null = null,
  ) => {
    calls.push({ document, request, theme, shownWidth });
    await new Promise((r) => setTimeout(r, 20));
    if (failing) throw { message: "Typst: unknown font" };
    return { pages: ["data:image/png;base64,AAAA", "data:image/png;base64,BBBB"], count: 2, width: 595.28, height: 841.89 };
  },
}));

import PageView from "./PageView.svelte";

afterEach(() => {
  cleanup();
  calls.length = 0;
  observed.length = 0;
  failing = false;
  stamp = "one";
});

describe("the page view", () => {
  it("shows every page and the page count", async () => {
    render(PageView, { resume: structuredClone(sample) });
    expect(await screen.findByTestId("page-2")).toBeTruthy();
    expect(screen.getByTestId("page-count").textContent).toContain("2 pages");
    expect((screen.getByTestId("page-1") as HTMLImageElement).alt).toBe("Page 1 of 2");
    expect(calls[0]?.request).toEqual({ format: "pdf", template: "classic", page: "a4" });
  });

  it("draws at most ten times a second while the resume changes, and ends on its latest state", async () => {
    const { rerender } = render(PageView, { resume: structuredClone(sample) });
    const start = Date.now();
    for (let i = 0; i < 30; i++) {
      const changed = structuredClone(sample);
      changed.basics.label = `Label ${i}`;
      await rerender({ resume: changed });
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => expect(calls.at(-1)?.document.basics?.label).toBe("Label 29"));
    const seconds = Math.max(0.1, (Date.now() - start) / 1000);
    // 31 states; far fewer drawings, at most one per 100 ms (and one at the start).
    expect(calls.length).toBeLessThan(31);
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
  });

  it("lists the user's themes, draws in one, and draws again when its files change", async () => {
    render(PageView, { resume: structuredClone(sample) });
    const select = screen.getByTestId("page-template") as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toContain("mine"));
    expect([...select.options].map((o) => o.value)).not.toContain("broken");
    await fireEvent.change(select, { target: { value: "mine" } });
    await waitFor(() => expect(calls.at(-1)?.theme).toBe("mine"));
    const before = calls.length;
    stamp = "two";
    await waitFor(() => expect(calls.length).toBeGreaterThan(before), { timeout: 3000 });
    expect(calls.at(-1)?.theme).toBe("mine");
  });

  it("draws the pages as wide as they are shown, in device pixels, and again when that changes", async () => {
    render(PageView, { resume: structuredClone(sample) });
    await waitFor(() => expect(calls.length).toBe(1));
    expect(calls[0]?.shownWidth).toBeNull();
    vi.stubGlobal("devicePixelRatio", 2);
    observed.forEach((told) => told([{ contentRect: { width: 410.4 } }]));
    await waitFor(() => expect(calls.at(-1)?.shownWidth).toBe(821));
    vi.stubGlobal("devicePixelRatio", 1);
  });

  it("says in words when the pages cannot be drawn", async () => {
    failing = true;
    render(PageView, { resume: structuredClone(sample) });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The pages could not be drawn: Typst: unknown font");
  });
});
