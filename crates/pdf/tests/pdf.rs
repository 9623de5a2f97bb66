//! PDFs of the sample and of the resumes written for the export tests (long, Japanese/Arabic/Hebrew,
//! empty sections), in every template, read back with poppler's tools as an applicant-tracking system
//! would: `pdffonts` (every font embedded, with a Unicode map), `pdftotext` (every text field present,
//! under its own section heading, in document order), `pdfinfo` (tagged, title set, a sensible page count).

use std::path::{Path, PathBuf};

use redline_resume::design::arranged;
use redline_resume::export::{Page, Template};
use serde_json::{Value, json};

#[path = "../../resume/tests/common/mod.rs"]
mod common;
use common::resumes;
mod tools;
use tools::tool;

/// Text as pdftotext gives it back, made comparable: whitespace collapsed, bidi marks dropped, hyphens
/// dropped (pdftotext joins a word broken after its hyphen, `length-` + `limited` → `lengthlimited`), the
/// Arabic lam and alef forms dropped (it writes the lam-alef ligature's letters in the wrong order), and full
/// stops dropped (it writes a right-to-left paragraph's full stop first, where it is drawn).
fn comparable(text: &str) -> String {
    let kept: String = text
        .chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{200e}' | '\u{200f}' | '\u{202a}'
                    ..='\u{202e}' | '-' | '.' | 'ل' | 'ا' | 'أ' | 'إ' | 'آ'
            )
        })
        .collect();
    let mut out = String::from(" ");
    out.push_str(&kept.split_whitespace().collect::<Vec<_>>().join(" "));
    out.push(' ');
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `resume` (in `language`) as an A4 PDF in `template`, written to `dir/LANGUAGE-TEMPLATE.pdf`: what it is
/// ("language/template") and where.
fn a4_pdf(dir: &Path, language: &str, resume: &Value, template: Template) -> (String, PathBuf) {
    let bytes = redline_pdf::pdf(resume, template, Page::A4).unwrap();
    let path = write(dir, &format!("{language}-{}.pdf", template.name()), &bytes);
    (format!("{language}/{}", template.name()), path)
}

/// The sample resume, in `language`.
fn sample_in(language: &str) -> Value {
    let mut resume = redline_resume::sample();
    resume["meta"] = json!({ "language": language });
    resume
}

/// `text` without its whitespace and the direction marks poppler puts around each right-to-left run.
fn letters(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !('\u{202a}'..='\u{202e}').contains(c))
        .collect()
}

/// The text of the PDF at `path` cropped to its pages (text drawn off a page is not read).
fn cropped_text(path: &Path) -> String {
    tool("pdftotext", &["-cropbox", path.to_str().unwrap(), "-"])
}

/// How many pages `pdfinfo` counts in the PDF at `path`.
fn page_count(path: &Path) -> usize {
    let info = tool("pdfinfo", &[path.to_str().unwrap()]);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

/// The designs case `case` of a test is made in: classic and modern (every case, as before the gallery) and
/// one of the others in turn, so that every test meets every design without laying every case out in each
/// (a layout in a test build takes a while; the ATS test makes every design in every language).
fn designs(case: usize) -> [Template; 3] {
    [
        Template::Classic,
        Template::Modern,
        Template::ALL[2 + case % (Template::ALL.len() - 2)],
    ]
}

/// Each of `cases` in its designs ([`designs`]) on both papers, read back by `pdftotext` with `options`: `check` gets
/// what it is ("name/template/paper") and the text read.
fn each_read_back(cases: &[(String, Value)], options: &[&str], mut check: impl FnMut(&str, &str)) {
    let dir = tempfile::tempdir().unwrap();
    for (i, (name, resume)) in cases.iter().enumerate() {
        for template in designs(i) {
            for page in [Page::A4, Page::Letter] {
                let bytes = redline_pdf::pdf(resume, template, page).unwrap();
                let path = write(dir.path(), "read-back.pdf", &bytes);
                let mut args = options.to_vec();
                args.extend([path.to_str().unwrap(), "-"]);
                check(
                    &format!("{name}/{}/{page:?}", template.name()),
                    &tool("pdftotext", &args),
                );
            }
        }
    }
}

#[test]
fn every_field_is_readable_fonts_are_embedded_and_the_pdf_is_tagged() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (name, resume)) in resumes().into_iter().enumerate() {
        for template in designs(i) {
            for page in [Page::A4, Page::Letter] {
                let what = format!("{name}/{}/{page:?}", template.name());
                let pdf = redline_pdf::pdf(&resume, template, page).unwrap();
                let path = write(dir.path(), &format!("{name}-{}.pdf", template.name()), &pdf);
                let path = path.to_str().unwrap();

                let fonts = tool("pdffonts", &[path]);
                let rows: Vec<&str> = fonts.lines().skip(2).collect();
                assert!(!rows.is_empty(), "{what}: no fonts");
                for row in rows {
                    let cols: Vec<&str> = row.split_whitespace().collect();
                    let (emb, uni) = (cols[cols.len() - 5], cols[cols.len() - 3]);
                    assert_eq!((emb, uni), ("yes", "yes"), "{what}: {row}");
                }

                let info = tool("pdfinfo", &[path]);
                let field = |key: &str| {
                    info.lines()
                        .find_map(|l| l.strip_prefix(key).map(str::trim))
                        .unwrap_or_default()
                        .to_owned()
                };
                assert_eq!(field("Tagged:"), "yes", "{what}");
                let (header, sections) = arranged(&resume, template);
                assert_eq!(
                    field("Title:"),
                    format!("{} — Resume", header.name),
                    "{what}"
                );
                assert_eq!(field("Author:"), header.name, "{what}");
                let pages: usize = field("Pages:").parse().unwrap();
                let sensible = match name.as_str() {
                    "long" => 3..=8,
                    "empty-sections" => 1..=1,
                    _ => 1..=3,
                };
                assert!(sensible.contains(&pages), "{what}: {pages} pages");
                let size = field("Page size:");
                let expected = if page == Page::A4 { "(A4)" } else { "(letter)" };
                assert!(size.contains(expected), "{what}: {size}");

                let text = comparable(&tool("pdftotext", &[path, "-"]));
                let mut at = 0;
                let mut find = |needle: &str, what_is: &str| {
                    let needle = comparable(needle);
                    let needle = needle.trim();
                    if needle.is_empty() {
                        return;
                    }
                    match text[at..].find(needle) {
                        Some(found) => at += found + needle.len(),
                        None => panic!("{what}: {what_is} {needle:?} missing or out of order"),
                    }
                };
                for t in [&header.name, &header.label, &header.summary] {
                    find(t, "header text");
                }
                for s in &sections {
                    find(&format!(" {} ", s.heading), "heading");
                    for e in &s.entries {
                        for t in [&e.title, &e.dates, &e.subtitle, &e.location] {
                            find(t, "field");
                        }
                        if let Some(u) = &e.url {
                            find(&u.text, "link");
                        }
                        find(&e.summary, "summary");
                        for t in e.bullets.iter().chain(&e.keywords) {
                            find(t, "item");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn links_are_clickable_and_markup_stays_text() {
    let mut resume = redline_resume::sample();
    resume["basics"]["summary"] =
        Value::String("#set text(red) *bold?* <b>tag</b> $x$ @ref".into());
    let pdf = redline_pdf::pdf(&resume, Template::Modern, Page::A4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "r.pdf", &pdf);
    let text = tool("pdftotext", &[path.to_str().unwrap(), "-"]);
    assert!(
        text.contains("#set text(red) *bold?* <b>tag</b> $x$ @ref"),
        "{text}"
    );
    // Link annotations with their targets.
    let raw = String::from_utf8_lossy(&pdf);
    assert!(raw.contains("/URI") && raw.contains("http://richardhendricks.example.com"));
}

#[test]
fn the_ats_check_reads_every_field_back_in_order_in_every_language() {
    use redline_resume::words::Language;
    let mut cases = resumes();
    for language in Language::ALL {
        let mut resume = redline_resume::sample();
        resume["meta"] = serde_json::json!({ "language": language.tag() });
        cases.push((format!("sample-{}", language.tag()), resume));
    }
    let languages = Language::ALL.len();
    let count = cases.len();
    for (i, (name, resume)) in cases.into_iter().enumerate() {
        // Every design in each of the eight languages; the other cases in theirs.
        let templates = if i >= count - languages {
            Template::ALL.to_vec()
        } else {
            designs(i).to_vec()
        };
        for template in templates {
            let page = if name.len() % 2 == 0 {
                Page::A4
            } else {
                Page::Letter
            };
            let what = format!("{name}/{}", template.name());
            let report = redline_pdf::ats::check(&resume, template, page).unwrap();
            assert!(
                report.clean(),
                "{what}: missing {:?}, out of order {:?}",
                report.missing,
                report.out_of_order
            );
            let (_, sections) = arranged(&resume, template);
            let read: Vec<&str> = report.sections.iter().map(|s| s.id.as_str()).collect();
            let mut want = vec!["basics"];
            want.extend(sections.iter().map(|s| s.id));
            assert_eq!(read, want, "{what}");
            for (s, text) in sections.iter().zip(&report.sections[1..]) {
                assert_eq!(text.heading, s.heading, "{what}");
                let first = redline_pdf::ats::letters(&s.entries[0].title);
                let (read, reversed) = (
                    redline_pdf::ats::letters(&text.text),
                    redline_pdf::ats::letters(&text.text.chars().rev().collect::<String>()),
                );
                assert!(
                    read.contains(&first) || reversed.contains(&first),
                    "{what}: {:?} not in {:?}",
                    s.entries[0].title,
                    text.text
                );
            }
            assert!(report.pages >= 1);
        }
    }
}

#[test]
fn the_ats_check_finds_what_is_missing_and_what_is_out_of_order() {
    let resume = redline_resume::sample();
    let pdf = redline_pdf::pdf(&resume, Template::Classic, Page::A4).unwrap();

    // The resume has a highlight the PDF was made without.
    let mut more = resume.clone();
    more["work"][0]["highlights"]
        .as_array_mut()
        .unwrap()
        .push("Shipped the compression engine to 40 million phones".into());
    let report = redline_pdf::ats::read(&pdf, &more).unwrap();
    assert!(!report.clean());
    assert_eq!(report.missing.len(), 1, "{:?}", report.missing);
    assert_eq!(report.missing[0].section, "work");
    assert_eq!(report.missing[0].field, "item");
    assert!(report.out_of_order.is_empty(), "{:?}", report.out_of_order);

    // The PDF puts the skills before the work: read against the resume, whichever comes second is out of
    // order, and nothing is missing.
    let mut reordered = serde_json::Map::new();
    for (key, value) in resume.as_object().unwrap() {
        if key != "work" {
            reordered.insert(key.clone(), value.clone());
        }
    }
    let mut moved = Value::Object(reordered);
    let work = resume["work"].clone();
    moved["awards"] = work; // The jobs, printed where the awards go: after education.
    let pdf = redline_pdf::pdf(&moved, Template::Modern, Page::A4).unwrap();
    let report = redline_pdf::ats::read(&pdf, &resume).unwrap();
    assert!(
        report
            .missing
            .iter()
            .any(|f| f.field == "heading" && f.section == "work"),
        "{report:?}"
    );
    assert!(!report.out_of_order.is_empty(), "{report:?}");
}

#[test]
fn a_pdf_that_cannot_be_read_is_an_error_not_a_crash() {
    let resume = redline_resume::sample();
    let good = redline_pdf::pdf(&resume, Template::Classic, Page::A4).unwrap();
    for bad in [
        b"".to_vec(),
        b"%PDF-1.7\n%garbage\n".to_vec(),
        good[..good.len() / 2].to_vec(),
        good.iter().map(|b| b ^ 0x5a).collect(),
    ] {
        assert!(redline_pdf::ats::read(&bad, &resume).is_err());
    }
}

#[test]
fn the_pages_are_drawn_as_the_pdf_prints_them() {
    let dir = common::dir();
    let long: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("long.json")).unwrap()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for (resume, page, width_pt) in [
        (redline_resume::sample(), Page::A4, 595.28_f32),
        (long, Page::Letter, 612.0),
    ] {
        let (images, count) =
            redline_pdf::page_images(&resume, Template::Classic, page, 1.5).unwrap();
        let pdf = redline_pdf::pdf(&resume, Template::Classic, page).unwrap();
        let path = write(tmp.path(), "p.pdf", &pdf);
        let pages = page_count(&path);
        assert_eq!(
            (images.len(), count),
            (pages, pages),
            "one image per printed page"
        );
        for png in images.iter().map(|i| &i.png) {
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
            let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
            assert_eq!(width, (width_pt * 1.5).round() as u32);
            assert!(
                png.len() > 10_000,
                "a page with text on it, not a blank one"
            );
        }
    }
}

/// A page whose layout did not change is not drawn again: editing the last entry of a resume of several
/// pages draws its last page anew and hands back the first as it was.
#[test]
fn only_the_pages_that_changed_are_drawn_again() {
    let dir = common::dir();
    let mut long: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("long.json")).unwrap()).unwrap();
    let mut drawer = redline_pdf::PageDrawer::default();
    let (before, count) = drawer
        .draw(&long, Template::Classic, Page::A4, 1.5)
        .unwrap();
    assert!(count >= 2, "the long resume runs to {count} page(s)");
    let (again, _) = drawer
        .draw(&long, Template::Classic, Page::A4, 1.5)
        .unwrap();
    for (a, b) in before.iter().zip(&again) {
        assert_eq!(a.key, b.key);
        assert!(std::sync::Arc::ptr_eq(&a.png, &b.png), "drawn again");
    }
    let last = long["work"].as_array().unwrap().len() - 1;
    long["work"][last]["summary"] = json!("Wrote a new last line, on the last page.");
    let (after, _) = drawer
        .draw(&long, Template::Classic, Page::A4, 1.5)
        .unwrap();
    assert!(std::sync::Arc::ptr_eq(&before[0].png, &after[0].png));
    assert_ne!(before.last().unwrap().key, after.last().unwrap().key);
    assert_ne!(before.last().unwrap().png, after.last().unwrap().png);
    // Another scale is another drawing.
    let (bigger, _) = drawer
        .draw(&long, Template::Classic, Page::A4, 2.0)
        .unwrap();
    assert_ne!(bigger[0].key, after[0].key);
    // A fresh drawer's pages are the same pixels as the kept ones.
    let (fresh, _) = redline_pdf::page_images(&long, Template::Classic, Page::A4, 1.5).unwrap();
    assert_eq!(fresh[0].png, after[0].png);
}

#[test]
fn a_contact_reads_whole_in_a_right_to_left_resume() {
    // Read back with pdftotext, which puts a right-to-left line's pieces in reading order. Before the contacts
    // were boxed, the Arabic header read "555-4321 )912(" and "Broadway St, 2712".
    let dir = tempfile::tempdir().unwrap();
    for (i, language) in ["ar", "he", "en"].into_iter().enumerate() {
        let resume = sample_in(language);
        for template in designs(i) {
            let (what, path) = a4_pdf(dir.path(), language, &resume, template);
            let text = tool("pdftotext", &["-l", "1", path.to_str().unwrap(), "-"]);
            for contact in [
                "(912) 555-4321",
                "2712 Broadway St",
                "richard.hendriks@mail.com",
            ] {
                assert!(
                    text.contains(contact),
                    "{what}: {contact:?} not read whole in\n{text}"
                );
            }
        }
    }
}

#[test]
fn keywords_are_separated_as_the_resume_s_language_writes_a_list() {
    // ", " in English, the ideographic "、" in Japanese and Chinese, the Arabic "،" in Arabic where the list
    // reads right to left (Latin keywords in an Arabic resume keep ","): read back with pdftotext, spaces
    // left out. Before, every language had the English comma ("HTML,CSS,Javascript" in all of them).
    let dir = tempfile::tempdir().unwrap();
    let arabic = ["بايثون", "جافا", "لينكس"];
    for (i, (language, comma)) in [("en", ","), ("ja", "、"), ("zh", "、"), ("ar", "،")]
        .into_iter()
        .enumerate()
    {
        let mut resume = sample_in(language);
        resume["skills"][1]["keywords"] = json!(arabic);
        for template in designs(i) {
            let (what, path) = a4_pdf(dir.path(), language, &resume, template);
            // (Without the direction marks poppler puts around each right-to-left run.)
            let text = letters(&tool("pdftotext", &[path.to_str().unwrap(), "-"]));
            // Latin keywords read left to right; in the Arabic resume they are laid out right to left, the
            // first at the right, and are read back the other way round.
            let mut latin = ["HTML", "CSS", "Javascript"];
            let latin_comma = if language == "ar" {
                latin.reverse();
                ","
            } else {
                comma
            };
            let line = latin.join(latin_comma);
            assert!(text.contains(&line), "{what}: {line:?} not in\n{text}");
            // Arabic keywords read right to left, as a run of their own in a left-to-right resume: poppler
            // gives them in either order.
            let (line, mut backwards) = (arabic.join(comma), arabic);
            backwards.reverse();
            assert!(
                text.contains(&line) || text.contains(&backwards.join(comma)),
                "{what}: {line:?} not in\n{text}"
            );
        }
    }
}

#[test]
fn a_hostile_contact_neither_breaks_the_pdf_nor_runs_off_the_page() {
    // The widest contact still boxed (60 full-width characters, wider than the line: it wraps inside its box),
    // a huge one (left free to wrap) and a huge link, in a right-to-left resume and a left-to-right one: the
    // PDF is made, stays a few pages, and every character is read back from inside the pages.
    let dir = tempfile::tempdir().unwrap();
    let wide = "Ｗ".repeat(60);
    let huge = "0123456789 ".repeat(2_000);
    for (i, language) in ["ar", "en"].into_iter().enumerate() {
        let mut resume = sample_in(language);
        resume["basics"]["phone"] = json!(wide);
        // An email as long as a model may write one: too long for a PDF's link (Typst refuses one of more
        // than 8,000 bytes, and the PDF failed), shown as text.
        resume["basics"]["email"] = json!(format!("{}@example.com", "e".repeat(7_990)));
        resume["basics"]["location"]["city"] = json!(huge);
        // A link of 6,600 characters, taller than a page once wrapped: no longer boxed, it breaks across pages.
        resume["basics"]["url"] =
            json!(format!("http://example.com/{}", "abcdefghij/".repeat(600)));
        // Classic and modern in both cases, each other design in one: half of them right to left.
        let templates = Template::ALL
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| k < 2 || k / 4 == i)
            .map(|(_, t)| t);
        for template in templates {
            let (what, path) = a4_pdf(dir.path(), language, &resume, template);
            let pages = page_count(&path);
            // (In the sidebar's band, a quarter of the page's width, the huge contact takes some pages.)
            let most = if template == Template::Sidebar {
                30
            } else {
                10
            };
            assert!((2..=most).contains(&pages), "{what}: {pages} pages");
            // Cropped to the page: text drawn off it would not be read.
            let text = cropped_text(&path);
            let wides = text.matches('Ｗ').count();
            assert_eq!(
                wides, 60,
                "{what}: {wides} of the wide contact's 60 characters read"
            );
            let es = text.matches('e').count();
            assert!(
                es >= 7_990,
                "{what}: {es} of the long email's 7990 e's read"
            );
            let runs = text.matches("abcdefghij").count();
            assert_eq!(runs, 600, "{what}: {runs} of the long link's 600 runs read");
            let digits = text.matches("0123456789").count();
            assert_eq!(
                digits, 2_000,
                "{what}: {digits} of 2000 runs of the huge contact read"
            );
        }
    }
}

/// A word longer than a line (a pasted token, or hostile text with no break point) wraps inside the page
/// wherever text is set: a summary, a bullet, an entry's title, its line of place and dates, a keyword, a
/// contact and a link. It is read back whole, with no character added (a zero-width space, the usual way to
/// let Typst break it, is read back by pdftotext and an ATS alike), in either direction and in a paragraph of
/// either direction. Before, it ran off the page: 6 of the token's 18 words were read inside it; then, broken
/// in summaries, bullets and titles only, an English word in an Arabic resume's title, a keyword, a place or
/// an email of one ran off it still.
#[test]
fn a_word_longer_than_a_line_wraps_inside_the_page_and_reads_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let latin = "Supercalifragilisticexpialidocious".repeat(9);
    let arabic = "ابتثجحخدذرزسشصضطظعغفقكلمنهوي".repeat(10);
    for (i, (language, word)) in [
        ("en", &latin),
        ("ar", &latin),
        ("ar", &arabic),
        ("en", &arabic),
    ]
    .into_iter()
    .enumerate()
    {
        let mut resume = sample_in(language);
        // Around it, words that read its way, and a paragraph that starts with one that reads the other way.
        let (before, after, other) = if word == &latin {
            ("Before", "after.", "قبل")
        } else {
            ("قبل", "بعد.", "Before")
        };
        resume["basics"]["summary"] = json!(format!("{before} {word} {after}"));
        resume["work"][0]["highlights"][0] = json!(format!("{before} {word} {after}"));
        resume["work"][0]["summary"] = json!(format!("{other} {word} {after}"));
        resume["volunteer"][0]["position"] = json!(format!("{before} {word}"));
        resume["work"][0]["location"] = json!(word);
        // (Alone: beside keywords that read the other way, poppler reads the lines they share in the order
        // they are laid out, not the word's.)
        resume["projects"][0]["keywords"] = json!([word]);
        // Links of such a word, one boxed (up to 300 characters) and one not, short enough together for the
        // contacts to be packed into lines (text too long for that is set as a plain line: another test).
        let links = [
            format!("{}@example.com", &latin[..120]),
            format!("https://example.com/{}", &latin[..230]),
        ];
        if word == &latin {
            resume["basics"]["email"] = json!(links[0]);
            resume["basics"]["url"] = json!(links[1]);
        }
        let places = 6;
        for template in designs(i) {
            for page in [Page::A4, Page::Letter] {
                let what = format!("{language}/{}/{page:?}/{}", template.name(), &word[..6]);
                let bytes = redline_pdf::pdf(&resume, template, page).unwrap();
                let path = write(dir.path(), "long-word.pdf", &bytes);
                // Cropped to the page: text drawn off it would not be read.
                let text = cropped_text(&path);
                assert!(
                    !text.contains('\u{200b}'),
                    "{what}: a zero-width space read back"
                );
                let letters = letters(&text);
                if word == &latin {
                    assert_eq!(
                        letters.matches(word.as_str()).count(),
                        places,
                        "{what}: the long word not read back whole, each time, in\n{text}"
                    );
                    for link in &links {
                        assert!(
                            letters.contains(link),
                            "{what}: {link} not read back whole in\n{text}"
                        );
                    }
                } else {
                    // Right to left, poppler gives each line's piece in its own order: count the letters.
                    for letter in word.chars().take(28) {
                        let read = letters.matches(letter).count();
                        let all = places * 10;
                        assert!(read >= all, "{what}: {letter} read {read} times of {all}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_separator_never_ends_or_starts_a_line() {
    // The "·" between contacts, profiles and an entry's dates, subtitle and place: where a line is full, the
    // line breaks instead of it. The sample's own header wrapped after "http://richardhendricks.example.com ·"
    // in both templates. Here also profiles of every length and an entry's long subtitle, so that lines break
    // at many places, on both papers, left to right and right to left.
    let mut cases = resumes();
    cases.extend(common::crowded());
    let mut lines_read = 0;
    each_read_back(&cases, &[], |what, text| {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            lines_read += 1;
            assert!(
                !line.starts_with('·') && !line.ends_with('·'),
                "{what}: a line read {line:?}"
            );
        }
    });
    assert!(lines_read > 1_000, "{lines_read} lines read");
}

/// A bullet's "•" sits beside its text, on the side the text starts from: an Arabic bullet in an English
/// resume has it on the right, an English one in an Arabic resume on the left. Before, every marker took the
/// resume's side, so an Arabic bullet in an English resume read "•" at the left margin and its text at the
/// right one, a page's width away (and the other way round in Arabic). Read with `pdftotext -layout`, which
/// keeps each line's spacing.
#[test]
fn a_bullet_marker_sits_beside_its_text_in_either_direction() {
    let mut cases = resumes();
    cases.extend(common::crowded());
    cases.extend(common::mixed());
    let mut markers = 0;
    each_read_back(&cases, &["-layout"], |what, text| {
        for line in text.lines() {
            // Without the direction marks poppler adds around right-to-left lines.
            let line: Vec<char> = line
                .chars()
                .filter(|c| !('\u{202a}'..='\u{202e}').contains(c))
                .collect();
            for (at, _) in line.iter().enumerate().filter(|(_, c)| **c == '•') {
                markers += 1;
                let after = line[at + 1..].iter().position(|c| !c.is_whitespace());
                let before = line[..at].iter().rev().position(|c| !c.is_whitespace());
                assert!(
                    after.is_some_and(|n| n < 3) || before.is_some_and(|n| n < 3),
                    "{what}: a marker apart from its text: {:?}",
                    line.iter().collect::<String>()
                );
            }
        }
    });
    assert!(markers > 400, "{markers} markers read");
}
