//! Automatic backups with SQLite's backup API, kept in `backups/` beside the database, and recovery from
//! the latest one when the database is damaged.
//!
//! A backup is written under a temporary name and renamed when complete, so a crash never leaves a
//! half-written file that looks like a backup. Recovery never deletes the damaged database: it is set
//! aside under a name that says when, and the backup is copied into its place.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::{DATABASE_FILE, Result, Store, StoreError, now_ms};

/// The folder beside the database that holds its backups.
pub const BACKUP_DIR: &str = "backups";
/// The setting: hours between automatic backups (default 24).
pub const BACKUP_EVERY_HOURS: &str = "backup_every_hours";
/// The setting: how many backups to keep (default 7).
pub const BACKUP_KEEP: &str = "backup_keep";
const DEFAULT_EVERY_HOURS: i64 = 24;
const DEFAULT_KEEP: usize = 7;
const PREFIX: &str = "redline-";
const SUFFIX: &str = ".db";

/// What recovery did.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovery {
    /// The backup now in use.
    pub backup: PathBuf,
    /// Where the damaged files were set aside (the database and its WAL, where they existed).
    pub set_aside: Vec<PathBuf>,
}

fn backup_dir(database: &Path) -> PathBuf {
    database
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(BACKUP_DIR)
}

/// The backups of the database at `database`, oldest first.
pub fn list(database: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(backup_dir(database)) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
        })
        .collect();
    found.sort();
    found
}

/// The newest backup of the database at `database`.
pub fn latest(database: &Path) -> Option<PathBuf> {
    list(database).pop()
}

impl Store {
    /// Writes a backup now and keeps only the newest `backup_keep` of them; returns its path.
    pub fn backup_now(&self) -> Result<PathBuf> {
        let dir = backup_dir(&self.path);
        std::fs::create_dir_all(&dir).map_err(|e| {
            StoreError::Backup(format!("cannot create the folder {}: {e}", dir.display()))
        })?;
        let path = dir.join(format!("{PREFIX}{}{SUFFIX}", stamp(now_ms())));
        let partial = path.with_extension("db.partial");
        self.conn.backup(
            rusqlite::MAIN_DB,
            &partial,
            None::<fn(rusqlite::backup::Progress)>,
        )?;
        std::fs::rename(&partial, &path)
            .map_err(|e| StoreError::Backup(format!("cannot write {}: {e}", path.display())))?;
        let keep = self
            .setting(BACKUP_KEEP)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_KEEP)
            .max(1);
        let all = list(&self.path);
        for old in &all[..all.len().saturating_sub(keep)] {
            let _ = std::fs::remove_file(old);
        }
        Ok(path)
    }

    /// Writes a backup if the newest is older than `backup_every_hours` (or there is none).
    pub fn backup_if_due(&self) -> Result<Option<PathBuf>> {
        let hours = self
            .setting(BACKUP_EVERY_HOURS)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_EVERY_HOURS);
        let due = match latest(&self.path).and_then(|p| std::fs::metadata(p).ok()?.modified().ok())
        {
            Some(modified) => modified
                .elapsed()
                .is_ok_and(|age| age.as_secs() >= hours.max(0) as u64 * 3600),
            None => true,
        };
        due.then(|| self.backup_now()).transpose()
    }
}

/// Sets the damaged database in `data_dir` aside and puts its latest backup in its place.
pub fn recover(data_dir: &Path) -> Result<Recovery> {
    let database = data_dir.join(DATABASE_FILE);
    let backup = latest(&database).ok_or_else(|| {
        StoreError::Backup(format!(
            "there is no backup in {}",
            backup_dir(&database).display()
        ))
    })?;
    // The backup itself must be sound before anything is moved.
    let verdict: String = Connection::open_with_flags(&backup, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|c| c.query_row("PRAGMA integrity_check", [], |r| r.get(0)))
        .map_err(|e| {
            StoreError::Backup(format!(
                "the backup {} cannot be read: {e}",
                backup.display()
            ))
        })?;
    if verdict != "ok" {
        return Err(StoreError::Backup(format!(
            "the backup {} is damaged too ({verdict})",
            backup.display()
        )));
    }
    let when = stamp(now_ms());
    let mut set_aside = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        let file = data_dir.join(format!("{DATABASE_FILE}{suffix}"));
        if file.exists() {
            let aside = data_dir.join(format!("{DATABASE_FILE}{suffix}.damaged-{when}"));
            std::fs::rename(&file, &aside).map_err(|e| {
                StoreError::Backup(format!("cannot set {} aside: {e}", file.display()))
            })?;
            set_aside.push(aside);
        }
    }
    std::fs::copy(&backup, &database).map_err(|e| {
        StoreError::Backup(format!("cannot copy {} into place: {e}", backup.display()))
    })?;
    Store::open(data_dir)?;
    Ok(Recovery { backup, set_aside })
}

/// `20261122-061502123` (UTC, to the millisecond): sorts by time as text.
fn stamp(ms: i64) -> String {
    let t = crate::Utc::from_ms(ms);
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}{:03}",
        t.year, t.month, t.day, t.hour, t.minute, t.second, t.milli
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stamps_are_utc_dates() {
        assert_eq!(stamp(0), "19700101-000000000");
        assert_eq!(stamp(1_795_324_502_123), "20261122-051502123");
        assert_eq!(stamp(951_782_400_000), "20000229-000000000");
    }

    #[test]
    fn backups_are_kept_to_the_setting_and_only_when_due() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        store
            .import("Ada", &json!({"basics": {"name": "A"}}))
            .unwrap();
        store.set_setting(BACKUP_KEEP, "2").unwrap();
        let first = store.backup_if_due().unwrap().expect("no backup yet: due");
        assert!(store.backup_if_due().unwrap().is_none(), "not due again");
        for _ in 0..3 {
            std::thread::sleep(std::time::Duration::from_millis(2));
            store.backup_now().unwrap();
        }
        let kept = list(store.path());
        assert_eq!(kept.len(), 2);
        assert!(!kept.contains(&first));
        // A backup is a database of its own with the same content.
        let copy = Store::open_file(kept.last().unwrap()).unwrap();
        assert_eq!(copy.current().unwrap().title, "Ada");
        store.set_setting(BACKUP_EVERY_HOURS, "0").unwrap();
        assert!(store.backup_if_due().unwrap().is_some());
    }

    #[test]
    fn a_damaged_database_is_set_aside_and_the_latest_backup_opened() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut store = Store::open(dir.path()).unwrap();
            store
                .import("Ada", &json!({"basics": {"name": "A"}}))
                .unwrap();
            store.backup_now().unwrap();
        }
        let database = dir.path().join(DATABASE_FILE);
        let garbage = b"not a database".repeat(500);
        std::fs::write(&database, &garbage).unwrap();
        let err = Store::open(dir.path()).err().unwrap();
        assert!(err.to_string().contains("redline recover"), "{err}");

        let recovery = recover(dir.path()).unwrap();
        assert_eq!(std::fs::read(&recovery.set_aside[0]).unwrap(), garbage);
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.current().unwrap().title, "Ada");
    }

    #[test]
    fn recovery_without_a_backup_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(DATABASE_FILE), b"junk").unwrap();
        let err = recover(dir.path()).unwrap_err();
        assert!(err.to_string().contains("there is no backup"), "{err}");
        assert_eq!(
            std::fs::read(dir.path().join(DATABASE_FILE)).unwrap(),
            b"junk"
        );
    }
}
