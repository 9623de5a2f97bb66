//! `redline variant TITLE`: a new resume made from another at one of its revisions, with its own history.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::{on_document, print_json};

pub fn run(
    data_dir: &Path,
    title: String,
    doc: Option<i64>,
    revision: Option<u64>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let made = on_document(data_dir, doc, async |engine, id| {
        engine.variant(id, revision, &title).await
    })?;
    if json {
        print_json(
            &mut *out,
            &json!({"id": made.id, "title": made.title, "from": made.from, "fromRevision": made.from_revision, "revision": made.revision}),
        )?;
    } else {
        writeln!(
            out,
            "Created “{}” (document {}) from document {} at revision {}.",
            super::plain(&made.title),
            made.id,
            made.from,
            made.from_revision
        )?;
    }
    Ok(())
}
