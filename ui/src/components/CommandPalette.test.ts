import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WindowAction } from "../lib/actions";
import { actionMaker } from "../lib/actions.fixture";
import CommandPalette from "./CommandPalette.svelte";

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
});

/** The window's actions, each run recorded in `ran`. */
function windowActions(ran: string[], undoable = true): WindowAction[] {
  const action = actionMaker(ran);
  return [
    action("import", "Import…", "File", "CmdOrCtrl+O"),
    action("export", "Export…", "File", "CmdOrCtrl+Shift+E"),
    action("undo", "Undo Change", "Edit", "CmdOrCtrl+Z", () => undoable),
    action("history", "History…", "Edit"),
    action("settings", "Settings…", "App", "CmdOrCtrl+,"),
  ];
}

const input = () => screen.getByTestId("command-palette-input") as HTMLInputElement;
const items = () => screen.getAllByTestId("command-palette-item");
const shownIds = () => items().map((item) => item.dataset.actionId);
/** The action the combobox says is active. */
function activeId(): string | undefined {
  const id = input().getAttribute("aria-activedescendant");
  const option = id ? document.getElementById(id) : null;
  expect(option?.getAttribute("aria-selected")).toBe("true");
  return option?.dataset.actionId;
}

describe("the command palette", () => {
  it("lists every action by group, with its shortcut, and takes the focus", () => {
    render(CommandPalette, { actions: windowActions([]), onclose: () => {} });
    expect(screen.getByTestId("command-palette")).toBeTruthy();
    expect(document.activeElement).toBe(input());
    expect(input().getAttribute("role")).toBe("combobox");
    expect(shownIds()).toEqual(["import", "export", "undo", "history", "settings"]);
    const groups = screen.getAllByRole("group").map((g) => g.textContent?.trim().split(/\s/)[0]);
    expect(groups).toEqual(["File", "Edit", "App"]);
    const exportItem = items()[1]!;
    expect([...exportItem.querySelectorAll("kbd kbd")].map((k) => k.textContent)).toEqual(["Ctrl", "Shift", "E"]);
    expect(exportItem.textContent).toContain("Ctrl+Shift+E");
    expect(items()[3]!.querySelector("kbd")).toBeNull();
    expect(activeId()).toBe("import");
  });

  it("filters and ranks as the user types: a label's start first, then a word's, then any part", async () => {
    render(CommandPalette, { actions: windowActions([]), onclose: () => {} });
    await fireEvent.input(input(), { target: { value: "ch" } });
    expect(shownIds()).toEqual(["undo"]);
    await fireEvent.input(input(), { target: { value: "e" } });
    // Export… starts with it; Undo Change and Settings… have it inside; Import… and History… only in their
    // group's name. Shown by group, the groups in the order of their best: File, Edit, App.
    expect(shownIds()).toEqual(["export", "import", "undo", "history", "settings"]);
    expect(activeId()).toBe("export");
    await fireEvent.input(input(), { target: { value: "nothing like it" } });
    expect(screen.queryAllByTestId("command-palette-item")).toEqual([]);
    expect(screen.getByText(/No command matches “nothing like it”/)).toBeTruthy();
    expect(input().hasAttribute("aria-activedescendant")).toBe(false);
  });

  it("moves with the arrow keys, around the ends, and Enter runs the action and closes", async () => {
    const ran: string[] = [];
    const onclose = vi.fn();
    render(CommandPalette, { actions: windowActions(ran), onclose });
    await fireEvent.keyDown(input(), { key: "ArrowDown" });
    await fireEvent.keyDown(input(), { key: "ArrowDown" });
    expect(activeId()).toBe("undo");
    await fireEvent.keyDown(input(), { key: "ArrowUp" });
    expect(activeId()).toBe("export");
    await fireEvent.keyDown(input(), { key: "ArrowUp" });
    await fireEvent.keyDown(input(), { key: "ArrowUp" });
    expect(activeId()).toBe("settings");
    await fireEvent.keyDown(input(), { key: "PageUp" });
    expect(activeId()).toBe("import");
    await fireEvent.keyDown(input(), { key: "ArrowDown" });
    await fireEvent.keyDown(input(), { key: "Enter" });
    expect(onclose).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(ran).toEqual(["export"]));
  });

  it("runs an action clicked", async () => {
    const ran: string[] = [];
    const onclose = vi.fn();
    render(CommandPalette, { actions: windowActions(ran), onclose });
    await fireEvent.click(items()[4]!);
    expect(onclose).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(ran).toEqual(["settings"]));
  });

  it("closes on Escape without running anything, and the focus goes back", async () => {
    const opener = document.body.appendChild(document.createElement("button"));
    opener.focus();
    const ran: string[] = [];
    const onclose = vi.fn();
    const { unmount } = render(CommandPalette, { actions: windowActions(ran), onclose });
    expect(document.activeElement).toBe(input());
    await fireEvent.keyDown(input(), { key: "Escape" });
    expect(onclose).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.activeElement).toBe(opener);
    expect(ran).toEqual([]);
  });

  it("shows an action that cannot run now, marked, and does not run it", async () => {
    const ran: string[] = [];
    const onclose = vi.fn();
    render(CommandPalette, { actions: windowActions(ran, false), onclose });
    await fireEvent.input(input(), { target: { value: "undo" } });
    const undo = items()[0]!;
    expect(undo.dataset.actionId).toBe("undo");
    expect(undo.getAttribute("aria-disabled")).toBe("true");
    expect(activeId()).toBe("undo");
    await fireEvent.keyDown(input(), { key: "Enter" });
    await fireEvent.click(undo);
    // Still open, nothing run; the first action that can run is the one made active.
    expect(onclose).not.toHaveBeenCalled();
    await fireEvent.input(input(), { target: { value: "" } });
    expect(activeId()).toBe("import");
    await new Promise((done) => setTimeout(done, 0));
    expect(ran).toEqual([]);
  });

  it("makes the first action that can run the active one", async () => {
    render(CommandPalette, { actions: windowActions([], false), onclose: () => {} });
    await fireEvent.input(input(), { target: { value: "n" } });
    expect(shownIds()).toEqual(["undo", "settings"]);
    expect(activeId()).toBe("settings");
  });
});
