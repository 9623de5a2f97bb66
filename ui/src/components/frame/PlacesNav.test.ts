import { cleanup, fireEvent, render, screen, within } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import type { DocumentRow } from "../../bindings/DocumentRow";
import { resumesPlace, type PlaceItem } from "../../lib/places";
import PlacesNav from "./PlacesNav.svelte";

afterEach(cleanup);

function row(id: number, title: string, extra: Partial<DocumentRow> = {}): DocumentRow {
  return { id, title, name: "", updatedAt: 0, revision: 1, current: false, demo: false, variantOf: null, problem: null, kind: "resume", ...extra };
}

const rows = [
  row(1, "Ada — Analyst", { current: true }),
  row(2, "Ada — Analyst — for Hooli", { variantOf: "Ada — Analyst" }),
  row(3, "Grace", { problem: "The file is damaged." }),
];

describe("the navigation", () => {
  it("lists the places it has, and no other: the resumes, a variant nested under its original", () => {
    render(PlacesNav, { places: [resumesPlace(rows)], onopen: () => {}, ondocuments: () => {} });
    const nav = screen.getByRole("navigation", { name: "Places" });
    expect(within(nav).getAllByRole("heading").map((h) => h.textContent?.trim())).toEqual(["Resumes"]);
    const resumes = within(nav).getByRole("list", { name: "Resumes" });
    const top = [...resumes.children].map((li) => li.querySelector("button")?.textContent?.trim());
    expect(top).toEqual(["Ada — Analyst", "Grace"]);
    const variants = within(nav).getByRole("list", { name: "Variants of Ada — Analyst" });
    expect(within(variants).getByRole("button").textContent?.trim()).toBe("for Hooli");
    expect(within(variants).getByRole("button").getAttribute("title")).toBe("Ada — Analyst — for Hooli");
  });

  it("marks the resume on screen, opens another, and cannot open one that is damaged (it says why)", async () => {
    const opened: [string, PlaceItem][] = [];
    render(PlacesNav, { places: [resumesPlace(rows)], onopen: (p: string, i: PlaceItem) => opened.push([p, i]), ondocuments: () => {} });
    const [ada, hooli, grace] = screen.getAllByTestId("place-item") as HTMLButtonElement[];
    expect(ada!.getAttribute("aria-current")).toBe("page");
    expect(hooli!.hasAttribute("aria-current")).toBe(false);
    await fireEvent.click(ada!);
    expect(opened).toEqual([]);
    await fireEvent.click(hooli!);
    expect(opened.map(([p, i]) => [p, i.id])).toEqual([["resumes", 2]]);
    expect(grace!.disabled).toBe(true);
    expect(grace!.title).toBe("The file is damaged.");
  });

  it("says when a place is being read or holds nothing, and opens the Documents dialog", async () => {
    let asked = 0;
    const { rerender } = render(PlacesNav, { places: [resumesPlace(null)], onopen: () => {}, ondocuments: () => asked++ });
    expect(screen.getByRole("status").textContent).toBe("Reading…");
    await rerender({ places: [resumesPlace([])] });
    expect(screen.getByText("No resumes yet.")).toBeTruthy();
    await rerender({ places: [resumesPlace(null, "The store is locked.")] });
    expect(screen.getByRole("alert").textContent).toBe("The store is locked.");
    expect(screen.queryByRole("status")).toBeNull();
    await fireEvent.click(screen.getByRole("button", { name: "Documents" }));
    expect(asked).toBe(1);
    expect(screen.getByTestId("open-documents").getAttribute("aria-describedby")).toBeTruthy();
  });
});
