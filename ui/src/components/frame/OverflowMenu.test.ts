import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { FilePlus } from "lucide";
import { afterEach, describe, expect, it } from "vitest";
import type { WindowAction } from "../../lib/actions";
import { actionMaker } from "../../lib/actions.fixture";
import OverflowMenu, { type MenuEntry } from "./OverflowMenu.svelte";

afterEach(() => {
  cleanup();
  document.head.querySelectorAll("style[data-test]").forEach((s) => s.remove());
});

/** Four entries, each run recorded in `ran`; "Import…" cannot run when `importable` is false. */
function entries(ran: string[], importable = true): MenuEntry[] {
  const make = actionMaker(ran);
  const action = (id: string, label: string, shortcut?: string, enabled?: () => boolean): WindowAction =>
    make(id, label, "Resumes", shortcut, enabled);
  return [
    { action: action("new", "New resume", "CmdOrCtrl+N"), icon: FilePlus, testid: "menu-new" },
    { action: action("new-sample", "New from the sample"), icon: FilePlus, testid: "menu-new-sample" },
    { action: action("import", "Import…", "CmdOrCtrl+O", () => importable), icon: FilePlus, testid: "menu-import" },
    { action: action("documents", "Documents…"), icon: FilePlus, testid: "menu-documents" },
  ];
}

const button = () => screen.getByRole("button", { name: "More" });
const focused = () => (document.activeElement as HTMLElement | null)?.dataset.testid;
const key = (target: Element, k: string, extra: KeyboardEventInit = {}) =>
  fireEvent.keyDown(target, { key: k, bubbles: true, ...extra });

describe("the toolbar's More menu", () => {
  it("is a menu button, closed until asked", () => {
    render(OverflowMenu, { entries: entries([]), platform: "other" });
    expect(button().getAttribute("aria-haspopup")).toBe("menu");
    expect(button().getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("opens on ↓ at its first item and on ↑ at its last; ↓ and ↑ go round, Home and End to the ends", async () => {
    render(OverflowMenu, { entries: entries([]), platform: "other" });
    await key(button(), "ArrowDown");
    expect(button().getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("menu").id).toBe(button().getAttribute("aria-controls"));
    expect(focused()).toBe("menu-new");
    await key(document.activeElement!, "ArrowDown");
    expect(focused()).toBe("menu-new-sample");
    await key(document.activeElement!, "End");
    expect(focused()).toBe("menu-documents");
    await key(document.activeElement!, "ArrowDown");
    expect(focused()).toBe("menu-new");
    await key(document.activeElement!, "ArrowUp");
    expect(focused()).toBe("menu-documents");
    await key(document.activeElement!, "Home");
    expect(focused()).toBe("menu-new");
    // A letter: the next item starting with it.
    await key(document.activeElement!, "d");
    expect(focused()).toBe("menu-documents");
    await key(document.activeElement!, "n");
    expect(focused()).toBe("menu-new");
    await key(document.activeElement!, "n");
    expect(focused()).toBe("menu-new-sample");
    await key(document.activeElement!, "Escape");
    expect(screen.queryByRole("menu")).toBeNull();

    await key(button(), "ArrowUp");
    expect(focused()).toBe("menu-documents");
  });

  it("closes on Escape with the focus back on its button; Tab leaves it closed", async () => {
    render(OverflowMenu, { entries: entries([]), platform: "other" });
    await fireEvent.click(button());
    expect(focused()).toBe("menu-new");
    await key(document.activeElement!, "Escape");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button());
    expect(button().getAttribute("aria-expanded")).toBe("false");

    await fireEvent.click(button());
    await key(document.activeElement!, "Tab");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("runs the item chosen, closed first with the focus on its button; an item that cannot run stays", async () => {
    const ran: string[] = [];
    render(OverflowMenu, { entries: entries(ran, false), platform: "other" });
    await fireEvent.click(button());
    const items = screen.getAllByRole("menuitem");
    expect(items.map((i) => i.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      "New resume Ctrl+N", "New from the sample", "Import… Ctrl+O", "Documents…",
    ]);
    expect(items[0]!.getAttribute("aria-keyshortcuts")).toBe("Control+N");
    expect(items[2]!.getAttribute("aria-disabled")).toBe("true");
    await fireEvent.click(items[2]!);
    expect(ran).toEqual([]);
    expect(screen.getByRole("menu")).toBeTruthy();
    await fireEvent.click(screen.getByTestId("menu-new-sample"));
    expect(ran).toEqual(["new-sample"]);
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button());
  });

  it("closes when the pointer presses outside it, leaving the focus alone", async () => {
    render(OverflowMenu, { entries: entries([]), platform: "other" });
    await fireEvent.click(button());
    await fireEvent.pointerDown(screen.getByTestId("menu-new"));
    expect(screen.getByRole("menu")).toBeTruthy();
    await fireEvent.pointerDown(document.body);
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("skips the item of a button still in the toolbar (shown only once the button moves here)", async () => {
    const style = document.createElement("style");
    style.dataset.test = "";
    style.textContent = ".menu-item.moved { display: none; }";
    document.head.append(style);
    const list = entries([]);
    list[1] = { ...list[1]!, moved: true };
    render(OverflowMenu, { entries: list, platform: "other" });
    await key(button(), "ArrowDown");
    await key(document.activeElement!, "ArrowDown");
    expect(focused()).toBe("menu-import");
  });
});
