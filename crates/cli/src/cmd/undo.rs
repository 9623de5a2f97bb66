//! `redline undo`, `redo` and `restore N`: new revisions that take a change back, apply it again, or bring
//! an old revision back; nothing is lost.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;

use super::{document, report};

/// `redline undo`.
pub fn undo(store: &mut Store, doc: Option<i64>, json: bool, out: &mut impl Write) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let done = store.undo(doc)?;
    report(&mut *out, doc, &done, json)?;
    Ok(())
}

/// `redline redo`.
pub fn redo(store: &mut Store, doc: Option<i64>, json: bool, out: &mut impl Write) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let done = store.redo(doc)?;
    report(&mut *out, doc, &done, json)?;
    Ok(())
}

/// `redline restore`.
pub fn restore(
    store: &mut Store,
    revision: u64,
    doc: Option<i64>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let done = store.restore(doc, revision)?;
    report(&mut *out, doc, &done, json)?;
    Ok(())
}
