// Every colour of the window, in one table: each colour token (a CSS custom property, `--ink`) once, with
// its value in the light theme and in the dark one side by side. The build writes the table out as the
// theme blocks the window loads before app.css (`virtual:palette.css`, vite.config.ts): the light theme on
// `:root`, the dark one on `:root[data-theme="dark"]` (chosen in Settings), and the dark one again inside
// `prefers-color-scheme: dark` for a window that follows the system (lib/theme.ts). A test
// (theme.test.ts) fails on a colour written anywhere else.

/** A token's value in each theme. */
export type Pair = readonly [light: string, dark: string];

export const PALETTE = {
  ink:              ["#1f2430", "#e6e8ee"],
  muted:            ["#5d6574", "#a9b0bd"],
  faint:            ["#9aa3b2", "#808998"],
  /** 3:1 against the desk, the chat and the paper (WCAG 1.4.11; platform.test.ts). */
  scrollbar:        ["#858a94", "#808998"],
  line:             ["#e3e5ea", "#363b46"],
  "line-strong":    ["#cccccc", "#4b515d"],
  paper:            ["#ffffff", "#1c1f26"],
  /** A printed page is white in either theme. */
  "page-white":     ["#ffffff", "#ffffff"],
  desk:             ["#f3f2ee", "#121418"],
  hover:            ["#f0efe9", "#272b34"],
  accent:           ["#c8323b", "#ef6b73"],
  "accent-ink":     ["#ffffff", "#1b1d22"],
  chat:             ["#fafaf8", "#171a20"],
  danger:           ["#a12a1c", "#ff8f85"],
  "danger-bg":      ["#fdf0ee", "#3a201e"],
  "danger-line":    ["#e0a39c", "#7d3d37"],
  ok:               ["#1e6b35", "#86dca0"],
  "ok-bg":          ["#e9f6ec", "#1c3325"],
  "changed-bg":     ["#fff4d6", "#463c12"],
  "changed-strong": ["#fff0b3", "#5a4b0f"],
  "changed-line":   ["#c9a94a", "#b0912e"],
  "pending-bg":     ["#e6f0ff", "#1f2f4d"],
  backdrop:         ["rgba(20, 22, 30, 0.35)", "rgba(0, 0, 0, 0.6)"],
  shadow:           ["rgba(0, 0, 0, 0.2)", "rgba(0, 0, 0, 0.6)"],
  "shadow-soft":    ["rgba(0, 0, 0, 0.08)", "rgba(0, 0, 0, 0.35)"],
} as const satisfies Record<string, Pair>;

/** Which of the two themes: a token's value in it, and its `color-scheme`. */
export type Scheme = "light" | "dark";

/** The declarations of `scheme`: its `color-scheme` (the native controls' and scrollbars' colours), then a
 * custom property a token, each on a line of its own, indented by `indent`. */
export function themeDeclarations(scheme: Scheme, indent = "  "): string {
  const side = scheme === "light" ? 0 : 1;
  const tokens = Object.entries(PALETTE).map(([name, pair]) => `${indent}--${name}: ${pair[side]};\n`);
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
