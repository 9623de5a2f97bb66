import { describe, expect, it } from "vitest";
import { fieldName, fieldsOf, placeOf, setField, valueAtPointer } from "./review";

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

describe("a place in the resume, in words", () => {
  const resume: Record<string, unknown> = {
    basics: { label: "Programmer", profiles: [{ network: "GitHub", url: "https://github.com/ada" }, {}] },
    work: [{ name: "Hooli", position: "Backend Engineer" }, { name: "Pied Piper" }, {}],
    skills: [{ name: "Web Development", keywords: ["HTML"] }],
  };
  const valueAt = (pointer: string): unknown => valueAtPointer(resume, pointer);

  it("reads the value at a pointer, and nothing where there is none", () => {
    expect(valueAt("/work/0/position")).toBe("Backend Engineer");
    expect(valueAt("/basics/profiles/0")).toEqual({ network: "GitHub", url: "https://github.com/ada" });
    expect(valueAt("")).toBe(resume);
    for (const nowhere of ["/work/9", "/work/-", "/work/01", "/work/0/position/x", "/basics/toString", "x"]) {
      expect(valueAt(nowhere), nowhere).toBeUndefined();
    }
    expect(valueAtPointer(null, "/a")).toBeUndefined();
  });

  it("names a field from its section down, an entry by its title", () => {
    const cases: [string, string[]][] = [
      ["/work/0/summary", ["Work", "Backend Engineer", "Summary"]],
      ["/work/0/position", ["Work", "Backend Engineer", "Title"]],
      ["/work/1/startDate", ["Work", "Pied Piper", "Start date"]],
      ["/work/2/name", ["Work", "Job 3", "Employer"]],
      ["/work/0/highlights/2", ["Work", "Backend Engineer", "Highlight 3"]],
      ["/work/-", ["Work", "New job"]],
      ["/work/1", ["Work", "Pied Piper"]],
      ["/skills/0/keywords/-", ["Skills", "Web Development", "New keyword"]],
      ["/education/0/studyType", ["Education", "School 1", "Degree"]],
      ["/basics/label", ["You", "Title"]],
      ["/basics/location/countryCode", ["You", "Address", "Country code"]],
      ["/basics/profiles/0/url", ["You", "Profiles", "GitHub", "Link"]],
      ["/basics/profiles/1", ["You", "Profiles", "Profile 2"]],
      ["/meta/language", ["About the file", "Language"]],
      ["", ["The whole resume"]],
      ["not a pointer", ["not a pointer"]],
    ];
    for (const [pointer, words] of cases) expect(placeOf(pointer, valueAt), pointer).toEqual(words);
    expect([fieldName("position"), fieldName("url"), fieldName("countryCode")]).toEqual(["Title", "Link", "Country code"]);
    // Without the resume, an entry is named by its place.
    expect(placeOf("/work/0/summary")).toEqual(["Work", "Job 1", "Summary"]);
  });
});
