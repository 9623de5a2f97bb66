//! `redline chat` and `redline demo`: one AI turn in the terminal, readable or as JSON lines.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use redline_agent::fixtures::Fixture;
use redline_agent::{ProviderConfig, ReplayServer, Turn, TurnEvent};
use redline_patch::{Policy, Surface, SurfaceUpdate};
use redline_store::Store;

use super::document;
use redline_agent::OsKeychain;
use serde_json::json;
use tokio_util::sync::CancellationToken;

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
    /// The saved provider, with the environment and then these flags on top.
    pub fn config(self, store: &Store) -> Result<ProviderConfig> {
        let Server {
            base_url,
            model,
            patch_model,
        } = self;
        Ok(redline_agent::settings::resolve(
            store,
            &OsKeychain,
            |settings| settings.choose(base_url, model, patch_model),
        )?)
    }
}

/// `redline chat`: the saved provider, with the environment and then the flags on top.
pub fn run(store: &mut Store, args: Args) -> Result<()> {
    let Args {
        message,
        doc,
        server,
        json,
        new,
    } = args;
    let doc = if new {
        None
    } else {
        Some(document(&mut *store, doc)?)
    };
    let config = server.config(store)?;
    run_turn(&mut *store, doc, config, &message, json, None, false)?;
    Ok(())
}

/// Runs one turn for `message` on `doc` and prints it as it streams; with `always_review`, every edit
/// waits for the user (`redline held`) whatever review mode says.
pub fn run_turn(
    store: &mut Store,
    doc: Option<i64>,
    config: ProviderConfig,
    message: &str,
    json: bool,
    server: Option<ReplayServer>,
    always_review: bool,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let _server = server;
        let provider = redline_agent::settings::provider(store, config)?;
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                stop.cancel();
            }
        });
        // As in the window: review mode holds every edit for the user, and a tailored copy shows the
        // model its posting.
        let review =
            always_review || redline_engine::kept::review_mode(store).map_err(super::failed)?;
        let job = match doc {
            Some(id) => redline_engine::kept::job_of(store, id).map_err(super::failed)?,
            None => None,
        };
        let mut surface = Surface::new("cli");
        let mut out = super::Terminal(std::io::stdout());
        let mut emit = |event: TurnEvent| {
            let _ = print_event(&mut out, &event, json);
        };
        let result = Turn {
            store: &mut *store,
            document_id: doc,
            provider: &provider,
            surface: &mut surface,
            policy: Policy::default(),
            selected: None,
            cancel,
            stall: Duration::from_secs(3),
            job,
            review,
        }
        .run(message, &mut emit)
        .await;
        // What the server was found to take is kept for the next run (a failure costs one refused
        // request next time, not this turn).
        if let Err(e) = redline_agent::settings::remember(store, &provider, false) {
            eprintln!(
                "redline: could not keep what the server takes: {}",
                super::for_terminal(&e.to_string())
            );
        }
        if let (Ok(outcome), Some(id)) = (&result, result.as_ref().ok().and_then(|o| o.document_id))
        {
            // Edits held for the user wait for them (`redline held`, or the app) across runs.
            redline_engine::kept::keep_held(store, id, &outcome.held).map_err(super::failed)?;
        }
        finish(store, doc, result, json)
    })
}

/// Says how the turn ended: the revisions it committed, each operation in words (or one JSON line), and
/// what waits for the user; a failure in words, with the revision the resume stays at.
fn finish(
    store: &Store,
    doc: Option<i64>,
    result: Result<redline_agent::TurnOutcome, redline_agent::TurnError>,
    json: bool,
) -> Result<()> {
    let mut out = super::Terminal(std::io::stdout().lock());
    let doc = match &result {
        Ok(outcome) => outcome.document_id,
        Err(_) => doc,
    };
    let head = match doc {
        Some(doc) => store.document(doc)?.head_revision,
        None => 0,
    };
    match result {
        Ok(outcome) => {
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({"kind": "done", "document": doc, "revision": head, "committed": outcome.revisions, "warnings": outcome.warnings})
                )?;
            } else {
                writeln!(out)?;
                for n in &outcome.revisions {
                    writeln!(out, "✓ revision {n}:")?;
                    let Some(doc) = doc else { continue };
                    if *n == 1 {
                        writeln!(out, "    created document {doc}")?;
                        continue;
                    }
                    for op in store.diff(doc, n - 1, *n)?.iter() {
                        let op: redline_patch::Operation = op.into();
                        writeln!(out, "    {}", op.describe())?;
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
            }
            Ok(())
        }
        Err(error) => {
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({"kind": "failed", "document": doc, "revision": head, "error": error.to_string()})
                )?;
            }
            let exit = crate::Exit::from(error.kind());
            let message = match doc {
                Some(_) => format!("{error} (the resume stays at revision {head})"),
                None => format!("{error} (no resume was created)"),
            };
            Err(crate::fail(exit, message))
        }
    }
}

/// Plays the scripted demo through a replay server on 127.0.0.1, on a fresh copy of the sample resume.
pub fn demo(store: &mut Store, json: bool) -> Result<()> {
    let fixture: Fixture = redline_agent::fixtures::demo();
    let doc = redline_agent::fixtures::demo_document(store)?;
    if !json {
        println!(
            "DEMO — scripted answers from a local replay server: no model, no key, nothing leaves this machine."
        );
        println!(
            "It edits “{}” (document {doc}), a fresh copy of the sample resume.\n",
            redline_agent::fixtures::DEMO_TITLE
        );
        println!("you: {}\n", fixture.message);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (server, config) = runtime.block_on(redline_agent::fixtures::replay(
        &fixture,
        Duration::from_millis(12),
    ))?;
    // The server runs on its own runtime thread while the turn runs on another.
    std::thread::spawn(move || runtime.block_on(std::future::pending::<()>()));
    run_turn(
        store,
        Some(doc),
        config,
        &fixture.message,
        json,
        Some(server),
        false,
    )
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
