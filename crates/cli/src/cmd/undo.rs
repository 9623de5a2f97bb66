//! `redline undo`, `redo` and `restore`: a change taken back, applied again, or an old revision brought
//! back — each as a new revision, so nothing is lost.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::{on_document, report};

pub fn undo(data_dir: &Path, doc: Option<i64>, json: bool, out: &mut impl Write) -> Result<()> {
    let done = on_document(data_dir, doc, async |engine, id| engine.undo_in(id).await)?;
    report(out, &done, json)
}

pub fn redo(data_dir: &Path, doc: Option<i64>, json: bool, out: &mut impl Write) -> Result<()> {
    let done = on_document(data_dir, doc, async |engine, id| engine.redo_in(id).await)?;
    report(out, &done, json)
}

pub fn restore(
    data_dir: &Path,
    revision: u64,
    doc: Option<i64>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let done = on_document(data_dir, doc, async |engine, id| {
        engine.restore_in(id, revision).await
    })?;
    report(out, &done, json)
}
