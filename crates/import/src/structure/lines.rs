//! A line's text read for what it is: a list item (its bullet or number taken off), a paragraph's
//! wrapped lines joined, a short line (a title or a field, not prose), a list written on one line, a
//! keyword, a name.

use crate::Line;
use crate::dates;

use super::contacts::is_url;

/// The bullets people start a list item with.
const BULLETS: &[char] = &[
    '•', '-', '–', '—', '▪', '■', '○', '◦', '●', '*', '·', '‣', '⁃', '∙', '➢', '➤', '►', '▸', '✓',
    '✔', '\u{F0B7}', '\u{F0A7}',
];

/// `text` without its bullet or list number, if it starts with one.
pub fn strip_bullet(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let mut chars = t.chars();
    let first = chars.next()?;
    if BULLETS.contains(&first) {
        let rest = chars.as_str();
        // "-5%" or "—" alone is not a list item; the bullet is followed by a space.
        if rest.starts_with(char::is_whitespace) && !rest.trim().is_empty() {
            return Some(rest.trim_start());
        }
        return None;
    }
    // `1.`, `2)`, `(3)`.
    let digits = t.trim_start_matches('(');
    let n = digits.chars().take_while(char::is_ascii_digit).count();
    if (1..=2).contains(&n) {
        let rest = &digits[n..];
        if let Some(rest) = rest.strip_prefix(['.', ')'])
            && rest.starts_with(char::is_whitespace)
            && !rest.trim().is_empty()
        {
            return Some(rest.trim_start());
        }
    }
    None
}

/// Consecutive lines joined into paragraphs: a new one after a gap, a bullet, or a line that ends a
/// sentence well short of the width the others fill.
pub(super) fn paragraphs(lines: &[&Line]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in lines {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            open = false;
            continue;
        }
        match out.last_mut() {
            Some(last) if open && !line.gap && !line.bullet => {
                join_wrapped(last, text);
            }
            _ => out.push(text.to_owned()),
        }
        open = !line.bullet;
    }
    out
}

/// `next` appended to `text` as the next line of one wrapped paragraph: a word broken at its hyphen is
/// joined; CJK text takes no space.
pub(super) fn join_wrapped(text: &mut String, next: &str) {
    let cjk = |c: char| matches!(c, '\u{3000}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
    if text.ends_with('-') && next.starts_with(|c: char| c.is_lowercase()) {
        text.pop();
    } else if !(text.ends_with(cjk) && next.starts_with(cjk)) {
        text.push(' ');
    }
    text.push_str(next);
}

/// A line that reads as a title or a field, not as a sentence of prose.
pub(super) fn short(text: &str) -> bool {
    let words = text.split_whitespace().count();
    let chars = text.chars().count();
    chars <= 90 && words <= 12 && !ends_sentence(text)
}

/// Whether `text` ends as a sentence does: a full stop or an exclamation mark, but not an abbreviation's
/// ("Hooli B.V.", "Acme Inc.", "Taylor & Co.").
pub(super) fn ends_sentence(text: &str) -> bool {
    let text = text.trim_end();
    if text.ends_with(['。', '!', '?']) {
        return true;
    }
    let Some(last) = text.split_whitespace().last() else {
        return false;
    };
    let Some(word) = last.strip_suffix('.') else {
        return false;
    };
    // "B.V.", "S.A.", "e.V.": letters with stops between them.
    let dotted = word.contains('.');
    let abbreviation = ABBREVIATIONS.contains(&word.to_lowercase().as_str());
    !(dotted || abbreviation)
}

/// Words a company's or a person's name ends with, shortened with a full stop.
const ABBREVIATIONS: &[&str] = &[
    "inc", "ltd", "co", "corp", "llc", "plc", "bros", "jr", "sr", "st", "mfg", "intl", "dept",
    "univ",
];

/// A list written on one line: `Python, Rust, SQL` → its items (at least two, each a few words).
pub(super) fn list_items(text: &str) -> Option<Vec<String>> {
    // Items set apart by wide gaps (a browser's keyword chips) are a list too.
    let items: Vec<String> = text
        .split("   ")
        .flat_map(|part| part.split([',', ';', '、', '،']))
        .map(|i| i.trim().trim_end_matches('.').to_owned())
        .filter(|i| !i.is_empty())
        .collect();
    (items.len() >= 2 && items.iter().all(|i| i.split_whitespace().count() <= 4)).then_some(items)
}

/// A list's items where they are set apart by commas, middle dots or wide gaps.
pub(super) fn keyword_items(text: &str) -> Vec<String> {
    // A line of a list that wrapped ends with the mark that sets its last item from the next line's first.
    let text = text.trim_end().trim_end_matches(['·', '•', '∙', '|']);
    let mut text = text.to_owned();
    for dot in [" · ", " • ", " ∙ ", " | "] {
        text = text.replace(dot, ", ");
    }
    list_items(&text).unwrap_or_else(|| vec![text.trim().to_owned()])
}

/// A keyword, not a sentence or a title with its dates: at most three words, no sentence's end.
pub(super) fn a_keyword(text: &str) -> bool {
    let t = text.trim();
    short(t)
        && t.split_whitespace().count() <= 3
        && !t.ends_with([',', ':', ';'])
        && !is_url(t)
        && dates::find(t).is_none()
}

/// True for a name of one to four words, each starting with a capital letter or a digit ("Hooli", "ACM
/// Queue"), not the end of a sentence ("3d media in practice").
pub(super) fn is_proper_name(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..=4).contains(&words.len())
        && words.iter().all(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        })
}
