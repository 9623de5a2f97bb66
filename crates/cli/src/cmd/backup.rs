//! `redline backup`: a backup of the database now; `redline check`: the whole database checked;
//! `redline recover`: the latest backup in place of a damaged database.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::{failed, on_engine, print_json};
use crate::fail;
use redline_engine::ErrorKind;

/// `redline backup`.
pub fn run(data_dir: &Path, json: bool, out: &mut impl Write) -> Result<()> {
    let path = on_engine(data_dir, async |engine| engine.backup().await)?;
    if json {
        print_json(&mut *out, &json!({"path": path.display().to_string()}))?;
    } else {
        writeln!(out, "Backed up to {}", path.display())?;
    }
    Ok(())
}

/// `redline check`: exits 1 when anything is wrong, each problem said (the first ten).
pub fn check(data_dir: &Path, json: bool, out: &mut impl Write) -> Result<()> {
    let checked = on_engine(data_dir, async |engine| engine.check().await)?;
    let (path, found) = (checked.path.display().to_string(), checked.found);
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
        ErrorKind::Internal,
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

/// `redline recover`: works on the data folder, with no engine (the database may not open).
pub fn recover(data_dir: &Path, force: bool, out: &mut impl Write) -> Result<()> {
    let recovery = redline_engine::database::recover(data_dir, force).map_err(failed)?;
    writeln!(out, "Opened the backup {}.", recovery.backup.display())?;
    for aside in &recovery.set_aside {
        writeln!(out, "The damaged file is kept as {}.", aside.display())?;
    }
    Ok(())
}
