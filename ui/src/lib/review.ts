// The import review's fields: a resume read from a file, as the text fields a person can check and fix,
// grouped by section, each known by its JSON Pointer.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
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
