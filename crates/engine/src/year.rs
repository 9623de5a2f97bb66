//! A data folder as years of daily use leave it, for the scale benchmark (`benches/scale.rs`) and the test
//! that keeps history from being replayed: documents made from the sample, each with a history of the
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
        match result {
            Ok(_)
            | Err(
                StoreError::NothingToUndo(_)
                | StoreError::NothingToRedo(_)
                | StoreError::NoChange(_),
            ) => {}
            Err(e) => return Err(e),
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use redline_patch::Operation;

    use super::*;
    use crate::Engine;
    use crate::ipc::HistoryQuery;

    /// What one action on the document on screen reads, in rows SQLite hands the store.
    async fn rows_of<F: std::future::Future<Output = ()>>(
        rows: &AtomicU64,
        action: impl FnOnce() -> F,
    ) -> u64 {
        let before = rows.load(Ordering::Relaxed);
        action().await;
        rows.load(Ordering::Relaxed) - before
    }

    /// Every action the window takes on a document reads no more of a 1,000-revision history than twice
    /// what it reads of a 10-revision one: nothing replays or scans the history (a page of the history
    /// reads its page; showing an old revision replays what lies between it and the snapshot before it). Counted in rows, which do not depend on the machine; the times are the
    /// benchmark's (`cargo bench -p redline-engine --bench scale`).
    #[tokio::test]
    async fn an_action_on_a_long_history_reads_what_it_reads_on_a_short_one() {
        let dir = tempfile::tempdir().unwrap();
        let made = generate(dir.path(), 1, 1000, 1000).unwrap();
        let long = made.documents[0];
        let engine = Engine::start_with(
            Some(dir.path().to_owned()),
            Arc::new(redline_agent::MemoryKeychain::default()),
        );
        let rows: Arc<AtomicU64> = engine.open().unwrap().lock().await.store.count_rows();
        let mut emit = |_| {};
        let mut read = Vec::new();
        for id in [made.short, long] {
            let engine = &engine;
            let switch = rows_of(&rows, || async {
                engine.switch(id, &mut emit).await.unwrap();
            })
            .await;
            let state = rows_of(&rows, || async {
                engine.state().await.unwrap();
            })
            .await;
            let head = engine.state().await.unwrap().revision;
            let edit = rows_of(&rows, || async {
                let op: Operation = serde_json::from_value(
                    json!({"op": "replace", "path": "/basics/label", "value": format!("Edited {id}")}),
                )
                .unwrap();
                engine.edit(head, vec![op], &mut emit).await.unwrap();
            })
            .await;
            let undo = rows_of(&rows, || async {
                engine.undo(&mut emit).await.unwrap();
            })
            .await;
            let redo = rows_of(&rows, || async {
                engine.redo(&mut emit).await.unwrap();
            })
            .await;
            let page = rows_of(&rows, || async {
                let query = HistoryQuery {
                    limit: Some(5),
                    ..HistoryQuery::default()
                };
                assert_eq!(engine.history(&query).await.unwrap().rows.len(), 5);
            })
            .await;
            let search = rows_of(&rows, || async {
                let query = HistoryQuery {
                    words: Some("Imported".into()),
                    ..HistoryQuery::default()
                };
                assert_eq!(engine.history(&query).await.unwrap().rows.len(), 1);
            })
            .await;
            let revision = rows_of(&rows, || async {
                engine.revision(head).await.unwrap();
            })
            .await;
            read.push([switch, state, edit, undo, redo, page, search, revision]);
        }
        let names = [
            "open",
            "state",
            "edit",
            "undo",
            "redo",
            "history page",
            "search",
        ];
        let [short, long] = [read[0], read[1]];
        // An old revision is rebuilt from the snapshot before it: it and the one before it replay fewer
        // than `SNAPSHOT_EVERY` patches each, however long the history.
        let replayed = long[7];
        assert!(
            replayed <= 2 * (redline_store::SNAPSHOT_EVERY + 2),
            "a revision: {replayed} rows"
        );
        for (i, name) in names.iter().enumerate() {
            assert!(short[i] > 0, "{name} reads something");
            assert!(
                long[i] <= 2 * short[i],
                "{name}: {} rows on 1,000 revisions, {} on 10",
                long[i],
                short[i]
            );
        }
    }
}
