//! A cover letter as a PDF, drawn in the design of the resume that sends it: that resume's header (its
//! person, title and contacts), font, colour, margins and page, with the letter's date, recipient, subject,
//! greeting, paragraphs and closing where the resume's sections would be, in the letter's language and
//! direction. The templates set it with `cover-letter()` (`templates/common.typ`); a resume has no letter
//! and they set none.

use redline_resume::design::Design;
use redline_resume::export::{Page, Template};
use redline_resume::letter::{LetterOutline, letter_outline, sender_of};
use redline_resume::words::words;
use serde_json::{Value, json};
use typst::layout::PagedDocument;

use crate::{PdfError, compile, data, made};

/// `letter` as a PDF in `template`'s design with the options of `resume`, its sender.
pub fn letter_pdf(
    letter: &Value,
    resume: &Value,
    template: Template,
    page: Page,
) -> Result<Vec<u8>, PdfError> {
    made(&layout(letter, resume, template, page)?)
}

/// How many pages `letter` takes in `template` on `page` (a letter is meant to take one).
pub fn letter_pages(
    letter: &Value,
    resume: &Value,
    template: Template,
    page: Page,
) -> Result<usize, PdfError> {
    Ok(layout(letter, resume, template, page)?.pages.len())
}

/// The letter as its PDF shows it: its sender (the resume, in the letter's language) and its outline, the
/// date as that language writes it.
pub(crate) fn shown(letter: &Value, resume: &Value) -> (Value, LetterOutline) {
    let sender = sender_of(letter, resume);
    let mut o = letter_outline(letter, &sender);
    o.date = words(&sender).month_year(&o.date);
    (sender, o)
}

fn layout(
    letter: &Value,
    resume: &Value,
    template: Template,
    page: Page,
) -> Result<PagedDocument, PdfError> {
    let (sender, o) = shown(letter, resume);
    let style = Design::of(&sender).style(template);
    let mut outline = data(&sender, &style, page);
    outline["summary"] = json!("");
    outline["sections"] = json!([]);
    outline["title"] = json!(match (o.subject.is_empty(), o.sender.is_empty()) {
        (false, _) => o.subject.clone(),
        (true, false) => o.sender.clone(),
        (true, true) => "Cover letter".to_owned(),
    });
    outline["letter"] = json!({
        "date": o.date,
        "recipient": o.recipient,
        "subject": o.subject,
        "greeting": o.greeting,
        "paragraphs": o.paragraphs,
        "closing": o.closing,
        "sender": o.sender,
    });
    compile(&outline, template)
}
