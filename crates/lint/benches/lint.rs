//! The whole-resume check, beside a baseline in the same run: a plain walk over the resume's strings that
//! only counts words. The sample, and a resume ten times its size (ten times its work entries).
//!
//! `cargo build --release --features grammar --bin redline-grammar && cargo bench -p redline-lint`. The
//! goal: a whole-resume check within 20 ms (the window underlines within 50 ms of a keystroke). First, it
//! prints how long each dictionary and the grammar checker (the `redline-grammar` program, found a folder up
//! from the bench's own program, or at `REDLINE_GRAMMAR`) take to load; grammar is left out, and said so,
//! where it is not built.

use std::time::Instant;

use redline_lint::{Date, Language, Options, check};
use serde_json::Value;

fn main() {
    for language in [
        Language::English,
        Language::German,
        Language::French,
        Language::Spanish,
        Language::Portuguese,
    ] {
        let start = Instant::now();
        assert!(redline_lint::dictionary_loaded(language));
        println!(
            "dictionary {:?} loaded in {:.1} ms",
            language,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    let start = Instant::now();
    let _ = check(&redline_resume::sample(), &options());
    println!(
        "first check (the grammar checker started, Harper's rules built) in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    if !redline_lint::grammar_available() {
        println!(
            "grammar NOT measured: build it first (cargo build --release --features grammar --bin redline-grammar)"
        );
    }
    divan::main();
}

fn options() -> Options {
    Options {
        today: Date::parse("2026-11-28"),
        ..Options::default()
    }
}

/// The sample with its work entries repeated to ten times their number.
fn ten_times() -> Value {
    let mut resume = redline_resume::sample();
    let work = resume["work"].as_array().unwrap().clone();
    let mut more = Vec::new();
    while more.len() < 10 * work.len() {
        more.extend(work.iter().cloned());
    }
    resume["work"] = Value::Array(more);
    resume
}

/// The baseline: every string of the resume visited and its words counted, nothing checked.
fn count_words(value: &Value) -> usize {
    match value {
        Value::String(s) => s.split_whitespace().count(),
        Value::Array(items) => items.iter().map(count_words).sum(),
        Value::Object(map) => map.values().map(count_words).sum(),
        _ => 0,
    }
}

#[divan::bench(args = ["sample", "ten-times"])]
fn baseline_word_count(bencher: divan::Bencher, which: &str) {
    let resume = if which == "sample" {
        redline_resume::sample()
    } else {
        ten_times()
    };
    bencher.bench(|| count_words(divan::black_box(&resume)));
}

/// A first check: Harper asked about every field (what it found before is forgotten).
#[divan::bench(args = ["sample", "ten-times"])]
fn whole_check_first(bencher: divan::Bencher, which: &str) {
    let resume = if which == "sample" {
        redline_resume::sample()
    } else {
        ten_times()
    };
    let options = options();
    bencher.bench(|| {
        redline_lint::forget_grammar();
        check(divan::black_box(&resume), &options)
    });
}

/// The check after a keystroke: one bullet changed since the last check, every field checked again.
#[divan::bench(args = ["sample", "ten-times"])]
fn whole_check_after_an_edit(bencher: divan::Bencher, which: &str) {
    let mut resume = if which == "sample" {
        redline_resume::sample()
    } else {
        ten_times()
    };
    let options = options();
    let _ = check(&resume, &options);
    let mut n = 0u64;
    bencher.bench_local(|| {
        n += 1;
        resume["work"][0]["highlights"][1] =
            Value::from(format!("Successfully won Techcrunch Disrupt {n} times"));
        check(divan::black_box(&resume), &options)
    });
}

/// Spelling and the recruiter's rules alone (the grammar rules off).
#[divan::bench(args = ["sample", "ten-times"])]
fn without_grammar(bencher: divan::Bencher, which: &str) {
    let resume = if which == "sample" {
        redline_resume::sample()
    } else {
        ten_times()
    };
    let mut options = options();
    options.disabled = redline_lint::RuleId::ALL
        .into_iter()
        .filter(|r| r.family() == redline_lint::Family::Grammar)
        .collect();
    bencher.bench(|| check(divan::black_box(&resume), &options));
}
