import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import sample from "../../../assets/sample.resume.json";
import type { Operation } from "../bindings/Operation";
import type { WordsChange } from "../bindings/WordsChange";
import { EDITING_KEY, type Editing } from "../lib/editing";
import type { Resume } from "../lib/resume";

vi.mock("../lib/backend", () => ({ openLink: async () => {}, errorMessage: String }));

import ResumeView from "./ResumeView.svelte";
import { surface } from "../lib/surface.svelte";

afterEach(cleanup);

/** How many times the view said a control was reached for while the model edits. */
let busy = 0;

function view(enabled = true): Operation[][] {
  const committed: Operation[][] = [];
  busy = 0;
  const editing: Editing = { enabled, commit: (ops) => committed.push(ops), selected: null, select: () => {}, highlight: () => null,
    busy: () => busy++ };
  render(ResumeView, { props: { resume: structuredClone(sample) as Resume }, context: new Map([[EDITING_KEY, editing]]) });
  return committed;
}

/** The sample shown as the model's preview that takes out what `ops` remove (editing off). */
function previewRemoving(ops: Operation[]): void {
  surface.apply({ kind: "create", surfaceId: "main", seq: 0, revision: 1, document: structuredClone(sample) });
  surface.apply({ kind: "patch", surfaceId: "main", seq: 1, revision: 1, state: "preview", ops });
  const editing: Editing = { enabled: false, commit: () => {}, selected: null, select: () => {},
    highlight: (path) => surface.highlight(path), removing: (list) => surface.removedFrom(list) };
  render(ResumeView, { props: { resume: surface.document as Resume }, context: new Map([[EDITING_KEY, editing]]) });
}

describe("editing the resume in place", () => {
  it("a field becomes a text box; Enter saves it as an operation, Escape cancels", async () => {
    const committed = view();
    await fireEvent.click(screen.getByRole("button", { name: "Edit name" }));
    const input = screen.getByRole("textbox", { name: "name" }) as HTMLInputElement;
    expect(input.value).toBe("Richard Hendriks");
    await fireEvent.input(input, { target: { value: "Ada Lovelace" } });
    await fireEvent.keyDown(input, { key: "Enter" });
    expect(committed).toEqual([[{ op: "replace", path: "/basics/name", value: "Ada Lovelace" }]]);
    await fireEvent.click(screen.getByRole("button", { name: "Edit headline" }));
    const label = screen.getByRole("textbox", { name: "headline" });
    await fireEvent.input(label, { target: { value: "Founder" } });
    await fireEvent.keyDown(label, { key: "Escape" });
    expect(screen.queryByRole("textbox", { name: "headline" })).toBeNull();
    expect(committed).toHaveLength(1);
    expect(busy).toBe(0);
  });

  it("a bullet of a job, by double-click; a keyword added; an entry moved and removed", async () => {
    const committed = view();
    await fireEvent.dblClick(screen.getByTestId("work-0-highlight-1").querySelector(".editable") as Element);
    const bullet = screen.getByRole("textbox", { name: "bullet" });
    await fireEvent.input(bullet, { target: { value: "Won TechCrunch Disrupt" } });
    await fireEvent.blur(bullet);
    await fireEvent.click(screen.getAllByRole("button", { name: "Add keyword" })[0] as HTMLElement);
    const keyword = screen.getByRole("textbox", { name: "New keyword" });
    await fireEvent.input(keyword, { target: { value: "Rust" } });
    await fireEvent.keyDown(keyword, { key: "Enter" });
    // The only job cannot move; the first of two skills can move down, not up.
    const work = screen.getByTestId("work-0");
    expect(work.querySelector("button[aria-label='Move down']")).toHaveProperty("disabled", true);
    const skill = screen.getByTestId("skills-0");
    expect(skill.querySelector("button[aria-label='Move up']")).toHaveProperty("disabled", true);
    await fireEvent.click(skill.querySelector("button[aria-label='Move down']") as Element);
    await fireEvent.click(work.querySelector("button[aria-label='Remove']") as Element);
    expect(committed).toEqual([
      [{ op: "replace", path: "/work/0/highlights/1", value: "Won TechCrunch Disrupt" }],
      [{ op: "add", path: "/skills/0/keywords/-", value: "Rust" }],
      [{ op: "move", from: "/skills/0", path: "/skills/1" }],
      [{ op: "remove", path: "/work/0" }],
    ]);
  });

  it("nothing is editable while the model edits: the controls stay in place, do nothing and do not show", async () => {
    const css = readFileSync(join(__dirname, "..", "app.css"), "utf8");
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
    try {
      const committed = view(false);
      expect(screen.getByTestId("resume").classList.contains("locked")).toBe(true);
      const controls = [
        ...document.querySelectorAll("[aria-label='Edit name'], [aria-label='Remove'], [aria-label^='Rename']"),
        ...[...document.querySelectorAll("button")].filter((b) => /^Add (keyword|job)$/.test(b.textContent ?? "")),
      ] as HTMLElement[];
      expect(controls.length).toBeGreaterThan(4);
      // Hovering shows a control only in a view that is not locked (jsdom cannot hover: the rules are read).
      const shownOnHover = css.match(/[^{}]*:hover[^{}]*\{[^}]*opacity: 1[^}]*\}/g) ?? [];
      expect(shownOnHover.length).toBeGreaterThan(0);
      for (const rule of shownOnHover) {
        const selectors = rule.slice(0, rule.indexOf("{")).split(",").map((s) => s.trim());
        for (const selector of selectors.filter((s) => s.includes(":hover"))) expect(selector).toMatch(/^\.resume:not\(\.locked\) /);
      }
      expect(getComputedStyle(document.querySelector(".add-section") as Element).visibility).toBe("hidden");
      for (const control of controls) await fireEvent.click(control);
      await fireEvent.dblClick(screen.getByTestId("work-0-highlight-1").querySelector(".editable") as Element);
      expect(screen.queryByRole("textbox")).toBeNull();
      expect(committed).toEqual([]);
      // Each reach for a control was told to the app (which says why nothing happens).
      expect(busy).toBe(controls.length + 1);
      expect(screen.getByTestId("basics-name").textContent).toBe("Richard Hendriks");
    } finally {
      style.remove();
    }
  });

  it("editable, the view is not locked and its controls show", () => {
    view(true);
    expect(screen.getByTestId("resume").classList.contains("locked")).toBe(false);
    expect(screen.getByRole("button", { name: "Edit name" })).toBeDefined();
  });

  it("the change committed last is highlighted in place until it fades; nothing else is", async () => {
    surface.apply({ kind: "create", surfaceId: "main", seq: 0, revision: 1, document: structuredClone(sample) });
    surface.apply({ kind: "patch", surfaceId: "main", seq: 1, revision: 2, state: "committed",
      ops: [{ op: "add", path: "/skills/0/keywords/-", value: "Python" }] });
    const editing: Editing = { enabled: true, commit: () => {}, selected: null, select: () => {},
      highlight: (path) => surface.highlight(path) };
    render(ResumeView, { props: { resume: surface.document as Resume }, context: new Map([[EDITING_KEY, editing]]) });
    const lit = () => [...document.querySelectorAll(".field.changed")].map((e) => e.textContent?.trim());
    expect(lit()).toEqual(["Python"]);
    expect(screen.getByTestId("skills-0-keyword-3").querySelector(".changed")).not.toBeNull();
    surface.fade();
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(lit()).toEqual([]);
  });

  it("a click selects a field (again: clears it); a click on a link in it does not", async () => {
    const chosen: (string | null)[] = [];
    // Selected already (the app's state says so): shown outlined; clicked again, cleared.
    const editing: Editing = { enabled: true, commit: () => {}, selected: "/work/0/summary",
      select: (path) => chosen.push(path), highlight: () => null };
    render(ResumeView, { props: { resume: structuredClone(sample) as Resume }, context: new Map([[EDITING_KEY, editing]]) });
    expect(screen.getByTestId("work-0-summary").querySelector(".field.selected")).not.toBeNull();
    expect(document.querySelectorAll(".field.selected")).toHaveLength(1);
    await fireEvent.click(screen.getByTestId("work-0-summary").querySelector(".editable") as Element);
    expect(chosen).toEqual([null]);
    await fireEvent.click(screen.getByTestId("basics-phone").querySelector(".editable") as Element);
    expect(chosen).toEqual([null, "/basics/phone"]);
    await fireEvent.click(screen.getByTestId("basics-email").querySelector("a") as Element);
    expect(chosen).toHaveLength(2);
  });

  it("an entry's dates edit in place, one at a time", async () => {
    const committed = view();
    const job = screen.getByTestId("work-0");
    await fireEvent.click(job.querySelector("button[aria-label='Edit start date']") as Element);
    const start = screen.getByRole("textbox", { name: "start date" }) as HTMLInputElement;
    expect(start.value).toBe("2013-12-01");
    await fireEvent.input(start, { target: { value: "2013-11" } });
    await fireEvent.keyDown(start, { key: "Enter" });
    expect(committed).toEqual([[{ op: "replace", path: "/work/0/startDate", value: "2013-11" }]]);
  });

  it("an entry is added to a section by its name", async () => {
    const committed = view();
    await fireEvent.click(screen.getByRole("button", { name: "Add job" }));
    const name = screen.getByRole("textbox", { name: "New job" });
    await fireEvent.input(name, { target: { value: "Founder" } });
    await fireEvent.keyDown(name, { key: "Enter" });
    expect(committed).toEqual([[{ op: "add", path: "/work/-", value: { position: "Founder" } }]]);
    expect(screen.getAllByRole("button", { name: /^Add / }).map((b) => b.textContent)).toContain("Add skill");
  });

  it("what a preview removes is shown struck through where it was, until the bundle ends", () => {
    previewRemoving([{ op: "remove", path: "/skills/0/keywords/1" }, { op: "remove", path: "/work/0" }]);
    const keywords = [...screen.getByTestId("skills-0").querySelectorAll(".keywords li")].map((li) => [li.className.includes("removing"), li.textContent?.trim()]);
    expect(keywords).toEqual([[false, "HTML"], [true, "CSS"], [false, "Javascript"]]);
    expect(screen.getByTestId("skills-0").querySelector(".removing s")?.textContent).toBe("CSS");
  });

  it("a field a preview removes is shown struck through where it was", () => {
    previewRemoving([{ op: "remove", path: "/basics/summary" }, { op: "remove", path: "/work/0/summary" }]);
    const struck = [...document.querySelectorAll(".removing s")].map((s) => s.textContent?.slice(0, 20));
    expect(struck).toEqual(["Richard hails from T", "Pied Piper is a mult"]);
    expect(screen.queryByTestId("basics-summary")).toBeNull();
  });

  it("the parts the view shows joined edit one by one: address, profiles, degree and field, score, dates", async () => {
    const committed = view();
    expect(screen.getByTestId("basics-location").textContent).toBe("San Francisco, California, US");
    const edit = async (name: string, box: string, value: string) => {
      await fireEvent.click(screen.getAllByRole("button", { name })[0] as HTMLElement);
      const input = screen.getByRole("textbox", { name: box });
      await fireEvent.input(input, { target: { value } });
      await fireEvent.keyDown(input, { key: "Enter" });
    };
    await edit("Edit city", "city", "Oakland");
    await edit("Edit Twitter user name", "Twitter user name", "richard");
    await edit("Edit degree", "degree", "Master");
    await edit("Edit score", "score", "3.9");
    await edit("Edit date", "date", "2014-12");
    await edit("Edit role", "role", "Lead");
    expect(committed).toEqual([
      [{ op: "replace", path: "/basics/location/city", value: "Oakland" }],
      [{ op: "replace", path: "/basics/profiles/0/username", value: "richard" }],
      [{ op: "replace", path: "/education/0/studyType", value: "Master" }],
      [{ op: "replace", path: "/education/0/score", value: "3.9" }],
      [{ op: "replace", path: "/awards/0/date", value: "2014-12" }],
      [{ op: "replace", path: "/projects/0/roles/0", value: "Lead" }],
    ]);
  });

  it("a section the resume does not have is added with its first entry", async () => {
    const committed = view();
    const select = screen.getByTestId("add-section") as HTMLSelectElement;
    // The sample has every section but certificates.
    expect([...select.options].map((o) => o.textContent)).toEqual(["Choose…", "Certificates"]);
    await fireEvent.change(select, { target: { value: "certificates" } });
    const name = screen.getByRole("textbox", { name: "The first certificate's name" });
    await fireEvent.input(name, { target: { value: "CKA" } });
    await fireEvent.keyDown(name, { key: "Enter" });
    expect(committed).toEqual([[{ op: "add", path: "/certificates", value: [{ name: "CKA" }] }]]);
  });
});

describe("the resume in its own language", () => {
  function shown(meta: unknown, words?: (change: WordsChange) => void): void {
    const resume = { ...structuredClone(sample), meta } as Resume;
    const editing: Editing = { enabled: true, commit: () => {}, selected: null, select: () => {}, highlight: () => null };
    if (words) editing.words = words;
    render(ResumeView, { props: { resume }, context: new Map([[EDITING_KEY, editing]]) });
  }

  it("shows German headings and dates, as the exports write them", () => {
    shown({ language: "de" });
    expect(screen.getByTestId("section-work").querySelector("h2")?.textContent?.trim()).toMatch(/^Berufserfahrung/);
    expect(screen.getByTestId("work-0").textContent).toContain("Dez. 2013 – Dez. 2014");
    const root = screen.getByTestId("resume");
    expect([root.getAttribute("lang"), root.getAttribute("dir")]).toEqual(["de", "ltr"]);
  });

  it("lays out an Arabic resume right to left", () => {
    shown({ language: "ar" });
    const root = screen.getByTestId("resume");
    expect([root.getAttribute("lang"), root.getAttribute("dir")]).toEqual(["ar", "rtl"]);
    expect(screen.getByTestId("section-skills").querySelector("h2")?.textContent).toContain("المهارات");
  });

  it("renames a heading for this resume; an empty name restores the language's", async () => {
    const changes: WordsChange[] = [];
    shown({ headings: { skills: "Toolbox" } }, (c) => changes.push(c));
    expect(screen.getByTestId("section-skills").querySelector("h2")?.textContent).toContain("Toolbox");
    await fireEvent.click(screen.getByTestId("rename-work"));
    const input = screen.getByRole("textbox", { name: "Heading of this section" }) as HTMLInputElement;
    expect(input.value).toBe("Work");
    await fireEvent.input(input, { target: { value: "  Experience " } });
    await fireEvent.keyDown(input, { key: "Enter" });
    await fireEvent.click(screen.getByTestId("rename-skills"));
    const again = screen.getByRole("textbox", { name: "Heading of this section" });
    await fireEvent.input(again, { target: { value: "" } });
    await fireEvent.blur(again);
    await fireEvent.click(screen.getByTestId("rename-education"));
    await fireEvent.keyDown(screen.getByRole("textbox", { name: "Heading of this section" }), { key: "Escape" });
    expect(changes).toEqual([
      { kind: "heading", section: "work", heading: "Experience" },
      { kind: "heading", section: "skills", heading: null },
    ]);
  });
});
