//! The database schema, as a list of migrations applied in order.
//!
//! `PRAGMA user_version` holds how many migrations a database has had. A migration is never edited once
//! released: a change to the schema is a new entry at the end of [`MIGRATIONS`].

use std::path::Path;

use rusqlite::Connection;

use crate::{Result, StoreError};

/// One step of the schema: its SQL, then what SQL alone cannot do (worked out in Rust, in the same
/// transaction).
pub(crate) struct Migration {
    pub sql: &'static str,
    pub then: Option<fn(&Connection) -> Result<()>>,
}

const fn sql(sql: &'static str) -> Migration {
    Migration { sql, then: None }
}

/// Every migration, oldest first; a database at version N has had the first N applied.
pub(crate) const MIGRATIONS: &[Migration] = &[
    // 1: documents and their revisions.
    sql("CREATE TABLE documents (
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
    ) WITHOUT ROWID;"),
    // 2: chat messages, the audit of model calls, settings; revisions learn `redo` and which revision an
    // undo or redo reverses (SQLite cannot change a CHECK in place: the table is rebuilt).
    sql("CREATE TABLE chat_messages (
        id          INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id),
        created_at  INTEGER NOT NULL,
        role        TEXT    NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content     TEXT    NOT NULL
    );
    CREATE INDEX chat_messages_by_document ON chat_messages (document_id, id);
    CREATE TABLE revisions_v2 (
        document_id     INTEGER NOT NULL REFERENCES documents(id),
        number          INTEGER NOT NULL CHECK (number >= 1),
        created_at      INTEGER NOT NULL,
        base_revision   INTEGER,
        source          TEXT    NOT NULL
                        CHECK (source IN ('ai', 'user', 'import', 'undo', 'redo', 'restore')),
        summary         TEXT    NOT NULL,
        forward         TEXT    NOT NULL,
        inverse         TEXT    NOT NULL,
        snapshot        TEXT,
        chat_message_id INTEGER REFERENCES chat_messages(id),
        reverts         INTEGER,
        PRIMARY KEY (document_id, number)
    ) WITHOUT ROWID;
    INSERT INTO revisions_v2 (document_id, number, created_at, base_revision, source, summary, forward,
                              inverse, snapshot, chat_message_id)
        SELECT document_id, number, created_at, base_revision, source, summary, forward, inverse, snapshot,
               NULL
        FROM revisions;
    DROP TABLE revisions;
    ALTER TABLE revisions_v2 RENAME TO revisions;
    CREATE TABLE model_calls (
        id          INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id),
        revision    INTEGER,
        created_at  INTEGER NOT NULL,
        model       TEXT    NOT NULL,
        request     TEXT    NOT NULL,
        raw_output  TEXT    NOT NULL,
        outcome     TEXT    NOT NULL CHECK (outcome IN ('committed', 'refused', 'failed', 'cancelled')),
        applied     TEXT    NOT NULL,
        refused     TEXT    NOT NULL,
        error       TEXT
    );
    CREATE INDEX model_calls_by_time ON model_calls (created_at);
    CREATE INDEX model_calls_by_document ON model_calls (document_id, id);
    CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID;"),
    // 3: a model call's edits can be proposed for the user's review (review mode) rather than committed;
    // the audit table is rebuilt for its CHECK, its rows kept.
    sql("CREATE TABLE model_calls_v3 (
        id          INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id),
        revision    INTEGER,
        created_at  INTEGER NOT NULL,
        model       TEXT    NOT NULL,
        request     TEXT    NOT NULL,
        raw_output  TEXT    NOT NULL,
        outcome     TEXT    NOT NULL
                    CHECK (outcome IN ('committed', 'refused', 'failed', 'cancelled', 'proposed')),
        applied     TEXT    NOT NULL,
        refused     TEXT    NOT NULL,
        error       TEXT
    );
    INSERT INTO model_calls_v3 SELECT id, document_id, revision, created_at, model, request, raw_output,
                                      outcome, applied, refused, error
        FROM model_calls;
    DROP TABLE model_calls;
    ALTER TABLE model_calls_v3 RENAME TO model_calls;
    CREATE INDEX model_calls_by_time ON model_calls (created_at);
    CREATE INDEX model_calls_by_document ON model_calls (document_id, id);"),
    // 4: each revision keeps what Undo and Redo act on after it (the tops of the two stacks), so that
    // neither reads the history; the history's words are indexed for search, by the revision's key
    // (document << 32 | number) and without a copy of the words (a summary left empty by an older
    // Redline is described when read: those are found by their own index); the audit keeps each row's
    // size, and the table their total (kept by triggers), so that the total is bounded without a scan.
    Migration {
        sql: "CREATE VIRTUAL TABLE revision_words USING fts5(
                  words, content = '', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');
              INSERT INTO revision_words (rowid, words)
                  SELECT (document_id << 32) | number, summary || ' ' || source FROM revisions;
              CREATE INDEX revisions_unworded ON revisions (document_id, number) WHERE summary = '';
              ALTER TABLE revisions ADD COLUMN undo_to INTEGER;
              ALTER TABLE revisions ADD COLUMN redo_to INTEGER;
              CREATE INDEX revisions_undone ON revisions (document_id, reverts, number)
                  WHERE source = 'undo';
              ALTER TABLE model_calls ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
              UPDATE model_calls SET bytes = length(CAST(request AS BLOB))
                  + length(CAST(raw_output AS BLOB)) + length(CAST(applied AS BLOB))
                  + length(CAST(refused AS BLOB)) + coalesce(length(CAST(error AS BLOB)), 0);
              CREATE TABLE audit_size (id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL);
              INSERT INTO audit_size (id, total) SELECT 1, coalesce(sum(bytes), 0) FROM model_calls;
              CREATE TRIGGER audit_size_in AFTER INSERT ON model_calls
                  BEGIN UPDATE audit_size SET total = total + new.bytes; END;
              CREATE TRIGGER audit_size_out AFTER DELETE ON model_calls
                  BEGIN UPDATE audit_size SET total = total - old.bytes; END;",
        then: Some(crate::revisions::backfill_stacks),
    },
    // 5: a user's message can quote a file (the ask that tidies an import carries the file's own text): it is
    // shown, and sent to the model, as any other, but it is not the user's own words to the link and fact
    // checks (a file may be hostile).
    sql("ALTER TABLE chat_messages
             ADD COLUMN quotes_file INTEGER NOT NULL DEFAULT 0 CHECK (quotes_file IN (0, 1));"),
];

/// Brings the database up to the newest schema, one migration per transaction. Each reads the version it
/// starts from inside its own (write) transaction: two processes opening a new folder at once take turns,
/// and the second finds the tables made, rather than both making them.
pub(crate) fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let known = MIGRATIONS.len() as i64;
    loop {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if found > known {
            return Err(StoreError::TooNew {
                path: path.to_owned(),
                found,
                known,
            });
        }
        let Some(migration) = MIGRATIONS.get(found as usize) else {
            return Ok(());
        };
        tx.execute_batch(migration.sql)?;
        if let Some(then) = migration.then {
            then(&tx)?;
        }
        tx.pragma_update(None, "user_version", found + 1)?;
        tx.commit()?;
    }
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
                for migration in &MIGRATIONS[..version] {
                    conn.execute_batch(migration.sql).unwrap();
                    if let Some(then) = migration.then {
                        then(&conn).unwrap();
                    }
                }
                conn.pragma_update(None, "user_version", version as i64)
                    .unwrap();
                if version >= 1 {
                    // What a version-1 Redline wrote on first start: one imported document.
                    conn.execute_batch(
                        r#"INSERT INTO documents (id, title, created_at, updated_at, head_revision)
                               VALUES (1, 'Ada', 5, 5, 1);
                           INSERT INTO revisions (document_id, number, created_at, source, summary, forward,
                                                  inverse, snapshot)
                               VALUES (1, 1, 5, 'import', 'Imported', '[{"op":"add","path":"","value":{"basics":{"name":"Ada"}}}]',
                                       '[{"op":"replace","path":"","value":{}}]', '{"basics":{"name":"Ada"}}');"#,
                    )
                    .unwrap();
                }
                if version >= 2 {
                    // A version-2 Redline's audit of one model call.
                    conn.execute_batch(
                        "INSERT INTO model_calls (document_id, created_at, model, request, raw_output, outcome,
                                                  applied, refused)
                             VALUES (1, CAST(strftime('%s', 'now') AS INTEGER) * 1000, 'gpt', '{}', '{}', 'committed', '[]', '[]');
                         INSERT INTO chat_messages (document_id, created_at, role, content)
                             VALUES (1, 5, 'user', 'my site is https://ada.example');",
                    )
                    .unwrap();
                }
                if version >= 4 {
                    // A version-4 Redline indexed the words of the revision it wrote.
                    conn.execute_batch(
                        "INSERT INTO revision_words (rowid, words) VALUES ((1 << 32) | 1, 'Imported import');",
                    )
                    .unwrap();
                }
            }
            let mut store = Store::open_file(&path).unwrap();
            let now: i64 = store.one("PRAGMA user_version");
            assert_eq!(now, MIGRATIONS.len() as i64, "from version {version}");
            if version >= 1 {
                let head = store.head(1).unwrap();
                assert_eq!(
                    head.document,
                    serde_json::json!({"basics": {"name": "Ada"}})
                );
                // The migrated document takes new revisions, undo and chat messages.
                let rev = store
                    .commit(
                        1,
                        crate::Change::new(
                            1,
                            crate::Source::User,
                            serde_json::from_value(serde_json::json!([
                                {"op": "replace", "path": "/basics/name", "value": "Ada L."}
                            ]))
                            .unwrap(),
                        ),
                    )
                    .unwrap();
                assert_eq!(rev.info.number, 2);
                // Its history's words were indexed by the migration, the new revision's by the commit.
                let found = |words: &str| -> Vec<u64> {
                    store
                        .search_history(1, words, None, 10, |_| Ok(false))
                        .unwrap()
                        .0
                        .iter()
                        .map(|r| r.number)
                        .collect()
                };
                assert_eq!(found("imported"), [1], "from version {version}");
                assert_eq!(found("user"), [2], "from version {version}");
                store.undo(1).unwrap();
                assert_eq!(
                    store.head(1).unwrap().document,
                    serde_json::json!({"basics": {"name": "Ada"}})
                );
                store.add_message(1, crate::Role::User, "hello").unwrap();
                // A message written before messages could quote a file stays the user's own words.
                let said = store.said_by_user(1).unwrap();
                let earlier = if version >= 2 {
                    "my site is https://ada.example\n"
                } else {
                    ""
                };
                assert_eq!(said, format!("{earlier}hello\n"), "from version {version}");
                assert!(store.messages(1).unwrap().iter().all(|m| !m.quotes_file));
                // The audit keeps what it had and takes a proposal for review.
                let call = crate::ModelCall {
                    model: "m".into(),
                    request: "{}".into(),
                    raw_output: "{}".into(),
                    outcome: crate::Outcome::Proposed,
                    applied: serde_json::json!([]),
                    refused: serde_json::json!([]),
                    error: None,
                };
                store.record_model_call(1, &call).unwrap();
                let calls = store.model_calls(1).unwrap();
                assert_eq!(calls.len(), if version >= 2 { 2 } else { 1 });
                assert_eq!(calls.last().unwrap().call.outcome, crate::Outcome::Proposed);
            }
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
