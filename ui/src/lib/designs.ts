// The designs a resume can be shown in, for the Page view's and the Export dialog's menus: the built-in ones
// (always there, from the generated vocabulary) and the user's own themes (`redline theme new`), as the
// engine lists them. A theme whose manifest cannot be read is left out of the menus.
import type { DesignInfo } from "../bindings/DesignInfo";
import type { Template } from "../bindings/Template";
import { TEMPLATES } from "../bindings/vocabulary";

/** One entry of a design menu: a built-in design's name, or a theme's. */
export interface Look {
  value: string;
  label: string;
  /** A theme of the user's own (laid out by the engine's bounded child; PDF and pages only). */
  theme: boolean;
}

/** The built-in designs, then the user's themes that can be used, each once. */
export function looks(designs: readonly DesignInfo[]): Look[] {
  const builtIn: Look[] = TEMPLATES.map((t) => ({ value: t.value, label: t.label, theme: false }));
  const names = new Set(builtIn.map((l) => l.value));
  const themes = designs
    .filter((d) => !d.builtIn && !d.problem && !names.has(d.name))
    .map((d) => ({ value: d.name, label: `${d.label} (yours)`, theme: true }));
  return [...builtIn, ...themes];
}

/** What an export or a drawing asks for a look: the built-in template (classic for a theme, whose own design
 * the engine takes for what a theme does not make), and the theme's name or `null`. */
export function asked(look: string): { template: Template; theme: string | null } {
  const builtIn = TEMPLATES.find((t) => t.value === look);
  return builtIn ? { template: builtIn.value, theme: null } : { template: "classic", theme: look };
}
