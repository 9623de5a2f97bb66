//! `redline theme list`: the designs a resume can be shown in (`redline export --template NAME`), each with
//! its name, label and look; `redline theme new NAME --from DESIGN`: a theme of your own, copied from a
//! built-in design into the data folder's `themes/` for you to change.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::{CommandFactory as _, Subcommand};
use redline_engine::{Engine, Template};

use super::{bare, failed, plain, print};
use crate::templates;

/// What to do with the designs.
#[derive(Debug, Subcommand)]
pub enum Action {
    /// List every design: its name, label and look, and whether it is built in.
    List {
        /// Print one JSON array of {"name", "label", "description", "builtIn"} ("problem" too, for a
        /// theme of your own that cannot be used).
        #[arg(long)]
        json: bool,
    },
    /// Make a theme of your own from a built-in design: a folder in the data folder's `themes/` with its
    /// manifest (theme.json) and Typst (main.typ), for you to change. `redline export --template NAME`
    /// then uses it.
    New {
        /// Its name: lower-case letters, digits and hyphens.
        name: String,
        /// The built-in design to start from.
        #[arg(long, value_name = "DESIGN", default_value = "classic", value_parser = templates())]
        from: Template,
        /// Print {"name", "path"}.
        #[arg(long)]
        json: bool,
    },
}

/// Carries out `action`.
pub fn run(data_dir: &Path, action: Action, out: &mut impl Write) -> Result<()> {
    match action {
        Action::List { json } => list(data_dir, json, out),
        Action::New { name, from, json } => {
            let (_runtime, engine) = bare(data_dir)?;
            let made = engine.new_theme(&name, from)?;
            print(out, json, &serde_json::to_value(&made)?, |out| {
                writeln!(out, "Made the theme {} in {}", made.name, made.path)?;
                writeln!(
                    out,
                    "Change its main.typ and theme.json; `redline export --format pdf --template {}` uses it.",
                    made.name
                )
            })
        }
    }
}

fn list(data_dir: &Path, json: bool, out: &mut impl Write) -> Result<()> {
    let (_runtime, engine) = bare(data_dir)?;
    let designs = engine.designs();
    print(out, json, &serde_json::to_value(&designs)?, |out| {
        for d in &designs {
            let whose = if d.built_in { "built in" } else { "yours" };
            match &d.problem {
                None => writeln!(
                    out,
                    "{:<12} {} — {} ({whose})",
                    d.name,
                    plain(&d.label),
                    plain(&d.description)
                )?,
                Some(problem) => writeln!(
                    out,
                    "{:<12} cannot be used: {} ({whose})",
                    d.name,
                    plain(problem)
                )?,
            }
        }
        Ok(())
    })
}

/// `redline render-theme REQUEST` (hidden): the child process that lays a theme of the user's own out
/// ([`redline_engine::themes`]).
pub fn render_theme(request: &Path) -> Result<()> {
    let pdf = redline_engine::themes::print_theme(request).map_err(failed)?;
    std::io::stdout().lock().write_all(&pdf)?;
    Ok(())
}

/// The usage error for `--template NAME` when NAME is neither a built-in design nor one of the user's
/// themes: clap's words and exit status, with every design there is.
pub fn unknown(engine: &Engine, name: &str) -> Result<()> {
    let designs = engine.designs();
    if designs
        .iter()
        .any(|d| d.name == name && d.problem.is_none())
    {
        return Ok(());
    }
    let names: Vec<&str> = designs.iter().map(|d| d.name.as_str()).collect();
    crate::Cli::command()
        .error(
            clap::error::ErrorKind::InvalidValue,
            format!(
                "invalid value '{name}' for '--template <T>'\n  [possible values: {}]",
                names.join(", ")
            ),
        )
        .exit()
}
