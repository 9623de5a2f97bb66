// The command palette's logic (components/CommandPalette.svelte), as pure functions: which actions a query
// finds and in what order, the groups they are shown in, and shortcuts as the platform writes them.
//
// Shortcuts are written as the menu's accelerators are (desktop.rs): `CmdOrCtrl+Shift+E`. `CmdOrCtrl` (or
// `Mod`) is Cmd on macOS and Ctrl elsewhere; a shortcut written with `Ctrl` is Ctrl everywhere.
import type { WindowAction } from "./actions";

/** What decides how shortcuts are written and which modifier is the app's: macOS's ⌘, or Ctrl. */
export type Platform = "mac" | "other";

/** The platform of the engine with this user agent (WKWebView's says "Macintosh"). */
export function platformOf(userAgent: string): Platform {
  return /\bMacintosh\b|\bMac OS X\b/.test(userAgent) ? "mac" : "other";
}

/** A modifier's names as a shortcut may write it, and how each platform writes it and where it puts it: Apple
 * says ⌃⌥⇧⌘ and then the key; elsewhere Ctrl+Alt+Shift+key. */
const MODIFIERS: { names: string[]; mac: [string, number]; other: [string, number] }[] = [
  { names: ["ctrl", "control"], mac: ["⌃", 0], other: ["Ctrl", 0] },
  { names: ["cmdorctrl", "commandorcontrol", "mod", "cmd", "command", "meta", "super"], mac: ["⌘", 3], other: ["Ctrl", 0] },
  { names: ["alt", "option"], mac: ["⌥", 1], other: ["Alt", 1] },
  { names: ["shift"], mac: ["⇧", 2], other: ["Shift", 2] },
];

/** The keys of `shortcut` as `platform` shows them, modifiers first in its order: `CmdOrCtrl+Shift+E` is
 * ["Ctrl", "Shift", "E"] on Linux and Windows, ["⇧", "⌘", "E"] on macOS. */
export function shortcutKeys(shortcut: string, platform: Platform): string[] {
  const modifiers: [string, number][] = [];
  const rest: string[] = [];
  for (const part of shortcut.split(/\+(?!$)/).filter((p) => p !== "")) {
    const modifier = MODIFIERS.find((m) => m.names.includes(part.toLowerCase()));
    if (modifier) modifiers.push(modifier[platform]);
    else rest.push(part.length === 1 ? part.toUpperCase() : part);
  }
  const said = modifiers.sort((a, b) => a[1] - b[1]).map(([name]) => name);
  // (Cmd and Ctrl are one key off macOS: said once.)
  return [...new Set(said), ...rest];
}

/** `shortcut` as one label: "Ctrl+Shift+E", or "⇧⌘E" on macOS. */
export function shortcutLabel(shortcut: string, platform: Platform): string {
  return shortcutKeys(shortcut, platform).join(platform === "mac" ? "" : "+");
}

/** The palette's own shortcut. */
export const PALETTE_SHORTCUT = "CmdOrCtrl+K";

/** The label of the palette's shortcut: "Ctrl+K", or "⌘K" on macOS. */
export function paletteShortcut(platform: Platform): string {
  return shortcutLabel(PALETTE_SHORTCUT, platform);
}

/** Whether `event` is the palette's shortcut on `platform` (Cmd+K on macOS, Ctrl+K elsewhere). */
export function isPaletteKey(
  event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">,
  platform: Platform,
): boolean {
  const modifier = platform === "mac" ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return modifier && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k";
}

/** Text as it is compared: lower case, without accents (é is e), spaces made one. */
function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Whether `at` in `text` begins a word (after a space, a hyphen, a bracket — anything not a letter or digit). */
function startsWord(text: string, at: number): boolean {
  return at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]!);
}

/** Whether `query`'s letters come in `text` in the same order, not necessarily together ("exp" in "E-x-p"). */
function inOrder(text: string, query: string): boolean {
  let from = 0;
  for (const char of query.replace(/ /g, "")) {
    from = text.indexOf(char, from) + 1;
    if (from === 0) return false;
  }
  return true;
}

/** How well `query` matches: 0 the label starts with it, 1 a word of the label does, 2 the label has it,
 * 3 the group has it (or every word of the query is in the label or the group), 4 the label has its letters
 * in order; null none. An empty query matches all, at 0. */
export function matchRank(action: Pick<WindowAction, "label" | "group">, query: string): number | null {
  const wanted = folded(query);
  if (wanted === "") return 0;
  const label = folded(action.label);
  const group = folded(action.group);
  if (label.startsWith(wanted)) return 0;
  let at = label.indexOf(wanted);
  let inside = at >= 0;
  while (at >= 0) {
    if (startsWord(label, at)) return 1;
    at = label.indexOf(wanted, at + 1);
  }
  if (inside) return 2;
  inside = group.includes(wanted) || wanted.split(" ").every((word) => label.includes(word) || group.includes(word));
  if (inside) return 3;
  return inOrder(label, wanted) ? 4 : null;
}

/** The actions `query` finds, best first; those that match as well keep the order they were given in. */
export function rankActions<A extends Pick<WindowAction, "label" | "group">>(actions: readonly A[], query: string): A[] {
  return actions
    .map((action, index) => ({ action, index, rank: matchRank(action, query) }))
    .filter((found): found is { action: A; index: number; rank: number } => found.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((found) => found.action);
}

/** Actions under the name of their group. */
export interface ActionGroup<A> {
  group: string;
  actions: A[];
}

/** `actions` by group, the groups in the order their first action comes (so, ranked, the best match's group
 * first), each group's actions in the order given. */
export function groupActions<A extends Pick<WindowAction, "group">>(actions: readonly A[]): ActionGroup<A>[] {
  const groups = new Map<string, A[]>();
  for (const action of actions) {
    const members = groups.get(action.group);
    if (members) members.push(action);
    else groups.set(action.group, [action]);
  }
  return [...groups].map(([group, members]) => ({ group, actions: members }));
}

/** What the palette shows for `query`: the actions it finds, grouped, the best match first. */
export function paletteGroups<A extends Pick<WindowAction, "label" | "group">>(actions: readonly A[], query: string): ActionGroup<A>[] {
  return groupActions(rankActions(actions, query));
}

/** An action's label and shortcut, as Help lists them. */
export interface ShortcutLine {
  id: string;
  label: string;
  shortcut: string;
}

/** The actions that have a shortcut, by group, in the order given (for Help; show each shortcut with
 * `shortcutLabel` or `shortcutKeys`). Groups without one are left out. */
export function shortcutsByGroup(actions: readonly WindowAction[]): ActionGroup<ShortcutLine>[] {
  const lines = actions.flatMap((a) => (a.shortcut ? [{ id: a.id, label: a.label, shortcut: a.shortcut, group: a.group }] : []));
  return groupActions(lines).map(({ group, actions: members }) => ({
    group,
    actions: members.map(({ id, label, shortcut }) => ({ id, label, shortcut })),
  }));
}

/** Whether `action` can be run now (an action without `enabled` always can). */
export function runnable(action: Pick<WindowAction, "enabled">): boolean {
  return action.enabled?.() ?? true;
}
