//! Import speed, release build: Redline's PDF of the sample (one page) and of the long test resume (two
//! pages or more), each read into a resume, beside pdf-extract's plain text of the same file (what the ATS
//! check reads, no layout) as the baseline; a Word file and text for scale. Goal: a two-page PDF ≤ 150 ms.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use redline_resume::export::{self, Page, Template};

fn long() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../resume/tests/resumes/long.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn bench(c: &mut Criterion) {
    let sample = redline_resume::sample();
    let files = [
        (
            "sample",
            redline_pdf::pdf(&sample, Template::Classic, Page::A4).unwrap(),
        ),
        (
            "long",
            redline_pdf::pdf(&long(), Template::Classic, Page::A4).unwrap(),
        ),
    ];
    for (name, pdf) in &files {
        let pages = redline_pdf::ats::extract(pdf).unwrap().len();
        println!("{name}: {pages} page(s), {} bytes", pdf.len());
        c.bench_function(&format!("import pdf {name} ({pages} pages)"), |b| {
            b.iter(|| redline_import::import("bench", black_box(pdf)).unwrap())
        });
        c.bench_function(&format!("baseline: pdf-extract text {name}"), |b| {
            b.iter(|| redline_pdf::ats::extract(black_box(pdf)).unwrap())
        });
    }
    let docx = redline_resume::docx::docx(&sample, Template::Classic, Page::A4);
    c.bench_function("import docx sample", |b| {
        b.iter(|| redline_import::import("bench", black_box(&docx)).unwrap())
    });
    let text = export::text(&sample);
    c.bench_function("import text sample", |b| {
        b.iter(|| redline_import::import("bench", black_box(text.as_bytes())).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
