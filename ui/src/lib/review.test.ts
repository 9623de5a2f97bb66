import { describe, expect, it } from "vitest";
import { fieldsOf, setField } from "./review";

describe("the import review's fields", () => {
  const read = {
    basics: { name: "Ada Lovelace", location: { city: "London" } },
    work: [{ position: "Engineer", highlights: ["Wrote the first program"] }],
    skills: [{ keywords: ["Rust", "a/b~c"] }],
  };

  it("lists every text field by section, with its pointer and its place in words", () => {
    const groups = fieldsOf(read);
    expect(groups.map((g) => g.heading)).toEqual(["You", "Work", "Skills"]);
    expect(groups[1]!.fields).toEqual([
      { pointer: "/work/0/position", label: "1 · position", value: "Engineer" },
      { pointer: "/work/0/highlights/0", label: "1 · highlights · 1", value: "Wrote the first program" },
    ]);
    expect(groups[0]!.fields.map((f) => f.pointer)).toEqual(["/basics/name", "/basics/location/city"]);
  });

  it("sets one field and leaves the rest, and the document it was given, as they were", () => {
    const fixed = setField(read, "/work/0/position", "Analytical Engineer");
    expect(fixed).toEqual({ ...read, work: [{ position: "Analytical Engineer", highlights: ["Wrote the first program"] }] });
    expect(read.work[0]!.position).toBe("Engineer");
    expect(setField(read, "/skills/0/keywords/1", "x")).toMatchObject({ skills: [{ keywords: ["Rust", "x"] }] });
    // A pointer that leads nowhere changes nothing.
    expect(setField(read, "/nowhere/at/all", "x")).toEqual(read);
  });
});
