//! Reading a streamed answer's server-sent events: Redline's reader (`wire::Events`) beside the one
//! async-openai uses (eventsource-stream 0.2), on the same bodies cut into the same 16 KB pieces — a
//! typical answer (4,096 events of a chunk each), and one event of one long line (a whole answer sent in one
//! piece; a hostile server sends such a line with no end). eventsource-stream parses its whole buffer again
//! for each piece, so its time for a line grows with the line's square.

use std::hint::black_box;

use bytes::Bytes;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use futures::StreamExt;
use redline_agent::wire::Events;

const PIECE: usize = 16 << 10;

fn pieces(body: &[u8]) -> Vec<Bytes> {
    body.chunks(PIECE).map(Bytes::copy_from_slice).collect()
}

/// A typical streamed answer: each event a chunk of a few characters.
fn typical() -> Vec<u8> {
    let event = r#"data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"abcd"},"finish_reason":null}]}"#;
    format!("{event}\n\n").repeat(4096).into_bytes()
}

/// One event of one line of `bytes` bytes.
fn one_line(bytes: usize) -> Vec<u8> {
    let mut body = b"data: \"".to_vec();
    body.resize(bytes, b'x');
    body.extend(b"\"\n\n");
    body
}

fn redline(runtime: &tokio::runtime::Runtime, body: &[Bytes]) -> usize {
    let pieces: Vec<reqwest::Result<Bytes>> = body.iter().cloned().map(Ok).collect();
    let mut events = Events::new(Box::pin(futures::stream::iter(pieces)));
    runtime.block_on(async {
        let mut n = 0;
        while let Some(event) = events.next().await {
            n += black_box(event.unwrap()).data.len();
        }
        n
    })
}

fn eventsource(runtime: &tokio::runtime::Runtime, body: &[Bytes]) -> usize {
    let pieces: Vec<Result<Bytes, std::io::Error>> = body.iter().cloned().map(Ok).collect();
    let mut events = eventsource_stream::EventStream::new(futures::stream::iter(pieces));
    runtime.block_on(async {
        let mut n = 0;
        while let Some(event) = events.next().await {
            n += black_box(event.unwrap()).data.len();
        }
        n
    })
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("sse");
    group.sample_size(10);
    let bodies = [
        ("typical 4096 events", pieces(&typical())),
        ("one line of 256 KB", pieces(&one_line(256 << 10))),
        ("one line of 1 MB", pieces(&one_line(1 << 20))),
        ("one line of 4 MB", pieces(&one_line(4 << 20))),
    ];
    for (name, body) in &bodies {
        assert_eq!(redline(&runtime, body), eventsource(&runtime, body));
        group.bench_with_input(BenchmarkId::new("redline", name), body, |b, body| {
            b.iter(|| redline(&runtime, body))
        });
        group.bench_with_input(
            BenchmarkId::new("eventsource-stream", name),
            body,
            |b, body| b.iter(|| eventsource(&runtime, body)),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
