//! Documents: create, import, list, rename, delete (soft) and restore; variants; export of everything.

use rusqlite::{OptionalExtension, Row, params};
use serde_json::{Value, json};

use crate::{DocumentKind, DocumentSummary, Result, Source, Store, StoreError, now_ms};

/// The setting that names the current document.
const CURRENT: &str = "documents.current";

const COLUMNS: &str = "id, title, created_at, updated_at, head_revision, parent_document, parent_revision, deleted_at, kind, resume_id";

/// What a new document is, beyond its content.
#[derive(Clone, Copy)]
struct NewDocument {
    /// A variant's origin: the document and the revision it was made from.
    parent: Option<(i64, u64)>,
    kind: DocumentKind,
    /// For a letter, the resume it belongs to.
    resume_id: Option<i64>,
    /// Only when the store has no document (the first start).
    only_if_empty: bool,
}

impl NewDocument {
    const RESUME: NewDocument = NewDocument {
        parent: None,
        kind: DocumentKind::Resume,
        resume_id: None,
        only_if_empty: false,
    };
}

fn summary(row: &Row<'_>) -> rusqlite::Result<DocumentSummary> {
    Ok(DocumentSummary {
        id: row.get(0)?,
        title: row.get(1)?,
        created_at: row.get(2)?,
        updated_at: row.get(3)?,
        head_revision: row.get(4)?,
        parent_document: row.get(5)?,
        parent_revision: row.get(6)?,
        deleted_at: row.get(7)?,
        kind: DocumentKind::parse(&row.get::<_, String>(8)?),
        resume_id: row.get(9)?,
    })
}

impl Store {
    /// Creates a document whose first revision is `document`, and returns its id. A new document is the
    /// current one.
    pub fn import(&mut self, title: &str, document: &Value) -> Result<i64> {
        let summary = format!("Imported “{}”", redline_resume::fit_title(title));
        self.create(title, document, NewDocument::RESUME, summary)
            .map(|id| id.expect("an import is not conditional"))
    }

    /// Creates a cover letter whose first revision is `letter`, belonging to the resume `resume_id` (its
    /// sender), and returns its id. The letter does not become the current document: the commands that
    /// act on "the current resume" keep acting on a resume.
    pub fn create_letter(&mut self, resume_id: i64, title: &str, letter: &Value) -> Result<i64> {
        if self.document(resume_id)?.kind != DocumentKind::Resume {
            return Err(StoreError::NotAResume(resume_id));
        }
        let summary = format!("Letter “{}” begun", redline_resume::fit_title(title));
        let new = NewDocument {
            kind: DocumentKind::Letter,
            resume_id: Some(resume_id),
            ..NewDocument::RESUME
        };
        self.create(title, letter, new, summary)
            .map(|id| id.expect("a letter is not conditional"))
    }

    /// Writes a new document; with `only_if_empty`, only when the store has no document (checked in the
    /// same transaction, so that two processes starting on an empty folder make one, not two).
    fn create(
        &mut self,
        title: &str,
        document: &Value,
        new: NewDocument,
        summary: String,
    ) -> Result<Option<i64>> {
        crate::check_readable(document)?;
        let title = redline_resume::fit_title(title);
        let now = now_ms();
        let parent = new.parent;
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        if new.only_if_empty {
            let any: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM documents WHERE deleted_at IS NULL)",
                [],
                |row| row.get(0),
            )?;
            if any {
                return Ok(None);
            }
        }
        tx.execute(
            "INSERT INTO documents (title, created_at, updated_at, head_revision, parent_document, parent_revision,
                                    kind, resume_id)
             VALUES (?1, ?2, ?2, 1, ?3, ?4, ?5, ?6)",
            params![
                title,
                now,
                parent.map(|p| p.0),
                parent.map(|p| p.1),
                new.kind.as_str(),
                new.resume_id
            ],
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
                summary,
                forward.to_string(),
                inverse.to_string(),
                document.to_string()
            ],
        )?;
        crate::revisions::index_words(&tx, id, 1, &summary, Source::Import)?;
        if new.kind == DocumentKind::Resume {
            tx.execute(
                "INSERT INTO settings (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![CURRENT, id.to_string()],
            )?;
        }
        tx.commit()?;
        Ok(Some(id))
    }

    /// A new document made from `document_id` as it was at `revision`, with its own history from there
    /// on; it remembers where it came from.
    pub fn create_variant(&mut self, document_id: i64, revision: u64, title: &str) -> Result<i64> {
        let from = self.document(document_id)?;
        let content = self.checkout(document_id, revision)?.document;
        let new = NewDocument {
            parent: Some((document_id, revision)),
            kind: from.kind,
            resume_id: from.resume_id,
            only_if_empty: false,
        };
        self.create(
            title,
            &content,
            new,
            format!("Variant of “{}” at revision {revision}", from.title),
        )
        .map(|id| id.expect("a variant is not conditional"))
    }

    /// The documents that are not deleted, most recently changed first.
    pub fn list(&self) -> Result<Vec<DocumentSummary>> {
        self.select("WHERE deleted_at IS NULL ORDER BY updated_at DESC, id DESC")
    }

    /// The deleted documents (they can be restored), most recently deleted first.
    pub fn list_deleted(&self) -> Result<Vec<DocumentSummary>> {
        self.select("WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id DESC")
    }

    fn select(&self, filter: &str) -> Result<Vec<DocumentSummary>> {
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT {COLUMNS} FROM documents {filter}"))?;
        let rows = stmt.query_map([], summary)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One document that is not deleted.
    pub fn document(&self, document_id: i64) -> Result<DocumentSummary> {
        self.conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM documents WHERE id = ?1 AND deleted_at IS NULL"),
                [document_id],
                summary,
            )
            .optional()?
            .ok_or(StoreError::NoDocument(document_id))
    }

    /// The document the user works on: the one last opened (see [`Store::set_current`]) or created, if it
    /// is still there; else the one changed last.
    pub fn current(&self) -> Result<DocumentSummary> {
        let chosen = self.setting(CURRENT)?.and_then(|id| id.parse::<i64>().ok());
        let list = self.list()?;
        // With none chosen, the resume changed last (a letter is worked on from its resume).
        let pick = chosen
            .and_then(|id| list.iter().position(|d| d.id == id))
            .or_else(|| list.iter().position(|d| d.kind == DocumentKind::Resume))
            .unwrap_or(0);
        list.into_iter().nth(pick).ok_or(StoreError::Empty)
    }

    /// Makes `document_id` the current document (the app opened it); it stays current across restarts.
    pub fn set_current(&mut self, document_id: i64) -> Result<()> {
        self.document(document_id)?;
        self.set_setting(CURRENT, &document_id.to_string())
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
                let summary = format!("Imported “{}”", redline_resume::fit_title(&title));
                let new = NewDocument {
                    only_if_empty: true,
                    ..NewDocument::RESUME
                };
                self.create(&title, &document, new, summary)?;
                self.current()
            }
            other => other,
        }
    }

    /// Gives a document a new title (cut to [`redline_resume::MAX_TITLE_CHARS`]).
    pub fn rename(&mut self, document_id: i64, title: &str) -> Result<()> {
        self.change_document(
            document_id,
            "UPDATE documents SET title = ?2, updated_at = ?3 WHERE id = ?1 AND deleted_at IS NULL",
            params![document_id, redline_resume::fit_title(title), now_ms()],
        )
    }

    /// Deletes a document softly: it leaves the list, keeps everything, and can be restored.
    pub fn delete(&mut self, document_id: i64) -> Result<()> {
        self.change_document(
            document_id,
            "UPDATE documents SET deleted_at = ?2 WHERE id = ?1 AND deleted_at IS NULL",
            params![document_id, now_ms()],
        )
    }

    /// Brings a deleted document back.
    pub fn undelete(&mut self, document_id: i64) -> Result<()> {
        self.change_document(
            document_id,
            "UPDATE documents SET deleted_at = NULL, updated_at = ?2 WHERE id = ?1 AND deleted_at IS NOT NULL",
            params![document_id, now_ms()],
        )
    }

    fn change_document(
        &mut self,
        document_id: i64,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<()> {
        match self.conn.execute(sql, params)? {
            0 => Err(StoreError::NoDocument(document_id)),
            _ => Ok(()),
        }
    }

    /// Everything the store holds about one document, as one JSON value: the document's record, its
    /// content at the head, every revision with its patches, its chat and the audit of its model calls.
    pub fn export_document(&self, document_id: i64) -> Result<Value> {
        let record = self.document(document_id)?;
        let head = self.checkout(document_id, record.head_revision)?.document;
        let revisions = self.revisions_with_patches(document_id)?;
        Ok(json!({
            "format": "redline-document-export",
            "version": 1,
            "document": record,
            "head": head,
            "revisions": revisions,
            "chat": self.messages(document_id)?,
            "modelCalls": self.model_calls(document_id)?,
        }))
    }
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
    fn the_document_opened_last_stays_current_across_restarts_until_it_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let ada = store.import("Ada", &resume("Ada")).unwrap();
        let grace = store.import("Grace", &resume("Grace")).unwrap();
        assert_eq!(
            store.current().unwrap().id,
            grace,
            "a new document is current"
        );
        store.set_current(ada).unwrap();
        drop(store);
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(store.current().unwrap().id, ada);
        // Deleted, it is not current: the one changed last is.
        store.delete(ada).unwrap();
        assert_eq!(store.current().unwrap().id, grace);
        assert!(matches!(
            store.set_current(ada),
            Err(StoreError::NoDocument(_))
        ));
    }

    #[test]
    fn a_letter_belongs_to_its_resume_and_its_variant_is_a_letter_too() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let ada = store.import("Ada", &resume("Ada")).unwrap();
        let letter = store
            .create_letter(ada, "To Initech", &json!({"paragraphs": ["Hello."]}))
            .unwrap();
        assert_eq!(
            store.current().unwrap().id,
            ada,
            "a letter is not made current"
        );
        let copy = store
            .create_variant(letter, 1, "To Initech, shorter")
            .unwrap();
        let copy = store.document(copy).unwrap();
        assert_eq!(
            (copy.kind, copy.resume_id),
            (DocumentKind::Letter, Some(ada))
        );
        assert_eq!(
            store.head(copy.id).unwrap().document["paragraphs"][0],
            "Hello."
        );
        assert!(matches!(
            store.create_letter(letter, "x", &json!({})),
            Err(StoreError::NotAResume(id)) if id == letter
        ));
        assert!(matches!(
            store.create_letter(99, "x", &json!({})),
            Err(StoreError::NoDocument(99))
        ));
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
    fn documents_are_renamed_deleted_softly_and_restored() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let id = store.import("Ada", &resume("Ada")).unwrap();
        store.rename(id, "Ada — backend").unwrap();
        assert_eq!(store.document(id).unwrap().title, "Ada — backend");

        store.delete(id).unwrap();
        assert!(store.list().unwrap().is_empty());
        assert!(matches!(store.head(id), Err(StoreError::NoDocument(_))));
        assert!(matches!(store.delete(id), Err(StoreError::NoDocument(_))));
        let deleted = store.list_deleted().unwrap();
        assert_eq!(deleted.len(), 1);
        assert!(deleted[0].deleted_at.is_some());

        store.undelete(id).unwrap();
        assert_eq!(store.head(id).unwrap().document, resume("Ada"));
        assert!(store.list_deleted().unwrap().is_empty());
        assert!(matches!(store.undelete(id), Err(StoreError::NoDocument(_))));
        assert!(matches!(
            store.rename(42, "x"),
            Err(StoreError::NoDocument(42))
        ));
    }

    #[test]
    fn an_export_holds_everything_of_the_document() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let id = store.import("Ada", &resume("Ada")).unwrap();
        let said = store
            .add_message(id, crate::Role::User, "rename me")
            .unwrap();
        store
            .commit(
                id,
                crate::Change::new(
                    1,
                    Source::Ai,
                    serde_json::from_value(json!([
                        {"op": "replace", "path": "/basics/name", "value": "Ada L."}
                    ]))
                    .unwrap(),
                )
                .summary("Renamed")
                .chat_message(said),
            )
            .unwrap();
        let export = store.export_document(id).unwrap();
        assert_eq!(export["head"]["basics"]["name"], "Ada L.");
        assert_eq!(export["document"]["title"], "Ada");
        assert_eq!(export["revisions"].as_array().unwrap().len(), 2);
        assert_eq!(export["revisions"][1]["summary"], "Renamed");
        assert_eq!(export["revisions"][1]["chatMessageId"], said);
        assert_eq!(export["revisions"][1]["forward"][0]["path"], "/basics/name");
        assert_eq!(export["chat"][0]["content"], "rename me");
    }
}
