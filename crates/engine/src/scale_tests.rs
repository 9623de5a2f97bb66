//! The engine on a data folder as years of use leave it (`redline_testkit::year`): an action reads what
//! it reads on a short history.

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use redline_patch::Operation;

    use redline_testkit::year::generate;
    use serde_json::json;

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
        let engine = Engine::in_test_folder(dir.path());
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
