import { describe, expect, it } from "vitest";
import { asked, looks } from "./designs";
import { TEMPLATES } from "../bindings/vocabulary";

describe("design menus", () => {
  it("list the built-in designs, then the user's usable themes", () => {
    const menu = looks([
      { name: "classic", label: "Classic", description: "", builtIn: true },
      { name: "mine", label: "Mine", description: "made from Modern", builtIn: false },
      { name: "broken", label: "broken", description: "", builtIn: false, problem: "theme.json: expected ," },
      { name: "modern", label: "Not the built-in one", description: "", builtIn: false },
    ]);
    expect(menu.map((l) => l.value)).toEqual([...TEMPLATES.map((t) => t.value), "mine"]);
    expect(menu.at(-1)).toEqual({ value: "mine", label: "Mine (yours)", theme: true });
  });

  it("ask for a built-in design by its template, a theme by its name", () => {
    expect(asked("elegant")).toEqual({ template: "elegant", theme: null });
    expect(asked("mine")).toEqual({ template: "classic", theme: "mine" });
  });
});
