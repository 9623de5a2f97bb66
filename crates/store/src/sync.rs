//! What this device keeps of the sync between its runs: every event it accepted (its own and those read
//! from the folder, as their bytes), which local document each synced one is, up to which revision this
//! device's own changes went out, and the folder's files already read (a sync reads only new ones).
//!
//! The bytes are kept as the folder had them: they are checked again when read back (a database restored
//! from a backup is no more trusted than the folder).

use rusqlite::{OptionalExtension, params};

use crate::{Result, Store};

/// One accepted event, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncEvent {
    /// The SHA-256 of its bytes (its file's name).
    pub hash: String,
    /// The device that made it.
    pub device: String,
    /// That device's sequence number.
    pub seq: u64,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// A local document that is synced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncedDocument {
    /// Its sync id, the same on every device.
    pub sync_id: String,
    /// Its id in this database.
    pub document_id: i64,
    /// The last local revision that is in the synced history (this device's own, sent, or another
    /// device's, brought in).
    pub synced_revision: u64,
}

/// A local job application that is synced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncedApplication {
    /// Its sync id, the same on every device.
    pub sync_id: String,
    /// Its id in this database.
    pub application_id: i64,
    /// The last of its stage changes (their row id) that sync has accounted for.
    pub synced_stage: i64,
}

impl Store {
    /// Every synced application.
    pub fn synced_applications(&self) -> Result<Vec<SyncedApplication>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT sync_id, application_id, synced_stage FROM sync_applications ORDER BY application_id",
        )?;
        let rows = stmt.query_map([], |row| {
            Ok(SyncedApplication {
                sync_id: row.get(0)?,
                application_id: row.get(1)?,
                synced_stage: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records that `application` is synced, or how far its synced stage changes now go.
    pub fn set_synced_application(&mut self, application: &SyncedApplication) -> Result<()> {
        self.conn.execute(
            "INSERT INTO sync_applications (sync_id, application_id, synced_stage) VALUES (?1, ?2, ?3)
             ON CONFLICT (sync_id) DO UPDATE SET synced_stage = excluded.synced_stage",
            params![
                application.sync_id,
                application.application_id,
                application.synced_stage
            ],
        )?;
        Ok(())
    }

    /// Every event kept, oldest first.
    pub fn sync_events(&self) -> Result<Vec<SyncEvent>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT hash, device, seq, bytes FROM sync_events ORDER BY rowid")?;
        let rows = stmt.query_map([], |row| {
            Ok(SyncEvent {
                hash: row.get(0)?,
                device: row.get(1)?,
                seq: row.get(2)?,
                bytes: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Keeps `events` (one already kept is left as it is), and marks `files` read, in one transaction.
    pub fn keep_sync_events(&mut self, events: &[SyncEvent], files: &[String]) -> Result<()> {
        if events.is_empty() && files.is_empty() {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        {
            let mut add = tx.prepare_cached(
                "INSERT INTO sync_events (hash, device, seq, bytes) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (hash) DO NOTHING",
            )?;
            for e in events {
                add.execute(params![e.hash, e.device, e.seq, e.bytes])?;
            }
            let mut read =
                tx.prepare_cached("INSERT OR IGNORE INTO sync_files_read (file) VALUES (?1)")?;
            for file in files {
                read.execute([file])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The folder's files already read.
    pub fn sync_files_read(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT file FROM sync_files_read")?;
        let rows = stmt.query_map([], |row| row.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Where the kept events stand: the last one's row. Events are only ever added, so two equal marks
    /// mean the same events (a replica built from them is still current). One look at the table's last
    /// page: counting the events would read them all.
    pub fn sync_events_mark(&self) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT coalesce(max(rowid), 0) FROM sync_events",
            [],
            |row| row.get(0),
        )?)
    }

    /// Forgets which files were read (another folder was chosen: its files are all new).
    pub fn forget_sync_files(&mut self) -> Result<()> {
        self.conn.execute("DELETE FROM sync_files_read", [])?;
        Ok(())
    }

    /// Every synced document.
    pub fn synced_documents(&self) -> Result<Vec<SyncedDocument>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT sync_id, document_id, synced_revision FROM sync_documents ORDER BY document_id",
        )?;
        let rows = stmt.query_map([], |row| {
            Ok(SyncedDocument {
                sync_id: row.get(0)?,
                document_id: row.get(1)?,
                synced_revision: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The synced document with sync id `sync_id`, if it is here.
    pub fn synced_document(&self, sync_id: &str) -> Result<Option<SyncedDocument>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT sync_id, document_id, synced_revision FROM sync_documents WHERE sync_id = ?1",
            )?
            .query_row([sync_id], |row| {
                Ok(SyncedDocument {
                    sync_id: row.get(0)?,
                    document_id: row.get(1)?,
                    synced_revision: row.get(2)?,
                })
            })
            .optional()?)
    }

    /// Records that `document` is synced, or how far its synced history now goes.
    pub fn set_synced(&mut self, document: &SyncedDocument) -> Result<()> {
        self.conn.execute(
            "INSERT INTO sync_documents (sync_id, document_id, synced_revision) VALUES (?1, ?2, ?3)
             ON CONFLICT (sync_id) DO UPDATE SET synced_revision = excluded.synced_revision",
            params![
                document.sync_id,
                document.document_id,
                document.synced_revision
            ],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(hash: &str, seq: u64) -> SyncEvent {
        SyncEvent {
            hash: hash.to_owned(),
            device: "d".to_owned(),
            seq,
            bytes: format!("{{\"seq\":{seq}}}").into_bytes(),
        }
    }

    #[test]
    fn events_files_and_documents_are_kept_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        store
            .keep_sync_events(&[event("a", 1), event("b", 2)], &["d/a.json".to_owned()])
            .unwrap();
        store
            .keep_sync_events(&[event("a", 1)], &["d/a.json".to_owned()])
            .unwrap();
        let kept = store.sync_events().unwrap();
        assert_eq!(kept, [event("a", 1), event("b", 2)]);
        assert_eq!(store.sync_files_read().unwrap(), ["d/a.json"]);
        store.forget_sync_files().unwrap();
        assert!(store.sync_files_read().unwrap().is_empty());

        let id = store
            .import("R", &serde_json::json!({"basics": {}}))
            .unwrap();
        let mut doc = SyncedDocument {
            sync_id: "s".to_owned(),
            document_id: id,
            synced_revision: 1,
        };
        store.set_synced(&doc).unwrap();
        doc.synced_revision = 3;
        store.set_synced(&doc).unwrap();
        assert_eq!(store.synced_documents().unwrap(), [doc.clone()]);
        assert_eq!(store.synced_document("s").unwrap(), Some(doc));
        assert_eq!(store.synced_document("t").unwrap(), None);
    }

    #[test]
    fn two_events_cannot_claim_one_place_in_a_device_history() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        store.keep_sync_events(&[event("a", 1)], &[]).unwrap();
        let err = store.keep_sync_events(&[event("b", 1)], &[]);
        assert!(err.is_err(), "a second event 1 of device d is refused");
        assert_eq!(store.sync_events().unwrap().len(), 1, "nothing of it kept");
    }
}
