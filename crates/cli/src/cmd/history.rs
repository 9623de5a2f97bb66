//! `redline history`: the revisions of a resume, oldest first, each in words and local time.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;

use super::{document, local, plain};

/// `redline history`.
pub fn run(store: &mut Store, doc: Option<i64>, json: bool, out: &mut impl Write) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let history = redline_engine::history_in_words(&*store, doc)?;
    if json {
        serde_json::to_writer_pretty(&mut *out, &history)?;
        writeln!(out)?;
    } else {
        let head = store.document(doc)?.head_revision;
        for r in &history {
            writeln!(
                out,
                "{} {:>5}  {}  {:<7}  {}",
                if r.number == head { "*" } else { " " },
                r.number,
                local(r.created_at),
                r.source.as_str(),
                plain(&r.summary)
            )?;
        }
    }
    Ok(())
}
