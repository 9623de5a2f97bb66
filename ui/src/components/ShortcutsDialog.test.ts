import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import type { WindowAction } from "../lib/actions";
import { actionMaker } from "../lib/actions.fixture";
import { paletteShortcut, shortcutLabel, type Platform } from "../lib/commands";
import ShortcutsDialog from "./ShortcutsDialog.svelte";

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
});

const action = actionMaker();

const actions: WindowAction[] = [
  action("undo", "Undo", "Edit", "CmdOrCtrl+Z"),
  action("redo", "Redo", "Edit", "CmdOrCtrl+Shift+Z"),
  action("history", "History", "Document"),
  action("export", "Export…", "Output", "CmdOrCtrl+Shift+E"),
  action("documents", "Documents…", "Resumes"),
  action("settings", "Settings…", "App", "CmdOrCtrl+,"),
];

function open(platform: Platform, onclose: () => void = () => {}) {
  render(ShortcutsDialog, { actions, platform, onclose });
}
const groups = () =>
  screen.getAllByTestId("shortcuts-group").map((g) => ({
    name: g.querySelector("h3")?.textContent,
    ids: [...g.querySelectorAll<HTMLElement>("[data-testid='shortcut']")].map((l) => l.dataset.actionId),
  }));
/** The keys shown for line `id`: the whole label, and each key. */
function keysOf(id: string): { label: string; keys: string[] } {
  const line = screen.getAllByTestId("shortcut").find((l) => l.dataset.actionId === id);
  const outer = line?.querySelector("dd > kbd");
  if (!outer) throw new Error(`no keys for ${id}`);
  return { label: outer.textContent ?? "", keys: [...outer.querySelectorAll("kbd")].map((k) => k.textContent ?? "") };
}

describe("the keyboard shortcuts", () => {
  it("lists every action with a shortcut by group, after the window's own keys and before a text field's", () => {
    open("other");
    const dialog = screen.getByTestId("shortcuts-dialog");
    expect(dialog.closest("dialog")?.getAttribute("aria-labelledby")).toBe(dialog.querySelector("h2")?.id);
    expect(dialog.querySelector("h2")?.textContent).toBe("Keyboard shortcuts");
    expect(groups()).toEqual([
      { name: "Window", ids: ["command-palette", "close-dialog"] },
      { name: "Edit", ids: ["undo", "redo"] },
      { name: "Output", ids: ["export"] },
      { name: "App", ids: ["settings"] },
      { name: "In a text field", ids: ["undo-typing", "redo-typing"] },
    ]);
    // Actions without a shortcut, and their groups when none has one, are left out.
    expect(dialog.textContent).not.toContain("History");
    expect(dialog.textContent).not.toContain("Resumes");
    expect(dialog.textContent).toContain("when no text field has the focus");
  });

  it("writes the keys as Linux and Windows do: Ctrl, joined by +", () => {
    open("other");
    expect(keysOf("export")).toEqual({ label: "Ctrl+Shift+E", keys: ["Ctrl", "Shift", "E"] });
    expect(keysOf("export").label).toBe(shortcutLabel("CmdOrCtrl+Shift+E", "other"));
    expect(keysOf("settings")).toEqual({ label: "Ctrl+,", keys: ["Ctrl", ","] });
    expect(keysOf("command-palette").label).toBe(paletteShortcut("other"));
    expect(keysOf("command-palette").keys).toEqual(["Ctrl", "K"]);
    expect(keysOf("redo-typing").label).toBe("Ctrl+Shift+Z");
    expect(keysOf("close-dialog").label).toBe("Escape");
  });

  it("writes the keys as macOS does: its symbols, Cmd last, nothing between", () => {
    open("mac");
    expect(keysOf("export")).toEqual({ label: "⇧⌘E", keys: ["⇧", "⌘", "E"] });
    expect(keysOf("export").label).toBe(shortcutLabel("CmdOrCtrl+Shift+E", "mac"));
    expect(keysOf("undo").label).toBe("⌘Z");
    expect(keysOf("command-palette").label).toBe(paletteShortcut("mac"));
    expect(keysOf("command-palette").label).toBe("⌘K");
    expect(keysOf("redo-typing").label).toBe("⇧⌘Z");
  });

  it("closes with its Close button and with Escape", async () => {
    let closed = 0;
    open("other", () => closed++);
    const close = screen.getByRole("button", { name: "Close" });
    expect(document.activeElement).toBe(close);
    await fireEvent.click(close);
    expect(closed).toBe(1);
    await fireEvent.keyDown(screen.getByTestId("shortcuts-dialog"), { key: "Escape" });
    expect(closed).toBe(2);
  });
});
