//! `redline ats`: how an applicant tracking system reads a resume's PDF — one made here, or one the user
//! names (read in a child process bounded in memory and time).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::{document, print_json};
use redline_resume::export::{Page, Template};

use crate::{Exit, fail};

/// `redline read-pdf-text PATH` (hidden): the child process that [`pdf_text_bounded`] starts.
pub fn read_pdf_text(path: &std::path::Path) -> Result<()> {
    redline_import::child::cap(redline_import::child::memory_limit());
    let bytes = read_limited(path, MAX_PDF_BYTES)?;
    let pages = redline_pdf::ats::extract(&bytes)
        .map_err(|e| fail(Exit::Refused, format!("{}: {e}", path.display())))?;
    serde_json::to_writer(std::io::stdout().lock(), &pages)?;
    Ok(())
}

/// `redline ats`.
pub fn run(
    store: &mut Store,
    doc: Option<i64>,
    template: Template,
    page: Page,
    pdf: Option<PathBuf>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let doc = document(&mut *store, doc)?;
    let resume = store.head(doc)?.document;
    let report = match pdf {
        Some(path) => redline_pdf::ats::compare(&pdf_text_bounded(&path)?, &resume),
        None => redline_pdf::ats::check(&resume, template, page)?,
    };
    if json {
        let mut value = serde_json::to_value(&report)?;
        value["id"] = json!(doc);
        print_json(&mut *out, &value)?;
    } else {
        ats_report(&mut *out, &report)?;
    }
    if !report.clean() {
        return Err(fail(
            Exit::Failed,
            format!(
                "an applicant tracking system would not read this resume as written: {} missing, {} out of order",
                report.missing.len(),
                report.out_of_order.len()
            ),
        ));
    }
    Ok(())
}

/// The largest PDF `redline ats --pdf` reads: a resume's is well under 1 MB (fonts embedded).
const MAX_PDF_BYTES: u64 = 32 << 20;

/// The text of the PDF at `path`, one string per page, read in a child process (this program again, in
/// `read-pdf-text` mode) bounded in memory and time ([`redline_import::child`]): a
/// file built to inflate to gigabytes or to keep the reader busy is refused in words, and this process —
/// the database open in it — is never at its mercy.
fn pdf_text_bounded(path: &std::path::Path) -> Result<Vec<String>> {
    let out = read_bounded("read-pdf-text", path)?;
    serde_json::from_slice(&out).map_err(|e| {
        fail(
            Exit::Failed,
            format!("{}: its text came back unreadable: {e}", path.display()),
        )
    })
}

/// What this program prints in `mode` on the PDF at `path`, run as a child bounded as
/// [`redline_import::child`] says; a refusal in words that name the file.
pub(crate) fn read_bounded(mode: &str, path: &std::path::Path) -> Result<Vec<u8>> {
    use redline_import::child::{self, ChildError};
    child::run(&std::env::current_exe()?, mode, path).map_err(|e| match e {
        // The child said what was wrong, with its exit code: pass both on.
        ChildError::Said { code, message } => fail(Exit::from_code(code), message),
        ChildError::Start(e) => e.into(),
        e => fail(
            Exit::Refused,
            format!("{}: {e}; it is not a PDF Redline can check", path.display()),
        ),
    })
}

/// The file at `path`, refused when it is over `limit` bytes (read one byte past it, never whole).
pub(crate) fn read_limited(path: &std::path::Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| {
        let exit = if e.kind() == std::io::ErrorKind::NotFound {
            Exit::NotFound
        } else {
            Exit::Failed
        };
        fail(exit, format!("cannot read {}: {e}", path.display()))
    })?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(fail(
            Exit::Refused,
            format!(
                "{} is larger than {} MB, far more than a resume's PDF; it was not read",
                path.display(),
                limit >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// `redline ats` in words: what was read per section, then what did not read back.
fn ats_report(out: &mut impl Write, report: &redline_pdf::ats::Report) -> Result<()> {
    let pages = if report.pages == 1 { "page" } else { "pages" };
    writeln!(out, "Read back from the PDF ({} {pages}):", report.pages)?;
    for section in &report.sections {
        let heading = if section.id == "basics" {
            "Header"
        } else {
            &section.heading
        };
        let text = redline_resume::shorten(&section.text, 100);
        writeln!(out, "  {heading}: {text}")?;
    }
    for (what, findings) in [
        ("Missing", &report.missing),
        ("Out of order", &report.out_of_order),
    ] {
        if !findings.is_empty() {
            writeln!(out, "{what} ({}):", findings.len())?;
            for f in findings {
                writeln!(out, "  {} {}: {}", f.section, f.field, f.text)?;
            }
        }
    }
    if report.clean() {
        writeln!(out, "Every field reads back, in order.")?;
    }
    Ok(())
}
