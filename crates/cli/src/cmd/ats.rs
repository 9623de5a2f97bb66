//! `redline ats`: how an applicant tracking system reads a resume's PDF — one made here, or one the user
//! names (read in a child process bounded in memory and time).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::ipc::ExportRequest;
use redline_engine::{AtsReport, Format, Page, Template};
use serde_json::json;

use super::{on_document, print_json};
use crate::fail;
use redline_engine::ErrorKind;

/// `redline read-pdf-text PATH` (hidden): the child process that `redline ats --pdf` starts
/// ([`redline_engine::pdf_child`]).
pub fn read_pdf_text(path: &Path) -> Result<()> {
    let json = redline_engine::pdf_child::print_text(path).map_err(super::failed)?;
    std::io::stdout().lock().write_all(&json)?;
    Ok(())
}

/// `redline ats`.
pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    template: Template,
    page: Page,
    pdf: Option<PathBuf>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let request = ExportRequest {
        format: Format::Pdf,
        template,
        page,
    };
    let (doc, report) = on_document(data_dir, doc, async |engine, id| {
        let report = engine.ats_of(id, request, pdf.as_deref()).await?;
        Ok((id, report))
    })?;
    if json {
        let mut value = serde_json::to_value(&report)?;
        value["id"] = json!(doc);
        print_json(&mut *out, &value)?;
    } else {
        ats_report(&mut *out, &report)?;
    }
    if !report.clean() {
        return Err(fail(
            ErrorKind::Internal,
            format!(
                "an applicant tracking system would not read this resume as written: {} missing, {} out of order",
                report.missing.len(),
                report.out_of_order.len()
            ),
        ));
    }
    Ok(())
}

fn ats_report(out: &mut impl Write, report: &AtsReport) -> Result<()> {
    let pages = if report.pages == 1 { "page" } else { "pages" };
    writeln!(out, "Read back from the PDF ({} {pages}):", report.pages)?;
    for section in &report.sections {
        let heading = if section.id == "basics" {
            "Header"
        } else {
            &section.heading
        };
        let text = redline_engine::shorten(&section.text, 100);
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
