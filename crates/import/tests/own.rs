//! Redline's own exports, read back: every field the file shows, at its place — text, Markdown, Word and PDF, both
//! templates, both papers, every language Redline writes.

mod common;

use common::{print_lines_if_asked, scored, total_at_least};
use redline_import::score::Score;
use redline_resume::export::{self, Page, Template};
use redline_resume::words::Language;
use serde_json::{Value, json};

fn read_back(name: &str, bytes: &[u8], want: &Value, shown: &str) -> Score {
    let imported = redline_import::import("test", bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let s = scored(name, &imported, want, shown);
    if s.ratio() < 0.99 {
        BELOW.lock().unwrap().push(name.to_owned());
    }
    s
}

/// The files read under the goal of 99 %, by name.
static BELOW: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The sample in `language`: its headings and dates in that language's words.
fn sample_in(language: Language) -> Value {
    let mut resume = redline_resume::sample();
    resume["meta"] = json!({"language": language.tag()});
    resume
}

#[test]
fn the_samples_own_exports_read_back_in_every_language_and_layout() {
    let mut scores = Vec::new();
    for language in Language::ALL {
        let want = sample_in(language);
        let text = export::text(&want);
        let name = format!("{language:?} text");
        scores.push(read_back(&name, text.as_bytes(), &want, &text));
        let markdown = export::markdown(&want);
        let name = format!("{language:?} markdown");
        scores.push(read_back(&name, markdown.as_bytes(), &want, &text));
        for template in [Template::Classic, Template::Modern] {
            let docx = redline_resume::docx::docx(&want, template, Page::A4);
            let name = format!("{language:?} docx {template:?}");
            scores.push(read_back(&name, &docx, &want, &text));
            for page in [Page::A4, Page::Letter] {
                let pdf = redline_pdf::pdf(&want, template, page).unwrap();
                let shown = redline_pdf::ats::extract(&pdf).unwrap().join("\n");
                let name = format!("{language:?} pdf {template:?} {page:?}");
                print_lines_if_asked(&name, &pdf);
                scores.push(read_back(&name, &pdf, &want, &shown));
            }
        }
    }
    // The goal is 99 % on each file (every one reads 100 % today: docs/benchmarks.md).
    total_at_least("files", scores, 0.99);
    let below = BELOW.lock().unwrap();
    assert!(below.is_empty(), "files read under 99 %: {below:?}");
}

/// A cover letter's PDF (every design, both papers) and Word file, read by the importer: no line it reads
/// is in neither the letter nor the resume that signs it (the dropped-line check, as for a resume).
#[test]
fn a_letter_s_files_drop_no_line() {
    let resume = redline_resume::sample();
    let letter = json!({
        "recipient": {"name": "Gavin Belson", "company": "Hooli", "address": "1 Hacker Way, Palo Alto"},
        "role": "Senior Compression Engineer",
        "date": "2025-03-01",
        "subject": "Application for the Senior Compression Engineer position",
        "greeting": "Dear hiring team,",
        "paragraphs": [
            "I am applying for the Senior Compression Engineer position at Hooli, where compression is the work.",
            "At Pied Piper I built an algorithm for artists, and we won Techcrunch Disrupt.",
            "I would welcome a conversation about the role."
        ],
        "closing": "Kind regards,",
    });
    let both = json!({"letter": letter, "sender": resume});
    let mut files = Vec::new();
    for template in Template::ALL {
        for page in Page::ALL {
            let pdf = redline_pdf::letter_pdf(&letter, &resume, template, page).unwrap();
            files.push((format!("pdf {template:?} {page:?}"), pdf));
        }
        let docx = redline_resume::docx::letter_docx(&letter, &resume, template, Page::A4);
        files.push((format!("docx {template:?}"), docx));
    }
    for (name, bytes) in files {
        let imported =
            redline_import::import("letter", &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(imported.lines.len() >= 8, "{name}: {:?}", imported.lines);
        let dropped = redline_import::score::dropped(&imported.lines, &both, &[]);
        assert!(dropped.is_empty(), "{name}: lines dropped: {dropped:#?}");
    }
}
