//! Fit to a number of pages: the resume's spacing tightened first, then its margins, then its text size,
//! each a step at a time and never past what stays readable, until the layout takes the pages asked; or,
//! when even the tightest does not, what to cut.
//!
//! Why this order: spacing costs the reader least (the page looks denser, every letter is the same), a
//! margin a little more (less white around the text), a smaller size the most (every line is harder to
//! read), so each is given up only when the one before has reached its floor.

use redline_resume::design::{self, Design};
use redline_resume::export::{Page, Template};
use redline_resume::outline::outline;
use serde::Serialize;
use serde_json::Value;

use crate::PdfError;

/// The most pages one may ask to fit into: a resume, not a book.
pub const MAX_PAGES: usize = 10;

/// How far fitting goes: the tightest spacing, the narrowest margins (mm) and the smallest size (pt) it
/// sets. The margins stop short of the design bound: 8 mm is for a design that asks for it, not for a
/// squeeze.
const FLOOR: Floor = Floor {
    spacing: design::SPACING.0,
    margins: 10.0,
    size: design::SIZE.0,
};

/// One option fitting turns down: where it is in a design, where it starts, its floor and its step.
type Knob = (fn(&mut Design) -> &mut Option<f64>, f64, f64, f64);

struct Floor {
    spacing: f64,
    margins: f64,
    size: f64,
}

/// What fitting did.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Fitted {
    /// The design with the options it set: the new `/meta/design` value.
    pub design: Design,
    /// Pages the resume takes with it.
    #[ts(type = "number")]
    pub pages: usize,
    /// Pages asked for.
    #[ts(type = "number")]
    pub asked: usize,
    /// Whether it fits.
    pub fits: bool,
    /// The options changed, in words (`spacing 0.8`, `margins 14 mm`, `text 9.5 pt`).
    pub changes: Vec<String>,
    /// When it does not fit: the longest sections, by heading, the most text first.
    pub cut: Vec<String>,
}

impl Fitted {
    /// The change in a sentence, for the history: "Fitted to one page: spacing 0.8, margins 14 mm".
    pub fn summary(&self) -> String {
        let pages = match self.asked {
            1 => "one page".to_owned(),
            2 => "two pages".to_owned(),
            n => format!("{n} pages"),
        };
        if self.changes.is_empty() {
            format!("Already fits on {pages}")
        } else if self.fits {
            format!("Fitted to {pages}: {}", self.changes.join(", "))
        } else {
            format!(
                "Tightened toward {pages} ({}); it still takes {}",
                self.changes.join(", "),
                self.pages
            )
        }
    }
}

/// Rounds to tenths: steps of 0.1 and 0.5 then compare and print as written.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The resume fitted to `pages` in `template` on `page`, from the options it keeps.
pub fn fit(
    resume: &Value,
    template: Template,
    page: Page,
    pages: usize,
) -> Result<Fitted, PdfError> {
    if !(1..=MAX_PAGES).contains(&pages) {
        return Err(PdfError(format!(
            "a resume can be fitted to 1 to {MAX_PAGES} pages, not {pages}"
        )));
    }
    let start = Design::of(resume);
    let style = start.style(template);
    let count = |d: &Design| crate::layout_in(resume, d, template, page).map(|doc| doc.pages.len());
    let (design, taken) = tighten(&start, template, pages, count)?;
    let changed = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() > 1e-9);
    let mut changes = Vec::new();
    if changed(design.spacing, style.spacing) {
        changes.push(format!("spacing {}", design.spacing.unwrap_or(1.0)));
    }
    if changed(design.margins, style.margins) {
        changes.push(format!("margins {} mm", design.margins.unwrap_or(0.0)));
    }
    if changed(design.size, style.size) {
        changes.push(format!("text {} pt", design.size.unwrap_or(0.0)));
    }
    let fits = taken <= pages;
    Ok(Fitted {
        cut: if fits {
            Vec::new()
        } else {
            longest(resume, &design, template)
        },
        design,
        pages: taken,
        asked: pages,
        fits,
        changes,
    })
}

/// `start` tightened until `count` says its layout takes `pages` or fewer: each knob in turn (spacing,
/// margins, size), a step at a time, from where the design has it down to its floor. Returns the design
/// and the pages it takes (more than `pages` when even the tightest does not fit).
pub(crate) fn tighten(
    start: &Design,
    template: Template,
    pages: usize,
    count: impl Fn(&Design) -> Result<usize, PdfError>,
) -> Result<(Design, usize), PdfError> {
    let style = start.style(template);
    let mut design = start.clone();
    let mut taken = count(&design)?;
    let knobs: [Knob; 3] = [
        (|d| &mut d.spacing, style.spacing, FLOOR.spacing, 0.1),
        (|d| &mut d.margins, style.margins, FLOOR.margins, 2.0),
        (|d| &mut d.size, style.size, FLOOR.size, 0.5),
    ];
    for (knob, from, floor, step) in knobs {
        let mut value = from;
        while taken > pages && value - step >= floor - 1e-9 {
            value = tenths(value - step);
            *knob(&mut design) = Some(value);
            taken = count(&design)?;
        }
    }
    Ok((design, taken))
}

/// The two sections with the most text, by heading, longest first: what to shorten when tightening is
/// not enough.
fn longest(resume: &Value, design: &Design, template: Template) -> Vec<String> {
    let (_, sections) = outline(resume);
    let mut sized: Vec<(usize, String)> = design
        .style(template)
        .arrange(sections)
        .into_iter()
        .map(|s| {
            let chars = s
                .entries
                .iter()
                .map(|e| {
                    e.title.len()
                        + e.summary.len()
                        + e.bullets.iter().map(String::len).sum::<usize>()
                        + e.keywords.iter().map(String::len).sum::<usize>()
                })
                .sum();
            (chars, s.heading)
        })
        .collect();
    sized.sort_by_key(|s| std::cmp::Reverse(s.0));
    sized.into_iter().take(2).map(|(_, h)| h).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_already_fits_is_left_alone_and_a_page_count_out_of_bounds_is_refused() {
        let sample = redline_resume::sample();
        let fitted = fit(&sample, Template::Compact, Page::A4, 1).unwrap();
        assert!(fitted.fits && fitted.changes.is_empty(), "{fitted:?}");
        assert_eq!(fitted.design, Design::of(&sample));
        assert_eq!(fitted.summary(), "Already fits on one page");
        for pages in [0, MAX_PAGES + 1] {
            let refused = fit(&sample, Template::Compact, Page::A4, pages).unwrap_err();
            assert!(refused.to_string().contains("1 to 10 pages"), "{refused}");
        }
    }

    #[test]
    fn the_summary_names_what_changed_or_what_it_still_takes() {
        let mut fitted = Fitted {
            design: Design::default(),
            pages: 1,
            asked: 1,
            fits: true,
            changes: vec!["spacing 0.8".into(), "margins 14 mm".into()],
            cut: Vec::new(),
        };
        assert_eq!(
            fitted.summary(),
            "Fitted to one page: spacing 0.8, margins 14 mm"
        );
        (fitted.fits, fitted.pages, fitted.asked) = (false, 3, 2);
        assert_eq!(
            fitted.summary(),
            "Tightened toward two pages (spacing 0.8, margins 14 mm); it still takes 3"
        );
    }
}
