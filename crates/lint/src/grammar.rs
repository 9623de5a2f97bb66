//! English grammar from Automattic's Harper (`harper-core`), offline: agreement, repeated words, wrong
//! word forms, punctuation spacing and capitalisation, as `grammar.*` findings.
//!
//! Harper's own spell checker is off (spelling is [`crate::spelling`]'s, which the resume teaches), and so
//! are its kinds of advice that are a matter of style (readability, redundancy, enhancement): a resume is
//! written in fragments ("Led a team of five"), which a style checker reads as mistakes.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;

use harper_core::linting::{Lint, LintGroup, LintKind, Suggestion};
use harper_core::spell::FstDictionary;
use harper_core::{Dialect, Document};

use crate::{Field, Finding, RuleId, fields};

/// The most characters of one field Harper reads: grammar is a sentence's matter, and Harper's time grows
/// with the text.
const MAX_GRAMMAR_CHARS: usize = 5_000;

/// Harper's rules that are off: its spell checker (ours reads the resume's own words) and rules that
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

thread_local! {
    /// Harper's rules, built once per thread (they hold caches that are not shared between threads).
    static GROUP: RefCell<LintGroup> = RefCell::new(group());
}

fn group() -> LintGroup {
    let mut group = LintGroup::new_curated(FstDictionary::curated(), Dialect::American);
    for rule in OFF {
        group.config.set_rule_enabled(rule, false);
    }
    group
}

/// The `grammar.*` finding a lint of Harper's rule `name` and `kind` is, if it is one Redline reports.
fn rule_of(name: &str, kind: LintKind) -> Option<RuleId> {
    // Harper files a few rules under "miscellaneous"; those that are grammar are named here.
    if name == "AnA" {
        return Some(RuleId::GrammarAgreement);
    }
    Some(match kind {
        LintKind::Agreement => RuleId::GrammarAgreement,
        LintKind::Repetition => RuleId::GrammarRepeatedWord,
        LintKind::Grammar
        | LintKind::Typo
        | LintKind::Malapropism
        | LintKind::Eggcorn
        | LintKind::BoundaryError
        | LintKind::WordOrder
        | LintKind::Nonstandard => RuleId::GrammarWordForm,
        LintKind::Punctuation | LintKind::Formatting => RuleId::GrammarPunctuation,
        LintKind::Capitalization => RuleId::GrammarCapitalisation,
        _ => return None,
    })
}

/// One thing Harper found: its rule, span, message and fix.
type OneFound = (RuleId, (usize, usize), String, Option<String>);

/// What Harper found in one field.
type Found = Vec<OneFound>;

/// The most characters of field text [`SEEN`] keeps before it starts again.
const MAX_SEEN_CHARS: usize = 1_000_000;

thread_local! {
    /// What Harper found in each field's text, so that the check after a keystroke asks Harper about
    /// the one field that changed (Harper takes most of a check's time). Emptied when it holds more than
    /// [`MAX_SEEN_CHARS`] characters of text.
    static SEEN: RefCell<(HashMap<String, Rc<Found>>, usize)> = RefCell::new((HashMap::new(), 0));
}

/// Forgets what Harper found in earlier checks (for a benchmark of a first check).
pub fn forget() {
    SEEN.with_borrow_mut(|(seen, size)| {
        seen.clear();
        *size = 0;
    });
}

/// The grammar findings of the fields of `fields` written in sentences. A name the resume writes its own
/// way (`Techcrunch`, in its awards) is not a capitalisation mistake, and words the spelling check named
/// are not named twice.
pub(crate) fn check(fields: &[Field<'_>], known: &HashSet<String>, findings: &mut Vec<Finding>) {
    for field in fields.iter().filter(|f| fields::in_sentences(&f.path)) {
        for (rule, span, message, fix) in seen_or_linted(field.text).iter() {
            let finding = field.finding(*rule, *span, message.clone(), fix.clone());
            let taught = finding.rule == RuleId::GrammarCapitalisation
                && known.contains(&finding.text.to_lowercase());
            let spelt = findings.iter().any(|f| {
                f.rule == RuleId::Spelling && f.path == finding.path && f.start == finding.start
            });
            if !taught && !spelt {
                findings.push(finding);
            }
        }
    }
}

fn seen_or_linted(text: &str) -> Rc<Found> {
    if let Some(found) = SEEN.with_borrow(|(seen, _)| seen.get(text).cloned()) {
        return found;
    }
    let found = Rc::new(linted(text));
    SEEN.with_borrow_mut(|(seen, size)| {
        let length = text.chars().count();
        if *size + length > MAX_SEEN_CHARS {
            seen.clear();
            *size = 0;
        }
        *size += length;
        seen.insert(text.to_owned(), Rc::clone(&found));
    });
    found
}

/// What Harper finds in `text` (its first [`MAX_GRAMMAR_CHARS`] characters).
fn linted(text: &str) -> Found {
    let chars: Vec<char> = text.chars().take(MAX_GRAMMAR_CHARS).collect();
    let document = Document::new_plain_english_curated_chars(&chars);
    // Harper reads text no one has vetted; a panic inside it costs this field its grammar, not the
    // whole check.
    let lints = GROUP.with_borrow_mut(|group| {
        panic::catch_unwind(AssertUnwindSafe(|| group.organized_lints(&document)))
            .unwrap_or_default()
    });
    let mut found = Found::new();
    for (name, lints) in lints {
        found.extend(
            lints
                .into_iter()
                .filter_map(|lint| mapped(&chars, &name, lint)),
        );
    }
    found
}

fn mapped(chars: &[char], name: &str, lint: Lint) -> Option<OneFound> {
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
    Some((rule, (start, end), sentence(&lint.message), fix))
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
