//! `redline history`: the revisions of a resume, oldest first, each in words and local time (or those a
//! search finds, or the newest few).

use std::io::Write;

use anyhow::Result;
use redline_store::Store;

use super::{document, local, plain};

/// `redline history`.
pub fn run(
    store: &mut Store,
    doc: Option<i64>,
    search: Option<String>,
    last: Option<usize>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let history = match (search, last) {
        (None, None) => redline_engine::history_in_words(&*store, doc)?,
        (search, last) => {
            let (mut page, _) = redline_engine::history_page_in_words(
                &*store,
                doc,
                None,
                last.unwrap_or(usize::MAX),
                search.as_deref().unwrap_or_default(),
            )?;
            page.reverse();
            page
        }
    };
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
