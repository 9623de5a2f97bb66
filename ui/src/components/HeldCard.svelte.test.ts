import { cleanup, fireEvent, render, screen, within } from "@testing-library/svelte";
import axe from "axe-core";
import { tick } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Finding } from "../bindings/Finding";
import type { HeldEdits } from "../bindings/HeldEdits";
import type { ChatMessage } from "../lib/chat";
import { valueAtPointer } from "../lib/review";
import HeldCard, { summary } from "./HeldCard.svelte";

afterEach(cleanup);

type Held = NonNullable<ChatMessage["held"]>;

const resume = {
  basics: { label: "Programmer", url: "https://example.com" },
  work: [{ name: "Hooli", position: "Backend Engineer", summary: "Built the backend in Python.", highlights: ["Shipped v1"] }],
  skills: [{ name: "Web Development", keywords: ["HTML", "CSS"] }],
};
const valueAt = (pointer: string): unknown => valueAtPointer(resume, pointer);

/** Three edits, as a model's bundle held for review would be. */
function edits(): HeldEdits {
  return {
    documentId: 1,
    base: 2,
    ops: [
      { op: "replace", path: "/basics/label", value: "Pythonista" },
      { op: "replace", path: "/work/0/summary", value: "Built the whole backend in Rust." },
      { op: "add", path: "/skills/0/keywords/-", value: "Python" },
    ],
    descriptions: [
      "Change your title to “Pythonista”",
      "Change the summary of your job at Hooli to “Built the whole backend in Rust.”",
      "Add “Python” to the keywords of your skill “Web Development”",
    ],
    proposal: false,
    why: ["aboutYou", "outside", "outside"],
  };
}

function card(held: Held, props: { running?: boolean; valueAt?: (pointer: string) => unknown } = { valueAt }) {
  const ondecide = vi.fn();
  const onannounce = vi.fn();
  render(HeldCard, { held, ondecide, onannounce, ...props });
  const rows = () => screen.getAllByRole("listitem");
  return { ondecide, onannounce, rows };
}

/** What a row shows struck and marked. */
function marks(row: HTMLElement): { removed: string[]; added: string[] } {
  return {
    removed: [...row.querySelectorAll("del")].map((e) => e.textContent ?? ""),
    added: [...row.querySelectorAll("ins")].map((e) => e.textContent ?? ""),
  };
}

/** The elements Tab stops at, in the card, in order. */
function tabStops(): HTMLElement[] {
  return [...document.body.querySelectorAll<HTMLElement>("li, button")].filter(
    (e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled,
  );
}

describe("the card of held edits", () => {
  it("names each field in words and shows its change word by word, and why it waits", () => {
    const { rows } = card({ edits: edits(), state: "open" });
    const [title, summaryRow, keyword] = rows();
    expect(title!.querySelector(".held-place")?.textContent).toBe("You › Title");
    expect(marks(title!)).toEqual({ removed: ["Programmer"], added: ["Pythonista"] });
    expect(title!.textContent).toContain("Held: it changes who the resume is about.");
    expect(summaryRow!.querySelector(".held-place")?.textContent).toBe("Work › Backend Engineer › Summary");
    expect(summaryRow!.querySelector(".held-change")?.textContent).toBe("Built the whole backend in PythonRust.");
    expect(marks(summaryRow!)).toEqual({ removed: ["Python"], added: ["whole ", "Rust"] });
    expect(summaryRow!.textContent).toContain("Held: not part of what you asked.");
    // An add into a list: only what comes.
    expect(keyword!.querySelector(".held-place")?.textContent).toBe("Skills › Web Development › New keyword");
    expect(marks(keyword!)).toEqual({ removed: [], added: ["Python"] });
    // In the UI's face: nothing in the card is set in a monospace font.
    expect(document.body.querySelector("code, pre, kbd, samp, tt")).toBeNull();
  });

  it("without the resume on screen, shows only the new text", () => {
    const { rows } = card({ edits: edits(), state: "open" }, {});
    expect(marks(rows()[1]!)).toEqual({ removed: [], added: ["Built the whole backend in Rust."] });
    expect(rows()[1]!.querySelector(".held-place")?.textContent).toBe("Work › Job 1 › Summary");
  });

  it("shows a removed field struck, an entry shortly, and a move in words", () => {
    const held: Held = {
      edits: {
        ...edits(),
        ops: [
          { op: "remove", path: "/basics/url" },
          { op: "add", path: "/work/-", value: { position: "CTO", name: "Pied Piper", startDate: "2020-01", highlights: [] } },
          { op: "move", from: "/work/0", path: "/work/1" },
          { op: "replace", path: "/skills/0/keywords", value: ["HTML", "CSS", "Python"] },
        ],
        descriptions: ["Remove your web site", "Add your job at Pied Piper", "Move your job at Hooli to place 2", "Change the keywords"],
        why: [],
        proposal: true,
      },
      state: "open",
    };
    const { rows } = card(held);
    const [removed, added, moved, keywords] = rows();
    expect(marks(removed!)).toEqual({ removed: ["https://example.com"], added: [] });
    expect(added!.querySelector(".held-place")?.textContent).toBe("Work › New job");
    expect(marks(added!)).toEqual({ removed: [], added: ["Title: CTO · Name: Pied Piper · Start date: 2020-01 · and 1 more field"] });
    expect(moved!.querySelector(".held-change")?.textContent).toBe("Move your job at Hooli to place 2");
    expect(marks(moved!)).toEqual({ removed: [], added: [] });
    expect(marks(keywords!)).toEqual({ removed: [], added: [", Python"] });
    // A proposal's edits say no reason.
    expect(document.body.querySelector(".held-why")).toBeNull();
    expect(summary([{ a: 1 }, { b: 2 }])).toBe("2 entries");
    expect(summary({})).toBe("Empty");
  });

  it("past the diff's bound, strikes the whole old value and marks the whole new one", () => {
    const long = (word: string) => Array.from({ length: 20_000 }, (_, i) => `${word}${i}`).join(" ");
    const huge = { ...resume, basics: { ...resume.basics, summary: long("old") } };
    const held: Held = {
      edits: { ...edits(), ops: [{ op: "replace", path: "/basics/summary", value: long("new") }], descriptions: ["Change your summary"], why: [] },
      state: "open",
    };
    const start = performance.now();
    const { rows } = card(held, { valueAt: (pointer) => valueAtPointer(huge, pointer) });
    expect(performance.now() - start).toBeLessThan(2000);
    expect(marks(rows()[0]!)).toEqual({ removed: [long("old")], added: [long("new")] });
  });

  it("is read as “Change 2 of 3: the field, the edit”, with Accept and Reject beside it", () => {
    card({ edits: edits(), state: "open" });
    const row = screen.getByRole("listitem", { name: /^Change 2 of 3: Work, Backend Engineer, Summary\. Change the summary/ });
    expect(row.getAttribute("aria-keyshortcuts")).toBe("A R");
    expect(within(row).getAllByRole("button").map((b) => b.textContent)).toEqual(["Accept", "Reject"]);
    expect(screen.getByRole("list", { name: "Changes to review" })).toBeTruthy();
    // The description is kept for the window test ("the held edit is described in words").
    expect(row.textContent).toContain("Change the summary of your job at Hooli");
  });

  it("is one stop of the Tab key, walked with the arrows; Tab goes on to Accept all and Reject all", async () => {
    const { rows } = card({ edits: edits(), state: "open" });
    const [first, second, third] = rows();
    const stops = () => tabStops().map((e) => e.dataset.testid ?? e.textContent);
    expect(stops()).toEqual(["held-edit-0", "held-accept-0", "held-reject-0", "held-apply", "held-discard"]);
    first!.focus();
    await fireEvent.keyDown(first!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(second);
    expect(stops()).toEqual(["held-edit-1", "held-accept-1", "held-reject-1", "held-apply", "held-discard"]);
    await fireEvent.keyDown(second!, { key: "End" });
    expect(document.activeElement).toBe(third);
    await fireEvent.keyDown(third!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(third);
    await fireEvent.keyDown(third!, { key: "Home" });
    expect(document.activeElement).toBe(first);
    await fireEvent.keyDown(first!, { key: "ArrowUp" });
    expect(document.activeElement).toBe(first);
    // A button clicked (or reached) makes its row the Tab stop.
    screen.getByTestId("held-reject-2").focus();
    await tick();
    expect(stops()[0]).toBe("held-edit-2");
    // From a button, the arrows go on to the next row.
    await fireEvent.keyDown(screen.getByTestId("held-reject-2"), { key: "ArrowUp" });
    expect(document.activeElement).toBe(second);
  });

  it("accepts with A and rejects with R the edit in focus; the buttons do the same, and the all-buttons all", async () => {
    const { ondecide, rows } = card({ edits: edits(), state: "open" });
    const second = rows()[1]!;
    second.focus();
    await fireEvent.keyDown(second, { key: "a" });
    expect(ondecide).toHaveBeenLastCalledWith(true, 1);
    await fireEvent.keyDown(second, { key: "R" });
    expect(ondecide).toHaveBeenLastCalledWith(false, 1);
    // Not with a modifier (Ctrl+A selects), nor another key.
    await fireEvent.keyDown(second, { key: "a", ctrlKey: true });
    await fireEvent.keyDown(second, { key: "x" });
    expect(ondecide).toHaveBeenCalledTimes(2);
    await fireEvent.click(screen.getByTestId("held-accept-2"));
    expect(ondecide).toHaveBeenLastCalledWith(true, 2);
    await fireEvent.click(screen.getByTestId("held-reject-0"));
    expect(ondecide).toHaveBeenLastCalledWith(false, 0);
    await fireEvent.click(screen.getByRole("button", { name: "Accept all" }));
    expect(ondecide).toHaveBeenLastCalledWith(true);
    await fireEvent.click(screen.getByRole("button", { name: "Reject all" }));
    expect(ondecide).toHaveBeenLastCalledWith(false);
  });

  it("one edit: its own Accept and Reject decide the card, and no all-buttons", async () => {
    const one: HeldEdits = { ...edits(), ops: edits().ops.slice(0, 1), descriptions: edits().descriptions.slice(0, 1), why: ["newLink"] };
    const { ondecide, rows } = card({ edits: one, state: "open" });
    expect(screen.queryByText("Accept all")).toBeNull();
    expect(within(rows()[0]!).getByTestId("held-apply").textContent).toBe("Accept");
    rows()[0]!.focus();
    await fireEvent.keyDown(rows()[0]!, { key: "a" });
    expect(ondecide).toHaveBeenLastCalledWith(true);
    await fireEvent.click(screen.getByTestId("held-discard"));
    expect(ondecide).toHaveBeenLastCalledWith(false);
  });

  it("while a turn runs, accepts nothing (and says why), and can still reject", async () => {
    const { ondecide, onannounce, rows } = card({ edits: edits(), state: "open" }, { valueAt, running: true });
    expect((screen.getByTestId("held-apply") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId("held-accept-0") as HTMLButtonElement).disabled).toBe(true);
    rows()[0]!.focus();
    await fireEvent.keyDown(rows()[0]!, { key: "a" });
    expect(ondecide).not.toHaveBeenCalled();
    expect(onannounce).toHaveBeenLastCalledWith("Wait for the model to finish, then accept.");
    await fireEvent.keyDown(rows()[0]!, { key: "r" });
    expect(ondecide).toHaveBeenLastCalledWith(false, 0);
  });

  it("says what became of an edit decided, and keeps the focus on the next one, then on the outcome", async () => {
    // The app's messages are a deep state proxy, and its decideHeld changes the card as it goes.
    const held: Held = $state({ edits: edits(), state: "open" });
    const ondecide = vi.fn((apply: boolean, op?: number) => {
      held.state = "applying";
      queueMicrotask(() => {
        if (op === undefined || held.edits.ops.length === 1) {
          held.state = apply ? "applied" : "discarded";
          return;
        }
        const keep = <T,>(list: T[]) => list.filter((_, j) => j !== op);
        held.edits = { ...held.edits, ops: keep(held.edits.ops), descriptions: keep(held.edits.descriptions), why: keep(held.edits.why) };
        held.state = "open";
      });
    });
    const onannounce = vi.fn();
    render(HeldCard, { held, valueAt, ondecide, onannounce });
    const row = (j: number) => screen.getByTestId(`held-edit-${j}`);
    row(1).focus();
    await fireEvent.keyDown(row(1), { key: "a" });
    await vi.waitFor(() => expect(onannounce).toHaveBeenLastCalledWith("Accepted: Summary. 2 changes left."));
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    await vi.waitFor(() => expect(document.activeElement).toBe(row(1)));
    expect(row(1).textContent).toContain("New keyword");
    // The last row decided: the focus goes to the one before it.
    await fireEvent.click(screen.getByTestId("held-reject-1"));
    await vi.waitFor(() => expect(onannounce).toHaveBeenLastCalledWith("Rejected: New keyword. One change left."));
    await vi.waitFor(() => expect(document.activeElement).toBe(row(0)));
    await fireEvent.keyDown(row(0), { key: "r" });
    await vi.waitFor(() => expect(onannounce).toHaveBeenLastCalledWith("Rejected: Title."));
    const outcome = await screen.findByText("Rejected.");
    await vi.waitFor(() => expect(document.activeElement).toBe(outcome));
    // Decided, the card lists its edits in words and offers nothing.
    expect(screen.queryAllByRole("button")).toHaveLength(0);
  });

  it("Accept all says how many were accepted", async () => {
    const held: Held = $state({ edits: edits(), state: "open" });
    const onannounce = vi.fn();
    render(HeldCard, { held, valueAt, onannounce, ondecide: () => (held.state = "applied") });
    await fireEvent.click(screen.getByTestId("held-apply"));
    await vi.waitFor(() => expect(onannounce).toHaveBeenLastCalledWith("Accepted all 3 changes."));
    expect(document.body.textContent).toContain("Accepted.");
  });

  it("shows what the writing checks find in an edit before it is accepted, and says it with the edit's name", () => {
    const found: Finding = {
      rule: "spelling",
      path: "/work/0/summary",
      start: 22,
      end: 26,
      text: "Rsut",
      message: "“Rsut” is not in the English dictionary.",
      fix: "Rust",
    };
    const held: Held = { edits: edits(), state: "open", findings: [[], [found], []] };
    held.edits.ops[1] = { op: "replace", path: "/work/0/summary", value: "Built the whole backend in Rsut." };
    card(held);
    const row = screen.getByRole("listitem", { name: /^Change 2 of 3: .*The writing checks find one thing\. “Rsut”: “Rsut” is not in the English dictionary\. Suggested: “Rust”\.$/ });
    const list = within(row).getByTestId("held-findings-1");
    expect(list.textContent?.replace(/\s+/g, " ").trim()).toBe("“Rsut” “Rsut” is not in the English dictionary. Suggested: “Rust”.");
    expect(list.querySelector("li")?.dataset.rule).toBe("spelling");
    // A suggestion the message already names is not said twice.
    held.findings = [[], [{ ...found, message: "Did you mean “Rust”?" }], []];
    cleanup();
    card(held);
    expect(screen.getByTestId("held-findings-1").textContent?.replace(/\s+/g, " ").trim()).toBe("“Rsut” Did you mean “Rust”?");
    // The edits with nothing found show no list.
    expect(screen.queryByTestId("held-findings-0")).toBeNull();
    expect(screen.queryByTestId("held-findings-2")).toBeNull();
  });

  it("passes the accessibility rules that need no layout", async () => {
    const found: Finding = { rule: "bullet.weak-opener", path: "/basics/label", start: 0, end: 4, text: "Pyth", message: "A weak opener.", fix: null };
    const { container } = render(HeldCard, { held: { edits: edits(), state: "open", error: "The resume changed since.", findings: [[found], [], []] }, valueAt, ondecide: () => {} });
    const result = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`)).toEqual([]);
  });
});
