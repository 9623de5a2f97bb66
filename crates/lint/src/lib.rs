//! Redline's writing checks: spelling in the resume's language, grammar in English and a recruiter's
//! rules, over every string of a JSON Resume document, offline and deterministic — the same resume and the
//! same [`Options`] always give the same [`Finding`]s, in the same order.
//!
//! One entry point, [`check`] ([`check_letter`] for a cover letter). Each finding names its rule ([`RuleId`], a stable id such as `spelling` or
//! `bullet.weak-opener`, with a one-line [`reason`]), the field (a JSON Pointer), the words (`start..end`,
//! counted in Unicode scalar values, Rust's `char`s, not bytes nor UTF-16 units), one plain sentence and,
//! where there is one, the text to put in their place. A fix never invents a fact: where a figure is
//! missing it proposes the placeholder `[N]`.
//!
//! Spelling reads Hunspell dictionaries (`assets/dictionaries/`, read by helix's `spellbook`) for English,
//! German, French, Spanish and Portuguese. Japanese and Chinese have no spelling check (they are written
//! without spaces between words, which a Hunspell word list cannot split), nor has Arabic (its dictionary
//! is over the installers' size budget). Grammar is English only (Automattic's Harper).
//!
//! # Layout
//! - [`rule`]: the rules' ids, families and reasons.
//! - `fields`: which strings of a resume are checked, and the words the resume itself teaches (names,
//!   companies, schools, skills, places).
//! - `words`: a string cut into words with their offsets, and which words are code, links or numbers.
//! - `spelling`: the dictionaries, loaded once per language, and the spelling rule.
//! - `grammar`: Harper's English rules, checked by the `redline-grammar` program (`redline_grammar`),
//!   as `grammar.*` findings; what it found in a field's text is kept, so a check after a keystroke asks
//!   about the changed field only.
//! - `bullets`: the recruiter's rules on bullets (openers, first person, passive voice, length, numbers,
//!   tense) and the verb lists they read.
//! - `verbs`: English action verbs, their past and present, for the action-verb and tense rules.
//! - `dates`: [`Date`], and the rules on dates and contact details.

#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::too_many_lines))]

use std::cmp::Ordering;
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use dates::Date;
pub use redline_grammar::{available as grammar_available, forget as forget_grammar};
pub use redline_resume::words::Language;
pub use rule::{Family, RuleId, reason};
pub use spelling::{dictionary_loaded, has_dictionary};

mod bullets;
mod dates;
mod fields;
mod grammar;
pub mod rule;
mod spelling;
mod verbs;
mod words;

/// The most findings one check returns: a resume made of typos gets its first ones, not a flood.
pub const MAX_FINDINGS: usize = 2_000;

/// The most characters of one field that are checked; the rest of a longer field is not read.
pub const MAX_FIELD_CHARS: usize = 20_000;

/// The most words a user may add to their dictionary that a check takes.
pub const MAX_USER_WORDS: usize = 10_000;

/// What a check is asked to do.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The resume's language; `None` reads it from `meta.language` (English when it has none).
    pub language: Option<Language>,
    /// Rules turned off.
    pub disabled: BTreeSet<RuleId>,
    /// Words the user added to their dictionary (any case; compared without case).
    pub words: Vec<String>,
    /// Today, for dates in the future and the current job; `None` skips those rules. The library never
    /// reads the clock: the caller says what day it is.
    pub today: Option<Date>,
}

/// One thing a check found. The window hands it back to have it fixed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Finding {
    /// The rule that found it.
    #[ts(type = "string")]
    pub rule: RuleId,
    /// The JSON Pointer of the string field (for a field that is missing, where it would be).
    pub path: String,
    /// Where the words start in the field, in characters (Unicode scalar values).
    pub start: usize,
    /// Where they end (exclusive), in characters.
    pub end: usize,
    /// The words, `start..end` of the field.
    pub text: String,
    /// What is wrong, in one plain sentence.
    pub message: String,
    /// The text to put in place of `start..end`, where there is one.
    pub fix: Option<String>,
}

/// A field under check: its pointer and its text, cut to [`MAX_FIELD_CHARS`].
pub(crate) struct Field<'a> {
    pub path: String,
    pub text: &'a str,
}

impl Field<'_> {
    /// A finding of `rule` over characters `start..end` of this field.
    pub(crate) fn finding(
        &self,
        rule: RuleId,
        (start, end): (usize, usize),
        message: String,
        fix: Option<String>,
    ) -> Finding {
        Finding {
            rule,
            path: self.path.clone(),
            start,
            end,
            text: self.text.chars().skip(start).take(end - start).collect(),
            message,
            fix,
        }
    }
}

/// Checks `resume` as `options` ask: every finding, sorted by path (array indices compared as numbers),
/// then by where it starts, then by rule.
pub fn check(resume: &Value, options: &Options) -> Vec<Finding> {
    let language = options
        .language
        .unwrap_or_else(|| redline_resume::words::words(resume).language);
    let prose = fields::prose(resume);
    let mut findings = Vec::new();
    let known = fields::taught(resume, &options.words);
    spelling_and_grammar(&prose, language, &known, options, &mut findings);
    bullets::check(resume, language, &mut findings);
    dates::check(resume, options.today, &mut findings);
    settled(findings, options)
}

/// Checks cover letter `letter`, sent by `resume`, as `options` ask: spelling (in the letter's language,
/// else the resume's) and English grammar in its subject, greeting, paragraphs and closing, with the words
/// the resume names and the letter's recipient, company and role taught as words. The rules on a resume's
/// bullets and dates are not a letter's.
pub fn check_letter(letter: &Value, resume: &Value, options: &Options) -> Vec<Finding> {
    let language = options.language.unwrap_or_else(|| {
        redline_resume::words::words(&redline_resume::letter::sender_of(letter, resume)).language
    });
    let prose = fields::letter_prose(letter);
    let mut known = fields::taught(resume, &options.words);
    fields::letter_names(letter, &mut known);
    let mut findings = Vec::new();
    spelling_and_grammar(&prose, language, &known, options, &mut findings);
    settled(findings, options)
}

/// The spelling check of `prose` in `language` and, in English, the grammar check, each unless every rule
/// of it is off; `known`: the words taken as words.
fn spelling_and_grammar(
    prose: &[Field<'_>],
    language: Language,
    known: &std::collections::HashSet<String>,
    options: &Options,
    findings: &mut Vec<Finding>,
) {
    let on = |rule: RuleId| !options.disabled.contains(&rule);
    if on(RuleId::Spelling) {
        spelling::check(prose, language, known, findings);
    }
    let grammar = RuleId::ALL
        .iter()
        .any(|r| r.family() == Family::Grammar && on(*r));
    if language == Language::English && grammar {
        grammar::check(prose, known, findings);
    }
}

/// `findings` as a check returns them: the rules turned off left out, in document order, once each, at
/// most [`MAX_FINDINGS`].
fn settled(mut findings: Vec<Finding>, options: &Options) -> Vec<Finding> {
    findings.retain(|f| !options.disabled.contains(&f.rule));
    findings.sort_by(order);
    findings.dedup();
    findings.truncate(MAX_FINDINGS);
    findings
}

/// Findings in document order: by pointer, with array indices compared as numbers (`/work/2` before
/// `/work/10`), then by offset and rule.
fn order(a: &Finding, b: &Finding) -> Ordering {
    let segments = |p: &str| -> Vec<(u64, String)> {
        p.split('/')
            .map(|s| (s.parse::<u64>().unwrap_or(u64::MAX), s.to_owned()))
            .collect()
    };
    segments(&a.path)
        .cmp(&segments(&b.path))
        .then(a.start.cmp(&b.start))
        .then(a.end.cmp(&b.end))
        .then(a.rule.cmp(&b.rule))
}
