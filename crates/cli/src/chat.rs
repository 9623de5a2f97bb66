//! `redline chat` and `redline demo`: one AI turn in the terminal, readable or as JSON lines.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use redline_agent::fixtures::Fixture;
use redline_agent::{ProviderConfig, ReplayServer, Turn, TurnEvent};
use redline_patch::{Policy, Surface, SurfaceUpdate};
use redline_store::Store;
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// Runs one turn for `message` on `doc` and prints it as it streams.
pub fn run(
    store: &mut Store,
    doc: Option<i64>,
    config: ProviderConfig,
    message: &str,
    json: bool,
    server: Option<ReplayServer>,
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
        let mut surface = Surface::new("cli");
        let mut out = std::io::stdout();
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
            job: None,
            review: false,
        }
        .run(message, &mut emit)
        .await;
        // What the server was found to take is kept for the next run (a failure costs one refused
        // request next time, not this turn).
        if let Err(e) = redline_agent::settings::remember(store, &provider, false) {
            eprintln!("redline: could not keep what the server takes: {e}");
        }
        let mut out = std::io::stdout().lock();
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
                }
                Ok(())
            }
            Err(error) => {
                if json {
                    writeln!(out, "{}", json!({"kind": "failed", "document": doc, "revision": head, "error": error.to_string()}))?;
                }
                let exit = crate::Exit::from(error.kind());
                let message = match doc {
                    Some(_) => format!("{error} (the resume stays at revision {head})"),
                    None => format!("{error} (no resume was created)"),
                };
                Err(crate::fail(exit, message))
            }
        }
    })
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
    run(
        store,
        Some(doc),
        config,
        &fixture.message,
        json,
        Some(server),
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
                writeln!(out, "  held, not applied (outside what was asked): {line}")?;
            }
        }
    }
    out.flush()
}
