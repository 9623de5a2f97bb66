import { cleanup, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appStylesheet } from "../lib/sources.fixture";
import sample from "../../../assets/sample.resume.json";
import { EDITING_KEY, type Editing } from "../lib/editing";
import type { Resume } from "../lib/resume";

vi.mock("../lib/backend", () => ({ openLink: async () => {}, errorMessage: String }));

import ResumeView from "./ResumeView.svelte";

// What a streamed word makes WebKit repaint, from the app's own stylesheet (jsdom cascades it; it paints
// nothing). Measured in the benchmark's window: a word appended to the summary repainted 1.3 MB of pixels
// (every line of the summary, and everything from the toolbar down to it), 60 KB once the summary was a
// block down to its text and the toolbar was laid out on its own.
describe("a word streamed into a summary repaints its line", () => {
  const style = appStylesheet();
  afterEach(() => {
    cleanup();
    style.remove();
  });

  function view(): void {
    document.head.append(style);
    const editing: Editing = { enabled: true, commit: () => {}, selected: null, select: () => {}, highlight: () => null,
      busy: () => {} };
    render(ResumeView, { props: { resume: structuredClone(sample) as Resume }, context: new Map([[EDITING_KEY, editing]]) });
  }

  it("a summary's text sits in blocks only, up to its paragraph; its Edit button takes no line", () => {
    view();
    for (const testid of ["basics-summary", "work-0-summary"]) {
      const paragraph = screen.getByTestId(testid).closest("p") as HTMLElement;
      // The text node's parent and every element between it and the paragraph.
      const text = [...paragraph.querySelectorAll("*")].find((e) =>
        [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim().length > 20),
      ) as HTMLElement;
      expect(text, testid).toBeTruthy();
      for (let e: HTMLElement | null = text; e !== null && e !== paragraph; e = e.parentElement) {
        expect(getComputedStyle(e).display, `${testid}: ${e.className}`).toBe("block");
      }
      const edit = paragraph.querySelector(".edit") as HTMLElement;
      expect(getComputedStyle(edit).position, testid).toBe("absolute");
    }
  });

  it("a one-line field stays inline, beside its Edit button", () => {
    view();
    const name = screen.getByTestId("basics-name").closest(".field") as HTMLElement;
    expect(getComputedStyle(name).display).toBe("inline");
  });

  it("the toolbar is laid out on its own", () => {
    document.head.append(style);
    const toolbar = document.createElement("div");
    toolbar.className = "toolbar";
    document.body.replaceChildren(toolbar);
    expect(getComputedStyle(toolbar).getPropertyValue("contain")).toBe("layout");
  });
});
