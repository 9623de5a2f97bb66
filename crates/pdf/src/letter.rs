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

/// The letter laid out on one page when it can be: in its resume's design as it is, else, when it runs onto
/// a second page and no further, with that design's spacing, margins and size tightened as fitting a
/// resume tightens them ([`crate::fit`]), for this letter only (the resume keeps its design). A letter
/// longer than that is laid out over its pages as it is.
fn layout(
    letter: &Value,
    resume: &Value,
    template: Template,
    page: Page,
) -> Result<PagedDocument, PdfError> {
    let (sender, o) = shown(letter, resume);
    let design = Design::of(&sender);
    let first = draw(&sender, &o, &design, template, page)?;
    if first.pages.len() != 2 {
        return Ok(first);
    }
    let pages = |d: &Design| Ok(draw(&sender, &o, d, template, page)?.pages.len());
    match crate::fit::tighten(&design, template, 1, pages)? {
        (tight, 1) => draw(&sender, &o, &tight, template, page),
        _ => Ok(first),
    }
}

/// The letter `o` under `sender`'s header, in `design`.
fn draw(
    sender: &Value,
    o: &LetterOutline,
    design: &Design,
    template: Template,
    page: Page,
) -> Result<PagedDocument, PdfError> {
    let style = design.style(template);
    let photo = redline_resume::photo::drawn(sender, &style);
    let mut outline = data(sender, &style, page, photo.as_ref());
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
    compile(&outline, template, photo.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A letter of `n` paragraphs of about sixty words each, for the sample.
    fn letter_of(n: usize) -> Value {
        let paragraph = "At Pied Piper I built a compression algorithm for artists and shipped it to \
            millions of people, which taught me how to explain trade-offs clearly to engineers, to \
            designers and to the people who pay for the work, and how to keep a small team moving \
            through a hard quarter without losing the quality that made the product worth using.";
        json!({
            "recipient": {"company": "Hooli"},
            "date": "2025-03-01",
            "greeting": "Dear hiring team,",
            "paragraphs": vec![paragraph; n],
            "closing": "Kind regards,",
        })
    }

    /// A letter that runs a little onto a second page is tightened onto one, the resume's design left as
    /// it is; one that runs further is laid out over its pages as it is, with nothing lost.
    #[test]
    fn a_letter_just_over_a_page_is_fitted_onto_one_and_a_long_one_is_not() {
        let resume = redline_resume::sample();
        let design = Design::of(&resume);
        let untightened = |letter: &Value| {
            let (sender, o) = shown(letter, &resume);
            draw(&sender, &o, &design, Template::Classic, Page::A4)
                .unwrap()
                .pages
                .len()
        };
        let over = (3..20)
            .map(letter_of)
            .find(|l| untightened(l) == 2)
            .expect("some letter runs onto a second page");
        assert_eq!(
            letter_pages(&over, &resume, Template::Classic, Page::A4).unwrap(),
            1,
            "fitted onto one page"
        );
        assert_eq!(Design::of(&resume), design, "the resume keeps its design");

        let long = letter_of(40);
        let pages = untightened(&long);
        assert!(pages >= 3);
        assert_eq!(
            letter_pages(&long, &resume, Template::Classic, Page::A4).unwrap(),
            pages
        );
    }
}
