import { describe, expect, it } from "vitest";
import type { DocumentRow } from "../bindings/DocumentRow";
import { resumeItems, resumesPlace, type PlaceItem } from "./places";

function row(id: number, title: string, extra: Partial<DocumentRow> = {}): DocumentRow {
  return { id, title, name: "", updatedAt: 0, revision: 1, current: false, demo: false, variantOf: null, problem: null, kind: "resume", ...extra };
}

/** Each item as "label" with its children nested, for comparing shapes. */
const shape = (items: PlaceItem[]): unknown[] =>
  items.map((i) => (i.children.length ? { [i.label]: shape(i.children) } : i.label));

describe("the resumes place", () => {
  it("nests each variant under the resume it was made from, in the order the store lists them", () => {
    const items = resumeItems([
      row(3, "Ada — Analyst — for Hooli", { variantOf: "Ada — Analyst", current: true }),
      row(1, "Ada — Analyst"),
      row(2, "Grace", { demo: true }),
      row(4, "Ada — Analyst — for Pied Piper", { variantOf: "Ada — Analyst" }),
      row(5, "Hooli, again", { variantOf: "Ada — Analyst — for Hooli" }),
    ]);
    expect(shape(items)).toEqual([{ "Ada — Analyst": [{ "for Hooli": ["Hooli, again"] }, "for Pied Piper"] }, "Grace"]);
    const hooli = items[0]!.children[0]!;
    expect(hooli).toMatchObject({ id: 3, title: "Ada — Analyst — for Hooli", current: true, note: null });
    expect(items[1]).toMatchObject({ note: "demo copy", current: false });
  });

  it("keeps at the top a variant whose original is gone, or that would go round in a circle", () => {
    const items = resumeItems([
      row(1, "Left", { variantOf: "Deleted long ago" }),
      row(2, "A", { variantOf: "B" }),
      row(3, "B", { variantOf: "A" }),
      row(4, "Self", { variantOf: "Self" }),
    ]);
    expect(shape(items).sort()).toEqual(["A", "B", "Left", "Self"]);
  });

  it("says why an item cannot be opened, and is read (null) before it holds anything", () => {
    const [broken] = resumeItems([row(1, "Broken", { problem: "The file is damaged." })]);
    expect(broken?.problem).toBe("The file is damaged.");
    expect(resumesPlace(null)).toMatchObject({ id: "resumes", label: "Resumes", items: null });
    expect(resumesPlace([]).items).toEqual([]);
  });
});
