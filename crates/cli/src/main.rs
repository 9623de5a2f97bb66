//! `redline`: the headless command line of Redline.
//!
//! It runs the same engine on the same database as the desktop app, so what it shows is what the app
//! shows, and it works on a machine with no display. `--data-dir DIR` (or `REDLINE_DATA_DIR`) points it at
//! another data folder, which is how tests and scripts keep away from a user's real data.
//!
//! # Layout
//! - [`Cli`] and [`Command`]: the arguments, parsed by clap.
//! - [`run`]: opens the store and carries out one command.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use redline_store::{DATA_DIR_ENV, Store};

/// Redline: edit JSON Resume documents with AI, locally.
#[derive(Debug, Parser)]
#[command(name = "redline", version, about, long_about = None)]
struct Cli {
    /// The data folder (default: the desktop app's own, in the OS app-data folder).
    #[arg(long, global = true, env = DATA_DIR_ENV, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a resume as JSON (by default the current one, at its head revision).
    Show {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// A revision number; default: the head.
        #[arg(long, value_name = "N")]
        revision: Option<u64>,
    },
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("redline: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let data_dir = redline_store::resolve_data_dir(cli.data_dir).context(
        "cannot tell where your data folder is; pass --data-dir DIR or set REDLINE_DATA_DIR",
    )?;
    let mut store = Store::open(&data_dir)?;
    match cli.command {
        Command::Show { doc, revision } => {
            let doc = match doc {
                Some(id) => id,
                None => store.current_or_import(redline_resume::first_resume)?.id,
            };
            let revision = match revision {
                Some(n) => store.checkout(doc, n)?,
                None => store.head(doc)?,
            };
            let mut out = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &revision.document)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
