import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// How a highlight comes and goes, from the app's own stylesheet (jsdom cascades it; it paints nothing).
describe("a highlight's colour", () => {
  const style = document.createElement("style");
  style.textContent = readFileSync(join(__dirname, "..", "app.css"), "utf8");
  afterEach(() => {
    style.remove();
    document.body.replaceChildren();
  });

  /** The transition a field takes on with `classes`, in a view that is locked (a turn running) or not. */
  function transition(classes: string, locked: boolean): string {
    document.head.append(style);
    const view = document.createElement("div");
    view.className = locked ? "resume locked" : "resume";
    const field = document.createElement("span");
    field.className = classes;
    view.append(field);
    document.body.replaceChildren(view);
    return getComputedStyle(field).transition;
  }

  it("comes and turns yellow at once, and fades slowly only when the view is at rest", () => {
    // Entering `pending` or `changed`: at once (a colour in transition is painted again at every frame).
    for (const classes of ["field pending", "entry pending", "field changed", "entry changed"]) {
      expect(transition(classes, false)).toBe("none");
      expect(transition(classes, true)).toBe("none");
    }
    // Back to nothing: a fade when at rest, at once while a turn runs.
    expect(transition("field", false)).toMatch(/background-color 1\.2s/);
    expect(transition("entry", false)).toMatch(/background-color 1\.2s/);
    expect(transition("field", true)).toBe("none");
  });
});
