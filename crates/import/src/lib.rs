//! A resume as people have it, read into JSON Resume with no model: PDF (its text layer, read by where its
//! glyphs are), Word (`.docx`), OpenDocument (`.odt`), LinkedIn's data export (`.zip`), Markdown or plain
//! text, and JSON Resume itself. The format is known by the file's content, never its name.
//!
//! Every reader gives [`Line`]s in reading order (LinkedIn's export, already in fields, is the exception);
//! [`structure`] turns them into a resume. Every line of the source ends up in the document or in
//! [`Imported::unplaced`], which the import shows. Readers are bounded in what they read — the file's
//! size, a ZIP's inflated size, an XML's depth, attributes and nodes, a PDF's glyphs, a CSV's rows and
//! columns — and in what they yield, counted as they go: text, lines, a link's length ([`MAX_TEXT_BYTES`],
//! [`MAX_LINES`], [`MAX_LINK_BYTES`]). A PDF is best read in a child process bounded in memory and time
//! (the command line's `redline import` does).

mod bounds;
pub mod child;
pub mod dates;
mod docx;
pub mod headings;
mod linkedin;
pub mod misfits;
pub mod pdf;
pub mod score;
mod section;
pub mod structure;
pub mod text;
mod xml;
mod zipped;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use bounds::{MAX_LINES, MAX_LINK_BYTES, MAX_TEXT_BYTES};
pub use misfits::Misfit;
pub use section::Section;
pub use structure::Read;

/// One line of a source, in reading order, with what the source says about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub text: String,
    /// Its size against the body text's (1.0 for body text).
    pub size: f32,
    /// The source marks it a heading (a heading style, `##`, set larger than the body).
    pub heading: bool,
    /// The source marks it a list item.
    pub bullet: bool,
    /// Set in bold throughout.
    pub bold: bool,
    /// How far it stands in from its column's left edge, in body-text sizes.
    pub indent: f32,
    /// A blank line or a wider space stands before it.
    pub gap: bool,
    /// The line before it ran on to its column's right edge: this one carries on its sentence.
    #[serde(default)]
    pub wrapped: bool,
    /// Where each of its parts set apart by a wide space (`"   "` in `text`) starts, in body-text sizes
    /// from its column's left edge; empty where the source does not say (all but PDF).
    #[serde(default)]
    pub cells: Vec<f32>,
}

impl Line {
    /// A line of body text.
    pub fn plain(text: &str) -> Line {
        Line {
            text: text.to_owned(),
            size: 1.0,
            heading: false,
            bullet: false,
            bold: false,
            indent: 0.0,
            gap: false,
            wrapped: false,
            cells: Vec::new(),
        }
    }
}

/// What a file is, known by its content. It travels to the window as `ImportFormat`, with its labels in
/// the generated vocabulary (`IMPORT_FORMATS`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "ImportFormat")]
pub enum Format {
    Json,
    Pdf,
    Docx,
    Odt,
    Linkedin,
    /// Anything else read as lines of text.
    #[default]
    Text,
}

impl Format {
    /// Every format, in the order a person would list them.
    pub const ALL: [Format; 6] = [
        Format::Pdf,
        Format::Docx,
        Format::Odt,
        Format::Linkedin,
        Format::Json,
        Format::Text,
    ];

    /// Its name on the wire and in `--json` output (`pdf`, `docx`, …).
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Odt => "odt",
            Format::Linkedin => "linkedin",
            Format::Text => "text",
        }
    }

    /// How it is named to a person.
    pub fn label(self) -> &'static str {
        match self {
            Format::Json => "JSON Resume",
            Format::Pdf => "PDF",
            Format::Docx => "Word document",
            Format::Odt => "OpenDocument text",
            Format::Linkedin => "LinkedIn data export",
            Format::Text => "text",
        }
    }
}

/// The largest file an import reads, in bytes: a resume's PDF with its fonts is well under 1 MB, LinkedIn's
/// export a few MB.
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// Why a file cannot be imported; nothing is written.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("it is larger than {0}; nothing was imported")]
    TooLarge(String),
    #[error(
        "this PDF has no text to read: export it again from the program that made it, or paste the text"
    )]
    NoText,
    #[error("this PDF is locked with a password: save a copy without one and import that")]
    Encrypted,
    #[error("{0}; nothing was imported")]
    Broken(String),
    /// It would yield more than a bound allows (the bound named: "this Word document nests its elements
    /// more than 256 deep; Redline reads at most 256").
    #[error("{0}; nothing was imported")]
    OverBound(String),
    #[error(
        "this ZIP archive is not a Word or OpenDocument file nor a LinkedIn data export (it has no Profile.csv or Positions.csv); nothing was imported"
    )]
    NotAnExport,
    #[error(
        "this JSON file is not a resume: it has none of JSON Resume's sections (basics, work, education, skills, …); nothing was imported"
    )]
    NotAResume,
    #[error("{0}")]
    Invalid(String),
    #[error(
        "this file is not one Redline reads (PDF, Word, OpenDocument, LinkedIn's export, text or JSON Resume); nothing was imported"
    )]
    Unknown,
    #[error("nothing in it reads as a resume (no name and no sections); nothing was imported")]
    Empty,
    /// A JSON Resume file refused as `redline_resume` reads it (its name is in the message).
    #[error(transparent)]
    Json(#[from] redline_resume::ReadError),
}

impl ImportError {
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        match self {
            ImportError::Json(e) => e.kind(),
            _ => redline_error_kind::ErrorKind::Refused,
        }
    }

    /// Whether the message already names the file.
    pub fn names_the_file(&self) -> bool {
        matches!(self, ImportError::Json(_))
    }
}

/// A file read as a resume.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Imported {
    pub format: Format,
    /// The resume: valid JSON Resume.
    pub document: Value,
    /// The source's lines that found no place in it, in their order, then the text of each misfit.
    pub unplaced: Vec<String>,
    /// Values read into a field they do not fit, left out of the resume and named.
    pub misfits: Vec<Misfit>,
    /// The source's lines as read, in reading order (empty for JSON Resume and LinkedIn's export, which
    /// are read by their fields): what an import review shows beside the fields.
    pub lines: Vec<String>,
}

/// What the content of `bytes` says it is.
pub fn sniff(bytes: &[u8]) -> Result<Format, ImportError> {
    let head = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    let head = &head[start..];
    if bytes.windows(5).take(1024).any(|w| w == b"%PDF-") {
        return Ok(Format::Pdf);
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        let archive = zipped::Archive::open(bytes)?;
        let names = archive.names();
        if names.iter().any(|n| n == "word/document.xml") {
            return Ok(Format::Docx);
        }
        if names.iter().any(|n| n == "content.xml") {
            return Ok(Format::Odt);
        }
        if linkedin::is_export(&names) {
            return Ok(Format::Linkedin);
        }
        return Err(ImportError::NotAnExport);
    }
    if head.starts_with(b"{") {
        return Ok(Format::Json);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| ImportError::Unknown)?;
    if text
        .chars()
        .any(|c| c == '\0' || (c.is_control() && !c.is_whitespace()))
    {
        return Err(ImportError::Unknown);
    }
    Ok(Format::Text)
}

/// Whether `key` is one of JSON Resume's top-level keys: a JSON file with none of them is not a resume.
fn json_resume_key(key: &str) -> bool {
    key == Section::Basics.key()
        || matches!(key, "meta" | "$schema")
        || redline_resume::words::SECTIONS.contains(&key)
}

/// The file name extensions an open dialog offers for an import (the content still decides the format).
pub const EXTENSIONS: [&str; 8] = ["pdf", "docx", "odt", "zip", "md", "markdown", "txt", "json"];

/// Reads `bytes` (the file `name`) as a resume: the format by its content, then its reader. PDF is read in
/// this process (see [`pdf_lines`] to read it elsewhere and pass the lines to [`from_lines`]).
pub fn import(name: &str, bytes: &[u8]) -> Result<Imported, ImportError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ImportError::TooLarge(format!(
            "{} MB",
            MAX_FILE_BYTES >> 20
        )));
    }
    let format = sniff(bytes)?;
    let lines = match format {
        Format::Json => return json(name, bytes),
        Format::Linkedin => {
            let read = linkedin::read(&mut zipped::Archive::open(bytes)?)?;
            return finish(format, read, Vec::new());
        }
        Format::Pdf => pdf::lines(bytes)?,
        Format::Docx => docx::docx(&mut zipped::Archive::open(bytes)?)?,
        Format::Odt => docx::odt(&mut zipped::Archive::open(bytes)?)?,
        Format::Text => {
            if bytes.len() > MAX_TEXT_BYTES {
                return Err(ImportError::TooLarge(format!(
                    "{} MB of text",
                    MAX_TEXT_BYTES >> 20
                )));
            }
            let text = std::str::from_utf8(bytes).map_err(|_| ImportError::Unknown)?;
            text::lines(text.trim_start_matches('\u{feff}'))?
        }
    };
    from_lines(format, &lines)
}

/// The lines of a PDF, for a caller that reads it in a bounded child process.
pub fn pdf_lines(bytes: &[u8]) -> Result<Vec<Line>, ImportError> {
    pdf::lines(bytes)
}

/// Lines read elsewhere (a PDF in a child process) as a resume, within the bounds on what a file may
/// yield.
pub fn from_lines(format: Format, lines: &[Line]) -> Result<Imported, ImportError> {
    bounds::check(format, lines)?;
    let texts = lines.iter().map(|l| l.text.clone()).collect();
    finish(format, structure::read(lines), texts)
}

fn finish(format: Format, read: Read, lines: Vec<String>) -> Result<Imported, ImportError> {
    let document = read.document;
    let has_name = document[Section::Basics.key()]["name"]
        .as_str()
        .is_some_and(|n| !n.trim().is_empty());
    let sections = document.as_object().map_or(0, |m| m.len() - 1);
    if !has_name && sections == 0 {
        return Err(ImportError::Empty);
    }
    // One field read wrongly does not cost the file: a value the schema refuses is taken out and named.
    let (document, misfits) = misfits::take_out(document).map_err(|shape| invalid(&shape))?;
    within_size(&document)?;
    let mut unplaced = read.unplaced;
    unplaced.extend(misfits.iter().map(|m| m.text.clone()));
    Ok(Imported {
        format,
        document,
        unplaced,
        misfits,
        lines,
    })
}

/// `document` (a resume read from a file, then fixed by hand in the import review) checked as an import
/// must be: valid JSON Resume within the size a document may have.
pub fn reviewed(document: &Value) -> Result<(), ImportError> {
    check(document)
}

/// A resume as it must be to be imported: valid against the schema and within the size a document may have.
fn check(document: &Value) -> Result<(), ImportError> {
    if redline_resume::validate(document).is_err() {
        return Err(invalid(document));
    }
    within_size(document)
}

/// Why `document` (which the schema refuses) is not imported, each problem named.
fn invalid(document: &Value) -> ImportError {
    let problems = redline_resume::validate(document).err().unwrap_or_default();
    ImportError::Invalid(format!(
        "it is not a valid JSON Resume; nothing was imported:\n{}",
        redline_resume::listed(&problems).join("\n")
    ))
}

/// A resume within the size a document may have.
fn within_size(document: &Value) -> Result<(), ImportError> {
    let size = redline_resume::measure(document);
    if size.bytes > redline_resume::MAX_DOCUMENT_BYTES || size.depth > redline_resume::MAX_DEPTH {
        return Err(ImportError::TooLarge(format!(
            "the largest resume Redline keeps ({} MB, {} levels deep)",
            redline_resume::MAX_DOCUMENT_BYTES >> 20,
            redline_resume::MAX_DEPTH
        )));
    }
    Ok(())
}

/// The most values a JSON file may hold, as [`redline_bounded::json_values`] counts them: no more than a
/// resume of [`redline_resume::MAX_DOCUMENT_BYTES`] has (each value past the first costs a bracket, a
/// comma or a colon, a byte of its compact JSON), so every file over it is refused before a value of it is
/// built.
const MAX_JSON_VALUES: usize = redline_resume::MAX_DOCUMENT_BYTES + 1;

/// A JSON Resume file: refused by its size ([`redline_resume::MAX_FILE_BYTES`]) and by the values it holds
/// before it is parsed, then parsed once.
fn json(name: &str, bytes: &[u8]) -> Result<Imported, ImportError> {
    use redline_resume::ReadError;
    if bytes.len() as u64 > redline_resume::MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(name.to_owned()).into());
    }
    if redline_bounded::json_values(bytes) > MAX_JSON_VALUES {
        return Err(bounds::refused(
            Format::Json,
            &format!(
                "holds more than {} values, more than a resume of {} MB can",
                bounds::grouped(MAX_JSON_VALUES),
                redline_resume::MAX_DOCUMENT_BYTES >> 20
            ),
            &bounds::grouped(MAX_JSON_VALUES),
        ));
    }
    let document: Value =
        serde_json::from_slice(bytes).map_err(|e| ReadError::NotJson(name.to_owned(), e))?;
    // A JSON object with none of JSON Resume's keys (a service account's key, say) is not imported as an
    // empty resume that would keep it in its history and backups forever.
    if let Value::Object(m) = &document
        && !m.keys().any(|k| json_resume_key(k))
    {
        return Err(ImportError::NotAResume);
    }
    redline_resume::validate(&document)
        .map_err(|problems| ReadError::Invalid(name.to_owned(), problems))?;
    within_size(&document)?;
    Ok(Imported {
        format: Format::Json,
        document,
        unplaced: Vec::new(),
        misfits: Vec::new(),
        lines: Vec::new(),
    })
}
