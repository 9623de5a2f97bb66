import { cleanup, fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import LetterDialog from "./LetterDialog.svelte";

afterEach(cleanup);

describe("write a cover letter", () => {
  it("waits for a posting, then hands it to the owner to write the letter", async () => {
    const asked: string[] = [];
    render(LetterDialog, { onclose: () => {}, onwrite: (p: string) => asked.push(p), resumeTitle: "Ada — Analyst" });
    const write = screen.getByTestId("letter-write") as HTMLButtonElement;
    expect(write.disabled).toBe(true);
    await fireEvent.input(screen.getByTestId("letter-posting"), { target: { value: "   " } });
    expect(write.disabled).toBe(true);
    await fireEvent.input(screen.getByTestId("letter-posting"), { target: { value: "Hooli — Senior Engineer" } });
    expect(write.disabled).toBe(false);
    await fireEvent.click(write);
    expect(asked).toEqual(["Hooli — Senior Engineer"]);
    expect(screen.getByTestId("letter-dialog").textContent).toContain("“Ada — Analyst”");
  });

  it("closes without writing", async () => {
    let closed = 0;
    const asked: string[] = [];
    render(LetterDialog, { onclose: () => (closed += 1), onwrite: (p: string) => asked.push(p), resumeTitle: "Ada" });
    await fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(closed).toBe(1);
    expect(asked).toEqual([]);
  });
});
