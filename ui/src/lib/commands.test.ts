import { describe, expect, it } from "vitest";
import type { WindowAction } from "./actions";
import { actionMaker } from "./actions.fixture";
import {
  groupActions,
  isPaletteKey,
  matchRank,
  paletteGroups,
  paletteShortcut,
  platformOf,
  rankActions,
  shortcutKeys,
  shortcutLabel,
  shortcutsByGroup,
} from "./commands";

const action = actionMaker();

const actions: WindowAction[] = [
  action("new", "New Resume", "File", "CmdOrCtrl+N"),
  action("new-sample", "New from the Sample", "File"),
  action("import", "Import…", "File", "CmdOrCtrl+O"),
  action("export", "Export…", "File", "CmdOrCtrl+Shift+E"),
  action("undo", "Undo Change", "Edit", "CmdOrCtrl+Z"),
  action("redo", "Redo Change", "Edit", "CmdOrCtrl+Shift+Z"),
  action("history", "History…", "Edit"),
  action("tailor", "Tailor to a Job…", "Resume"),
  action("pages", "Show the Pages", "View"),
  action("settings", "Settings…", "App", "CmdOrCtrl+,"),
];
const ids = (list: readonly WindowAction[]) => list.map((a) => a.id);

describe("a query's matches", () => {
  it("rank a prefix of the label first, then a word's start, then any part, then the group, then letters in order", () => {
    const labelled = (label: string, group = "Other") => ({ label, group });
    expect(matchRank(labelled("Export…"), "exp")).toBe(0);
    expect(matchRank(labelled("New from the Sample"), "sam")).toBe(1);
    expect(matchRank(labelled("Open Log Folder"), "older")).toBe(2);
    expect(matchRank(labelled("Undo Change", "Edit"), "edit")).toBe(3);
    expect(matchRank(labelled("New from the Sample"), "new sample")).toBe(3);
    expect(matchRank(labelled("Tailor to a Job…"), "tlj")).toBe(4);
    expect(matchRank(labelled("Export…"), "zz")).toBeNull();
  });

  it("ignore case, accents and extra spaces; an empty query matches everything", () => {
    expect(matchRank({ label: "Résumé öffnen", group: "Datei" }, "  RESUME  ")).toBe(0);
    expect(matchRank({ label: "Lebenslauf öffnen", group: "Datei" }, "offnen")).toBe(1);
    expect(matchRank({ label: "Anything", group: "Any" }, "   ")).toBe(0);
  });

  it("find a word's start after a hyphen or a bracket, not inside a word", () => {
    expect(matchRank({ label: "Re-import", group: "" }, "import")).toBe(1);
    expect(matchRank({ label: "Reimport", group: "" }, "import")).toBe(2);
    expect(matchRank({ label: "Export (PDF)", group: "" }, "pdf")).toBe(1);
  });

  it("come best first, keeping the given order among equals", () => {
    // "re": Redo's label starts with it, a word of New Resume's does, Tailor's group (Resume) has it, and New
    // from the Sample has its letters in order.
    expect(ids(rankActions(actions, "re"))).toEqual(["redo", "new", "tailor", "new-sample"]);
    expect(ids(rankActions(actions, "ch"))).toEqual(["undo", "redo"]);
    expect(ids(rankActions(actions, "edit"))).toEqual(["undo", "redo", "history"]);
    expect(ids(rankActions(actions, ""))).toEqual(ids(actions));
  });
});

describe("the palette's groups", () => {
  it("come in the order of their first action, the best match's group first", () => {
    expect(groupActions(actions).map((g) => g.group)).toEqual(["File", "Edit", "Resume", "View", "App"]);
    const found = paletteGroups(actions, "s");
    expect(found.map((g) => g.group)).toEqual(["View", "App", "File", "Edit", "Resume"]);
    expect(found.flatMap((g) => ids(g.actions))).toEqual(["pages", "settings", "new-sample", "new", "history", "tailor"]);
  });
});

describe("shortcuts", () => {
  it("are Ctrl on Linux and Windows, ⌘ on macOS, modifiers in the platform's order", () => {
    expect(shortcutKeys("CmdOrCtrl+Shift+E", "other")).toEqual(["Ctrl", "Shift", "E"]);
    expect(shortcutKeys("Shift+CmdOrCtrl+z", "other")).toEqual(["Ctrl", "Shift", "Z"]);
    expect(shortcutKeys("CmdOrCtrl+Shift+E", "mac")).toEqual(["⇧", "⌘", "E"]);
    expect(shortcutKeys("Ctrl+Alt+Delete", "mac")).toEqual(["⌃", "⌥", "Delete"]);
    expect(shortcutKeys("Ctrl+CmdOrCtrl+K", "other")).toEqual(["Ctrl", "K"]);
    expect(shortcutKeys("CmdOrCtrl++", "other")).toEqual(["Ctrl", "+"]);
    expect(shortcutLabel("CmdOrCtrl+,", "other")).toBe("Ctrl+,");
    expect(shortcutLabel("CmdOrCtrl+Shift+Z", "mac")).toBe("⇧⌘Z");
  });

  it("open the palette with Ctrl+K, or ⌘K on macOS", () => {
    expect(paletteShortcut("other")).toBe("Ctrl+K");
    expect(paletteShortcut("mac")).toBe("⌘K");
    const key = (init: Partial<KeyboardEvent>) => ({ key: "k", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...init });
    expect(isPaletteKey(key({ ctrlKey: true }), "other")).toBe(true);
    expect(isPaletteKey(key({ key: "K", ctrlKey: true }), "other")).toBe(true);
    expect(isPaletteKey(key({ metaKey: true }), "other")).toBe(false);
    expect(isPaletteKey(key({ metaKey: true }), "mac")).toBe(true);
    expect(isPaletteKey(key({ ctrlKey: true }), "mac")).toBe(false);
    expect(isPaletteKey(key({ ctrlKey: true, shiftKey: true }), "other")).toBe(false);
    expect(isPaletteKey(key({ key: "j", ctrlKey: true }), "other")).toBe(false);
  });

  it("know the platform from the engine's user agent", () => {
    expect(platformOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)")).toBe("mac");
    expect(platformOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)")).toBe("other");
    expect(platformOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Edg/131.0.0.0")).toBe("other");
  });

  it("are listed for Help by group, the actions without one left out", () => {
    expect(shortcutsByGroup(actions)).toEqual([
      {
        group: "File",
        actions: [
          { id: "new", label: "New Resume", shortcut: "CmdOrCtrl+N" },
          { id: "import", label: "Import…", shortcut: "CmdOrCtrl+O" },
          { id: "export", label: "Export…", shortcut: "CmdOrCtrl+Shift+E" },
        ],
      },
      {
        group: "Edit",
        actions: [
          { id: "undo", label: "Undo Change", shortcut: "CmdOrCtrl+Z" },
          { id: "redo", label: "Redo Change", shortcut: "CmdOrCtrl+Shift+Z" },
        ],
      },
      { group: "App", actions: [{ id: "settings", label: "Settings…", shortcut: "CmdOrCtrl+," }] },
    ]);
  });
});
