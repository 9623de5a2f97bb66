//! `redline export`: a resume or a letter as PDF, Word, HTML, JSON, Markdown or text, to a file (never over one
//! unless `--force`) or to standard output.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::ipc::ExportRequest;
use redline_engine::{Format, Look, Page};
use serde_json::json;

use super::{in_document, print_json};
use crate::{formats, looks, pages};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The format, the look, the paper and where it goes.
    #[command(flatten)]
    pub file: FileArgs,
    /// The document's id (see `redline list`); default: the one changed last.
    #[arg(long, value_name = "ID")]
    pub doc: Option<i64>,
}

/// A file to make and where it goes: `redline export`'s and `redline apply sent`'s.
#[derive(Debug, clap::Args)]
pub struct FileArgs {
    /// The file format.
    #[arg(long, value_name = "FORMAT", value_parser = formats())]
    pub format: Format,
    /// The look (HTML, PDF and Word; a letter takes it with its resume's own options): a built-in design,
    /// or a theme of your own (`redline theme list`), which makes PDFs and lends Word and HTML the design
    /// it was made from.
    #[arg(long, value_name = "T", default_value = "classic", value_parser = looks())]
    pub template: Look,
    /// The paper size (HTML and PDF).
    #[arg(long, value_name = "SIZE", default_value = "a4", value_parser = pages())]
    pub page: Page,
    /// Where to write it (a file that exists is left alone unless --force); `-` writes to standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print where it was written and its size as one JSON object.
    #[arg(long)]
    pub json: bool,
}

impl FileArgs {
    /// What the engine is asked to make, in a built-in design: `None` for a theme of the user's own.
    pub fn request(&self) -> Option<ExportRequest> {
        match self.template {
            Look::Design(template) => Some(ExportRequest {
                format: self.format,
                template,
                page: self.page,
            }),
            Look::Theme(_) => None,
        }
    }

    /// Whether the file goes to standard output (`-o -`).
    pub fn to_stdout(&self) -> bool {
        self.output.as_os_str() == "-"
    }
}

pub fn run(data_dir: &Path, args: Args, out: &mut impl Write) -> Result<()> {
    let Args { file, doc } = args;
    // One engine for the check of the theme's name and the export (each start opens the store).
    let (runtime, engine) = super::bare(data_dir)?;
    if let Look::Theme(name) = &file.template {
        super::theme::unknown(&engine, name)?;
    }
    let (look, output) = (&file.template, &file.output);
    let (format, page) = (file.format, file.page);
    if file.to_stdout() {
        let bytes = in_document(&runtime, &engine, doc, async |engine, id| {
            engine.render_in(id, look, format, page).await
        })?;
        out.write_all(&bytes)?;
        out.flush()?;
        return Ok(());
    }
    let (doc, bytes, unprintable) = in_document(&runtime, &engine, doc, async |engine, id| {
        let bytes = (engine.export_in(id, look, format, page, output, file.force)).await?;
        let unprintable = match format {
            Format::Pdf => engine.unprintable_of(id).await?,
            _ => Vec::new(),
        };
        Ok((id, bytes, unprintable))
    })?;
    if file.json {
        print_json(
            &mut *out,
            &json!({"id": doc, "path": output.display().to_string(), "bytes": bytes}),
        )?;
    } else {
        writeln!(out, "Exported to {}", output.display())?;
    }
    warn_of_unprintable(&unprintable);
    Ok(())
}

/// Says on standard error which of the resume's letters no font has (the PDF prints them as nothing), and
/// what to do about it.
fn warn_of_unprintable(missing: &[char]) {
    if !missing.is_empty() {
        let shown: String = missing.iter().take(20).collect();
        let more = if missing.len() > 20 { " …" } else { "" };
        eprintln!(
            "redline: no font on this computer has {} of the resume's letters ({shown}{more}): the PDF \
             prints them as nothing. Install a font that has them (for Korean, Noto Sans CJK or Nanum \
             Gothic) and export again",
            missing.len()
        );
    }
}
