import { describe, expect, it } from "vitest";
import { LANGUAGES, english, ownDir, wellFormed, wordsOf } from "./words";

// The same cases as crates/resume/tests/words.rs: the view must show what the exports write.
describe("the resume's words", () => {
  it("has the eight languages, English first", () => {
    expect(LANGUAGES.map((l) => l.tag)).toEqual(["en", "de", "fr", "es", "pt", "ja", "zh", "ar"]);
  });

  it.each([
    ["en", "Dec 2013", "Present", "Work"],
    ["de", "Dez. 2013", "heute", "Berufserfahrung"],
    ["fr", "déc. 2013", "aujourd’hui", "Expérience professionnelle"],
    ["es", "dic. 2013", "actualidad", "Experiencia laboral"],
    ["pt", "dez. 2013", "atual", "Experiência profissional"],
    ["ja", "2013年12月", "現在", "職歴"],
    ["zh", "2013年12月", "至今", "工作经历"],
    ["ar", "ديسمبر 2013", "حتى الآن", "الخبرة العملية"],
  ])("writes dates and headings in %s", (tag, dec, present, work) => {
    const w = wordsOf({ language: tag });
    expect(w.formatDate("2013-12-01")).toBe(dec);
    expect(w.formatDate("2013")).toBe("2013");
    expect(w.formatDate("soon")).toBe("soon");
    expect(w.formatDate("2013-13")).toBe("2013-13");
    expect(w.formatDate("2013-+1")).toBe("2013-+1");
    expect(w.formatRange({ startDate: "2013-12-01" })).toBe(`${dec} – ${present}`);
    expect(w.formatRange({ startDate: "2013-12", endDate: "2013-12-31" })).toBe(dec);
    expect(w.formatRange({})).toBe("");
    expect(w.heading("work")).toBe(work);
  });

  it("reads a tag by its primary subtag and anything else as English", () => {
    const cases: [unknown, string, string][] = [
      ["DE-at", "DE-at", "Berufserfahrung"],
      ["pt-BR", "pt-BR", "Experiência profissional"],
      ["he", "he", "Work"],
      ['"><script>alert(1)</script>', "en", "Work"],
      ["a-verylongsubtag", "en", "Work"],
      [42, "en", "Work"],
      [undefined, "en", "Work"],
    ];
    for (const [tag, kept, work] of cases) {
      const w = wordsOf({ language: tag });
      expect([w.tag, w.heading("work")]).toEqual([kept, work]);
    }
    expect(wordsOf({ language: "ar" }).rtl).toBe(true);
    expect(wordsOf({ language: "he-IL" }).rtl).toBe(true);
    expect(wordsOf({ language: "ja" }).rtl).toBe(false);
    expect(wordsOf(null).rtl).toBe(false);
    expect(wellFormed(" de ")).toBe("de");
  });

  it("uses the headings the user renamed, as text, cut at the limit", () => {
    const w = wordsOf({
      language: "fr",
      headings: { work: "  Experience\n at   scale ", education: "", interests: 7, projects: "x".repeat(120) },
    });
    expect(w.heading("work")).toBe("Experience at scale");
    expect(w.heading("education")).toBe("Formation");
    expect(w.heading("interests")).toBe("Centres d’intérêt");
    expect(w.heading("projects")).toHaveLength(80);
    expect(w.heading("unknown")).toBe("unknown");
    expect(english.heading("skills")).toBe("Skills");
  });
});

describe("a field's own direction", () => {
  it("is its first letter's, or left to right without a letter (as own_dir in export.rs)", () => {
    expect(ownDir("Richard hails from Tulsa.")).toBe("auto");
    expect(ownDir("قاد فريقًا من خمسة مهندسين")).toBe("auto");
    expect(ownDir("(912) 555-4321")).toBe("ltr");
    expect(ownDir("")).toBe("ltr");
    expect(ownDir(undefined)).toBe("ltr");
  });
});
