import { cleanup, render, screen, within } from "@testing-library/svelte";
import { afterEach, describe, expect, it } from "vitest";
import sample from "../../../assets/sample.resume.json";
import type { Resume } from "../lib/resume";
import ResumeView from "./ResumeView.svelte";

// The sample has no certificates; a full resume adds them so that every section of the schema is seen.
const full: Resume = {
  ...(sample as Resume),
  certificates: [{ name: "CKA", issuer: "CNCF", date: "2021-03-04", url: "https://example.com/cka" }],
};

const SECTIONS = [
  "work", "volunteer", "education", "awards", "certificates", "publications",
  "skills", "languages", "interests", "references", "projects",
];

afterEach(cleanup);

describe("resume view", () => {
  it("renders every section of JSON Resume", () => {
    render(ResumeView, { resume: full });
    expect(screen.getByTestId("basics-name").textContent).toBe("Richard Hendriks");
    expect(screen.getByTestId("basics-location").textContent).toBe("San Francisco, California, US");
    expect(screen.getByTestId("basics-profile-1").textContent).toContain("dandymusicnl");
    for (const id of SECTIONS) expect(screen.getByTestId(`section-${id}`).textContent?.trim()).not.toBe("");
    expect(screen.getByTestId("work-0-title").textContent?.trim()).toBe("CEO/President");
    expect(screen.getByTestId("work-0-subtitle").textContent).toBe("Pied Piper");
    expect(screen.getByTestId("work-0-dates").textContent).toBe("Dec 2013 – Dec 2014");
    expect(screen.getByTestId("skills-1-keyword-2").textContent).toBe("GIF");
    expect(screen.getByTestId("certificates-0-subtitle").textContent).toBe("CNCF");
    expect(screen.getByTestId("section-projects").textContent).toContain("Won award at AIHacks 2016");
  });

  it("on the window's first frame draws the top of the resume, and the rest once asked", async () => {
    // (App.svelte: the first three sections until the first paint, then all.)
    const { rerender } = render(ResumeView, { resume: full, first: 2 });
    const drawn = () => SECTIONS.filter((id) => screen.queryByTestId(`section-${id}`) !== null);
    expect(screen.getByTestId("basics-name").textContent).toBe("Richard Hendriks");
    expect(drawn()).toEqual(["work", "volunteer"]);
    await rerender({ resume: full, first: undefined });
    expect(drawn()).toEqual(SECTIONS);
  });

  it("counts only the sections that have entries among the first", () => {
    render(ResumeView, { resume: { ...full, work: [], volunteer: undefined }, first: 2 });
    expect(SECTIONS.filter((id) => screen.queryByTestId(`section-${id}`) !== null)).toEqual(["education", "awards"]);
  });

  it("gives each field of the resume its own direction, as the exports do", () => {
    // In an Arabic resume an English summary reads left to right with its "!" at its end, a phone number
    // "(912) 555-4321"; an Arabic bullet in an English resume right to left. What is left in the resume's
    // direction is the resume's own words: section headings and dates.
    render(ResumeView, { resume: { ...full, meta: { language: "ar" } } });
    const root = screen.getByTestId("resume");
    expect(root.dir).toBe("rtl");
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const left: string[] = [];
    let fields = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      if (!/\p{L}|\d/u.test(text)) continue;
      const own = node.parentElement?.closest("[dir]");
      if (own === root) left.push(text);
      else fields += 1;
    }
    const words = [...root.querySelectorAll("h2, .dates")].map((e) => e.textContent?.trim() ?? "");
    expect(left.filter((t) => !words.some((w) => w.includes(t)))).toEqual([]);
    expect(fields).toBeGreaterThan(60);
    expect(screen.getByTestId("basics-phone").dir).toBe("ltr");
    expect(screen.getByTestId("basics-email").dir).toBe("auto");
  });

  it("separates a list on one line as the resume's language writes it, as the exports do", () => {
    // Latin words keep ", " in an Arabic resume (the list reads left to right); Arabic ones take "، ".
    const arabic: Resume = {
      ...full,
      basics: { ...full.basics, location: { city: "دبي", region: "الخليج", countryCode: "AE" } },
      projects: [{ ...full.projects?.[0], roles: ["قائد", "مصمم"] }],
    };
    for (const [resume, language, comma] of [
      [full, "ja", "、"], [full, "de", ", "], [full, "ar", ", "], [arabic, "ar", "، "], [arabic, "en", ", "],
    ] as const) {
      render(ResumeView, { resume: { ...resume, meta: { language } } });
      const [place, roles] = resume === arabic
        ? [["دبي", "الخليج", "AE"], ["قائد", "مصمم"]]
        : [["San Francisco", "California", "US"], ["Team lead", "Designer"]];
      expect(screen.getByTestId("basics-location").textContent).toBe(place.join(comma));
      expect(screen.getByTestId("section-projects").textContent).toContain(roles.join(comma));
      if (resume === full) expect(screen.getByTestId("basics-address").textContent).toBe(["2712 Broadway St", "CA 94115"].join(comma));
      cleanup();
    }
  });

  it("leaves out missing and empty sections", () => {
    render(ResumeView, { resume: { basics: { name: "Ada" }, work: [], skills: [{ name: "Rust" }] } });
    expect(screen.queryByTestId("section-work")).toBeNull();
    expect(screen.queryByTestId("section-education")).toBeNull();
    expect(screen.getByTestId("section-skills").textContent).toContain("Rust");
  });

  it("shows markup in a field as text", () => {
    render(ResumeView, { resume: { basics: { name: "<b>Ada</b>", summary: "<script>alert(1)</script>" } } });
    expect(screen.getByTestId("basics-name").textContent).toBe("<b>Ada</b>");
    expect(screen.getByTestId("basics-name").querySelector("b")).toBeNull();
    expect(document.querySelector("script")).toBeNull();
  });
});
