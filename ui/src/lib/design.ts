// A resume's design as it keeps it (`/meta/design`: the design and its options), read tolerantly for the
// design panel, and each option's bounds as the engine holds them (`redline_resume::design`: SIZE, MARGINS,
// SPACING). The engine checks every change again; these only keep the panel's fields within them.
import type { Design } from "../bindings/Design";
import type { Font } from "../bindings/Font";

/** Each number option: its least and greatest value, its step, its field's label and its name in a sentence. */
export const BOUNDS = {
  size: { min: 9, max: 12, step: 0.5, label: "Text size (pt)", words: "text size (pt)" },
  margins: { min: 8, max: 30, step: 1, label: "Margins (mm)", words: "margins (mm)" },
  spacing: { min: 0.6, max: 1.5, step: 0.05, label: "Spacing", words: "spacing" },
} as const;

/** The bundled font families a design may be set in. */
export const FONTS: readonly { value: Font; label: string }[] = [
  { value: "dejavu-sans", label: "DejaVu Sans" },
  { value: "dejavu-serif", label: "DejaVu Serif" },
  { value: "carlito", label: "Carlito" },
  { value: "eb-garamond", label: "EB Garamond" },
];

/** How dates may be written, as the design panel names each (in English; exports write the resume's
 * language). */
export const DATES: readonly { value: NonNullable<Design["dates"]>; label: string }[] = [
  { value: "month", label: "Dec 2013" },
  { value: "numeric", label: "12/2013" },
  { value: "year", label: "2013" },
];

/** The design `resume` keeps, or none (`{}`) when it keeps none or one that is not an object. */
export function designOf(resume: unknown): Design {
  const meta = (resume as { meta?: { design?: unknown } } | null)?.meta;
  const design = meta?.design;
  return design && typeof design === "object" && !Array.isArray(design) ? ({ ...design } as Design) : {};
}

/** `design` with option `key` set to `value`, or without it (the design's own) when `value` is undefined. */
export function withOption<K extends keyof Design>(design: Design, key: K, value: Design[K] | undefined): Design {
  const next = { ...design };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** What the resume keeps at `basics.image`, as the design panel shows it: nothing, a photo written into the
 * resume (shown from its own bytes, a `data:` URL: never fetched), or something else that the designs do not
 * draw, with why. The engine decides what is drawn (`redline_resume::photo`); this only chooses the words. */
export type PhotoShown =
  | { kind: "none" }
  | { kind: "photo"; url: string }
  | { kind: "other"; why: string };

export function photoOf(resume: unknown): PhotoShown {
  const image = (resume as { basics?: { image?: unknown } } | null)?.basics?.image;
  if (typeof image !== "string" || image.trim() === "") return { kind: "none" };
  const url = image.trim();
  if (/^data:image\/(png|jpeg|jpg);base64,/i.test(url)) return { kind: "photo", url };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^www\./i.test(url)) {
    return { kind: "other", why: "Your photo is a web address; Redline never fetches one. Choose the photo from this computer to show it." };
  }
  return { kind: "other", why: "What the resume keeps as its photo is not a picture Redline can draw. Choose a photo to replace it." };
}
