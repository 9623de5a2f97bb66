import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";

const calls: { preview: unknown[]; save: unknown[]; ats: unknown[] } = { preview: [], save: [], ats: [] };
let failSave = false;
let unprintable = "";
let atsMissing: { section: string; field: string; text: string }[] = [];

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  exportPreview: async (request: unknown) => {
    calls.preview.push(request);
    return "<p>preview</p>";
  },
  atsCheck: async (request: unknown, theme: string | null = null) => {
    calls.ats.push(theme === null ? request : [request, theme]);
    return {
      pages: 1,
      sections: [
        { id: "basics", heading: "", text: "Richard Hendriks Programmer" },
        { id: "work", heading: "Work", text: "Work CEO/President Pied Piper" },
      ],
      missing: atsMissing,
      outOfOrder: [],
    };
  },
  designs: async () => [{ name: "mine", label: "Mine", description: "", builtIn: false }],
  exportDocument: async (request: unknown, theme: string | null = null) => {
    calls.save.push(theme === null ? request : { request, theme });
    if (failSave) throw { message: "cannot write /x: disk full" };
    return { path: "/home/u/Downloads/Richard.html", bytes: 10, unprintable };
  },
}));

import ExportDialog from "./ExportDialog.svelte";

afterEach(() => {
  cleanup();
  calls.preview.length = 0;
  calls.save.length = 0;
  calls.ats.length = 0;
  failSave = false;
  atsMissing = [];
  unprintable = "";
});

describe("export dialog", () => {
  it("previews, exports what was chosen and says where the file went", async () => {
    render(ExportDialog, { onclose: () => {} });
    await fireEvent.change(screen.getByTestId("export-template"), { target: { value: "modern" } });
    await fireEvent.change(screen.getByTestId("export-page"), { target: { value: "letter" } });
    await fireEvent.click(screen.getByTestId("export-save"));
    expect(await screen.findByText("Saved to /home/u/Downloads/Richard.html")).toBeTruthy();
    expect(calls.save).toEqual([{ format: "pdf", template: "modern", page: "letter" }]);
    expect(calls.preview.length).toBeGreaterThan(0);
    expect((screen.getByTestId("export-preview") as HTMLIFrameElement).getAttribute("sandbox")).toBe("");
  });

  it("says which letters the PDF prints as nothing, and what to do; nothing when every letter prints", async () => {
    render(ExportDialog, { onclose: () => {} });
    await fireEvent.click(screen.getByTestId("export-save"));
    expect(await screen.findByText("Saved to /home/u/Downloads/Richard.html")).toBeTruthy();
    expect(screen.queryByTestId("export-unprintable")).toBeNull();
    unprintable = "삼성전";
    await fireEvent.click(screen.getByTestId("export-save"));
    const note = await screen.findByTestId("export-unprintable");
    expect(note.getAttribute("role")).toBe("alert");
    expect(note.textContent).toContain("No font on this computer has 3 of the resume's letters (삼성전)");
    expect(note.textContent).toContain("Noto Sans CJK");
    // The file was still written, and the place is said as before.
    expect(screen.getByTestId("export-status").textContent).toContain("Saved to /home/u/Downloads/Richard.html");
  });

  it("exports in a theme of the user's own, and reads the theme's own PDF back", async () => {
    render(ExportDialog, { onclose: () => {} });
    const select = screen.getByTestId("export-template") as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toContain("mine"));
    await fireEvent.change(select, { target: { value: "mine" } });
    await fireEvent.click(screen.getByTestId("export-save"));
    expect(await screen.findByText("Saved to /home/u/Downloads/Richard.html")).toBeTruthy();
    expect(calls.save).toEqual([{ request: { format: "pdf", template: "classic", page: "a4" }, theme: "mine" }]);
    await waitFor(() => expect(calls.ats).toEqual([[{ format: "pdf", template: "classic", page: "a4" }, "mine"]]));
  });

  it("shows a failure in plain words", async () => {
    failSave = true;
    render(ExportDialog, { onclose: () => {} });
    await fireEvent.click(screen.getByTestId("export-save"));
    const status = await screen.findByRole("alert");
    expect(status.textContent).toContain("The export failed: cannot write /x: disk full");
  });

  it("closes with Escape", async () => {
    const onclose = vi.fn();
    render(ExportDialog, { onclose });
    // Focus is moved into the dialog on opening; Escape there closes it.
    const focused = document.activeElement as HTMLElement;
    expect(screen.getByTestId("export-dialog").contains(focused)).toBe(true);
    await fireEvent.keyDown(focused, { key: "Escape" });
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it("after a PDF, says how an applicant tracking system reads it", async () => {
    render(ExportDialog, { onclose: () => {} });
    await fireEvent.click(screen.getByTestId("export-save"));
    const status = await screen.findByTestId("ats-status");
    expect(status.textContent).toContain("Every field reads back, in order (1 page).");
    expect(calls.ats).toEqual([{ format: "pdf", template: "classic", page: "a4" }]);
    expect(screen.getByTestId("ats-read").textContent).toContain("CEO/President Pied Piper");
    expect(screen.queryByTestId("ats-missing")).toBeNull();
  });

  it("on demand, lists what is missing by section and field", async () => {
    atsMissing = [{ section: "work", field: "item", text: "Won Techcrunch Disrupt" }];
    render(ExportDialog, { onclose: () => {} });
    await fireEvent.change(screen.getByTestId("export-format"), { target: { value: "html" } });
    await fireEvent.click(screen.getByTestId("ats-check"));
    const status = await screen.findByTestId("ats-status");
    expect(status.textContent).toContain("1 field does not read back as written.");
    expect(screen.getByTestId("ats-missing").textContent).toContain("Work, bullet: Won Techcrunch Disrupt");
    expect(calls.ats).toEqual([{ format: "pdf", template: "classic", page: "a4" }]);
    expect(calls.save).toEqual([]);
  });
});
