//! `redline review [on|off]`: review mode, saved for the app and the command line alike. With it on, an AI
//! edit is held as a proposal (see `redline held`), not committed.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::ValueEnum;
use serde_json::json;

use super::{engine, failed, print};

/// `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// Every AI edit waits for your Accept.
    On,
    /// AI edits are committed as they come (the default).
    Off,
}

pub fn run(
    data_dir: &Path,
    switch: Option<Switch>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (runtime, engine) = engine(data_dir, None)?;
    let on = match switch {
        Some(switch) => runtime
            .block_on(engine.set_review(switch == Switch::On))
            .map_err(failed)?,
        None => runtime.block_on(engine.review()).map_err(failed)?,
    };
    print(out, json, &json!({ "review": on }), |out| match on {
        true => writeln!(
            out,
            "Review mode is on: AI edits wait for you (`redline held` lists them)."
        ),
        false => writeln!(out, "Review mode is off: AI edits are saved as they come."),
    })
}
