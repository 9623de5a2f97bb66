import { describe, expect, it } from "vitest";
import { MOST_TOKENS, tokens, wordDiff, type Piece } from "./worddiff";

/** A diff written short: ~~removed~~, ++added++, the rest kept. */
function short(pieces: readonly Piece[]): string {
  return pieces.map((p) => (p.kind === "removed" ? `~~${p.text}~~` : p.kind === "added" ? `++${p.text}++` : p.text)).join("");
}

/** The old text (what is kept and removed) and the new one (what is kept and added). */
function sides(pieces: readonly Piece[]): [string, string] {
  const join = (kind: Piece["kind"]) => pieces.filter((p) => p.kind !== kind).map((p) => p.text).join("");
  return [join("added"), join("removed")];
}

describe("a change word by word", () => {
  it("splits text into words, runs of space and marks, which join back into the text", () => {
    expect(tokens("Led a team,  of 5.")).toEqual(["Led", " ", "a", " ", "team", ",", "  ", "of", " ", "5", "."]);
    expect(tokens("don't work full-time — ok")).toEqual(["don't", " ", "work", " ", "full-time", " ", "—", " ", "ok"]);
    expect(tokens("Zürich 東京 مرحبا")).toEqual(["Zürich", " ", "東京", " ", "مرحبا"]);
    const text = "Line one.\n\n  Line two: C++, Rust & Go!";
    expect(tokens(text).join("")).toBe(text);
    expect(tokens("")).toEqual([]);
  });

  it("strikes the words removed and marks the words added, keeping the rest", () => {
    expect(short(wordDiff("Built the backend in Python.", "Built the whole backend in Rust."))).toBe(
      "Built the ++whole ++backend in ~~Python~~++Rust++.",
    );
    expect(short(wordDiff("Engineer", "Senior Engineer"))).toBe("++Senior ++Engineer");
    expect(short(wordDiff("Senior Engineer", "Engineer"))).toBe("~~Senior ~~Engineer");
  });

  it("joins neighbouring changes into one, what goes before what comes", () => {
    expect(short(wordDiff("a b c", "x y c"))).toBe("~~a b~~++x y++ c");
    expect(short(wordDiff("one two three", "four five six"))).toBe("~~one two three~~++four five six++");
  });

  it("gives back both texts, whatever they are", () => {
    const cases: [string, string][] = [
      ["", "Something new."],
      ["Something old.", ""],
      ["same", "same"],
      ["a  b\tc\n", "a b c"],
      ["Led 5 engineers; shipped v2.", "Led 7 engineers, shipped v3 and v4."],
      ["اللغة العربية", "اللغة الإنجليزية"],
    ];
    for (const [before, after] of cases) {
      const pieces = wordDiff(before, after);
      expect(sides(pieces), `${before} → ${after}`).toEqual([before, after]);
      // No empty piece, and no two pieces of one kind side by side.
      expect(pieces.every((p) => p.text !== "")).toBe(true);
      expect(pieces.every((p, k) => k === 0 || pieces[k - 1]?.kind !== p.kind)).toBe(true);
    }
    expect(wordDiff("", "")).toEqual([]);
    expect(wordDiff("same", "same")).toEqual([{ kind: "same", text: "same" }]);
    expect(wordDiff("", "new")).toEqual([{ kind: "added", text: "new" }]);
    expect(wordDiff("old", "")).toEqual([{ kind: "removed", text: "old" }]);
  });

  it("past its bound, strikes the whole old text and marks the whole new one, at once", () => {
    const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(" ");
    const before = words(50_000, "old");
    const after = words(50_000, "new");
    const start = performance.now();
    const pieces = wordDiff(before, after);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(pieces).toEqual([
      { kind: "removed", text: before },
      { kind: "added", text: after },
    ]);
    // The words both begin and end with stay kept: only the middle is given up on.
    const framed = wordDiff(`Start. ${before} End.`, `Start. ${after} End.`);
    expect(short(framed)).toBe(`Start. ~~${before}~~++${after}++ End.`);
    // Just under the bound, with changes at both ends (nothing to trim): word by word, and soon.
    const middle = words(495, "w");
    const near = [`A ${middle} Z`, `B ${middle} Y`] as const;
    expect(tokens(near[0]).length + tokens(near[1]).length).toBeLessThanOrEqual(MOST_TOKENS);
    const at = performance.now();
    expect(short(wordDiff(...near))).toBe(`~~A~~++B++ ${middle} ~~Z~~++Y++`);
    expect(performance.now() - at).toBeLessThan(1000);
  });
});
