//! A PDF read in a child process bounded in memory and time: the `redline` program runs itself in a hidden
//! mode (`read-pdf-text` for the ATS read-back, `read-pdf-lines` for an import), and the parent reads what
//! it printed. This module holds both sides: what the child does ([`print_text`], [`print_lines`]) and how
//! the parent asks ([`text_of`], [`lines_of`]). The child's exit status says the kind of its failure, in
//! the command line's numbers ([`kind_of_status`]).

use std::io::Read as _;
use std::path::Path;

use redline_import::child::{self, ChildError};

use crate::error::{Error, ErrorKind};

/// The largest PDF the ATS read-back reads.
const MAX_PDF_BYTES: u64 = 32 << 20;

/// The child's side of `read-pdf-text`: caps its own memory, reads the PDF at `path`, and gives its text
/// as a JSON array of pages, for standard output.
pub fn print_text(path: &Path) -> Result<Vec<u8>, Error> {
    redline_memory::cap(child::memory_limit());
    let bytes = read_limited(path, MAX_PDF_BYTES)?;
    let pages = redline_pdf::ats::extract(&bytes)
        .map_err(|e| Error::new(ErrorKind::Refused, format!("{}: {e}", path.display())))?;
    json(&pages)
}

/// The child's side of `read-pdf-lines`: caps its own memory, reads the PDF at `path`, and gives its lines
/// for an import as JSON, for standard output.
pub fn print_lines(path: &Path) -> Result<Vec<u8>, Error> {
    redline_memory::cap(child::memory_limit());
    let bytes = read_limited(path, redline_import::MAX_FILE_BYTES)?;
    let lines = redline_import::pdf_lines(&bytes)
        .map_err(|e| Error::new(ErrorKind::Refused, format!("{}: {e}", path.display())))?;
    json(&lines)
}

fn json(value: &impl serde::Serialize) -> Result<Vec<u8>, Error> {
    serde_json::to_vec(value).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))
}

/// The text of the PDF at `path`, page by page, read by the child.
pub fn text_of(path: &Path) -> Result<Vec<String>, Error> {
    let out = bounded("read-pdf-text", path)?;
    serde_json::from_slice(&out).map_err(|e| {
        Error::new(
            ErrorKind::Internal,
            format!("{}: its text came back unreadable: {e}", path.display()),
        )
    })
}

/// The lines of the PDF at `path` for an import, read by the child; `name` is how the file is named in
/// words.
pub fn lines_of(path: &Path, name: &str) -> Result<Vec<redline_import::Line>, Error> {
    let out = bounded("read-pdf-lines", path)?;
    serde_json::from_slice(&out).map_err(|e| {
        Error::new(
            ErrorKind::Internal,
            format!("{name}: its lines came back unreadable: {e}"),
        )
    })
}

/// What the `redline` program (this one, or the one beside the app's), run in `mode` on `path`, printed.
fn bounded(mode: &str, path: &Path) -> Result<Vec<u8>, Error> {
    let program = child::reader().ok_or_else(|| {
        Error::new(
            ErrorKind::NotConfigured,
            "a PDF is read back by the `redline` program, which is not beside this one",
        )
    })?;
    child::run(&program, mode, path).map_err(|e| match e {
        // The child said what was wrong, with its exit status: pass both on.
        ChildError::Said { code, message } => Error::new(kind_of_status(code), message),
        ChildError::Start(e) => Error::new(ErrorKind::Internal, e.to_string()),
        e => Error::new(
            ErrorKind::Refused,
            format!("{}: {e}; it is not a PDF Redline can check", path.display()),
        ),
    })
}

/// The kind of failure a child's exit status says, in the command line's numbers (3 not found, 4 refused,
/// 5 not configured, 130 stopped).
pub fn kind_of_status(code: i32) -> ErrorKind {
    match code {
        3 => ErrorKind::NotFound,
        4 => ErrorKind::Refused,
        5 => ErrorKind::NotConfigured,
        130 => ErrorKind::Stopped,
        _ => ErrorKind::Internal,
    }
}

/// The bytes of the file at `path`, at most `limit` (one more is read to refuse it in words).
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, Error> {
    let file = std::fs::File::open(path).map_err(|e| {
        let kind = match e.kind() {
            std::io::ErrorKind::NotFound => ErrorKind::NotFound,
            _ => ErrorKind::Internal,
        };
        Error::new(kind, format!("cannot read {}: {e}", path.display()))
    })?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::Refused,
            format!(
                "{} is larger than {} MB, far more than a resume's PDF; it was not read",
                path.display(),
                limit >> 20
            ),
        ));
    }
    Ok(bytes)
}
