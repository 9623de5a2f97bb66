import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyTheme, chooseTheme, savedTheme } from "./theme";

const src = join(__dirname, "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "bindings" ? [] : files(path);
    return /\.(svelte|css)$/.test(name) ? [path] : [];
  });
}

/** Colour literals: #rgb, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl(). */
const COLOUR = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(/g;

describe("every colour comes from one set of variables", () => {
  it("no colour is written outside app.css's theme blocks", () => {
    const offenders: string[] = [];
    for (const path of files(src)) {
      let text = readFileSync(path, "utf8");
      if (path.endsWith("app.css")) {
        // The theme blocks: :root, [data-theme="dark"], and the prefers-color-scheme one.
        text = text
          .replace(/:root\s*\{[^}]*\}/, "")
          .replace(/:root\[data-theme="dark"\]\s*\{[^}]*\}/, "")
          .replace(/@media \(prefers-color-scheme: dark\)\s*\{\s*:root:not\(\[data-theme="light"\]\)\s*\{[^}]*\}\s*\}/, "");
      } else {
        // Components: their styles (a template may carry a `#` in text).
        const style = text.match(/<style[^>]*>([\s\S]*?)<\/style>/);
        text = style?.[1] ?? "";
      }
      for (const match of text.matchAll(COLOUR)) offenders.push(`${path.slice(src.length + 1)}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it("the dark theme sets every variable the light one does", () => {
    const css = readFileSync(join(src, "app.css"), "utf8");
    const names = (pattern: RegExp) => {
      const block = css.match(pattern)?.[1] ?? "";
      return [...block.matchAll(/(--[a-z-]+):/g)].map((m) => m[1] ?? "").sort();
    };
    const light = names(/:root\s*\{([^}]*)\}/);
    const dark = names(/:root\[data-theme="dark"\]\s*\{([^}]*)\}/);
    const system = names(/:root:not\(\[data-theme="light"\]\)\s*\{([^}]*)\}/);
    expect(light.length).toBeGreaterThan(20);
    expect(dark).toEqual(light);
    expect(system).toEqual(light);
  });
});

describe("theme choice", () => {
  it("is applied as data-theme, and system removes it", () => {
    const root = document.createElement("html");
    applyTheme("dark", root);
    expect(root.getAttribute("data-theme")).toBe("dark");
    applyTheme("system", root);
    expect(root.hasAttribute("data-theme")).toBe(false);
  });

  it("is kept, and an unknown or unreadable value counts as system", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const root = document.createElement("html");
    expect(savedTheme(storage)).toBe("system");
    chooseTheme("light", storage, root);
    expect(savedTheme(storage)).toBe("light");
    expect(root.getAttribute("data-theme")).toBe("light");
    store.set("redline.theme", "purple");
    expect(savedTheme(storage)).toBe("system");
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
    };
    expect(savedTheme(broken)).toBe("system");
  });
});

/** Each shadow's blur radius in px (the third length of each comma-separated shadow), with where it is. */
function shadowBlurs(): { file: string; shadow: string; blur: number }[] {
  return files(src).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/box-shadow:\s*([^;}]+)/g)].flatMap((m) =>
      m[1]!.split(",").map((shadow) => {
        const lengths = shadow.trim().split(/\s+/).filter((t) => /^-?[\d.]+(px)?$/.test(t));
        return { file, shadow: shadow.trim(), blur: parseFloat(lengths[2] ?? "0") };
      }),
    ),
  );
}

describe("shadows WebKit can draw on the CPU while a turn streams", () => {
  it("no shadow has a small blur (redrawn over the whole box on every change inside it: 60 ms a frame)", () => {
    const blurs = shadowBlurs();
    expect(blurs.some((b) => b.shadow.startsWith("0 8px 24px"))).toBe(true);
    expect(blurs.filter((b) => b.blur > 0 && b.blur < 6)).toEqual([]);
  });
});
