//! Redline's local store: every resume and every change to it, in one SQLite file.
//!
//! Nothing the user or the model does may be lost, and every change can be undone. Each accepted change is
//! a revision of a document, written atomically (with the audit of the model call that produced it) with
//! `synchronous=FULL` in WAL mode, so an acknowledged revision survives even an OS crash. History is
//! append-only: undo, redo and restore are new revisions.
//!
//! # Layout
//! - [`Store`]: opens (or creates) the database in a data folder, checks its integrity, migrates it.
//! - `documents`: create, import, list, rename, soft-delete and restore documents (resumes and the letters
//!   that belong to them); variants; export.
//! - `revisions`: commit a change, head, checkout, history, diff, undo, redo, restore.
//! - `applications`: job applications: their stages on a dated timeline, tags, and the pinned revisions of
//!   the resume and letter that were sent.
//! - `conversation`: chat messages, the audit log of model calls (with retention), settings.
//! - `sync`: what this device keeps of the sync between runs: the events it accepted, which document each
//!   synced one is, the folder's files already read.
//! - [`backup`]: automatic backups with SQLite's backup API, and recovery from the latest one.
//! - [`schema`]: the versioned migrations, applied in order on `PRAGMA user_version`.
//! - [`data_dir`]: where the desktop app and the CLI keep their data, and how a test picks another folder.
//! - [`StoreError`]: what can go wrong, in words a user can act on.

#![forbid(unsafe_code)]
// Tests may be longer than library code (clippy.toml).
#![cfg_attr(test, allow(clippy::too_many_lines))]

mod applications;
pub mod backup;
mod conversation;
pub mod data_dir;
mod documents;
mod revisions;
mod schema;
mod sync;

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

pub use applications::{
    Application, MAX_NOTE_CHARS, MAX_POSTING_CHARS, MAX_SHORT_CHARS, MAX_TAG_CHARS, MAX_TAGS,
    NewApplication, Pinned, Stage, StageChange, is_date, today,
};
pub use conversation::{
    AUDIT_RETENTION_DAYS, ChatMessage, MAX_AUDIT_BYTES, MAX_AUDIT_TEXT_BYTES, ModelCall,
    ModelCallRecord, Outcome, Role,
};
pub use data_dir::{DATA_DIR_ENV, default_data_dir, resolve_data_dir};
pub use revisions::{Change, Committed, RevisionInfo, Tops};
pub use sync::{SyncEvent, SyncedApplication, SyncedDocument};

/// The database file's name inside the data folder.
pub const DATABASE_FILE: &str = "redline.db";

/// A full copy of the document is kept every this many revisions (and at the head), so rebuilding any
/// revision replays fewer than this many patches, and opening a document none (see the store's benchmark
/// for the trade between bytes on disk and checkout).
pub const SNAPSHOT_EVERY: u64 = 512;

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data folder could not be created or read.
    #[error("cannot use the data folder {path}: {source}")]
    DataDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The database failed its integrity check; it is left exactly as found.
    #[error(
        "the database {path} is damaged ({detail}); it was left untouched so that nothing more is lost{}",
        match backup {
            Some(b) => format!(". The latest backup is {}: `redline recover` sets the damaged file aside and opens the backup", b.display()),
            None => ". There is no backup to open".to_owned(),
        }
    )]
    Corrupt {
        path: PathBuf,
        detail: String,
        backup: Option<PathBuf>,
    },
    /// Another program holds the database (another Redline, or a recovery under way).
    #[error(
        "the database {path} is in use by another program (another Redline window or `redline` command); close it and try again"
    )]
    Busy { path: PathBuf },
    /// The database or its folder cannot be written.
    #[error(
        "cannot write to {path}: the file or its folder is read-only (or not yours); nothing was saved"
    )]
    ReadOnly { path: PathBuf },
    /// The disk is full.
    #[error("the disk holding {path} is full; nothing was saved. Free some space and try again")]
    DiskFull { path: PathBuf },
    /// A stored revision cannot be read back (written by an older Redline before the depth limit).
    #[error(
        "revision {revision} of document {document} cannot be read back ({detail}); the other documents are not affected"
    )]
    Unreadable {
        document: i64,
        revision: u64,
        detail: String,
    },
    /// The document would nest deeper than can be stored and read back.
    #[error(
        "the resume would nest {depth} levels deep, and at most {limit} can be stored; nothing was saved"
    )]
    TooDeep { depth: usize, limit: usize },
    /// The database was written by a newer Redline.
    #[error(
        "the database {path} was written by a newer version of Redline (schema {found}, this version knows up to {known}); please update Redline"
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// No such document (or it was deleted).
    #[error("there is no document {0}")]
    NoDocument(i64),
    /// A letter must belong to a resume, and the document named is not one.
    #[error("document {0} is a letter, not a resume; a letter belongs to a resume")]
    NotAResume(i64),
    /// The application named does not exist.
    #[error("there is no application {0}")]
    NoApplication(i64),
    /// An application's field is not what it must be (a date, a stage, a length).
    #[error("{0}")]
    InvalidApplication(String),
    /// The store holds no documents at all.
    #[error("there are no resumes yet")]
    Empty,
    /// The document has no such revision.
    #[error("document {document} has no revision {revision}")]
    NoRevision { document: i64, revision: u64 },
    /// A change was made against a revision that is no longer the head.
    #[error(
        "the change was made against revision {base} of document {document}, but it is now at revision {head}; nothing was saved"
    )]
    Stale { document: i64, base: u64, head: u64 },
    /// A change's operations do not apply to the document.
    #[error("the change does not apply to document {document}: {detail}; nothing was saved")]
    DoesNotApply { document: i64, detail: String },
    /// A change that changes nothing.
    #[error("the change leaves document {0} as it is; nothing was saved")]
    NoChange(i64),
    /// Nothing left to undo.
    #[error("there is nothing to undo in document {0}")]
    NothingToUndo(i64),
    /// Nothing undone to redo (or a new change came after the undo).
    #[error("there is nothing to redo in document {0}")]
    NothingToRedo(i64),
    /// A stored patch no longer applies: the history is inconsistent.
    #[error("revision {revision} of document {document} cannot be replayed: {detail}")]
    Replay {
        document: i64,
        revision: u64,
        detail: String,
    },
    /// A backup could not be made or opened.
    #[error("backup: {0}")]
    Backup(String),
    /// SQLite reported an error.
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// Stored JSON could not be read back.
    #[error("stored data is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl StoreError {
    /// Whether the action was refused only because it had nothing to do (nothing to undo or redo, or a change
    /// or restore that leaves the document as it is): the document is as it was, and nothing went wrong.
    pub fn is_nothing_to_do(&self) -> bool {
        matches!(
            self,
            StoreError::NoChange(_) | StoreError::NothingToUndo(_) | StoreError::NothingToRedo(_)
        )
    }

    /// What kind of failure it is, for the window's action and the CLI's exit status.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        use redline_error_kind::ErrorKind;
        match self {
            StoreError::Busy { .. } => ErrorKind::Busy,
            StoreError::ReadOnly { .. } | StoreError::DataDir { .. } => ErrorKind::ReadOnly,
            StoreError::DiskFull { .. } => ErrorKind::DiskFull,
            StoreError::Corrupt { .. }
            | StoreError::Unreadable { .. }
            | StoreError::Replay { .. } => ErrorKind::Damaged,
            StoreError::TooNew { .. } => ErrorKind::TooNew,
            StoreError::NoDocument(_)
            | StoreError::NoRevision { .. }
            | StoreError::NoApplication(_)
            | StoreError::Empty => ErrorKind::NotFound,
            StoreError::NotAResume(_) | StoreError::InvalidApplication(_) => ErrorKind::Invalid,
            StoreError::Stale { .. } => ErrorKind::Conflict,
            StoreError::DoesNotApply { .. } | StoreError::TooDeep { .. } => ErrorKind::Refused,
            StoreError::NoChange(_)
            | StoreError::NothingToUndo(_)
            | StoreError::NothingToRedo(_) => ErrorKind::Invalid,
            StoreError::Backup(_) | StoreError::Sqlite(_) | StoreError::Json(_) => {
                ErrorKind::Internal
            }
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    /// Errors met while the store is open: the ones a user can act on get their own words (the path is
    /// the database's, filled in by [`Store`] where it knows it).
    fn from(error: rusqlite::Error) -> Self {
        classify(error, Path::new("the database"))
    }
}

/// An SQLite error in the user's words: busy, read-only and a full disk each have their own, and only
/// `SQLITE_CORRUPT` and `SQLITE_NOTADB` count as damage.
fn classify(error: rusqlite::Error, path: &Path) -> StoreError {
    use rusqlite::ErrorCode as C;
    let path = path.to_owned();
    match error.sqlite_error_code() {
        Some(C::DatabaseBusy | C::DatabaseLocked) => StoreError::Busy { path },
        Some(
            C::ReadOnly | C::CannotOpen | C::PermissionDenied | C::AuthorizationForStatementDenied,
        ) => StoreError::ReadOnly { path },
        Some(C::DiskFull) => StoreError::DiskFull { path },
        Some(C::DatabaseCorrupt | C::NotADatabase) => StoreError::Corrupt {
            backup: backup::latest(&path),
            path,
            detail: error.to_string(),
        },
        _ => StoreError::Sqlite(error),
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Where a revision came from (the window's history gets it as this TypeScript type, generated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Proposed by the model and accepted.
    Ai,
    /// Made by hand in the resume view.
    User,
    /// A document brought in from a file (or the bundled sample), or a variant's first revision.
    Import,
    /// The inverse of an earlier revision.
    Undo,
    /// An undone revision applied again.
    Redo,
    /// An old revision brought back.
    Restore,
    /// A fix the writing check proposed and the user took.
    Check,
    /// A change made on another device, brought in through the sync folder.
    Sync,
}

impl Source {
    /// The name stored in the database and shown in history.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Ai => "ai",
            Source::User => "user",
            Source::Import => "import",
            Source::Undo => "undo",
            Source::Redo => "redo",
            Source::Restore => "restore",
            Source::Check => "check",
            Source::Sync => "sync",
        }
    }

    fn parse(name: &str) -> Source {
        match name {
            "ai" => Source::Ai,
            "user" => Source::User,
            "undo" => Source::Undo,
            "redo" => Source::Redo,
            "restore" => Source::Restore,
            "check" => Source::Check,
            "sync" => Source::Sync,
            _ => Source::Import,
        }
    }
}

/// What a document is: a resume, or a cover letter that belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum DocumentKind {
    /// A JSON Resume document.
    Resume,
    /// A cover letter: its own schema; the sender is the resume it belongs to.
    Letter,
}

impl DocumentKind {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::Resume => "resume",
            DocumentKind::Letter => "letter",
        }
    }

    fn parse(name: &str) -> DocumentKind {
        match name {
            "letter" => DocumentKind::Letter,
            _ => DocumentKind::Resume,
        }
    }
}

/// A document as listed: without its content.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSummary {
    /// The document's id.
    pub id: i64,
    /// The title the user sees.
    pub title: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Last change, milliseconds since the Unix epoch.
    pub updated_at: i64,
    /// The number of the head revision.
    pub head_revision: u64,
    /// For a variant: the document it was made from, and at which revision.
    pub parent_document: Option<i64>,
    /// See `parent_document`.
    pub parent_revision: Option<u64>,
    /// When it was deleted (it can be restored), milliseconds since the Unix epoch.
    pub deleted_at: Option<i64>,
    /// A resume or a letter.
    pub kind: DocumentKind,
    /// For a letter: the resume it belongs to (its sender).
    pub resume_id: Option<i64>,
}

/// A document's content at one revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    /// The document's id.
    pub document_id: i64,
    /// The revision's number, from 1.
    pub number: u64,
    /// The whole document at this revision.
    pub document: Value,
}

/// An open Redline database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// A shared lock on the database's lock file while this store is open ([`lock_file`]): recovery takes
    /// it exclusively, so it never replaces a database that a Redline has open.
    _lock: Option<std::fs::File>,
    /// The head document last committed or read through this connection, so that neither a commit nor
    /// opening the document again rebuilds it. A revision never changes once written, so the copy is
    /// right for its number; it is the head only while the database's head revision still matches
    /// (another process may commit).
    head_cache: std::cell::RefCell<Option<(i64, u64, Value)>>,
    /// How it was checked when it was opened.
    checked: Checked,
}

/// How a database was checked when it was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    /// Its header and schema read (a file that is not a database fails here).
    Header,
    /// Every page, and every index against its table (`PRAGMA integrity_check`), for a reason.
    Full(CheckReason),
}

/// Why a database was checked whole when it was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckReason {
    /// The last program to have it open did not close it (a crash, a power cut, a killed process).
    UncleanExit,
    /// It is new, or its last whole check is older than [`FULL_CHECK_EVERY_DAYS`].
    Schedule,
}

/// The setting: when the database was last checked whole (milliseconds since the Unix epoch).
const CHECKED_AT: &str = "store.checked_at";
/// Days between whole checks of a database that has not met a reason for one.
pub const FULL_CHECK_EVERY_DAYS: i64 = 7;

/// Whether the last program to have the database at `path` open left without closing it: its
/// write-ahead log is still there (SQLite removes it when the last connection closes) and no other
/// Redline has the database open now (none holds the lock file).
fn unclean_exit(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0)
        && matches!(lock_file(path, true), Ok(Some(_)))
}

/// Whether a whole check is due: never made, or made more than [`FULL_CHECK_EVERY_DAYS`] ago. A database
/// whose settings cannot be read (new, or not a database at all) is due.
fn check_due(conn: &Connection) -> bool {
    let last: Option<i64> = conn
        .query_row(
            "SELECT value FROM settings WHERE key = ?1",
            [CHECKED_AT],
            |row| row.get::<_, String>(0),
        )
        .ok()
        .and_then(|v| v.parse().ok());
    last.is_none_or(|at| now_ms() - at > FULL_CHECK_EVERY_DAYS * 24 * 60 * 60 * 1000)
}

/// Puts the database in WAL mode (it stays so, in the file). Another Redline opening a new database at
/// the same moment may hold it while switching it itself: SQLite then answers "busy" at once, without
/// waiting, so this waits here — and a database another process has switched already is done.
fn wal(conn: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let mode = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0));
        match mode {
            Ok(_) => return Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(e) => return Err(e),
        }
    }
}

impl Store {
    /// Opens the database in `data_dir`, creating the folder and the database if needed, checking its
    /// integrity and bringing its schema up to date.
    pub fn open(data_dir: &Path) -> Result<Store> {
        private_dir(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_owned(),
            source,
        })?;
        Store::open_file(&data_dir.join(DATABASE_FILE))
    }

    /// Opens (or creates) the database file at `path`.
    pub fn open_file(path: &Path) -> Result<Store> {
        let sqlite = |e: rusqlite::Error| classify(e, path);
        let unclean = unclean_exit(path);
        let lock = lock_file(path, false)?;
        let new = !path.exists();
        let conn = Connection::open(path).map_err(sqlite)?;
        // Another Redline may be opening or writing the same file (the app and the CLI, or two first
        // starts): wait for it rather than fail, from the first statement on.
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sqlite)?;
        if new {
            // Only the user may read their career history; SQLite gives the WAL and SHM files the same mode.
            private_file(path).map_err(|source| StoreError::DataDir {
                path: path.to_owned(),
                source,
            })?;
        }
        // A file that is not a database fails on its first read: report it as damage, never overwrite it.
        // A check of every page costs a millisecond per megabyte, on every command of the CLI too, so it
        // runs only where there is a reason (and every backup is checked whole before it counts as one);
        // otherwise SQLite reads the header and the schema, and reports damage on any page it meets.
        let checked = if unclean {
            Checked::Full(CheckReason::UncleanExit)
        } else if check_due(&conn) {
            Checked::Full(CheckReason::Schedule)
        } else {
            Checked::Header
        };
        let verdict: String = match checked {
            Checked::Header => conn
                .query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
                .map(|()| "ok".to_owned()),
            Checked::Full(_) => conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)),
        }
        .map_err(sqlite)?;
        if verdict != "ok" {
            return Err(StoreError::Corrupt {
                path: path.to_owned(),
                detail: verdict,
                backup: backup::latest(path),
            });
        }
        wal(&conn).map_err(sqlite)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sqlite)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(sqlite)?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
            _lock: lock,
            head_cache: Default::default(),
            checked,
        };
        schema::migrate(&mut store.conn, path).map_err(|e| store.located(e))?;
        if let Checked::Full(_) = checked {
            store
                .set_setting(CHECKED_AT, &now_ms().to_string())
                .map_err(|e| store.located(e))?;
        }
        store.prune_audit(now_ms()).map_err(|e| store.located(e))?;
        Ok(store)
    }

    /// `error` with this database's path where it names one.
    pub(crate) fn located(&self, error: StoreError) -> StoreError {
        located(error, &self.path)
    }

    /// The database file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Counts the rows SQLite hands this store from now on, into the counter returned: what an action
    /// reads, for a test that an action on a long history reads no more than on a short one.
    pub fn count_rows(&mut self) -> std::sync::Arc<std::sync::atomic::AtomicU64> {
        use std::sync::atomic::{AtomicU64, Ordering};
        let rows = std::sync::Arc::new(AtomicU64::new(0));
        let counter = rows.clone();
        let counted = self.conn.trace_v2(
            rusqlite::trace::TraceEventCodes::SQLITE_TRACE_ROW,
            Some(move |_: rusqlite::trace::TraceEvent<'_>| {
                counter.fetch_add(1, Ordering::Relaxed);
            }),
        );
        debug_assert!(counted.is_ok());
        rows
    }

    /// A mark of what was written to the database: the rows this store has inserted, changed or deleted
    /// since it was opened, and SQLite's count of commits by other connections (another process, a
    /// second store). The same mark later: nothing was written between. Asking reads no page.
    pub fn writes_mark(&self) -> Result<(u64, i64)> {
        let others = self
            .conn
            .query_row("PRAGMA data_version", [], |row| row.get(0))?;
        Ok((self.conn.total_changes(), others))
    }

    /// How the database was checked when it was opened.
    pub fn checked(&self) -> Checked {
        self.checked
    }

    /// Checks the whole database now — every page, every index against its table, every reference
    /// between tables — and returns what SQLite found wrong (nothing: a sound database).
    pub fn check(&mut self) -> Result<Vec<String>> {
        let mut found: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        found.retain(|line| line != "ok");
        let mut stmt = self.conn.prepare("PRAGMA foreign_key_check")?;
        let orphans = stmt.query_map([], |row| {
            Ok(format!(
                "a row of {} refers to a missing row of {}",
                row.get::<_, String>(0)?,
                row.get::<_, String>(2)?
            ))
        })?;
        for orphan in orphans {
            found.push(orphan?);
        }
        drop(stmt);
        if found.is_empty() {
            self.set_setting(CHECKED_AT, &now_ms().to_string())?;
        }
        Ok(found)
    }

    /// Moves everything in the write-ahead log into the database file and empties the log (SQLite also
    /// does this by itself as the log grows; this is for a backup or a measurement of the file).
    pub fn checkpoint(&self) -> Result<()> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// A moment as a UTC calendar date and time (for file names and history; no time-zone database needed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utc {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub milli: i64,
}

impl Utc {
    /// The moment `ms` milliseconds after the Unix epoch.
    pub fn from_ms(ms: i64) -> Utc {
        let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
        // Howard Hinnant's civil-from-days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        Utc {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: rest / 3_600_000,
            minute: rest / 60_000 % 60,
            second: rest / 1000 % 60,
            milli: rest % 1000,
        }
    }
}

impl std::fmt::Display for Utc {
    /// `2026-11-22 05:15 UTC`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02} {:02}:{:02} UTC",
            self.year, self.month, self.day, self.hour, self.minute
        )
    }
}

/// `error` with the database's path where it names one.
pub(crate) fn located(error: StoreError, path: &Path) -> StoreError {
    let path = path.to_owned();
    match error {
        StoreError::Busy { .. } => StoreError::Busy { path },
        StoreError::ReadOnly { .. } => StoreError::ReadOnly { path },
        StoreError::DiskFull { .. } => StoreError::DiskFull { path },
        other => other,
    }
}

/// Refuses a document the store could not read back: one that nests deeper than
/// [`redline_resume::MAX_DEPTH`] (serde_json reads at most 128 levels; a stored patch wraps the document's
/// values in two more).
pub(crate) fn check_readable(document: &Value) -> Result<()> {
    let depth = redline_resume::measure(document).depth;
    if depth > redline_resume::MAX_DEPTH {
        return Err(StoreError::TooDeep {
            depth,
            limit: redline_resume::MAX_DEPTH,
        });
    }
    Ok(())
}

/// Creates `dir` (and its parents) readable by the user only, on systems that have such modes; a `dir`
/// that exists already is made so too (another part of the app, the log's plugin, may have created it
/// first with the usual mode).
pub(crate) fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if std::fs::metadata(dir)?.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

/// Locks the lock file beside `database` (`redline.db.lock`): shared for a store that opens it, exclusive
/// (`exclusive`) for a recovery that would replace it. A lock held the other way makes this [`StoreError::Busy`]
/// at once. A folder where no lock file can be made or locked (read-only, or a file system without locks)
/// goes without one: SQLite's own locks still keep writers apart.
pub(crate) fn lock_file(database: &Path, exclusive: bool) -> Result<Option<std::fs::File>> {
    let mut name = database.as_os_str().to_owned();
    name.push(".lock");
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
    else {
        return Ok(None);
    };
    let _ = private_file(Path::new(&name));
    let locked = if exclusive {
        file.try_lock()
    } else {
        file.try_lock_shared()
    };
    match locked {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Busy {
            path: database.to_owned(),
        }),
        Err(std::fs::TryLockError::Error(_)) => Ok(None),
    }
}

/// Makes `file` readable and writable by the user only, on systems that have such modes.
pub(crate) fn private_file(file: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// The clock, in milliseconds since the Unix epoch (0 before it), as the store stamps what it keeps.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A store in a folder of its own, with `document` imported as `title`: the folder, the store and the
/// document's id.
#[cfg(test)]
pub(crate) fn store_with(title: &str, document: &Value) -> (tempfile::TempDir, Store, i64) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let id = store.import(title, document).unwrap();
    (dir, store, id)
}

/// The one value the query `sql` reads (a test's look at the database itself).
#[cfg(test)]
impl Store {
    pub(crate) fn one<T: rusqlite::types::FromSql>(&self, sql: &str) -> T {
        self.conn.query_row(sql, [], |r| r.get(0)).unwrap()
    }
}

/// Damage that opening does not see: the index `model_calls_by_time` made to index another column than
/// its rows were written with, then a row written through it (a test's way to a damaged database).
#[cfg(test)]
pub(crate) fn damage_an_index(store: &mut Store) {
    store
        .conn
        .execute_batch(
            "PRAGMA writable_schema = ON;
             UPDATE sqlite_schema SET sql = replace(sql, '(created_at)', '(model)')
                 WHERE name = 'model_calls_by_time';
             PRAGMA writable_schema = OFF;",
        )
        .unwrap();
    let call = ModelCall {
        model: "m".into(),
        request: "{}".into(),
        raw_output: "{}".into(),
        outcome: Outcome::Committed,
        applied: serde_json::json!([]),
        refused: serde_json::json!([]),
        error: None,
    };
    store.record_model_call(1, &call).unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_file_that_is_not_a_database_is_reported_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DATABASE_FILE);
        let garbage = b"this is a resume, not a database, and must not be overwritten".repeat(100);
        std::fs::write(&path, &garbage).unwrap();
        let err = Store::open(dir.path())
            .err()
            .expect("a damaged file must not open");
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
        assert!(err.to_string().contains("left untouched"));
        assert!(err.to_string().contains("There is no backup"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), garbage);
    }

    #[test]
    fn a_database_another_program_holds_is_busy_not_damaged() {
        let dir = tempfile::tempdir().unwrap();
        drop(Store::open(dir.path()).unwrap());
        let path = dir.path().join(DATABASE_FILE);
        let holder = Connection::open(&path).unwrap();
        holder
            .execute_batch(
                "PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=DELETE; BEGIN EXCLUSIVE;",
            )
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = Store::open(dir.path()).err().expect("held by another");
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
        assert!(
            err.to_string().contains("in use by another program"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_full_disk_and_a_read_only_database_have_their_own_words() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({"basics": {"name": "A"}}));
        let big = json!({"op": "add", "path": "/basics/summary", "value": "x".repeat(200_000)});
        let change = || {
            Change::new(
                1,
                Source::User,
                serde_json::from_value(json!([big])).unwrap(),
            )
        };
        // SQLite reports SQLITE_FULL when the file may not grow: as it does on a full disk.
        let pages: i64 = store.one("PRAGMA page_count");
        store
            .conn
            .pragma_update(None, "max_page_count", pages + 2)
            .unwrap();
        let err = store.commit(id, change()).unwrap_err();
        assert!(matches!(err, StoreError::DiskFull { .. }), "{err}");
        assert!(
            err.to_string().contains("is full; nothing was saved"),
            "{err}"
        );
        store
            .conn
            .pragma_update(None, "max_page_count", 1 << 30)
            .unwrap();
        store.conn.pragma_update(None, "query_only", true).unwrap();
        let err = store.commit(id, change()).unwrap_err();
        assert!(matches!(err, StoreError::ReadOnly { .. }), "{err}");
        store.conn.pragma_update(None, "query_only", false).unwrap();
        assert_eq!(store.commit(id, change()).unwrap().info.number, 2);
    }

    #[test]
    fn nothing_is_written_that_could_not_be_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let mut deep = json!("x");
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let err = store
            .import("Deep", &json!({"basics": {"x": deep}}))
            .unwrap_err();
        assert!(matches!(err, StoreError::TooDeep { .. }), "{err}");
        let id = store
            .import("Ada", &json!({"basics": {"name": "A"}}))
            .unwrap();
        let ops = json!([{"op": "add", "path": "/basics/x", "value": deep}]);
        let err = store
            .commit(
                id,
                Change::new(1, Source::Ai, serde_json::from_value(ops).unwrap()),
            )
            .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::TooDeep {
                    depth: 202,
                    limit: 64
                }
            ),
            "{err}"
        );
        assert_eq!(store.history(id).unwrap().len(), 1, "nothing was written");
        assert_eq!(store.list().unwrap().len(), 1);
    }

    #[test]
    fn a_revision_written_before_the_limit_is_reported_and_the_others_open() {
        let (dir, mut store, good) = crate::store_with("Ada", &json!({"basics": {"name": "A"}}));
        let bad = store
            .import("Bob", &json!({"basics": {"name": "B"}}))
            .unwrap();
        // An older Redline committed a value nested 200 levels deep.
        let deep = format!(
            r#"[{{"op":"add","path":"/basics/x","value":{}"x"{}}}]"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        store
            .conn
            .execute(
                "INSERT INTO revisions (document_id, number, created_at, base_revision, source, summary, forward, inverse)
                 VALUES (?1, 2, 0, 1, 'ai', '', ?2, '[]')",
                rusqlite::params![bad, deep],
            )
            .unwrap();
        store
            .conn
            .execute(
                "UPDATE documents SET head_revision = 2 WHERE id = ?1",
                [bad],
            )
            .unwrap();
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.list().unwrap().len(), 2);
        assert_eq!(store.head(good).unwrap().document["basics"]["name"], "A");
        let err = store.head(bad).unwrap_err();
        assert!(
            matches!(err, StoreError::Unreadable { revision: 2, .. }),
            "{err}"
        );
        assert_eq!(
            store.checkout(bad, 1).unwrap().document["basics"]["name"],
            "B"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_data_is_readable_by_the_user_only() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        // Made first by someone else, open to all (as the log's plugin may make it).
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let store = Store::open(&dir).unwrap();
        let backup = store.backup_now().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join(DATABASE_FILE)), 0o600);
        assert_eq!(mode(&dir.join(format!("{DATABASE_FILE}-wal"))), 0o600);
        assert_eq!(mode(backup.parent().unwrap()), 0o700);
        assert_eq!(mode(&backup), 0o600);
    }

    #[test]
    /// The whole check runs on a new database, after an unclean exit and once a week; every other open
    /// reads the header and the schema only. An index damaged under its table is found by the whole check
    /// (`Store::check`, `redline check`).
    fn a_whole_check_runs_where_there_is_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let first = Store::open(dir.path()).unwrap();
        assert_eq!(first.checked(), Checked::Full(CheckReason::Schedule));
        drop(first);
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(store.checked(), Checked::Header);
        store
            .import("Ada", &json!({"basics": {"name": "Ada"}}))
            .unwrap();

        // A process that dies with the database open leaves its write-ahead log: copied while open,
        // the files are what such an exit leaves behind.
        let crashed = tempfile::tempdir().unwrap();
        for name in [DATABASE_FILE, "redline.db-wal"] {
            std::fs::copy(dir.path().join(name), crashed.path().join(name)).unwrap();
        }
        let after_crash = Store::open(crashed.path()).unwrap();
        assert_eq!(
            after_crash.checked(),
            Checked::Full(CheckReason::UncleanExit)
        );
        assert_eq!(
            after_crash.head(1).unwrap().document["basics"]["name"],
            "Ada"
        );
        drop(after_crash);
        // While another Redline has it open, its log is its own: no reason for a whole check.
        let beside = Store::open(dir.path()).unwrap();
        assert_eq!(beside.checked(), Checked::Header);
        drop(beside);

        let eight_days_ago = now_ms() - 8 * 24 * 60 * 60 * 1000;
        store
            .set_setting(CHECKED_AT, &eight_days_ago.to_string())
            .unwrap();
        drop(store);
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(store.checked(), Checked::Full(CheckReason::Schedule));
        assert_eq!(store.check().unwrap(), Vec::<String>::new());

        // An index that no longer matches its table: the whole check says so; opening does not look.
        damage_an_index(&mut store);
        drop(store);
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(store.checked(), Checked::Header);
        let found = store.check().unwrap();
        assert!(
            found.iter().any(|f| f.contains("model_calls_by_time")),
            "{found:?}"
        );
    }

    #[test]
    fn the_database_is_durable_and_checks_foreign_keys() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let mode: String = store.one("PRAGMA journal_mode");
        let sync: i64 = store.one("PRAGMA synchronous");
        let fk: i64 = store.one("PRAGMA foreign_keys");
        assert_eq!((mode.as_str(), sync, fk), ("wal", 2, 1));
        let err = store
            .conn
            .execute(
                "INSERT INTO chat_messages (document_id, created_at, role, content) VALUES (99, 0, 'user', 'x')",
                [],
            )
            .unwrap_err();
        assert!(err.to_string().contains("FOREIGN KEY"), "{err}");
        let _ = json!(null);
    }
}
