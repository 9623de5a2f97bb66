//! PDF export of the sample resume: cold (the first export in a process: fonts read, Typst's library
//! built) and warm, side by side in the same run with the route most builders take — Chromium's
//! print-to-PDF (`chromium --headless --print-to-pdf`, Debian's package) of our own HTML export.
//! Printed first; then criterion times the warm export, the page images of the Page view, and the HTML
//! export as the baseline; then every design's warm export and page images, classic's the baseline.

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use redline_resume::export::{self, Page, Template};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn chromium(html: &std::path::Path, pdf: &std::path::Path) -> Option<Duration> {
    let start = Instant::now();
    let status = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            &format!("--print-to-pdf={}", pdf.display()),
            &format!("file://{}", html.display()),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    (status.success() && pdf.exists()).then(|| start.elapsed())
}

fn report() {
    let resume = redline_resume::sample();
    let start = Instant::now();
    let first = redline_pdf::pdf(&resume, Template::Classic, Page::A4).unwrap();
    let cold = start.elapsed();
    let warm = median(
        (0..30)
            .map(|_| {
                let start = Instant::now();
                black_box(redline_pdf::pdf(&resume, Template::Classic, Page::A4).unwrap());
                start.elapsed()
            })
            .collect(),
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("resume.html");
    std::fs::write(&html, export::html(&resume, Template::Classic, Page::A4)).unwrap();
    let runs: Vec<Duration> = (0..5)
        .filter_map(|i| chromium(&html, &dir.path().join(format!("chromium-{i}.pdf"))))
        .collect();
    print!(
        "PDF of the sample ({} bytes): Typst in-process cold {:.1} ms, warm {:.2} ms (median of 30)",
        first.len(),
        cold.as_secs_f64() * 1e3,
        warm.as_secs_f64() * 1e3
    );
    if runs.is_empty() {
        println!("; Chromium not found (apt-get install chromium) — no comparison");
    } else {
        let chrome = median(runs);
        println!(
            "; Chromium --print-to-pdf of our HTML {:.0} ms (median of 5) = {:.0}× the warm export, {:.1}× the cold one",
            chrome.as_secs_f64() * 1e3,
            chrome.as_secs_f64() / warm.as_secs_f64(),
            chrome.as_secs_f64() / cold.as_secs_f64()
        );
    }
}

fn benches(c: &mut Criterion) {
    if std::env::var_os("REDLINE_BENCH_NO_REPORT").is_none() {
        report();
    }
    let resume = redline_resume::sample();
    let mut group = c.benchmark_group("pdf");
    group.sample_size(30);
    group.bench_function("sample_classic_a4_warm", |b| {
        b.iter(|| redline_pdf::pdf(&resume, Template::Classic, Page::A4).unwrap())
    });
    // The Page view: the pages laid out and drawn as PNGs (1.5 px per point, as the window shows them).
    group.bench_function("sample_page_images_warm", |b| {
        b.iter(|| redline_pdf::page_images(&resume, Template::Classic, Page::A4, 1.5).unwrap())
    });
    // The same with the pages drawn before kept: laid out again, but no page drawn or compressed.
    let mut drawer = redline_pdf::PageDrawer::default();
    group.bench_function("sample_page_images_unchanged_pages_kept", |b| {
        b.iter(|| {
            drawer
                .draw(&resume, Template::Classic, Page::A4, 1.5)
                .unwrap()
        })
    });
    group.bench_function("html_export_baseline", |b| {
        b.iter(|| export::html(&resume, Template::Classic, Page::A4))
    });
    group.finish();
    // Every design beside classic, the baseline, in the same run: the warm export and the Page view's images.
    let mut group = c.benchmark_group("designs");
    group.sample_size(20);
    for template in Template::ALL {
        group.bench_function(format!("{}_pdf_warm", template.name()), |b| {
            b.iter(|| redline_pdf::pdf(&resume, template, Page::A4).unwrap())
        });
        group.bench_function(format!("{}_page_images_warm", template.name()), |b| {
            b.iter(|| redline_pdf::page_images(&resume, template, Page::A4, 1.5).unwrap())
        });
    }
    group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
