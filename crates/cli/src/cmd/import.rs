//! `redline import FILE|-`: a resume as people have it — PDF, Word, OpenDocument, LinkedIn's export, text or
//! JSON Resume, known by its content — read into a new document with no model. A PDF is read in a child
//! process bounded in memory and time, like `redline ats --pdf`.

use std::io::{Read as _, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_import::{Format, Imported};
use redline_store::Store;
use serde_json::json;

use super::print_json;
use crate::{Exit, fail};

/// `redline read-pdf-lines PATH` (hidden): the child process that reads a PDF's lines for an import.
pub fn read_pdf_lines(path: &Path) -> Result<()> {
    redline_import::child::cap(redline_import::child::memory_limit());
    let bytes = super::ats::read_limited(path, redline_import::MAX_FILE_BYTES)?;
    let lines = redline_import::pdf_lines(&bytes)
        .map_err(|e| fail(Exit::Refused, format!("{}: {e}", path.display())))?;
    serde_json::to_writer(std::io::stdout().lock(), &lines)?;
    Ok(())
}

/// The bytes of `file` (`-`: standard input), at most [`redline_import::MAX_FILE_BYTES`].
fn bytes_of(file: &Path) -> Result<Vec<u8>> {
    if file.as_os_str() != "-" {
        let name = file.display().to_string();
        let opened = redline_resume::open_regular(file, &name)?;
        return limited(opened, &name);
    }
    limited(std::io::stdin().lock(), "standard input")
}

fn limited(reader: impl std::io::Read, name: &str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(redline_import::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(Exit::Failed, format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > redline_import::MAX_FILE_BYTES {
        return Err(fail(
            Exit::Refused,
            format!(
                "{name} is larger than {} MB, far more than any resume; nothing was imported",
                redline_import::MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// `file` read as a resume; a PDF's lines come from a bounded child process.
fn read(file: &Path, bytes: &[u8]) -> Result<Imported> {
    let name = if file.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        file.display().to_string()
    };
    let refused = |e: redline_import::ImportError| -> anyhow::Error {
        if e.names_the_file() {
            e.into()
        } else {
            fail(Exit::Refused, format!("{name}: {e}"))
        }
    };
    if redline_import::sniff(bytes).map_err(refused)? != Format::Pdf {
        return redline_import::import(&name, bytes).map_err(refused);
    }
    // The child reads a file: standard input's bytes are written to one first.
    let spooled;
    let path = if file.as_os_str() == "-" {
        let mut temp = tempfile::NamedTempFile::new()?;
        temp.write_all(bytes)?;
        spooled = temp;
        spooled.path().to_path_buf()
    } else {
        file.to_path_buf()
    };
    let out = super::ats::read_bounded("read-pdf-lines", &path)?;
    let lines: Vec<redline_import::Line> = serde_json::from_slice(&out).map_err(|e| {
        fail(
            Exit::Failed,
            format!("{name}: its lines came back unreadable: {e}"),
        )
    })?;
    redline_import::from_lines(Format::Pdf, &lines).map_err(refused)
}

/// `redline import`.
pub fn run(
    store: &mut Store,
    file: PathBuf,
    title: Option<String>,
    dry_run: bool,
    json: bool,
    tidy: bool,
    out: &mut impl Write,
) -> Result<()> {
    let bytes = bytes_of(&file)?;
    let imported = read(&file, &bytes)?;
    let title = title.unwrap_or_else(|| redline_resume::title_of(&imported.document));
    let (id, title, revision) = if dry_run {
        (None, title, None)
    } else {
        let id = store.import(&title, &imported.document)?;
        let row = store.document(id)?;
        (Some(id), row.title, Some(row.head_revision))
    };
    // With --tidy, the model is asked about the new document once the import is said.
    let tidy = id.filter(|_| tidy).map(|id| {
        let source = redline_engine::ipc::TidySource {
            name: file.file_name().map_or("standard input".into(), |n| {
                n.to_string_lossy().into_owned()
            }),
            format: imported.format.label().to_owned(),
            lines: imported.lines.clone(),
            unplaced: imported.unplaced.clone(),
        };
        (id, redline_engine::tidy::ask(&source))
    });
    if json {
        print_json(
            &mut *out,
            &json!({
                "id": id,
                "title": title,
                "revision": revision,
                "format": imported.format,
                "document": imported.document,
                "unplaced": imported.unplaced,
            }),
        )?;
        return tidied(store, tidy, json, out);
    }
    let what = imported.format.label();
    match id {
        Some(id) => writeln!(
            out,
            "Imported “{}” ({what}) as document {id}.",
            super::plain(&title)
        )?,
        None => {
            writeln!(
                out,
                "Read “{}” ({what}); nothing was written:",
                super::plain(&title)
            )?;
            writeln!(out, "{}", redline_resume::export::text(&imported.document))?;
        }
    }
    if !imported.unplaced.is_empty() {
        writeln!(
            out,
            "{} line(s) found no place in the resume; add them by hand if they belong:",
            imported.unplaced.len()
        )?;
        for line in &imported.unplaced {
            writeln!(out, "  {}", super::plain(line))?;
        }
    }
    tidied(store, tidy, json, out)
}

/// Runs the tidy turn, if one was asked for, on the new document: its edits all wait for the user.
fn tidied(
    store: &mut Store,
    tidy: Option<(i64, String)>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let Some((id, ask)) = tidy else {
        return Ok(());
    };
    if !json {
        writeln!(out, "\nTidying with the model; every edit waits for you.")?;
    }
    out.flush()?;
    let config = redline_agent::settings::resolve(&*store, &redline_agent::OsKeychain, |_| {})?;
    super::chat::run_turn(store, Some(id), config, &ask, json, None, true)
}
