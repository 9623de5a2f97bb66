//! How an applicant-tracking system reads a resume: the text taken back out of the PDF Redline made
//! (in-process, by `pdf-extract`), split by section, and checked against the resume it was made from —
//! every heading and every field must be there, in the order the resume has them. A cover letter's PDF is
//! read back the same way ([`check_letter`]): its sender's header, then each part of the letter in order.
//!
//! A field is *missing* when its text is nowhere in what was read, and *out of order* when it is there but
//! before something the resume puts ahead of it (a reader would attach it to the wrong section or entry).
//! Text is compared as an extractor gives it back: lines put back into reading order (an extractor gives
//! right-to-left text in the order it is drawn), Unicode compatibility forms folded, and only letters and
//! digits compared: extractors space Chinese and Japanese text by how it was laid out, not as it was
//! written, join a word broken at its hyphen, and place a right-to-left sentence's full stop where it
//! was drawn.

use redline_resume::design::{Design, arranged};
use redline_resume::export::{Page, Template};
use redline_resume::outline::{Header, Section};
use serde::Serialize;
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use crate::PdfError;

/// What was read back, and what did not come back as the resume has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The text read, the header first (`id` `basics`), then each section from its heading on.
    pub sections: Vec<SectionText>,
    /// Fields whose text was not found at all.
    pub missing: Vec<Finding>,
    /// Fields found, but ahead of something the resume puts before them.
    pub out_of_order: Vec<Finding>,
    /// Pages in the PDF.
    pub pages: usize,
}

/// The text read for one part of the resume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SectionText {
    /// `basics` for the header, else the section's JSON Resume key (`work`, `skills`, …).
    pub id: String,
    /// Its heading as the PDF shows it (empty for the header).
    pub heading: String,
    /// What an extractor reads there, whitespace collapsed.
    pub text: String,
}

/// One field that did not read back as the resume has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The part it belongs to (`basics`, `work`, …).
    pub section: String,
    /// What it is: `name`, `heading`, `title`, `dates`, `summary`, `item`, …
    pub field: String,
    /// Its text in the resume.
    pub text: String,
}

impl Report {
    /// True when every field was read, in order.
    pub fn clean(&self) -> bool {
        self.missing.is_empty() && self.out_of_order.is_empty()
    }
}

/// The resume's PDF in `template` on `page`, read back as an applicant-tracking system would.
pub fn check(resume: &Value, template: Template, page: Page) -> Result<Report, PdfError> {
    let pdf = crate::pdf(resume, template, page)?;
    Ok(compare_in(&extract(&pdf)?, resume, template))
}

/// The text of `pdf`, one string per page. A PDF the extractor cannot read is an error, never a panic.
pub fn extract(pdf: &[u8]) -> Result<Vec<String>, PdfError> {
    // pdf-extract asserts on some malformed input; a PDF is never worth the process.
    let pages = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(pdf))
        .map_err(|_| PdfError("its text could not be read back (the reader gave up)".into()))?;
    pages.map_err(|e| PdfError(format!("its text could not be read back: {e}")))
}

/// Whether a character counts when texts are compared: letters and digits only, but for Arabic's lam and
/// alefs (extractors write the lam-alef ligature's two letters in either order).
fn counts(c: char) -> bool {
    c.is_alphanumeric() && !matches!(c, 'ل' | 'ا' | 'أ' | 'إ' | 'آ')
}

/// `text` as it is compared: compatibility forms folded (ligatures such as `ﬁ`), then only the characters
/// that [`counts`].
pub fn letters(text: &str) -> String {
    text.nfkc().filter(|&c| counts(c)).collect()
}

/// `text` with its right-to-left runs reversed, line by line: the Unicode bidirectional algorithm's
/// reordering, which turns text as written into text as drawn and, for a line of one direction, back.
/// Extractors give right-to-left text as drawn; a field is looked for both ways.
fn reordered(text: &str) -> String {
    text.lines()
        .map(|line| {
            let bidi = unicode_bidi::BidiInfo::new(line, None);
            match bidi.paragraphs.first() {
                Some(para) if bidi.has_rtl() => {
                    bidi.reorder_line(para, para.range.clone()).into_owned()
                }
                _ => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text`'s [`letters`], with where each of their bytes is in `text`.
fn letters_at(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut at = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if counts(c) {
            out.push(c);
            at.extend(std::iter::repeat_n(i, c.len_utf8()));
        }
    }
    at.push(text.len());
    (out, at)
}

/// What a PDF should say, in the order it should say it: (part, field, text).
type Expected<'a> = Vec<(&'a str, &'static str, &'a str)>;

/// What the header of a resume, or of a letter (its sender's), should say: the name, the title and the
/// contacts (which need only be there, in any order). The summary is the resume's alone.
fn header_expected(header: &Header) -> Expected<'_> {
    let mut expected: Expected<'_> = vec![
        ("basics", "name", &header.name),
        ("basics", "label", &header.label),
    ];
    for item in header.contacts.iter().chain(&header.profiles) {
        expected.push(("basics", "contact", &item.text));
    }
    expected
}

/// Everything the PDF of a resume should say, in the order it should say it.
fn expected<'a>(header: &'a Header, sections: &'a [Section]) -> Expected<'a> {
    let mut expected = header_expected(header);
    expected.push(("basics", "summary", &header.summary));
    for s in sections {
        expected.push((s.id, "heading", &s.heading));
        for e in &s.entries {
            for (field, t) in [
                ("title", &e.title),
                ("dates", &e.dates),
                ("subtitle", &e.subtitle),
                ("location", &e.location),
            ] {
                expected.push((s.id, field, t));
            }
            if let Some(url) = &e.url {
                expected.push((s.id, "link", &url.text));
            }
            expected.push((s.id, "summary", &e.summary));
            for t in &e.bullets {
                expected.push((s.id, "item", t));
            }
            for t in &e.keywords {
                expected.push((s.id, "keyword", t));
            }
        }
    }
    expected
}

/// Where `t` (`forms`: as written, and as drawn) is first read in `text` from byte `from` on, and how
/// long it is there. Words of both directions on one line (an Arabic month and its year) come back in an
/// order of the extractor's own: such a field is there when each of its `words` is, near where the first
/// one is.
fn first_from(
    text: &str,
    forms: [&str; 2],
    words: &[(String, String)],
    from: usize,
) -> Option<(usize, usize)> {
    let whole = forms
        .iter()
        .filter_map(|f| text[from..].find(f).map(|p| (from + p, f.len())))
        .min();
    whole.or_else(|| {
        let (mut start, mut end) = (usize::MAX, from);
        for (w, reversed) in words {
            let p = [w, reversed]
                .iter()
                .filter_map(|f| text[from..].find(f.as_str()).map(|p| (from + p, f.len())))
                .min()?;
            start = start.min(p.0);
            end = end.max(p.0 + p.1);
        }
        (end - start <= 2 * forms[0].len() + 16).then_some((start, end - start))
    })
}

/// `pdf`, made from `resume`, read back and checked against it.
pub fn read(pdf: &[u8], resume: &Value) -> Result<Report, PdfError> {
    Ok(compare(&extract(pdf)?, resume))
}

/// The text read from a PDF of `resume` ([`extract`]'s pages), checked against it in the order of the
/// design the resume keeps (classic when it keeps none).
pub fn compare(pages: &[String], resume: &Value) -> Report {
    let template = Design::of(resume).template.unwrap_or(Template::Classic);
    compare_in(pages, resume, template)
}

/// The text read from a PDF of `resume` in `template`, checked against it in the order that design
/// shows its sections (an academic CV's education first).
pub fn compare_in(pages: &[String], resume: &Value, template: Template) -> Report {
    let (header, sections) = arranged(resume, template);
    compare_expected(pages, expected(&header, &sections))
}

/// A cover letter's PDF in `template` on `page`, sent by `resume`, read back as an applicant-tracking
/// system would: the sender's header, then every part of the letter in order.
pub fn check_letter(
    letter: &Value,
    resume: &Value,
    template: Template,
    page: Page,
) -> Result<Report, PdfError> {
    let pdf = crate::letter_pdf(letter, resume, template, page)?;
    Ok(compare_letter(&extract(&pdf)?, letter, resume))
}

/// The text read from a PDF of `letter`, sent by `resume`, checked against it: the sender's header, the
/// date, the recipient, the subject, the greeting, each paragraph, the closing and the sender's name.
pub fn compare_letter(pages: &[String], letter: &Value, resume: &Value) -> Report {
    let (sender, o) = crate::letter::shown(letter, resume);
    let (header, _) = redline_resume::outline::outline(&sender);
    let mut expected = header_expected(&header);
    expected.push(("letter", "date", &o.date));
    expected.extend(
        o.recipient
            .iter()
            .map(|t| ("letter", "recipient", t.as_str())),
    );
    expected.push(("letter", "subject", &o.subject));
    expected.push(("letter", "greeting", &o.greeting));
    expected.extend(
        o.paragraphs
            .iter()
            .map(|t| ("letter", "paragraph", t.as_str())),
    );
    expected.push(("letter", "closing", &o.closing));
    expected.push(("letter", "sender", &o.sender));
    compare_expected(pages, expected)
}

/// The text read from a PDF checked against what it should say, in order.
fn compare_expected(pages: &[String], expected: Expected<'_>) -> Report {
    // What was read, folded and with its whitespace collapsed (as shown), and its letters (as compared).
    let read: String = pages.join("\n").nfkc().collect();
    let spaced = read.split_whitespace().collect::<Vec<_>>().join(" ");
    let (text, spaced_at) = letters_at(&spaced);

    let mut report = Report {
        sections: Vec::new(),
        missing: Vec::new(),
        out_of_order: Vec::new(),
        pages: pages.len(),
    };
    // Where each heading was read, in order: the text between two is the first one's section.
    let mut cuts: Vec<(usize, &str, &str)> = vec![(0, "basics", "")];
    let mut at = 0;
    for (section, field, t) in expected {
        // As written, and as drawn (for right-to-left text).
        let (written, drawn) = (letters(t), letters(&reordered(t)));
        if written.is_empty() {
            continue;
        }
        let forms = [written.as_str(), drawn.as_str()];
        let words: Vec<(String, String)> = t
            .split_whitespace()
            .map(|w| (letters(w), letters(&w.chars().rev().collect::<String>())))
            .filter(|(w, _)| !w.is_empty())
            .collect();
        let first_from = |from: usize| first_from(&text, forms, &words, from);
        // Contacts share a line in whatever order a template likes: they need only be there.
        let in_order = first_from(if field == "contact" { 0 } else { at });
        match in_order {
            Some((found, len)) => {
                if field == "heading" {
                    cuts.push((found, section, t));
                }
                if field != "contact" {
                    at = found + len;
                }
            }
            None => {
                let finding = Finding {
                    section: section.to_owned(),
                    field: field.to_owned(),
                    text: t.to_owned(),
                };
                if first_from(0).is_some() {
                    report.out_of_order.push(finding);
                } else {
                    report.missing.push(finding);
                }
            }
        }
    }
    for (i, &(start, id, heading)) in cuts.iter().enumerate() {
        let end = cuts.get(i + 1).map_or(text.len(), |c| c.0);
        report.sections.push(SectionText {
            id: id.to_owned(),
            heading: heading.to_owned(),
            text: reordered(spaced[spaced_at[start]..spaced_at[end]].trim()),
        });
    }
    report
}
