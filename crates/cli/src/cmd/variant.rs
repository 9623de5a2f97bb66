//! `redline variant TITLE`: a new resume made from another at one of its revisions, with its own history.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::{document, print_json};

/// `redline variant`.
pub fn run(
    store: &mut Store,
    title: String,
    doc: Option<i64>,
    revision: Option<u64>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let revision = match revision {
        Some(n) => n,
        None => store.document(doc)?.head_revision,
    };
    let id = store.create_variant(doc, revision, &title)?;
    let title = store.document(id)?.title;
    if json {
        let head = store.document(id)?.head_revision;
        print_json(
            &mut *out,
            &json!({"id": id, "title": title, "from": doc, "fromRevision": revision, "revision": head}),
        )?;
    } else {
        writeln!(
            out,
            "Created “{}” (document {id}) from document {doc} at revision {revision}.",
            super::plain(&title)
        )?;
    }
    Ok(())
}
