//! `redline letter new --posting FILE`: a cover letter for a job posting, written by the model through the
//! same turn as a resume's edits, and kept as a document of its own that belongs to a resume. `redline show
//! --doc ID` and `redline export --doc ID` then work on it as on a resume; `redline undo`, `history` and
//! `held` too.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::chat::TurnEvent;
use redline_engine::{Engine, ErrorKind};
use serde_json::json;

use super::chat::Server;
use super::{Terminal, failed, plain};
use crate::fail;

/// What `redline letter` does.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Write a new cover letter for a job posting: the model drafts it from your resume and the posting
    /// only (a fact in neither waits for you: `redline held --doc ID`). Prints the new letter's id and
    /// revision.
    New {
        /// The job posting as text; `-` reads it from standard input.
        #[arg(long, value_name = "FILE")]
        posting: PathBuf,
        /// The resume the letter belongs to (its sender); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        #[command(flatten)]
        server: Server,
        /// Print one JSON object: `{"id", "revision", "held", "warnings"}`.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(data_dir: &Path, action: Action) -> Result<()> {
    let Action::New {
        posting,
        doc,
        server,
        json,
    } = action;
    let text = read_text(
        &posting,
        "the posting",
        redline_engine::MAX_DESCRIPTION_BYTES,
    )?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let engine = Engine::start_bare(data_dir.to_owned());
    let written = runtime.block_on(async {
        let mut out = Terminal(std::io::stdout());
        let mut emit = |event: &TurnEvent| {
            if !json {
                let _ = said(&mut out, event);
            }
        };
        let letter = engine.new_letter(&text, doc, server.choice(), &mut emit);
        tokio::pin!(letter);
        loop {
            tokio::select! {
                end = &mut letter => break end,
                Ok(()) = tokio::signal::ctrl_c() => {
                    engine.stop();
                }
            }
        }
    });
    let written = written.map_err(failed)?;
    let outcome = written.end.result.as_ref().ok();
    let held: usize = outcome
        .map(|o| o.held.iter().map(|h| h.ops.len()).sum())
        .unwrap_or_default();
    let warnings = outcome.map(|o| o.warnings.clone()).unwrap_or_default();
    let mut out = Terminal(std::io::stdout().lock());
    if json {
        serde_json::to_writer_pretty(
            &mut out,
            &json!({"id": written.id, "revision": written.revision, "held": held, "warnings": warnings}),
        )?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "\nLetter {} is at revision {} (`redline show --doc {}`, `redline export --doc {} --format text -o -`).",
        written.id, written.revision, written.id, written.id
    )?;
    if held > 0 {
        writeln!(
            out,
            "{held} edit(s) wait for you: `redline held --doc {}` lists them.",
            written.id
        )?;
    }
    Ok(())
}

/// One event of the turn, in words.
fn said(out: &mut impl Write, event: &TurnEvent) -> std::io::Result<()> {
    match event {
        TurnEvent::Chat { text } => write!(out, "{text}")?,
        TurnEvent::Committed { revision, summary } => {
            writeln!(out, "\n  committed revision {revision}: {}", plain(summary))?
        }
        TurnEvent::Refused { reason, .. } => writeln!(out, "\n  refused: {}", plain(reason))?,
        TurnEvent::Warning { text } => writeln!(out, "\n  ! {}", plain(text))?,
        TurnEvent::Held { held } => {
            for line in &held.descriptions {
                writeln!(out, "  held, not applied: {}", plain(line))?;
            }
        }
        _ => {}
    }
    out.flush()
}

/// The text of `file` (standard input for `-`), called `what` in errors: at most `limit` bytes (one more is
/// read, to refuse a longer one in words), and UTF-8.
pub(crate) fn read_text(file: &Path, what: &str, limit: usize) -> Result<String> {
    use std::io::Read;
    let take = limit as u64 + 1;
    let mut bytes = Vec::new();
    let read = match file.as_os_str() == "-" {
        true => std::io::stdin().lock().take(take).read_to_end(&mut bytes),
        false => std::fs::File::open(file).and_then(|f| f.take(take).read_to_end(&mut bytes)),
    };
    read.map_err(|e| {
        let kind = match e.kind() {
            std::io::ErrorKind::NotFound => ErrorKind::NotFound,
            _ => ErrorKind::Internal,
        };
        fail(kind, format!("cannot read {what} {}: {e}", file.display()))
    })?;
    if bytes.len() > limit {
        return Err(fail(
            ErrorKind::Refused,
            format!(
                "{what} {} is larger than {} KB; nothing was done",
                file.display(),
                limit / 1024
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        fail(
            ErrorKind::Refused,
            format!("{what} {} is not text", file.display()),
        )
    })
}
