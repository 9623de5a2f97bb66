//! A command-line probe of the incremental reader.
//!
//! ```text
//! cargo run --release -p redline-stream --example feed -- [--chunk N] [--events] [--repeat R] [--baseline reparse|full]
//! ```
//!
//! Reads JSON text from stdin and feeds it in N-byte chunks (default 5):
//! - by default prints, after every feed, the partial value as one line of JSON (`null` before it starts),
//!   with `--events` preceded by that feed's events, one JSON object per line;
//! - with `--repeat R`, prints nothing per feed but one line at the end:
//!   `{"bytes", "feeds", "feed_ns", "feed_p50_ns", "feed_p99_ns", "baseline", "baseline_ns"}`, where `feed_ns` is
//!   the median over R runs of the whole feed loop (taking a reference to the partial value after each feed),
//!   the percentiles are per feed, and `baseline_ns` is the median of R runs of the baseline: `full`, one
//!   `serde_json::from_slice` of the whole text (the default), or `reparse`, completing and parsing the
//!   accumulated text with serde_json after every chunk, as partial-JSON libraries do;
//! - exits non-zero with the error message on invalid input.

use std::hint::black_box;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

use redline_stream::{Event, Path, Reader};
use serde_json::{Value, json};

struct Options {
    chunk: usize,
    events: bool,
    repeat: Option<usize>,
    baseline: Baseline,
}

#[derive(Clone, Copy)]
enum Baseline {
    Full,
    Reparse,
}

fn usage() -> String {
    "usage: feed [--chunk N] [--events] [--repeat R] [--baseline reparse|full] < input.json"
        .to_owned()
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        chunk: 5,
        events: false,
        repeat: None,
        baseline: Baseline::Full,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{name} takes a whole number above 0\n{}", usage()))
        };
        match arg.as_str() {
            "--chunk" => options.chunk = number("--chunk")?,
            "--repeat" => options.repeat = Some(number("--repeat")?),
            "--events" => options.events = true,
            "--baseline" => {
                options.baseline = match args.next().as_deref() {
                    Some("full") => Baseline::Full,
                    Some("reparse") => Baseline::Reparse,
                    _ => return Err(format!("--baseline takes reparse or full\n{}", usage())),
                }
            }
            "-h" | "--help" => return Err(usage()),
            other => return Err(format!("unknown argument {other}\n{}", usage())),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }
    let result = match options.repeat {
        None => print_feeds(&input, &options),
        Some(runs) => measure(&input, &options, runs),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn event_json(path: &Path, event: Event<'_>) -> Value {
    let pointer = path.to_pointer();
    match event {
        Event::StartObject => json!({"event": "startObject", "path": pointer}),
        Event::EndObject => json!({"event": "endObject", "path": pointer}),
        Event::StartArray => json!({"event": "startArray", "path": pointer}),
        Event::EndArray => json!({"event": "endArray", "path": pointer}),
        Event::Key(key) => json!({"event": "key", "path": pointer, "key": key}),
        Event::StringStart => json!({"event": "stringStart", "path": pointer}),
        Event::StringAppend(text) => {
            json!({"event": "stringAppend", "path": pointer, "text": text})
        }
        Event::StringEnd => json!({"event": "stringEnd", "path": pointer}),
        Event::Number(n) => json!({"event": "number", "path": pointer, "value": n}),
        Event::Bool(b) => json!({"event": "bool", "path": pointer, "value": b}),
        Event::Null => json!({"event": "null", "path": pointer}),
    }
}

fn print_feeds(input: &[u8], options: &Options) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut reader = Reader::new();
    let mut lines = Vec::new();
    let emit = |out: &mut dyn Write, lines: &mut Vec<Value>, reader: &Reader| {
        for line in lines.drain(..) {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "{}", reader.value().unwrap_or(&Value::Null));
    };
    for chunk in input.chunks(options.chunk) {
        let fed = reader.feed(chunk, |path, event| {
            if options.events {
                lines.push(event_json(path, event));
            }
        });
        fed.map_err(|e| e.to_string())?;
        emit(&mut out, &mut lines, &reader);
    }
    let before_finish = reader.value().cloned();
    reader
        .finish_with(|path, event| {
            if options.events {
                lines.push(event_json(path, event));
            }
        })
        .map_err(|e| e.to_string())?;
    // A number at the root completes only at the end of the stream: show it.
    if !lines.is_empty() || (reader.is_done() && before_finish.as_ref() != reader.value()) {
        emit(&mut out, &mut lines, &reader);
    }
    out.flush().map_err(|e| e.to_string())
}

fn median(samples: &mut [u64]) -> u64 {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn measure(input: &[u8], options: &Options, runs: usize) -> Result<(), String> {
    // Check the input once, so that a bad input is an error and not a timing.
    let mut check = Reader::new();
    for chunk in input.chunks(options.chunk) {
        check.feed_quiet(chunk).map_err(|e| e.to_string())?;
    }
    check.finish().map_err(|e| e.to_string())?;

    let feeds = input.chunks(options.chunk).count();
    let mut loops = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let mut reader = Reader::new();
        for chunk in input.chunks(options.chunk) {
            let _ = reader.feed_quiet(chunk);
            black_box(reader.value());
        }
        let _ = reader.finish();
        loops.push(start.elapsed().as_nanos() as u64);
        drop(black_box(reader));
    }
    // Per-feed times come from separate runs, so that reading the clock does not inflate `feed_ns`.
    let mut per_feed = Vec::with_capacity(runs * feeds);
    for _ in 0..runs {
        let mut reader = Reader::new();
        for chunk in input.chunks(options.chunk) {
            let start = Instant::now();
            let _ = reader.feed_quiet(chunk);
            black_box(reader.value());
            per_feed.push(start.elapsed().as_nanos() as u64);
        }
    }
    per_feed.sort_unstable();

    let mut baseline = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        match options.baseline {
            Baseline::Full => {
                black_box(serde_json::from_slice::<Value>(input).ok());
            }
            Baseline::Reparse => {
                let mut end = 0;
                for chunk in input.chunks(options.chunk) {
                    end += chunk.len();
                    let completed = redline_stream::growth::complete_by_rescanning(&input[..end]);
                    black_box(serde_json::from_str::<Value>(&completed).ok());
                }
            }
        }
        baseline.push(start.elapsed().as_nanos() as u64);
    }
    let line = json!({
        "bytes": input.len(),
        "feeds": feeds,
        "feed_ns": median(&mut loops),
        "feed_p50_ns": percentile(&per_feed, 50.0),
        "feed_p99_ns": percentile(&per_feed, 99.0),
        "baseline": match options.baseline { Baseline::Full => "full", Baseline::Reparse => "reparse" },
        "baseline_ns": median(&mut baseline),
    });
    println!("{line}");
    Ok(())
}
