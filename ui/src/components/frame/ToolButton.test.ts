import { cleanup, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import type { WindowAction } from "../../lib/actions";
import Painted from "./Painted.fixture.svelte";

afterEach(cleanup);

const undo: WindowAction = { id: "undo", label: "Undo", group: "Edit", shortcut: "CmdOrCtrl+Z", run: () => {} };

describe("a toolbar button before and after the window's first paint", () => {
  it("builds its tooltip only once the first frame is painted, and is usable before", async () => {
    const { rerender } = render(Painted, { painted: false, action: undo });
    const button = screen.getByRole("button", { name: "Undo" });
    expect(button.getAttribute("aria-keyshortcuts")).toBe("Control+Z");
    expect(screen.queryByRole("tooltip", { hidden: true })).toBeNull();
    await rerender({ painted: true, action: undo });
    expect(screen.getByRole("tooltip", { hidden: true }).textContent).toContain("Undo (Ctrl+Z)");
    // Its description, what it would do now, is there for a screen reader from then on.
    expect(button.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(button.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Add Rust to your skills",
    );
  });
});
