//! From an SSE chunk's arrival to its surface message leaving the engine: the chunk's JSON parsed (as the
//! client does), read leniently into deltas, fed through the reader and stabilizer, and the surface
//! messages built. The demo's patch stream (the summary rewrite and a keyword) in the demo's 4-character
//! deltas, against the sample resume. Printed first: p50/p99 per chunk (each chunk's median over 31
//! passes) beside the JSON parse alone; then criterion times a whole stream both ways.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use redline_agent::{ChunkReader, Delta};
use redline_patch::{Output, Policy, Scope, Stabilizer, Surface};
use serde_json::{Value, json};

/// The SSE `data:` payloads a server sends for the demo's patch output.
fn sse_payloads() -> Vec<String> {
    let demo = redline_agent::fixtures::demo();
    let patch = demo.replies.iter().find_map(|r| r.patch.clone()).unwrap();
    let pieces = redline_stream::encode(&[patch], demo.chunk.unwrap_or(4)).unwrap();
    pieces
        .into_iter()
        .map(|piece| {
            json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                   "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]})
            .to_string()
        })
        .collect()
}

fn stabilizer(now: Instant, surface: &mut Surface) -> Stabilizer<'_> {
    Stabilizer::new(
        redline_resume::sample(),
        1,
        Policy::default(),
        Scope::Anywhere,
        surface,
        now,
    )
}

/// One chunk: arrival (the payload) to surface messages out.
fn handle(
    payload: &str,
    reader: &mut ChunkReader,
    stabilizer: &mut Stabilizer,
    now: Instant,
) -> Vec<Output> {
    let chunk: Value = serde_json::from_str(payload).unwrap();
    let mut out = Vec::new();
    for delta in reader.read(&chunk).unwrap() {
        if let Delta::Text(text) = delta {
            out.extend(stabilizer.feed(text.as_bytes(), now));
        }
    }
    out
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((p / 100.0) * (sorted.len() - 1) as f64).round() as usize]
}

fn report(payloads: &[String]) {
    const PASSES: usize = 31;
    let mut engine = vec![Vec::with_capacity(PASSES); payloads.len()];
    let mut parse = vec![Vec::with_capacity(PASSES); payloads.len()];
    for _ in 0..PASSES {
        let now = Instant::now();
        let mut surface = Surface::new("main");
        let (mut reader, mut stab) = (ChunkReader::default(), stabilizer(now, &mut surface));
        for (i, payload) in payloads.iter().enumerate() {
            let start = Instant::now();
            let out = handle(payload, &mut reader, &mut stab, now);
            engine[i].push(start.elapsed().as_nanos() as u64);
            drop(black_box(out));
            let start = Instant::now();
            black_box(serde_json::from_str::<Value>(payload).unwrap());
            parse[i].push(start.elapsed().as_nanos() as u64);
        }
    }
    let medians = |times: &mut Vec<Vec<u64>>| {
        let mut m: Vec<u64> = times
            .iter_mut()
            .map(|t| {
                t.sort_unstable();
                t[PASSES / 2]
            })
            .collect();
        m.sort_unstable();
        m
    };
    let (engine, parse) = (medians(&mut engine), medians(&mut parse));
    println!(
        "{} SSE chunks: chunk arrival to surface messages out p50 {} ns, p99 {} ns, max {} ns; the chunk's JSON parse alone p50 {} ns, p99 {} ns",
        payloads.len(),
        percentile(&engine, 50.0),
        percentile(&engine, 99.0),
        engine.last().unwrap(),
        percentile(&parse, 50.0),
        percentile(&parse, 99.0),
    );
}

fn benches(c: &mut Criterion) {
    let payloads = sse_payloads();
    if std::env::var_os("REDLINE_BENCH_NO_REPORT").is_none() {
        report(&payloads);
    }
    let mut group = c.benchmark_group("sse_to_surface");
    group.bench_function("json_parse_only", |b| {
        b.iter(|| {
            for p in &payloads {
                black_box(serde_json::from_str::<Value>(p).unwrap());
            }
        })
    });
    group.bench_function("engine", |b| {
        b.iter(|| {
            let now = Instant::now();
            let mut surface = Surface::new("main");
            let (mut reader, mut stab) = (ChunkReader::default(), stabilizer(now, &mut surface));
            for p in &payloads {
                black_box(handle(p, &mut reader, &mut stab, now));
            }
        })
    });
    group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
