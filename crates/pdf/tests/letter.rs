//! A cover letter's PDF and Word file read back as their readers read them (poppler's `pdftotext` and
//! `pdfinfo`, pandoc): the resume's header (the sender) first, then every part of the letter in order, on
//! one page, in the design asked for, in either direction; markup in a letter stays text, and a runaway
//! letter is laid out, not a crash.

use std::path::Path;

use redline_resume::export::{Page, Template};
use serde_json::{Value, json};

mod tools;
use tools::tool;

const PARAGRAPHS: [&str; 4] = [
    "I am writing to apply for the Senior Compression Engineer position at Hooli. Your posting asks for \
     someone who has built compression software used by millions, and that is the work I have done for the \
     last six years.",
    "At Pied Piper I designed the middle-out compression algorithm and led its move from a research \
     prototype to a service that handled the storage of a large consumer platform. I wrote most of the core \
     library in C++ and kept its latency within the budget our customers relied on.",
    "I also know the practical side of the role: profiling hot paths, reviewing code with care, and \
     explaining trade-offs to people who do not write code. My resume lists the projects and the results \
     that I can speak to in detail.",
    "I would welcome the chance to talk about how my experience could help your team. Thank you for your \
     time and consideration.",
];

fn letter() -> Value {
    json!({
        "recipient": {"name": "Gavin Belson", "company": "Hooli", "address": "1 Hacker Way, Palo Alto"},
        "role": "Senior Compression Engineer",
        "date": "2025-03-01",
        "subject": "Application for the Senior Compression Engineer position",
        "greeting": "Dear hiring team,",
        "paragraphs": PARAGRAPHS,
        "closing": "Kind regards,",
    })
}

/// What the letter's file says, in the order it says it: the sender's header (the sample's), then the letter.
fn read_in_order() -> Vec<&'static str> {
    let mut parts = vec![
        "Richard Hendriks",
        "richard.hendriks@mail.com",
        "Mar 2025",
        "Gavin Belson",
        "Hooli",
        "1 Hacker Way, Palo Alto",
        "Application for the Senior Compression Engineer position",
        "Dear hiring team,",
    ];
    parts.extend(PARAGRAPHS);
    parts.extend(["Kind regards,", "Richard Hendriks"]);
    parts
}

/// Whitespace collapsed to single spaces, hyphens dropped (pdftotext joins a word broken after its hyphen,
/// `trade-` + `offs` → `tradeoffs`).
fn squeezed(text: &str) -> String {
    text.replace('-', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Asserts that each of `parts` is in `text` (whitespace aside), each after the one before.
fn in_order(what: &str, text: &str, parts: &[&str]) {
    let text = squeezed(text);
    let mut from = 0;
    for part in parts {
        let part = squeezed(part);
        let at = text[from..]
            .find(&part)
            .unwrap_or_else(|| panic!("{what}: {part:?} not found after byte {from} in\n{text}"));
        from += at + part.len();
    }
}

fn pdf_text(dir: &Path, bytes: &[u8]) -> String {
    let path = dir.join("letter.pdf");
    std::fs::write(&path, bytes).unwrap();
    tool("pdftotext", &["-cropbox", path.to_str().unwrap(), "-"])
}

#[test]
fn a_letter_reads_back_in_order_under_its_sender_on_one_page_in_every_design() {
    let dir = tempfile::tempdir().unwrap();
    let resume = redline_resume::sample();
    for template in Template::ALL {
        for page in [Page::A4, Page::Letter] {
            let what = format!("{}/{page:?}", template.name());
            let bytes = redline_pdf::letter_pdf(&letter(), &resume, template, page).unwrap();
            assert_eq!(
                redline_pdf::letter_pages(&letter(), &resume, template, page).unwrap(),
                1,
                "{what}"
            );
            let text = pdf_text(dir.path(), &bytes);
            in_order(&what, &text, &read_in_order());
            assert!(
                !text.contains("Experience"),
                "{what}: the resume's sections are not in the letter:\n{text}"
            );
            let read = redline_pdf::ats::compare_letter(
                &redline_pdf::ats::extract(&bytes).unwrap(),
                &letter(),
                &resume,
            );
            assert!(read.clean(), "{what}: {read:?}");
            assert_eq!(read.pages, 1, "{what}");
        }
    }
}

#[test]
fn the_ats_read_back_finds_a_paragraph_the_pdf_does_not_say() {
    let resume = redline_resume::sample();
    let mut shorter = letter();
    shorter["paragraphs"] = json!(PARAGRAPHS[..3]);
    let pdf = redline_pdf::letter_pdf(&shorter, &resume, Template::Elegant, Page::A4).unwrap();
    let read = redline_pdf::ats::compare_letter(
        &redline_pdf::ats::extract(&pdf).unwrap(),
        &letter(),
        &resume,
    );
    let missing: Vec<&str> = read.missing.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(missing, [PARAGRAPHS[3]], "{read:?}");
    let arabic = {
        let mut l = letter();
        l["meta"] = json!({"language": "ar"});
        l["paragraphs"] = json!(["أكتب إليكم للتقدم لوظيفة مهندس ضغط البيانات في شركة هولي"]);
        l
    };
    let read =
        redline_pdf::ats::check_letter(&arabic, &resume, Template::Banner, Page::A4).unwrap();
    assert!(read.clean(), "{read:?}");
}

#[test]
fn a_letter_is_drawn_in_the_resume_s_design() {
    let resume = redline_resume::sample();
    let mut tinted = resume.clone();
    tinted["meta"] = json!({"design": {"accent": "#b03060"}});
    let made = |resume: &Value, template| {
        redline_pdf::letter_pdf(&letter(), resume, template, Page::A4).unwrap()
    };
    let classic = made(&resume, Template::Classic);
    assert_eq!(
        classic,
        made(&resume, Template::Classic),
        "the same bytes each time"
    );
    assert_ne!(
        classic,
        made(&resume, Template::Banner),
        "the design asked for"
    );
    assert_ne!(
        classic,
        made(&tinted, Template::Classic),
        "the resume's own colour"
    );
}

#[test]
fn an_arabic_letter_reads_right_to_left_in_its_own_language() {
    let dir = tempfile::tempdir().unwrap();
    let mut resume = redline_resume::sample();
    resume["meta"] = json!({"language": "en"});
    let mut letter = letter();
    letter["meta"] = json!({"language": "ar"});
    letter["greeting"] = json!("السادة فريق التوظيف");
    letter["paragraphs"] = json!(["أكتب إليكم للتقدم لوظيفة مهندس ضغط البيانات في شركة هولي"]);
    let bytes = redline_pdf::letter_pdf(&letter, &resume, Template::Modern, Page::A4).unwrap();
    let text = pdf_text(dir.path(), &bytes);
    // The letter's language sets the document's direction: pdftotext writes the right-to-left text in
    // reading order, and the English name, boxed, whole.
    assert!(text.contains("Richard Hendriks"), "{text}");
    for word in ["للتقدم", "هولي", "التوظيف"] {
        assert!(text.contains(word), "{word:?} not read back in\n{text}");
    }
    let path = dir.path().join("letter.pdf");
    let info = tool("pdfinfo", &[path.to_str().unwrap()]);
    let tagged = info.lines().find_map(|l| l.strip_prefix("Tagged:"));
    assert_eq!(tagged.map(str::trim), Some("yes"), "{info}");
}

#[test]
fn markup_in_a_letter_stays_text_and_a_runaway_letter_is_laid_out() {
    let dir = tempfile::tempdir().unwrap();
    let resume = redline_resume::sample();
    let mut planted = letter();
    planted["paragraphs"] =
        json!(["#set page(width: 1mm) *not bold* $x^2$ <label> @ref // no comment"]);
    let bytes = redline_pdf::letter_pdf(&planted, &resume, Template::Classic, Page::A4).unwrap();
    in_order(
        "markup",
        &pdf_text(dir.path(), &bytes),
        &["#set page(width: 1mm) *not bold* $x^2$ <label> @ref // no comment"],
    );

    let mut runaway = letter();
    // Words longer than a line, and more paragraphs than a page holds (a debug build lays each long word
    // out in pieces slowly: 40 are enough to run past the page).
    let word = "x".repeat(1_000);
    runaway["paragraphs"] = json!(vec![format!("{word} and then some words"); 40]);
    let pages =
        redline_pdf::letter_pages(&runaway, &resume, Template::Sidebar, Page::Letter).unwrap();
    assert!(pages > 1, "{pages}");
    redline_pdf::letter_pdf(&runaway, &Value::Null, Template::Compact, Page::A4).unwrap();
}

#[test]
fn the_word_file_reads_back_in_order_under_its_sender() {
    let dir = tempfile::tempdir().unwrap();
    let resume = redline_resume::sample();
    let bytes =
        redline_resume::docx::letter_docx(&letter(), &resume, Template::Modern, Page::Letter);
    let path = dir.path().join("letter.docx");
    std::fs::write(&path, &bytes).unwrap();
    let text = tool(
        "pandoc",
        &[path.to_str().unwrap(), "-t", "plain", "--wrap=none"],
    );
    in_order("docx", &text, &read_in_order());
    assert_eq!(
        bytes,
        redline_resume::docx::letter_docx(&letter(), &resume, Template::Modern, Page::Letter),
        "the same bytes each time"
    );
}
