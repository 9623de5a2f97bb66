import { describe, expect, it } from "vitest";
import { formatDate, formatRange } from "./resume";

describe("dates", () => {
  it("reads every JSON Resume date form", () => {
    expect(formatDate("2013-12-01")).toBe("Dec 2013");
    expect(formatDate("2013-12")).toBe("Dec 2013");
    expect(formatDate("2013")).toBe("2013");
    expect(formatDate("soon")).toBe("soon");
  });

  it("shows an entry without an end as ongoing", () => {
    expect(formatRange({ startDate: "2020-01" })).toBe("Jan 2020 – Present");
    expect(formatRange({ startDate: "2016-08-24", endDate: "2016-08-24" })).toBe("Aug 2016");
    expect(formatRange({})).toBe("");
  });
});
