//! `redline rename TITLE`: a resume's new title.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::{on_document, print_json};

pub fn run(
    data_dir: &Path,
    title: String,
    doc: Option<i64>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (doc, title) = on_document(data_dir, doc, async |engine, id| {
        engine.rename(id, &title).await.map(|title| (id, title))
    })?;
    if json {
        print_json(&mut *out, &json!({"id": doc, "title": title}))?;
    } else {
        writeln!(out, "Document {doc} is now “{}”.", super::plain(&title))?;
    }
    Ok(())
}
