//! Years of use on one laptop: the engine's actions on a data folder of 100 resumes — one with 10,000
//! revisions, the rest with 1,000 (edits by hand, the model's bundles with their audit rows, undo runs,
//! redos, restores; `redline_testkit::year`) — each beside the same action on a resume with 10 revisions, in
//! the same run and the same folder. Release build, p50 and p99 over 100 runs; then the folder's bytes, and
//! what one edit by hand adds.
//!
//! `REDLINE_SCALE_DIR=DIR` keeps the generated folder there (and uses it again when it is there already);
//! `REDLINE_SCALE_SMALL=1` makes 10 resumes of 1,000 and one of 2,000 (for a quick look).

// A test (or benchmark) may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use redline_engine::Engine;
use redline_engine::ipc::HistoryQuery;
use redline_patch::Operation;
use redline_testkit::year::{Generated, generate};
use serde_json::json;

const RUNS: usize = 100;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((p / 100.0) * (sorted.len() - 1) as f64).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// p50 and p99 of `runs` runs of `action`.
fn timed(runs: usize, mut action: impl FnMut()) -> (Duration, Duration) {
    let mut took: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            action();
            start.elapsed()
        })
        .collect();
    took.sort_unstable();
    (percentile(&took, 50.0), percentile(&took, 99.0))
}

fn row(what: &str, long: (Duration, Duration), short: (Duration, Duration)) {
    println!(
        "{what:<28} p50 {:>9}  p99 {:>9}   | 10 revisions: p50 {:>9}  p99 {:>9}   ({:.2}× at p99)",
        ms(long.0),
        ms(long.1),
        ms(short.0),
        ms(short.1),
        long.1.as_secs_f64() / short.1.as_secs_f64()
    );
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| {
                    let meta = e.metadata().unwrap();
                    if meta.is_dir() {
                        folder_bytes(&e.path())
                    } else {
                        meta.len()
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

fn engine_on(dir: &Path) -> Engine {
    Engine::start_with(
        Some(dir.to_owned()),
        Arc::new(redline_agent::MemoryKeychain::default()),
    )
}

/// The generated folder (made now, or found where `REDLINE_SCALE_DIR` says) and what is in it.
fn year() -> (Option<tempfile::TempDir>, PathBuf, Generated) {
    let (documents, long, rest) = match std::env::var_os("REDLINE_SCALE_SMALL") {
        Some(_) => (10, 2_000, 1_000),
        None => (100, 10_000, 1_000),
    };
    let (temp, dir) = match std::env::var_os("REDLINE_SCALE_DIR") {
        Some(dir) => (None, PathBuf::from(dir)),
        None => {
            let temp = tempfile::tempdir().unwrap();
            let dir = temp.path().to_owned();
            (Some(temp), dir)
        }
    };
    let marker = dir.join("generated.json");
    if let Ok(text) = std::fs::read_to_string(&marker) {
        let made: serde_json::Value = serde_json::from_str(&text).unwrap();
        let generated = Generated {
            documents: serde_json::from_value(made["documents"].clone()).unwrap(),
            short: made["short"].as_i64().unwrap(),
        };
        println!("using the folder generated before in {}", dir.display());
        return (temp, dir, generated);
    }
    let start = Instant::now();
    let made = generate(&dir, documents, long, rest).unwrap();
    println!(
        "generated {documents} resumes ({long} revisions for one, {rest} for the others) and one of 10 in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    std::fs::write(
        &marker,
        json!({"documents": made.documents, "short": made.short}).to_string(),
    )
    .unwrap();
    (temp, dir, made)
}

fn report(runtime: &tokio::runtime::Runtime) {
    let (_keep, dir, made) = year();
    let long = made.documents[0];
    let bytes = folder_bytes(&dir);
    println!(
        "the data folder: {:.1} MB ({} documents)",
        bytes as f64 / 1e6,
        made.documents.len() + 1
    );

    // Opening the store (its header and schema read), and the whole check for comparison (after a crash,
    // weekly, on every backup's copy, `redline check`).
    let open = timed(20, || {
        black_box(redline_store::Store::open(&dir).unwrap());
    });
    let mut store = redline_store::Store::open(&dir).unwrap();
    let start = Instant::now();
    assert!(store.check().unwrap().is_empty());
    println!(
        "opening the store: p50 {}, p99 {}; the whole check (`redline check`): {}",
        ms(open.0),
        ms(open.1),
        ms(start.elapsed())
    );
    drop(store);

    let engine = engine_on(&dir);
    let mut emit = |_| {};
    // The list, against the same number of resumes with 10 revisions each.
    let list = timed(RUNS, || {
        black_box(runtime.block_on(engine.documents()).unwrap());
    });
    let small = tempfile::tempdir().unwrap();
    generate(small.path(), made.documents.len(), 10, 10).unwrap();
    let small_engine = engine_on(small.path());
    let small_list = timed(RUNS, || {
        black_box(runtime.block_on(small_engine.documents()).unwrap());
    });
    row("list (every resume)", list, small_list);

    // Opening a resume: the long one and the short one in turn.
    let mut opens = [Vec::new(), Vec::new()];
    for _ in 0..RUNS {
        for (i, id) in [long, made.short].into_iter().enumerate() {
            let start = Instant::now();
            runtime.block_on(engine.switch(id, &mut emit)).unwrap();
            opens[i].push(start.elapsed());
        }
    }
    let [long_open, short_open] = opens.map(|mut t| {
        t.sort_unstable();
        (percentile(&t, 50.0), percentile(&t, 99.0))
    });
    row("open a resume", long_open, short_open);

    // Edits, undos, a page and a search, on the long resume and the short one in turn, so that both
    // meet the same moments (the write-ahead log's checkpoints among them).
    let mut took: [[Vec<Duration>; 4]; 2] = Default::default();
    for n in 0..RUNS {
        for (i, id) in [long, made.short].into_iter().enumerate() {
            runtime.block_on(engine.switch(id, &mut emit)).unwrap();
            let head = runtime.block_on(engine.state()).unwrap().revision;
            let op: Operation = serde_json::from_value(
                json!({"op": "replace", "path": "/basics/label", "value": format!("Bench {n}")}),
            )
            .unwrap();
            let start = Instant::now();
            runtime
                .block_on(engine.edit(head, vec![op], &mut emit))
                .unwrap();
            took[i][0].push(start.elapsed());
            let start = Instant::now();
            runtime.block_on(engine.undo(&mut emit)).unwrap();
            took[i][1].push(start.elapsed());
            let start = Instant::now();
            black_box(
                runtime
                    .block_on(engine.history(&HistoryQuery::default()))
                    .unwrap(),
            );
            took[i][2].push(start.elapsed());
            // Words each history has once, at its start.
            let query = HistoryQuery {
                words: Some("IMPORTED".into()),
                ..HistoryQuery::default()
            };
            let start = Instant::now();
            let found = runtime.block_on(engine.history(&query)).unwrap();
            took[i][3].push(start.elapsed());
            assert_eq!(found.rows.len(), 1);
        }
    }
    let [long_took, short_took] = took.map(|actions| {
        actions.map(|mut t| {
            t.sort_unstable();
            (percentile(&t, 50.0), percentile(&t, 99.0))
        })
    });
    for (i, what) in [
        "an edit by hand",
        "undo",
        "the history's first page",
        "search the history by words",
    ]
    .iter()
    .enumerate()
    {
        row(what, long_took[i], short_took[i]);
    }
    drop(engine);

    // What one edit by hand adds to the database, write-ahead log checkpointed.
    let mut store = redline_store::Store::open(&dir).unwrap();
    store.checkpoint().unwrap();
    let database = dir.join(redline_store::DATABASE_FILE);
    // The file's size, and what of it is in use (pages on the free list are taken first by what comes next).
    let in_use = || -> u64 {
        let conn = rusqlite::Connection::open(&database).unwrap();
        let pragma = |name: &str| -> u64 {
            conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
                .unwrap()
        };
        (pragma("page_count") - pragma("freelist_count")) * pragma("page_size")
    };
    let before = std::fs::metadata(&database).unwrap().len();
    let used_before = in_use();
    let mut head = store.document(long).unwrap().head_revision;
    for n in 0..1000 {
        let ops = serde_json::from_value(
            json!([{"op": "replace", "path": "/work/0/position", "value": format!("Edit {n}")}]),
        )
        .unwrap();
        head = store
            .commit(
                long,
                redline_store::Change::new(head, redline_store::Source::User, ops).summary(
                    format!("Change the position of your job at Pied Piper to “Edit {n}”"),
                ),
            )
            .unwrap()
            .info
            .number;
    }
    store.checkpoint().unwrap();
    let after = std::fs::metadata(&database).unwrap().len();
    println!(
        "one edit by hand adds {:.0} bytes to the database's pages in use, {:.0} bytes to its file (1,000 edits, checkpointed)",
        (in_use() - used_before) as f64 / 1000.0,
        (after - before) as f64 / 1000.0
    );
    let backup = store.backup_now().unwrap();
    println!(
        "a backup: {:.1} MB (the database {:.1} MB); backups keep at most twice the newest or 64 MB",
        std::fs::metadata(&backup).unwrap().len() as f64 / 1e6,
        after as f64 / 1e6
    );
}

/// The data folder after `TURNS` AI turns through the replay server, each a rewritten summary and a
/// keyword added (or, past eight, the last taken out), as the chat makes them: revisions, chat messages and
/// the audit log's rows.
fn after_ai_turns(runtime: &tokio::runtime::Runtime) {
    const TURNS: usize = 1000;
    let dir = tempfile::tempdir().unwrap();
    // Kept for a look inside when the generated folder is kept.
    let keep =
        std::env::var_os("REDLINE_SCALE_DIR").map(|d| PathBuf::from(d).join("after-ai-turns"));
    let replies: Vec<redline_agent::Reply> = (0..TURNS)
        .flat_map(|turn| {
            let keyword = if turn % 10 < 8 {
                json!({"op": "add", "path": "/skills/0/keywords/-", "value": format!("Tool {turn}")})
            } else {
                json!({"op": "remove", "path": "/skills/0/keywords/4"})
            };
            [
                json!({"say": "On it.", "toolCall": {"name": "patch_resume", "arguments": {
                    "changes": "Tighten the summary; add a tool",
                    "targets": ["/basics/summary", "/skills/0/keywords"]}}}),
                json!({"patch": {"operations": [
                    {"op": "replace", "path": "/basics/summary",
                     "value": format!("Engineer of compression systems at scale, and of the teams that ship them (take {turn}).")},
                    keyword,
                ]}}),
                json!({"say": "Done."}),
            ]
        })
        .map(|r| serde_json::from_value(r).unwrap())
        .collect();
    let server = runtime
        .block_on(redline_agent::ReplayServer::start(
            replies,
            redline_agent::Pace::default(),
        ))
        .unwrap();
    let engine = engine_on(dir.path());
    runtime
        .block_on(engine.save_provider(redline_agent::ProviderSettings {
            preset: redline_agent::Preset::Custom,
            base_url: server.base_url(),
            chat_model: "replay-chat".into(),
            patch_model: "replay-patch".into(),
            ..redline_agent::ProviderSettings::default()
        }))
        .unwrap();
    let before = folder_bytes(dir.path());
    let mut emit = |_| {};
    let start = Instant::now();
    for turn in 0..TURNS {
        let done = runtime
            .block_on(engine.send(
                &format!("Tighten my summary and add a tool ({turn})."),
                None,
                &mut emit,
            ))
            .unwrap();
        assert_eq!(done.revisions.len(), 1, "turn {turn} saved one revision");
    }
    let took = start.elapsed();
    drop(engine);
    let store = redline_store::Store::open(dir.path()).unwrap();
    store.checkpoint().unwrap();
    drop(store);
    let after = folder_bytes(dir.path());
    if let Some(keep) = keep {
        let _ = std::fs::remove_dir_all(&keep);
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::copy(
            dir.path().join(redline_store::DATABASE_FILE),
            keep.join(redline_store::DATABASE_FILE),
        )
        .unwrap();
    }
    println!(
        "after {TURNS} AI turns (replay server, {:.1} ms a turn): the data folder {:.2} MB, from {:.2} MB: {:.0} bytes a turn",
        took.as_secs_f64() * 1000.0 / TURNS as f64,
        after as f64 / 1e6,
        before as f64 / 1e6,
        (after - before) as f64 / TURNS as f64
    );
}

fn benches(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    report(&runtime);
    after_ai_turns(&runtime);
    let dir = tempfile::tempdir().unwrap();
    let made = generate(dir.path(), 1, 1_000, 1_000).unwrap();
    let engine = engine_on(dir.path());
    let mut emit = |_| {};
    let mut group = c.benchmark_group("scale");
    group.sample_size(20);
    for (name, id) in [
        ("state_1000_revisions", made.documents[0]),
        ("state_10_revisions", made.short),
    ] {
        runtime.block_on(engine.switch(id, &mut emit)).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| runtime.block_on(engine.state()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(scale, benches);
criterion_main!(scale);
