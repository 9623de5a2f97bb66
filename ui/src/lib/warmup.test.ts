import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./sources.fixture";
import { WARM_CHARACTERS, WARM_STYLES, warmFonts } from "./warmup";

const root = join(__dirname, "..", "..", "..");

/** The source files whose strings reach the chat or the view: the UI's, and the Rust that words messages. */
const sources = (dir: string): string[] => sourceFiles(dir, /(?<!\.test)\.(svelte|ts|rs)$/, ["bindings", "tests"]);

/** Punctuation, symbols and arrows beyond ASCII (letters of other scripts are the resume's, not the app's). */
const TYPOGRAPHIC = /[\u00a0-\u00bf\u00d7\u00f7\u2010-\u205e\u2190-\u21ff\u2700-\u27bf]/gu;

describe("the characters drawn once at start", () => {
  it("are drawn at every text size, hidden from assistive technology, and removed after a frame is painted", () => {
    const frames: (() => void)[] = [];
    warmFonts(document, (run) => frames.push(run));
    const box = document.querySelector(".font-warmup");
    expect(box?.getAttribute("aria-hidden")).toBe("true");
    // Each line a list item of a list, so that its marker (a font of its own) is laid out too.
    expect(box?.tagName).toBe("UL");
    const lines = [...(box?.children ?? [])] as HTMLElement[];
    expect(lines.every((l) => l.tagName === "LI")).toBe(true);
    expect(lines.map((l) => [parseInt(l.style.fontSize, 10), l.style.fontWeight === "bold"])).toEqual(WARM_STYLES);
    expect(lines.every((l) => l.textContent === WARM_CHARACTERS)).toBe(true);
    // The frame that paints it, then the next: gone.
    frames.shift()?.();
    expect(document.querySelector(".font-warmup")).not.toBeNull();
    frames.shift()?.();
    expect(document.querySelector(".font-warmup")).toBeNull();
  });

  it("include every typographic character the app's own words use", () => {
    const dirs = ["ui/src", "src-tauri", "crates/agent/src", "crates/patch/src", "crates/store/src"];
    const missing = new Map<string, string>();
    for (const path of dirs.flatMap((d) => sources(join(root, d)))) {
      // (A Rust file's tests, from `#[cfg(test)]` on, are not the app's words.)
      const text = readFileSync(path, "utf8").split("#[cfg(test)]")[0] ?? "";
      for (const [c] of text.matchAll(TYPOGRAPHIC)) {
        if (!WARM_CHARACTERS.includes(c) && !missing.has(c)) missing.set(c, path.slice(root.length + 1));
      }
    }
    expect(Object.fromEntries(missing)).toEqual({});
  });
});
