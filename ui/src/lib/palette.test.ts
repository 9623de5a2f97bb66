import { describe, expect, it } from "vitest";
import { colour, RAMPS, ROLES, themeColours } from "./palette";

describe("the palette", () => {
  it("paints every role, in both themes, with a colour of its ramps", () => {
    for (const [name, [light, dark]] of Object.entries(ROLES)) {
      expect(colour(light), `${name} light`).not.toBe("");
      expect(colour(dark), `${name} dark`).not.toBe("");
    }
  });

  it("writes each colour once: the dark theme is the same ramps, read from the other end", () => {
    const values = Object.values(RAMPS).flatMap((ramp) => Object.values(ramp) as string[]);
    expect(new Set(values).size).toBe(values.length);
    const light = new Set(Object.values(themeColours("light")));
    const dark = new Set(Object.values(themeColours("dark")));
    // The two themes share their ramps: some colours are in both (a printed page's white, the scrollbar's grey).
    expect([...dark].filter((c) => light.has(c)).length).toBeGreaterThan(0);
  });
});
