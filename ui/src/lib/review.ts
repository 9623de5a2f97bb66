// The import review's fields: a resume read from a file, as the text fields a person can check and fix,
// grouped by section, each known by its JSON Pointer.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { parsePointer } from "./pointer";
import { SECTIONS } from "./sections";

/** The most of a file's lines the import review draws; the rest are counted (a file may yield thousands). */
export const MAX_SHOWN_LINES = 500;

/** One text field of the resume. */
export interface Field {
  pointer: string;
  /** Where it is, in words: `work 1 · position`. */
  label: string;
  value: string;
}

/** A section's fields. */
export interface FieldGroup {
  id: string;
  heading: string;
  fields: Field[];
}

/** The name of each part of the resume, in English (a section of entries: lib/sections.ts). */
const HEADINGS: Record<string, string> = {
  basics: "You",
  ...Object.fromEntries(SECTIONS.map((section) => [section.key, section.name])),
  meta: "About the file",
};

/** A JSON Pointer's token, escaped (RFC 6901). */
function token(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function label(path: string[]): string {
  return path.map((p) => (/^\d+$/.test(p) ? String(Number(p) + 1) : p)).join(" · ");
}

function collect(value: JsonValue | undefined, path: string[], out: Field[]): void {
  if (typeof value === "string" || typeof value === "number") {
    out.push({ pointer: "/" + path.map(token).join("/"), label: label(path.slice(1)), value: String(value) });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => collect(v, [...path, String(i)], out));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) collect(v, [...path, k], out);
  }
}

/** The resume's text fields, by section, in the resume's order. */
export function fieldsOf(document: JsonValue): FieldGroup[] {
  if (!document || typeof document !== "object" || Array.isArray(document)) return [];
  return Object.entries(document).map(([id, value]) => {
    const fields: Field[] = [];
    collect(value, [id], fields);
    return { id, heading: HEADINGS[id] ?? id, fields };
  });
}

/** `document` with the text at `pointer` (one [`fieldsOf`] gave) set to `value`; the rest is kept as it was. */
export function setField(document: JsonValue, pointer: string, value: string): JsonValue {
  // A copy through JSON: the document may be a Svelte state proxy, which structuredClone refuses.
  const copy = JSON.parse(JSON.stringify(document)) as JsonValue;
  const keys = pointer
    .split("/")
    .slice(1)
    .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
  let at: JsonValue = copy;
  for (const key of keys.slice(0, -1)) {
    if (!at || typeof at !== "object") return document;
    at = (Array.isArray(at) ? at[Number(key)] : at[key]) as JsonValue;
  }
  const last = keys.at(-1);
  if (last === undefined || !at || typeof at !== "object") return document;
  if (Array.isArray(at)) at[Number(last)] = value;
  else at[last] = value;
  return copy;
}

/** What the fields of "You" are called, where their key does not say it. */
const BASICS_FIELDS: Record<string, string> = {
  label: "Title",
  email: "E-mail",
  phone: "Phone number",
  url: "Web site",
  image: "Photo",
  location: "Address",
};

/** What the fields of an entry are called, where their key does not say it (as the resume view names them). */
const ENTRY_FIELDS: Record<string, string> = {
  position: "Title",
  studyType: "Degree",
  area: "Field of study",
  entity: "Organisation",
  type: "Kind",
  url: "Link",
};

/** `startDate` → "Start date", `countryCode` → "Country code". */
function human(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a field of an entry is called: "Title" (`position`), "Link" (`url`), "Start date" (`startDate`). */
export function fieldName(key: string): string {
  return ENTRY_FIELDS[key] ?? human(key);
}

/** One item of list `key` ("highlights" → "Highlight"). */
function singular(key: string): string {
  const words = human(key);
  return words.endsWith("s") ? words.slice(0, -1) : words;
}

/** The text at `value`'s `key`, trimmed and cut to 40 characters; null where there is none. */
function named(value: unknown, key: string | undefined): string | null {
  if (key === undefined || !value || typeof value !== "object" || Array.isArray(value)) return null;
  const text = (value as Record<string, unknown>)[key];
  if (typeof text !== "string" || text.trim() === "") return null;
  const t = text.trim().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}

/** Item `index` of a list: "Highlight 3", or "New highlight" at its end (`-`). */
function item(what: string, index: string): string {
  return index === "-" ? `New ${what.toLowerCase()}` : /^\d+$/.test(index) ? `${what} ${Number(index) + 1}` : human(index);
}

/** Where `pointer` is in the resume, in words, from the section down: `/work/0/summary` is
 * ["Work", "Backend Engineer", "Summary"] (the entry named by its title as `valueAt` reads it from the resume on
 * screen, else by its place: "Job 1"), `/basics/label` is ["You", "Title"], `/skills/0/keywords/-` is
 * ["Skills", "Web Development", "New keyword"]. Never a pointer's syntax where words can say it. */
export function placeOf(pointer: string, valueAt: (pointer: string) => unknown = () => undefined): string[] {
  let path: string[];
  try {
    path = parsePointer(pointer);
  } catch {
    return [pointer];
  }
  const [first, ...rest] = path;
  if (first === undefined) return ["The whole resume"];
  const out = [HEADINGS[first] ?? human(first)];
  const section = SECTIONS.find((s) => s.key === first);
  if (first === "basics") {
    const [field, index, ...deeper] = rest;
    if (field === undefined) return out;
    out.push(BASICS_FIELDS[field] ?? human(field));
    if (field === "profiles" && index !== undefined) {
      const profile = named(valueAt(`/basics/profiles/${index}`), "network");
      out.push(profile ?? item("Profile", index));
      if (deeper[0] !== undefined) out.push(deeper[0] === "url" ? "Link" : human(deeper[0]));
    } else if (index !== undefined) {
      out.push(human(index), ...deeper.map(human));
    }
    return out;
  }
  if (section) {
    const [index, field, k, ...deeper] = rest;
    if (index === undefined) return out;
    const entry = valueAt(`/${first}/${index}`);
    const what = human(section.what);
    const name = index === "-" ? null : (named(entry, section.title) ?? (first === "work" ? named(entry, "name") : null));
    out.push(name ?? item(what, index));
    if (field === undefined) return out;
    const own = first === "work" && field === "name" ? "Employer" : ENTRY_FIELDS[field];
    if (k === undefined) out.push(own ?? human(field));
    else out.push(item(singular(field), k), ...deeper.map(human));
    return out;
  }
  return [...out, ...rest.map((t) => (/^\d+$/.test(t) ? String(Number(t) + 1) : human(t)))];
}

/** The value at `pointer` in `document`; undefined where there is none (or the pointer is not one). For the
 * review card's "before": `valueAt={(pointer) => valueAtPointer(surface.document, pointer)}`. */
export function valueAtPointer(document: unknown, pointer: string): unknown {
  let path: string[];
  try {
    path = parsePointer(pointer);
  } catch {
    return undefined;
  }
  let at = document;
  for (const key of path) {
    if (Array.isArray(at)) at = /^(0|[1-9]\d*)$/.test(key) ? at[Number(key)] : undefined;
    else if (at !== null && typeof at === "object" && Object.hasOwn(at, key)) at = (at as Record<string, unknown>)[key];
    else return undefined;
  }
  return at;
}
