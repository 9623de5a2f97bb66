// The resume's sections of entries (work, skills, …), each described once, in the order of the JSON Resume
// schema: where its list is, what its entries are called, and which field of an entry the view shows where
// (a title, a line under it, dates, a summary, bullets, keywords). The resume view draws every section from
// its description (components/sections/ListSection.svelte); "Add a section" and the import review name the
// sections from it.
import type { Resume } from "./resume";

/** The JSON Resume keys of the sections that are lists of entries. */
export type ListKey =
  | "work"
  | "volunteer"
  | "education"
  | "awards"
  | "certificates"
  | "publications"
  | "skills"
  | "languages"
  | "interests"
  | "references"
  | "projects";

/** An entry of section `K`: a `Work`, a `Skill`… */
type EntryOf<K extends ListKey> = NonNullable<Resume[K]>[number];

/** The names of the fields of `T` that hold a `V`. */
type FieldsHolding<T, V> = { [F in keyof T]-?: NonNullable<T[F]> extends V ? F : never }[keyof T] & string;

/** A text field of an entry, and what it is called (the Edit button's name: "Edit place"). */
export interface Labelled<Text extends string = string> {
  key: Text;
  label: string;
}

/** What the line under an entry's title shows at its end: a text field, as it is or read as a date or as a
 * grade (`Score: 3.8`); or the items of a list field, each edited on its own (a project's roles). */
export type Meta<Text extends string = string, List extends string = string> =
  | (Labelled<Text> & { as?: "date" | "score" })
  | { list: List; label: string };

/** A section of entries, its fields named by the keys of its entries' text fields (`Text`) and list
 * fields (`List`). */
export interface SectionDescription<Text extends string = string, List extends string = string> {
  /** Its JSON Resume key: where its list is (`/work`), and which heading it has (words.ts). */
  key: ListKey;
  /** Its name in English, in the "Add a section" menu and the import review. */
  name: string;
  /** What one of its entries is called ("Add job"). */
  what: string;
  /** What its first entry is called in "Add a section", when not `what`. */
  firstWhat?: string;
  /** Whether its entries have dates (`startDate`, `endDate`), shown as a range and edited in place. */
  dated?: boolean;
  /** The field of an entry's title, which an entry added by name is named in. */
  title: Text;
  /** The line under the title: one field, or several shown side by side (a degree and its field of
   * study), each edited on its own. */
  subtitle?: Text | readonly Labelled<Text>[];
  /** What the line under the title shows at its end (a place, a date, a grade, roles). */
  meta?: Meta<Text, List>;
  /** The field whose address the title links to. */
  link?: Text;
  /** The field of the entry's paragraph; of several, the first the entry has (a job's `description`
   * stands for its `summary` when it has only that). */
  summary?: Text | readonly Text[];
  /** The list field shown as bullets. */
  highlights?: List;
  /** The list field shown as keywords. */
  keywords?: List;
}

/** Section `key`, its fields checked against its entries' type. */
function section<K extends ListKey>(
  key: K,
  description: Omit<SectionDescription<FieldsHolding<EntryOf<K>, string>, FieldsHolding<EntryOf<K>, readonly string[]>>, "key">,
): SectionDescription {
  return { key, ...description };
}

/** Every section of entries, in the order of the JSON Resume schema (and of the view). */
export const SECTIONS: readonly SectionDescription[] = [
  section("work", {
    name: "Work", what: "job", dated: true, title: "position", subtitle: "name",
    meta: { key: "location", label: "place" }, link: "url", summary: ["summary", "description"], highlights: "highlights",
  }),
  section("volunteer", {
    name: "Volunteering", what: "volunteering", firstWhat: "role", dated: true, title: "position", subtitle: "organization",
    link: "url", summary: "summary", highlights: "highlights",
  }),
  section("education", {
    name: "Education", what: "school", dated: true, title: "institution",
    subtitle: [{ key: "studyType", label: "degree" }, { key: "area", label: "field of study" }],
    meta: { key: "score", label: "score", as: "score" }, link: "url", highlights: "courses",
  }),
  section("awards", {
    name: "Awards", what: "award", title: "title", subtitle: "awarder",
    meta: { key: "date", label: "date", as: "date" }, summary: "summary",
  }),
  section("certificates", {
    name: "Certificates", what: "certificate", title: "name", subtitle: "issuer",
    meta: { key: "date", label: "date", as: "date" }, link: "url",
  }),
  section("publications", {
    name: "Publications", what: "publication", title: "name", subtitle: "publisher",
    meta: { key: "releaseDate", label: "release date", as: "date" }, link: "url", summary: "summary",
  }),
  section("skills", { name: "Skills", what: "skill", title: "name", subtitle: "level", keywords: "keywords" }),
  section("languages", { name: "Languages", what: "language", title: "language", subtitle: "fluency" }),
  section("interests", { name: "Interests", what: "interest", title: "name", keywords: "keywords" }),
  section("references", { name: "References", what: "reference", title: "name", summary: "reference" }),
  section("projects", {
    name: "Projects", what: "project", dated: true, title: "name",
    subtitle: [{ key: "entity", label: "organisation" }, { key: "type", label: "kind" }],
    meta: { list: "roles", label: "role" }, link: "url", summary: "description", highlights: "highlights",
    keywords: "keywords",
  }),
];
