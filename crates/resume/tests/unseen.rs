//! A resume full of characters that act unseen — terminal escapes, C1 controls, direction overrides,
//! zero-width and tag characters, as a model, a PDF's text, a LinkedIn CSV or a JSON escape can bring them —
//! exported as text, Markdown, HTML and Word: byte by byte, none of them is in the file, while the words
//! around them are, and a right-to-left resume keeps the marks its exports add for it.

use std::io::Read as _;

use redline_resume::export::{Page, Template};
use redline_resume::unseen::is_unseen;
use serde_json::{Value, json};

/// Every kind of character that must not pass, around words that must.
const HOSTILE: &str =
    "\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{2066}\u{200b}\u{feff}\u{e0041}\u{ad}\u{8}\r";

fn hostile(word: &str) -> Value {
    Value::String(format!("{HOSTILE}{word}{HOSTILE}"))
}

fn resume() -> Value {
    json!({
        "basics": {
            "name": hostile("Ada"),
            "label": hostile("Engineer"),
            "email": "ada@example.com",
            "summary": hostile("Builds engines"),
            "profiles": [{"network": hostile("GitHub"), "username": hostile("ada"), "url": "https://github.com/ada"}]
        },
        "work": [{
            "name": hostile("Analytical"),
            "position": hostile("Lead"),
            "startDate": "2020-01",
            "summary": hostile("Designed the mill"),
            "highlights": [hostile("Wrote the first program")]
        }],
        "skills": [{"name": hostile("Mathematics"), "keywords": [hostile("Calculus")]}]
    })
}

/// The document text of a Word file.
fn docx_text(bytes: &[u8]) -> String {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut xml = String::new();
    zip.by_name("word/document.xml")
        .unwrap()
        .read_to_string(&mut xml)
        .unwrap();
    xml
}

#[test]
fn no_export_carries_a_character_that_acts_unseen() {
    let resume = resume();
    let exports = [
        ("text", redline_resume::export::text(&resume)),
        ("markdown", redline_resume::export::markdown(&resume)),
        (
            "html",
            redline_resume::export::html(&resume, Template::Classic, Page::A4),
        ),
        (
            "docx",
            docx_text(&redline_resume::docx::docx(
                &resume,
                Template::Modern,
                Page::A4,
            )),
        ),
    ];
    for (format, file) in exports {
        let found: Vec<String> = file
            .chars()
            .filter(|&c| is_unseen(c))
            .map(|c| format!("{:04X}", c as u32))
            .collect();
        assert!(found.is_empty(), "{format} carries {found:?}");
        for word in [
            "Ada",
            "Engineer",
            "Builds engines",
            "Analytical",
            "Wrote the first program",
            "Calculus",
        ] {
            assert!(file.contains(word), "{format} lost “{word}”");
        }
    }
}

/// A right-to-left resume's exports still say which way it reads: what the exports add for it is theirs,
/// not the resume's, and stays.
#[test]
fn a_right_to_left_resume_keeps_its_direction() {
    let mut resume = resume();
    resume["meta"] = json!({"language": "ar"});
    let html = redline_resume::export::html(&resume, Template::Classic, Page::A4);
    assert!(html.contains("dir=\"rtl\""), "{html:.300}");
    let docx = docx_text(&redline_resume::docx::docx(
        &resume,
        Template::Classic,
        Page::A4,
    ));
    assert!(docx.contains("w:bidi"), "{docx:.300}");
}
