/** The window's theme: the system's (prefers-color-scheme), or light or dark as chosen in Settings. The
 * choice is kept in the webview's local storage (a preference of this window, not of a resume) and applied
 * as `data-theme` on <html>, which the palette's theme blocks read (lib/palette.ts); "system" removes it. */
export type Theme = "system" | "light" | "dark";

const KEY = "redline.theme";

export function isTheme(value: unknown): value is Theme {
  return value === "system" || value === "light" || value === "dark";
}

/** The saved choice ("system" when none, or when storage cannot be read). */
export function savedTheme(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): Theme {
  try {
    const value = storage?.getItem(KEY);
    return isTheme(value) ? value : "system";
  } catch {
    return "system";
  }
}

/** Applies `theme` to `root` (the document's <html>). */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", theme);
}

/** Saves and applies `theme`. */
export function chooseTheme(
  theme: Theme,
  storage: Pick<Storage, "setItem"> | undefined = globalThis.localStorage,
  root: HTMLElement = document.documentElement,
): void {
  try {
    storage?.setItem(KEY, theme);
  } catch {
    // Applied for this session even when it cannot be kept.
  }
  applyTheme(theme, root);
}
