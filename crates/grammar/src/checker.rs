//! Harper's English rules as Redline's [`Rule`]s, and the `redline-grammar` program's loop ([`serve`]).
//!
//! Harper's own spell checker is off (spelling is Redline's, which the resume teaches), and so are its
//! kinds of advice that are a matter of style (readability, redundancy, enhancement): a resume is written
//! in fragments ("Led a team of five"), which a style checker reads as mistakes.

use std::io::{BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

use harper_core::linting::{Lint, LintGroup, LintKind, Suggestion};
use harper_core::spell::FstDictionary;
use harper_core::{Dialect, Document};

use crate::{
    Found, MAX_FOUND_PER_TEXT, MAX_LINE_BYTES, MAX_TEXT_CHARS, MAX_TEXTS, Reply, Request, Rule,
};

/// Harper's rules that are off: its spell checker (Redline's reads the resume's own words) and rules that
/// misread a resume's fragments and names.
const OFF: [&str; 8] = [
    "SpellCheck",
    "LongSentences",
    "SentenceCapitalization",
    "UnclosedQuotes",
    "AvoidCurses",
    "BoringWords",
    "Spaces",
    "NoOxfordComma",
];

fn group() -> LintGroup {
    let mut group = LintGroup::new_curated(FstDictionary::curated(), Dialect::American);
    for rule in OFF {
        group.config.set_rule_enabled(rule, false);
    }
    group
}

/// The [`Rule`] a lint of Harper's rule `name` and `kind` is, if it is one Redline reports.
fn rule_of(name: &str, kind: LintKind) -> Option<Rule> {
    // Harper files a few rules under "miscellaneous"; those that are grammar are named here.
    if name == "AnA" {
        return Some(Rule::Agreement);
    }
    Some(match kind {
        LintKind::Agreement => Rule::Agreement,
        LintKind::Repetition => Rule::RepeatedWord,
        LintKind::Grammar
        | LintKind::Typo
        | LintKind::Malapropism
        | LintKind::Eggcorn
        | LintKind::BoundaryError
        | LintKind::WordOrder
        | LintKind::Nonstandard => Rule::WordForm,
        LintKind::Punctuation | LintKind::Formatting => Rule::Punctuation,
        LintKind::Capitalization => Rule::Capitalisation,
        _ => return None,
    })
}

/// What Harper finds in `text` (its first [`MAX_TEXT_CHARS`] characters), with `group`'s rules.
fn found_in(group: &mut LintGroup, text: &str) -> Vec<Found> {
    let chars: Vec<char> = text.chars().take(MAX_TEXT_CHARS).collect();
    let document = Document::new_plain_english_curated_chars(&chars);
    // A panic inside Harper costs this text its grammar, not the whole request.
    let lints = panic::catch_unwind(AssertUnwindSafe(|| group.organized_lints(&document)))
        .unwrap_or_default();
    let mut found: Vec<Found> = lints
        .into_iter()
        .flat_map(|(name, lints)| {
            let chars = &chars;
            lints
                .into_iter()
                .filter_map(move |lint| mapped(chars, &name, lint))
        })
        .filter(|f| f.fits(chars.len()))
        .collect();
    found.sort_by_key(|f| (f.start, f.end));
    found.truncate(MAX_FOUND_PER_TEXT);
    found
}

fn mapped(chars: &[char], name: &str, lint: Lint) -> Option<Found> {
    let rule = rule_of(name, lint.lint_kind)?;
    let (start, end) = (lint.span.start, lint.span.end.min(chars.len()));
    if start >= end {
        return None;
    }
    let fix = lint.suggestions.first().map(|s| match s {
        Suggestion::ReplaceWith(with) => with.iter().collect(),
        Suggestion::InsertAfter(after) => chars[start..end].iter().chain(after).collect(),
        Suggestion::Remove => String::new(),
    });
    Some(Found {
        rule,
        start,
        end,
        message: sentence(&lint.message),
        fix,
    })
}

/// Harper's message as one plain sentence: its Markdown marks taken out, a full stop at its end.
fn sentence(message: &str) -> String {
    let plain: String = message.chars().filter(|c| !"`*_".contains(*c)).collect();
    let plain = plain.trim();
    if plain.ends_with(['.', '?', '!']) {
        plain.to_owned()
    } else {
        format!("{plain}.")
    }
}

/// The program's loop: a [`Request`] a line from `input`, a [`Reply`] a line to `output`, until `input`
/// ends. A line that is not a request (or is longer than [`MAX_LINE_BYTES`]) ends the loop with an error:
/// the caller starts the program again.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut group = group();
    let mut input = input.take(MAX_LINE_BYTES);
    let mut line = Vec::new();
    loop {
        line.clear();
        input.set_limit(MAX_LINE_BYTES);
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let request: Request = serde_json::from_slice(&line)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        let found = request
            .texts
            .iter()
            .take(MAX_TEXTS)
            .map(|text| found_in(&mut group, text))
            .collect();
        serde_json::to_writer(&mut output, &Reply { found })?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request answered line for line: each text's mistakes, by rule, with a fix that fits.
    #[test]
    fn each_text_of_a_request_is_answered_in_order() {
        let request = Request {
            texts: vec![
                "He have went to the the store.".into(),
                "Led a team of five engineers.".into(),
            ],
        };
        let input = serde_json::to_string(&request).unwrap() + "\n";
        let mut output = Vec::new();
        serve(input.as_bytes(), &mut output).unwrap();
        let reply: Reply = serde_json::from_slice(&output).unwrap();
        assert_eq!(reply.found.len(), 2);
        let rules: Vec<Rule> = reply.found[0].iter().map(|f| f.rule).collect();
        assert!(rules.contains(&Rule::RepeatedWord), "{:?}", reply.found[0]);
        assert!(rules.contains(&Rule::Agreement), "{:?}", reply.found[0]);
        assert!(
            reply.found[1].is_empty(),
            "a clean fragment: {:?}",
            reply.found[1]
        );
    }

    /// A line longer than [`MAX_LINE_BYTES`] is not read whole: the loop ends with an error.
    #[test]
    fn a_line_over_the_bound_ends_the_loop() {
        let input = vec![b'['; MAX_LINE_BYTES as usize + 10];
        let mut output = Vec::new();
        assert!(serve(input.as_slice(), &mut output).is_err());
        assert!(output.is_empty());
    }

    /// A line that is not a request ends the loop with an error, after the replies before it.
    #[test]
    fn a_line_that_is_not_a_request_ends_the_loop() {
        let input = "{\"texts\":[\"the the\"]}\nnot json\n";
        let mut output = Vec::new();
        assert!(serve(input.as_bytes(), &mut output).is_err());
        assert_eq!(output.iter().filter(|&&b| b == b'\n').count(), 1);
    }
}
