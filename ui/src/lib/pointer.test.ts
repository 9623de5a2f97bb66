import { describe, expect, it } from "vitest";
import { arrayIndex, parsePointer } from "./pointer";

describe("JSON Pointer", () => {
  it("unescapes ~1 and ~0 in that order", () => {
    expect(parsePointer("/a~1b/m~0n/~01")).toEqual(["a/b", "m~n", "~1"]);
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
  });

  it("refuses what is not a pointer", () => {
    expect(() => parsePointer("skills/0")).toThrow(/must start with/);
    expect(() => parsePointer("/a~2b")).toThrow(/invalid escape/);
  });

  it("reads array indexes strictly", () => {
    expect(arrayIndex("-", 3, true)).toBe(3);
    expect(() => arrayIndex("-", 3, false)).toThrow();
    expect(() => arrayIndex("01", 3, false)).toThrow(/not an array index/);
    expect(() => arrayIndex("3", 3, false)).toThrow(/out of range/);
  });
});
