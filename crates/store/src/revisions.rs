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
            |_, _, before| Planned::of(reapply(document_id, before, ops)?, None, summary),
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
        change: impl FnOnce(&rusqlite::Connection, u64, &Value) -> Result<Planned>,
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
            let before = match head_cache.get_mut().take() {
                Some((id, number, doc)) if id == document_id && number == head => doc,
                _ => rebuild(&tx, document_id, head)?,
            };
            let Planned {
                forward,
                after,
                reverts,
                summary,
            } = change(&tx, head, &before)?;
            if after == before {
                *head_cache.get_mut() = Some((document_id, head, before));
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
            let inverse = invert(&before, &forward, &after);
            let tops = tops_after(&tx, &info, head)?;
            insert_revision(&tx, &info, &forward, &inverse, &after, tops)?;
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
            *head_cache.get_mut() = Some((document_id, info.number, after.clone()));
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
        let revision = self.checkout(document_id, head)?;
        self.head_cache
            .replace(Some((document_id, head, revision.document.clone())));
        Ok(revision)
    }

    /// The document as it was at `revision`: the nearest snapshot at or before it, with the forward patches
    /// after that snapshot replayed.
    pub fn checkout(&self, document_id: i64, revision: u64) -> Result<Revision> {
        let cached = match &*self.head_cache.borrow() {
            Some((id, number, document)) if *id == document_id && *number == revision => {
                Some(document.clone())
            }
            _ => None,
        };
        let document = match cached {
            Some(document) => document,
            None => rebuild(&self.conn, document_id, revision)?,
        };
        Ok(Revision {
            document_id,
            number: revision,
            document,
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

    /// The name on a document (`basics.name` at its head; empty if none), read from the head's copy by
    /// SQLite without building the document: the list of every resume asks this of each. An error says
    /// why the document cannot be opened.
    pub fn head_name(&self, document_id: i64) -> Result<String> {
        let head = head_number(&self.conn, document_id)?;
        let name: Option<Option<String>> = self
            .conn
            .prepare_cached(
                "SELECT json_extract(snapshot, '$.basics.name') FROM revisions
                 WHERE document_id = ?1 AND number = ?2 AND snapshot IS NOT NULL",
            )?
            .query_row(params![document_id, head], |row| {
                // A name that is not a string is no name.
                Ok(row.get::<_, String>(0).ok())
            })
            .optional()
            .map_err(|e| StoreError::Unreadable {
                document: document_id,
                revision: head,
                detail: e.to_string(),
            })?;
        match name {
            Some(name) => Ok(name.unwrap_or_default()),
            // A head without its copy (written before heads had one): built the long way.
            None => Ok(self.head(document_id)?.document["basics"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned()),
        }
    }

    /// One revision's record.
    pub fn revision_info(&self, document_id: i64, revision: u64) -> Result<RevisionInfo> {
        self.conn
            .prepare_cached(&format!(
                "SELECT {INFO_COLUMNS} FROM revisions WHERE document_id = ?1 AND number = ?2"
            ))?
            .query_row(params![document_id, revision], info)
            .optional()?
            .ok_or(StoreError::NoRevision {
                document: document_id,
                revision,
            })
    }

    /// A page of the history, newest first: the revisions before `before` (from the head when `None`)
    /// that `keep` takes, at most `limit` of them, and whether there are more. `keep` may fill in a
    /// record (its summary in words) before it judges it; it sees the revisions one at a time, so a page
    /// reads only as far back as it needs.
    pub fn history_page(
        &self,
        document_id: i64,
        before: Option<u64>,
        limit: usize,
        mut keep: impl FnMut(&mut RevisionInfo) -> Result<bool>,
    ) -> Result<(Vec<RevisionInfo>, bool)> {
        head_number(&self.conn, document_id)?;
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {INFO_COLUMNS} FROM revisions WHERE document_id = ?1 AND number < ?2
             ORDER BY number DESC"
        ))?;
        let before = before.map_or(i64::MAX, |b| b.min(i64::MAX as u64) as i64);
        let mut rows = stmt.query(params![document_id, before])?;
        let mut page = Vec::new();
        while let Some(row) = rows.next()? {
            let mut record = info(row)?;
            if keep(&mut record)? {
                if page.len() == limit {
                    return Ok((page, true));
                }
                page.push(record);
            }
        }
        Ok((page, false))
    }

    /// A page of the revisions whose words have each of `words` (as a word or the start of one, in any
    /// case and with or without accents), newest first: at most `limit` before `before`, and whether there
    /// are more. Found through the words' index, so a search reads what it finds, not the history; a
    /// revision written without a summary (by an older Redline) is shown to `unworded`, which describes it
    /// and says whether it matches. Words with no letter or digit in them find every revision.
    pub fn search_history(
        &self,
        document_id: i64,
        words: &str,
        before: Option<u64>,
        limit: usize,
        mut unworded: impl FnMut(&mut RevisionInfo) -> Result<bool>,
    ) -> Result<(Vec<RevisionInfo>, bool)> {
        let Some(query) = match_query(words) else {
            return self.history_page(document_id, before, limit, |_| Ok(true));
        };
        head_number(&self.conn, document_id)?;
        let before = before.map_or(1 << 32, |b| b.min(1 << 32));
        let mut found: Vec<u64> = self
            .conn
            .prepare_cached(
                "SELECT rowid FROM revision_words
                 WHERE revision_words MATCH ?1 AND rowid >= ?2 AND rowid < ?3",
            )?
            .query_map(
                params![
                    query,
                    word_key(document_id, 0),
                    word_key(document_id, 0) + before as i64
                ],
                |row| Ok(row.get::<_, i64>(0)? as u64 & 0xffff_ffff),
            )?
            .collect::<rusqlite::Result<_>>()?;
        let mut described = std::collections::HashMap::new();
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {INFO_COLUMNS} FROM revisions INDEXED BY revisions_unworded
             WHERE document_id = ?1 AND summary = '' AND number < ?2"
        ))?;
        let mut rows = stmt.query(params![document_id, before])?;
        while let Some(row) = rows.next()? {
            let mut record = info(row)?;
            if unworded(&mut record)? {
                found.push(record.number);
                described.insert(record.number, record);
            }
        }
        found.sort_unstable_by(|a, b| b.cmp(a));
        found.dedup();
        let more = found.len() > limit;
        found
            .into_iter()
            .take(limit)
            .map(|n| match described.remove(&n) {
                Some(record) => Ok(record),
                None => self.revision_info(document_id, n),
            })
            .collect::<Result<_>>()
            .map(|page| (page, more))
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
        self.step(document_id, Source::Undo)
    }

    /// Applies again the latest undone change, as a new revision.
    pub fn redo(&mut self, document_id: i64) -> Result<Committed> {
        self.step(document_id, Source::Redo)
    }

    /// Undo or Redo (`source`): the top of its stack, its inverse or its forward patch applied again as a
    /// new revision.
    fn step(&mut self, document_id: i64, source: Source) -> Result<Committed> {
        let undo = source == Source::Undo;
        self.write(
            document_id,
            None,
            source,
            |tx, head, before| {
                let tops = tops(tx, document_id, head)?;
                let target = if undo {
                    tops.undo.ok_or(StoreError::NothingToUndo(document_id))?
                } else {
                    tops.redo.ok_or(StoreError::NothingToRedo(document_id))?
                };
                let (forward, inverse) = patches(tx, document_id, target)?;
                let (patch, done) = if undo {
                    (inverse, "Undid")
                } else {
                    (forward, "Redid")
                };
                Planned::of(
                    reapply(document_id, before, patch)?,
                    Some(target),
                    format!("{done} revision {target}"),
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
            |tx, _, before| {
                let old = rebuild(tx, document_id, revision)?;
                let summary = format!("Restored revision {revision}");
                Planned::of((json_patch::diff(before, &old), old), None, summary)
            },
            None,
            Vec::new(),
        )
    }

    /// What Undo and Redo would act on at the head of `document_id`: the latest change not yet undone and
    /// the latest undone one (read from the head's row, not worked out from the history).
    pub fn tops(&self, document_id: i64) -> Result<Tops> {
        let head = head_number(&self.conn, document_id)?;
        tops(&self.conn, document_id, head)
    }
}

/// What Undo and Redo act on after a revision: the latest change in effect and not yet undone, and the
/// latest change undone since the last new one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tops {
    /// The revision Undo takes back.
    pub undo: Option<u64>,
    /// The revision Redo applies again.
    pub redo: Option<u64>,
}

/// The stacks are two linked lists through the revisions. A new change `r` goes on the undo stack over
/// what was there after `r - 1`; undoing `t` uncovers what was under it, the undo top after `t - 1`, and
/// puts `t` on the redo stack; redoing `t` puts it back and uncovers what was under it on the redo
/// stack, the redo top before the latest undo of `t`. So each needs one or two rows, never the history.
fn tops_after(tx: &Connection, info: &RevisionInfo, head: u64) -> Result<Tops> {
    let at = |n: u64| tops(tx, info.document_id, n);
    Ok(match (info.source, info.reverts) {
        (Source::Undo, Some(target)) => Tops {
            undo: at(target.saturating_sub(1))?.undo,
            redo: Some(target),
        },
        (Source::Redo, Some(target)) => {
            let undone: Option<u64> = tx
                .prepare_cached(
                    "SELECT number FROM revisions
                     WHERE document_id = ?1 AND reverts = ?2 AND source = 'undo' AND number <= ?3
                     ORDER BY number DESC LIMIT 1",
                )?
                .query_row(params![info.document_id, target, head], |row| row.get(0))
                .optional()?;
            Tops {
                undo: Some(target),
                redo: match undone {
                    Some(u) => at(u.saturating_sub(1))?.redo,
                    None => None,
                },
            }
        }
        _ => Tops {
            undo: Some(info.number),
            redo: None,
        },
    })
}

/// The tops of the stacks after revision `number` (none after the first: there is nothing before it).
fn tops(conn: &Connection, document_id: i64, number: u64) -> Result<Tops> {
    let (undo, redo) = conn
        .prepare_cached(
            "SELECT undo_to, redo_to FROM revisions WHERE document_id = ?1 AND number = ?2",
        )?
        .query_row(params![document_id, number], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?
        .ok_or(StoreError::NoRevision {
            document: document_id,
            revision: number,
        })?;
    Ok(Tops { undo, redo })
}

/// Migration 4: works out the tops of the stacks after every revision written before they were kept, by
/// playing each document's history through the stacks once.
pub(crate) fn backfill_stacks(conn: &Connection) -> Result<()> {
    let mut rows = conn.prepare(
        "SELECT document_id, number, source, reverts FROM revisions ORDER BY document_id, number",
    )?;
    let mut update = conn.prepare(
        "UPDATE revisions SET undo_to = ?3, redo_to = ?4 WHERE document_id = ?1 AND number = ?2",
    )?;
    let mut rows = rows.query([])?;
    let mut current = None;
    let (mut done, mut undone): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    while let Some(row) = rows.next()? {
        let (document, number): (i64, u64) = (row.get(0)?, row.get(1)?);
        let source: String = row.get(2)?;
        let reverts: Option<u64> = row.get(3)?;
        if current != Some(document) {
            current = Some(document);
            done.clear();
            undone.clear();
        }
        if number > 1 {
            play(
                &mut done,
                &mut undone,
                number,
                Source::parse(&source),
                reverts,
            );
        }
        update.execute(params![document, number, done.last(), undone.last()])?;
    }
    drop(rows);
    // Each head gets its snapshot, as every head written from now on has one.
    let heads: Vec<(i64, u64)> = conn
        .prepare("SELECT id, head_revision FROM documents")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (document, head) in heads {
        // A history that no longer replays stays as it is: opening it says which revision fails.
        if let Ok(at_head) = rebuild(conn, document, head) {
            conn.execute(
                "UPDATE revisions SET snapshot = ?3 WHERE document_id = ?1 AND number = ?2",
                params![document, head, at_head.to_string()],
            )?;
        }
    }
    Ok(())
}

/// One revision played through the whole stacks, as they were worked out before their tops were kept
/// (the migration's way, and the tests' reference).
pub(crate) fn play(
    done: &mut Vec<u64>,
    undone: &mut Vec<u64>,
    number: u64,
    source: Source,
    reverts: Option<u64>,
) {
    match (source, reverts) {
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

/// Writes revision `info` (its patches, and a snapshot of `after`) and moves the document's head to it,
/// inside the caller's transaction. The head always has a snapshot, so that opening a document replays
/// nothing; the one before it keeps its snapshot only on the first revision and every
/// `SNAPSHOT_EVERY`, so that the history holds one more copy of the document, not one per revision.
fn insert_revision(
    tx: &Connection,
    info: &RevisionInfo,
    forward: &Patch,
    inverse: &Patch,
    after: &Value,
    tops: Tops,
) -> Result<()> {
    let snapshot = after.to_string();
    tx.prepare_cached(
        "UPDATE revisions SET snapshot = NULL
         WHERE document_id = ?1 AND number = ?2 AND number > 1 AND number % ?3 != 0",
    )?
    .execute(params![info.document_id, info.number - 1, SNAPSHOT_EVERY])?;
    tx.prepare_cached(
        "INSERT INTO revisions (document_id, number, created_at, base_revision, source, summary, forward,
                                inverse, snapshot, chat_message_id, reverts, undo_to, redo_to)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
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
            info.reverts,
            tops.undo,
            tops.redo
        ])?;
    index_words(
        tx,
        info.document_id,
        info.number,
        &info.summary,
        info.source,
    )?;
    tx.prepare_cached("UPDATE documents SET head_revision = ?2, updated_at = ?3 WHERE id = ?1")?
        .execute(params![info.document_id, info.number, info.created_at])?;
    Ok(())
}

/// Puts a revision's words (its summary and where it came from) in the history's search index, inside
/// the caller's transaction.
pub(crate) fn index_words(
    tx: &Connection,
    document_id: i64,
    number: u64,
    summary: &str,
    source: Source,
) -> Result<()> {
    tx.prepare_cached("INSERT INTO revision_words (rowid, words) VALUES (?1, ?2)")?
        .execute(params![
            word_key(document_id, number),
            format!("{summary} {}", source.as_str())
        ])?;
    Ok(())
}

/// A revision's key in the words' index: its document in the high 32 bits, its number in the low, so that
/// one document's revisions are one range of keys (a document id past 2^31 or a revision past 2^32 would
/// take a store billions of writes to reach).
fn word_key(document_id: i64, number: u64) -> i64 {
    (document_id << 32) | (number & 0xffff_ffff) as i64
}

/// A search of the index for revisions whose words have each of `words`, as a word or the start of one:
/// each word quoted (nothing in it is the index's syntax), with `*` for its prefix. `None` when nothing
/// typed can be a word.
fn match_query(words: &str) -> Option<String> {
    let terms: Vec<String> = words
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(|w| format!("\"{}\"*", w.replace('"', "\"\"")))
        .collect();
    (!terms.is_empty()).then(|| terms.join(" "))
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

/// The operations that take `after` back to `before`, where `forward` took `before` to `after`: each
/// operation taken back in turn (what it removed or replaced added or put back where it was), so that the
/// inverse is as small as the change. Taking an item out of a long list must not make an inverse that
/// rewrites every item after it, as a diff of the two documents does. Checked by applying it; where the
/// operations are not ones this inverts (`move`, `copy`) or the check fails, the diff is the inverse.
fn invert(before: &Value, forward: &Patch, after: &Value) -> Patch {
    by_operation(before, forward)
        .filter(|inverse| {
            let mut back = after.clone();
            json_patch::patch(&mut back, inverse).is_ok() && back == *before
        })
        .unwrap_or_else(|| json_patch::diff(after, before))
}

/// [`invert`]'s first way: each operation of `forward`, applied to `before` in turn, taken back.
fn by_operation(before: &Value, forward: &Patch) -> Option<Patch> {
    let mut doc = before.clone();
    let mut inverse: Vec<Value> = Vec::with_capacity(forward.len());
    for op in forward.iter() {
        let op = serde_json::to_value(op).ok()?;
        let path = op["path"].as_str()?.to_owned();
        let old = doc.pointer(&path).cloned();
        let undo = match op["op"].as_str()? {
            "add" => match (parent_of(&doc, &path)?, old) {
                // An item added to a list: taken out again from where it went.
                (Value::Array(items), _) => {
                    let (parent, last) = path.rsplit_once('/')?;
                    let at = if last == "-" {
                        items.len()
                    } else {
                        last.parse().ok()?
                    };
                    serde_json::json!({"op": "remove", "path": format!("{parent}/{at}")})
                }
                (_, Some(old)) => serde_json::json!({"op": "replace", "path": path, "value": old}),
                (_, None) => serde_json::json!({"op": "remove", "path": path}),
            },
            "remove" => serde_json::json!({"op": "add", "path": path, "value": old?}),
            "replace" => serde_json::json!({"op": "replace", "path": path, "value": old?}),
            "test" => continue,
            _ => return None,
        };
        let one: Patch = serde_json::from_value(serde_json::json!([op])).ok()?;
        json_patch::patch(&mut doc, &one).ok()?;
        inverse.push(undo);
    }
    inverse.reverse();
    serde_json::from_value(Value::Array(inverse)).ok()
}

/// The value holding what `path` points at (the whole document for the root).
fn parent_of<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    match path.rsplit_once('/') {
        Some((parent, _)) => doc.pointer(parent),
        None => Some(doc),
    }
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
        assert_eq!(
            store.tops(id).unwrap(),
            Tops {
                undo: Some(7),
                redo: None
            }
        );

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

    /// The stacks as they were worked out before their tops were kept: the whole history played.
    fn played(store: &Store, id: i64) -> Tops {
        let (mut done, mut undone) = (Vec::new(), Vec::new());
        for info in store.history(id).unwrap().iter().skip(1) {
            play(
                &mut done,
                &mut undone,
                info.number,
                info.source,
                info.reverts,
            );
        }
        Tops {
            undo: done.last().copied(),
            redo: undone.last().copied(),
        }
    }

    /// Undo and Redo read two rows, and act exactly as the whole history played through the stacks would:
    /// checked after each of 600 actions chosen at random (changes, undos in runs, redos in runs,
    /// restores), and again after the kept tops are worked out afresh as migration 4 does.
    #[test]
    fn kept_tops_act_as_the_whole_history_played() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "A"}}));
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut undos, mut redos) = (0, 0);
        for i in 0..600 {
            let head = store.document(id).unwrap().head_revision;
            let result = match next() % 10 {
                0..=2 => Ok(set_name(&mut store, id, &format!("N{i}"))),
                3..=5 => store.undo(id).inspect(|_| undos += 1),
                6..=8 => store.redo(id).inspect(|_| redos += 1),
                _ => store.restore(id, 1 + next() % head),
            };
            if let Err(e) = result
                && !e.is_nothing_to_do()
            {
                panic!("action {i}: {e}");
            }
            assert_eq!(
                store.tops(id).unwrap(),
                played(&store, id),
                "after action {i}"
            );
        }
        assert!(undos > 100 && redos > 50, "{undos} undos, {redos} redos");
        let kept: Vec<(u64, Option<u64>, Option<u64>)> = {
            let mut stmt = store
                .conn
                .prepare("SELECT number, undo_to, redo_to FROM revisions ORDER BY number")
                .unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        store
            .conn
            .execute("UPDATE revisions SET undo_to = NULL, redo_to = NULL", [])
            .unwrap();
        backfill_stacks(&store.conn).unwrap();
        let mut stmt = store
            .conn
            .prepare("SELECT number, undo_to, redo_to FROM revisions ORDER BY number")
            .unwrap();
        let again: Vec<(u64, Option<u64>, Option<u64>)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(kept, again);
    }

    /// A search finds revisions by a word or the start of one, in any case, accents or not, through the
    /// index; a revision written without a summary is described by the caller and judged by it; pages
    /// come newest first.
    #[test]
    fn a_search_finds_revisions_by_their_words() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "A"}}));
        let mut commit = |name: &str, summary: &str| {
            let head = store.document(id).unwrap().head_revision;
            let ops = patch(json!([{"op": "replace", "path": "/basics/name", "value": name}]));
            let mut change = Change::new(head, Source::User, ops);
            if !summary.is_empty() {
                change = change.summary(summary);
            }
            store.commit(id, change).unwrap().info.number
        };
        let resume = commit("B", "Renamed the Résumé");
        let python = commit("C", "Added “Python” to your skills");
        let legacy = commit("D", "");
        let again = commit("E", "Added Pythonic ways");
        store.undo(id).unwrap();
        let mut shown = Vec::new();
        let mut search = |words: &str, before: Option<u64>, limit: usize| {
            let (page, more) = store
                .search_history(id, words, before, limit, |info| {
                    shown.push(info.number);
                    info.summary = "Change your name to “D”".into();
                    let said = format!("{} {}", info.summary, info.source.as_str()).to_lowercase();
                    Ok(words
                        .to_lowercase()
                        .split_whitespace()
                        .all(|w| said.contains(w)))
                })
                .unwrap();
            (page.iter().map(|r| r.number).collect::<Vec<_>>(), more)
        };
        assert_eq!(search("RESUME", None, 10), (vec![resume], false));
        assert_eq!(search("pyth", None, 10), (vec![again, python], false));
        assert_eq!(search("pyth", None, 1), (vec![again], true));
        assert_eq!(search("pyth", Some(again), 1), (vec![python], false));
        assert_eq!(search("added skills", None, 10), (vec![python], false));
        assert_eq!(search("undid", None, 10), (vec![again + 1], false));
        assert_eq!(search("user name", None, 10), (vec![legacy], false));
        assert_eq!(search("\"* OR (", None, 10), (vec![], false));
        assert_eq!(search("— ", None, 2).0.len(), 2, "no word: every revision");
        // Only the revision written without a summary was shown to the caller.
        assert!(shown.iter().all(|&n| n == legacy), "{shown:?}");
    }

    /// An item taken out of a long list is put back by one operation, not by rewriting every item after
    /// it; every kind of change is taken back exactly, whichever way its inverse was made.
    #[test]
    fn an_inverse_is_as_small_as_its_change() {
        let words: Vec<String> = (0..500).map(|i| format!("skill-{i}")).collect();
        let before =
            json!({"basics": {"name": "A", "label": "x"}, "skills": [{"keywords": words}]});
        let cases = [
            json!([{"op": "remove", "path": "/skills/0/keywords/3"}]),
            json!([{"op": "add", "path": "/skills/0/keywords/3", "value": "Rust"}]),
            json!([{"op": "add", "path": "/skills/0/keywords/-", "value": "Go"},
                   {"op": "replace", "path": "/basics/name", "value": "B"},
                   {"op": "add", "path": "/basics/email", "value": "b@example.com"},
                   {"op": "add", "path": "/basics/label", "value": "y"},
                   {"op": "remove", "path": "/skills/0/keywords/0"},
                   {"op": "test", "path": "/basics/name", "value": "B"}]),
            json!([{"op": "move", "from": "/skills/0/keywords/0", "path": "/skills/0/keywords/-"}]),
            json!([{"op": "add", "path": "", "value": {"basics": {}}}]),
        ];
        for (i, ops) in cases.iter().enumerate() {
            let forward = patch(ops.clone());
            let mut after = before.clone();
            json_patch::patch(&mut after, &forward).unwrap();
            let inverse = invert(&before, &forward, &after);
            let mut back = after.clone();
            json_patch::patch(&mut back, &inverse).unwrap();
            assert_eq!(back, before, "case {i}");
            if i < 3 {
                assert_eq!(
                    inverse.len(),
                    forward
                        .iter()
                        .filter(|o| !matches!(o, json_patch::PatchOperation::Test(_)))
                        .count(),
                    "case {i}: {inverse:?}"
                );
            }
        }
    }

    /// The list's name comes from the head's copy, as the head itself would give it.
    #[test]
    fn a_head_s_name_is_read_without_building_the_document() {
        let (_dir, mut store, id) = store_with(&json!({"basics": {"name": "Ada"}}));
        assert_eq!(store.head_name(id).unwrap(), "Ada");
        set_name(&mut store, id, "Ada Lovelace");
        assert_eq!(store.head_name(id).unwrap(), "Ada Lovelace");
        let nameless = store
            .import("None", &json!({"basics": {"name": 7}}))
            .unwrap();
        assert_eq!(store.head_name(nameless).unwrap(), "");
        let empty = store.import("Empty", &json!({})).unwrap();
        assert_eq!(store.head_name(empty).unwrap(), "");
        assert!(matches!(
            store.head_name(99),
            Err(StoreError::NoDocument(99))
        ));
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
        let heads: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM revisions WHERE document_id = ?1 AND snapshot IS NOT NULL AND number = ?2",
                params![id, last],
                |r| r.get(0),
            )
            .unwrap();
        // Revision 1, every SNAPSHOT_EVERY, and the head: one more copy, not one per revision.
        assert_eq!((snapshots, heads), (4, 1));
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
