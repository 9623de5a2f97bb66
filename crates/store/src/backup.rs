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
        crate::private_dir(&dir).map_err(|e| {
            StoreError::Backup(format!("cannot create the folder {}: {e}", dir.display()))
        })?;
        let path = dir.join(format!("{PREFIX}{}{SUFFIX}", stamp(now_ms())));
        self.backup_into(&path)?;
        let keep = self
            .setting(BACKUP_KEEP)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_KEEP)
            .max(1);
        let all: Vec<(PathBuf, u64)> = list(&self.path)
            .into_iter()
            .map(|p| {
                let bytes = std::fs::metadata(&p).map_or(0, |m| m.len());
                (p, bytes)
            })
            .collect();
        for (old, _) in &all[..all.len() - kept(&all, keep)] {
            let _ = std::fs::remove_file(old);
        }
        Ok(path)
    }

    /// Writes a backup to `path` through `path.partial`, which never outlives a failure.
    fn backup_into(&self, path: &Path) -> Result<()> {
        let partial = path.with_extension("db.partial");
        let written = self
            .conn
            .backup(
                rusqlite::MAIN_DB,
                &partial,
                None::<fn(rusqlite::backup::Progress)>,
            )
            .map_err(|e| crate::located(e.into(), &partial))
            .and_then(|()| self.check_copy(&partial))
            .and_then(|()| {
                crate::private_file(&partial).map_err(|e| {
                    StoreError::Backup(format!("cannot protect {}: {e}", partial.display()))
                })
            })
            .and_then(|()| {
                std::fs::rename(&partial, path).map_err(|e| {
                    StoreError::Backup(format!("cannot write {}: {e}", path.display()))
                })
            });
        if written.is_err() {
            // A half-written backup must never be taken for one.
            let _ = std::fs::remove_file(&partial);
        }
        written
    }

    /// Checks a backup's copy whole before it counts as one, so that a damaged database never pushes the
    /// good backups out: the copy has every page the database has, so damage in either shows here. The
    /// copy leaves WAL mode on the way: a backup is one file, with no log beside it.
    fn check_copy(&self, copy: &Path) -> Result<()> {
        let found: Vec<String> =
            Connection::open_with_flags(copy, OpenFlags::SQLITE_OPEN_READ_WRITE)
                .and_then(|c| {
                    c.pragma_update_and_check(None, "journal_mode", "DELETE", |_| Ok(()))?;
                    c.prepare("PRAGMA integrity_check")?
                        .query_map([], |row| row.get(0))?
                        .collect()
                })
                .map_err(|e| crate::located(e.into(), copy))?;
        if found.iter().all(|line| line == "ok") {
            return Ok(());
        }
        Err(StoreError::Corrupt {
            path: self.path.clone(),
            detail: found.join("; "),
            backup: latest(&self.path),
        })
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

/// Backups take at most this many times the newest one's size, or [`BACKUP_FLOOR_BYTES`] if that is more:
/// a store grown large over the years keeps fewer days of backups, not seven copies of its history.
pub const BACKUP_BUDGET_COPIES: u64 = 2;
/// See [`BACKUP_BUDGET_COPIES`].
pub const BACKUP_FLOOR_BYTES: u64 = 64 * 1024 * 1024;

/// How many of `backups` (oldest first, with their sizes) to keep, newest first: at most `keep`, within
/// the byte budget, and always the newest.
fn kept(backups: &[(PathBuf, u64)], keep: usize) -> usize {
    let Some((_, newest)) = backups.last() else {
        return 0;
    };
    let budget = (newest * BACKUP_BUDGET_COPIES).max(BACKUP_FLOOR_BYTES);
    let mut total = 0;
    let mut count = 0;
    for (_, bytes) in backups.iter().rev() {
        total += bytes;
        if count > 0 && (count == keep || total > budget) {
            break;
        }
        count += 1;
    }
    count
}

/// Sets the damaged database in `data_dir` aside and puts its latest backup in its place.
///
/// A database that opens and passes its integrity check is refused unless `force`: recovery is for damage.
/// The database's lock file is taken exclusively first, and a healthy database SQLite's exclusive lock, so
/// another Redline that has it open (even one whose file was damaged under it) makes this stop with
/// [`StoreError::Busy`] before anything moves. The order of the steps keeps a database that opens
/// at every moment an interruption could come: the backup is copied beside the database and synced; the
/// damaged file is kept under a new name by a hard link (a copy where links are not possible); its WAL
/// and SHM files are set aside, so that SQLite can never replay a damaged log onto the backup; and one
/// rename puts the backup in place, replacing the damaged file atomically.
pub fn recover(data_dir: &Path, force: bool) -> Result<Recovery> {
    let database = data_dir.join(DATABASE_FILE);
    // No Redline may have the database open, damaged or not: every open store holds the lock file shared.
    let recovering = crate::lock_file(&database, true)?;
    let lock = lock(&database, force)?;
    if lock.is_some() && !force {
        return Err(StoreError::Backup(format!(
            "the database {} is healthy (it opens and passes its integrity check); nothing was changed. \
             To replace it with the latest backup anyway, run `redline recover --force`",
            database.display()
        )));
    }
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
    let fail = |what: &str, file: &Path, e: std::io::Error| {
        StoreError::Backup(format!("cannot {what} {}: {e}", file.display()))
    };
    let incoming = data_dir.join(format!("{DATABASE_FILE}.recovering"));
    std::fs::copy(&backup, &incoming).map_err(|e| fail("copy", &backup, e))?;
    std::fs::File::open(&incoming)
        .and_then(|f| f.sync_all())
        .and_then(|()| crate::private_file(&incoming))
        .map_err(|e| fail("write", &incoming, e))?;
    let when = stamp(now_ms());
    let mut set_aside = Vec::new();
    if database.exists() {
        let aside = data_dir.join(format!("{DATABASE_FILE}.damaged-{when}"));
        std::fs::hard_link(&database, &aside)
            .or_else(|_| std::fs::copy(&database, &aside).map(|_| ()))
            .map_err(|e| fail("keep a copy of", &database, e))?;
        set_aside.push(aside);
    }
    for suffix in ["-wal", "-shm"] {
        let file = data_dir.join(format!("{DATABASE_FILE}{suffix}"));
        if file.exists() {
            let aside = data_dir.join(format!("{DATABASE_FILE}{suffix}.damaged-{when}"));
            std::fs::rename(&file, &aside).map_err(|e| fail("set aside", &file, e))?;
            set_aside.push(aside);
        }
    }
    std::fs::rename(&incoming, &database)
        .map_err(|e| fail("put the backup in place of", &database, e))?;
    drop(lock);
    drop(recovering);
    Store::open(data_dir)?;
    Ok(Recovery { backup, set_aside })
}

/// Takes SQLite's exclusive lock (when `take`) on a database that opens, after moving everything in its WAL into the
/// file (so that a copy of the file alone is complete). `None` when the file is missing or damaged: SQLite
/// cannot lock what it cannot read, and no other Redline can be using it either. [`StoreError::Busy`] when
/// another connection holds it.
fn lock(database: &Path, take: bool) -> Result<Option<Connection>> {
    if !database.exists() {
        return Ok(None);
    }
    let Ok(conn) = Connection::open_with_flags(database, OpenFlags::SQLITE_OPEN_READ_WRITE) else {
        return Ok(None);
    };
    let busy = || StoreError::Busy {
        path: database.to_owned(),
    };
    let healthy = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
        .map_err(|e| crate::located(e.into(), database));
    match healthy {
        Ok(verdict) if verdict == "ok" => {}
        Err(StoreError::Busy { .. }) => return Err(busy()),
        _ => return Ok(None),
    }
    if !take {
        // Healthy, and recovery will refuse it: leave it exactly as it is.
        return Ok(Some(conn));
    }
    // Leaving WAL mode needs every other connection closed: it fails with SQLITE_BUSY otherwise. Once
    // out of it, the exclusive locking mode holds the file until this connection closes.
    let locked = conn
        .pragma_update(None, "locking_mode", "EXCLUSIVE")
        .and_then(|()| conn.query_row("PRAGMA journal_mode=DELETE", [], |r| r.get::<_, String>(0)))
        .and_then(|mode| {
            conn.execute_batch("BEGIN EXCLUSIVE; COMMIT;")?;
            Ok(mode)
        });
    match locked {
        Ok(mode) if mode.eq_ignore_ascii_case("delete") => Ok(Some(conn)),
        Ok(_) => Err(busy()),
        Err(e) => match crate::located(e.into(), database) {
            StoreError::Busy { .. } => Err(busy()),
            other => Err(other),
        },
    }
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

    /// A store in a folder of its own, with one document ("Ada").
    fn store_with_ada() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        store
            .import("Ada", &json!({"basics": {"name": "A"}}))
            .unwrap();
        (dir, store)
    }

    /// Writes garbage over the database in `dir`: its path, and the garbage.
    fn overwrite_the_database(dir: &Path) -> (PathBuf, Vec<u8>) {
        let database = dir.join(DATABASE_FILE);
        let garbage = b"not a database".repeat(500);
        std::fs::write(&database, &garbage).unwrap();
        (database, garbage)
    }

    #[test]
    fn stamps_are_utc_dates() {
        assert_eq!(stamp(0), "19700101-000000000");
        assert_eq!(stamp(1_795_324_502_123), "20261122-051502123");
        assert_eq!(stamp(951_782_400_000), "20000229-000000000");
    }

    #[test]
    fn backups_are_kept_to_the_setting_and_only_when_due() {
        let (dir, mut store) = store_with_ada();
        store.set_setting(BACKUP_KEEP, "2").unwrap();
        let first = store.backup_if_due().unwrap().expect("no backup yet: due");
        assert!(store.backup_if_due().unwrap().is_none(), "not due again");
        for _ in 0..3 {
            std::thread::sleep(std::time::Duration::from_millis(2));
            store.backup_now().unwrap();
        }
        let kept = list(store.path());
        assert_eq!(kept.len(), 2);
        // Nothing else is left in the folder (the check of each copy leaves no log of its own).
        let files = std::fs::read_dir(dir.path().join(BACKUP_DIR))
            .unwrap()
            .count();
        assert_eq!(files, 2);
        assert!(!kept.contains(&first));
        // A backup is a database of its own with the same content.
        let copy = Store::open_file(kept.last().unwrap()).unwrap();
        assert_eq!(copy.current().unwrap().title, "Ada");
        store.set_setting(BACKUP_EVERY_HOURS, "0").unwrap();
        assert!(store.backup_if_due().unwrap().is_some());
    }

    /// A database damaged where opening does not look (an index that no longer matches its table) makes
    /// no backup: the copy is checked whole first, and the good backups stay.
    #[test]
    fn a_damaged_database_makes_no_backup_and_the_good_ones_stay() {
        let (dir, mut store) = store_with_ada();
        store.set_setting(BACKUP_KEEP, "1").unwrap();
        let good = store.backup_now().unwrap();
        crate::damage_an_index(&mut store);
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let err = store.backup_now().unwrap_err();
        assert!(
            matches!(&err, StoreError::Corrupt { detail, .. } if detail.contains("model_calls_by_time")),
            "{err}"
        );
        assert!(err.to_string().contains("redline recover"), "{err}");
        assert_eq!(list(store.path()), [good], "the good backup stays, alone");
    }

    /// Seven backups of a small store; of a large one, as many as fit twice its size, and never none.
    #[test]
    fn backups_are_kept_to_a_byte_budget() {
        const MB: u64 = 1024 * 1024;
        let of = |sizes: &[u64]| -> Vec<(PathBuf, u64)> {
            sizes.iter().map(|&b| (PathBuf::new(), b * MB)).collect()
        };
        assert_eq!(kept(&of(&[1; 10]), 7), 7);
        assert_eq!(kept(&of(&[30; 10]), 7), 2, "64 MB holds two of 30 MB");
        assert_eq!(kept(&of(&[100; 10]), 7), 2, "twice the newest");
        assert_eq!(
            kept(&of(&[300, 300, 100]), 7),
            1,
            "an older, larger one does not fit"
        );
        assert_eq!(kept(&of(&[500]), 7), 1, "the newest always stays");
        assert_eq!(kept(&of(&[1; 10]), 1), 1);
        assert_eq!(kept(&[], 7), 0);
    }

    #[test]
    fn a_damaged_database_is_set_aside_and_the_latest_backup_opened() {
        let dir = {
            let (dir, store) = store_with_ada();
            store.backup_now().unwrap();
            dir
        };
        let (_, garbage) = overwrite_the_database(dir.path());
        let err = Store::open(dir.path()).err().unwrap();
        assert!(err.to_string().contains("redline recover"), "{err}");

        let recovery = recover(dir.path(), false).unwrap();
        assert_eq!(std::fs::read(&recovery.set_aside[0]).unwrap(), garbage);
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.current().unwrap().title, "Ada");
    }

    /// A database damaged under a Redline that has it open is not replaced under it: SQLite's own lock
    /// cannot be asked of a damaged file, the lock file can.
    #[test]
    fn a_database_damaged_while_open_is_not_recovered_under_its_user() {
        let (dir, store) = store_with_ada();
        store.backup_now().unwrap();
        let (database, garbage) = overwrite_the_database(dir.path());
        let err = recover(dir.path(), false).unwrap_err();
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
        assert_eq!(std::fs::read(&database).unwrap(), garbage, "left alone");
        // Closed (its last checkpoint may have written over the damage: forced, either way).
        drop(store);
        recover(dir.path(), true).unwrap();
        assert_eq!(
            Store::open(dir.path()).unwrap().current().unwrap().title,
            "Ada"
        );
        // And while a recovery holds the lock, no store opens.
        let _recovering = crate::lock_file(&database, true).unwrap();
        let err = Store::open(dir.path()).err().expect("recovery under way");
        assert!(matches!(err, StoreError::Busy { .. }), "{err}");
    }

    #[test]
    fn a_failed_backup_leaves_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        // The backup's name is taken by a folder with something in it: the final rename fails.
        let taken = dir.path().join("taken.db");
        std::fs::create_dir_all(taken.join("inside")).unwrap();
        assert!(store.backup_into(&taken).is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".partial"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_healthy_database_is_not_recovered_unless_forced() {
        let (dir, mut store) = store_with_ada();
        store.backup_now().unwrap();
        store
            .import("Grace", &json!({"basics": {"name": "G"}}))
            .unwrap();
        // Refused while another Redline has it open, forced or not; and while it is healthy.
        for force in [false, true] {
            let err = recover(dir.path(), force).unwrap_err();
            assert!(matches!(err, StoreError::Busy { .. }), "{err}");
        }
        assert_eq!(store.list().unwrap().len(), 2, "nothing changed");
        drop(store);
        let err = recover(dir.path(), false).unwrap_err();
        assert!(err.to_string().contains("is healthy"), "{err}");
        // Forced, with nothing else holding it: the backup is in place, the old file is kept whole.
        let recovery = recover(dir.path(), true).unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.list().unwrap().len(), 1);
        let kept = Store::open_file(&recovery.set_aside[0]).unwrap();
        assert_eq!(
            kept.list().unwrap().len(),
            2,
            "the replaced database is complete"
        );
        assert!(!dir.path().join("redline.db.recovering").exists());
    }

    #[test]
    fn recovery_without_a_backup_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(DATABASE_FILE), b"junk").unwrap();
        let err = recover(dir.path(), false).unwrap_err();
        assert!(err.to_string().contains("there is no backup"), "{err}");
        assert_eq!(
            std::fs::read(dir.path().join(DATABASE_FILE)).unwrap(),
            b"junk"
        );
    }
}
