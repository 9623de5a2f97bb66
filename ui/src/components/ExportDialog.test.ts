import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";

const calls: { preview: unknown[]; save: unknown[] } = { preview: [], save: [] };
let failSave = false;

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  exportPreview: async (request: unknown) => {
    calls.preview.push(request);
    return "<p>preview</p>";
  },
  exportDocument: async (request: unknown) => {
    calls.save.push(request);
    if (failSave) throw { message: "cannot write /x: disk full" };
    return { path: "/home/u/Downloads/Richard.html", bytes: 10 };
  },
}));

import ExportDialog from "./ExportDialog.svelte";

afterEach(() => {
  cleanup();
  calls.preview.length = 0;
  calls.save.length = 0;
  failSave = false;
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
    await fireEvent.keyDown(window, { key: "Escape" });
    expect(onclose).toHaveBeenCalled();
  });
});
