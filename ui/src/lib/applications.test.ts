import { describe, expect, it } from "vitest";
import type { Application } from "../bindings/Application";
import type { Stage } from "../bindings/Stage";
import { byStage, followUp, localToday, responses, stageBeside } from "./applications";

function application(id: number, stage: Stage, timeline: Stage[], extra: Partial<Application> = {}): Application {
  return {
    id, company: `C${id}`, role: "Engineer", posting: "", source: "", url: "", stage, contacts: "", notes: "", salary: "",
    followUp: null, tags: [], resume: null, letter: null, createdAt: 0, updatedAt: id,
    timeline: timeline.map((s) => ({ stage: s, date: "2026-11-01" })), ...extra,
  };
}

describe("applications on the board", () => {
  it("are grouped by stage in the board's order, the most recently changed first, every stage present", () => {
    const board = byStage([application(1, "applied", ["applied"]), application(2, "applied", ["applied"]), application(3, "offer", ["applied", "offer"])]);
    expect([...board.keys()]).toEqual(["saved", "applied", "interviewing", "offer", "rejected", "withdrawn"]);
    expect(board.get("applied")!.map((a) => a.id)).toEqual([2, 1]);
    expect(board.get("saved")).toEqual([]);
  });

  it("move one stage at a time with the keys, and no further than either end", () => {
    expect(stageBeside("saved", 1)).toBe("applied");
    expect(stageBeside("saved", -1)).toBeNull();
    expect(stageBeside("withdrawn", 1)).toBeNull();
  });

  it("have a follow-up due on or after its day while open, none once closed", () => {
    const open = application(1, "applied", ["applied"], { followUp: "2026-11-28" });
    expect(followUp(open, "2026-11-28")).toBe("due");
    expect(followUp(open, "2026-11-27")).toBe("upcoming");
    expect(followUp({ ...open, stage: "rejected" }, "2026-12-01")).toBeNull();
    expect(followUp(application(2, "applied", ["applied"]), "2026-12-01")).toBeNull();
  });

  it("count as answered once they reached interviews, an offer or a no, of those sent", () => {
    const all = [
      application(1, "saved", ["saved"]),
      application(2, "applied", ["applied"]),
      application(3, "rejected", ["applied", "rejected"]),
      application(4, "withdrawn", ["applied", "interviewing", "withdrawn"]),
    ];
    expect(responses(all)).toEqual({ sent: 3, answered: 2, rate: 2 / 3 });
    expect(responses([application(1, "saved", ["saved"])]).rate).toBeNull();
  });

  it("date today in the user's own time zone", () => {
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe("2026-01-05");
  });
});
