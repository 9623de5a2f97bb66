// The writing checks' findings in the window: grouped by the section they are in for the panel
// (components/ChecksPanel.svelte), and underlined in the resume view where their words are, through the CSS
// Custom Highlight API: ranges over the text the view already drew, so that no field is drawn again for a
// finding (a keystroke's check costs a walk over the fields, not a render). Where the API is missing the
// panel still lists every finding.
import type { Finding } from "../bindings/Finding";

/** The highlight's name in CSS: `::highlight(writing-check)` (app.css). */
export const HIGHLIGHT = "writing-check";

/** The JSON Resume sections, in the view's order, and what the panel calls each. */
const SECTIONS: [string, string][] = [
  ["basics", "About you"],
  ["work", "Work"],
  ["volunteer", "Volunteering"],
  ["education", "Education"],
  ["awards", "Awards"],
  ["certificates", "Certificates"],
  ["publications", "Publications"],
  ["skills", "Skills"],
  ["languages", "Languages"],
  ["interests", "Interests"],
  ["references", "References"],
  ["projects", "Projects"],
];

export interface FindingGroup {
  /** The section's key (`work`). */
  section: string;
  label: string;
  findings: Finding[];
}

/** The section a pointer is in (`/work/0/highlights/1` → `work`). */
export function sectionOf(path: string): string {
  return path.split("/")[1] ?? "";
}

/** The findings by section, in the view's order; a section with none is left out, and a path outside the
 * sections named comes last, under "Other". Within a section, in the order given. */
export function bySection(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = sectionOf(finding.path);
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  const known = SECTIONS.filter(([key]) => groups.has(key)).map(([section, label]) => ({
    section,
    label,
    findings: groups.get(section) ?? [],
  }));
  const other = [...groups].filter(([key]) => !SECTIONS.some(([k]) => k === key)).flatMap(([, list]) => list);
  return other.length > 0 ? [...known, { section: "other", label: "Other", findings: other }] : known;
}

/** A finding's identity, for "ignore once": the same rule on the same words at the same place. */
export function findingKey(finding: Finding): string {
  return `${finding.rule}\u0000${finding.path}\u0000${finding.start}\u0000${finding.text}`;
}

/** The text nodes under `root`, in order. */
function textNodes(root: Node): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  return nodes;
}

/** The DOM range over characters [start, end) of `field`'s text, counted in Unicode scalar values as the
 * engine counts them; null when the field does not show those characters as they are. */
export function rangeIn(field: Element, finding: Finding): Range | null {
  const nodes = textNodes(field);
  const shown = nodes.map((n) => n.data).join("");
  const scalars = Array.from(shown);
  // The words must be where the finding says (a field drawn differently from its value is left alone).
  if (scalars.slice(finding.start, finding.end).join("") !== finding.text) return null;
  // From scalar offsets to UTF-16 offsets, then to a node and an offset in it.
  const utf16 = (scalar: number) => scalars.slice(0, scalar).join("").length;
  const at = (offset: number): [Text, number] | null => {
    let left = offset;
    for (const node of nodes) {
      if (left <= node.data.length) return [node, left];
      left -= node.data.length;
    }
    return null;
  };
  const from = at(utf16(finding.start));
  const to = at(utf16(finding.end));
  if (!from || !to) return null;
  const range = document.createRange();
  range.setStart(from[0], from[1]);
  range.setEnd(to[0], to[1]);
  return range;
}

/** Underlines `findings` in the view under `root` (replacing what was underlined); how many were placed. */
export function underline(root: ParentNode, findings: readonly Finding[]): number {
  const registry = (globalThis.CSS as { highlights?: HighlightRegistry } | undefined)?.highlights;
  if (!registry || typeof Highlight === "undefined") return 0;
  const ranges: Range[] = [];
  for (const finding of findings) {
    const field = root.querySelector(`[data-path="${CSS.escape(finding.path)}"]`);
    const range = field ? rangeIn(field, finding) : null;
    if (range) ranges.push(range);
  }
  registry.set(HIGHLIGHT, new Highlight(...ranges));
  return ranges.length;
}

/** Brings the field of `finding` into view and gives it the focus (its Edit button, when it has one). */
export function reveal(root: ParentNode, finding: Finding): boolean {
  const field = root.querySelector<HTMLElement>(`[data-path="${CSS.escape(finding.path)}"]`);
  if (!field) return false;
  field.scrollIntoView({ block: "center", behavior: "smooth" });
  field.querySelector<HTMLElement>("button.edit")?.focus({ preventScroll: true });
  return true;
}
