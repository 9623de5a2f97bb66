import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import type { WindowAction } from "../../lib/actions";
import { actionMaker } from "../../lib/actions.fixture";
import Toolbar from "./Toolbar.svelte";

afterEach(cleanup);

/** The window's actions as App.svelte gives them, each run recorded in `ran`; Redo cannot run. */
function actions(ran: string[]): WindowAction[] {
  const action = actionMaker(ran);
  return [
    action("undo", "Undo", "Edit", "CmdOrCtrl+Z"),
    action("redo", "Redo", "Edit", "CmdOrCtrl+Shift+Z", () => false),
    action("history", "History", "Document"),
    action("checks", "Writing checks", "Document", "F7"),
    action("design", "Design", "Document"),
    action("tailor", "Tailor to a job…", "Document"),
    action("letter", "Write a cover letter…", "Document"),
    action("pages", "Pages", "Document"),
    action("language", "Language of this resume…", "Document"),
    action("export", "Export…", "Output", "CmdOrCtrl+Shift+E"),
    action("new", "New resume", "Resumes", "CmdOrCtrl+N"),
    action("new-sample", "New from the sample", "Resumes"),
    action("import", "Import…", "Resumes", "CmdOrCtrl+O"),
    action("documents", "Documents…", "Resumes"),
    action("settings", "Settings…", "App", "CmdOrCtrl+,"),
  ];
}

function toolbar(ran: string[] = [], extra: Record<string, unknown> = {}) {
  const languages: (string | null)[] = [];
  render(Toolbar, {
    actions: actions(ran), platform: "other", title: "Ada — Analyst", demo: true, undoHint: "Add Rust to your skills",
    redoHint: null, pageView: true, historyOpen: false, historyPanel: "history-panel", language: "de",
    languageDisabled: false, onlanguage: (tag: string | null) => languages.push(tag), ...extra,
  });
  return languages;
}

describe("the toolbar", () => {
  it("keeps every control the window tests use, by its test id and by its name", () => {
    toolbar();
    const ids = ["document-title", "undo", "redo", "open-history", "open-design", "open-tailor", "toggle-pages", "resume-language",
      "open-export", "open-settings", "more-menu"];
    for (const id of ids) expect(screen.getByTestId(id), id).toBeTruthy();
    expect(screen.getByTestId("document-title").textContent).toMatch(/^Ada — Analyst \(demo copy\)/);
    for (const name of ["Undo", "Redo", "History", "Design", "Tailor to a job…", "Pages", "Export…", "Settings…", "More"]) {
      expect(screen.getByRole("button", { name }), name).toBeTruthy();
    }
  });

  it("groups its buttons by what they act on", () => {
    toolbar();
    const groups = screen.getAllByRole("group").map((g) => [g.getAttribute("aria-label"), [...g.querySelectorAll("[data-testid]")]
      .map((e) => (e as HTMLElement).dataset.testid)]);
    expect(groups).toEqual([
      ["Edit", ["undo", "redo"]],
      ["Document", ["open-history", "open-checks", "open-design", "open-tailor", "toggle-pages", "resume-language"]],
      ["Output", ["open-export"]],
      ["App", ["open-settings", "more-menu"]],
    ]);
  });

  it("gives each button a tooltip with its shortcut, what it would do, and its keys for assistive technology", () => {
    toolbar();
    const undo = screen.getByTestId("undo");
    const tip = undo.nextElementSibling as HTMLElement;
    expect(tip.getAttribute("role")).toBe("tooltip");
    expect(tip.textContent).toContain("Undo (Ctrl+Z)");
    expect(tip.textContent).toContain("Add Rust to your skills");
    expect(undo.getAttribute("aria-keyshortcuts")).toBe("Control+Z");
    expect(document.getElementById(undo.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Add Rust to your skills");
    expect(screen.getByTestId("open-export").nextElementSibling?.textContent).toContain("Export (Ctrl+Shift+E)");
    expect(screen.getByTestId("redo").nextElementSibling?.textContent).toContain("Nothing to redo");
  });

  it("runs its actions; one that cannot run now is disabled; toggles say their state", async () => {
    const ran: string[] = [];
    const languages = toolbar(ran, { historyOpen: true });
    await fireEvent.click(screen.getByTestId("undo"));
    await fireEvent.click(screen.getByTestId("open-export"));
    expect(ran).toEqual(["undo", "export"]);
    expect((screen.getByTestId("redo") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("toggle-pages").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("open-history").getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByTestId("open-history").getAttribute("aria-controls")).toBe("history-panel");
    const language = screen.getByTestId("resume-language") as HTMLSelectElement;
    expect(language.value).toBe("de");
    expect(screen.getByRole("combobox", { name: "Language of this resume" })).toBe(language);
    await fireEvent.change(language, { target: { value: "" } });
    expect(languages).toEqual([null]);
  });

  it("keeps the rare actions in its More menu, and those that move there when it is narrowest", async () => {
    toolbar();
    await fireEvent.click(screen.getByTestId("more-menu"));
    const items = screen.getAllByRole("menuitem").map((i) => [i.dataset.testid, i.classList.contains("moved")]);
    expect(items).toEqual([
      ["menu-design", true], ["menu-tailor", true], ["menu-letter", false], ["menu-settings", true], ["menu-new", false], ["menu-new-sample", false],
      ["menu-import", false], ["menu-documents", false],
    ]);
  });
});
