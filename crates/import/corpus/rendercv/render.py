"""Renders a JSON Resume with RenderCV (PyPI `rendercv`, its Typst templates), as a RenderCV user's PDF:
`python render.py THEME RESUME.json OUT.pdf`. crates/import/tests/others.rs reads the PDF back.

The resume is written in RenderCV's own form, the way its documentation lays a CV out: the contacts RenderCV
has a place for, a section per JSON Resume section, jobs and volunteer posts as experience entries, schools
as education entries, one-line entries for skills, languages and interests. What RenderCV has no place for
(a label, a network it does not know, a publication's summary) is left out; the import's score counts a
field only where the PDF shows it.

RenderCV's templates import the Typst package `@preview/fontawesome`, which Typst would fetch from
packages.typst.org; the stand-in beside this file (typst/packages) is found first. Never shipped.
"""

import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
os.environ["XDG_DATA_HOME"] = str(HERE)
os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="rendercv-cache-"))

import json  # noqa: E402

from rendercv.api import create_a_pdf_from_a_python_dictionary  # noqa: E402

NETWORKS = {
    "linkedin": "LinkedIn",
    "github": "GitHub",
    "gitlab": "GitLab",
    "instagram": "Instagram",
    "orcid": "ORCID",
    "stackoverflow": "StackOverflow",
    "researchgate": "ResearchGate",
    "youtube": "YouTube",
    "telegram": "Telegram",
    "twitter": "X",
    "x": "X",
}


def month(date):
    """RenderCV's dates: YYYY-MM (it prints the month and year), or YYYY."""
    return date[:7] if date else None


def keep(entry):
    return {k: v for k, v in entry.items() if v not in (None, "", [])}


def span(item):
    start, end = month(item.get("startDate")), month(item.get("endDate"))
    if start and end == start:
        return {"date": start}
    return {"start_date": start, "end_date": end or ("present" if start else None)}


def location(place):
    if not place:
        return None
    return ", ".join(p for p in (place.get("city"), place.get("region")) if p) or None


def phone(number):
    digits = "".join(c for c in number or "" if c.isdigit() or c == "+")
    if not digits:
        return None
    return digits if digits.startswith("+") else "+1" + digits


def cv(resume):
    basics = resume.get("basics", {})
    out = keep(
        {
            "name": basics.get("name"),
            "location": location(basics.get("location")),
            "email": basics.get("email"),
            "phone": phone(basics.get("phone")),
            "website": basics.get("url"),
            "social_networks": [
                {"network": NETWORKS[p["network"].lower()], "username": p["username"]}
                for p in basics.get("profiles", [])
                if p.get("network", "").lower() in NETWORKS and p.get("username")
            ],
        }
    )
    sections = {}
    if basics.get("summary"):
        sections["summary"] = [basics["summary"]]
    for key, section, company in (
        ("work", "experience", "name"),
        ("volunteer", "volunteer", "organization"),
    ):
        entries = [
            keep(
                {
                    "company": item.get(company),
                    "position": item.get("position"),
                    "location": item.get("location"),
                    **span(item),
                    "summary": item.get("summary"),
                    "highlights": item.get("highlights"),
                }
            )
            for item in resume.get(key, [])
        ]
        if entries:
            sections[section] = entries
    education = [
        keep(
            {
                "institution": school.get("institution"),
                "area": school.get("area"),
                "degree": school.get("studyType"),
                "grade": school.get("score") and f"GPA: {school['score']}",
                **span(school),
                # " - " inside an item is RenderCV's mark for a nested bullet: a user writes the
                # sample's "DB1101 - Basic SQL" with a dash of another kind.
                "highlights": [c.replace(" - ", " – ") for c in school.get("courses", [])],
            }
        )
        for school in resume.get("education", [])
    ]
    if education:
        sections["education"] = education
    projects = [
        keep(
            {
                "name": project.get("name"),
                **span(project),
                "summary": project.get("description"),
                # RenderCV has no place for a project's keywords: its users list them as a highlight.
                "highlights": project.get("highlights", [])
                + (
                    ["Technologies: " + ", ".join(project["keywords"])]
                    if project.get("keywords")
                    else []
                ),
            }
        )
        for project in resume.get("projects", [])
    ]
    if projects:
        sections["projects"] = projects
    awards = [
        keep(
            {
                "name": award.get("title"),
                "location": award.get("awarder"),
                "date": month(award.get("date")),
                "summary": award.get("summary"),
            }
        )
        for award in resume.get("awards", [])
    ]
    if awards:
        sections["awards"] = awards
    publications = [
        keep(
            {
                "title": paper.get("name"),
                "authors": [basics.get("name") or "Anonymous"],
                "journal": paper.get("publisher"),
                "date": month(paper.get("releaseDate")),
                # RenderCV 2.3 writes a link's text into Typst markup unescaped: an underscore in it
                # (the sample's Wikipedia address) leaves an emphasis open and Typst refuses the file.
                "url": paper.get("url") if "_" not in paper.get("url", "") else None,
            }
        )
        for paper in resume.get("publications", [])
    ]
    if publications:
        sections["publications"] = publications
    for key, name in (("skills", "name"), ("interests", "name")):
        lines = [
            {"label": item[name], "details": ", ".join(item.get("keywords", []))}
            for item in resume.get(key, [])
            if item.get(name) and item.get("keywords")
        ]
        if lines:
            sections[key] = lines
    languages = [
        {"label": item["language"], "details": item["fluency"]}
        for item in resume.get("languages", [])
        if item.get("language") and item.get("fluency")
    ]
    if languages:
        sections["languages"] = languages
    references = [
        keep({"name": ref.get("name"), "summary": ref.get("reference")})
        for ref in resume.get("references", [])
        if ref.get("name")
    ]
    if references:
        sections["references"] = references
    out["sections"] = sections
    return out


def main():
    theme, source, pdf = sys.argv[1:4]
    resume = json.loads(pathlib.Path(source).read_text(encoding="utf-8"))
    document = {"cv": cv(resume), "design": {"theme": theme}}
    pdf = pathlib.Path(pdf).resolve()
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        create_a_pdf_from_a_python_dictionary(document, pdf)
    if not pdf.exists():
        sys.exit(f"RenderCV wrote no PDF for theme {theme}")


if __name__ == "__main__":
    main()
