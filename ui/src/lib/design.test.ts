import { describe, expect, it } from "vitest";
import { designOf, withOption } from "./design";

describe("a resume's design", () => {
  it("is read from /meta/design, or is none", () => {
    expect(designOf({ meta: { design: { template: "modern", size: 10 } } })).toEqual({ template: "modern", size: 10 });
    expect(designOf({ basics: {} })).toEqual({});
    expect(designOf({ meta: { design: [1] } })).toEqual({});
    expect(designOf(null)).toEqual({});
  });

  it("changes one option at a time, or gives it back to the design", () => {
    const design = { template: "modern" as const, accent: "#003366" };
    expect(withOption(design, "size", 10)).toEqual({ template: "modern", accent: "#003366", size: 10 });
    expect(withOption(design, "accent", undefined)).toEqual({ template: "modern" });
    expect(design).toEqual({ template: "modern", accent: "#003366" });
  });
});
