import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ImportDone } from "../bindings/ImportDone";
import type { ImportFormat } from "../bindings/ImportFormat";
import type { ImportPreview } from "../bindings/ImportPreview";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

const store = vi.hoisted(() => ({ imported: [] as { document: JsonValue; format: ImportFormat }[], refuse: false }));

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  importReviewed: async (document: JsonValue, format: ImportFormat): Promise<ImportDone> => {
    if (store.refuse) throw { kind: "invalid", message: "/basics/email: not an email" };
    store.imported.push({ document, format });
    return {
      state: { documentId: 5, title: "Ada Lovelace", demo: false, revision: 1, undo: null, redo: null },
      format,
      unplaced: [],
      misfits: [],
    };
  },
}));

import ImportReview from "./ImportReview.svelte";

const PREVIEW: ImportPreview = {
  name: "ada.pdf",
  format: "pdf",
  document: { basics: { name: "Ada Lovelace", label: "Enginer" }, work: [{ name: "Analytical Engines", position: "Lead" }] },
  lines: ["Ada Lovelace", "Enginer", "Work", "Lead", "Analytical Engines", "Things I Keep"],
  unplaced: ["Things I Keep"],
  misfits: [],
};

afterEach(() => {
  cleanup();
  store.imported.length = 0;
  store.refuse = false;
});

describe("the import review", () => {
  it("draws a bounded number of a file's lines and counts the rest", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    render(ImportReview, { preview: { ...PREVIEW, lines, unplaced: lines }, onclose: () => {}, onimported: () => {} });
    expect(screen.getAllByTestId("import-line-unplaced")).toHaveLength(500);
    expect(screen.getByTestId("import-lines-not-shown").textContent).toContain("19,500 more lines");
  });

  it("shows the file's lines beside what was read, the unplaced ones marked", async () => {
    render(ImportReview, { preview: PREVIEW, onclose: () => {}, onimported: () => {} });
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Import ada.pdf");
    expect(screen.getByText(/^Read as PDF, on this computer/)).toBeTruthy();
    expect(screen.getAllByTestId("import-line")).toHaveLength(5);
    expect(screen.getByTestId("import-line-unplaced").textContent?.trim()).toBe("Things I Keep");
    expect(screen.getByTestId("import-unplaced-count").textContent).toContain("One line found no place");
    const fields = [...document.querySelectorAll<HTMLInputElement>("input[data-pointer]")].map((i) => i.dataset.pointer);
    expect(fields).toEqual(["/basics/name", "/basics/label", "/work/0/name", "/work/0/position"]);
  });

  it("names a value that did not fit its field, its line marked among those not placed", () => {
    const misfit = { pointer: "/basics/email", field: "your e-mail", text: "ada at example", reason: "is not an e-mail address" };
    const preview = { ...PREVIEW, lines: [...PREVIEW.lines, "ada at example"], unplaced: ["Things I Keep", "ada at example"], misfits: [misfit] };
    render(ImportReview, { preview, onclose: () => {}, onimported: () => {} });
    expect(screen.getByTestId("import-misfit").textContent).toBe(
      "“ada at example” was read as your e-mail but is not an e-mail address; it was left out.",
    );
    expect(screen.getAllByTestId("import-line-unplaced").map((l) => l.textContent?.trim())).toEqual(["Things I Keep", "ada at example"]);
  });

  it("a field fixed by hand is what Import writes; nothing is written before", async () => {
    const done: ImportDone[] = [];
    render(ImportReview, { preview: PREVIEW, onclose: () => {}, onimported: (d: ImportDone) => done.push(d) });
    const label = document.querySelector<HTMLInputElement>('input[data-pointer="/basics/label"]')!;
    await fireEvent.input(label, { target: { value: "Engineer" } });
    expect(store.imported).toEqual([]);
    await fireEvent.click(screen.getByTestId("import-confirm"));
    await waitFor(() => expect(done.map((d) => d.state.documentId)).toEqual([5]));
    expect(store.imported).toEqual([
      {
        document: { basics: { name: "Ada Lovelace", label: "Engineer" }, work: [{ name: "Analytical Engines", position: "Lead" }] },
        format: "pdf",
      },
    ]);
  });

  it("a refusal is said, and the review stays open to fix it", async () => {
    store.refuse = true;
    const done: ImportDone[] = [];
    render(ImportReview, { preview: PREVIEW, onclose: () => {}, onimported: (d: ImportDone) => done.push(d) });
    await fireEvent.click(screen.getByTestId("import-confirm"));
    expect((await screen.findByRole("alert")).textContent).toContain("/basics/email: not an email");
    expect(done).toEqual([]);
    expect(screen.getByTestId("import-confirm").textContent?.trim()).toBe("Import");
  });
});
