//! Characters that act on how text is shown without being seen: control characters (a terminal runs
//! escape sequences; a viewer may hide what follows), direction overrides and isolates (U+202E shows
//! "fdp.exe" as "exe.pdf"), and invisible characters (a zero-width space splits a word a reader sees
//! whole). A resume's text can carry any of them — from a model, a PDF's text, a LinkedIn CSV, a JSON
//! escape — and none of them belongs in what Redline writes for a person to read. Right-to-left text does
//! not need them: Redline's own exports add the marks a right-to-left resume needs, after this.
//!
//! The joiners that scripts need (U+200C ZERO WIDTH NON-JOINER, U+200D ZERO WIDTH JOINER: Persian,
//! Indic scripts, emoji) and the two direction marks (U+200E, U+200F), which reorder nothing, are kept.

use std::borrow::Cow;

/// A control character other than a line break or a tab (C0, DEL and C1).
pub fn is_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// A direction embedding, override or isolate: U+202A–U+202E and U+2066–U+2069.
pub fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A character with no width and no script's need: zero-width space, word joiner and the invisible
/// operators, the byte-order mark inside text, the soft hyphen, the Mongolian vowel separator, the
/// interlinear annotation marks and the tag characters.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// Whether `c` must not reach a person's screen or file as it is.
pub fn is_unseen(c: char) -> bool {
    is_control(c) || is_direction_control(c) || is_invisible(c)
}

/// `text` without the characters [`is_unseen`] names (a line break and a tab stay). Borrowed when there
/// is none, which is nearly always.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unseen) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|&c| !is_unseen(c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a terminal or a reader would act on goes; what a language needs stays.
    #[test]
    fn only_what_acts_unseen_is_taken_out() {
        let hostile = "Rust\u{1b}[2J \u{202E}fdp.exe\u{202C} a\u{200B}b \u{9b}31m\u{7}\r\u{2067}x\u{2069}\u{FEFF}";
        assert_eq!(visible(hostile), "Rust[2J fdp.exe ab 31mx");
        let needed = "می\u{200C}خواهم — क्\u{200D}ष \u{200F}עברית\u{200E}\nline\tcell";
        assert!(matches!(visible(needed), Cow::Borrowed(_)));
        assert_eq!(visible(needed), needed);
    }
}
