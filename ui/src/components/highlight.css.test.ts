import { afterEach, describe, expect, it } from "vitest";
import { appStylesheet } from "../lib/sources.fixture";

// How a highlight comes and goes, from the app's own stylesheet (jsdom cascades it; it paints nothing).
describe("a highlight's colour", () => {
  const style = appStylesheet();
  /** The stylesheet as a window whose user asked for no less motion sees it (jsdom matches no media
   * feature: as it is, it is what a user who asked for less motion gets). */
  const moving = appStylesheet();
  moving.textContent = (moving.textContent ?? "").replaceAll("(prefers-reduced-motion: no-preference)", "screen");
  afterEach(() => {
    style.remove();
    moving.remove();
    document.body.replaceChildren();
  });

  /** The transition a field takes on with `classes`, in a view that is locked (a turn running) or not, in a
   * window with motion (or, `still`, one whose user asked for less). */
  function transition(classes: string, locked: boolean, still = false): string {
    (still ? moving : style).remove();
    document.head.append(still ? style : moving);
    const view = document.createElement("div");
    view.className = locked ? "resume locked" : "resume";
    const field = document.createElement("span");
    field.className = classes;
    view.append(field);
    document.body.replaceChildren(view);
    return getComputedStyle(field).transition;
  }

  it("comes and turns yellow at once, and only a field or entry fading out takes a transition", () => {
    // Entering `pending` or `changed`, or back to nothing (a turn starting): at once (a colour in transition
    // is painted again at every frame).
    for (const classes of ["field pending", "entry pending", "field changed", "entry changed", "field", "entry"]) {
      // (jsdom gives "" for a transition no rule sets: the initial value, none.)
      expect(["", "none"], classes).toContain(transition(classes, false));
      expect(["", "none"], classes).toContain(transition(classes, true));
    }
    // Fading out (the store sets `fading` only when the view is at rest): slowly.
    expect(transition("field fading", false)).toMatch(/background-color 1\.2s/);
    expect(transition("entry fading", false)).toMatch(/background-color 1\.2s/);
    // … unless the user asked for less motion: then it goes at once.
    expect(["", "none"]).toContain(transition("field fading", false, true));
  });

  it("the same for every field whether a turn runs or not: a turn starting or ending restyles no field", () => {
    // (A rule by the view's state, `.locked .field`, cost 4-7 ms of style on a large resume at each.)
    for (const classes of ["field", "entry", "field pending", "field changed", "field fading", "entry fading"]) {
      expect(transition(classes, true), classes).toBe(transition(classes, false));
    }
  });
});
