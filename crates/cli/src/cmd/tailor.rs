//! `redline tailor --posting FILE|-`: a copy of a resume tailored to a job posting — a variant linked to
//! the posting, with its own history — and the report of the posting's terms it has and lacks (computed
//! here, no model). `redline chat --doc ID` on the copy then shows the model the posting, as data.
//! `redline tailor --doc ID` with no posting prints the report of a copy made earlier.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::ipc::TailorView;

use super::{engine, failed, plain, print};
use crate::fail;
use redline_engine::ErrorKind;

pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    posting: Option<PathBuf>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (runtime, engine) = engine(data_dir, doc)?;
    let view = match posting {
        Some(file) => {
            let text = read_posting(&file)?;
            runtime.block_on(engine.tailor(&text, &mut |_| {})).map_err(failed)?
        }
        None => runtime
            .block_on(engine.tailoring())
            .map_err(failed)?
            .ok_or_else(|| {
                fail(
                    ErrorKind::NotFound,
                    "this resume is not tailored to a posting: `redline tailor --posting FILE` makes a copy that is",
                )
            })?,
    };
    print(out, json, &serde_json::to_value(&view)?, |out| {
        words(out, &view)
    })
}

/// The posting's text, from a file or standard input (`-`), read with the limit of any posting (one byte
/// over it is enough to refuse it in words).
fn read_posting(file: &Path) -> Result<String> {
    let limit = redline_engine::MAX_DESCRIPTION_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let read = match file.as_os_str() == "-" {
        true => std::io::stdin().lock().take(limit).read_to_end(&mut bytes),
        false => std::fs::File::open(file).and_then(|f| f.take(limit).read_to_end(&mut bytes)),
    };
    read.map_err(|e| {
        let kind = match e.kind() {
            std::io::ErrorKind::NotFound => ErrorKind::NotFound,
            _ => ErrorKind::Internal,
        };
        fail(
            kind,
            format!("cannot read the posting {}: {e}", file.display()),
        )
    })?;
    String::from_utf8(bytes).map_err(|_| {
        fail(
            ErrorKind::Refused,
            format!("{} is not text", file.display()),
        )
    })
}

fn words(out: &mut dyn Write, view: &TailorView) -> std::io::Result<()> {
    writeln!(
        out,
        "Resume {} is tailored to “{}”{}.",
        view.document_id,
        plain(&view.headline),
        view.master
            .as_deref()
            .map(|m| format!(" (made from “{}”)", plain(m)))
            .unwrap_or_default()
    )?;
    let (has, lacks): (Vec<_>, Vec<_>) = view.terms.iter().partition(|t| t.found);
    let list = |terms: &[&redline_engine::ipc::CoverageTerm]| {
        terms
            .iter()
            .map(|t| plain(&t.term))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(
        out,
        "It has {} of the posting's {} terms.",
        has.len(),
        view.terms.len()
    )?;
    if !has.is_empty() {
        writeln!(out, "  has:   {}", list(&has))?;
    }
    if !lacks.is_empty() {
        writeln!(out, "  lacks: {}", list(&lacks))?;
    }
    for change in &view.changes {
        writeln!(out, "  changed: {}", plain(change))?;
    }
    Ok(())
}
