//! Redline's local store: every resume and every change to it, in one SQLite file.
//!
//! Nothing the user or the model does may be lost. Each accepted change is a [`Revision`] of a document,
//! written atomically with `synchronous=FULL` in WAL mode, so an acknowledged revision survives even an OS
//! crash. History is append-only.
//!
//! # Layout
//! - [`Store`]: opens (or creates) the database in a data folder, checks its integrity, migrates it, and
//!   answers for documents and their revisions.
//! - [`schema`]: the versioned migrations, applied in order on `PRAGMA user_version`.
//! - [`data_dir`]: where the desktop app and the CLI keep their data, and how a test picks another folder.
//! - [`StoreError`]: what can go wrong, in words a user can act on.

pub mod data_dir;
mod schema;

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde_json::{Value, json};

pub use data_dir::{DATA_DIR_ENV, default_data_dir, resolve_data_dir};

/// The database file's name inside the data folder.
pub const DATABASE_FILE: &str = "redline.db";

/// A full copy of the document is kept every this many revisions, so rebuilding any revision replays at
/// most this many patches.
pub const SNAPSHOT_EVERY: u64 = 64;

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
        "the database {path} is damaged ({detail}); it was left untouched so that nothing more is lost"
    )]
    Corrupt { path: PathBuf, detail: String },
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
    /// The store holds no documents at all.
    #[error("there are no resumes yet")]
    Empty,
    /// The document has no such revision.
    #[error("document {document} has no revision {revision}")]
    NoRevision { document: i64, revision: u64 },
    /// A stored patch no longer applies: the history is inconsistent.
    #[error("revision {revision} of document {document} cannot be replayed: {detail}")]
    Replay {
        document: i64,
        revision: u64,
        detail: String,
    },
    /// SQLite reported an error.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Stored JSON could not be read back.
    #[error("stored data is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Shorthand for results of this crate.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Where a revision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Proposed by the model and accepted.
    Ai,
    /// Made by hand in the resume view.
    User,
    /// A document brought in from a file (or the bundled sample).
    Import,
    /// The inverse of an earlier revision.
    Undo,
    /// An old revision brought back.
    Restore,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Source::Ai => "ai",
            Source::User => "user",
            Source::Import => "import",
            Source::Undo => "undo",
            Source::Restore => "restore",
        }
    }
}

/// A document as listed: without its content.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
}

impl Store {
    /// Opens the database in `data_dir`, creating the folder and the database if needed, checking its
    /// integrity and bringing its schema up to date.
    pub fn open(data_dir: &Path) -> Result<Store> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_owned(),
            source,
        })?;
        Store::open_file(&data_dir.join(DATABASE_FILE))
    }

    /// Opens (or creates) the database file at `path`.
    pub fn open_file(path: &Path) -> Result<Store> {
        let conn = Connection::open(path)?;
        let corrupt = |detail: String| StoreError::Corrupt {
            path: path.to_owned(),
            detail,
        };
        // A file that is not a database fails on its first read: report it as damage, never overwrite it.
        let verdict: String = conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .map_err(|e| corrupt(e.to_string()))?;
        if verdict != "ok" {
            return Err(corrupt(verdict));
        }
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        schema::migrate(&mut store.conn, path)?;
        Ok(store)
    }

    /// The database file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates a document whose first revision is `document`, and returns its id.
    pub fn import(&mut self, title: &str, document: &Value) -> Result<i64> {
        let now = now_ms();
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO documents (title, created_at, updated_at, head_revision) VALUES (?1, ?2, ?2, 1)",
            params![title, now],
        )?;
        let id = tx.last_insert_rowid();
        let forward = json!([{"op": "add", "path": "", "value": document}]);
        let inverse = json!([{"op": "replace", "path": "", "value": {}}]);
        tx.execute(
            "INSERT INTO revisions (document_id, number, created_at, base_revision, source, summary, forward, inverse, snapshot)
             VALUES (?1, 1, ?2, NULL, ?3, ?4, ?5, ?6, ?7)",
            params![
                id,
                now,
                Source::Import.as_str(),
                format!("Imported “{title}”"),
                forward.to_string(),
                inverse.to_string(),
                document.to_string()
            ],
        )?;
        tx.commit()?;
        Ok(id)
    }

    /// The documents that are not deleted, most recently changed first.
    pub fn list(&self) -> Result<Vec<DocumentSummary>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, title, created_at, updated_at, head_revision FROM documents
             WHERE deleted_at IS NULL ORDER BY updated_at DESC, id DESC",
        )?;
        let rows = stmt.query_map([], |row| {
            Ok(DocumentSummary {
                id: row.get(0)?,
                title: row.get(1)?,
                created_at: row.get(2)?,
                updated_at: row.get(3)?,
                head_revision: row.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The document the user worked on last.
    pub fn current(&self) -> Result<DocumentSummary> {
        self.list()?.into_iter().next().ok_or(StoreError::Empty)
    }

    /// The current document, after creating one from `first` if the store is empty. This is how a new
    /// installation starts with something to show.
    pub fn current_or_import(
        &mut self,
        first: impl FnOnce() -> (String, Value),
    ) -> Result<DocumentSummary> {
        match self.current() {
            Err(StoreError::Empty) => {
                let (title, document) = first();
                self.import(&title, &document)?;
                self.current()
            }
            other => other,
        }
    }

    /// The head revision of `document_id`.
    pub fn head(&self, document_id: i64) -> Result<Revision> {
        let head: Option<u64> = self
            .conn
            .query_row(
                "SELECT head_revision FROM documents WHERE id = ?1 AND deleted_at IS NULL",
                [document_id],
                |row| row.get(0),
            )
            .optional()?;
        let head = head.ok_or(StoreError::NoDocument(document_id))?;
        self.checkout(document_id, head)
    }

    /// The document as it was at `revision`: the nearest snapshot at or before it, with the forward patches
    /// after that snapshot replayed.
    pub fn checkout(&self, document_id: i64, revision: u64) -> Result<Revision> {
        let missing = || StoreError::NoRevision {
            document: document_id,
            revision,
        };
        let (from, snapshot): (u64, String) = self
            .conn
            .query_row(
                "SELECT number, snapshot FROM revisions
                 WHERE document_id = ?1 AND number <= ?2 AND snapshot IS NOT NULL
                 ORDER BY number DESC LIMIT 1",
                params![document_id, revision],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?
            .ok_or_else(missing)?;
        let mut document: Value = serde_json::from_str(&snapshot)?;
        let mut stmt = self.conn.prepare(
            "SELECT number, forward FROM revisions WHERE document_id = ?1 AND number > ?2 AND number <= ?3
             ORDER BY number",
        )?;
        let mut rows = stmt.query(params![document_id, from, revision])?;
        let mut last = from;
        while let Some(row) = rows.next()? {
            let number: u64 = row.get(0)?;
            let forward: json_patch::Patch = serde_json::from_str(&row.get::<_, String>(1)?)?;
            json_patch::patch(&mut document, &forward).map_err(|e| StoreError::Replay {
                document: document_id,
                revision: number,
                detail: e.to_string(),
            })?;
            last = number;
        }
        if last != revision {
            return Err(missing());
        }
        Ok(Revision {
            document_id,
            number: revision,
            document,
        })
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resume(name: &str) -> Value {
        json!({"basics": {"name": name}, "work": [{"name": "Acme"}]})
    }

    #[test]
    fn a_new_store_starts_with_the_first_document_and_keeps_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let first = store
            .current_or_import(|| ("Ada".into(), resume("Ada")))
            .unwrap();
        assert_eq!(first.head_revision, 1);
        assert_eq!(store.head(first.id).unwrap().document, resume("Ada"));
        drop(store);

        let mut reopened = Store::open(dir.path()).unwrap();
        let again = reopened
            .current_or_import(|| panic!("the store is not empty"))
            .unwrap();
        assert_eq!(again, first);
    }

    #[test]
    fn the_most_recent_document_is_current() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        store.import("Ada", &resume("Ada")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(3));
        let grace = store.import("Grace", &resume("Grace")).unwrap();
        assert_eq!(store.current().unwrap().id, grace);
        assert_eq!(store.list().unwrap().len(), 2);
    }

    #[test]
    fn unknown_documents_and_revisions_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        assert!(matches!(store.current(), Err(StoreError::Empty)));
        let id = store.import("Ada", &resume("Ada")).unwrap();
        assert!(matches!(store.head(id + 1), Err(StoreError::NoDocument(_))));
        let err = store.checkout(id, 7).unwrap_err();
        assert_eq!(err.to_string(), format!("document {id} has no revision 7"));
    }

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
        assert_eq!(std::fs::read(&path).unwrap(), garbage);
    }

    #[test]
    fn the_database_is_durable_and_checks_foreign_keys() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let mode: String = store
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        let sync: i64 = store
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        let fk: i64 = store
            .conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!((mode.as_str(), sync, fk), ("wal", 2, 1));
    }
}
