// The navigation's places: each kind of thing the user keeps (their resumes today; letters, applications,
// designs and checks as they come), and the items of each, nested where one was made from another (a resume's
// variants under it). A place is added by giving the navigation one more `Place`; a kind the app does not
// have yet has no place (no empty section stands for it).
import type { DocumentRow } from "../bindings/DocumentRow";

/** The kinds of place the navigation knows how to draw (its icon, by this id: frame/PlacesNav.svelte). */
export type PlaceId = "resumes" | "letters" | "applications";

/** One item of a place: a resume, say, and those made from it. */
export interface PlaceItem {
  /** Its id in its place (a resume's document id). */
  id: number;
  /** Its full title. */
  title: string;
  /** What the navigation shows: the title, or for a variant whose title starts with its original's, the rest
   * ("for Hooli" under "Richard Hendriks — Programmer"). */
  label: string;
  /** It is the one on screen. */
  current: boolean;
  /** A word after its label ("demo copy"), or null. */
  note: string | null;
  /** Why it cannot be opened, or null when it can. */
  problem: string | null;
  /** The items made from it, in the order the place lists them. */
  children: PlaceItem[];
}

/** A place of the navigation, and what it holds. */
export interface Place {
  id: PlaceId;
  /** Its name, as a heading. */
  label: string;
  /** Its items, nested; null while they are being read. */
  items: PlaceItem[] | null;
  /** What it says when it holds nothing. */
  empty: string;
  /** Why its items could not be read (the last time they were asked for), or "". */
  problem: string;
}

/** Between an original's title and what a variant adds to it (as tailoring names a copy). */
const SEPARATOR = " — ";

/** The user's resumes as nested items: each variant under the resume it was made from (found by its title),
 * at the top when that one is gone, in the order of `rows`. */
export function resumeItems(rows: readonly DocumentRow[]): PlaceItem[] {
  const byTitle = new Map<string, DocumentRow>();
  for (const row of rows) if (!byTitle.has(row.title)) byTitle.set(row.title, row);

  /** The row `row` was made from, unless that would go round in a circle (titles can repeat). */
  function parentOf(row: DocumentRow): DocumentRow | null {
    const seen = new Set<number>([row.id]);
    const parent = row.variantOf === null ? undefined : byTitle.get(row.variantOf);
    if (!parent || parent.id === row.id) return null;
    for (let up: DocumentRow | undefined = parent; up; up = up.variantOf === null ? undefined : byTitle.get(up.variantOf)) {
      if (seen.has(up.id)) return null;
      seen.add(up.id);
    }
    return parent;
  }

  const items = new Map<number, PlaceItem>();
  for (const row of rows) {
    items.set(row.id, {
      id: row.id,
      title: row.title,
      label: row.title,
      current: row.current,
      note: row.demo ? "demo copy" : null,
      problem: row.problem,
      children: [],
    });
  }
  const top: PlaceItem[] = [];
  for (const row of rows) {
    const item = items.get(row.id)!;
    const parent = parentOf(row);
    if (parent) {
      const prefix = parent.title + SEPARATOR;
      if (row.title.startsWith(prefix) && row.title.length > prefix.length) item.label = row.title.slice(prefix.length);
      items.get(parent.id)!.children.push(item);
    } else {
      top.push(item);
    }
  }
  return top;
}

/** The place of the user's resumes (`rows` null while they are being read; `problem`, why they could not be). */
export function resumesPlace(rows: readonly DocumentRow[] | null, problem = ""): Place {
  const resumes = rows && rows.filter((r) => r.kind !== "letter");
  return { id: "resumes", label: "Resumes", items: resumes && resumeItems(resumes), empty: "No resumes yet.", problem };
}

/** The place of the user's cover letters (each with its variants under it), from the same rows. */
export function lettersPlace(rows: readonly DocumentRow[] | null, problem = ""): Place {
  const letters = rows && rows.filter((r) => r.kind === "letter");
  return {
    id: "letters",
    label: "Letters",
    items: letters && resumeItems(letters),
    empty: "No letters yet: “Write a cover letter…” in the More menu writes one from the resume on screen.",
    problem,
  };
}

/** The place of the user's applications: one item, the board (and its table), current while it is shown. */
export function applicationsPlace(shown: boolean): Place {
  const board: PlaceItem = {
    id: 0,
    title: "Where each application stands",
    label: "Board and table",
    current: shown,
    note: null,
    problem: null,
    children: [],
  };
  return { id: "applications", label: "Applications", items: [board], empty: "", problem: "" };
}
