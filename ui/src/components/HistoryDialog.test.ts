import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DocState } from "../bindings/DocState";
import type { HistoryRow } from "../bindings/HistoryRow";

const store = vi.hoisted(() => ({ rows: [] as HistoryRow[], restored: [] as number[] }));

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  openLink: async () => {},
  history: async () => [...store.rows],
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

import HistoryDialog from "./HistoryDialog.svelte";

afterEach(() => {
  cleanup();
  store.restored.length = 0;
});

describe("history", () => {
  it("lists revisions newest first with their source, and shows what one changed and the resume as it was", async () => {
    store.rows = [
      { number: 2, createdAt: Date.UTC(2026, 10, 23, 11), source: "ai", summary: "Change /basics/name to “Ada Lovelace”" },
      { number: 1, createdAt: Date.UTC(2026, 10, 23, 10), source: "import", summary: "Imported “Ada”" },
    ];
    const restored: DocState[] = [];
    render(HistoryDialog, { onclose: () => {}, onrestored: (s: DocState) => restored.push(s) });
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
});
