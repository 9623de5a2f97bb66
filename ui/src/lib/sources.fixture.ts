// For tests that read the project's own sources.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { paletteCss } from "./palette";

/** The files under `dir` whose names match `keep`, leaving out the folders named in `skip`. */
export function sourceFiles(dir: string, keep: RegExp, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip.includes(name) ? [] : sourceFiles(path, keep, skip);
    return keep.test(name) ? [path] : [];
  });
}

/** The window's styles as written under `src`: each stylesheet whole, and each component's `<style>` block
 * (its markup left out: a template may carry a `#` or a word in text), with the file's path under `src`. */
export function windowStyles(src: string): { file: string; css: string }[] {
  return sourceFiles(src, /\.(svelte|css)$/, ["bindings"]).map((path) => {
    const text = readFileSync(path, "utf8");
    const css = path.endsWith(".svelte") ? (text.match(/<style[^>]*>([\s\S]*?)<\/style>/)?.[1] ?? "") : text;
    return { file: path.slice(src.length + 1), css };
  });
}

/** A `<style>` element holding the app's stylesheet (the palette's theme blocks, then app.css), for tests
 * that let jsdom cascade it (it paints nothing). */
export function appStylesheet(): HTMLStyleElement {
  const style = document.createElement("style");
  style.textContent = paletteCss() + readFileSync(join(__dirname, "..", "app.css"), "utf8");
  return style;
}

/** The palette's three theme blocks (lib/palette.ts, as the build writes them), each matching with the
 * block's declarations as its group: the light one (`:root`), the dark one Settings chooses, and the
 * system's dark one (inside `prefers-color-scheme`). */
export const THEME_BLOCKS = {
  light: /:root\s*\{([^}]*)\}/,
  dark: /:root\[data-theme="dark"\]\s*\{([^}]*)\}/,
  system: /:root:not\(\[data-theme="light"\]\)\s*\{([^}]*)\}/,
} as const;

/** The declarations of each of the palette's theme blocks. */
export function themeBlocks(): Record<keyof typeof THEME_BLOCKS, string> {
  const css = paletteCss();
  const block = (pattern: RegExp): string => css.match(pattern)?.[1] ?? "";
  return { light: block(THEME_BLOCKS.light), dark: block(THEME_BLOCKS.dark), system: block(THEME_BLOCKS.system) };
}
