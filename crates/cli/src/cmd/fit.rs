//! `redline fit --pages 1`: a resume's spacing, then margins, then text size tightened within readable
//! bounds until it takes the pages asked — a revision of your own, undoable — or, when even the tightest
//! does not fit, what to cut.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::ErrorKind;

use super::{at_head, plain, print};
use crate::fail;

/// Fits resume `doc` (default: the current one) to `pages` pages at its head. Exits 0 when it fits, 4 when
/// it does not (the tightened options are kept all the same, and the longest sections named).
pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    pages: usize,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (head, done) = at_head(data_dir, doc, async |engine, head| {
        engine.fit(head, pages, &mut |_| {}).await
    })?;
    let mut value = serde_json::to_value(&done)?;
    value["changed"] = (done.state.revision != head).into();
    print(out, json, &value, |out| {
        writeln!(
            out,
            "{} (revision {}).",
            plain(&done.summary),
            done.state.revision
        )
    })?;
    if !done.fit.fits {
        return Err(fail(
            ErrorKind::Refused,
            format!(
                "it takes {} pages even at the tightest readable settings; shorten {}",
                done.fit.pages,
                done.fit
                    .cut
                    .iter()
                    .map(|h| plain(h))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
    Ok(())
}
