import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DocState } from "../bindings/DocState";
import type { HistoryPage } from "../bindings/HistoryPage";
import type { HistoryQuery } from "../bindings/HistoryQuery";
import type { HistoryRow } from "../bindings/HistoryRow";

const store = vi.hoisted(() => ({ rows: [] as HistoryRow[], restored: [] as number[], asked: [] as HistoryQuery[] }));

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  openLink: async () => {},
  history: async (query: HistoryQuery): Promise<HistoryPage> => {
    store.asked.push(query);
    const words = (query.words ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const found = store.rows.filter(
      (r) => (query.before === null || r.number < query.before) && words.every((w) => `${r.summary} ${r.source}`.toLowerCase().includes(w)),
    );
    const limit = query.limit ?? 100;
    return { rows: found.slice(0, limit), more: found.length > limit, head: store.rows[0]?.number ?? 0 };
  },
  revision: async (number: number) => ({
    number,
    document: { basics: { name: number === 1 ? "Ada" : "Ada Lovelace" } },
    changes: number === 1 ? ["The resume as it was first saved"] : ["Change your name to “Ada Lovelace”"],
    paths: number === 1 ? [] : ["/basics/name"],
  }),
  restore: async (number: number): Promise<DocState> => {
    store.restored.push(number);
    store.rows = [{ number: 3, createdAt: Date.UTC(2026, 10, 23, 12), source: "restore", summary: `Restored revision ${number}` }, ...store.rows];
    return { documentId: 1, title: "Ada", demo: false, revision: 3, undo: `Restored revision ${number}`, redo: null };
  },
}));

import HistoryPanel from "./HistoryPanel.svelte";

afterEach(() => {
  cleanup();
  store.restored.length = 0;
  store.asked.length = 0;
});

describe("history", () => {
  it("lists revisions newest first with their source, and shows what one changed and the resume as it was", async () => {
    store.rows = [
      { number: 2, createdAt: Date.UTC(2026, 10, 23, 11), source: "ai", summary: "Change /basics/name to “Ada Lovelace”" },
      { number: 1, createdAt: Date.UTC(2026, 10, 23, 10), source: "import", summary: "Imported “Ada”" },
    ];
    const restored: DocState[] = [];
    render(HistoryPanel, { onclose: () => {}, onrestored: (s: DocState) => restored.push(s) });
    const rows = await screen.findAllByTestId("history-row");
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining("AI"),
      expect.stringContaining("Import"),
    ]);
    // What a revision did, in words a model may have written in any language: in its own direction.
    expect(rows.map((r) => r.querySelector(".summary")?.getAttribute("dir"))).toEqual(["auto", "auto"]);
    // The newest is selected first: it is the resume now, and cannot be restored.
    await waitFor(() => expect(screen.getByTestId("history-changes").textContent).toContain("Ada Lovelace"));
    // … and in place, in the resume as it was.
    const lit = [...document.querySelectorAll(".as-was .field.changed")].map((e) => e.textContent?.trim());
    expect(lit).toEqual(["Ada Lovelace"]);
    expect(screen.queryByRole("button", { name: "Edit name" })).toBeNull();
    expect(screen.getByRole("button", { name: "Restore" })).toHaveProperty("disabled", true);
    await fireEvent.click(rows[1] as HTMLElement);
    await waitFor(() => expect(screen.getByTestId("history-changes").textContent).toContain("first saved"));
    expect(screen.getByLabelText("The resume at revision 1").textContent).toContain("Ada");
    await fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(store.restored).toEqual([1]));
    expect(restored[0]?.revision).toBe(3);
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(3));
    expect(screen.getAllByTestId("history-row")[0]?.textContent).toContain("Restore");
  });

  it("comes a page at a time, older pages on demand, and finds revisions by their words", async () => {
    store.rows = Array.from({ length: 250 }, (_, i) => {
      const number = 250 - i;
      return {
        number,
        createdAt: Date.UTC(2026, 10, 23, 10) + number,
        source: number % 10 === 0 ? "ai" : "user",
        summary: number === 7 ? "Change your title to “Rear Admiral”" : `Change your title to “Programmer ${number}”`,
      } as HistoryRow;
    });
    render(HistoryPanel, { onclose: () => {}, onrestored: () => {} });
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(100));
    expect(store.asked[0]).toEqual({ before: null, limit: 100, words: null });
    await fireEvent.click(screen.getByTestId("history-more"));
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(200));
    expect(store.asked[1]?.before).toBe(151);
    await fireEvent.click(screen.getByTestId("history-more"));
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(250));
    expect(screen.queryByTestId("history-more")).toBeNull();

    const search = screen.getByTestId("history-search");
    await fireEvent.input(search, { target: { value: "rear ADMIRAL" } });
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(1));
    expect(screen.getAllByTestId("history-row")[0]?.textContent).toContain("Rear Admiral");
    expect(store.asked.at(-1)).toEqual({ before: null, limit: 100, words: "rear ADMIRAL" });
    await fireEvent.input(search, { target: { value: "nowhere" } });
    await waitFor(() => expect(screen.getByTestId("history-none").textContent).toBe("No revision has these words."));
  });

  it("is a panel beside the resume, not a dialog: focus comes to its search, Close or Escape shut it", async () => {
    store.rows = [{ number: 1, createdAt: Date.UTC(2026, 10, 23, 10), source: "import", summary: "Imported “Ada”" }];
    let closed = 0;
    render(HistoryPanel, { onclose: () => closed++, onrestored: () => {} });
    const panel = screen.getByRole("region", { name: "History" });
    expect(panel.dataset.testid).toBe("history-dialog");
    expect(screen.queryByRole("dialog")).toBeNull();
    const search = screen.getByTestId("history-search") as HTMLInputElement;
    expect(document.activeElement).toBe(search);
    // Escape in a search that has text clears the search (the field's own), not the panel.
    search.value = "ada";
    await fireEvent.keyDown(search, { key: "Escape", bubbles: true });
    expect(closed).toBe(0);
    search.value = "";
    await fireEvent.keyDown(search, { key: "Escape", bubbles: true });
    expect(closed).toBe(1);
    await fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(closed).toBe(2);
  });

  it("reads the history again when the resume changes under it, and starts afresh for another resume", async () => {
    store.rows = [{ number: 1, createdAt: Date.UTC(2026, 10, 23, 10), source: "import", summary: "Imported “Ada”" }];
    const { rerender } = render(HistoryPanel, { documentId: 1, revision: 1, onclose: () => {}, onrestored: () => {} });
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(1));
    const asked = store.asked.length;
    store.rows = [{ number: 2, createdAt: Date.UTC(2026, 10, 23, 11), source: "user", summary: "Change your name" }, ...store.rows];
    await rerender({ documentId: 1, revision: 2 });
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(2));
    expect(store.asked.length).toBe(asked + 1);
    // Another resume on screen: its newest revision is the one shown.
    store.rows = [{ number: 7, createdAt: Date.UTC(2026, 10, 23, 12), source: "ai", summary: "Another resume's" }];
    await rerender({ documentId: 2, revision: 7 });
    await waitFor(() => expect(screen.getByRole("heading", { level: 3 }).textContent).toBe("Revision 7 (now)"));
  });
});
