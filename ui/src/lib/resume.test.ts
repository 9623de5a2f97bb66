import { describe, expect, it } from "vitest";
import { formatDate, formatRange } from "./resume";

describe("dates", () => {
  it("reads every JSON Resume date form", () => {
    const shown = ["2013-12-01", "2013-12", "2013", "soon"].map(formatDate);
    expect(shown).toEqual(["Dec 2013", "Dec 2013", "2013", "soon"]);
  });

  it("shows an entry without an end as ongoing", () => {
    expect(formatRange({ startDate: "2020-01" })).toBe("Jan 2020 – Present");
    expect(formatRange({ startDate: "2016-08-24", endDate: "2016-08-24" })).toBe("Aug 2016");
    expect(formatRange({})).toBe("");
  });
});
