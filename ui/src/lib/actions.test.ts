import { describe, expect, it } from "vitest";
import { actionOf, ariaShortcut, canRun, tooltipOf, type WindowAction } from "./actions";

const undo: WindowAction = { id: "undo", label: "Undo", group: "Edit", shortcut: "CmdOrCtrl+Z", run: () => {} };
const exporting: WindowAction = { id: "export", label: "Export…", group: "Output", shortcut: "CmdOrCtrl+Shift+E", run: () => {} };

describe("a window action", () => {
  it("is found by its id, and a control drawn for one the window does not offer is an error", () => {
    expect(actionOf([undo, exporting], "export")).toBe(exporting);
    expect(() => actionOf([undo], "export")).toThrow(/export/);
  });

  it("can run unless it says it cannot", () => {
    expect(canRun(undo)).toBe(true);
    expect(canRun({ enabled: () => false })).toBe(false);
  });

  it("has a tooltip with its name and its shortcut as the platform writes it", () => {
    expect(tooltipOf(undo, "other")).toBe("Undo (Ctrl+Z)");
    expect(tooltipOf(exporting, "other")).toBe("Export (Ctrl+Shift+E)");
    expect(tooltipOf(exporting, "mac")).toBe("Export (\u21e7\u2318E)");
    expect(tooltipOf({ label: "History" }, "other")).toBe("History");
  });

  it("says its shortcut to assistive technology in ARIA's words", () => {
    expect(ariaShortcut("CmdOrCtrl+Shift+E", "other")).toBe("Control+Shift+E");
    expect(ariaShortcut("CmdOrCtrl+Shift+E", "mac")).toBe("Meta+Shift+E");
    expect(ariaShortcut("CmdOrCtrl+,", "other")).toBe("Control+,");
    expect(ariaShortcut("Ctrl+Alt+Delete", "mac")).toBe("Control+Alt+Delete");
    expect(ariaShortcut(undefined, "other")).toBeUndefined();
  });
});
