//! A data folder as years of daily use leave it, for the engine's scale benchmark (`benches/scale.rs`)
//! and the test that keeps history from being replayed: documents made from the sample, each with a history of the
//! actions people take — edits by hand, the model's bundles (with their audit rows), undo runs, redos and
//! restores — written through the store as the app writes them.

use std::path::Path;

use redline_store::{Change, ModelCall, Outcome, Source, Store, StoreError};
use serde_json::{Value, json};

/// What [`generate`] made.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Every document, in the order made: the first has the long history.
    pub documents: Vec<i64>,
    /// A document with a short history (10 revisions), for the baseline.
    pub short: i64,
}

/// Makes `documents` resumes in the store at `dir`: the first with `long` revisions, the others with
/// `revisions` each, and one more with 10.
pub fn generate(
    dir: &Path,
    documents: usize,
    long: u64,
    revisions: u64,
) -> Result<Generated, StoreError> {
    let mut store = Store::open(dir)?;
    let sample = redline_resume::sample();
    let mut made = Vec::new();
    for d in 0..documents {
        let id = store.import(&format!("Resume {d}"), &sample)?;
        history(&mut store, id, if d == 0 { long } else { revisions })?;
        made.push(id);
    }
    let short = store.import("Short", &sample)?;
    history(&mut store, short, 10)?;
    store.checkpoint()?;
    Ok(Generated {
        documents: made,
        short,
    })
}

/// Adds actions to `id` until it has `revisions` revisions.
fn history(store: &mut Store, id: i64, revisions: u64) -> Result<(), StoreError> {
    let mut step = 0u64;
    loop {
        let head = store.head(id)?;
        if head.number >= revisions {
            return Ok(());
        }
        step += 1;
        let result = match step % 20 {
            0..=7 | 19 => {
                let (ops, summary) = by_hand(&head.document, step);
                store.commit(
                    id,
                    Change::new(head.number, Source::User, patch(ops)).summary(summary),
                )
            }
            8..=12 => {
                let ops = bundle(&head.document, step);
                let call = audit(head.number, &ops);
                store.commit(
                    id,
                    Change::new(head.number, Source::Ai, patch(ops))
                        .summary(format!("Tightened the wording ({step})"))
                        .model_call(call),
                )
            }
            13..=15 => store.undo(id),
            16..=17 => store.redo(id),
            _ => store.restore(id, head.number.saturating_sub(7).max(1)),
        };
        if let Err(e) = result
            && !e.is_nothing_to_do()
        {
            return Err(e);
        }
    }
}

fn patch(ops: Value) -> json_patch::Patch {
    serde_json::from_value(ops).expect("the generator writes RFC 6902")
}

/// One field changed by hand, and what the view would call it.
fn by_hand(doc: &Value, step: u64) -> (Value, String) {
    let word = |n: u64| format!("skill-{}", n % 997);
    match step % 4 {
        0 => (
            json!([{"op": "replace", "path": "/basics/label", "value": format!("Programmer ({step})")}]),
            format!("Change your title to “Programmer ({step})”"),
        ),
        1 => (
            json!([{"op": "replace", "path": "/work/0/position", "value": format!("Engineer {step}")}]),
            format!("Change the position of your job at Pied Piper to “Engineer {step}”"),
        ),
        2 => (
            json!([{"op": "replace", "path": "/skills/0/keywords/0", "value": word(step)}]),
            format!(
                "Change a keyword of your skill “Web Development” to “{}”",
                word(step)
            ),
        ),
        _ => {
            let dates = doc["work"][0]["startDate"].as_str().unwrap_or("2013-12-01");
            let next = if dates.ends_with("-01") {
                "2013-12-02"
            } else {
                "2013-12-01"
            };
            (
                json!([{"op": "replace", "path": "/work/0/startDate", "value": next}]),
                format!("Change the start of your job at Pied Piper to {next}"),
            )
        }
    }
}

/// A model's bundle: a keyword added (or, when there are many, the last one taken out), a highlight
/// reworded and the summary tightened.
fn bundle(doc: &Value, step: u64) -> Value {
    let keywords = doc["skills"][0]["keywords"].as_array().map_or(0, Vec::len);
    let keyword = if keywords > 8 {
        json!({"op": "remove", "path": format!("/skills/0/keywords/{}", keywords - 1)})
    } else {
        json!({"op": "add", "path": "/skills/0/keywords/-", "value": format!("Tool {step}")})
    };
    json!([
        keyword,
        {"op": "replace", "path": "/work/0/highlights/0",
         "value": format!("Led the team that built the compression engine, revision {step}")},
        {"op": "replace", "path": "/basics/summary",
         "value": format!("Engineer who ships: compression, distributed systems and teams ({step}).")},
    ])
}

/// The audit row of the model call that made `ops`, as the turn writes it: the request with the resume by
/// reference, the answer as the model wrote it.
fn audit(revision: u64, ops: &Value) -> ModelCall {
    let rules = format!("[the patch rules of Redline {}]", env!("CARGO_PKG_VERSION"));
    ModelCall {
        model: "replay-patch".into(),
        request: json!({
            "model": "replay-patch",
            "messages": [
                {"role": "system", "content": rules},
                {"role": "user", "content": format!(
                    "Resume (revision {revision}):\n[revision {revision} of this resume, in its history]\n\nRequested changes: tighten the wording\nTarget pointers: /work/0, /basics/summary\n")},
            ],
        })
        .to_string(),
        raw_output: json!({"operations": ops}).to_string(),
        outcome: Outcome::Committed,
        applied: ops.clone(),
        refused: json!([]),
        error: None,
    }
}
