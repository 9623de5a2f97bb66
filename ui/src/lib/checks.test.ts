import { describe, expect, it } from "vitest";
import type { Finding } from "../bindings/Finding";
import { bySection, findingKey, rangeIn, sectionOf } from "./checks";

const finding = (path: string, start: number, end: number, text: string, rule = "spelling"): Finding => ({
  rule, path, start, end, text, message: "Check the spelling.", fix: null,
});

describe("the writing checks' findings in the window", () => {
  it("are grouped by section in the view's order, what is outside any section last", () => {
    const groups = bySection([
      finding("/skills/0/name", 0, 3, "Pyton"),
      finding("/basics/summary", 4, 8, "teh"),
      finding("/work/1/highlights/0", 0, 6, "Helped", "bullet.weak-opener"),
      finding("/meta/x", 0, 1, "x"),
      finding("/work/0/summary", 0, 2, "Ab"),
    ]);
    expect(groups.map((g) => g.section)).toEqual(["basics", "work", "skills", "other"]);
    expect(groups[1]!.findings.map((f) => f.path)).toEqual(["/work/1/highlights/0", "/work/0/summary"]);
    expect(sectionOf("/work/1/highlights/0")).toBe("work");
  });

  it("are told apart by rule, place and words (ignore once hides one, not its twin elsewhere)", () => {
    expect(findingKey(finding("/a", 0, 3, "teh"))).not.toBe(findingKey(finding("/a", 5, 8, "teh")));
    expect(findingKey(finding("/a", 0, 3, "teh"))).toBe(findingKey(finding("/a", 0, 3, "teh")));
  });

  it("find their words in the field as drawn, across its text nodes, counting characters as the engine does", () => {
    const field = document.createElement("span");
    field.innerHTML = "Built 🚀 <b>fast</b> servres";
    document.body.append(field);
    // "Built 🚀 fast servres": the rocket is one character to the engine, two UTF-16 units to the DOM.
    const range = rangeIn(field, finding("/basics/summary", 13, 20, "servres"));
    expect(range?.toString()).toBe("servres");
    expect(rangeIn(field, finding("/basics/summary", 8, 12, "fast"))?.toString()).toBe("fast");
    // Words that are not where the finding says are left alone.
    expect(rangeIn(field, finding("/basics/summary", 0, 4, "fast"))).toBeNull();
  });
});
