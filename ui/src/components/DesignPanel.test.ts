import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { afterEach, describe, expect, it, vi } from "vitest";

const calls: { set: unknown[][]; thumbs: string[]; fit: unknown[][]; photo: unknown[][] } = { set: [], thumbs: [], fit: [], photo: [] };
const state = { documentId: 1, revision: 2, title: "R", demo: false, undo: null, redo: null };

vi.mock("../lib/backend", () => ({
  errorMessage: (err: unknown) => String((err as { message?: string }).message ?? err),
  designs: async () => [
    { name: "classic", label: "Classic", description: "", builtIn: true },
    { name: "mine", label: "Mine", description: "made from Modern", builtIn: false },
  ],
  designThumbnail: async (template: string) => {
    calls.thumbs.push(template);
    return `blob:${template}`;
  },
  setDesign: async (base: number, design: unknown) => {
    calls.set.push([base, design]);
    return state;
  },
  choosePhoto: async (base: number, path: string | null) => {
    calls.photo.push(["choose", base, path]);
    return null;
  },
  removePhoto: async (base: number) => {
    calls.photo.push(["remove", base]);
    return state;
  },
  documentState: async () => {
    calls.photo.push(["state"]);
    return state;
  },
  fitPages: async (base: number, pages: number) => {
    calls.fit.push([base, pages]);
    return { state, summary: "Fitted to one page: spacing 0.8", fit: { fits: true, cut: [] } };
  },
}));

import DesignPanel from "./DesignPanel.svelte";

afterEach(() => {
  cleanup();
  calls.set.length = 0;
  calls.thumbs.length = 0;
  calls.fit.length = 0;
  calls.photo.length = 0;
});

const resume = { basics: { name: "R" }, work: [{ name: "Pied Piper" }], interests: [{ name: "Chess" }], meta: { design: { template: "modern", accent: "#003366" } } };
const onchange = async (act: () => Promise<unknown>) => {
  await act();
};

describe("the design panel", () => {
  it("shows every design as a thumbnail of this resume, the one it keeps pressed", async () => {
    render(DesignPanel, { resume, revision: 7, onclose: () => {}, onchange });
    await waitFor(() => expect(calls.thumbs.length).toBe(8));
    expect(screen.getByTestId("design-modern").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("design-classic").getAttribute("aria-pressed")).toBe("false");
    await waitFor(() => expect(screen.getByTestId("design-elegant").querySelector("img")?.getAttribute("src")).toBe("blob:elegant"));
    expect(await screen.findByText(/— in Pages and Export/)).toBeTruthy();
  });

  it("makes each choice a revision from the one on screen, keeping the other options", async () => {
    render(DesignPanel, { resume, revision: 7, onclose: () => {}, onchange });
    await fireEvent.click(screen.getByTestId("design-elegant"));
    await fireEvent.change(screen.getByTestId("design-size"), { target: { value: "10.5" } });
    await fireEvent.change(screen.getByTestId("design-font"), { target: { value: "carlito" } });
    await fireEvent.change(screen.getByTestId("design-dates"), { target: { value: "numeric" } });
    expect(calls.set).toEqual([
      [7, { template: "elegant", accent: "#003366" }],
      [7, { template: "modern", accent: "#003366", size: 10.5 }],
      [7, { template: "modern", accent: "#003366", font: "carlito" }],
      [7, { template: "modern", accent: "#003366", dates: "numeric" }],
    ]);
  });

  it("starts the colour field at the design's own accent when the resume keeps none", async () => {
    render(DesignPanel, { resume: { basics: {}, meta: { design: { template: "elegant" } } }, revision: 7, onclose: () => {}, onchange });
    expect((screen.getByTestId("design-accent") as HTMLInputElement).value).toBe("#7a5c2e");
  });

  it("hides a section and shows it again, as the design keeps it", async () => {
    render(DesignPanel, { resume, revision: 7, onclose: () => {}, onchange });
    expect(screen.queryByTestId("design-show-education")).toBeNull();
    await fireEvent.click(screen.getByTestId("design-show-interests"));
    expect(calls.set.at(-1)).toEqual([7, { template: "modern", accent: "#003366", sections: { hide: ["interests"] } }]);
  });

  it("refuses a size out of its bounds in words, and changes nothing", async () => {
    render(DesignPanel, { resume, revision: 7, onclose: () => {}, onchange });
    await fireEvent.change(screen.getByTestId("design-size"), { target: { value: "30" } });
    expect(screen.getByTestId("design-problem").textContent).toContain("between 9 and 12");
    expect(calls.set).toEqual([]);
  });

  it("fits to one page and says what it did", async () => {
    render(DesignPanel, { resume, revision: 7, onclose: () => {}, onchange });
    await fireEvent.click(screen.getByTestId("design-fit"));
    expect((await screen.findByTestId("design-said")).textContent).toBe("Fitted to one page: spacing 0.8.");
    expect(calls.fit).toEqual([[7, 1]]);
  });

  it("shows the photo the resume keeps, hides it as a design option, and removes it", async () => {
    const url = "data:image/jpeg;base64,/9j/4AAQ";
    render(DesignPanel, { resume: { ...resume, basics: { name: "R", image: url } }, revision: 7, onclose: () => {}, onchange });
    expect(screen.getByTestId("design-photo-image").getAttribute("src")).toBe(url);
    expect(screen.getByTestId("design-photo-choose").textContent?.trim()).toBe("Change photo…");
    await fireEvent.click(screen.getByTestId("design-photo-show"));
    expect(calls.set).toEqual([[7, { template: "modern", accent: "#003366", photo: false }]]);
    await fireEvent.click(screen.getByTestId("design-photo-remove"));
    expect(calls.photo).toEqual([["remove", 7]]);
  });

  it("chooses a photo in the system's dialog, and a cancelled choice changes nothing", async () => {
    render(DesignPanel, { resume, revision: 7, onclose: () => {}, onchange });
    expect(screen.queryByTestId("design-photo-remove")).toBeNull();
    await fireEvent.click(screen.getByTestId("design-photo-choose"));
    await waitFor(() => expect(calls.photo).toEqual([["choose", 7, null], ["state"]]));
  });

  it("says why a web address is not drawn, and never shows it", () => {
    render(DesignPanel, { resume: { ...resume, basics: { image: "https://tracker.example/me.png" } }, revision: 7, onclose: () => {}, onchange });
    expect(screen.getByTestId("design-photo-why").textContent).toMatch(/never fetches/);
    expect(screen.queryByTestId("design-photo-image")).toBeNull();
  });
});
