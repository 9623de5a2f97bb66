//! Revisions: committing a change, reading any revision back, history, diff, undo, redo and restore.
//!
//! A revision stores its forward patch (what the change did) and its inverse (how to take it back); every
//! [`SNAPSHOT_EVERY`](crate::SNAPSHOT_EVERY) revisions it also stores the whole document, so that any
//! revision is rebuilt from the nearest snapshot by replaying at most that many small patches.
//!
//! Undo and redo are new revisions. Which revision an undo takes back follows the usual stack: an undo
//! takes back the latest change not yet undone; a redo applies again the latest undone change, as long as
//! no new change came after it.

use json_patch::Patch;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::Serialize;
use serde_json::Value;

use crate::{ModelCall, Result, Revision, SNAPSHOT_EVERY, Source, Store, StoreError, now_ms};

/// A change to commit: RFC 6902 operations made against a base revision, with where they came from.
#[derive(Debug, Clone)]
pub struct Change {
    /// The revision the operations were made against; it must still be the head.
    pub base: u64,
    /// Where the change came from.
    pub source: Source,
    /// The operations.
    pub ops: Patch,
    /// What changed, in words (the planner's description for a model's change); derived from the
    /// operations when absent.
    pub summary: Option<String>,
    /// The chat message that asked for it.
    pub chat_message_id: Option<i64>,
    /// The model calls that produced it, recorded in the same transaction.
    pub model_calls: Vec<ModelCall>,
}

impl Change {
    /// A change of `ops` against revision `base`.
    pub fn new(base: u64, source: Source, ops: Patch) -> Change {
        Change {
            base,
            source,
            ops,
            summary: None,
            chat_message_id: None,
            model_calls: Vec::new(),
        }
    }

    /// With a summary.
    pub fn summary(mut self, summary: impl Into<String>) -> Change {
        self.summary = Some(summary.into());
        self
    }

    /// Asked for by chat message `id`.
    pub fn chat_message(mut self, id: i64) -> Change {
        self.chat_message_id = Some(id);
        self
    }

    /// Produced by this model call.
    pub fn model_call(mut self, call: ModelCall) -> Change {
        self.model_calls.push(call);
        self
    }
}

/// A revision's record, without the document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RevisionInfo {
    /// The document.
    pub document_id: i64,
    /// The revision's number, from 1.
    pub number: u64,
    /// When it was committed, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The revision the change was made against.
    pub base_revision: Option<u64>,
    /// Where it came from.
    pub source: Source,
    /// What changed, in words.
    pub summary: String,
    /// The chat message that asked for it.
    pub chat_message_id: Option<i64>,
    /// For an undo or a redo: the revision whose change it takes back or applies again.
    pub reverts: Option<u64>,
}

/// A committed revision: its record, the document it made, and what it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Committed {
    /// The new revision's record.
    pub info: RevisionInfo,
    /// The whole document at the new revision.
    pub document: Value,
    /// The operations that took the previous head to it.
    pub forward: Patch,
}

const INFO_COLUMNS: &str =
    "document_id, number, created_at, base_revision, source, summary, chat_message_id, reverts";

fn info(row: &rusqlite::Row<'_>) -> rusqlite::Result<RevisionInfo> {
    let source: String = row.get(4)?;
    Ok(RevisionInfo {
        document_id: row.get(0)?,
        number: row.get(1)?,
        created_at: row.get(2)?,
        base_revision: row.get(3)?,
        source: Source::parse(&source),
        summary: row.get(5)?,
        chat_message_id: row.get(6)?,
        reverts: row.get(7)?,
    })
}

impl Store {
    /// Commits `change` to `document_id` as a new revision, atomically with its model-call audit rows.
    /// The operations apply all or nothing; on any error nothing is written.
    pub fn commit(&mut self, document_id: i64, change: Change) -> Result<Committed> {
        let Change {
            base,
            source,
            ops,
            summary,
            chat_message_id,
            model_calls,
        } = change;
        let summary = summary.unwrap_or_default();
        self.write(
            document_id,
            Some(base),
            source,
            |_, before| Planned::of(reapply(document_id, before, ops)?, None, summary),
            chat_message_id,
            model_calls,
        )
    }

    /// The common path of every write: checks the base, builds the new document from the head, stores
    /// the revision (with a snapshot every `SNAPSHOT_EVERY`) and moves the head, in one transaction.
    /// `change` is worked out inside the write transaction, from the head it reads: what undo or redo
    /// takes back is chosen there, so that two at once cannot both pick the same revision.
    fn write(
        &mut self,
        document_id: i64,
        base: Option<u64>,
        source: Source,
        change: impl FnOnce(&rusqlite::Connection, &Value) -> Result<Planned>,
        chat_message_id: Option<i64>,
        model_calls: Vec<ModelCall>,
    ) -> Result<Committed> {
        let Store {
            conn,
            head_cache,
            path,
            ..
        } = self;
        // Every failure names this database's file (busy, read-only, full).
        let written = (|| -> Result<Committed> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let head = head_number(&tx, document_id)?;
            if let Some(base) = base
                && base != head
            {
                return Err(StoreError::Stale {
                    document: document_id,
                    base,
                    head,
                });
            }
            let before = match head_cache.take() {
                Some((id, number, doc)) if id == document_id && number == head => doc,
                _ => rebuild(&tx, document_id, head)?,
            };
            let Planned {
                forward,
                after,
                reverts,
                summary,
            } = change(&tx, &before)?;
            if after == before {
                *head_cache = Some((document_id, head, before));
                return Err(StoreError::NoChange(document_id));
            }
            // Nothing is written that could not be read back (a stored patch adds two levels to its value).
            crate::check_readable(&after)?;
            let info = RevisionInfo {
                document_id,
                number: head + 1,
                created_at: now_ms(),
                base_revision: Some(head),
                source,
                summary,
                chat_message_id,
                reverts,
            };
            let inverse = json_patch::diff(&after, &before);
            insert_revision(&tx, &info, &forward, &inverse, &after)?;
            for call in &model_calls {
                crate::conversation::insert_model_call(
                    &tx,
                    document_id,
                    Some(info.number),
                    info.created_at,
                    call,
                )?;
            }
            tx.commit()?;
            *head_cache = Some((document_id, info.number, after.clone()));
            Ok(Committed {
                info,
                document: after,
                forward,
            })
        })();
        written.map_err(|e| crate::located(e, path))
    }

    /// The head revision of `document_id`.
    pub fn head(&self, document_id: i64) -> Result<Revision> {
        let head = head_number(&self.conn, document_id)?;
        self.checkout(document_id, head)
    }

    /// The document as it was at `revision`: the nearest snapshot at or before it, with the forward patches
    /// after that snapshot replayed.
    pub fn checkout(&self, document_id: i64, revision: u64) -> Result<Revision> {
        Ok(Revision {
            document_id,
            number: revision,
            document: rebuild(&self.conn, document_id, revision)?,
        })
    }

    /// Every revision of `document_id`, oldest first. A summary is as it was written: empty for a change
    /// that came without one (putting its operations into words is the engine's, from
    /// [`Store::forward`]).
    pub fn history(&self, document_id: i64) -> Result<Vec<RevisionInfo>> {
        head_number(&self.conn, document_id)?;
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {INFO_COLUMNS} FROM revisions WHERE document_id = ?1 ORDER BY number"
        ))?;
        let rows = stmt.query_map([document_id], info)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The operations revision `revision` of `document_id` applied to the one before it.
    pub fn forward(&self, document_id: i64, revision: u64) -> Result<Patch> {
        Ok(patches(&self.conn, document_id, revision)?.0)
    }

    /// Every revision with its forward and inverse patches, for an export.
    pub(crate) fn revisions_with_patches(&self, document_id: i64) -> Result<Vec<Value>> {
        let history = self.history(document_id)?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT forward, inverse FROM revisions WHERE document_id = ?1 ORDER BY number",
        )?;
        let patches = stmt
            .query_map([document_id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        history
            .into_iter()
            .zip(patches)
            .map(|(info, (forward, inverse))| {
                let mut value = serde_json::to_value(info)?;
                value["forward"] = serde_json::from_str(&forward)?;
                value["inverse"] = serde_json::from_str(&inverse)?;
                Ok(value)
            })
            .collect()
    }

    /// The RFC 6902 patch that turns revision `from` of a document into revision `to`.
    pub fn diff(&self, document_id: i64, from: u64, to: u64) -> Result<Patch> {
        let a = rebuild(&self.conn, document_id, from)?;
        let b = rebuild(&self.conn, document_id, to)?;
        Ok(json_patch::diff(&a, &b))
    }

    /// Takes back the latest change not yet undone, as a new revision.
    pub fn undo(&mut self, document_id: i64) -> Result<Committed> {
        self.write(
            document_id,
            None,
            Source::Undo,
            |tx, before| {
                let (done, _) = stacks(tx, document_id)?;
                let target = *done.last().ok_or(StoreError::NothingToUndo(document_id))?;
                let (_, inverse) = patches(tx, document_id, target)?;
                let summary = format!("Undid revision {target}");
                Planned::of(
                    reapply(document_id, before, inverse)?,
                    Some(target),
                    summary,
                )
            },
            None,
            Vec::new(),
        )
    }

    /// Applies again the latest undone change, as a new revision.
    pub fn redo(&mut self, document_id: i64) -> Result<Committed> {
        self.write(
            document_id,
            None,
            Source::Redo,
            |tx, before| {
                let (_, undone) = stacks(tx, document_id)?;
                let target = *undone
                    .last()
                    .ok_or(StoreError::NothingToRedo(document_id))?;
                let (forward, _) = patches(tx, document_id, target)?;
                let summary = format!("Redid revision {target}");
                Planned::of(
                    reapply(document_id, before, forward)?,
                    Some(target),
                    summary,
                )
            },
            None,
            Vec::new(),
        )
    }

    /// Makes the document read as it did at `revision`, as a new revision (history is kept).
    pub fn restore(&mut self, document_id: i64, revision: u64) -> Result<Committed> {
        self.write(
            document_id,
            None,
            Source::Restore,
            |tx, before| {
                let old = rebuild(tx, document_id, revision)?;
                let summary = format!("Restored revision {revision}");
                Planned::of((json_patch::diff(before, &old), old), None, summary)
            },
            None,
            Vec::new(),
        )
    }

    /// What undo and redo would act on: the changes in effect (oldest first; the last is what undo takes
    /// back) and the changes undone since the last new change (the last is what redo applies again).
    pub fn stacks(&self, document_id: i64) -> Result<(Vec<u64>, Vec<u64>)> {
        stacks(&self.conn, document_id)
    }
}

/// Writes revision `info` (its patches, and a snapshot of `after` every `SNAPSHOT_EVERY`) and moves the
/// document's head to it, inside the caller's transaction.
fn insert_revision(
    tx: &Connection,
    info: &RevisionInfo,
    forward: &Patch,
    inverse: &Patch,
    after: &Value,
) -> Result<()> {
    let snapshot = info
        .number
        .is_multiple_of(SNAPSHOT_EVERY)
        .then(|| after.to_string());
    tx.execute(
        "INSERT INTO revisions (document_id, number, created_at, base_revision, source, summary, forward,
                                inverse, snapshot, chat_message_id, reverts)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            info.document_id,
            info.number,
            info.created_at,
            info.base_revision,
            info.source.as_str(),
            info.summary,
            serde_json::to_string(forward)?,
            serde_json::to_string(inverse)?,
            snapshot,
            info.chat_message_id,
            info.reverts
        ],
    )?;
    tx.execute(
        "UPDATE documents SET head_revision = ?2, updated_at = ?3 WHERE id = ?1",
        params![info.document_id, info.number, info.created_at],
    )?;
    Ok(())
}

/// A revision about to be written: its operations, the document they make, the revision it undoes or
/// redoes, and its summary.
struct Planned {
    forward: Patch,
    after: Value,
    reverts: Option<u64>,
    summary: String,
}

impl Planned {
    fn of(
        (forward, after): (Patch, Value),
        reverts: Option<u64>,
        summary: String,
    ) -> Result<Planned> {
        Ok(Planned {
            forward,
            after,
            reverts,
            summary,
        })
    }
}

/// [`Store::stacks`], read through `conn` (the write transaction, for undo and redo).
fn stacks(conn: &rusqlite::Connection, document_id: i64) -> Result<(Vec<u64>, Vec<u64>)> {
    head_number(conn, document_id)?;
    let mut stmt = conn.prepare_cached(
        "SELECT number, source, reverts FROM revisions WHERE document_id = ?1 AND number > 1 ORDER BY number",
    )?;
    let mut rows = stmt.query([document_id])?;
    let (mut done, mut undone) = (Vec::new(), Vec::new());
    while let Some(row) = rows.next()? {
        let number: u64 = row.get(0)?;
        let source: String = row.get(1)?;
        let reverts: Option<u64> = row.get(2)?;
        match (Source::parse(&source), reverts) {
            (Source::Undo, Some(target)) => {
                if done.last() == Some(&target) {
                    done.pop();
                    undone.push(target);
                }
            }
            (Source::Redo, Some(target)) => {
                if undone.last() == Some(&target) {
                    undone.pop();
                    done.push(target);
                }
            }
            _ => {
                done.push(number);
                undone.clear();
            }
        }
    }
    Ok((done, undone))
}

/// A revision's forward and inverse patches.
fn patches(conn: &rusqlite::Connection, document_id: i64, revision: u64) -> Result<(Patch, Patch)> {
    let (forward, inverse): (String, String) = conn
        .query_row(
            "SELECT forward, inverse FROM revisions WHERE document_id = ?1 AND number = ?2",
            params![document_id, revision],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?
        .ok_or(StoreError::NoRevision {
            document: document_id,
            revision,
        })?;
    Ok((
        serde_json::from_str(&forward)?,
        serde_json::from_str(&inverse)?,
    ))
}

/// `before` with `ops` applied (all or nothing), with the operations.
fn reapply(document_id: i64, before: &Value, ops: Patch) -> Result<(Patch, Value)> {
    let mut after = before.clone();
    json_patch::patch(&mut after, &ops).map_err(|e| StoreError::DoesNotApply {
        document: document_id,
        detail: e.to_string(),
    })?;
    Ok((ops, after))
}

/// The head revision number of a document that is not deleted.
fn head_number(conn: &Connection, document_id: i64) -> Result<u64> {
    conn.prepare_cached("SELECT head_revision FROM documents WHERE id = ?1 AND deleted_at IS NULL")?
        .query_row([document_id], |row| row.get(0))
        .optional()?
        .ok_or(StoreError::NoDocument(document_id))
}

/// Rebuilds `revision` from the nearest snapshot at or before it and the forward patches after it.
fn rebuild(conn: &Connection, document_id: i64, revision: u64) -> Result<Value> {
    let missing = || StoreError::NoRevision {
        document: document_id,
        revision,
    };
    let (from, snapshot): (u64, String) = conn
        .prepare_cached(
            "SELECT number, snapshot FROM revisions
             WHERE document_id = ?1 AND number <= ?2 AND snapshot IS NOT NULL
             ORDER BY number DESC LIMIT 1",
        )?
        .query_row(params![document_id, revision], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?
        .ok_or_else(missing)?;
    let unreadable = |revision: u64, e: serde_json::Error| StoreError::Unreadable {
        document: document_id,
        revision,
        detail: e.to_string(),
    };
    let mut document: Value = serde_json::from_str(&snapshot).map_err(|e| unreadable(from, e))?;
    let mut stmt = conn.prepare_cached(
        "SELECT number, forward FROM revisions WHERE document_id = ?1 AND number > ?2 AND number <= ?3
         ORDER BY number",
    )?;
    let mut rows = stmt.query(params![document_id, from, revision])?;
    let mut last = from;
    while let Some(row) = rows.next()? {
        let number: u64 = row.get(0)?;
        let forward: Patch =
            serde_json::from_str(row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?)
                .map_err(|e| unreadable(number, e))?;
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
    Ok(document)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn patch(ops: Value) -> Patch {
        serde_json::from_value(ops).unwrap()
    }

    fn store_with(doc: &Value) -> (tempfile::TempDir, Store, i64) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let id = store.import("Ada", doc).unwrap();
        (dir, store, id)
    }

    fn set_name(store: &mut Store, id: i64, name: &str) -> Committed {
        let head = store.document(id).unwrap().head_revision;
        store
            .commit(
                id,
                Change::new(
                    head,
                    Source::User,
                    patch(json!([{"op": "replace", "path": "/basics/name", "value": name}])),
                ),
            )
            .unwrap()
    }

    fn name(store: &Store, id: i64) -> String {
        store.head(id).unwrap().document["basics"]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn a_commit_is_a_revision_and_every_revision_can_be_read_back() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "A"}}));
        for (i, n) in ["B", "C", "D"].iter().enumerate() {
            let committed = set_name(&mut store, id, n);
            assert_eq!(committed.info.number, i as u64 + 2);
            assert_eq!(committed.info.base_revision, Some(i as u64 + 1));
            assert_eq!(committed.document["basics"]["name"], *n);
        }
        assert_eq!(
            store.checkout(id, 1).unwrap().document["basics"]["name"],
            "A"
        );
        assert_eq!(
            store.checkout(id, 3).unwrap().document["basics"]["name"],
            "C"
        );
        assert_eq!(name(&store, id), "D");
        let history = store.history(id).unwrap();
        assert_eq!(history.len(), 4);
        assert_eq!(
            history[1].summary, "",
            "the store keeps no words of its own"
        );
        assert_eq!(
            serde_json::to_value(store.forward(id, 2).unwrap()).unwrap(),
            json!([{"op": "replace", "path": "/basics/name", "value": "B"}])
        );
        assert_eq!(history[0].source, Source::Import);
    }

    #[test]
    fn a_stale_or_failing_change_writes_nothing() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "A"}, "skills": []}));
        set_name(&mut store, id, "B");
        let stale = store.commit(
            id,
            Change::new(
                1,
                Source::Ai,
                patch(json!([{"op": "add", "path": "/skills/-", "value": {}}])),
            ),
        );
        assert!(
            matches!(
                stale,
                Err(StoreError::Stale {
                    base: 1,
                    head: 2,
                    ..
                })
            ),
            "{stale:?}"
        );
        let failing = store.commit(
            id,
            Change::new(
                2,
                Source::Ai,
                patch(json!([
                    {"op": "add", "path": "/skills/-", "value": {"name": "Rust"}},
                    {"op": "replace", "path": "/work/3/name", "value": "x"}
                ])),
            ),
        );
        assert!(
            matches!(failing, Err(StoreError::DoesNotApply { .. })),
            "{failing:?}"
        );
        let nothing = store.commit(
            id,
            Change::new(
                2,
                Source::User,
                patch(json!([{"op": "test", "path": "/basics/name", "value": "B"}])),
            ),
        );
        assert!(
            matches!(nothing, Err(StoreError::NoChange(_))),
            "{nothing:?}"
        );
        assert_eq!(store.document(id).unwrap().head_revision, 2);
        assert_eq!(store.head(id).unwrap().document["skills"], json!([]));
    }

    /// Undo, redo and restore, checked against the documents got by replaying the patches by hand.
    #[test]
    fn undo_redo_and_restore_follow_the_stack() {
        let start = json!({"basics": {"name": "A"}, "skills": [{"name": "Go"}]});
        let (_dir, mut store, id) = store_with(&start);
        let b = set_name(&mut store, id, "B"); // 2
        let add = patch(json!([{"op": "add", "path": "/skills/-", "value": {"name": "Rust"}}]));
        let c = store
            .commit(
                id,
                Change::new(2, Source::Ai, add.clone()).summary("Added Rust"),
            )
            .unwrap(); // 3
        let mut by_hand = start.clone();
        json_patch::patch(&mut by_hand, &b.forward).unwrap();
        let after_b = by_hand.clone();
        json_patch::patch(&mut by_hand, &c.forward).unwrap();
        assert_eq!(store.head(id).unwrap().document, by_hand);

        let undo_c = store.undo(id).unwrap(); // 4 takes back 3
        assert_eq!(
            (undo_c.info.source, undo_c.info.reverts),
            (Source::Undo, Some(3))
        );
        assert_eq!(undo_c.document, after_b);
        let undo_b = store.undo(id).unwrap(); // 5 takes back 2
        assert_eq!(undo_b.document, start);
        assert!(matches!(store.undo(id), Err(StoreError::NothingToUndo(_))));

        let redo_b = store.redo(id).unwrap(); // 6 applies 2 again
        assert_eq!(
            (redo_b.info.source, redo_b.info.reverts),
            (Source::Redo, Some(2))
        );
        assert_eq!(redo_b.document, after_b);
        // A new change clears what could be redone.
        set_name(&mut store, id, "E"); // 7
        assert!(matches!(store.redo(id), Err(StoreError::NothingToRedo(_))));
        assert_eq!(store.stacks(id).unwrap(), (vec![2, 7], vec![]));

        let restored = store.restore(id, 3).unwrap(); // 8 = revision 3's document
        assert_eq!(restored.document, by_hand);
        assert_eq!(restored.info.source, Source::Restore);
        let undone = store.undo(id).unwrap(); // the restore itself can be undone
        assert_eq!(undone.document["basics"]["name"], "E");
        assert!(matches!(store.restore(id, 9), Err(StoreError::NoChange(_))));

        // Every revision still reads back as the replay of all forward patches from the first.
        let mut replay = Value::Null;
        for info in store.history(id).unwrap() {
            let (forward, _) = patches(&store.conn, id, info.number).unwrap();
            json_patch::patch(&mut replay, &forward).unwrap();
            assert_eq!(store.checkout(id, info.number).unwrap().document, replay);
        }
        assert_eq!(store.head(id).unwrap().document, replay);
    }

    #[test]
    fn diff_between_two_revisions_is_a_patch_between_them() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "A"}}));
        set_name(&mut store, id, "B");
        set_name(&mut store, id, "C");
        let d = store.diff(id, 1, 3).unwrap();
        let mut doc = store.checkout(id, 1).unwrap().document;
        json_patch::patch(&mut doc, &d).unwrap();
        assert_eq!(doc, store.checkout(id, 3).unwrap().document);
        assert!(store.diff(id, 2, 2).unwrap().0.is_empty());
        assert!(matches!(
            store.diff(id, 1, 9),
            Err(StoreError::NoRevision { revision: 9, .. })
        ));
    }

    #[test]
    fn snapshots_bound_the_replay_and_a_variant_keeps_its_own_history() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "0"}}));
        let last = SNAPSHOT_EVERY * 2 + 5;
        for n in 2..=last {
            set_name(&mut store, id, &n.to_string());
        }
        let snapshots: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM revisions WHERE document_id = ?1 AND snapshot IS NOT NULL",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(snapshots, 3); // revision 1 and every SNAPSHOT_EVERY
        for n in [
            1,
            SNAPSHOT_EVERY - 1,
            SNAPSHOT_EVERY,
            SNAPSHOT_EVERY + 1,
            last,
        ] {
            let expected = if n == 1 {
                "0".to_owned()
            } else {
                n.to_string()
            };
            assert_eq!(
                store.checkout(id, n).unwrap().document["basics"]["name"],
                expected
            );
        }

        let variant = store.create_variant(id, 10, "Ada — frontend").unwrap();
        let record = store.document(variant).unwrap();
        assert_eq!(
            (record.parent_document, record.parent_revision),
            (Some(id), Some(10))
        );
        assert_eq!(name(&store, variant), "10");
        set_name(&mut store, variant, "V");
        assert_eq!(name(&store, variant), "V");
        assert_eq!(name(&store, id), last.to_string());
        assert_eq!(store.history(variant).unwrap().len(), 2);
        store.undo(variant).unwrap();
        assert_eq!(name(&store, variant), "10");
        assert_eq!(name(&store, id), last.to_string());
    }

    #[test]
    fn another_connection_sees_commits_and_the_head_cache_does_not_go_stale() {
        let (dir, mut store, id) = store_with(&json!({"basics": {"name": "A"}}));
        set_name(&mut store, id, "B");
        let mut other = Store::open(dir.path()).unwrap();
        set_name(&mut other, id, "C");
        // `store` cached revision 2 as its head; the database has moved on to 3.
        set_name(&mut store, id, "D");
        assert_eq!(
            store.checkout(id, 3).unwrap().document["basics"]["name"],
            "C"
        );
        assert_eq!(name(&other, id), "D");
    }
}
