//! `redline backup`: a backup of the database now.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::print_json;

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

/// `redline recover`: a damaged database set aside, its latest backup opened.
pub fn recover(data_dir: &Path, force: bool, out: &mut impl Write) -> Result<()> {
    let recovery = redline_store::backup::recover(data_dir, force)?;
    writeln!(out, "Opened the backup {}.", recovery.backup.display())?;
    for aside in &recovery.set_aside {
        writeln!(out, "The damaged file is kept as {}.", aside.display())?;
    }
    Ok(())
}
