//! Two Redlines on one data folder at once (the app and the `redline` command line, or two starts of the
//! app): every write decides what it changes inside its own transaction, so that neither can act on what
//! the other has just changed.

use std::path::Path;
use std::sync::{Arc, Barrier};

use redline_store::{Change, Source, Store};
use serde_json::{Value, json};

const WRITERS: usize = 4;

/// Runs `work` on `WRITERS` threads, each with its own `Store` on `dir`, started together.
fn at_once<T: Send + 'static>(
    dir: &Path,
    work: impl Fn(Store) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let start = Arc::new(Barrier::new(WRITERS));
    let work = Arc::new(work);
    let threads: Vec<_> = (0..WRITERS)
        .map(|_| {
            let (dir, start, work) = (dir.to_owned(), start.clone(), work.clone());
            std::thread::spawn(move || {
                let store = Store::open(&dir).unwrap();
                start.wait();
                work(store)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// Forty changes taken back by four writers at once, ten undos each: each undo takes back a change of its
/// own, and the resume ends as it was imported. (With the target chosen before the write transaction, two
/// undos could both take back the newest change: the second then removed another skill, or failed.)
#[test]
fn undos_at_once_each_take_back_a_change_of_their_own() {
    for _round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let first = json!({"basics": {"name": "Ada"}, "skills": []});
        let doc = {
            let mut store = Store::open(dir.path()).unwrap();
            let doc = store.import("Ada", &first).unwrap();
            for n in 0..(WRITERS * 10) as u64 {
                let ops = serde_json::from_value(json!([
                    {"op": "add", "path": "/skills/-", "value": {"name": format!("skill {n}")}}
                ]))
                .unwrap();
                store
                    .commit(doc, Change::new(n + 1, Source::User, ops))
                    .unwrap();
            }
            doc
        };
        let results = at_once(dir.path(), move |mut store| {
            (0..10)
                .map(|_| store.undo(doc).map(|c| c.info.reverts))
                .collect::<Vec<_>>()
        });
        let mut reverted: Vec<u64> = Vec::new();
        for result in results.into_iter().flatten() {
            reverted.push(
                result
                    .expect("every undo finds a change to take back")
                    .unwrap(),
            );
        }
        reverted.sort_unstable();
        let expected: Vec<u64> = (2..=(WRITERS * 10) as u64 + 1).collect();
        assert_eq!(reverted, expected, "each change was taken back once");
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.head(doc).unwrap().document, first);
    }
}

/// Four processes' worth of stores opening one new, empty folder at once: the tables are made once and
/// the first-start resume is imported once.
#[test]
fn a_new_folder_opened_at_once_gets_one_first_resume() {
    for _round in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let first = || ("First".to_owned(), json!({"basics": {"name": "Ada"}}));
        let start = Arc::new(Barrier::new(WRITERS));
        let threads: Vec<_> = (0..WRITERS)
            .map(|_| {
                let (data, start) = (data.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    let mut store = Store::open(&data)?;
                    store.current_or_import(first).map(|d| d.id)
                })
            })
            .collect();
        let ids: Vec<i64> = threads
            .into_iter()
            .map(|t| t.join().unwrap().expect("every start opens the store"))
            .collect();
        assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
        let store = Store::open(&data).unwrap();
        let list = store.list().unwrap();
        assert_eq!(list.len(), 1, "one first resume, not one per start");
        let document: Value = store.head(list[0].id).unwrap().document;
        assert_eq!(document["basics"]["name"], "Ada");
    }
}

/// A title of any length is cut by the store, whoever writes it: an import, a variant, a rename.
#[test]
fn every_title_the_store_writes_is_at_most_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let long = "職".repeat(5_000);
    let doc = store.import(&long, &json!({"basics": {}})).unwrap();
    let variant = store.create_variant(doc, 1, &long).unwrap();
    store.rename(doc, &long).unwrap();
    for id in [doc, variant] {
        let title = store.document(id).unwrap().title;
        assert_eq!(
            title.chars().count(),
            redline_resume::MAX_TITLE_CHARS,
            "{id}"
        );
        assert!(title.ends_with('…'));
    }
}
