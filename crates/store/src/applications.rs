//! Job applications: where each resume and letter went, and what became of it.
//!
//! An application keeps the posting's text as the user gave it (never fetched from a URL: a URL is kept as
//! text only), its stage with a dated timeline of every change of stage, and the exact revisions of the
//! resume and letter that were sent, so that the same files can be made again years later. Everything in
//! it may come from a file the user imports (a spreadsheet's CSV), so every field is bounded here, at the
//! one door into the table.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Result, Store, StoreError, Utc, now_ms};

/// The most characters a short field (company, role, source, URL, salary) may hold.
pub const MAX_SHORT_CHARS: usize = 500;
/// The most characters a long field (contacts, notes) may hold.
pub const MAX_NOTE_CHARS: usize = 20_000;
/// The most characters a posting's text may hold (a long posting is about 10,000).
pub const MAX_POSTING_CHARS: usize = 100_000;
/// The most tags an application may carry, and the most characters in one.
pub const MAX_TAGS: usize = 50;
/// See [`MAX_TAGS`].
pub const MAX_TAG_CHARS: usize = 100;

/// Where an application stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Kept to apply to later.
    Saved,
    /// Sent.
    Applied,
    /// In interviews.
    Interviewing,
    /// An offer was made.
    Offer,
    /// The employer said no.
    Rejected,
    /// The user stepped back.
    Withdrawn,
}

impl Stage {
    /// Every stage, in the order an application moves through them.
    pub const ALL: [Stage; 6] = [
        Stage::Saved,
        Stage::Applied,
        Stage::Interviewing,
        Stage::Offer,
        Stage::Rejected,
        Stage::Withdrawn,
    ];

    /// The stage's name, as stored and typed.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Saved => "saved",
            Stage::Applied => "applied",
            Stage::Interviewing => "interviewing",
            Stage::Offer => "offer",
            Stage::Rejected => "rejected",
            Stage::Withdrawn => "withdrawn",
        }
    }

    /// The stage a name stands for, any case; `None` for a word that names none.
    pub fn parse(name: &str) -> Option<Stage> {
        let name = name.trim().to_lowercase();
        Stage::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A document at the exact revision that was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Pinned {
    /// The document's id.
    #[ts(type = "number")]
    pub document_id: i64,
    /// The revision sent.
    #[ts(type = "number")]
    pub revision: u64,
}

/// One change of stage, on the day it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StageChange {
    /// The stage entered.
    pub stage: Stage,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
}

/// What a new application holds (every text field may be empty but the company and the role); the window
/// sends it as `ApplicationFields`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(rename = "ApplicationFields")]
pub struct NewApplication {
    /// The employer.
    pub company: String,
    /// The job's title.
    pub role: String,
    /// The posting's text.
    pub posting: String,
    /// Where the posting came from, in the user's words ("LinkedIn", "a friend").
    pub source: String,
    /// The posting's address, kept as text (never fetched).
    pub url: String,
    /// The stage it starts at; saved when `None`.
    pub stage: Option<Stage>,
    /// The people to talk to, one a line.
    pub contacts: String,
    /// Anything else.
    pub notes: String,
    /// The salary, as written ("€60k–70k").
    pub salary: String,
    /// When to follow up, `YYYY-MM-DD`.
    pub follow_up: Option<String>,
    /// Labels.
    pub tags: Vec<String>,
    /// The resume sent, at its revision.
    pub resume: Option<Pinned>,
    /// The letter sent, at its revision.
    pub letter: Option<Pinned>,
    /// Earlier stage changes to keep before the starting stage (an import's "Applied" date), oldest first.
    pub timeline: Vec<StageChange>,
    /// The day of the starting stage, `YYYY-MM-DD`; today when `None`.
    pub date: Option<String>,
}

/// An application as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Application {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// The employer.
    pub company: String,
    /// The job's title.
    pub role: String,
    /// The posting's text.
    pub posting: String,
    /// Where the posting came from.
    pub source: String,
    /// The posting's address, as text.
    pub url: String,
    /// Where it stands now.
    pub stage: Stage,
    /// The people to talk to.
    pub contacts: String,
    /// Anything else.
    pub notes: String,
    /// The salary, as written.
    pub salary: String,
    /// When to follow up, `YYYY-MM-DD`.
    pub follow_up: Option<String>,
    /// Labels, in alphabetical order.
    pub tags: Vec<String>,
    /// The resume sent.
    pub resume: Option<Pinned>,
    /// The letter sent.
    pub letter: Option<Pinned>,
    /// Every change of stage, oldest first.
    pub timeline: Vec<StageChange>,
    /// Creation time, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Last change, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub updated_at: i64,
}

impl Application {
    /// The day it was first sent: its first change to "applied", if any.
    pub fn applied_on(&self) -> Option<&str> {
        self.timeline
            .iter()
            .find(|c| c.stage == Stage::Applied)
            .map(|c| c.date.as_str())
    }
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let t = Utc::from_ms(now_ms());
    format!("{:04}-{:02}-{:02}", t.year, t.month, t.day)
}

/// Whether `date` is a real calendar day written `YYYY-MM-DD` (years 1900 to 2999).
pub fn is_date(date: &str) -> bool {
    let b = date.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let number = |r: std::ops::Range<usize>| {
        date.get(r)
            .filter(|s| s.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|s| s.parse::<u32>().ok())
    };
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1900..=2999).contains(&year) && (1..=days).contains(&day)
}

fn invalid(message: String) -> StoreError {
    StoreError::InvalidApplication(message)
}

/// `text` trimmed, or an error naming `field` when it is longer than `limit` characters.
fn bounded(field: &str, text: &str, limit: usize) -> Result<String> {
    let text = text.trim();
    if text.chars().count() > limit {
        return Err(invalid(format!(
            "the {field} is longer than {limit} characters; shorten it"
        )));
    }
    Ok(text.to_owned())
}

fn checked_date(field: &str, date: &str) -> Result<String> {
    let date = date.trim();
    if is_date(date) {
        Ok(date.to_owned())
    } else {
        Err(invalid(format!(
            "the {field} “{}” is not a date written YYYY-MM-DD",
            date.chars().take(40).collect::<String>()
        )))
    }
}

/// The tags, trimmed, empty ones and repeats dropped, each and their number bounded.
fn checked_tags(tags: &[String]) -> Result<Vec<String>> {
    let mut kept: Vec<String> = Vec::new();
    for tag in tags {
        let tag = bounded("tag", tag, MAX_TAG_CHARS)?;
        if !tag.is_empty() && !kept.contains(&tag) {
            kept.push(tag);
        }
    }
    if kept.len() > MAX_TAGS {
        return Err(invalid(format!(
            "an application can carry at most {MAX_TAGS} tags"
        )));
    }
    Ok(kept)
}

/// The new application's fields, checked and trimmed.
fn checked(new: &NewApplication) -> Result<NewApplication> {
    let short = |field, text: &str| bounded(field, text, MAX_SHORT_CHARS);
    let company = short("company", &new.company)?;
    let role = short("role", &new.role)?;
    if company.is_empty() || role.is_empty() {
        return Err(invalid(
            "an application needs a company and a role".to_owned(),
        ));
    }
    let timeline = new
        .timeline
        .iter()
        .map(|c| {
            Ok(StageChange {
                stage: c.stage,
                date: checked_date("date", &c.date)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(NewApplication {
        company,
        role,
        posting: bounded("posting", &new.posting, MAX_POSTING_CHARS)?,
        source: short("source", &new.source)?,
        url: short("address", &new.url)?,
        stage: new.stage,
        contacts: bounded("contacts", &new.contacts, MAX_NOTE_CHARS)?,
        notes: bounded("notes", &new.notes, MAX_NOTE_CHARS)?,
        salary: short("salary", &new.salary)?,
        follow_up: match new.follow_up.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(d) => Some(checked_date("follow-up date", d)?),
        },
        tags: checked_tags(&new.tags)?,
        resume: new.resume,
        letter: new.letter,
        timeline,
        date: match new.date.as_deref() {
            None => None,
            Some(d) => Some(checked_date("date", d)?),
        },
    })
}

const COLUMNS: &str = "id, company, role, posting, source, url, stage, contacts, notes, salary, follow_up, \
                       resume_id, resume_revision, letter_id, letter_revision, created_at, updated_at";

fn row_to_application(row: &Row<'_>) -> rusqlite::Result<Application> {
    let pinned = |id: Option<i64>, revision: Option<u64>| match (id, revision) {
        (Some(document_id), Some(revision)) => Some(Pinned {
            document_id,
            revision,
        }),
        _ => None,
    };
    Ok(Application {
        id: row.get(0)?,
        company: row.get(1)?,
        role: row.get(2)?,
        posting: row.get(3)?,
        source: row.get(4)?,
        url: row.get(5)?,
        stage: Stage::parse(&row.get::<_, String>(6)?).unwrap_or(Stage::Saved),
        contacts: row.get(7)?,
        notes: row.get(8)?,
        salary: row.get(9)?,
        follow_up: row.get(10)?,
        resume: pinned(row.get(11)?, row.get(12)?),
        letter: pinned(row.get(13)?, row.get(14)?),
        created_at: row.get(15)?,
        updated_at: row.get(16)?,
        tags: Vec::new(),
        timeline: Vec::new(),
    })
}

impl Store {
    /// Records a new application (its fields checked and bounded; a pinned revision must exist) and
    /// returns its id. Its timeline starts with the stage it is given, on the day given or today.
    pub fn add_application(&mut self, new: &NewApplication) -> Result<i64> {
        let tx = self.conn.transaction()?;
        let id = insert(&tx, new)?;
        tx.commit()?;
        Ok(id)
    }

    /// Records every application of `news` or none (a spreadsheet's rows): the first that is refused is
    /// named by its row, `first_row` being the row of `news[0]`.
    pub fn add_applications(
        &mut self,
        news: &[NewApplication],
        first_row: usize,
    ) -> Result<Vec<i64>> {
        let tx = self.conn.transaction()?;
        let mut ids = Vec::with_capacity(news.len());
        for (i, new) in news.iter().enumerate() {
            let id = insert(&tx, new).map_err(|e| {
                invalid(format!("row {}: {e}; nothing was imported", first_row + i))
            })?;
            ids.push(id);
        }
        tx.commit()?;
        Ok(ids)
    }
}

fn last_stage_change(conn: &Connection, id: i64) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT coalesce(max(id), 0) FROM application_stages WHERE application_id = ?1",
        [id],
        |row| row.get(0),
    )?)
}

/// Fails unless `pin`'s document (deleted or not) has that revision.
fn pinned_exists(conn: &Connection, pin: Pinned) -> Result<()> {
    let found: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM revisions WHERE document_id = ?1 AND number = ?2)",
        params![pin.document_id, pin.revision],
        |row| row.get(0),
    )?;
    if found {
        Ok(())
    } else {
        Err(StoreError::NoRevision {
            document: pin.document_id,
            revision: pin.revision,
        })
    }
}

/// Writes one application, checked, inside the caller's transaction; returns its id.
fn insert(tx: &Connection, new: &NewApplication) -> Result<i64> {
    let new = checked(new)?;
    for pin in [new.resume, new.letter].into_iter().flatten() {
        pinned_exists(tx, pin)?;
    }
    let stage = new.stage.unwrap_or(Stage::Saved);
    let date = new.date.clone().unwrap_or_else(today);
    let now = now_ms();
    tx.prepare_cached(
        "INSERT INTO applications (company, role, posting, source, url, stage, contacts, notes, salary,
                                   follow_up, resume_id, resume_revision, letter_id, letter_revision,
                                   created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
    )?
    .execute(params![
        new.company,
        new.role,
        new.posting,
        new.source,
        new.url,
        stage.as_str(),
        new.contacts,
        new.notes,
        new.salary,
        new.follow_up,
        new.resume.map(|p| p.document_id),
        new.resume.map(|p| p.revision),
        new.letter.map(|p| p.document_id),
        new.letter.map(|p| p.revision),
        now
    ])?;
    let id = tx.last_insert_rowid();
    let mut timeline = new.timeline.clone();
    if timeline.last().is_none_or(|c| c.stage != stage) {
        timeline.push(StageChange { stage, date });
    }
    for change in &timeline {
        tx.prepare_cached(
            "INSERT INTO application_stages (application_id, stage, on_date, created_at)
             VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![id, change.stage.as_str(), change.date, now])?;
    }
    for tag in &new.tags {
        tx.prepare_cached("INSERT INTO application_tags (application_id, tag) VALUES (?1, ?2)")?
            .execute(params![id, tag])?;
    }
    Ok(id)
}

impl Store {
    /// Moves an application to `stage` on `date` (`YYYY-MM-DD`, today when `None`): a new entry on its
    /// timeline, even for the stage it is at (a second interview is a second entry).
    pub fn move_application(
        &mut self,
        id: i64,
        stage: Stage,
        date: Option<&str>,
    ) -> Result<Application> {
        let date = match date {
            Some(d) => checked_date("date", d)?,
            None => today(),
        };
        let change = StageChange { stage, date };
        self.add_stage_changes(id, std::slice::from_ref(&change), stage)?;
        self.application(id)
    }

    /// An application's stage changes after the one with row id `after`, in the order they were made:
    /// each with its row id.
    pub fn stage_changes_after(&self, id: i64, after: i64) -> Result<Vec<(i64, StageChange)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, stage, on_date FROM application_stages WHERE application_id = ?1 AND id > ?2
             ORDER BY id",
        )?;
        let rows = stmt.query_map(params![id, after], |row| {
            Ok((
                row.get(0)?,
                StageChange {
                    stage: Stage::parse(&row.get::<_, String>(1)?).unwrap_or(Stage::Saved),
                    date: row.get(2)?,
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Adds `changes` to an application's timeline (each date checked: a move here, or another device's
    /// moves) and sets where it stands to `stage`, in one transaction; returns the row id of its last
    /// stage change.
    pub fn add_stage_changes(
        &mut self,
        id: i64,
        changes: &[StageChange],
        stage: Stage,
    ) -> Result<i64> {
        let now = now_ms();
        let tx = self.conn.transaction()?;
        let changed = tx.execute(
            "UPDATE applications SET stage = ?2, updated_at = ?3 WHERE id = ?1",
            params![id, stage.as_str(), now],
        )?;
        if changed == 0 {
            return Err(StoreError::NoApplication(id));
        }
        for change in changes {
            let date = checked_date("date", &change.date)?;
            tx.execute(
                "INSERT INTO application_stages (application_id, stage, on_date, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![id, change.stage.as_str(), date, now],
            )?;
        }
        let last = last_stage_change(&tx, id)?;
        tx.commit()?;
        Ok(last)
    }

    /// The row id of an application's last stage change (0: none).
    pub fn last_stage_change(&self, id: i64) -> Result<i64> {
        last_stage_change(&self.conn, id)
    }

    /// One application, with its tags and timeline.
    pub fn application(&self, id: i64) -> Result<Application> {
        let found = self
            .conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM applications WHERE id = ?1"),
                [id],
                row_to_application,
            )
            .optional()?
            .ok_or(StoreError::NoApplication(id))?;
        self.filled(found)
    }

    /// Every application, most recently changed first, each with its tags and timeline.
    pub fn applications(&self) -> Result<Vec<Application>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {COLUMNS} FROM applications ORDER BY updated_at DESC, id DESC"
        ))?;
        let rows = stmt
            .query_map([], row_to_application)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter().map(|a| self.filled(a)).collect()
    }

    /// `application` with its tags and its timeline read.
    fn filled(&self, mut application: Application) -> Result<Application> {
        application.tags = self
            .conn
            .prepare_cached(
                "SELECT tag FROM application_tags WHERE application_id = ?1 ORDER BY tag",
            )?
            .query_map([application.id], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        application.timeline = self
            .conn
            .prepare_cached(
                "SELECT stage, on_date FROM application_stages WHERE application_id = ?1
                 ORDER BY on_date, id",
            )?
            .query_map([application.id], |row| {
                Ok(StageChange {
                    stage: Stage::parse(&row.get::<_, String>(0)?).unwrap_or(Stage::Saved),
                    date: row.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(application)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        (dir, store)
    }

    #[test]
    fn dates_are_real_days() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-1-01"));
        assert!(!is_date("24-01-01xx"));
        assert!(!is_date("２０２４-01-01"));
        assert!(is_date(&today()));
    }

    #[test]
    fn an_application_keeps_its_fields_pins_and_a_dated_timeline() {
        let (_dir, mut store) = store();
        let resume = store
            .import("Ada", &serde_json::json!({"basics": {"name": "Ada"}}))
            .unwrap();
        let id = store
            .add_application(&NewApplication {
                company: "  Initech ".into(),
                role: "Engineer".into(),
                tags: vec!["remote".into(), "remote".into(), " ".into(), "rust".into()],
                resume: Some(Pinned {
                    document_id: resume,
                    revision: 1,
                }),
                stage: Some(Stage::Applied),
                date: Some("2025-01-02".into()),
                ..Default::default()
            })
            .unwrap();
        let moved = store
            .move_application(id, Stage::Interviewing, Some("2025-01-20"))
            .unwrap();
        assert_eq!(moved.company, "Initech");
        assert_eq!(moved.stage, Stage::Interviewing);
        assert_eq!(moved.tags, ["remote", "rust"]);
        assert_eq!(moved.applied_on(), Some("2025-01-02"));
        assert_eq!(
            moved.timeline,
            [
                StageChange {
                    stage: Stage::Applied,
                    date: "2025-01-02".into()
                },
                StageChange {
                    stage: Stage::Interviewing,
                    date: "2025-01-20".into()
                }
            ]
        );
        assert_eq!(
            moved.resume,
            Some(Pinned {
                document_id: resume,
                revision: 1
            })
        );
        assert_eq!(store.applications().unwrap(), [moved]);
    }

    #[test]
    fn bad_fields_are_refused_in_words() {
        let (_dir, mut store) = store();
        let base = NewApplication {
            company: "Initech".into(),
            role: "Engineer".into(),
            ..Default::default()
        };
        let refused = |store: &mut Store, new: NewApplication| {
            store.add_application(&new).unwrap_err().to_string()
        };
        let no_role = NewApplication {
            role: " ".into(),
            ..base.clone()
        };
        assert!(refused(&mut store, no_role).contains("needs a company and a role"));
        let long = NewApplication {
            salary: "9".repeat(MAX_SHORT_CHARS + 1),
            ..base.clone()
        };
        assert!(refused(&mut store, long).contains("salary is longer than 500"));
        let bad_date = NewApplication {
            follow_up: Some("next week".into()),
            ..base.clone()
        };
        assert!(refused(&mut store, bad_date).contains("“next week” is not a date"));
        let ghost = NewApplication {
            letter: Some(Pinned {
                document_id: 9,
                revision: 3,
            }),
            ..base.clone()
        };
        assert_eq!(refused(&mut store, ghost), "document 9 has no revision 3");
        assert!(matches!(
            store.move_application(77, Stage::Offer, None),
            Err(StoreError::NoApplication(77))
        ));
        assert!(store.applications().unwrap().is_empty());
    }
}
