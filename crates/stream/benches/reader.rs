//! The reader on the standard workload — a ~12 KB patch-model output over the sample resume
//! (`benches/data/patch-stream.json`, long strings included) fed in 5-byte chunks, reading the partial
//! value after every feed — beside its baselines in the same run:
//! - `serde_full`: one `serde_json::from_slice` of the whole text (the floor: one pass over the bytes);
//! - `reparse`: complete and parse the accumulated text with serde_json after every chunk, as partial-JSON
//!   libraries do;
//! - `scaling`: the same stream repeated to ~1 MB, reported per byte beside the 12 KB one.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use redline_stream::Reader;
use serde_json::Value;

const WORKLOAD: &[u8] = include_bytes!("data/patch-stream.json");
const CHUNK: usize = 5;

/// The reader over `text` in 5-byte chunks, taking a reference to the partial value after each feed.
fn stream(text: &[u8]) -> Reader {
    let mut reader = Reader::new();
    for chunk in text.chunks(CHUNK) {
        reader.feed_quiet(chunk).unwrap();
        black_box(reader.value());
    }
    reader.finish().unwrap();
    reader
}

/// The workload's operations repeated until the text is at least `bytes` long.
fn scaled(bytes: usize) -> Vec<u8> {
    let stream: Value = serde_json::from_slice(WORKLOAD).unwrap();
    let ops = stream["operations"].as_array().unwrap();
    let mut all = Vec::new();
    while serde_json::to_vec(&all).unwrap().len() < bytes {
        all.extend(ops.iter().cloned());
    }
    serde_json::to_vec(&serde_json::json!({ "operations": all })).unwrap()
}

fn standard_workload(c: &mut Criterion) {
    let mut group = c.benchmark_group("patch_stream_12k");
    group.throughput(Throughput::Bytes(WORKLOAD.len() as u64));
    group.bench_function("reader_5b_chunks", |b| {
        b.iter(|| stream(black_box(WORKLOAD)))
    });
    group.bench_function("serde_full", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(WORKLOAD)).unwrap())
    });
    group.sample_size(10);
    group.bench_function("reparse_5b_chunks", |b| {
        b.iter(|| {
            let mut end = 0;
            for chunk in WORKLOAD.chunks(CHUNK) {
                end += chunk.len();
                black_box(
                    serde_json::from_str::<Value>(&redline_stream::growth::complete_by_rescanning(
                        &WORKLOAD[..end],
                    ))
                    .ok(),
                );
            }
        })
    });
    group.finish();
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    for text in [WORKLOAD.to_vec(), scaled(1 << 20)] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("reader_5b_chunks", text.len()),
            &text,
            |b, text| b.iter(|| stream(black_box(text))),
        );
    }
    group.finish();
}

criterion_group!(benches, standard_workload, scaling);
criterion_main!(benches);
