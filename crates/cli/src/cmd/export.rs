//! `redline export`: a resume or a letter as PDF, Word, HTML, JSON, Markdown or text, to a file (never over one
//! unless `--force`) or to standard output.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::ipc::ExportRequest;
use redline_engine::{Format, Page, Template};
use serde_json::json;

use super::{on_document, print_json};
use crate::{formats, pages, templates};

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
    /// The look (HTML, PDF and Word; a letter takes it with its resume's own options).
    #[arg(long, value_name = "T", default_value = "classic", value_parser = templates())]
    pub template: Template,
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
    /// What the engine is asked to make.
    pub fn request(&self) -> ExportRequest {
        ExportRequest {
            format: self.format,
            template: self.template,
            page: self.page,
        }
    }

    /// Whether the file goes to standard output (`-o -`).
    pub fn to_stdout(&self) -> bool {
        self.output.as_os_str() == "-"
    }
}

pub fn run(data_dir: &Path, args: Args, out: &mut impl Write) -> Result<()> {
    let Args { file, doc } = args;
    let (request, output) = (file.request(), &file.output);
    if file.to_stdout() {
        let bytes = on_document(data_dir, doc, async |engine, id| {
            engine.render_of(id, request).await
        })?;
        out.write_all(&bytes)?;
        out.flush()?;
        return Ok(());
    }
    let (doc, bytes) = on_document(data_dir, doc, async |engine, id| {
        Ok((id, engine.export_to(id, request, output, file.force).await?))
    })?;
    if file.json {
        print_json(
            &mut *out,
            &json!({"id": doc, "path": output.display().to_string(), "bytes": bytes}),
        )?;
    } else {
        writeln!(out, "Exported to {}", output.display())?;
    }
    Ok(())
}
