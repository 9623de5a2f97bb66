import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DocState } from "../bindings/DocState";
import type { TailorView } from "../bindings/TailorView";

const store = vi.hoisted(() => ({ report: null as TailorView | null, postings: [] as string[] }));

const REPORT: TailorView = {
  documentId: 7,
  master: "Ada — Analyst",
  headline: "Senior Backend Engineer",
  terms: [
    { term: "kubernetes", count: 2, found: false },
    { term: "python", count: 1, found: true },
  ],
  changes: [],
};

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  tailoring: async () => store.report,
  tailorDocument: async (posting: string) => {
    store.postings.push(posting);
    store.report = REPORT;
    return REPORT;
  },
  documentState: async (): Promise<DocState> => ({ documentId: 7, title: "Ada — for Senior Backend Engineer", demo: false, revision: 1, undo: null, redo: null }),
}));

import TailorDialog from "./TailorDialog.svelte";

afterEach(() => {
  cleanup();
  store.report = null;
  store.postings.length = 0;
});

describe("tailor to a job", () => {
  it("a pasted posting makes a tailored copy, and its terms are reported as in the resume or not", async () => {
    const opened: DocState[] = [];
    render(TailorDialog, { onclose: () => {}, onopened: (s: DocState) => opened.push(s) });
    const create = (await screen.findByRole("button", { name: "Make a tailored copy" })) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    await fireEvent.input(screen.getByTestId("tailor-posting"), { target: { value: "Senior Backend Engineer\nKubernetes" } });
    await fireEvent.click(create);
    await waitFor(() => expect(opened.map((s) => s.documentId)).toEqual([7]));
    expect(store.postings).toEqual(["Senior Backend Engineer\nKubernetes"]);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Tailored for Senior Backend Engineer");
    expect(screen.getByTestId("tailor-found").textContent).toContain("python");
    expect(screen.getByTestId("tailor-missing").textContent).toContain("kubernetes ×2");
    expect(document.body.textContent).toMatch(/1 of 2 in your resume/);
  });

  it("offers the copy, its letter and the application in one step, with the posting pasted", async () => {
    const applied: string[] = [];
    render(TailorDialog, { onclose: () => {}, onopened: () => {}, onapply: (p: string) => applied.push(p) });
    const apply = (await screen.findByRole("button", { name: "Copy, letter and application" })) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    await fireEvent.input(screen.getByTestId("tailor-posting"), { target: { value: "  Data Engineer at Globex\n" } });
    await fireEvent.click(apply);
    expect(applied).toEqual(["Data Engineer at Globex"]);
    // The owner runs the step, not the dialog.
    expect(store.postings).toEqual([]);
  });

  it("on a tailored copy, shows what tailoring changed", async () => {
    store.report = { ...REPORT, changes: ["Add “Kubernetes” to the keywords of your skill “Web Development”"] };
    render(TailorDialog, { onclose: () => {}, onopened: () => {} });
    expect((await screen.findByTestId("tailor-changes")).textContent).toContain("Kubernetes");
    expect(screen.queryByRole("button", { name: "Make a tailored copy" })).toBeNull();
  });

  it("on a tailored copy, offers a cover letter for the same job", async () => {
    store.report = REPORT;
    let letters = 0;
    render(TailorDialog, { onclose: () => {}, onopened: () => {}, onletter: () => (letters += 1) });
    await fireEvent.click(await screen.findByTestId("tailor-letter"));
    expect(letters).toBe(1);
  });

  it("offers no letter while there is no copy, or when the owner cannot start one", async () => {
    render(TailorDialog, { onclose: () => {}, onopened: () => {}, onletter: () => {} });
    await screen.findByRole("button", { name: "Make a tailored copy" });
    expect(screen.queryByTestId("tailor-letter")).toBeNull();
    cleanup();
    store.report = REPORT;
    render(TailorDialog, { onclose: () => {}, onopened: () => {} });
    await screen.findByTestId("tailor-found");
    expect(screen.queryByTestId("tailor-letter")).toBeNull();
  });
});
