import { describe, expect, it } from "vitest";
import { applyPlatform, drawsOwnScrollbars } from "./platform";
import { appStylesheet, themeBlocks } from "./sources.fixture";

const webkitGtk =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15";
const macWebView = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)";
const webView2 =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
const android =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

describe("the scrollbars", () => {
  it("are the page's own on Linux, the system's elsewhere", () => {
    expect(drawsOwnScrollbars(webkitGtk)).toBe(true);
    expect(drawsOwnScrollbars(macWebView)).toBe(false);
    expect(drawsOwnScrollbars(webView2)).toBe(false);
    expect(drawsOwnScrollbars(android)).toBe(false);
  });

  it("are marked on <html> for the stylesheet, and unmarked again", () => {
    const root = document.createElement("html");
    applyPlatform(root, webkitGtk);
    expect(root.getAttribute("data-scrollbars")).toBe("page");
    applyPlatform(root, macWebView);
    expect(root.hasAttribute("data-scrollbars")).toBe(false);
  });

  it("the stylesheet draws them only under that mark, in the theme's colours", () => {
    const css = (appStylesheet().textContent ?? "").replace(/\/\*[\s\S]*?\*\//g, "");
    const rules = [...css.matchAll(/([^{}]*::-webkit-scrollbar[^{}]*)\{([^}]*)\}/g)];
    expect(rules.length).toBeGreaterThan(0);
    for (const [, selector = "", body = ""] of rules) {
      for (const one of selector.split(",")) expect(one.trim()).toMatch(/^:root\[data-scrollbars="page"\] /);
      for (const [, colour = ""] of body.matchAll(/(?:background-color|background):\s*([^;]+)/g))
        expect(colour.trim()).toMatch(/^(var\(--[a-z-]+\)|transparent)$/);
    }
  });
});

/** The relative luminance of `#rrggbb` (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("the scrollbars' thumb", () => {
  it("stands out 3:1 from every surface it scrolls over, in both themes (WCAG 1.4.11)", () => {
    for (const block of Object.values(themeBlocks())) {
      const value = (name: string): string => {
        const m = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, "i").exec(block);
        expect(m, `--${name} in ${block.slice(0, 40)}`).not.toBeNull();
        return m![1]!;
      };
      for (const surface of ["desk", "chat", "paper"])
        expect(contrast(value("scrollbar"), value(surface)), surface).toBeGreaterThanOrEqual(3);
    }
  });
});
