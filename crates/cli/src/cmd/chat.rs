//! `redline chat` and `redline demo`: one AI turn in the terminal, readable or as JSON lines.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::Engine;
use redline_engine::Error;
use redline_engine::SurfaceUpdate;
use redline_engine::chat::{ChatAsk, ServerChoice, TurnEnd, TurnEvent};
use redline_engine::ipc::TidySource;
use serde_json::json;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to ask.
    pub message: String,
    /// The document's id (see `redline list`); default: the one changed last.
    #[arg(long, value_name = "ID")]
    pub doc: Option<i64>,
    #[command(flatten)]
    pub server: Server,
    /// One JSON object per line (chat deltas, surface messages), ending with the committed revision.
    #[arg(long)]
    pub json: bool,
    /// Start a new resume from the conversation (the model creates it) instead of editing one.
    #[arg(long, conflicts_with = "doc")]
    pub new: bool,
}

/// The server and models a command asks, over the saved provider (`redline chat`, `redline eval`).
#[derive(Debug, clap::Args)]
pub struct Server {
    /// An OpenAI-compatible base URL (default: OpenAI; e.g. http://127.0.0.1:11434/v1 for Ollama).
    #[arg(long, value_name = "URL", env = "REDLINE_BASE_URL")]
    pub base_url: Option<String>,
    /// The chat model.
    #[arg(long, value_name = "M", env = "REDLINE_MODEL")]
    pub model: Option<String>,
    /// The patch model (asked at a low temperature).
    #[arg(long, value_name = "M", env = "REDLINE_PATCH_MODEL")]
    pub patch_model: Option<String>,
}

impl Server {
    /// The choice as the engine takes it.
    pub fn choice(self) -> ServerChoice {
        ServerChoice {
            base_url: self.base_url,
            model: self.model,
            patch_model: self.patch_model,
        }
    }
}

/// `redline chat`: the saved provider, with the environment and then the flags on top.
pub fn run(data_dir: &Path, args: Args) -> Result<()> {
    let Args {
        message,
        doc,
        server,
        json,
        new,
    } = args;
    let ask = |document| ChatAsk {
        message,
        document,
        server: server.choice(),
    };
    turn(data_dir, json, async |engine, emit| {
        let document = match new {
            true => None,
            false => Some(engine.resolve(doc).await?),
        };
        engine.chat(ask(document), emit).await
    })
}

/// Tidies resume `doc`, just imported from the file `source` describes, with the saved provider, and
/// prints the turn as it streams: every edit waits for the user (`redline held`), and the file's text
/// is never taken for the user's own words.
pub fn tidy(data_dir: &Path, doc: i64, source: &TidySource, json: bool) -> Result<()> {
    turn(data_dir, json, async |engine, emit| {
        engine
            .tidy_chat(doc, source, ServerChoice::default(), emit)
            .await
    })
}

/// Plays the scripted demo through a replay server on 127.0.0.1, on a fresh copy of the sample resume.
pub fn demo(data_dir: &Path, json: bool) -> Result<()> {
    turn(data_dir, json, async |engine, emit| {
        let started = |doc: i64, message: &str| {
            if !json {
                println!(
                    "DEMO — scripted answers from a local replay server: no model, no key, nothing leaves this machine."
                );
                println!(
                    "It edits “{}” (document {doc}), a fresh copy of the sample resume.\n",
                    redline_engine::DEMO_TITLE
                );
                println!("you: {message}\n");
            }
        };
        engine.demo_chat(started, emit).await
    })
}

/// Starts the engine, runs the turn `run` starts with every event printed as it comes (Ctrl-C stops it
/// and rolls back its preview), and says how it ended.
fn turn(
    data_dir: &Path,
    json: bool,
    run: impl AsyncFnOnce(&Engine, &mut (dyn FnMut(&TurnEvent) + Send)) -> Result<TurnEnd, Error>,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let engine = Engine::start_bare(data_dir.to_owned());
    let end = runtime.block_on(async {
        let mut out = super::Terminal(std::io::stdout());
        let mut emit = |event: &TurnEvent| {
            let _ = print_event(&mut out, event, json);
        };
        let turn = run(&engine, &mut emit);
        tokio::pin!(turn);
        loop {
            tokio::select! {
                end = &mut turn => break end,
                Ok(()) = tokio::signal::ctrl_c() => {
                    engine.stop();
                }
            }
        }
    });
    finish(end.map_err(super::failed)?, json)
}

/// Says how the turn ended: the revisions it committed, each operation in words (or one JSON line), and
/// what waits for the user; a failure in words, with the revision the resume stays at.
fn finish(end: TurnEnd, json: bool) -> Result<()> {
    let mut out = super::Terminal(std::io::stdout().lock());
    let TurnEnd {
        document: doc,
        head,
        result,
        in_words,
    } = end;
    match result {
        Ok(outcome) => {
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({"kind": "done", "document": doc, "revision": head, "committed": outcome.revisions, "warnings": outcome.warnings})
                )?;
                return Ok(());
            }
            writeln!(out)?;
            for (n, ops) in &in_words {
                writeln!(out, "✓ revision {n}:")?;
                for op in ops {
                    writeln!(out, "    {op}")?;
                }
            }
            if outcome.revisions.is_empty() {
                writeln!(out, "The resume was not changed (revision {head}).")?;
            }
            let held: usize = outcome.held.iter().map(|h| h.ops.len()).sum();
            if held > 0 {
                writeln!(
                    out,
                    "{held} edit(s) wait for you: `redline held` lists them, `redline held accept N` applies one."
                )?;
            }
            Ok(())
        }
        Err(error) => {
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({"kind": "failed", "document": doc, "revision": head, "error": error.message})
                )?;
            }
            let message = match doc {
                Some(_) => format!("{error} (the resume stays at revision {head})"),
                None => format!("{error} (no resume was created)"),
            };
            Err(crate::fail(error.kind, message))
        }
    }
}

fn print_event(out: &mut impl Write, event: &TurnEvent, json: bool) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(event).unwrap_or_default())?;
        return out.flush();
    }
    match event {
        TurnEvent::Chat { text } => write!(out, "{text}")?,
        TurnEvent::Planning { changes, .. } => writeln!(out, "\n→ {changes}")?,
        TurnEvent::Surface {
            update: SurfaceUpdate::Patch(p),
        } if !p.ops.is_empty() => {
            for op in &p.ops {
                writeln!(out, "  {:?} {}", p.state, op.describe())?;
            }
        }
        TurnEvent::Surface { .. } => {}
        TurnEvent::Notice { notice } => writeln!(out, "  … {notice}")?,
        TurnEvent::Status { text } => writeln!(out, "  … {text}")?,
        TurnEvent::Committed { revision, summary } => {
            writeln!(out, "  committed revision {revision}: {summary}")?
        }
        TurnEvent::Refused { reason, retrying } => writeln!(
            out,
            "  refused: {reason}{}",
            if *retrying {
                " — asking the model again"
            } else {
                ""
            }
        )?,
        TurnEvent::Warning { text } => writeln!(out, "  ! {text}")?,
        TurnEvent::Held { held } => {
            for line in &held.descriptions {
                writeln!(out, "  held for your confirmation, not applied: {line}")?;
            }
        }
    }
    out.flush()
}
