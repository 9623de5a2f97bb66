//! Sync as `redline sync` runs it (a new engine each time, as each command is a new process), for a resume
//! with 100 and with 10,000 revisions made after its first sync (edits by hand), in the same run: the sync
//! that sends that history, the first sync of a new device that brings it in (goal: at most 2 s at
//! 10,000), an incremental sync of one edit on each side (its cost should grow with what changed, not with
//! the history), and the files and bytes written per revision; then the same incremental syncs as the app
//! runs them, one engine kept for all (each pass goes on from the last one's replica), and as it runs them
//! while it watches the folder (the edit sent without reading the folder, the other side reading only the
//! file its watch saw arrive). Release build; wall time, p50 over the runs.
//!
//! Then a generated year of use (`redline_testkit::year`: ten resumes, one of 2,000 revisions and nine of
//! 1,000, with the model's bundles, undo runs, redos and restores among them), synced out and onto a new
//! device.
//!
//! `cargo bench -p redline-engine --bench sync`

use std::path::{Path, PathBuf};
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

/// One sync of the engine `engine`, kept between syncs as the app keeps it: its time.
fn timed(runtime: &tokio::runtime::Runtime, engine: &Engine) -> Duration {
    let start = Instant::now();
    runtime.block_on(engine.sync_now()).expect("the sync runs");
    start.elapsed()
}

/// `count` edits by hand on resume `id` of `data`, committed as the window commits them: a field rewritten
/// each time, one of three.
fn edit(data: &Path, id: i64, from: usize, count: usize) {
    let mut store = Store::open(data).unwrap();
    for i in from..from + count {
        let path = ["/basics/label", "/basics/summary", "/work/0/summary"][i % 3];
        let ops = serde_json::json!([{"op": "replace", "path": path,
            "value": format!("Revision {i} of this field, in a sentence of ordinary length.")}]);
        let patch: json_patch::Patch = serde_json::from_value(ops).unwrap();
        let head = store.head(id).unwrap().number;
        store
            .commit(id, Change::new(head, Source::User, patch))
            .unwrap();
    }
}

/// The event files of device `device` in the sync folder `folder`.
fn files_of(folder: &Path, device: &str) -> std::collections::HashSet<PathBuf> {
    let dir = folder.join(redline_engine::sync::SYNC_DIR).join(device);
    redline_testkit::files_under(&dir).into_iter().collect()
}

/// A generated year of use, synced out and onto a new device: the times, the files and bytes (a resume's
/// history before its first sync stays on its device: each goes out as its head), and whether the new
/// device has every resume as it was made.
fn year(runtime: &tokio::runtime::Runtime) {
    let (_root, a, b, folder) = redline_testkit::two_devices();
    let made = redline_testkit::year::generate(&a, 10, 2_000, 1_000).unwrap();
    let revisions: u64 = {
        let store = Store::open(&a).unwrap();
        made.documents
            .iter()
            .chain([&made.short])
            .map(|&id| store.head(id).unwrap().number)
            .sum()
    };
    let (out, files, bytes) = sync(runtime, &a, Some(&folder));
    let (onto_new, _, _) = sync(runtime, &b, Some(&folder));
    let heads = |data: &Path| -> Vec<(String, serde_json::Value)> {
        let store = Store::open(data).unwrap();
        let mut heads: Vec<_> = store
            .list()
            .unwrap()
            .into_iter()
            .map(|d| (d.title, store.head(d.id).unwrap().document))
            .collect();
        heads.sort_by(|x, y| x.0.cmp(&y.0));
        heads
    };
    let same = heads(&a) == heads(&b);
    println!(
        "a generated year ({} resumes, {revisions} revisions made before its first sync, which stay \
         here): first sync out {}, onto a new device {}; {files} files, {bytes} bytes; the new device \
         has every resume as made: {same}",
        made.documents.len() + 1,
        ms(out),
        ms(onto_new),
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    year(&runtime);
    for revisions in [100usize, 10_000] {
        let (_root, a, b, folder) = redline_testkit::two_devices();
        let id = Store::open(&a)
            .unwrap()
            .import("Resume 0", &redline_resume::sample())
            .unwrap();
        // The resume goes out once, then gains its history: every revision then travels.
        sync(&runtime, &a, Some(&folder));
        edit(&a, id, 0, revisions);

        let (sent, files, bytes) = sync(&runtime, &a, None);
        let (onto_new, _, _) = sync(&runtime, &b, Some(&folder));
        let (mut on_a, mut on_b) = (Vec::new(), Vec::new());
        for i in 0..RUNS {
            edit(&a, id, revisions + i, 1);
            on_a.push(sync(&runtime, &a, None).0);
            on_b.push(sync(&runtime, &b, None).0);
        }
        // The app: one engine a side, kept; its first pass builds the replica, the others go on from it.
        let (app_a, app_b) = (Engine::start_bare(a.clone()), Engine::start_bare(b.clone()));
        let (mut kept_a, mut kept_b) = (Vec::new(), Vec::new());
        for i in 0..=RUNS {
            edit(&a, id, revisions + RUNS + i, 1);
            let took_a = timed(&runtime, &app_a);
            let took_b = timed(&runtime, &app_b);
            if i > 0 {
                kept_a.push(took_a);
                kept_b.push(took_b);
            }
        }
        // The app as it runs while the folder is watched: the edit sent without reading the folder, the
        // other side reading only the file its watch saw arrive.
        let device_a = runtime.block_on(app_a.sync_status()).unwrap().device;
        let (mut watched_a, mut watched_b) = (Vec::new(), Vec::new());
        for i in 0..RUNS {
            let before = files_of(&folder, &device_a);
            edit(&a, id, revisions + 2 * RUNS + 1 + i, 1);
            let start = Instant::now();
            let sent = runtime.block_on(app_a.sync_if_changed()).unwrap();
            watched_a.push(start.elapsed());
            assert_eq!(sent.map(|s| s.written), Some(1));
            let appeared = files_of(&folder, &device_a)
                .into_iter()
                .filter(|p| !before.contains(p))
                .collect();
            let start = Instant::now();
            let taken = runtime.block_on(app_b.sync_appeared(appeared)).unwrap();
            watched_b.push(start.elapsed());
            assert_eq!(taken.read, 1);
        }
        println!(
            "{revisions:>6} revisions: first sync out {}, onto a new device {}; one edit: sent p50 {}, \
             taken p50 {}; in the app (engine kept): sent p50 {}, taken p50 {}; in the app, the folder \
             watched: sent p50 {}, taken p50 {}; {files} files, {:.0} bytes a revision",
            ms(sent),
            ms(onto_new),
            ms(p50(on_a)),
            ms(p50(on_b)),
            ms(p50(kept_a)),
            ms(p50(kept_b)),
            ms(p50(watched_a)),
            ms(p50(watched_b)),
            bytes as f64 / revisions as f64
        );
    }
}
