//! The database schema, as a list of migrations applied in order.
//!
//! `PRAGMA user_version` holds how many migrations a database has had. A migration is never edited once
//! released: a change to the schema is a new entry at the end of [`MIGRATIONS`].

use std::path::Path;

use rusqlite::Connection;

use crate::{Result, StoreError};

/// Every migration, oldest first; a database at version N has had the first N applied.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: documents and their revisions.
    "CREATE TABLE documents (
        id              INTEGER PRIMARY KEY,
        title           TEXT    NOT NULL,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        head_revision   INTEGER NOT NULL,
        parent_document INTEGER REFERENCES documents(id),
        parent_revision INTEGER,
        deleted_at      INTEGER
    );
    CREATE TABLE revisions (
        document_id     INTEGER NOT NULL REFERENCES documents(id),
        number          INTEGER NOT NULL CHECK (number >= 1),
        created_at      INTEGER NOT NULL,
        base_revision   INTEGER,
        source          TEXT    NOT NULL CHECK (source IN ('ai', 'user', 'import', 'undo', 'restore')),
        summary         TEXT    NOT NULL,
        forward         TEXT    NOT NULL,
        inverse         TEXT    NOT NULL,
        snapshot        TEXT,
        chat_message_id INTEGER,
        PRIMARY KEY (document_id, number)
    ) WITHOUT ROWID;",
];

/// Brings the database up to the newest schema, one migration per transaction.
pub(crate) fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > known {
        return Err(StoreError::TooNew {
            path: path.to_owned(),
            found,
            known,
        });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    /// A database left at every earlier schema version migrates to the newest one and keeps its data.
    #[test]
    fn every_earlier_version_migrates_to_the_newest() {
        for version in 0..MIGRATIONS.len() {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("old.db");
            {
                let conn = Connection::open(&path).unwrap();
                for sql in &MIGRATIONS[..version] {
                    conn.execute_batch(sql).unwrap();
                }
                conn.pragma_update(None, "user_version", version as i64)
                    .unwrap();
            }
            let store = Store::open_file(&path).unwrap();
            let now: i64 = store
                .conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap();
            assert_eq!(now, MIGRATIONS.len() as i64, "from version {version}");
        }
    }

    #[test]
    fn a_database_from_a_newer_redline_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.db");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", 999)
            .unwrap();
        let err = Store::open_file(&path).err().unwrap();
        assert!(
            err.to_string().contains("newer version of Redline"),
            "{err}"
        );
    }
}
