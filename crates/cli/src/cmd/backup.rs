//! `redline backup`: a backup of the database now; `redline check`: the whole database checked;
//! `redline recover`: the latest backup in place of a damaged database.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::print_json;
use crate::{Exit, fail};

/// `redline backup`.
pub fn run(store: &mut Store, json: bool, out: &mut impl Write) -> Result<()> {
    let path = store.backup_now()?;
    if json {
        print_json(&mut *out, &json!({"path": path.display().to_string()}))?;
    } else {
        writeln!(out, "Backed up to {}", path.display())?;
    }
    Ok(())
}

/// `redline check`.
pub fn check(store: &mut Store, json: bool, out: &mut impl Write) -> Result<()> {
    let found = store.check()?;
    let path = store.path().display().to_string();
    if json {
        print_json(
            &mut *out,
            &json!({"path": path, "sound": found.is_empty(), "found": found}),
        )?;
    } else if found.is_empty() {
        writeln!(out, "The database {path} is sound.")?;
    }
    if found.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = found.iter().take(10).map(|f| super::plain(f)).collect();
    Err(fail(
        Exit::Failed,
        format!(
            "the database {path} is damaged: {}{}. `redline backup` can still copy what reads; `redline recover` opens the latest backup instead",
            shown.join("; "),
            if found.len() > shown.len() {
                format!(" (and {} more)", found.len() - shown.len())
            } else {
                String::new()
            }
        ),
    ))
}

/// `redline recover`: a damaged database set aside, its latest backup opened.
pub fn recover(data_dir: &Path, force: bool, out: &mut impl Write) -> Result<()> {
    let recovery = redline_store::backup::recover(data_dir, force)?;
    writeln!(out, "Opened the backup {}.", recovery.backup.display())?;
    for aside in &recovery.set_aside {
        writeln!(out, "The damaged file is kept as {}.", aside.display())?;
    }
    Ok(())
}
