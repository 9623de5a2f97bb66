//! Evals: does an ask, put to a real model, do what the user asked, and nothing else?
//!
//! A suite is a list of asks in the words users type, each with the resume it starts from (the sample by
//! default), what must be true after it (a value at a place, a word found under a place or gone from it),
//! and the part of the resume it may change. Each ask runs as one turn on a fresh copy of its resume, in a
//! store of its own, against the configured server; its result is checked here, with no model:
//! - **invariants**, for every ask: every revision reads back valid against the schema, who the resume is
//!   about is unchanged, nothing outside the ask's part changed;
//! - **expectations**: the values the ask should leave.
//!
//! `redline eval` prints the results; `tests/llama.rs` holds a real small model to a floor of them.

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::provider::{Learned, Provider, ProviderConfig};
use crate::turn::{Turn, TurnOutcome};
use redline_patch::{Policy, Surface};
use redline_store::Store;

/// The suite the repository ships (`assets/eval/suite.json`).
pub const SUITE: &str = include_str!("../../../assets/eval/suite.json");

/// A suite of asks.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Suite {
    pub asks: Vec<Ask>,
}

impl Suite {
    /// The suite the repository ships.
    pub fn shipped() -> Suite {
        serde_json::from_str(SUITE).expect("the shipped suite is valid")
    }
}

/// One ask and what must be true after it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ask {
    /// A short name.
    pub name: String,
    /// What kind of ask: add, change, remove, reorder, text, date, hold, selected, two, letter.
    pub kind: String,
    /// One field or one item changes (the asks a small model is measured on).
    #[serde(default)]
    pub single: bool,
    /// What the user types.
    pub message: String,
    /// The pointer the user selected, if any.
    #[serde(default)]
    pub selected: Option<String>,
    /// The resume it starts from; the sample when not given.
    #[serde(default)]
    pub resume: Option<Value>,
    /// What must be true after it.
    #[serde(default)]
    pub expect: Vec<Expect>,
    /// Where it may change the resume; nothing outside may change.
    #[serde(default)]
    pub part: Vec<String>,
    /// It must not be committed: held for the user's confirmation, or refused.
    #[serde(default)]
    pub held: bool,
    /// A job posting: the ask is about a cover letter for it, begun for the resume as `redline letter
    /// new` begins one, and checked as a letter ([`letter_missed`]); the expectations then hold of the
    /// letter.
    #[serde(default)]
    pub posting: Option<String>,
}

/// One thing that must be true of the resume after an ask.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Expect {
    /// Where.
    pub at: String,
    /// The value there is this.
    pub equals: Option<Value>,
    /// Some text under `at` holds this (letter case aside).
    pub has: Option<String>,
    /// No text under `at` holds this (letter case aside).
    pub lacks: Option<String>,
    /// The value there is not what it was.
    pub changed: bool,
    /// The text there is shorter than it was.
    pub shorter: bool,
}

/// How one ask went.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub name: String,
    pub kind: String,
    pub single: bool,
    /// Every expectation met and no invariant broken.
    pub pass: bool,
    /// The first expectation not met, in words.
    pub miss: Option<String>,
    /// An invariant broken, in words (a bug, whatever the model said).
    pub broke: Option<String>,
    pub seconds: f64,
    /// Tokens the patch model was sent and wrote (from the server's usage, or counted by its tokenizer).
    pub tokens_in: Option<u64>,
    pub tokens_out: Option<u64>,
    /// How the server was asked: the planner (`tools` or `one model`), how JSON was asked for
    /// (`json_schema`, `json_object`, `tool`, `prompt`), and whether the answer was held to the targets'
    /// places.
    pub asked: String,
    /// Revisions committed.
    pub revisions: usize,
    /// What the turn said, or its error.
    pub said: String,
    /// What the patch model wrote last (cut to 500 characters).
    pub wrote: String,
}

impl Outcome {
    /// `ask`'s outcome before it runs: nothing passed, nothing measured.
    fn of(ask: &Ask) -> Outcome {
        Outcome {
            name: ask.name.clone(),
            kind: ask.kind.clone(),
            single: ask.single,
            pass: false,
            miss: None,
            broke: None,
            seconds: 0.0,
            tokens_in: None,
            tokens_out: None,
            asked: String::new(),
            revisions: 0,
            said: String::new(),
            wrote: String::new(),
        }
    }
}

/// How the server was asked, in words: by tools or on the one-model path, how the patch model gives JSON,
/// and whether its answer was held to the targets' places.
fn asked(provider: &Provider, done: Option<&TurnOutcome>) -> String {
    format!(
        "{}, {}{}",
        if provider.calls_tools() {
            "tools"
        } else {
            "one model"
        },
        provider.patch_format(),
        match done {
            Some(done) if done.patch_prompts.iter().any(|p| p.constrained) =>
                ", held to the targets",
            _ => "",
        }
    )
}

/// Runs `ask` on a fresh copy of its resume in a store under `dir`, against `config`'s server asked the
/// way `learned` says.
pub async fn run(config: &ProviderConfig, learned: &Learned, ask: &Ask, dir: &Path) -> Outcome {
    let started = Instant::now();
    let provider = Provider::new(config.clone()).with_learned(learned);
    let before = ask.resume.clone().unwrap_or_else(redline_resume::sample);
    let mut outcome = Outcome::of(ask);
    // A letter's ask starts from the letter's frame: the resume stays as it was.
    let frame = ask.posting.as_deref().map(|posting| {
        let job = redline_resume::posting::job(posting);
        redline_resume::letter::skeleton(&job.company, &job.role, &redline_store::today())
    });
    let (mut store, id) = match open_store(dir, &before, frame.as_ref()) {
        Ok(opened) => opened,
        Err(e) => {
            outcome.broke = Some(format!("the eval's store: {e}"));
            return outcome;
        }
    };
    let mut surface = Surface::new("eval");
    let turn = Turn {
        store: &mut store,
        document_id: Some(id),
        provider: &provider,
        surface: &mut surface,
        policy: Policy::default(),
        selected: ask.selected.clone(),
        cancel: CancellationToken::new(),
        stall: std::time::Duration::from_secs(3),
        job: ask.posting.clone(),
        review: false,
        checks: None,
        quotes_file: false,
    };
    let result = turn.run(&ask.message, &mut |_| {}).await;
    outcome.seconds = started.elapsed().as_secs_f64();
    outcome.asked = match ask.posting.is_some() && !provider.calls_tools() {
        // A letter on the one-model path is asked for as prose ([`crate::prose`]).
        true => "one model, as prose".to_owned(),
        false => asked(&provider, result.as_ref().ok()),
    };
    let (used_in, used_out) = provider.usage();
    match &result {
        Ok(done) => {
            outcome.revisions = done.revisions.len();
            outcome.said = redline_resume::shorten(&done.reply, 300);
            if let Some(last) = done.patch_prompts.last() {
                outcome.wrote = redline_resume::shorten(&last.answer, 500);
            }
            let (counted_in, counted_out) = count(&provider, done).await;
            outcome.tokens_in = (used_in > 0).then_some(used_in).or(counted_in);
            outcome.tokens_out = (used_out > 0).then_some(used_out).or(counted_out);
        }
        Err(e) => outcome.said = format!("error: {e}"),
    }
    let after = match store.head(id) {
        Ok(head) => head.document,
        Err(e) => {
            outcome.broke = Some(format!("the resume cannot be read back: {e}"));
            return outcome;
        }
    };
    let committed = result.as_ref().ok().map(|done| done.revisions.len());
    match (&frame, &ask.posting) {
        (Some(frame), Some(posting)) => {
            let known = crate::letter::known(&ask.message, &before, Some(posting));
            outcome.broke = letter_broken(&store, id, frame, &after, &known);
            outcome.miss =
                missed(frame, &after, ask, committed).or_else(|| letter_missed(&after, posting));
        }
        _ => {
            outcome.broke = broken(&store, id, &before, &after, ask);
            outcome.miss = missed(&before, &after, ask, committed);
        }
    }
    outcome.pass = outcome.broke.is_none() && outcome.miss.is_none();
    outcome
}

/// The eval's store in `dir`, holding `resume` and, for a letter's ask, its letter `frame`: the store and
/// the document the ask is about.
fn open_store(
    dir: &Path,
    resume: &Value,
    frame: Option<&Value>,
) -> Result<(Store, i64), redline_store::StoreError> {
    let mut store = Store::open(dir)?;
    let resume = store.import("Eval", resume)?;
    let id = match frame {
        Some(frame) => store.create_letter(resume, "Letter", frame)?,
        None => resume,
    };
    Ok((store, id))
}

/// The tokens of each patch request and answer, counted by the server's tokenizer (for servers that do
/// not report usage on a stream).
async fn count(provider: &Provider, done: &TurnOutcome) -> (Option<u64>, Option<u64>) {
    let (mut sent, mut wrote) = (Some(0), Some(0));
    for prompt in &done.patch_prompts {
        sent = match (sent, provider.count_tokens(&prompt.prompt).await) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        wrote = match (wrote, provider.count_tokens(&prompt.answer).await) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }
    match done.patch_prompts.is_empty() {
        true => (None, None),
        false => (sent, wrote),
    }
}

/// An invariant `after` breaks, in words.
fn broken(store: &Store, id: i64, before: &Value, after: &Value, ask: &Ask) -> Option<String> {
    let history = match store.history(id) {
        Ok(history) => history,
        Err(e) => return Some(format!("the history cannot be read: {e}")),
    };
    for revision in history {
        match store.checkout(id, revision.number) {
            Ok(r) if redline_resume::validate(&r.document).is_err() => {
                return Some(format!(
                    "revision {} is not a valid JSON Resume",
                    revision.number
                ));
            }
            Ok(_) => {}
            Err(e) => return Some(format!("revision {} cannot be read: {e}", revision.number)),
        }
    }
    strayed(before, after, ask)
}

/// An invariant a letter breaks, in words: a revision that is not a valid letter, or a fact committed
/// that is in neither the resume nor the posting (`known`), against its `frame`.
fn letter_broken(
    store: &Store,
    id: i64,
    frame: &Value,
    after: &Value,
    known: &str,
) -> Option<String> {
    let history = match store.history(id) {
        Ok(history) => history,
        Err(e) => return Some(format!("the history cannot be read: {e}")),
    };
    for revision in history {
        match store.checkout(id, revision.number) {
            Ok(r) if redline_resume::letter::validate(&r.document).is_err() => {
                return Some(format!(
                    "revision {} is not a valid letter",
                    revision.number
                ));
            }
            Ok(_) => {}
            Err(e) => return Some(format!("revision {} cannot be read: {e}", revision.number)),
        }
    }
    let invented = crate::facts::invented(frame, after, known);
    (!invented.facts.is_empty()).then(|| {
        format!(
            "committed what neither the resume nor the posting says: {}",
            invented.facts.join(", ")
        )
    })
}

/// The most words a letter has to fit on one page under its sender's header (recruiters ask for 250
/// to 400).
pub const MAX_LETTER_WORDS: usize = 400;

/// What a letter written for `posting` lacks, in words: three paragraphs or more, the company and the
/// role the posting names, and no more words than a page holds.
pub fn letter_missed(letter: &Value, posting: &str) -> Option<String> {
    let paragraphs: Vec<&str> = letter["paragraphs"]
        .as_array()
        .map(|ps| ps.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let text = paragraphs.join("\n");
    let job = redline_resume::posting::job(posting);
    let words = text.split_whitespace().count();
    if paragraphs.len() < 3 {
        return Some(format!(
            "{} paragraph(s), not three or more",
            paragraphs.len()
        ));
    }
    for (what, name) in [("company", &job.company), ("role", &job.role)] {
        if !name.is_empty() && !holds(&Value::String(text.clone()), name) {
            return Some(format!("the {what} “{name}” is not named"));
        }
    }
    (words > MAX_LETTER_WORDS).then(|| format!("{words} words, more than a page holds"))
}

/// What `after` changed that `ask` may not: who the resume is about, or anything outside the ask's part,
/// in words.
pub fn strayed(before: &Value, after: &Value, ask: &Ask) -> Option<String> {
    if let Some(field) = redline_patch::policy::IDENTITY
        .iter()
        .find(|p| before.pointer(p) != after.pointer(p))
    {
        return Some(format!("{field} changed without the user's confirmation"));
    }
    let changed = json_patch::diff(before, after);
    changed
        .0
        .iter()
        .map(|op| op.path().to_string())
        .find(|path| !ask.part.iter().any(|part| within(path, part)))
        .map(|path| format!("{path} changed, outside the ask's part"))
}

/// The first expectation `after` does not meet, in words, when the ask's turn committed `committed`
/// revisions (`None`: it ended in an error). `tests/llama.rs` judges the asks it puts through `redline chat`
/// with it too.
pub fn missed(
    before: &Value,
    after: &Value,
    ask: &Ask,
    committed: Option<usize>,
) -> Option<String> {
    if ask.held {
        return match committed {
            Some(0) | None => None,
            Some(_) => Some("committed; it should have been held or refused".to_owned()),
        };
    }
    let Some(committed) = committed else {
        return Some("the turn ended in an error".to_owned());
    };
    if committed == 0 {
        return Some("nothing was committed".to_owned());
    }
    for expect in &ask.expect {
        let now = after.pointer(&expect.at);
        if let Some(equals) = &expect.equals
            && now != Some(equals)
        {
            return Some(format!(
                "{} is {}, not {equals}",
                expect.at,
                now.map_or("missing".to_owned(), Value::to_string)
            ));
        }
        if let Some(has) = &expect.has
            && !now.is_some_and(|v| holds(v, has))
        {
            return Some(format!("“{has}” is not under {}", expect.at));
        }
        if let Some(lacks) = &expect.lacks
            && now.is_some_and(|v| holds(v, lacks))
        {
            return Some(format!("“{lacks}” is still under {}", expect.at));
        }
        if expect.changed && before.pointer(&expect.at) == now {
            return Some(format!("{} did not change", expect.at));
        }
        let length = |v: Option<&Value>| v.and_then(Value::as_str).map_or(0, |s| s.chars().count());
        if expect.shorter && length(now) >= length(before.pointer(&expect.at)) {
            return Some(format!("{} is not shorter", expect.at));
        }
    }
    None
}

/// True when some text in `value` holds `word`, letter case aside.
fn holds(value: &Value, word: &str) -> bool {
    let word = word.to_lowercase();
    match value {
        Value::String(s) => s.to_lowercase().contains(&word),
        Value::Array(items) => items.iter().any(|v| holds(v, &word)),
        Value::Object(fields) => fields.values().any(|v| holds(v, &word)),
        other => other.to_string().contains(&word),
    }
}

/// True when `path` is `part` or inside it.
fn within(path: &str, part: &str) -> bool {
    path == part
        || path
            .strip_prefix(part)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// What a run of a suite came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub asks: usize,
    pub passed: usize,
    pub single: usize,
    pub single_passed: usize,
    pub broke: usize,
    pub seconds: f64,
}

impl Totals {
    /// The totals of `outcomes`.
    pub fn of(outcomes: &[Outcome]) -> Totals {
        Totals {
            asks: outcomes.len(),
            passed: outcomes.iter().filter(|o| o.pass).count(),
            single: outcomes.iter().filter(|o| o.single).count(),
            single_passed: outcomes.iter().filter(|o| o.single && o.pass).count(),
            broke: outcomes.iter().filter(|o| o.broke.is_some()).count(),
            seconds: outcomes.iter().map(|o| o.seconds).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_suite_has_twenty_asks_of_every_kind_each_checkable() {
        let suite = Suite::shipped();
        assert!(suite.asks.len() >= 20);
        for kind in [
            "add", "change", "remove", "reorder", "text", "date", "hold", "selected", "two",
            "letter",
        ] {
            assert!(
                suite.asks.iter().any(|a| a.kind == kind),
                "no ask of kind {kind}"
            );
        }
        let sample = redline_resume::sample();
        for ask in &suite.asks {
            // A letter's checks are its own: the job its posting names, and a page.
            if let Some(posting) = &ask.posting {
                let job = redline_resume::posting::job(posting);
                assert!(
                    !job.company.is_empty() && !job.role.is_empty(),
                    "{}",
                    ask.name
                );
                let frame = redline_resume::letter::skeleton(&job.company, &job.role, "2026-01-01");
                assert!(letter_missed(&frame, posting).is_some(), "{}", ask.name);
                continue;
            }
            assert!(
                ask.held || !ask.expect.is_empty(),
                "{}: nothing to check",
                ask.name
            );
            let resume = ask.resume.as_ref().unwrap_or(&sample);
            // The sample does not already meet what the ask should do.
            if !ask.held {
                assert!(
                    missed(resume, resume, ask, Some(1)).is_some(),
                    "{}: already true before the ask",
                    ask.name
                );
            }
            if let Some(selected) = &ask.selected {
                assert!(resume.pointer(selected).is_some(), "{}", ask.name);
            }
        }
    }
}
