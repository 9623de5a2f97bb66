import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles, themeBlocks, windowStyles } from "./sources.fixture";
import { applyTheme, chooseTheme, savedTheme } from "./theme";

const src = join(__dirname, "..");

const files = (dir: string): string[] => sourceFiles(dir, /\.(svelte|css)$/, ["bindings"]);

/** Colour literals: #rgb, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl(). */
const COLOUR = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(/g;

describe("every colour comes from one set of variables", () => {
  it("no colour is written outside the palette (lib/palette.ts)", () => {
    const offenders: string[] = [];
    for (const { file, css } of windowStyles(src)) {
      for (const match of css.matchAll(COLOUR)) offenders.push(`${file}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it("the window and the audit load the palette's theme blocks before app.css", () => {
    for (const file of [join(src, "main.ts"), join(src, "..", "audit", "audit.ts")]) {
      const text = readFileSync(file, "utf8");
      const palette = text.indexOf('import "virtual:palette.css";');
      expect(palette, file).toBeGreaterThanOrEqual(0);
      expect(palette, file).toBeLessThan(text.search(/import "[./]+(src\/)?app\.css";/));
    }
  });

  it("the dark theme sets every variable the light one does", () => {
    const blocks = themeBlocks();
    const names = (block: string) => [...block.matchAll(/(--[a-z-]+):/g)].map((m) => m[1] ?? "").sort();
    const light = names(blocks.light);
    const dark = names(blocks.dark);
    const system = names(blocks.system);
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

/** The blur radius in px of each shadow in `value` (the third length of each comma-separated shadow). */
function blursOf(value: string): { shadow: string; blur: number }[] {
  return value.split(",").map((shadow) => {
    const lengths = shadow.trim().split(/\s+/).filter((t) => /^-?[\d.]+(px)?$/.test(t));
    return { shadow: shadow.trim(), blur: parseFloat(lengths[2] ?? "0") };
  });
}

/** Each shadow written as a `box-shadow` or as the sheets' `--sheet-shadow`, with its blur and where it is. */
function shadowBlurs(): { file: string; shadow: string; blur: number }[] {
  return files(src).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/(?:box-shadow|--sheet-shadow):\s*([^;}]+)/g)]
      .filter((m) => !m[1]!.trim().startsWith("var("))
      .flatMap((m) => blursOf(m[1]!).map((b) => ({ file, ...b }))),
  );
}

/** The declarations of the first rule for `selector` in `file`. */
function rule(file: string, selector: string): string {
  const css = readFileSync(join(src, file), "utf8");
  const at = css.search(new RegExp(`(^|[\\s}])${selector.replace(".", "\\.")}\\s*\\{`, "m"));
  expect(at, `${selector} in ${file}`).toBeGreaterThanOrEqual(0);
  return css.slice(css.indexOf("{", at) + 1, css.indexOf("}", at));
}

describe("shadows WebKit can draw on the CPU while a turn streams", () => {
  it("no shadow has a small blur (redrawn over the whole box on every change inside it: 60 ms a frame)", () => {
    const blurs = shadowBlurs();
    expect(blurs.length).toBeGreaterThan(0);
    expect(blurs.filter((b) => b.blur > 0 && b.blur < 6)).toEqual([]);
  });

  it("the sheets a turn writes into cast no blur at all (redrawn under every change inside them)", () => {
    expect(rule("app.css", ".resume")).toMatch(/box-shadow:\s*var\(--sheet-shadow\)/);
    expect(rule("components/PageView.svelte", ".sheet")).toMatch(/box-shadow:\s*var\(--sheet-shadow\)/);
    const sheet = /--sheet-shadow:\s*([^;]+);/.exec(readFileSync(join(src, "app.css"), "utf8"));
    expect(sheet).not.toBeNull();
    const blurs = blursOf(sheet![1]!);
    expect(blurs.length).toBeGreaterThan(0);
    expect(blurs.filter((b) => b.blur > 0)).toEqual([]);
  });
});
