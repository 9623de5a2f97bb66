import { describe, expect, it } from "vitest";
import { localTime, sourceLabel, undoKey } from "./history";

function key(init: KeyboardEventInit, target?: HTMLElement): KeyboardEvent {
  const event = new KeyboardEvent("keydown", init);
  if (target) Object.defineProperty(event, "target", { value: target });
  return event;
}

describe("history words", () => {
  it("names every source", () => {
    expect(["ai", "user", "import", "undo", "redo", "restore"].map(sourceLabel)).toEqual([
      "AI", "You", "Import", "Undo", "Redo", "Restore",
    ]);
  });

  it("shows a time in local time", () => {
    const ms = Date.UTC(2026, 10, 23, 16, 5);
    expect(localTime(ms, "en-US")).toBe(new Date(ms).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }));
    expect(localTime(ms, "en-US")).toContain("2026");
  });

  it("Ctrl/Cmd+Z undoes, with Shift (or Ctrl+Y) redoes, and never inside a text field", () => {
    expect(undoKey(key({ key: "z", ctrlKey: true }))).toBe(true);
    expect(undoKey(key({ key: "z", metaKey: true }))).toBe(true);
    expect(undoKey(key({ key: "Z", ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(undoKey(key({ key: "y", ctrlKey: true }))).toBe(false);
    expect(undoKey(key({ key: "z" }))).toBeNull();
    expect(undoKey(key({ key: "z", ctrlKey: true }, document.createElement("textarea")))).toBeNull();
    expect(undoKey(key({ key: "z", ctrlKey: true }, document.createElement("input")))).toBeNull();
  });
});
