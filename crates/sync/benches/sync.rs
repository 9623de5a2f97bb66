//! Sync's figures: the first sync of a document with 10,000 revisions onto a new device (goal: at most
//! 2 s), against 1,000 in the same run; an incremental sync of one edit after 100 and after 10,000
//! revisions (its cost must not grow with the history); files and bytes written per revision.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use redline_patch::Operation;
use redline_sync::{Body, Folder, FolderState, Replica, new_id, sync};
use serde_json::json;

fn resume() -> serde_json::Value {
    json!({
        "basics": {"name": "Ada Lovelace", "label": "Engineer", "summary": "Writes programs."},
        "work": [{"name": "Analytical Engines", "position": "Programmer", "summary": "Notes."}],
        "skills": [{"name": "Mathematics", "keywords": ["Analysis"]}]
    })
}

/// The `i`th revision of a generated history: a field rewritten, now and then a keyword added or taken
/// away (as many of each, so the resume keeps its size and the figures measure history, not size).
fn revision(i: usize) -> Vec<Operation> {
    let path = ["/basics/summary", "/work/0/summary", "/basics/label"][i % 3];
    let mut ops = vec![Operation::Replace {
        path: path.into(),
        value: json!(format!(
            "Revision {i} of this field, in a sentence of ordinary length."
        )),
    }];
    if i.is_multiple_of(10) {
        ops.push(Operation::Add {
            path: "/skills/0/keywords/-".into(),
            value: json!(format!("k{i}")),
        });
    }
    if i % 10 == 5 {
        ops.push(Operation::Remove {
            path: "/skills/0/keywords/0".into(),
        });
    }
    ops
}

fn edit(replica: &mut Replica, doc: &str, i: usize) {
    let body = Body::Edit {
        source: "user".into(),
        summary: format!("Edit {i}"),
        forward: revision(i),
    };
    replica.record(doc, body, 1_700_000_000 + i as i64).unwrap();
}

/// A folder holding one device's document with `revisions` revisions; the writer, its state and the doc.
struct History {
    dir: tempfile::TempDir,
    library: String,
    writer: Replica,
    folder: Folder,
    state: FolderState,
    doc: String,
}

fn history(revisions: usize) -> History {
    let dir = tempfile::tempdir().unwrap();
    let library = new_id();
    let folder = Folder::open(dir.path(), &library).unwrap();
    let mut writer = Replica::new(&new_id()).unwrap();
    let (doc, _) = writer.create("Ada", resume(), 1_700_000_000).unwrap();
    let mut state = FolderState::default();
    for i in 1..=revisions {
        edit(&mut writer, &doc, i);
    }
    let report = sync(&mut writer, &folder, &mut state).unwrap();
    let per = revisions as f64 + 1.0;
    println!(
        "{revisions} revisions: {} files, {} bytes written; per revision {:.2} files, {:.0} bytes",
        report.written,
        report.bytes_written,
        report.written as f64 / per,
        report.bytes_written as f64 / per
    );
    History {
        dir,
        library,
        writer,
        folder,
        state,
        doc,
    }
}

fn first_sync(c: &mut Criterion) {
    let mut group = c.benchmark_group("first sync onto a new device");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for revisions in [1_000, 10_000] {
        let h = history(revisions);
        group.bench_with_input(BenchmarkId::from_parameter(revisions), &h, |b, h| {
            b.iter(|| {
                let mut reader = Replica::new(&new_id()).unwrap();
                let folder = Folder::open(h.dir.path(), &h.library).unwrap();
                let mut state = FolderState::default();
                let report = sync(&mut reader, &folder, &mut state).unwrap();
                assert_eq!(report.accepted, revisions + 1);
                let merged = reader.merged(&h.doc).unwrap();
                assert_eq!(merged.landed, h.writer_landed());
                black_box(merged.document.clone())
            });
        });
    }
    group.finish();
}

impl History {
    fn writer_landed(&self) -> usize {
        (1..=self.revisions()).map(|i| revision(i).len()).sum()
    }

    fn revisions(&self) -> usize {
        self.writer.len() - 1
    }
}

fn incremental(c: &mut Criterion) {
    let mut group = c.benchmark_group("incremental sync of one edit");
    for revisions in [100, 10_000] {
        let mut h = history(revisions);
        let mut reader = Replica::new(&new_id()).unwrap();
        let reader_folder = Folder::open(h.dir.path(), &h.library).unwrap();
        let mut reader_state = FolderState::default();
        sync(&mut reader, &reader_folder, &mut reader_state).unwrap();
        let mut next = revisions + 1;
        group.bench_function(BenchmarkId::from_parameter(revisions), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    edit(&mut h.writer, &h.doc, next);
                    next += 1;
                    sync(&mut h.writer, &h.folder, &mut h.state).unwrap();
                    let start = Instant::now();
                    let report = sync(&mut reader, &reader_folder, &mut reader_state).unwrap();
                    reader.merged(&h.doc).unwrap();
                    spent += start.elapsed();
                    assert_eq!(report.read, 1);
                }
                spent
            });
        });
    }
    group.finish();
}

criterion_group!(benches, first_sync, incremental);
criterion_main!(benches);
