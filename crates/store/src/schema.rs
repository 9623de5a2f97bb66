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
    // 6: a document is a resume or a cover letter (a letter names the resume it belongs to, whose sender it
    // shows); a revision may come from a writing check's fix or from another device (the table is rebuilt
    // for its CHECK, every column and both partial indexes kept); job applications, each with its dated
    // stages, its tags, and the exact revisions of the resume and letter that were sent.
    sql("ALTER TABLE documents
             ADD COLUMN kind TEXT NOT NULL DEFAULT 'resume' CHECK (kind IN ('resume', 'letter'));
    ALTER TABLE documents ADD COLUMN resume_id INTEGER REFERENCES documents(id);
    CREATE TABLE revisions_v6 (
        document_id     INTEGER NOT NULL REFERENCES documents(id),
        number          INTEGER NOT NULL CHECK (number >= 1),
        created_at      INTEGER NOT NULL,
        base_revision   INTEGER,
        source          TEXT    NOT NULL CHECK (source IN ('ai', 'user', 'import', 'undo', 'redo', 'restore',
                                                           'check', 'sync')),
        summary         TEXT    NOT NULL,
        forward         TEXT    NOT NULL,
        inverse         TEXT    NOT NULL,
        snapshot        TEXT,
        chat_message_id INTEGER REFERENCES chat_messages(id),
        reverts         INTEGER,
        undo_to         INTEGER,
        redo_to         INTEGER,
        PRIMARY KEY (document_id, number)
    ) WITHOUT ROWID;
    INSERT INTO revisions_v6 (document_id, number, created_at, base_revision, source, summary, forward,
                              inverse, snapshot, chat_message_id, reverts, undo_to, redo_to)
        SELECT document_id, number, created_at, base_revision, source, summary, forward, inverse, snapshot,
               chat_message_id, reverts, undo_to, redo_to
        FROM revisions;
    DROP TABLE revisions;
    ALTER TABLE revisions_v6 RENAME TO revisions;
    CREATE INDEX revisions_unworded ON revisions (document_id, number) WHERE summary = '';
    CREATE INDEX revisions_undone ON revisions (document_id, reverts, number)
        WHERE source = 'undo';
    CREATE TABLE applications (
        id              INTEGER PRIMARY KEY,
        company         TEXT    NOT NULL,
        role            TEXT    NOT NULL,
        posting         TEXT    NOT NULL DEFAULT '',
        source          TEXT    NOT NULL DEFAULT '',
        url             TEXT    NOT NULL DEFAULT '',
        stage           TEXT    NOT NULL DEFAULT 'saved' CHECK (stage IN ('saved', 'applied', 'interviewing',
                                                                          'offer', 'rejected', 'withdrawn')),
        contacts        TEXT    NOT NULL DEFAULT '',
        notes           TEXT    NOT NULL DEFAULT '',
        salary          TEXT    NOT NULL DEFAULT '',
        follow_up       TEXT,
        resume_id       INTEGER REFERENCES documents(id),
        resume_revision INTEGER,
        letter_id       INTEGER REFERENCES documents(id),
        letter_revision INTEGER,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        CHECK ((resume_id IS NULL) = (resume_revision IS NULL)),
        CHECK ((letter_id IS NULL) = (letter_revision IS NULL))
    );
    CREATE INDEX applications_by_stage ON applications (stage, updated_at);
    CREATE TABLE application_stages (
        id             INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        stage          TEXT    NOT NULL CHECK (stage IN ('saved', 'applied', 'interviewing', 'offer',
                                                         'rejected', 'withdrawn')),
        on_date        TEXT    NOT NULL,
        created_at     INTEGER NOT NULL
    );
    CREATE INDEX application_stages_by_application ON application_stages (application_id, on_date, id);
    CREATE TABLE application_tags (
        application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        tag            TEXT    NOT NULL,
        PRIMARY KEY (application_id, tag)
    ) WITHOUT ROWID;"),
    // 7: sync through a folder or a git remote: every event this device accepted, as the folder's bytes
    // (one event per device and sequence number); which local document each synced one is, and how far its
    // synced history goes; the folder's files already read.
    sql("CREATE TABLE sync_events (
        hash   TEXT    NOT NULL PRIMARY KEY,
        device TEXT    NOT NULL,
        seq    INTEGER NOT NULL CHECK (seq >= 1),
        bytes  BLOB    NOT NULL,
        UNIQUE (device, seq)
    );
    CREATE TABLE sync_documents (
        sync_id         TEXT    NOT NULL PRIMARY KEY,
        document_id     INTEGER NOT NULL UNIQUE REFERENCES documents(id),
        synced_revision INTEGER NOT NULL
    );
    CREATE TABLE sync_files_read (file TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID;"),
    // 8: job applications travel too: which local application each synced one is, and the last of its
    // stage changes (by row) that sync has accounted for (sent, or brought in from another device).
    sql("CREATE TABLE sync_applications (
        sync_id        TEXT    NOT NULL PRIMARY KEY,
        application_id INTEGER NOT NULL UNIQUE REFERENCES applications(id) ON DELETE CASCADE,
        synced_stage   INTEGER NOT NULL
    );"),
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
    use std::path::PathBuf;

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

    /// A version-5 database at `old` (made by the first five migrations) holding the documents and
    /// revisions of the newest-version database at `newest`, as a version-5 Redline would have written them.
    fn at_version_5(newest: &Path, old: &Path) {
        let conn = Connection::open(old).unwrap();
        for migration in &MIGRATIONS[..5] {
            conn.execute_batch(migration.sql).unwrap();
            if let Some(then) = migration.then {
                then(&conn).unwrap();
            }
        }
        conn.pragma_update(None, "user_version", 5).unwrap();
        conn.execute("ATTACH DATABASE ?1 AS newest", [newest.to_str().unwrap()])
            .unwrap();
        conn.execute_batch(
            "INSERT INTO documents SELECT id, title, created_at, updated_at, head_revision, parent_document,
                                          parent_revision, deleted_at FROM newest.documents;
             INSERT INTO revisions SELECT document_id, number, created_at, base_revision, source, summary,
                                          forward, inverse, snapshot, chat_message_id, reverts, undo_to,
                                          redo_to FROM newest.revisions;
             DETACH DATABASE newest;",
        )
        .unwrap();
    }

    /// A store in the file `name` under `dir` holding one resume, "Ada", at its first revision: the file's
    /// path, the store and the resume's id.
    fn ada_in_file(dir: &Path, name: &str) -> (PathBuf, Store, i64) {
        let path = dir.join(name);
        let mut store = Store::open_file(&path).unwrap();
        let id = store
            .import("Ada", &serde_json::json!({"basics": {"name": "Ada"}}))
            .unwrap();
        (path, store, id)
    }

    /// `store`'s database (the file at `path`) as a version-5 Redline would have written it, opened again,
    /// and so migrated to the newest version.
    fn migrated_from_version_5(store: Store, path: &Path) -> Store {
        drop(store);
        let old = path.with_file_name("v5.db");
        at_version_5(path, &old);
        Store::open_file(&old).unwrap()
    }

    /// Each revision's number, source and the columns Undo and Redo read.
    type Stacks = Vec<(u64, String, Option<u64>, Option<u64>, Option<u64>)>;

    fn stacks(store: &Store) -> Stacks {
        store
            .conn
            .prepare(
                "SELECT number, source, reverts, undo_to, redo_to FROM revisions ORDER BY number",
            )
            .unwrap()
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    /// Migration 6 rebuilds the revisions table: a version-5 history with undo and redo keeps every
    /// column and both partial indexes, its documents become resumes, and the new sources, letters and
    /// applications are taken.
    #[test]
    fn version_5_keeps_its_history_and_takes_letters_and_applications() {
        let dir = tempfile::tempdir().unwrap();
        // A history written by the code paths version 5 had (import, commit, undo, redo), then the schema
        // taken back to version 5's shape and migrated forward again.
        let (path, mut store, id) = ada_in_file(dir.path(), "newest.db");
        let rename = |name: &str| {
            serde_json::from_value(serde_json::json!([
                {"op": "replace", "path": "/basics/name", "value": name}
            ]))
            .unwrap()
        };
        store
            .commit(id, crate::Change::new(1, crate::Source::User, rename("B")))
            .unwrap();
        store.undo(id).unwrap();
        store.redo(id).unwrap();
        let before = stacks(&store);
        let indexes = |store: &Store| -> Vec<String> {
            store
                .conn
                .prepare(
                    "SELECT sql FROM sqlite_schema WHERE tbl_name = 'revisions' AND type = 'index'
                     AND sql IS NOT NULL ORDER BY name",
                )
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        assert_eq!(indexes(&store).len(), 2);
        let mut store = migrated_from_version_5(store, &path);
        assert_eq!(
            store.one::<i64>("PRAGMA user_version"),
            MIGRATIONS.len() as i64
        );
        let after = stacks(&store);
        assert_eq!(after, before);
        assert_eq!(before.len(), 4);
        let names: Vec<String> = indexes(&store);
        assert!(
            names
                .iter()
                .any(|s| s.contains("revisions_unworded") && s.contains("summary = ''"))
        );
        assert!(
            names
                .iter()
                .any(|s| s.contains("revisions_undone") && s.contains("source = 'undo'"))
        );
        let doc = store.document(id).unwrap();
        assert_eq!(
            (doc.kind, doc.resume_id),
            (crate::DocumentKind::Resume, None)
        );
        // Undo still finds what to undo from the kept tops, and the new sources are taken.
        store.undo(id).unwrap();
        assert_eq!(store.head(id).unwrap().document["basics"]["name"], "Ada");
        for (source, name) in [(crate::Source::Check, "C"), (crate::Source::Sync, "D")] {
            let head = store.head(id).unwrap().number;
            let rev = store
                .commit(id, crate::Change::new(head, source, rename(name)))
                .unwrap();
            assert_eq!(store.history(id).unwrap().last().unwrap().source, source);
            assert_eq!(rev.info.source, source);
        }
        let letter = store
            .create_letter(id, "To Initech", &serde_json::json!({"paragraphs": []}))
            .unwrap();
        let summary = store.document(letter).unwrap();
        assert_eq!(
            (summary.kind, summary.resume_id),
            (crate::DocumentKind::Letter, Some(id))
        );
        assert_eq!(
            store.current().unwrap().id,
            id,
            "a letter is not made current"
        );
        assert!(matches!(
            store.create_letter(letter, "x", &serde_json::json!({})),
            Err(StoreError::NotAResume(_))
        ));
        let application = store
            .add_application(&crate::NewApplication {
                company: "Initech".into(),
                role: "Engineer".into(),
                letter: Some(crate::Pinned {
                    document_id: letter,
                    revision: 1,
                }),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            store.application(application).unwrap().stage,
            crate::Stage::Saved
        );
        assert!(store.check().unwrap().is_empty());
    }

    /// The revisions table is copied once by migration 6: a history of 10,000 revisions comes through
    /// whole, its words still found and Undo still acting on the newest.
    #[test]
    fn a_long_history_migrates_whole() {
        const REVISIONS: u64 = 10_000;
        let dir = tempfile::tempdir().unwrap();
        let (path, mut store, id) = ada_in_file(dir.path(), "long.db");
        // One transaction for the history (the store's commits each wait for the disk).
        let tx = store.conn.transaction().unwrap();
        for n in 2..=REVISIONS {
            tx.execute(
                "INSERT INTO revisions (document_id, number, created_at, base_revision, source, summary,
                                        forward, inverse, undo_to)
                 VALUES (?1, ?2, ?2, ?3, 'user', ?4, ?5, ?6, ?2)",
                rusqlite::params![
                    id,
                    n,
                    n - 1,
                    format!("Renamed to N{n}"),
                    format!(r#"[{{"op":"replace","path":"/basics/name","value":"N{n}"}}]"#),
                    format!(
                        r#"[{{"op":"replace","path":"/basics/name","value":"{}"}}]"#,
                        if n == 2 { "Ada".to_owned() } else { format!("N{}", n - 1) }
                    ),
                ],
            )
            .unwrap();
        }
        tx.execute(
            "UPDATE revisions SET snapshot = ?2 WHERE document_id = ?1 AND number = ?3",
            rusqlite::params![id, r#"{"basics":{"name":"N10000"}}"#, REVISIONS],
        )
        .unwrap();
        tx.execute(
            "UPDATE documents SET head_revision = ?2 WHERE id = ?1",
            rusqlite::params![id, REVISIONS],
        )
        .unwrap();
        tx.commit().unwrap();
        let before = stacks(&store);
        let mut store = migrated_from_version_5(store, &path);
        assert_eq!(stacks(&store), before);
        assert_eq!(before.len() as u64, REVISIONS);
        assert_eq!(store.head(id).unwrap().document["basics"]["name"], "N10000");
        store.undo(id).unwrap();
        assert_eq!(store.head(id).unwrap().document["basics"]["name"], "N9999");
        assert!(store.check().unwrap().is_empty());
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
