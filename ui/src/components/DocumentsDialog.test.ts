import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DocState } from "../bindings/DocState";
import type { DocumentRow } from "../bindings/DocumentRow";

function row(id: number, title: string, extra: Partial<DocumentRow> = {}): DocumentRow {
  return { id, title, name: "Ada Lovelace", updatedAt: Date.UTC(2026, 10, 23), revision: 3, current: false, demo: false, variantOf: null, problem: null, kind: "resume", ...extra };
}

function state(id: number, title: string): DocState {
  return { documentId: id, title, demo: false, revision: 1, undo: null, redo: null };
}

const store = vi.hoisted(() => ({ rows: [] as DocumentRow[], calls: [] as string[] }));

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  listDocuments: async () => store.rows.map((r) => ({ ...r })),
  openDocument: async (id: number) => {
    store.calls.push(`open ${id}`);
    store.rows = store.rows.map((r) => ({ ...r, current: r.id === id }));
    return state(id, store.rows.find((r) => r.id === id)?.title ?? "");
  },
  newDocument: async (fromSample: boolean) => {
    store.calls.push(`new ${fromSample}`);
    store.rows = [row(9, "New resume", { current: true }), ...store.rows.map((r) => ({ ...r, current: false }))];
    return state(9, "New resume");
  },
  duplicateDocument: async (id: number) => {
    store.calls.push(`duplicate ${id}`);
    return state(10, "copy");
  },
  renameDocument: async (id: number, title: string) => {
    store.calls.push(`rename ${id} ${title}`);
    store.rows = store.rows.map((r) => (r.id === id ? { ...r, title } : r));
  },
  deleteDocument: async (id: number) => {
    store.calls.push(`delete ${id}`);
    store.rows = store.rows.filter((r) => r.id !== id);
    return state(2, "Grace");
  },
  undeleteDocument: async (id: number) => {
    store.calls.push(`undelete ${id}`);
    store.rows = [...store.rows, row(id, "Ada — backend")];
  },
}));

import DocumentsDialog from "./DocumentsDialog.svelte";

afterEach(() => {
  cleanup();
  store.calls.length = 0;
});

function setup(): { opened: DocState[]; imports: number[] } {
  store.rows = [row(1, "Ada — backend", { current: true }), row(2, "Grace", { demo: true, variantOf: "Ada — backend" })];
  const opened: DocState[] = [];
  const imports: number[] = [];
  render(DocumentsDialog, {
    onclose: () => {},
    onopened: (s: DocState) => opened.push(s),
    onimport: () => imports.push(1),
  });
  return { opened, imports };
}

describe("documents", () => {
  it("lists each resume with its name, revision, and whether it is on screen, a demo or a variant", async () => {
    setup();
    const rows = await screen.findAllByTestId("documents-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain("on screen");
    expect(rows[1]?.textContent).toContain("demo copy");
    expect(rows[1]?.textContent).toContain("variant of “Ada — backend”");
    expect(screen.getByRole("button", { name: "Open Ada — backend" })).toHaveProperty("disabled", true);
    // A name or title from the resume reads in its own direction inside the row's English words (an Arabic
    // name ending in a number keeps its number): isolated, not mixed into the sentence around it.
    const isolated = [...(rows[1]?.querySelectorAll("bdi, [dir='auto']") ?? [])].map((e) => e.textContent);
    expect(isolated).toEqual(["Grace", "Ada Lovelace", "Ada — backend"]);
  });

  it("opens another, and a new one", async () => {
    const { opened } = setup();
    await fireEvent.click(await screen.findByRole("button", { name: "Open Grace" }));
    await waitFor(() => expect(opened.map((s) => s.documentId)).toEqual([2]));
    await fireEvent.click(screen.getByRole("button", { name: "New" }));
    await waitFor(() => expect(opened.map((s) => s.documentId)).toEqual([2, 9]));
    expect(store.calls).toEqual(["open 2", "new false"]);
  });

  it("renames with Enter", async () => {
    setup();
    await fireEvent.click(await screen.findByRole("button", { name: "Rename Grace" }));
    const input = screen.getByTestId("documents-title-input") as HTMLInputElement;
    await fireEvent.input(input, { target: { value: "Grace — data" } });
    await fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(store.calls).toEqual(["rename 2 Grace — data"]));
    await waitFor(() => expect(screen.getAllByTestId("documents-title").map((t) => t.textContent)).toContain("Grace — data"));
  });

  it("deletes with Undo, and the resume on screen is replaced", async () => {
    const { opened } = setup();
    await fireEvent.click(await screen.findByRole("button", { name: "Delete Ada — backend" }));
    await waitFor(() => expect(screen.getByTestId("documents-deleted").textContent).toContain("Deleted “Ada — backend”."));
    expect(opened.map((s) => s.documentId)).toEqual([2]);
    await fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(store.calls).toEqual(["delete 1", "undelete 1"]));
    await waitFor(() => expect(screen.getAllByTestId("documents-row")).toHaveLength(2));
  });

  it("Import… hands over to the window's import review and opens nothing itself", async () => {
    const { opened, imports } = setup();
    await fireEvent.click(await screen.findByRole("button", { name: "Import…" }));
    expect(imports).toEqual([1]);
    expect(opened).toEqual([]);
    expect(store.calls).toEqual([]);
  });
});
