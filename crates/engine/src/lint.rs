//! The writing check of a resume (`redline_lint`): spelling in its language, grammar in English and a
//! recruiter's rules, with today's date from the clock and the user's own words from `words.txt` in the
//! data folder (one a line; never kept in the resume, so a copy sent out carries none of them).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use redline_lint::{Date, MAX_USER_WORDS, Options};
use redline_patch::{Operation, Policy};
use redline_store::Source;

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
        let options = Options {
            words: self.user_words()?,
            today: Some(today()),
            disabled: self.rules_off().await?.into_iter().collect(),
            ..Options::default()
        };
        tokio::task::spawn_blocking(move || match sender {
            Some(resume) => redline_lint::check_letter(&document, &resume, &options),
            None => redline_lint::check(&document, &options),
        })
        .await
        .map_err(|e| {
            Error::new(
                ErrorKind::Internal,
                format!("the check of the resume stopped: {e}"),
            )
        })
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
