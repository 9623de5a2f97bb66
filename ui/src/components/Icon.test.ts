import { cleanup, render } from "@testing-library/svelte";
import { Check, FileOutput, type IconNode } from "lucide";
import { afterEach, describe, expect, it } from "vitest";
import Icon, { iconMarkup } from "./Icon.svelte";

afterEach(cleanup);

describe("an icon of the window's set", () => {
  it("draws each of Lucide's shapes, in the text's colour, at the size asked, hidden from screen readers", () => {
    const { container } = render(Icon, { icon: FileOutput, size: 14 });
    const svg = container.querySelector("svg");
    expect(svg?.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(svg?.getAttribute("width")).toBe("14");
    expect(svg?.getAttribute("height")).toBe("14");
    expect(svg?.getAttribute("viewBox")).toBe("0 0 24 24");
    expect(svg?.getAttribute("stroke")).toBe("currentColor");
    expect(svg?.getAttribute("aria-hidden")).toBe("true");
    const shapes = [...(svg?.children ?? [])].map((shape) => shape.tagName.toLowerCase());
    expect(shapes).toEqual(FileOutput.map(([tag]) => tag));
    // Each attribute of each shape, as the set gives it.
    FileOutput.forEach(([, attrs], i) => {
      for (const [name, value] of Object.entries(attrs)) {
        expect(svg?.children[i]?.getAttribute(name)).toBe(String(value));
      }
    });
  });

  it("is 16 px unless asked otherwise, and adds nothing to the page but the picture", () => {
    const { container } = render(Icon, { icon: Check });
    expect(container.querySelector("svg")?.getAttribute("width")).toBe("16");
    expect(container.textContent).toBe("");
  });

  it("cannot be made to write markup by an attribute's value", () => {
    const forged: IconNode = [["path", { d: '"/><script>alert(1)</script><path d="' }]];
    const markup = iconMarkup(forged, 16);
    expect(markup).not.toContain("<script");
    const holder = document.createElement("div");
    holder.innerHTML = markup;
    expect(holder.querySelectorAll("script, svg > :not(path)")).toHaveLength(0);
    expect(holder.querySelector("path")?.getAttribute("d")).toBe(forged[0]?.[1].d);
  });
});
