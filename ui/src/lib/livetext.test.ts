import { describe, expect, it, vi } from "vitest";
import { liveText } from "./livetext";

describe("a text the model types in", () => {
  it("is appended to while it grows, written whole otherwise, and kept in one text node", () => {
    const node = document.createElement("span");
    const action = liveText(node, "Builds");
    const text = node.firstChild as Text;
    expect(node.textContent).toBe("Builds");
    const append = vi.spyOn(text, "appendData");
    action.update("Builds compression");
    action.update("Builds compression systems");
    expect(append.mock.calls).toEqual([[" compression"], [" systems"]]);
    action.update("Builds compression systems");
    expect(append).toHaveBeenCalledTimes(2);
    // Edited by hand, or shortened: written whole.
    action.update("Leads compression teams");
    action.update("Leads");
    expect(append).toHaveBeenCalledTimes(2);
    expect(node.textContent).toBe("Leads");
    expect(node.childNodes).toHaveLength(1);
    expect(node.firstChild).toBe(text);
  });
});
