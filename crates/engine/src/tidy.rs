//! "Tidy with the model", after an import from a file (never needed: the import stands without it). The
//! model is asked to put each line that found no place where it belongs and to correct what was read
//! wrongly, from the file's own text and nothing else. The ask goes through the usual turn — streamed,
//! checked — and always in review mode: every edit waits on a card (`redline held`) until the user accepts
//! it. The ask quotes the file, and is kept marked so: a file may be hostile, and its text is never the
//! user's own words to the link and fact checks (a link planted in it waits for the user, now and in later
//! turns).

use crate::ipc::TidySource;

/// The most characters of a file's own text the ask carries: a two-page resume's, about.
pub const MAX_SOURCE_CHARS: usize = 6_000;

/// The most lines not placed the ask lists.
pub const MAX_LINES: usize = 60;

/// The most characters of one line the ask quotes, and of the file's name.
const MAX_LINE_CHARS: usize = 300;

/// The ask for `source`.
pub fn ask(source: &TidySource) -> String {
    let line =
        |text: &str| redline_resume::shorten(&text.replace(['\n', '\r'], " "), MAX_LINE_CHARS);
    let mut parts = vec![format!(
        "Tidy the resume I just imported from {} ({}). Put each line of the file that found no place where \
         it belongs, and correct any field that was read wrongly. Use only what the file says: add nothing it \
         does not say, and leave the rest as it is.",
        line(&source.name),
        source.format.label()
    )];
    if !source.unplaced.is_empty() {
        let mut listed = vec!["Lines that found no place:".to_owned()];
        listed.extend(
            source
                .unplaced
                .iter()
                .take(MAX_LINES)
                .map(|l| format!("- {}", line(l))),
        );
        if source.unplaced.len() > MAX_LINES {
            listed.push(format!("(and {} more)", source.unplaced.len() - MAX_LINES));
        }
        parts.push(listed.join("\n"));
    }
    let mut text = String::new();
    for l in &source.lines {
        if text.chars().count() + l.chars().count() > MAX_SOURCE_CHARS {
            text.push_str("(the rest of the file is not quoted)");
            break;
        }
        text.push_str(&line(l));
        text.push('\n');
    }
    let text = text.trim_end();
    if !text.is_empty() {
        parts.push(format!("The file's text:\n{text}"));
    }
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> TidySource {
        TidySource {
            name: "ada.pdf".into(),
            format: crate::ipc::ImportFormat::Pdf,
            lines: vec![
                "Ada Lovelace".into(),
                "Things I Keep".into(),
                "A clock".into(),
            ],
            unplaced: vec!["Things I Keep".into(), "A clock".into()],
        }
    }

    #[test]
    fn the_lines_that_found_no_place_are_asked_for_from_the_files_text_adding_nothing() {
        let ask = ask(&source());
        assert!(ask.contains("from ada.pdf (PDF)"));
        assert!(ask.contains("add nothing it does not say"));
        assert!(ask.contains("Lines that found no place:\n- Things I Keep\n- A clock"));
        assert!(ask.ends_with("The file's text:\nAda Lovelace\nThings I Keep\nA clock"));
    }

    #[test]
    fn the_ask_is_bounded_however_long_the_file() {
        let mut long = source();
        long.lines = vec!["x".repeat(100); 1_000];
        long.unplaced = vec!["y".repeat(10_000); 500];
        long.name = "z".repeat(10_000);
        let ask = ask(&long);
        assert!(ask.chars().count() < MAX_SOURCE_CHARS + MAX_LINES * (MAX_LINE_CHARS + 4) + 2_000);
        assert!(ask.contains("(and 440 more)"));
        assert!(ask.contains("(the rest of the file is not quoted)"));
    }
}
