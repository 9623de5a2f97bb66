//! `redline rename TITLE`: a resume's title (the store keeps it to 200 characters).

use std::io::Write;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::{document, print_json};

/// `redline rename`.
pub fn run(
    store: &mut Store,
    title: String,
    doc: Option<i64>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    store.rename(doc, &title)?;
    let title = store.document(doc)?.title;
    if json {
        print_json(&mut *out, &json!({"id": doc, "title": title}))?;
    } else {
        writeln!(out, "Document {doc} is now “{}”.", super::plain(&title))?;
    }
    Ok(())
}
