// The words a resume is shown in — section headings, month names, "present", its direction — in the
// resume's own language (`meta.language`), with the headings the user renamed (`meta.headings`). The table
// is the Rust one (crates/resume/src/words.rs) written out as words.json, so the view and every export
// use the same words; the rules for reading a tag mirror the Rust ones, and a test compares the two.
import { getContext, setContext } from "svelte";
import table from "./words.json";

export interface Dated {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

export interface Words {
  /** The tag the resume gives (`pt-BR`), when well-formed; else its language's (`en`). */
  tag: string;
  /** Written right to left. */
  rtl: boolean;
  /** The heading of section `id` (`work`). */
  heading(id: string): string;
  /** A JSON Resume date as the language writes it: "Dec 2013", "Dez. 2013", "2013年12月". */
  formatDate(date: string | undefined): string;
  /** A date range; a start with no end is ongoing ("– Present"). */
  formatRange(item: Dated): string;
  /** "Present" in the language. */
  present: string;
  /** What a degree's grade is called. */
  score: string;
  /** What separates these items on one line (an address, roles): the language's comma (", ", "、", "، "),
   * except in a right-to-left resume whose list reads left to right ("HTML, CSS"), as `comma_for` in words.rs. */
  commaFor(items: readonly (string | undefined)[]): string;
}

type Language = (typeof table.languages)[number];

/** The languages there are words for, for a menu: tag and the language's name for itself. */
export const LANGUAGES: { tag: string; name: string }[] = table.languages.map((l) => ({ tag: l.tag, name: l.name }));

/** A field's own direction, as the exports give it (`own_dir` in export.rs): from its first letter (`auto`: an
 * English summary in an Arabic resume reads left to right, its "!" at its end), or left to right when it has no
 * letter, so that a phone number reads "(912) 555-4321" in a right-to-left resume too. */
export function ownDir(text: string | undefined): "auto" | "ltr" {
  return text !== undefined && /\p{L}/u.test(text) ? "auto" : "ltr";
}

/** A letter of a script written right to left (as `right_to_left` in words.rs). */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/** A tag kept only if it looks like BCP 47 (as `well_formed` in words.rs). */
export function wellFormed(tag: unknown): string | null {
  if (typeof tag !== "string") return null;
  const t = tag.trim();
  const ok =
    t.length > 0 &&
    t.length <= 35 &&
    /^[A-Za-z][A-Za-z0-9-]*$/.test(t) &&
    t.split("-").every((part) => part.length >= 1 && part.length <= 8);
  return ok ? t : null;
}

function languageOf(tag: string | null): Language {
  const primary = tag?.split(/[-_]/)[0]?.toLowerCase();
  const english = table.languages[0] as Language;
  return table.languages.find((l) => l.tag === primary) ?? english;
}

/** The words of a resume, from its `meta`. */
export function wordsOf(meta: unknown): Words {
  const m = (meta !== null && typeof meta === "object" ? meta : {}) as Record<string, unknown>;
  const written = wellFormed(m.language);
  const language = languageOf(written);
  const tag = written ?? language.tag;
  const rtl = table.rightToLeft.includes(tag.split("-")[0]?.toLowerCase() ?? "");
  const renamed = (m.headings !== null && typeof m.headings === "object" ? m.headings : {}) as Record<string, unknown>;
  const headings = language.headings as Record<string, string>;

  function heading(id: string): string {
    const own = renamed[id];
    if (typeof own === "string" && table.sections.includes(id)) {
      const h = own.split(/\s+/).filter(Boolean).join(" ");
      if (h !== "") return Array.from(h).slice(0, table.maxHeadingChars).join("");
    }
    return headings[id] ?? id;
  }

  function formatDate(date: string | undefined): string {
    if (!date) return "";
    const d = date.trim();
    const match = /^(\d{4})-([^-]*)/.exec(d);
    if (!match) return d;
    const month = /^\d+$/.test(match[2] ?? "") ? Number(match[2]) : NaN;
    if (!(month >= 1 && month <= 12)) return d;
    return language.monthYear.replace("{year}", match[1] ?? "").replace("{month}", language.months[month - 1] ?? "");
  }

  function formatRange(item: Dated): string {
    const start = formatDate(item.startDate);
    const end = formatDate(item.endDate);
    if (start && end) return start === end ? start : `${start} – ${end}`;
    if (start) return `${start} – ${language.present}`;
    return end;
  }

  function commaFor(items: readonly (string | undefined)[]): string {
    const first = /\p{L}/u.exec(items.join(""))?.[0] ?? "";
    return rtl && !RIGHT_TO_LEFT.test(first) ? ", " : language.comma;
  }

  return { tag, rtl, heading, formatDate, formatRange, present: language.present, score: language.score, commaFor };
}

/** English words: what a resume with no language is shown in. */
export const english: Words = wordsOf(undefined);

const CONTEXT = Symbol("words");

/** Makes `get` the words of every part of the view below (the resume view calls it). */
export function provideWords(get: () => Words): void {
  setContext(CONTEXT, get);
}

/** The words of the resume being shown (English outside a resume view). */
export function useWords(): () => Words {
  return getContext<(() => Words) | undefined>(CONTEXT) ?? (() => english);
}
