//! A resume's history by its id, as the command line asks for it: a revision's document, the revisions in
//! words (all, searched, or the newest few), the patch between two revisions, and Undo, Redo and Restore
//! on a named resume. The window's history panel and its Undo act on the resume on screen
//! (`documents.rs`); both come down to the same store calls.

use redline_store::{Committed, RevisionInfo, Store, StoreError};
use serde_json::Value;

use super::Engine;
use crate::error::Error;

/// A change committed by Undo, Redo or Restore: the resume, its new revision, and what it did in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Changed {
    /// The resume's id.
    pub document_id: i64,
    /// The new head revision.
    pub revision: u64,
    /// What the new revision did, in words.
    pub summary: String,
}

/// The history of one resume: its revisions (oldest first), and which is its head.
#[derive(Debug, Clone)]
pub struct History {
    pub revisions: Vec<RevisionInfo>,
    pub head: u64,
}

impl Engine {
    /// Resume `doc` as it reads at `revision` (at its head when `None`).
    pub async fn document_at(&self, doc: i64, revision: Option<u64>) -> Result<Value, Error> {
        let open = self.open()?.lock().await;
        let revision = match revision {
            Some(n) => open.store.checkout(doc, n)?,
            None => open.store.head(doc)?,
        };
        Ok(revision.document)
    }

    /// The revisions of resume `doc`, oldest first, each in words: every one, or (with `search` or `last`)
    /// the newest `last` of those whose words or source have each of `search`'s words.
    pub async fn history_of(
        &self,
        doc: i64,
        search: Option<&str>,
        last: Option<usize>,
    ) -> Result<History, Error> {
        let open = self.open()?.lock().await;
        let revisions = match (search, last) {
            (None, None) => crate::history_in_words(&open.store, doc)?,
            (search, last) => {
                let (mut page, _) = crate::history_page_in_words(
                    &open.store,
                    doc,
                    None,
                    last.unwrap_or(usize::MAX),
                    search.unwrap_or_default(),
                )?;
                page.reverse();
                page
            }
        };
        let head = open.store.document(doc)?.head_revision;
        Ok(History { revisions, head })
    }

    /// The RFC 6902 patch that turns revision `from` of resume `doc` into revision `to`.
    pub async fn diff(&self, doc: i64, from: u64, to: u64) -> Result<Value, Error> {
        let open = self.open()?.lock().await;
        let patch = open.store.diff(doc, from, to)?;
        serde_json::to_value(&patch)
            .map_err(|e| Error::new(crate::ErrorKind::Internal, e.to_string()))
    }

    /// Takes back the latest change to resume `doc`, as a new revision.
    pub async fn undo_in(&self, doc: i64) -> Result<Changed, Error> {
        self.change_in(doc, |store, id| store.undo(id)).await
    }

    /// Applies again the change to resume `doc` undone last.
    pub async fn redo_in(&self, doc: i64) -> Result<Changed, Error> {
        self.change_in(doc, |store, id| store.redo(id)).await
    }

    /// Makes resume `doc` read as it did at revision `number`, as a new revision.
    pub async fn restore_in(&self, doc: i64, number: u64) -> Result<Changed, Error> {
        self.change_in(doc, |store, id| store.restore(id, number))
            .await
    }

    /// `act` on resume `doc` in the open store, refused while a turn runs.
    async fn change_in(
        &self,
        doc: i64,
        act: impl FnOnce(&mut Store, i64) -> Result<Committed, StoreError>,
    ) -> Result<Changed, Error> {
        self.idle()?;
        let mut open = self.open()?.lock().await;
        let committed = act(&mut open.store, doc)?;
        Ok(Changed {
            document_id: doc,
            revision: committed.info.number,
            summary: committed.info.summary,
        })
    }
}

/// Every revision of `document_id`, oldest first, each summary in words: one written without a summary
/// (by an older Redline, or a change that came with none) is described from its operations.
pub fn history_in_words(
    store: &Store,
    document_id: i64,
) -> Result<Vec<redline_store::RevisionInfo>, StoreError> {
    let mut history = store.history(document_id)?;
    for info in &mut history {
        in_words(store, info)?;
    }
    Ok(history)
}

/// Revision `number` of `document_id`, its summary in words.
pub fn revision_in_words(
    store: &Store,
    document_id: i64,
    number: u64,
) -> Result<redline_store::RevisionInfo, StoreError> {
    let mut info = store.revision_info(document_id, number)?;
    in_words(store, &mut info)?;
    Ok(info)
}

/// A page of `document_id`'s history, newest first, summaries in words: at most `limit` revisions before
/// `before` (from the head when `None`) whose words or source have every one of `words` (as a word or the
/// start of one, in any case; all revisions when `words` is empty), and whether there are more.
pub fn history_page_in_words(
    store: &Store,
    document_id: i64,
    before: Option<u64>,
    limit: usize,
    words: &str,
) -> Result<(Vec<redline_store::RevisionInfo>, bool), StoreError> {
    let (mut page, more) = if words.trim().is_empty() {
        store.history_page(document_id, before, limit, |_| Ok(true))?
    } else {
        let wanted: Vec<String> = words.split_whitespace().map(str::to_lowercase).collect();
        store.search_history(document_id, words, before, limit, |info| {
            in_words(store, info)?;
            let said = format!("{} {}", info.summary, info.source.as_str()).to_lowercase();
            Ok(wanted.iter().all(|w| said.contains(w.as_str())))
        })?
    };
    for info in &mut page {
        in_words(store, info)?;
    }
    Ok((page, more))
}

/// Describes a revision written without a summary from its operations.
fn in_words(store: &Store, info: &mut redline_store::RevisionInfo) -> Result<(), StoreError> {
    if info.summary.is_empty() {
        let ops: Vec<redline_patch::Operation> = store
            .forward(info.document_id, info.number)?
            .iter()
            .map(Into::into)
            .collect();
        info.summary = redline_patch::summarize(&ops);
    }
    Ok(())
}
