import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Application } from "../../bindings/Application";
import type { ApplicationFields } from "../../bindings/ApplicationFields";

const calls = vi.hoisted(() => ({
  listed: 0,
  added: [] as { company: string; pin: boolean }[],
  remade: [] as [number, string, string][],
}));

function application(id: number, fields: Partial<Application> = {}): Application {
  return {
    id, company: "Hooli", role: "Senior Compression Engineer", posting: "", source: "", url: "", stage: "applied",
    contacts: "", notes: "", salary: "", followUp: null, tags: [], resume: null, letter: null,
    timeline: [{ stage: "applied", date: "2025-03-01" }], createdAt: 0, updatedAt: 0, ...fields,
  };
}

vi.mock("../../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  listApplications: async () => {
    calls.listed += 1;
    const first = application(1, { resume: { documentId: 1, revision: 7 }, letter: { documentId: 4, revision: 3 } });
    // From the second read on, another device's application has come by sync.
    return calls.listed === 1 ? [first] : [first, application(5, { company: "Initech" })];
  },
  addApplication: async (fields: ApplicationFields, pin: boolean) => {
    calls.added.push({ company: fields.company, pin });
    return application(2, { company: fields.company, role: fields.role, stage: "saved" });
  },
  moveApplication: async () => application(1),
  exportApplicationsCsv: async () => null,
  importApplicationsCsv: async () => null,
  exportSent: async (id: number, sent: string, format: string) => {
    calls.remade.push([id, sent, format]);
    return { path: `/home/r/Downloads/${sent}.pdf`, bytes: 1000, unprintable: "" };
  },
}));

import ApplicationsView from "./ApplicationsView.svelte";

afterEach(() => {
  cleanup();
  calls.listed = 0;
  calls.added.length = 0;
  calls.remade.length = 0;
});

describe("applications", () => {
  it("a card shows the revisions of the resume and the letter it sent", async () => {
    render(ApplicationsView, { resumeTitle: "Richard Hendriks", letter: false });
    const card = await screen.findByTestId("application-card");
    expect(card.textContent).toContain("Resume sent: revision 7");
    expect(card.textContent).toContain("Letter sent: revision 3");
  });

  it("makes the PDF of the letter it sent again, and says where it went", async () => {
    render(ApplicationsView, { resumeTitle: "Richard Hendriks", letter: false });
    await screen.findByTestId("application-card");
    await fireEvent.click(screen.getByRole("button", { name: "PDF again: the letter sent to Hooli" }));
    await waitFor(() => expect(calls.remade).toEqual([[1, "letter", "pdf"]]));
    expect((await screen.findByTestId("applications-saved")).textContent).toBe("Saved to /home/r/Downloads/letter.pdf");
  });

  it("reads the applications again after a sync brought something, and shows another device's", async () => {
    const view = render(ApplicationsView, { resumeTitle: null, letter: false, synced: 0 });
    await screen.findByTestId("application-card");
    expect(screen.getAllByTestId("application-card")).toHaveLength(1);
    await view.rerender({ resumeTitle: null, letter: false, synced: 1 });
    await waitFor(() => expect(screen.getAllByTestId("application-card")).toHaveLength(2));
    expect(calls.listed).toBe(2);
  });

  it("with a letter on screen, a new application pins the letter and its resume", async () => {
    render(ApplicationsView, { resumeTitle: "Letter — Hooli", letter: true });
    await screen.findByTestId("application-card");
    await fireEvent.click(screen.getByTestId("application-add"));
    const form = screen.getByTestId("application-form");
    expect(form.textContent).toMatch(/Pin “Letter — Hooli”\s+and its resume as sent, at their revisions/);
    await fireEvent.input(screen.getByTestId("application-company"), { target: { value: "Initech" } });
    await fireEvent.input(screen.getByTestId("application-role"), { target: { value: "Engineer" } });
    await fireEvent.submit(form);
    await waitFor(() => expect(calls.added).toEqual([{ company: "Initech", pin: true }]));
    expect(screen.getAllByTestId("application-card")).toHaveLength(2);
  });
});
