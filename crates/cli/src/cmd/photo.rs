//! `redline photo FILE` / `redline photo --remove`: the person's photo, drawn in the designs' headers, kept
//! small in the resume (`basics.image`) as a revision of your own, undoable.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{at_head, print};

/// Sets the photo of resume `doc` (default: the current one) from the image at `file`, or removes it.
pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    file: Option<PathBuf>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let removing = file.is_none();
    let (head, after) = at_head(data_dir, doc, async |engine, head| {
        engine.set_photo(head, file, &mut |_| {}).await
    })?;
    let changed = after.revision != head;
    let mut value = serde_json::to_value(&after)?;
    value["changed"] = changed.into();
    print(out, json, &value, |out| {
        let said = match (removing, changed) {
            (true, true) => "Photo removed",
            (true, false) => "The resume has no photo; nothing changed",
            (false, true) => "Photo chosen",
            (false, false) => "The resume already has this photo; nothing changed",
        };
        writeln!(out, "{said} (revision {}).", after.revision)
    })
}
