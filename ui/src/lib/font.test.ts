import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { windowStyles } from "./sources.fixture";

const src = join(__dirname, "..");

/** CSS's generic families (CSS Fonts 4): each names whatever the system has, so none is ever missing. */
const GENERIC = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "math",
  "emoji",
  "fangsong",
  "system-ui",
  "ui-serif",
  "ui-sans-serif",
  "ui-monospace",
  "ui-rounded",
  "inherit",
]);

/** The families of every `font-family` in the window's styles. */
function families(): { file: string; family: string }[] {
  return windowStyles(src).flatMap(({ file, css }) =>
    [...css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/font-family\s*:\s*([^;}]+)/g)].flatMap(([, value = ""]) =>
      value.split(",").map((family) => ({ file, family: family.trim() })),
    ),
  );
}

describe("the window's fonts", () => {
  // WebKitGTK resolves each family of the list through fontconfig whenever text needs a size or weight it has
  // not drawn yet; a named family the system lacks ("Inter", "Segoe UI") walks fontconfig's whole alias list
  // first. Measured in the benchmark: the three such names the list had made a turn's commit frame spend
  // 4-6 ms in fontconfig, 0.3-1.3 ms without them.
  it("name only CSS's generic families, never one the system may lack", () => {
    const all = families();
    expect(all.map((f) => f.family)).toContain("system-ui");
    expect(all.filter(({ family }) => !GENERIC.has(family))).toEqual([]);
  });
});
