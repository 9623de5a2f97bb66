//! `redline show`: a resume as JSON, at its head or at a revision.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::on_document;

pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    revision: Option<u64>,
    out: &mut impl Write,
) -> Result<()> {
    let document = on_document(data_dir, doc, async |engine, id| {
        engine.document_at(id, revision).await
    })?;
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)?;
    Ok(())
}
