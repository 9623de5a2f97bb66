import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import sample from "../../../../assets/sample.resume.json";
import type { Resume } from "../../lib/resume";

const opened: string[] = [];

vi.mock("../../lib/backend", () => ({
  errorMessage: (err: unknown) => String(err),
  openLink: async (url: string) => {
    opened.push(url);
  },
}));

import ResumeView from "../ResumeView.svelte";

afterEach(() => {
  cleanup();
  opened.length = 0;
});

describe("links in the resume view", () => {
  it("open in the system browser, never in the window", async () => {
    render(ResumeView, { resume: sample as Resume });
    const link = screen.getByTestId("basics-url").querySelector("a");
    expect(link?.getAttribute("href")).toBe("http://richardhendricks.example.com");
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    link?.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await Promise.resolve();
    expect(opened).toEqual(["http://richardhendricks.example.com"]);
  });

  it("show a target that could run code as text, with no link", async () => {
    const hostile: Resume = {
      ...(sample as Resume),
      basics: { ...(sample as Resume).basics, url: "javascript:alert(document.cookie)" },
      work: [{ name: "Evil", position: "Clicker", url: " JavaScript:alert(1)" }],
      projects: [{ name: "Data", url: "data:text/html,<script>alert(1)</script>" }],
    };
    render(ResumeView, { resume: hostile });
    for (const id of ["basics-url", "work-0-title", "projects-0-title"]) {
      const element = screen.getByTestId(id);
      expect(element.querySelector("a"), id).toBeNull();
    }
    expect(screen.getByTestId("basics-url").textContent).toBe("javascript:alert(document.cookie)");
    await fireEvent.click(screen.getByTestId("basics-url"));
    expect(opened).toEqual([]);
  });

  it("show a target too long to be one as text, as the exports do", () => {
    const long = `https://example.com/${"a".repeat(1981)}`; // 2,001 bytes
    const fits = `https://example.com/${"é".repeat(990)}`; // 2,000 bytes
    render(ResumeView, { resume: { ...(sample as Resume), basics: { ...(sample as Resume).basics, url: long } } });
    expect(screen.getByTestId("basics-url").querySelector("a")).toBeNull();
    expect(screen.getByTestId("basics-url").textContent).toBe(long);
    cleanup();
    render(ResumeView, { resume: { ...(sample as Resume), basics: { ...(sample as Resume).basics, url: fits } } });
    expect(screen.getByTestId("basics-url").querySelector("a")?.getAttribute("href")).toBe(fits);
  });
});
