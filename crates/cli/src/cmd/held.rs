//! `redline held [accept|reject] [N|--all]`: the edits held for your confirmation on a resume — ones the
//! model made outside what was asked, contact details, or every AI edit in review mode — listed in words,
//! numbered, each with what the writing checks find in it (`redline lint`'s findings that it would bring);
//! accepted (each as one revision) or rejected (not offered again).

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Subcommand;
use redline_engine::Held;
use redline_engine::lint::Finding;
use serde_json::json;

use super::{engine, failed, plain, print};
use crate::fail;
use redline_engine::ErrorKind;

#[derive(Debug, Subcommand)]
pub enum Action {
    /// List them, numbered (the default).
    List,
    /// Apply held edit N (see `redline held`), or all of them, as revisions of their own.
    Accept {
        /// The number `redline held` shows.
        #[arg(required_unless_present = "all")]
        number: Option<usize>,
        /// Every held edit, bundle by bundle.
        #[arg(long, conflicts_with = "number")]
        all: bool,
    },
    /// Drop held edit N, or all of them: they are not offered again.
    Reject {
        /// The number `redline held` shows.
        #[arg(required_unless_present = "all")]
        number: Option<usize>,
        /// Every held edit.
        #[arg(long, conflicts_with = "number")]
        all: bool,
    },
}

/// One held operation, numbered from 1 across the bundles, as its own `Held`.
fn numbered(all: &[Held]) -> Vec<Held> {
    all.iter()
        .flat_map(|bundle| {
            bundle
                .ops
                .iter()
                .zip(&bundle.descriptions)
                .map(|(op, description)| Held {
                    ops: vec![op.clone()],
                    descriptions: vec![description.clone()],
                    ..bundle.clone()
                })
        })
        .collect()
}

pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    action: Option<Action>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (runtime, engine) = engine(data_dir, doc)?;
    let doc = runtime
        .block_on(engine.state())
        .map_err(failed)?
        .document_id;
    let all = runtime.block_on(engine.held()).map_err(failed)?;
    let one = |number: usize| -> Result<Held> {
        numbered(&all)
            .into_iter()
            .nth(number.wrapping_sub(1))
            .ok_or_else(|| {
                fail(
                    ErrorKind::NotFound,
                    format!("no held edit {number} on resume {doc}: `redline held` lists them"),
                )
            })
    };
    let (accept, number) = match action.unwrap_or(Action::List) {
        Action::List => {
            // Edits that no longer fit the resume are still listed (accepting them says why), with no findings.
            let findings: Vec<Vec<Finding>> = all
                .iter()
                .flat_map(|bundle| {
                    runtime
                        .block_on(engine.held_findings(bundle))
                        .unwrap_or_else(|_| vec![Vec::new(); bundle.ops.len()])
                })
                .collect();
            return list(out, doc, &all, &findings, json);
        }
        Action::Accept { number, .. } => (true, number),
        Action::Reject { number, .. } => (false, number),
    };
    let chosen = match number {
        Some(n) => vec![one(n)?],
        None if all.is_empty() => {
            return Err(fail(
                ErrorKind::NotFound,
                format!("nothing is held on resume {doc}"),
            ));
        }
        None => all.clone(),
    };
    let mut revisions = Vec::new();
    for held in &chosen {
        if accept {
            let n = runtime
                .block_on(engine.apply_held(held.clone(), &mut |_| {}))
                .map_err(failed)?;
            revisions.push(n);
        } else {
            runtime
                .block_on(engine.discard_held(held))
                .map_err(failed)?;
        }
    }
    let count: usize = chosen.iter().map(|h| h.ops.len()).sum();
    let value = json!({"id": doc, "accepted": accept, "edits": count, "revisions": revisions});
    print(out, json, &value, |out| match accept {
        true => writeln!(
            out,
            "Applied {count} held edit(s) to resume {doc}: revision(s) {}.",
            revisions
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        false => writeln!(out, "Dropped {count} held edit(s) on resume {doc}."),
    })
}

/// The held edits, numbered, each with `findings`, what the writing checks find in it (in their order).
fn list(
    out: &mut impl Write,
    doc: i64,
    all: &[Held],
    findings: &[Vec<Finding>],
    json: bool,
) -> Result<()> {
    let rows: Vec<_> = numbered(all)
        .iter()
        .enumerate()
        .map(|(i, held)| {
            json!({
                "number": i + 1,
                "description": held.descriptions[0],
                "base": held.base,
                "proposal": held.proposal,
                "op": held.ops[0],
                "findings": findings.get(i).map_or(&[][..], Vec::as_slice),
            })
        })
        .collect();
    print(out, json, &json!({"id": doc, "held": rows}), |out| {
        if rows.is_empty() {
            return writeln!(out, "Nothing is held on resume {doc}.");
        }
        for (j, row) in rows.iter().enumerate() {
            let found = findings.get(j).map_or(&[][..], Vec::as_slice);
            writeln!(
                out,
                "{:>3}. {}{}",
                row["number"].as_u64().unwrap_or_default(),
                plain(row["description"].as_str().unwrap_or_default()),
                if row["proposal"] == true {
                    "  (proposed in review mode)"
                } else {
                    ""
                }
            )?;
            for finding in found {
                writeln!(out, "       {}", super::lint::line(finding))?;
            }
        }
        writeln!(
            out,
            "`redline held accept N` applies one, `redline held reject N` drops it (or --all)."
        )
    })
}
