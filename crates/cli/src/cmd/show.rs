//! `redline show`: a resume as JSON, at its head or at a revision.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;

use super::document;

/// `redline show`.
pub fn run(
    store: &mut Store,
    doc: Option<i64>,
    revision: Option<u64>,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let revision = match revision {
        Some(n) => store.checkout(doc, n)?,
        None => store.head(doc)?,
    };
    serde_json::to_writer_pretty(&mut *out, &revision.document)?;
    writeln!(out)?;
    Ok(())
}
