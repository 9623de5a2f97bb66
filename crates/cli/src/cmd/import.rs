//! `redline import FILE|-`: a JSON Resume file as a new document, checked against the schema first.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::print_json;

/// `redline import`.
pub fn run(
    store: &mut Store,
    file: PathBuf,
    title: Option<String>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let document = if file.as_os_str() == "-" {
        redline_resume::read_from("standard input".into(), std::io::stdin().lock())?
    } else {
        redline_resume::read_file(&file)?
    };
    let title = title.unwrap_or_else(|| redline_resume::title_of(&document));
    let id = store.import(&title, &document)?;
    let title = store.document(id)?.title;
    if json {
        let revision = store.document(id)?.head_revision;
        print_json(
            &mut *out,
            &json!({"id": id, "title": title, "revision": revision}),
        )?;
    } else {
        writeln!(out, "Imported “{}” as document {id}.", super::plain(&title))?;
    }
    Ok(())
}
