//! Sync as `redline sync` runs it (a new engine each time, as each command is a new process), for a resume
//! with 100 and with 10,000 revisions (`redline_testkit::year`) in the same run: the first sync that sends
//! the whole history, the first sync of a new device that brings it in (goal: at most 2 s at 10,000), an
//! incremental sync of one edit on each side (its cost should grow with what changed, not with the
//! history), and the files and bytes written per revision. Release build; wall time, p50 over the runs.
//!
//! `cargo bench -p redline-engine --bench sync`

use std::path::Path;
use std::time::{Duration, Instant};

use redline_engine::Engine;
use redline_store::{Change, Source, Store};

/// Incremental syncs timed, per side.
const RUNS: usize = 15;

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn p50(mut took: Vec<Duration>) -> Duration {
    took.sort_unstable();
    took[took.len() / 2]
}

/// One `redline sync`-like run on `data`: a fresh engine, one sync; its time and what it wrote.
fn sync(
    runtime: &tokio::runtime::Runtime,
    data: &Path,
    folder: Option<&Path>,
) -> (Duration, usize, u64) {
    let start = Instant::now();
    let engine = Engine::start_bare(data.to_owned());
    let summary = runtime
        .block_on(async {
            match folder {
                Some(folder) => engine.sync_through_folder(folder).await,
                None => engine.sync_now().await,
            }
        })
        .expect("the sync runs");
    (start.elapsed(), summary.written, summary.bytes_written)
}

/// An edit by hand on the first resume of `data`, committed as the window commits one.
fn edit(data: &Path, i: usize) {
    let mut store = Store::open(data).unwrap();
    let id = store
        .list()
        .unwrap()
        .iter()
        .find(|d| d.title == "Resume 0")
        .unwrap()
        .id;
    let head = store.head(id).unwrap();
    let ops = serde_json::json!([
        {"op": "replace", "path": "/basics/label", "value": format!("Engineer, edit {i}")}
    ]);
    let patch: json_patch::Patch = serde_json::from_value(ops).unwrap();
    store
        .commit(id, Change::new(head.number, Source::User, patch))
        .unwrap();
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for revisions in [100u64, 10_000] {
        let root = tempfile::tempdir().unwrap();
        let (a, b, folder) = (
            root.path().join("a"),
            root.path().join("b"),
            root.path().join("cloud"),
        );
        std::fs::create_dir_all(&folder).unwrap();
        redline_testkit::year::generate(&a, 1, revisions, 0).unwrap();

        let (sent, files, bytes) = sync(&runtime, &a, Some(&folder));
        let (onto_new, _, _) = sync(&runtime, &b, Some(&folder));
        let (mut on_a, mut on_b) = (Vec::new(), Vec::new());
        for i in 0..RUNS {
            edit(&a, i);
            on_a.push(sync(&runtime, &a, None).0);
            on_b.push(sync(&runtime, &b, None).0);
        }
        let all = revisions + 10; // and the short resume's
        println!(
            "{revisions:>6} revisions: first sync out {}, onto a new device {}; one edit: sent p50 {}, \
             taken p50 {}; {files} files, {:.0} bytes a revision",
            ms(sent),
            ms(onto_new),
            ms(p50(on_a)),
            ms(p50(on_b)),
            bytes as f64 / all as f64
        );
    }
}
