//! Reader + stabilizer + preview application for a ~12 KB patch stream (`benches/data/patch-stream.json`:
//! rewrites of the sample resume's text fields, a new highlight, a new skill object, a text operation, a
//! removal and a test) in 5-byte chunks against the sample resume, and against a resume ten times larger.
//!
//! Printed first, from one measured pass each: the bytes of surface messages sent, beside what a naive
//! design sends (the whole current document after every chunk), and the CPU time per chunk (p50, p99).
//! Then criterion times the whole stream, with the reader alone as the baseline in the same run.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use redline_patch::{Output, Policy, Scope, Stabilizer, Status, Surface};
use redline_stream::Reader;
use serde_json::Value;

const STREAM: &[u8] = include_bytes!("data/patch-stream.json");
const CHUNK: usize = 5;

fn sample() -> Value {
    redline_resume::sample()
}

/// The sample with every section's items repeated ten times and the summary ten times as long.
fn ten_times_larger() -> Value {
    let mut doc = sample();
    for section in redline_resume::sections() {
        if let Some(items) = doc.get_mut(*section).and_then(Value::as_array_mut) {
            let copy = items.clone();
            for _ in 1..10 {
                items.extend(copy.iter().cloned());
            }
        }
    }
    let summary = doc["basics"]["summary"].as_str().unwrap().repeat(10);
    doc["basics"]["summary"] = Value::String(summary);
    doc
}

/// Runs `pass` on a stabilizer over `doc` at revision 1 (a user's turn, the default policy), at one `now`;
/// what it returned, and the surface after.
fn with_stabilizer<R>(
    doc: &Value,
    pass: impl FnOnce(&mut Stabilizer<'_>, Instant) -> R,
) -> (R, Surface) {
    let now = Instant::now();
    let mut surface = Surface::new("main");
    let mut stabilizer = Stabilizer::new(
        doc.clone(),
        1,
        Policy::default(),
        Scope::User,
        &mut surface,
        now,
    );
    let result = pass(&mut stabilizer, now);
    drop(stabilizer);
    (result, surface)
}

fn stabilize(doc: &Value) -> Surface {
    with_stabilizer(doc, |stabilizer, now| {
        for chunk in STREAM.chunks(CHUNK) {
            black_box(stabilizer.feed(chunk, now));
        }
        assert!(
            matches!(stabilizer.status(), Status::Complete(_)),
            "{:?}",
            stabilizer.status()
        );
    })
    .1
}

struct Pass {
    sent: usize,
    naive: usize,
}

/// One pass counting bytes: what is sent, and what a naive design sends (serialising the whole document
/// after every chunk, which is why the chunk times are measured in passes of their own).
fn measure(doc: &Value) -> Pass {
    with_stabilizer(doc, |stabilizer, now| {
        let (mut sent, mut naive) = (0, 0);
        let count = |outputs: Vec<Output>, sent: &mut usize| {
            for output in outputs {
                if let Output::Surface(message) = output {
                    *sent += serde_json::to_string(&message).unwrap().len();
                }
            }
        };
        for chunk in STREAM.chunks(CHUNK) {
            count(stabilizer.feed(chunk, now), &mut sent);
            naive += serde_json::to_string(stabilizer.shown()).unwrap().len();
        }
        count(stabilizer.commit(2), &mut sent);
        Pass { sent, naive }
    })
    .0
}

/// One pass timing each chunk (the messages are built, as the engine would, and dropped).
fn time_chunks(doc: &Value) -> Vec<u64> {
    with_stabilizer(doc, |stabilizer, now| {
        let mut times = Vec::with_capacity(STREAM.len() / CHUNK + 1);
        for chunk in STREAM.chunks(CHUNK) {
            let start = Instant::now();
            let outputs = stabilizer.feed(chunk, now);
            times.push(start.elapsed().as_nanos() as u64);
            drop(black_box(outputs));
        }
        times
    })
    .0
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((p / 100.0) * (sorted.len() - 1) as f64).round() as usize]
}

/// CPU per chunk: each chunk's median over 31 passes (a shared machine preempts at random; the median
/// keeps what the chunk itself costs), then p50 and p99 over the chunks. The p99 of single passes is
/// printed beside it: it includes that preemption.
fn report() {
    const PASSES: usize = 31;
    for (name, doc) in [("sample", sample()), ("sample x10", ten_times_larger())] {
        let pass = measure(&doc);
        let passes: Vec<Vec<u64>> = (0..PASSES).map(|_| time_chunks(&doc)).collect();
        let chunks = passes[0].len();
        let mut medians: Vec<u64> = (0..chunks)
            .map(|i| {
                let mut t: Vec<u64> = passes.iter().map(|p| p[i]).collect();
                t.sort_unstable();
                t[PASSES / 2]
            })
            .collect();
        medians.sort_unstable();
        let mut single: Vec<u64> = passes
            .iter()
            .map(|p| {
                let mut t = p.clone();
                t.sort_unstable();
                percentile(&t, 99.0)
            })
            .collect();
        single.sort_unstable();
        println!(
            "{name}: document {} bytes; sent {} bytes of surface messages vs {} bytes for the whole document after every chunk = {:.3}%; CPU per chunk (median of {PASSES} passes) p50 {} ns, p99 {} ns, max {} ns; single-pass p99 median {} ns",
            serde_json::to_string(&doc).unwrap().len(),
            pass.sent,
            pass.naive,
            100.0 * pass.sent as f64 / pass.naive as f64,
            percentile(&medians, 50.0),
            percentile(&medians, 99.0),
            medians[chunks - 1],
            single[PASSES / 2],
        );
    }
}

fn benches(c: &mut Criterion) {
    if std::env::var_os("REDLINE_BENCH_NO_REPORT").is_none() {
        report();
    }
    let mut group = c.benchmark_group("patch_stream_12k");
    let doc = sample();
    group.bench_function("reader_only", |b| {
        b.iter(|| {
            let mut reader = Reader::new();
            for chunk in STREAM.chunks(CHUNK) {
                reader.feed_quiet(chunk).unwrap();
                black_box(reader.value());
            }
        })
    });
    group.bench_function("reader_stabilizer_previews", |b| {
        b.iter(|| stabilize(black_box(&doc)))
    });
    let large = ten_times_larger();
    group.bench_function("reader_stabilizer_previews_x10_doc", |b| {
        b.iter(|| stabilize(black_box(&large)))
    });
    group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
