//! A page's furniture, which is not the resume's: a web page's own links (kept when a word processor
//! saved the page, its menu and its buttons), a page's number in its margin, a note of when the page was
//! last updated; each known by its words, in several languages.

use std::collections::HashSet;

use crate::headings;
use crate::{Line, dates};

/// Whether `text` is the page's, not the resume's: a web page's own link, a page's number, a note of when
/// it was last updated.
pub(super) fn furniture(text: &str) -> bool {
    PAGE_CHROME.contains(&headings::key(text).as_str())
        || page_number(text)
        || last_updated(text)
        || !text.chars().any(char::is_alphanumeric)
}

/// The lines of `lines` that echo a section's heading without being it, each taken out: where the
/// source marks a known heading as one ("Work Experience" in a heading style), the same words unmarked
/// elsewhere are a web page's menu or a label beside the heading, kept when a word processor saved the
/// page. A source that marks no heading (most PDFs set them in bold only) has none.
pub(super) fn heading_echoes(lines: Vec<Line>) -> (Vec<Line>, Vec<Line>) {
    let marked: HashSet<String> = (lines.iter())
        .filter(|l| l.heading && headings::part(&l.text).is_some())
        .map(|l| headings::key(&l.text))
        .collect();
    lines
        .into_iter()
        .partition(|l| !l.heading && marked.contains(&headings::key(&l.text)))
}

/// A web page's own links, by their [`headings::key`].
const PAGE_CHROME: &[&str] = &[
    "skiptocontent",
    "skiptomaincontent",
    "jumptocontent",
    "backtotop",
];

/// A page's number in its margin: "Page 1 of 2", "Richard Hendriks - Page 1 of 2", "Seite 2 von 3", "1 / 2".
fn page_number(text: &str) -> bool {
    const PAGE: &[&str] = &[
        "page",
        "seite",
        "página",
        "pagina",
        "p.",
        "ページ",
        "页",
        "صفحة",
    ];
    const OF: &[&str] = &["of", "von", "sur", "de", "di", "/", "из"];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let number = |w: &str| w.len() <= 4 && w.chars().all(|c| c.is_ascii_digit());
    let [.., n, of, m] = words[..] else {
        return false;
    };
    if !(number(n) && OF.contains(&of) && number(m)) {
        return false;
    }
    let before = &words[..words.len() - 3];
    match before {
        [] => of == "/",
        [.., page] => PAGE.contains(page) && before.len() <= 6,
    }
}

/// A page's note of when it was last changed: "Last updated in Nov 2026", "Updated: 2026-11-03".
fn last_updated(text: &str) -> bool {
    const SAYS: &[&str] = &[
        "last updated",
        "updated",
        "zuletzt aktualisiert",
        "stand",
        "dernière mise à jour",
        "mis à jour",
        "última actualización",
        "actualizado",
        "última atualização",
        "atualizado",
    ];
    let lower = text.trim().to_lowercase();
    SAYS.iter().any(|says| {
        lower.strip_prefix(says).is_some_and(|rest| {
            let rest = rest.trim_start_matches([' ', ':', '-']);
            let rest = ["in ", "on ", "am ", "le ", "en ", "em "]
                .iter()
                .find_map(|w| rest.strip_prefix(w))
                .unwrap_or(rest);
            dates::find(rest).is_some() && rest.split_whitespace().count() <= 4
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_numbers_and_update_notes_are_known_in_several_languages() {
        for furniture in [
            "Page 1 of 2",
            "Richard Hendriks - Page 2 of 2",
            "Seite 1 von 3",
            "2 / 3",
        ] {
            assert!(page_number(furniture), "{furniture}");
        }
        for text in [
            "Page Turner",
            "2 of 3 projects shipped",
            "Version 1 of 2 of the plan",
            "1 of 2",
        ] {
            assert!(!page_number(text), "{text}");
        }
        assert!(last_updated("Last updated in Nov 2026"));
        assert!(last_updated("Zuletzt aktualisiert am 03.2025"));
        assert!(!last_updated(
            "Updated the billing service in 2021 for three teams"
        ));
    }
}
