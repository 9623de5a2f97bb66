//! `redline import FILE|-`: a resume as people have it — PDF, Word, OpenDocument, LinkedIn's export, text or
//! JSON Resume, known by its content — read into a new document with no model. A PDF is read in a child
//! process bounded in memory and time, like `redline ats --pdf`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::import;
use serde_json::json;

use super::{failed, on_engine, print_json};

/// `redline read-pdf-lines PATH` (hidden): the child process that reads a PDF's lines for an import.
pub fn read_pdf_lines(path: &Path) -> Result<()> {
    let json = redline_engine::pdf_child::print_lines(path).map_err(failed)?;
    std::io::stdout().lock().write_all(&json)?;
    Ok(())
}

/// `redline import`.
pub fn run(
    data_dir: &Path,
    file: PathBuf,
    title: Option<String>,
    dry_run: bool,
    json: bool,
    tidy: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (bytes, name, path) = bytes_of(&file)?;
    let (imported, kept) = on_engine(data_dir, async |engine| {
        let imported = engine.read_file(&name, path, &bytes).await?;
        let kept = match dry_run {
            true => None,
            false => Some(engine.keep_import(&imported, title.clone()).await?),
        };
        Ok((imported, kept))
    })?;
    let (id, title, revision) = match kept {
        Some(kept) => (Some(kept.id), kept.title, Some(kept.revision)),
        None => (
            None,
            title.unwrap_or_else(|| import::title_of(&imported.document)),
            None,
        ),
    };
    // With --tidy, the model is asked about the new document once the import is said.
    let shown_name = file.file_name().map_or("standard input".into(), |n| {
        n.to_string_lossy().into_owned()
    });
    let tidy = id
        .filter(|_| tidy)
        .map(|id| (id, import::tidy_source(&shown_name, &imported)));
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
                "misfits": imported.misfits,
            }),
        )?;
        return tidied(data_dir, tidy, json, out);
    }
    say(out, id, &title, &imported)?;
    tidied(data_dir, tidy, json, out)
}

/// The bytes of `file` (`-`: standard input), how it is named in words, and its path when it is a file.
fn bytes_of(file: &Path) -> Result<(Vec<u8>, String, Option<&Path>)> {
    if file.as_os_str() == "-" {
        let bytes =
            import::bytes_from(std::io::stdin().lock(), "standard input").map_err(failed)?;
        return Ok((bytes, "standard input".to_owned(), None));
    }
    let bytes = import::file_bytes(file).map_err(failed)?;
    Ok((bytes, file.display().to_string(), Some(file)))
}

/// What was read, in words: the new document (or, for a dry run, the resume as text) and the lines that
/// found no place.
fn say(
    out: &mut impl Write,
    id: Option<i64>,
    title: &str,
    imported: &import::Imported,
) -> Result<()> {
    let what = imported.format.label();
    match id {
        Some(id) => writeln!(
            out,
            "Imported “{}” ({what}) as document {id}.",
            super::plain(title)
        )?,
        None => {
            writeln!(
                out,
                "Read “{}” ({what}); nothing was written:",
                super::plain(title)
            )?;
            writeln!(out, "{}", import::text(&imported.document))?;
        }
    }
    for misfit in &imported.misfits {
        writeln!(out, "{}.", super::plain(&misfit.to_string()))?;
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
    Ok(())
}

/// Runs the tidy turn, if one was asked for, on the new document: its edits all wait for the user.
fn tidied(
    data_dir: &Path,
    tidy: Option<(i64, redline_engine::ipc::TidySource)>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let Some((id, source)) = tidy else {
        return Ok(());
    };
    if !json {
        writeln!(out, "\nTidying with the model; every edit waits for you.")?;
    }
    out.flush()?;
    super::chat::tidy(data_dir, id, &source, json)
}
