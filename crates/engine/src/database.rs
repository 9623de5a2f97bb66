//! The database itself: a backup now, the whole file checked, and the latest backup put in place of a
//! damaged database (which cannot be opened, so [`recover`] works on the data folder, with no engine).

use std::path::{Path, PathBuf};

pub use redline_store::backup::Recovery;

use super::Engine;
use crate::error::Error;

/// What a check of the whole database found: where it is, and each problem in words (none: sound).
#[derive(Debug, Clone)]
pub struct Checked {
    pub path: PathBuf,
    pub found: Vec<String>,
}

impl Engine {
    /// Writes a backup of the database now (into `backups/` in the data folder); where it went.
    pub async fn backup(&self) -> Result<PathBuf, Error> {
        let open = self.open()?.lock().await;
        Ok(open.store.backup_now()?)
    }

    /// Checks the whole database: every page, every index against its table, every reference.
    pub async fn check(&self) -> Result<Checked, Error> {
        let mut open = self.open()?.lock().await;
        let found = open.store.check()?;
        Ok(Checked {
            path: open.store.path().to_owned(),
            found,
        })
    }
}

/// Sets the damaged database in `data_dir` aside and opens its latest backup instead; a healthy database
/// is left alone unless `force`. No Redline may have it open.
pub fn recover(data_dir: &Path, force: bool) -> Result<Recovery, Error> {
    Ok(redline_store::backup::recover(data_dir, force)?)
}
