//! `redline diff A B`: the RFC 6902 patch from revision A to revision B.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;

use super::document;

/// `redline diff`.
pub fn run(
    store: &mut Store,
    a: u64,
    b: u64,
    doc: Option<i64>,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    serde_json::to_writer_pretty(&mut *out, &store.diff(doc, a, b)?)?;
    writeln!(out)?;
    Ok(())
}
