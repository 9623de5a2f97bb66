//! `redline eval`: a suite of asks against the configured model, each on a fresh copy of its resume, each
//! result checked with no model (`redline_engine::chat::eval_ask`). The user's own resumes are never touched: every
//! ask runs in a throwaway store.

use std::io::{Read as _, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use redline_engine::chat::{EvalOutcome as Outcome, Suite, Totals};
use serde_json::json;

use super::plain;

const MAX_SUITE_BYTES: u64 = 8 << 20;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A suite of asks (JSON: {"asks": [{name, kind, single, message, selected, resume, expect, part,
    /// held, posting}]}; an ask with a posting writes a cover letter for it); default: the suite Redline
    /// ships.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Only the asks that change one field or one item.
    #[arg(long)]
    pub single: bool,
    /// Only the asks whose name holds this text.
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    #[command(flatten)]
    pub server: super::chat::Server,
    /// One JSON object: each ask's outcome and the totals.
    #[arg(long)]
    pub json: bool,
}

/// `redline eval`.
pub fn run(data_dir: &Path, args: Args, out: &mut impl Write) -> Result<()> {
    let suite: Suite = match &args.suite {
        Some(path) => {
            let mut text = String::new();
            redline_engine::open_regular(path, &path.display().to_string())
                .map_err(|e| crate::fail(e.kind(), e.to_string()))?
                .take(MAX_SUITE_BYTES + 1)
                .read_to_string(&mut text)
                .with_context(|| format!("cannot read the suite {}", path.display()))?;
            if text.len() as u64 > MAX_SUITE_BYTES {
                return Err(crate::fail(
                    redline_engine::ErrorKind::Refused,
                    format!(
                        "{} is larger than {} MB, far more than a suite of asks",
                        path.display(),
                        MAX_SUITE_BYTES >> 20
                    ),
                ));
            }
            serde_json::from_str(&text)
                .with_context(|| format!("{} is not a suite of asks", path.display()))?
        }
        None => Suite::shipped(),
    };
    let asks: Vec<_> = suite
        .asks
        .into_iter()
        .filter(|a| !args.single || a.single)
        .filter(|a| {
            args.only
                .as_ref()
                .is_none_or(|o| a.name.contains(o.as_str()))
        })
        .collect();
    let (runtime, engine) = super::bare(data_dir)?;
    let (config, learned) = runtime
        .block_on(engine.eval_setup(args.server.choice()))
        .map_err(super::failed)?;
    if !args.json {
        writeln!(
            out,
            "{} asks against {} (chat {}, patch {})",
            asks.len(),
            config.base_url,
            config.chat_model,
            config.patch_model
        )?;
    }
    let mut outcomes: Vec<Outcome> = Vec::new();
    for ask in &asks {
        let outcome = runtime
            .block_on(engine.eval_ask(&config, &learned, ask))
            .map_err(super::failed)?;
        if !args.json {
            line(out, &outcome)?;
        }
        outcomes.push(outcome);
    }
    let totals = Totals::of(&outcomes);
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &json!({"asks": outcomes, "totals": totals}))?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "passed {} of {} (single-field asks: {} of {}); invariants broken: {}; {:.0} s in all",
            totals.passed,
            totals.asks,
            totals.single_passed,
            totals.single,
            totals.broke,
            totals.seconds
        )?;
    }
    Ok(())
}

/// One ask's outcome on a line, and why it missed on the next.
fn line(out: &mut impl Write, o: &Outcome) -> Result<()> {
    let tokens = |n: Option<u64>| n.map_or("—".to_owned(), |n| n.to_string());
    writeln!(
        out,
        "{:<5} {:<34} {:<9} {:>6.1} s  in {:>5}  out {:>4}  {}",
        match (&o.broke, o.pass) {
            (Some(_), _) => "BROKE",
            (None, true) => "pass",
            (None, false) => "miss",
        },
        plain(&o.name),
        o.kind,
        o.seconds,
        tokens(o.tokens_in),
        tokens(o.tokens_out),
        o.asked
    )?;
    if let Some(why) = o.broke.as_ref().or(o.miss.as_ref()) {
        writeln!(out, "      {}", plain(why))?;
    }
    Ok(())
}
