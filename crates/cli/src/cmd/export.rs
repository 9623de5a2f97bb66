//! `redline export`: PDF, Word, HTML, JSON Resume, Markdown or text, to a file (never over one unless `--force`)
//! or to standard output.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use redline_store::Store;
use serde_json::json;

use super::{document, print_json};
use redline_resume::export::{Format, Page, Template};

use crate::{Exit, fail, formats, pages, templates};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file format.
    #[arg(long, value_name = "FORMAT", value_parser = formats())]
    pub format: Format,
    /// The look (HTML and PDF).
    #[arg(long, value_name = "T", default_value = "classic", value_parser = templates())]
    pub template: Template,
    /// The paper size (HTML and PDF).
    #[arg(long, value_name = "SIZE", default_value = "a4", value_parser = pages())]
    pub page: Page,
    /// Where to write it (a file that exists is left alone unless --force); `-` writes to standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// The document's id (see `redline list`); default: the one changed last.
    #[arg(long, value_name = "ID")]
    pub doc: Option<i64>,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print where it was written and its size as one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(store: &mut Store, args: Args, out: &mut impl Write) -> Result<()> {
    let Args {
        format,
        template,
        page,
        output,
        doc,
        force,
        json,
    } = args;
    let to_stdout = output.as_os_str() == "-";
    if !to_stdout && output.exists() && !force {
        return Err(fail(
            Exit::Refused,
            format!(
                "{} already exists; nothing was written. Choose another name, or pass --force to replace it",
                output.display()
            ),
        ));
    }
    let doc = document(&mut *store, doc)?;
    let resume = store.head(doc)?.document;
    let bytes = redline_pdf::render(&resume, format, template, page)?;
    if to_stdout {
        out.write_all(&bytes)?;
        out.flush()?;
        return Ok(());
    }
    redline_resume::export::write_new(&output, &bytes, force).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                fail(
                    Exit::Refused,
                    format!(
                        "{} appeared while the export was being made; it was left alone and nothing was written",
                        output.display()
                    ),
                )
            } else {
                anyhow::anyhow!("cannot write {}: {e}", output.display())
            }
        })?;
    if json {
        print_json(
            &mut *out,
            &json!({"id": doc, "path": output.display().to_string(), "bytes": bytes.len()}),
        )?;
    } else {
        writeln!(out, "Exported to {}", output.display())?;
    }
    Ok(())
}
