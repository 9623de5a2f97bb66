import { describe, expect, it, vi } from "vitest";
import type { Finding } from "../bindings/Finding";

vi.mock("./backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  lintDocument: async () => [],
  fixFinding: async () => ({}),
  setRuleEnabled: async () => {},
  addWord: async () => {},
}));

import { WritingChecks, type ChecksSource } from "./writingchecks.svelte";

const finding = (text: string): Finding => ({ rule: "spelling", path: "/basics/summary", start: 0, end: text.length, text, message: "", fix: null });

describe("the writing checks the window keeps", () => {
  it("keep the answer for the latest revision: a check that answers late is dropped", async () => {
    const answers: ((f: Finding[]) => void)[] = [];
    const source = { lint: () => new Promise<Finding[]>((resolve) => answers.push(resolve)) } as unknown as ChecksSource;
    const checks = new WritingChecks(() => null, source);
    const first = checks.refresh(1);
    const second = checks.refresh(2);
    answers[1]!([finding("teh")]);
    await second;
    answers[0]!([finding("old")]);
    await first;
    expect(checks.findings?.map((f) => f.text)).toEqual(["teh"]);
    expect(checks.summary).toBe("One finding");
    // The same revision is not checked twice, unless asked.
    await checks.refresh(2);
    expect(answers).toHaveLength(2);
  });

  it("turn a rule off or add a word, then check again; a failure is said and the buttons come back", async () => {
    const calls: string[] = [];
    const source: ChecksSource = {
      lint: async () => (calls.push("lint"), []),
      fix: async () => Promise.reject(new Error("The resume changed.")),
      rule: async (rule, on) => void calls.push(`${rule}:${on}`),
      word: async (word) => void calls.push(`word:${word}`),
    };
    const checks = new WritingChecks(() => null, source);
    await checks.refresh(1);
    await checks.ignoreRule("bullet.passive");
    await checks.addWord("Hooli");
    expect(calls).toEqual(["lint", "bullet.passive:false", "lint", "word:Hooli", "lint"]);
    await expect(checks.fix(1, finding("teh"))).rejects.toThrow("The resume changed.");
    expect(checks.problem).toBe("The resume changed.");
    expect(checks.busy).toBe(false);
  });
});
