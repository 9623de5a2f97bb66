//! `redline history`: a resume's revisions in words, oldest first, the head marked; searched, or the newest
//! few.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::{local, on_document, plain};

pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    search: Option<String>,
    last: Option<usize>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let history = on_document(data_dir, doc, async |engine, id| {
        engine.history_of(id, search.as_deref(), last).await
    })?;
    if json {
        serde_json::to_writer_pretty(&mut *out, &history.revisions)?;
        writeln!(out)?;
        return Ok(());
    }
    for r in &history.revisions {
        writeln!(
            out,
            "{} {:>5}  {}  {:<7}  {}",
            if r.number == history.head { "*" } else { " " },
            r.number,
            local(r.created_at),
            r.source.as_str(),
            plain(&r.summary)
        )?;
    }
    Ok(())
}
