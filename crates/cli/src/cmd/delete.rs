//! `redline delete ID` and `redline undelete ID`: a resume deleted softly, and brought back.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::{on_engine, print_json};

pub fn delete(data_dir: &Path, id: i64, json: bool, out: &mut impl Write) -> Result<()> {
    on_engine(data_dir, async |engine| engine.delete_only(id).await)?;
    if json {
        print_json(&mut *out, &json!({"id": id, "deleted": true}))?;
    } else {
        writeln!(
            out,
            "Deleted document {id}; `redline undelete {id}` brings it back."
        )?;
    }
    Ok(())
}

pub fn undelete(data_dir: &Path, id: i64, json: bool, out: &mut impl Write) -> Result<()> {
    on_engine(data_dir, async |engine| engine.undelete(id).await)?;
    if json {
        print_json(&mut *out, &json!({"id": id, "deleted": false}))?;
    } else {
        writeln!(out, "Document {id} is back.")?;
    }
    Ok(())
}
