//! The revision store's costs, on real SQLite files in a temporary folder with `synchronous=FULL`:
//!
//! - commit latency of a small edit (p50/p99 over 1,000 commits, then criterion);
//! - 10,000 small-edit revisions of the sample resume: bytes on disk against a full copy per revision;
//! - checking out an arbitrary revision among those 10,000 (p50/p99 over 2,000 random picks, then
//!   criterion), beside reading the head in the same run.
//!
//! A "small edit" is what a person or the model does most: a keyword renamed, added or removed, a title
//! or a date changed, a highlight's wording touched. `REDLINE_BENCH_NO_REPORT` skips the printed report.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use redline_store::{Change, Source, Store};
use serde_json::{Value, json};

const REVISIONS: u64 = 10_000;

/// The `i`th small edit of a sequence that keeps the sample valid and never empties a list.
fn small_edit(doc: &Value, i: u64) -> Value {
    let keywords = doc["skills"][0]["keywords"].as_array().map_or(0, Vec::len);
    let word = |i: u64| format!("skill-{}", i % 997);
    match i % 6 {
        0 => json!([{"op": "replace", "path": "/skills/0/keywords/0", "value": word(i)}]),
        1 => json!([{"op": "add", "path": "/skills/0/keywords/-", "value": word(i)}]),
        2 if keywords > 2 => {
            json!([{"op": "remove", "path": format!("/skills/0/keywords/{}", keywords - 1)}])
        }
        3 => {
            json!([{"op": "replace", "path": "/work/0/position", "value": format!("Engineer {}", i % 13)}])
        }
        4 => {
            json!([{"op": "replace", "path": "/work/0/startDate", "value": format!("20{:02}-0{}-01", 10 + i % 9, 1 + i % 9)}])
        }
        _ => {
            json!([{"op": "replace", "path": "/basics/label", "value": format!("Programmer ({})", i % 7)}])
        }
    }
}

fn commit_edit(
    store: &mut Store,
    id: i64,
    head: &mut Value,
    number: &mut u64,
    i: u64,
) -> std::time::Duration {
    let ops = serde_json::from_value(small_edit(head, i)).unwrap();
    let start = Instant::now();
    let committed = store
        .commit(id, Change::new(*number, Source::User, ops))
        .unwrap();
    let took = start.elapsed();
    *head = committed.document;
    *number = committed.info.number;
    took
}

fn percentile(sorted: &[u128], p: f64) -> u128 {
    sorted[((p / 100.0) * (sorted.len() - 1) as f64).round() as usize]
}

fn database_bytes(store: &Store) -> u64 {
    // Everything on disk: the database and its write-ahead log (empty after a checkpoint).
    let db = std::fs::metadata(store.path()).map_or(0, |m| m.len());
    let wal = std::fs::metadata(store.path().with_extension("db-wal")).map_or(0, |m| m.len());
    db + wal
}

fn report() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let sample = redline_resume::sample();
    let full_copy = serde_json::to_string(&sample).unwrap().len() as u64;
    let id = store.import("Sample", &sample).unwrap();
    let (mut head, mut number) = (sample, 1);

    let mut commits: Vec<u128> = (0..1000)
        .map(|i| commit_edit(&mut store, id, &mut head, &mut number, i).as_micros())
        .collect();
    commits.sort_unstable();
    println!(
        "commit (synchronous=FULL, WAL), 1000 small edits: p50 {} µs, p99 {} µs",
        percentile(&commits, 50.0),
        percentile(&commits, 99.0)
    );

    for i in 1000..REVISIONS - 1 {
        commit_edit(&mut store, id, &mut head, &mut number, i);
    }
    assert_eq!(number, REVISIONS);
    store.checkpoint().unwrap();
    let bytes = database_bytes(&store);
    if let Ok(path) = std::env::var("REDLINE_BENCH_KEEP_DB") {
        std::fs::copy(store.path(), path).unwrap();
    }
    println!(
        "{REVISIONS} revisions: {bytes} bytes on disk vs {} for a full copy per revision ({full_copy} bytes each) = {:.2}%",
        full_copy * REVISIONS,
        100.0 * bytes as f64 / (full_copy * REVISIONS) as f64
    );

    let mut pick = 0x2545_f491_4f6c_dd1d_u64;
    let mut checkouts: Vec<u128> = (0..2000)
        .map(|_| {
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let n = 1 + pick % REVISIONS;
            let start = Instant::now();
            black_box(store.checkout(id, n).unwrap());
            start.elapsed().as_micros()
        })
        .collect();
    checkouts.sort_unstable();
    println!(
        "checkout of a random revision among {REVISIONS}: p50 {} µs, p99 {} µs, max {} µs",
        percentile(&checkouts, 50.0),
        percentile(&checkouts, 99.0),
        checkouts.last().unwrap()
    );
}

fn benches(c: &mut Criterion) {
    if std::env::var_os("REDLINE_BENCH_NO_REPORT").is_none() {
        report();
    }
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let sample = redline_resume::sample();
    let id = store.import("Sample", &sample).unwrap();
    let (mut head, mut number) = (sample, 1);
    for i in 0..REVISIONS - 1 {
        commit_edit(&mut store, id, &mut head, &mut number, i);
    }
    let mut group = c.benchmark_group("store");
    group.sample_size(30);
    group.bench_function("head_of_10k", |b| b.iter(|| store.head(id).unwrap()));
    let mut n = 0;
    group.bench_function("checkout_any_of_10k", |b| {
        b.iter(|| {
            n = (n + 7919) % REVISIONS;
            store.checkout(id, n + 1).unwrap()
        })
    });
    let mut i = REVISIONS; // edits unlike those before (an edit that changes nothing is refused)
    group.bench_function("commit_small_edit_full_sync", |b| {
        b.iter(|| {
            i += 1;
            commit_edit(&mut store, id, &mut head, &mut number, i)
        })
    });
    group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
