import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import Fixture from "./Modal.fixture.svelte";

afterEach(cleanup);

describe("a dialog", () => {
  it("takes focus in, gives it back, and Escape closes only the topmost thing", async () => {
    const closed: string[] = [];
    render(Fixture, { closed });
    const open = screen.getByRole("button", { name: "Open" });
    open.focus();
    await fireEvent.click(open);
    // Focus moved in: to the dialog's first control.
    const field = screen.getByRole("textbox", { name: "Field" });
    expect(document.activeElement).toBe(field);
    expect(field.closest("dialog")?.getAttribute("aria-labelledby")).toBe("outer-title");
    // A field that takes Escape for itself keeps the dialog open.
    await fireEvent.keyDown(field, { key: "Escape" });
    expect(closed).toEqual([]);
    // A second dialog over the first: Escape closes it alone, and focus returns to what opened it.
    const more = screen.getByRole("button", { name: "More" });
    more.focus();
    await fireEvent.click(more);
    const inner = screen.getByRole("button", { name: "Inner button" });
    expect(document.activeElement).toBe(inner);
    await fireEvent.keyDown(inner, { key: "Escape" });
    expect(closed).toEqual(["inner"]);
    expect(document.activeElement).toBe(more);
    await fireEvent.keyDown(more, { key: "Escape" });
    expect(closed).toEqual(["inner", "outer"]);
    expect(document.activeElement).toBe(open);
  });
});
