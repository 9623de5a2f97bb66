// The window's actions: what its toolbar, the toolbar's More menu and the command palette
// (components/CommandPalette.svelte) offer, each once (App.svelte builds the list), with its name, the group
// of what it acts on, its shortcut and whether it can run now.
import { shortcutLabel, type Platform } from "./commands";

/** One thing the window can do. `shortcut` is written as the menu's accelerators are (desktop.rs):
 * `CmdOrCtrl+Shift+E` (lib/commands.ts shows it as the platform writes it). Without `enabled`, it can always
 * run. */
export type WindowAction = { id: string; label: string; group: string; shortcut?: string; run: () => void; enabled?: () => boolean };

/** The groups, by what their actions act on, in the order the toolbar shows them. */
export const GROUPS = {
  edit: "Edit",
  document: "Document",
  output: "Output",
  resumes: "Resumes",
  app: "App",
} as const;

/** The action `id` of `actions`. A control drawn for an action the window does not offer is a mistake of the
 * code, not of the user: it throws. */
export function actionOf(actions: readonly WindowAction[], id: string): WindowAction {
  const action = actions.find((a) => a.id === id);
  if (!action) throw new Error(`no window action "${id}"`);
  return action;
}

/** Whether `action` can run now. */
export const canRun = (action: Pick<WindowAction, "enabled">): boolean => action.enabled?.() ?? true;

/** A control's tooltip: its name (without the “…” that says a dialog follows), then its shortcut as
 * `platform` writes it: "Undo (Ctrl+Z)", and on macOS with its symbols. */
export function tooltipOf(action: Pick<WindowAction, "label" | "shortcut">, platform: Platform): string {
  const name = action.label.replace(/…$/, "");
  return action.shortcut ? `${name} (${shortcutLabel(action.shortcut, platform)})` : name;
}

/** The modifiers of an accelerator as `aria-keyshortcuts` names them (`CmdOrCtrl` is the platform's). */
const ARIA_MODIFIERS: Record<string, (platform: Platform) => string> = {
  cmdorctrl: (p) => (p === "mac" ? "Meta" : "Control"),
  commandorcontrol: (p) => (p === "mac" ? "Meta" : "Control"),
  mod: (p) => (p === "mac" ? "Meta" : "Control"),
  cmd: () => "Meta",
  command: () => "Meta",
  meta: () => "Meta",
  super: () => "Meta",
  ctrl: () => "Control",
  control: () => "Control",
  alt: () => "Alt",
  option: () => "Alt",
  shift: () => "Shift",
};

/** `shortcut` as `aria-keyshortcuts` says it ("Control+Shift+E"; Meta for Cmd on macOS), or undefined for
 * none. */
export function ariaShortcut(shortcut: string | undefined, platform: Platform): string | undefined {
  if (!shortcut) return undefined;
  return shortcut
    .split(/\+(?!$)/)
    .filter((part) => part !== "")
    .map((part) => ARIA_MODIFIERS[part.toLowerCase()]?.(platform) ?? (part.length === 1 ? part.toUpperCase() : part))
    .join("+");
}
