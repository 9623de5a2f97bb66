//! `redline diff A B`: the RFC 6902 patch between two revisions of a resume.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::on_document;

pub fn run(data_dir: &Path, a: u64, b: u64, doc: Option<i64>, out: &mut impl Write) -> Result<()> {
    let patch = on_document(data_dir, doc, async |engine, id| {
        engine.diff(id, a, b).await
    })?;
    serde_json::to_writer_pretty(&mut *out, &patch)?;
    writeln!(out)?;
    Ok(())
}
