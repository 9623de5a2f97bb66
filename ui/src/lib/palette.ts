// Every colour of the window, in one place, made once: a few ramps of colours (`RAMPS`, each value written
// once), and the roles the window paints with (`ROLES`: ink, paper, accent, …), each naming the step of a ramp
// it takes in the light theme and in the dark one. The dark theme is the same ramps read from the other end,
// not a second set of colours. The build writes the roles out as CSS custom properties (`--ink`), the theme
// blocks the window loads before app.css (`virtual:palette.css`, vite.config.ts): the light theme on `:root`,
// the dark one on `:root[data-theme="dark"]` (chosen in Settings), and the dark one again inside
// `prefers-color-scheme: dark` for a window that follows the system (lib/theme.ts). A test (theme.test.ts)
// fails on a colour written anywhere else. The roles, and when to use each: ui/README.md.

/** The colours themselves, by ramp and step (lighter steps first). */
export const RAMPS = {
  /** Cool greys, from the paper of the light theme to the desk of the dark one. */
  grey: {
    0: "#ffffff",
    50: "#f7f8fa",
    100: "#f1f2f5",
    150: "#e9ebef",
    200: "#e1e4e9",
    250: "#d3d7de",
    300: "#c9ced6",
    350: "#a9b0bd",
    400: "#9aa3b2",
    500: "#808998",
    600: "#5d6574",
    700: "#4b515d",
    750: "#363b46",
    800: "#272b34",
    850: "#1c1f26",
    900: "#171a20",
    950: "#121418",
  },
  red: {
    50: "#fdf0ee",
    200: "#e0a39c",
    250: "#ff8f85",
    300: "#ef6b73",
    600: "#c8323b",
    700: "#a12a1c",
    800: "#7d3d37",
    950: "#3a201e",
  },
  green: { 50: "#e9f6ec", 300: "#86dca0", 700: "#1e6b35", 950: "#1c3325" },
  amber: { 50: "#fff4d6", 100: "#fff0b3", 500: "#c9a94a", 600: "#b0912e", 800: "#5a4b0f", 900: "#463c12" },
  blue: { 50: "#e6f0ff", 900: "#1f2f4d" },
  /** Black seen through: shadows and the dialogs' backdrop. */
  shade: {
    8: "rgba(0, 0, 0, 0.08)",
    20: "rgba(0, 0, 0, 0.2)",
    35: "rgba(0, 0, 0, 0.35)",
    60: "rgba(0, 0, 0, 0.6)",
    backdrop: "rgba(20, 22, 30, 0.35)",
  },
} as const;

type Ramps = typeof RAMPS;
/** A step of a ramp, as `ramp.step`: `grey.600`. */
export type Step = { [R in keyof Ramps]: `${R}.${Extract<keyof Ramps[R], string | number>}` }[keyof Ramps];

/** A role's step in each theme. */
export type Pair = readonly [light: Step, dark: Step];

/** What the window paints with: each role once, with its step in the light theme and in the dark one. */
export const ROLES = {
  /** Text, and the user's chat bubbles. */
  ink:              ["grey.900", "grey.150"],
  /** Text that says less: dates, hints, labels of a group. 4.5:1 on every surface below. */
  muted:            ["grey.600", "grey.350"],
  /** Lines under links; nothing that must be read. */
  faint:            ["grey.400", "grey.500"],
  /** 3:1 against the desk, the chat and the paper (WCAG 1.4.11; platform.test.ts). */
  scrollbar:        ["grey.500", "grey.500"],
  /** Borders of cards, fields and panes. */
  line:             ["grey.200", "grey.750"],
  /** A border that must show: a field being typed in, a separator between groups. */
  "line-strong":    ["grey.300", "grey.700"],
  /** The resume's sheet, cards, dialogs, buttons. */
  paper:            ["grey.0", "grey.850"],
  /** A printed page is white in either theme. */
  "page-white":     ["grey.0", "grey.0"],
  /** What the sheet lies on: the document's pane. */
  desk:             ["grey.100", "grey.950"],
  /** The frame's own surfaces: the navigation and the toolbar. */
  frame:            ["grey.50", "grey.900"],
  /** A control under the pointer, a chip. */
  hover:            ["grey.150", "grey.800"],
  /** The place or item on screen, in the navigation. */
  selected:         ["grey.200", "grey.750"],
  /** The one colour of the brand: section headings, the primary button. */
  accent:           ["red.600", "red.300"],
  /** Text on the accent. */
  "accent-ink":     ["grey.0", "grey.850"],
  /** The focus ring of every control. */
  focus:            ["red.600", "red.300"],
  /** The chat and the side panels. */
  chat:             ["grey.50", "grey.900"],
  danger:           ["red.700", "red.250"],
  "danger-bg":      ["red.50", "red.950"],
  "danger-line":    ["red.200", "red.800"],
  ok:               ["green.700", "green.300"],
  "ok-bg":          ["green.50", "green.950"],
  /** A change just committed (yellow, fading), and its card's border. */
  "changed-bg":     ["amber.50", "amber.900"],
  "changed-strong": ["amber.100", "amber.800"],
  "changed-line":   ["amber.500", "amber.600"],
  /** A change previewed, not yet saved (blue). */
  "pending-bg":     ["blue.50", "blue.900"],
  backdrop:         ["shade.backdrop", "shade.60"],
  shadow:           ["shade.20", "shade.60"],
  "shadow-soft":    ["shade.8", "shade.35"],
} as const satisfies Record<string, Pair>;

/** The colour of `step`. */
export function colour(step: Step): string {
  const [ramp, at] = step.split(".") as [keyof Ramps, string];
  return (RAMPS[ramp] as Record<string, string>)[at] ?? "";
}

/** Which of the two themes: a role's value in it, and its `color-scheme`. */
export type Scheme = "light" | "dark";

/** Each role's colour in `scheme`. */
export function themeColours(scheme: Scheme): Record<keyof typeof ROLES, string> {
  const side = scheme === "light" ? 0 : 1;
  return Object.fromEntries(Object.entries(ROLES).map(([name, pair]) => [name, colour(pair[side])])) as Record<
    keyof typeof ROLES,
    string
  >;
}

/** The declarations of `scheme`: its `color-scheme` (the native controls' and scrollbars' colours), then a
 * custom property a role, each on a line of its own, indented by `indent`. */
export function themeDeclarations(scheme: Scheme, indent = "  "): string {
  const tokens = Object.entries(themeColours(scheme)).map(([name, value]) => `${indent}--${name}: ${value};\n`);
  return `${indent}color-scheme: ${scheme};\n${tokens.join("")}`;
}

/** The palette as CSS: the light theme on `:root`; the dark one chosen in Settings (`data-theme`), or the
 * system's while Settings says "System" (no `data-theme`). */
export function paletteCss(): string {
  return [
    `:root {\n${themeDeclarations("light")}}\n`,
    `:root[data-theme="dark"] {\n${themeDeclarations("dark")}}\n`,
    `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {\n${themeDeclarations("dark", "    ")}  }\n}\n`,
  ].join("\n");
}
