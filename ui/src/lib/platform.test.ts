import { describe, expect, it } from "vitest";
import { applyPlatform, drawsOwnScrollbars } from "./platform";
import { appStylesheet } from "./sources.fixture";

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
