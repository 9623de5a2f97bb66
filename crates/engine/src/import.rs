//! A file read into a resume as the command line imports it: its bytes read with the bound of any
//! resume, read with no model (a PDF in the bounded child), and, unless it is a dry run, kept as a new
//! resume. The window's import opens what it imports and reviews it first (`documents.rs`).

use std::io::Read;
use std::path::Path;

pub use redline_import::{Format as ImportFormat, Imported, MAX_FILE_BYTES};
/// A resume's title by default (its name and label), and the resume as plain text (a dry run shows it).
pub use redline_resume::{export::text, title_of};

use super::Engine;
use crate::error::{Error, ErrorKind};

/// A resume just imported: its id, its title, and its revision.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedAs {
    pub id: i64,
    pub title: String,
    pub revision: u64,
}

/// The bytes of the file at `path` for an import: a regular file, at most [`MAX_FILE_BYTES`].
pub fn file_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    let name = path.display().to_string();
    let opened = redline_resume::open_regular(path, &name)
        .map_err(|e| Error::new(e.kind(), e.to_string()))?;
    bytes_from(opened, &name)
}

/// What `reader` (standard input, say, named `name` in words) holds, at most [`MAX_FILE_BYTES`].
pub fn bytes_from(reader: impl Read, name: &str) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::new(ErrorKind::Internal, format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::Refused,
            format!(
                "{name} is larger than {} MB, far more than any resume; nothing was imported",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// What a tidy of a resume just read from the file `name` is told of the file (`redline import --tidy`,
/// with [`Engine::tidy_chat`]): its own lines, and those that found no place.
pub fn tidy_source(name: &str, imported: &Imported) -> crate::ipc::TidySource {
    crate::ipc::TidySource {
        name: name.to_owned(),
        format: imported.format,
        lines: imported.lines.clone(),
        unplaced: imported.unplaced.clone(),
    }
}

impl Engine {
    /// Reads `bytes` — the file `name`, at `path` when it is one — into a resume, with no model, writing
    /// nothing: known by its content; a PDF read in the bounded child (from a file written for it when
    /// the bytes came from no file). A file that cannot be read is refused in words.
    pub async fn read_file(
        &self,
        name: &str,
        path: Option<&Path>,
        bytes: &[u8],
    ) -> Result<Imported, Error> {
        let refused = |e: redline_import::ImportError| {
            if e.names_the_file() {
                Error::new(e.kind(), e.to_string())
            } else {
                Error::new(ErrorKind::Refused, format!("{name}: {e}"))
            }
        };
        if redline_import::sniff(bytes).map_err(refused)? != ImportFormat::Pdf {
            return redline_import::import(name, bytes).map_err(refused);
        }
        let lines = match path {
            Some(path) => crate::pdf_child::lines_of(path, name)?,
            None => {
                let spooled = spool(bytes)?;
                crate::pdf_child::lines_of(spooled.path(), name)?
            }
        };
        redline_import::from_lines(ImportFormat::Pdf, &lines).map_err(refused)
    }

    /// Keeps `imported` as a new resume titled `title` (by default, the name and label in it), without
    /// opening it in the window.
    pub async fn keep_import(
        &self,
        imported: &Imported,
        title: Option<String>,
    ) -> Result<ImportedAs, Error> {
        self.idle()?;
        let title = title.unwrap_or_else(|| redline_resume::title_of(&imported.document));
        let mut open = self.open()?.lock().await;
        let id = open.store.import(&title, &imported.document)?;
        let row = open.store.document(id)?;
        Ok(ImportedAs {
            id,
            title: row.title,
            revision: row.head_revision,
        })
    }
}

/// `bytes` in a temporary file, for the child to read.
fn spool(bytes: &[u8]) -> Result<tempfile::NamedTempFile, Error> {
    use std::io::Write as _;
    let internal = |e: std::io::Error| Error::new(ErrorKind::Internal, e.to_string());
    let mut temp = tempfile::NamedTempFile::new().map_err(internal)?;
    temp.write_all(bytes).map_err(internal)?;
    Ok(temp)
}
