//! `redline theme list`: the designs a resume can be shown in (`redline export --template NAME`), each with
//! its name, label and look.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Subcommand;

use super::{bare, plain, print};

/// What to do with the designs.
#[derive(Debug, Subcommand)]
pub enum Action {
    /// List every design: its name, label and look, and whether it is built in.
    List {
        /// Print one JSON array of {"name", "label", "description", "builtIn"}.
        #[arg(long)]
        json: bool,
    },
}

/// Carries out `action`.
pub fn run(data_dir: &Path, action: Action, out: &mut impl Write) -> Result<()> {
    match action {
        Action::List { json } => list(data_dir, json, out),
    }
}

fn list(data_dir: &Path, json: bool, out: &mut impl Write) -> Result<()> {
    let (_runtime, engine) = bare(data_dir)?;
    let designs = engine.designs();
    print(out, json, &serde_json::to_value(&designs)?, |out| {
        for d in &designs {
            let whose = if d.built_in { "built in" } else { "yours" };
            writeln!(
                out,
                "{:<12} {} — {} ({whose})",
                d.name,
                plain(&d.label),
                plain(&d.description)
            )?;
        }
        Ok(())
    })
}
