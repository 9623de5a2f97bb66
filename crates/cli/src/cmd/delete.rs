//! `redline delete ID` and `undelete ID`: a resume leaves the list, softly, and comes back.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::print_json;

/// `redline delete`.
pub fn delete(store: &mut Store, id: i64, json: bool, out: &mut impl Write) -> Result<()> {
    store.delete(id)?;
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

/// `redline undelete`.
pub fn undelete(store: &mut Store, id: i64, json: bool, out: &mut impl Write) -> Result<()> {
    store.undelete(id)?;
    if json {
        print_json(&mut *out, &json!({"id": id, "deleted": false}))?;
    } else {
        writeln!(out, "Document {id} is back.")?;
    }
    Ok(())
}
