//! The writing check of a resume (`redline_lint`): spelling in its language, grammar in English and a
//! recruiter's rules, with today's date from the clock and the user's own words from `words.txt` in the
//! data folder (one a line; never kept in the resume, so a copy sent out carries none of them).

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use redline_agent::Held;
use redline_lint::{Date, Family, MAX_USER_WORDS, Options};
use redline_patch::pointer::is_within;
use redline_patch::{ApplyError, Operation, Policy};
use redline_store::Source;
use serde_json::Value;

use crate::ipc::{DocState, Emit};
use crate::settings::{self, Kept};

/// What the check finds, its rules and why each matters, for the front doors.
pub use redline_lint::{Finding, RuleId, reason};

use crate::{Engine, Error, ErrorKind};

/// The file in the data folder that holds the user's words.
pub const WORDS_FILE: &str = "words.txt";

/// The longest word a user may add, in characters.
pub const MAX_WORD_CHARS: usize = 64;

/// The most of `words.txt` that is read: [`MAX_USER_WORDS`] words of the longest length, and no more.
const MAX_WORDS_BYTES: u64 = (MAX_USER_WORDS * (MAX_WORD_CHARS * 4 + 1)) as u64;

impl Engine {
    /// The findings of resume `doc` at its head revision, in document order; of a letter, the spelling
    /// and grammar of its own parts, with its resume's names taken as words.
    pub async fn lint(&self, doc: i64) -> Result<Vec<Finding>, Error> {
        let (document, sender) = self.with_sender(doc).await?;
        let options = self.check_options().await?;
        checked(move || checker(sender.as_ref(), &options)(&document)).await
    }

    /// What edits held for the user (`held`) would bring to their resume's writing, before they are
    /// accepted: one list per operation, in their order. The edits are carried over to the head revision,
    /// as accepting them would; the resume is checked before and after them, and each finding that was
    /// not there before is listed under the operation that wrote where it is (an edit that brings none
    /// has an empty list).
    pub async fn held_findings(&self, held: &Held) -> Result<Vec<Vec<Finding>>, Error> {
        let doc = held.document_id;
        let (head, sender) = self.with_sender(doc).await?;
        let base = {
            let open = self.open()?.lock().await;
            open.store.checkout(doc, held.base)?.document
        };
        let ops = redline_patch::rebase(&base, &head, &held.ops).map_err(|e| {
            Error::new(
                ErrorKind::Conflict,
                format!("these edits no longer fit the resume: {e}"),
            )
        })?;
        let options = self.check_options().await?;
        checked(move || {
            findings_of_edits(&head, &ops, checker(sender.as_ref(), &options)).map_err(|e| {
                Error::new(
                    ErrorKind::Invalid,
                    format!("these edits do not apply to the resume: {e}"),
                )
            })
        })
        .await?
    }

    /// Adds `word` to the user's dictionary (`words.txt` in the data folder), so that the spelling check
    /// takes it as a word in every resume. Adding a word already there changes nothing.
    pub fn add_word(&self, word: &str) -> Result<(), Error> {
        let word = word.trim();
        let one_word = !word.is_empty()
            && word.chars().count() <= MAX_WORD_CHARS
            && !word.chars().any(|c| c.is_whitespace() || c.is_control());
        if !one_word {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "a word for the dictionary is one word of at most {MAX_WORD_CHARS} letters, with no spaces"
                ),
            ));
        }
        let path = self.words_path()?;
        let words = read_words(&path)?;
        if words
            .iter()
            .any(|w| w.to_lowercase() == word.to_lowercase())
        {
            return Ok(());
        }
        if words.len() >= MAX_USER_WORDS {
            return Err(Error::new(
                ErrorKind::Refused,
                format!(
                    "your dictionary already holds {MAX_USER_WORDS} words; remove some from {}",
                    path.display()
                ),
            ));
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| words_error(&path, &e))?;
        writeln!(file, "{word}").map_err(|e| words_error(&path, &e))
    }

    /// The findings of the resume on screen (the window's check, at each revision it shows).
    pub async fn lint_on_screen(&self) -> Result<Vec<Finding>, Error> {
        let doc = self.state().await?.document_id;
        self.lint(doc).await
    }

    /// Puts finding `finding`'s suggested words in place on the resume on screen, against revision `base`:
    /// a revision of its own, whose source is the check ("check" in the history), undoable as any other.
    /// The words must still be where the finding saw them; if the field changed since, nothing is done.
    pub async fn fix_finding(
        &self,
        base: u64,
        finding: Finding,
        emit: Emit<'_>,
    ) -> Result<DocState, Error> {
        self.idle()?;
        let Some(fix) = finding.fix.clone() else {
            return Err(Error::new(
                ErrorKind::Invalid,
                "this finding has no suggested words to put in place",
            ));
        };
        let mut open = self.open()?.lock().await;
        let at_base = open.store.checkout(open.document_id, base)?.document;
        let text = at_base.pointer(&finding.path).and_then(|v| v.as_str());
        let Some(fixed) = text.and_then(|t| replaced(t, &finding, &fix)) else {
            return Err(Error::new(
                ErrorKind::Refused,
                format!(
                    "“{}” is no longer where the check found it: check again and fix it from there",
                    finding.text
                ),
            ));
        };
        let ops = vec![Operation::Replace {
            path: finding.path.clone(),
            value: serde_json::Value::String(fixed),
        }];
        let summary = format!(
            "Fix “{}” (writing check: {})",
            finding.text,
            finding.rule.id()
        );
        crate::documents::commit_yours(
            &mut open,
            base,
            &ops,
            &Policy::default(),
            (Source::Check, summary),
            emit,
        )
    }

    /// Turns the writing check's rule `rule` (its id, `bullet.weak-opener`) on or off, for every resume.
    pub async fn set_rule_enabled(&self, rule: &str, on: bool) -> Result<(), Error> {
        let Some(rule) = RuleId::parse(rule) else {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "“{}” is not a rule of the writing check",
                    rule.chars().take(60).collect::<String>()
                ),
            ));
        };
        let mut off = self.rules_off().await?;
        off.retain(|r| *r != rule);
        if !on {
            off.push(rule);
        }
        let ids: Vec<&str> = off.iter().map(|r| r.id()).collect();
        let value = serde_json::to_string(&ids).unwrap_or_else(|_| "[]".to_owned());
        let mut open = self.open()?.lock().await;
        settings::set(&mut open.store, Kept::RulesOff, &value)
    }

    /// What the writing checks find in the resume on screen, as a note for the chat model (so that "fix
    /// the spelling" names the words the user sees underlined); none when they find nothing, or cannot
    /// run (a turn is never stopped by its note). Spelling and the recruiter's rules only: grammar would
    /// start its program before every `redline chat` (a second, and Harper's 150 MB), and a model reads
    /// grammar as well as it writes it.
    pub(crate) async fn checks_note(&self) -> Option<String> {
        let doc = self.state().await.ok()?.document_id;
        let (document, sender) = self.with_sender(doc).await.ok()?;
        let mut options = self.check_options().await.ok()?;
        let grammar = RuleId::ALL.iter().filter(|r| r.family() == Family::Grammar);
        options.disabled.extend(grammar);
        let findings = checked(move || checker(sender.as_ref(), &options)(&document)).await;
        note_of(&findings.ok()?)
    }

    /// The check's options as the user has them: their words, the rules they turned off, today's date.
    async fn check_options(&self) -> Result<Options, Error> {
        Ok(Options {
            words: self.user_words()?,
            today: Some(today()),
            disabled: self.rules_off().await?.into_iter().collect(),
            ..Options::default()
        })
    }

    /// The rules turned off; a value that cannot be read counts as none.
    async fn rules_off(&self) -> Result<Vec<RuleId>, Error> {
        let open = self.open()?.lock().await;
        let kept = settings::get(&open.store, Kept::RulesOff)?.unwrap_or_default();
        let ids: Vec<String> = serde_json::from_str(&kept).unwrap_or_default();
        Ok(ids.iter().filter_map(|id| RuleId::parse(id)).collect())
    }

    /// The user's words, from `words.txt` in the data folder; none when there is no data folder or file.
    fn user_words(&self) -> Result<Vec<String>, Error> {
        match self.data_dir() {
            Some(dir) => read_words(&dir.join(WORDS_FILE)),
            None => Ok(Vec::new()),
        }
    }

    fn words_path(&self) -> Result<PathBuf, Error> {
        self.data_dir()
            .map(|dir| dir.join(WORDS_FILE))
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::NotConfigured,
                    "there is no data folder to keep your dictionary in",
                )
            })
    }
}

/// The words of the file at `path`, one a line, read up to a bound: lines that are not one word of at most
/// [`MAX_WORD_CHARS`] characters are passed over, and no more than [`MAX_USER_WORDS`] are taken.
fn read_words(path: &Path) -> Result<Vec<String>, Error> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(words_error(path, &e)),
    };
    let mut bytes = Vec::new();
    file.take(MAX_WORDS_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| words_error(path, &e))?;
    Ok(String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::trim)
        .filter(|w| {
            !w.is_empty() && w.chars().count() <= MAX_WORD_CHARS && !w.contains(char::is_whitespace)
        })
        .take(MAX_USER_WORDS)
        .map(str::to_owned)
        .collect())
}

fn words_error(path: &Path, error: &std::io::Error) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!(
            "your dictionary ({}) could not be read or written: {error}",
            path.display()
        ),
    )
}

/// The check of a resume, or of a letter whose sender's resume is `sender`, with `options`.
fn checker<'a>(
    sender: Option<&'a Value>,
    options: &'a Options,
) -> impl Fn(&Value) -> Vec<Finding> + 'a {
    move |document| match sender {
        Some(resume) => redline_lint::check_letter(document, resume, options),
        None => redline_lint::check(document, options),
    }
}

/// The most findings a turn's note lists; the rest are counted.
const MAX_NOTED: usize = 30;

/// The most characters of a finding's words a turn's note quotes.
const MAX_NOTED_CHARS: usize = 80;

/// `findings` as a note for the chat model: one line each (where, the words, what is wrong, the fix),
/// at most [`MAX_NOTED`] of them; none when there are none.
fn note_of(findings: &[Finding]) -> Option<String> {
    if findings.is_empty() {
        return None;
    }
    let mut note = String::from(
        "Redline's writing checks find these in the document now; the user sees them underlined. They are \
         for reference: fix what the user asks to be fixed, and nothing else.",
    );
    // Words quoted, cut to their first MAX_NOTED_CHARS characters.
    let quoted = |text: &str| {
        let words: String = text.chars().take(MAX_NOTED_CHARS).collect();
        let cut = if text.chars().count() > MAX_NOTED_CHARS {
            "…"
        } else {
            ""
        };
        format!("“{words}{cut}”")
    };
    for finding in findings.iter().take(MAX_NOTED) {
        let _ = write!(
            note,
            "\n- {} ({}): {} — {}",
            finding.path,
            finding.rule.id(),
            quoted(&finding.text),
            finding.message
        );
        // A fix the message names already ("did you mean …?") is not said twice.
        if let Some(fix) = finding.fix.as_deref()
            && !finding.message.contains(&format!("“{fix}”"))
        {
            let _ = write!(note, " Suggested: {}.", quoted(fix));
        }
    }
    if findings.len() > MAX_NOTED {
        let _ = write!(note, "\n- and {} more.", findings.len() - MAX_NOTED);
    }
    Some(note)
}

/// Runs `check` off the async threads (a check reads dictionaries and may ask the grammar program).
async fn checked<T: Send + 'static>(
    check: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(check).await.map_err(|e| {
        Error::new(
            ErrorKind::Internal,
            format!("the check of the resume stopped: {e}"),
        )
    })
}

/// The findings that `ops` bring to `document`, one list per operation: `check` of the document after
/// them, less what it found before them at the same place, each under the operation whose place holds it
/// (the narrowest; of equals, the last to write there). A finding under no operation's place (one that a
/// removal or a shift of a list moved) is left out.
fn findings_of_edits(
    document: &Value,
    ops: &[Operation],
    check: impl Fn(&Value) -> Vec<Finding>,
) -> Result<Vec<Vec<Finding>>, ApplyError> {
    let before = check(document);
    let mut after = document.clone();
    let mut places = Vec::with_capacity(ops.len());
    for op in ops {
        places.push(written_at(&after, op));
        redline_patch::apply(&mut after, std::slice::from_ref(op))?;
    }
    let mut per_op = vec![Vec::new(); ops.len()];
    for finding in check(&after) {
        let known = before.iter().any(|b| {
            (b.rule, b.start, &b.path, &b.text)
                == (finding.rule, finding.start, &finding.path, &finding.text)
        });
        let owner = places
            .iter()
            .enumerate()
            .filter_map(|(j, place)| Some((j, place.as_deref()?)))
            .filter(|(_, place)| is_within(&finding.path, place))
            .max_by_key(|(j, place)| (place.len(), *j));
        if let (false, Some((j, _))) = (known, owner) {
            per_op[j].push(finding);
        }
    }
    Ok(per_op)
}

/// Where `op` puts a value in `document` (as the operations before it left it): its path, with a last
/// `-` (the end of a list) made the index the value lands at; none for an operation that puts nothing.
fn written_at(document: &Value, op: &Operation) -> Option<String> {
    match op {
        Operation::Remove { .. } | Operation::Test { .. } => None,
        Operation::Add { path, .. } => match path.strip_suffix("/-") {
            Some(list) => {
                let len = redline_patch::pointer::get(document, list)
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                Some(format!("{list}/{len}"))
            }
            None => Some(path.clone()),
        },
        Operation::Replace { path, .. }
        | Operation::Move { path, .. }
        | Operation::Copy { path, .. } => Some(path.clone()),
    }
}

/// Today's date (UTC) from the clock, for dates in the future and the job held now.
fn today() -> Date {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Date::from_unix_days(i64::try_from(seconds / 86_400).unwrap_or(0))
}

/// `text` with characters `finding.start..finding.end` replaced by `fix`, if they still read
/// `finding.text`.
fn replaced(text: &str, finding: &Finding, fix: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let words: String = chars.get(finding.start..finding.end)?.iter().collect();
    (words == finding.text).then(|| {
        let mut out: String = chars[..finding.start].iter().collect();
        out.push_str(fix);
        out.extend(&chars[finding.end..]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_read_within_bounds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(WORDS_FILE);
        let long = "x".repeat(MAX_WORD_CHARS + 1);
        std::fs::write(&path, format!("Hooli\n\n two words \n{long}\nPiper\n")).unwrap();
        assert_eq!(read_words(&path).unwrap(), vec!["Hooli", "Piper"]);
        assert!(read_words(&dir.path().join("none.txt")).unwrap().is_empty());
    }

    /// A check that finds every "teh" in every string, as spelling.
    fn finds_teh(document: &Value) -> Vec<Finding> {
        fn walk(value: &Value, path: &str, out: &mut Vec<Finding>) {
            match value {
                Value::String(text) if text.contains("teh") => out.push(Finding {
                    rule: RuleId::Spelling,
                    path: path.to_owned(),
                    start: text[..text.find("teh").unwrap_or(0)].chars().count(),
                    end: text[..text.find("teh").unwrap_or(0)].chars().count() + 3,
                    text: "teh".into(),
                    message: String::new(),
                    fix: Some("the".into()),
                }),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{path}/{i}"), out);
                    }
                }
                Value::Object(fields) => {
                    for (key, item) in fields {
                        walk(item, &format!("{path}/{key}"), out);
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(document, "", &mut out);
        out
    }

    #[test]
    fn held_edits_carry_only_the_findings_they_bring() {
        let document = serde_json::json!({
            "basics": {"summary": "Fixed teh build"},
            "work": [{"name": "Hooli", "highlights": ["Shipped it"]}],
        });
        let ops: Vec<Operation> = serde_json::from_value(serde_json::json!([
            {"op": "add", "path": "/work/0/highlights/-", "value": "Led teh team"},
            {"op": "replace", "path": "/work/0/name", "value": "Pied Piper"},
            {"op": "add", "path": "/work/-", "value": {"name": "teh Co", "highlights": ["teh one"]}},
            {"op": "remove", "path": "/basics/summary"},
        ]))
        .unwrap();
        let per_op = findings_of_edits(&document, &ops, finds_teh).unwrap();
        let paths: Vec<Vec<&str>> = per_op
            .iter()
            .map(|list| {
                let mut paths: Vec<&str> = list.iter().map(|f| f.path.as_str()).collect();
                paths.sort_unstable();
                paths
            })
            .collect();
        // The appended bullet's "teh" is the first edit's, found where it landed (`-` made `1`); a whole new
        // entry's are the third's; the summary's, there before, is no edit's.
        assert_eq!(
            paths,
            [
                vec!["/work/0/highlights/1"],
                vec![],
                vec!["/work/1/highlights/0", "/work/1/name"],
                vec![],
            ]
        );
        // A finding the resume had before, left as it was by an edit around it, is not the edit's.
        let unchanged: Vec<Operation> = serde_json::from_value(serde_json::json!([
            {"op": "replace", "path": "/basics", "value": {"summary": "Fixed teh build", "name": "Ana"}},
        ]))
        .unwrap();
        assert_eq!(
            findings_of_edits(&document, &unchanged, finds_teh).unwrap(),
            [Vec::<Finding>::new()]
        );
        // Edits that do not apply are an error, not a list.
        let broken: Vec<Operation> = serde_json::from_value(
            serde_json::json!([{"op": "replace", "path": "/nowhere/0", "value": "x"}]),
        )
        .unwrap();
        assert!(findings_of_edits(&document, &broken, finds_teh).is_err());
    }

    #[tokio::test]
    async fn a_held_edit_shows_its_findings_before_it_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        let state = engine.state().await.unwrap();
        let (head, _) = engine.with_sender(state.document_id).await.unwrap();
        let ops: Vec<Operation> = serde_json::from_value(serde_json::json!([
            {"op": "add", "path": "/work/0/highlights/-",
             "value": "Responsible for the migration of our servres to Rust"},
            {"op": "replace", "path": "/basics/label", "value": "Senior Programmer"},
        ]))
        .unwrap();
        let held = Held::new(state.document_id, state.revision, ops, &head);
        let per_op = engine.held_findings(&held).await.unwrap();
        let rules: Vec<Vec<&str>> = per_op
            .iter()
            .map(|list| list.iter().map(|f| f.rule.id()).collect())
            .collect();
        assert_eq!(rules.len(), 2, "{per_op:?}");
        assert!(
            rules[0].contains(&"spelling") && rules[0].contains(&"bullet.weak-opener"),
            "{per_op:?}"
        );
        assert!(
            per_op[0].iter().all(|f| f.path == "/work/0/highlights/3"),
            "{per_op:?}"
        );
        assert!(rules[1].is_empty(), "{per_op:?}");
        // Nothing was committed: the head is as it was.
        assert_eq!(engine.state().await.unwrap().revision, state.revision);
    }

    #[tokio::test]
    async fn a_turn_shows_the_chat_model_what_the_checks_find() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        let state = engine.state().await.unwrap();
        let typo: Vec<Operation> = serde_json::from_value(serde_json::json!([
            {"op": "replace", "path": "/work/0/highlights/0", "value": "Built the servres in Rust"},
        ]))
        .unwrap();
        engine
            .edit(state.revision, typo, &mut |_| {})
            .await
            .unwrap();
        let fixture = redline_agent::fixtures::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../agent/fixtures/01-add-keyword.json"),
        )
        .unwrap();
        let (server, config) = redline_agent::fixtures::replay(&fixture, std::time::Duration::ZERO)
            .await
            .unwrap();
        engine
            .turn(config, &fixture.message, None, false, &mut |_| {})
            .await
            .unwrap();
        let first = server.requests().into_iter().next().unwrap();
        let notes: Vec<&str> = first["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "system")
            .filter_map(|m| m["content"].as_str())
            .filter(|text| text.starts_with("Redline's writing checks find"))
            .collect();
        assert_eq!(notes.len(), 1, "{first}");
        assert!(
            notes[0].contains("/work/0/highlights/0 (spelling): “servres”")
                && notes[0]
                    .lines()
                    .any(|line| line.contains("(spelling)")
                        && line.ends_with("did you mean “servers”?")),
            "{}",
            notes[0]
        );
    }

    #[test]
    fn a_turns_note_of_the_findings_is_bounded_and_absent_when_there_are_none() {
        assert_eq!(note_of(&[]), None);
        let finding = |i: usize| Finding {
            rule: RuleId::BulletWeakOpener,
            path: format!("/work/0/highlights/{i}"),
            start: 0,
            end: 200,
            text: "Responsible for ".repeat(12),
            message: "A weak opener.".into(),
            fix: None,
        };
        let many: Vec<Finding> = (0..MAX_NOTED + 5).map(finding).collect();
        let note = note_of(&many).unwrap();
        assert_eq!(note.lines().count(), 1 + MAX_NOTED + 1, "{note}");
        assert!(note.ends_with("- and 5 more."), "{note}");
        let line = note.lines().nth(1).unwrap();
        assert!(
            line.starts_with("- /work/0/highlights/0 (bullet.weak-opener): “Responsible for")
                && line.contains("…” — A weak opener."),
            "{line}"
        );
        assert!(line.chars().count() < MAX_NOTED_CHARS + 80, "{line}");
        // A fix the message does not name is suggested after it.
        let placeholder = Finding {
            fix: Some("Led [N] engineers".into()),
            ..finding(0)
        };
        let note = note_of(&[placeholder]).unwrap();
        assert!(
            note.ends_with("A weak opener. Suggested: “Led [N] engineers”."),
            "{note}"
        );
    }

    #[test]
    fn a_fix_goes_where_its_words_still_are_and_nowhere_else() {
        let finding = Finding {
            rule: RuleId::Spelling,
            path: "/basics/summary".into(),
            start: 6,
            end: 13,
            text: "servres".into(),
            message: String::new(),
            fix: Some("servers".into()),
        };
        assert_eq!(
            super::replaced("Built servres 🚀", &finding, "servers").as_deref(),
            Some("Built servers 🚀")
        );
        // The field changed since the check: nothing is put in place.
        assert_eq!(
            super::replaced("Built the servres", &finding, "servers"),
            None
        );
        assert_eq!(super::replaced("Short", &finding, "servers"), None);
    }
}
