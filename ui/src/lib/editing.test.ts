import { describe, expect, it } from "vitest";
import { appendOps, fieldOps, moveOps, proposedPaths, reveal, revealEntry, touched } from "./editing";

describe("edits by hand as operations", () => {
  it("a changed field is replaced, a new one added, an emptied one removed, an unchanged one left", () => {
    expect(fieldOps("/basics/label", "Founder ", "Programmer")).toEqual([{ op: "replace", path: "/basics/label", value: "Founder" }]);
    expect(fieldOps("/basics/phone", "555", undefined)).toEqual([{ op: "add", path: "/basics/phone", value: "555" }]);
    expect(fieldOps("/basics/phone", "  ", "555")).toEqual([{ op: "remove", path: "/basics/phone" }]);
    expect(fieldOps("/basics/phone", "", undefined)).toEqual([]);
    expect(fieldOps("/basics/label", " Programmer", "Programmer")).toEqual([]);
  });

  it("an item is appended to a list, or starts one", () => {
    expect(appendOps("/skills/0/keywords", "Rust", true)).toEqual([{ op: "add", path: "/skills/0/keywords/-", value: "Rust" }]);
    expect(appendOps("/work/0/highlights", "Shipped", false)).toEqual([{ op: "add", path: "/work/0/highlights", value: ["Shipped"] }]);
    expect(appendOps("/skills/0/keywords", " ", true)).toEqual([]);
  });

  it("an item moves within its list", () => {
    expect(moveOps("/work", 2, 1, 3)).toEqual([{ op: "move", from: "/work/2", path: "/work/1" }]);
    expect(moveOps("/work", 0, -1, 3)).toEqual([]);
    expect(moveOps("/work", 2, 3, 3)).toEqual([]);
  });

  it("a proposal outlines what it would change: a field, or the list an item is added to", () => {
    const paths = proposedPaths([
      { op: "replace", path: "/basics/label", value: "Founder" },
      { op: "add", path: "/skills/0/keywords/-", value: "Rust" },
      { op: "add", path: "/work/0/highlights/1", value: "Shipped" },
      { op: "remove", path: "/work/0/highlights/0" },
      { op: "add", path: "/basics/phone", value: "555" },
    ]);
    expect(paths).toEqual(["/basics/label", "/skills/0/keywords", "/work/0/highlights", "/work/0/highlights/0", "/basics/phone"]);
    expect(touched(paths, "/skills/0/keywords/2")).toBe(true);
    expect(touched(paths, "/skills/1/keywords/0")).toBe(false);
  });
});

describe("a change landing off screen is brought into view", () => {
  /** An element `reveal` follows, laid out below the window, with its scrolls recorded. */
  function below(locked: boolean): { node: HTMLElement; scrolls: ScrollIntoViewOptions[] } {
    const view = document.createElement("div");
    view.className = locked ? "resume locked" : "resume";
    const node = document.createElement("span");
    view.append(node);
    document.body.append(view);
    const scrolls: ScrollIntoViewOptions[] = [];
    node.getBoundingClientRect = () => ({ top: 2000, bottom: 2020 }) as DOMRect;
    node.scrollIntoView = (options?: boolean | ScrollIntoViewOptions) => void scrolls.push(options as ScrollIntoViewOptions);
    return { node, scrolls };
  }
  const oneFrame = () => new Promise((done) => requestAnimationFrame(() => done(null)));
  /** Two frames: the scroll comes a frame after the change is laid out. */
  const frame = async () => {
    await oneFrame();
    await oneFrame();
  };
  /** The scrolls `follow` asks for, two frames after a change starts below the window. */
  async function scrollsFor(follow: typeof revealEntry, locked: boolean): Promise<ScrollIntoViewOptions[]> {
    const { node, scrolls } = below(locked);
    follow(node, "pending");
    await frame();
    return scrolls;
  }

  it("once, when the change starts: not again as it is committed, nor when the highlight fades", async () => {
    const { node, scrolls } = below(false);
    const action = reveal(node, null);
    await frame();
    expect(scrolls).toEqual([]);
    action.update("pending");
    await frame();
    expect(scrolls).toEqual([{ block: "nearest", behavior: "smooth" }]);
    action.update("changed");
    action.update("fading");
    action.update(null);
    await frame();
    expect(scrolls).toHaveLength(1);
    action.update("changed");
    await frame();
    expect(scrolls).toHaveLength(2);
    // A change committed while the last one still fades is a change starting.
    action.update("fading");
    action.update("changed");
    await frame();
    expect(scrolls).toHaveLength(3);
  });

  it("at once, not smoothly, while the model is writing", async () => {
    expect(await scrollsFor(reveal, true)).toEqual([{ block: "nearest", behavior: "instant" }]);
  });

  it("an entry from its top, leaving it the view to grow into", async () => {
    expect(await scrollsFor(revealEntry, true)).toEqual([{ block: "start", behavior: "instant" }]);
  });

  it("a frame late: not in the frame that lays out what came", async () => {
    const { node, scrolls } = below(true);
    reveal(node, "pending");
    await oneFrame();
    expect(scrolls).toEqual([]);
    await oneFrame();
    expect(scrolls).toHaveLength(1);
  });

  it("not at all when it is on screen", async () => {
    const { node, scrolls } = below(false);
    node.getBoundingClientRect = () => ({ top: 10, bottom: 30 }) as DOMRect;
    reveal(node, "pending");
    await frame();
    expect(scrolls).toEqual([]);
  });
});
