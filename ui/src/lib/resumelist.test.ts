import { describe, expect, it, vi } from "vitest";
import type { DocumentRow } from "../bindings/DocumentRow";

vi.mock("./backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  listDocuments: async () => [],
}));

import { ResumeList } from "./resumelist.svelte";

const row = (id: number): DocumentRow => ({
  id, title: `R${id}`, name: "", updatedAt: 0, revision: 1, current: false, demo: false, variantOf: null, problem: null, kind: "resume",
});

describe("the resumes the navigation lists", () => {
  it("keep the latest answer: a read that answers late is dropped, a failure is said", async () => {
    const answers: ((rows: DocumentRow[]) => void)[] = [];
    let fail = false;
    const list = new ResumeList(() =>
      fail ? Promise.reject(new Error("The store is locked.")) : new Promise((resolve) => answers.push(resolve)),
    );
    expect(list.rows).toBeNull();
    const first = list.reload();
    const second = list.reload();
    answers[1]!([row(2)]);
    await second;
    answers[0]!([row(1)]);
    await first;
    expect(list.rows?.map((r) => r.id)).toEqual([2]);
    fail = true;
    await list.reload();
    expect(list.problem).toBe("The store is locked.");
    expect(list.rows?.map((r) => r.id)).toEqual([2]);
  });
});
