//! What the import's tests share: how a file read back is scored; the tools that make other tools' files
//! (Chromium, the published themes, RenderCV), each installed by `scripts/setup.sh --test`; PDFs made by
//! hand ([`pdf`]).
#![allow(dead_code)]

pub mod corpus;
pub mod linkedin;
pub mod pdf;

use std::process::Command;

use redline_import::Imported;
use redline_import::score::{Score, dropped, score};
use serde_json::Value;

/// How much of `want` the file `name` read back as (`imported`), on the fields the file shows (`shown`,
/// its text as a reader sees it). Nothing may be dropped in silence: every line read is in the document or
/// listed as not placed. The score is printed, with what it missed.
pub fn scored(name: &str, imported: &Imported, want: &Value, shown: &str) -> Score {
    let dropped = dropped(&imported.lines, &imported.document, &imported.unplaced);
    assert!(dropped.is_empty(), "{name}: lines dropped: {dropped:#?}");
    let s = score(want, &imported.document, shown);
    eprintln!(
        "{name}: {}/{} ({:.1} %), unplaced {:?}",
        s.right,
        s.total,
        s.ratio() * 100.0,
        imported.unplaced
    );
    for m in &s.missed {
        eprintln!("  {m}");
    }
    s
}

/// `scores` added up and printed as `all {what}`; the total must reach `floor`.
pub fn total_at_least(what: &str, scores: impl IntoIterator<Item = Score>, floor: f64) {
    let mut total = Score::default();
    for s in scores {
        total.add(s);
    }
    eprintln!(
        "all {what}: {}/{} ({:.1} %)",
        total.right,
        total.total,
        total.ratio() * 100.0
    );
    assert!(total.ratio() >= floor, "{:.3}", total.ratio());
}

/// With `REDLINE_IMPORT_LINES` set to a part of `name`, the lines the reader finds in the PDF `bytes`
/// (size, indent, gap before, text) are printed: what to look at when a file reads back wrong.
pub fn print_lines_if_asked(name: &str, bytes: &[u8]) {
    if !std::env::var_os("REDLINE_IMPORT_LINES")
        .is_some_and(|v| name.contains(&*v.to_string_lossy()))
    {
        return;
    }
    for l in redline_import::pdf_lines(bytes).unwrap() {
        eprintln!(
            "{:5.2} {:5.2} {} {:?}",
            l.size,
            l.indent,
            u8::from(l.gap),
            l.text
        );
    }
}

/// Runs `command`, which must succeed (otherwise the test fails with `what` and what the command said on
/// its standard error), and returns what it wrote to its standard output.
pub fn run(command: &mut Command, what: &str) -> Vec<u8> {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

pub fn tool(name: &str) -> String {
    which(name)
        .unwrap_or_else(|| panic!("{name} is needed for this test: run scripts/setup.sh --test"))
}

pub fn which(name: &str) -> Option<String> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string())
    })
}

/// `html` printed to PDF by Chromium, as a user's browser prints a page.
pub fn print(html: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (page, pdf) = (dir.path().join("r.html"), dir.path().join("r.pdf"));
    std::fs::write(&page, html).unwrap();
    let out = Command::new(tool("chromium"))
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(&page)
        .output()
        .unwrap();
    assert!(pdf.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read(&pdf).unwrap()
}

/// The published JSON Resume themes the reader is tuned on (npm, installed into `crates/import/corpus` by
/// `scripts/setup.sh --test`); the others there are held out (`corpus.rs`).
pub const TUNING_THEMES: [&str; 4] = ["even", "flat", "macchiato", "stackoverflow"];

/// The themes the reader is tuned on, each with the sample rendered by it as HTML.
pub fn themes() -> Vec<(String, String)> {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    assert!(
        corpus.join("node_modules").is_dir(),
        "the themes are needed for this test: run scripts/setup.sh --test"
    );
    let resume = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(resume.path(), redline_resume::sample().to_string()).unwrap();
    let mut out = Vec::new();
    for theme in TUNING_THEMES {
        let html = run(
            Command::new(tool("node"))
                .current_dir(&corpus)
                .arg("render.mjs")
                .arg(theme)
                .arg(resume.path()),
            theme,
        );
        out.push((theme.to_owned(), String::from_utf8(html).unwrap()));
    }
    out
}

/// RenderCV's Python: `REDLINE_RENDERCV_PYTHON`, or the virtual environment `scripts/setup.sh --test` makes.
pub fn rendercv_python() -> std::path::PathBuf {
    let python = std::env::var_os("REDLINE_RENDERCV_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|| {
                    std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache")
                });
            cache.join("redline/rendercv-venv/bin/python")
        });
    assert!(
        python.is_file(),
        "RenderCV is needed for this test ({}): run scripts/setup.sh --test",
        python.display()
    );
    python
}

/// The resume in `resume` (a JSON Resume file) as RenderCV's `theme` draws it, as a PDF.
pub fn rendercv(resume: &std::path::Path, theme: &str) -> Vec<u8> {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/rendercv");
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join(format!("{theme}.pdf"));
    run(
        Command::new(rendercv_python())
            .arg(corpus.join("render.py"))
            .arg(theme)
            .arg(resume)
            .arg(&pdf),
        &format!("RenderCV, {theme}"),
    );
    std::fs::read(&pdf).unwrap()
}

/// RenderCV's themes: its own, and the two after LaTeX templates (sb2nov, moderncv).
pub const RENDERCV_THEMES: &[&str] = &[
    "classic",
    "engineeringresumes",
    "engineeringclassic",
    "sb2nov",
    "moderncv",
];

/// The resumes RenderCV draws: the sample, and one of three jobs, two schools and two projects.
pub fn rendercv_resumes(dir: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    let sample = dir.join("sample.resume.json");
    std::fs::write(&sample, redline_resume::sample().to_string()).unwrap();
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/rendercv");
    vec![
        ("sample".to_owned(), sample),
        ("engineer".to_owned(), corpus.join("engineer.resume.json")),
    ]
}

/// How long LibreOffice Writer may take to save one page.
const WRITER_SECONDS: u64 = 30;

/// The page `html` opened in LibreOffice Writer and saved as a Word file (`name`.docx), with its text as
/// pandoc reads it; `None` when Writer did not save it within [`WRITER_SECONDS`] (it spins on a rare page).
/// `timeout` runs Writer in a process group of its own, so that the office process it starts is stopped
/// with it.
pub fn saved_by_writer(name: &str, html: &str) -> Option<(Vec<u8>, String)> {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join(format!("{name}.html"));
    std::fs::write(&page, html).unwrap();
    let status = Command::new(tool("timeout"))
        .args(["--kill-after=5", &WRITER_SECONDS.to_string()])
        .arg(tool("soffice"))
        .arg(format!(
            "-env:UserInstallation=file://{}",
            dir.path().join("profile").display()
        ))
        .args([
            "--headless",
            "--convert-to",
            "docx:MS Word 2007 XML",
            "--outdir",
        ])
        .arg(dir.path())
        .arg(&page)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    if matches!(status.code(), Some(124 | 137)) {
        eprintln!("word processor {name}: LibreOffice gave up after {WRITER_SECONDS} s");
        return None;
    }
    let docx = dir.path().join(format!("{name}.docx"));
    let bytes = std::fs::read(&docx).ok()?;
    let shown = run(
        Command::new(tool("pandoc"))
            .arg(&docx)
            .args(["-t", "plain", "--wrap=none"]),
        "pandoc",
    );
    Some((bytes, String::from_utf8_lossy(&shown).into_owned()))
}
