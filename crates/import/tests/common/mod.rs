//! What the import's tests share: how a file read back is scored; the tools that make other tools' files
//! (Chromium, the published themes, RenderCV), each installed by `scripts/setup.sh --test`; PDFs made by
//! hand ([`pdf`]).
#![allow(dead_code)]

pub mod corpus;
pub mod linkedin;
pub mod pdf;

use std::path::{Path, PathBuf};
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

/// How long LibreOffice Writer may take to start and save its first page.
const WRITER_SECONDS: u64 = 30;

/// How long a Writer that has saved a page may take to save the next one (1.4 s at most on this
/// corpus).
const WRITER_PAGE_SECONDS: u64 = 10;

/// The page `html` opened in LibreOffice Writer and saved as a Word file (`name`.docx), with its text as
/// pandoc reads it; `None` when Writer did not save it within [`WRITER_SECONDS`] (it spins on a rare page).
pub fn saved_by_writer(name: &str, html: &str) -> Option<(Vec<u8>, String)> {
    saved_by_writer_all(&[(name.to_owned(), html)])
        .pop()
        .flatten()
}

/// Each `(name, html)` page saved as [`saved_by_writer`] saves one, by one Writer for all of them: a
/// Writer started per page spends two seconds starting, ten times what it takes to save one. Writer saves
/// the pages in turn; one it spins on (no page saved for [`WRITER_PAGE_SECONDS`], or
/// [`WRITER_SECONDS`] for the first) is given up, and a new Writer goes on from the page after it.
///
/// With `REDLINE_WRITER_KEPT` set to a folder, the Word files are kept there and a page whose file is
/// already there is not saved again (for work on the reader: Writer's minutes once, not every run).
pub fn saved_by_writer_all(pages: &[(String, &str)]) -> Vec<Option<(Vec<u8>, String)>> {
    let temporary = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("REDLINE_WRITER_KEPT")
        .map_or_else(|| temporary.path().to_owned(), PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let html = |i: usize| dir.join(format!("{}.html", pages[i].0));
    let docx = |i: usize| dir.join(format!("{}.docx", pages[i].0));
    for (i, (_, page)) in pages.iter().enumerate() {
        std::fs::write(html(i), page).unwrap();
    }
    let mut waiting: Vec<usize> = (0..pages.len()).filter(|&i| !docx(i).exists()).collect();
    while !waiting.is_empty() {
        let files: Vec<_> = waiting.iter().map(|&i| html(i)).collect();
        if writer_saves(&dir, temporary.path(), &files, || {
            waiting.iter().filter(|&&i| docx(i).exists()).count()
        }) {
            break;
        }
        // Stopped: the page after the last one saved is the one Writer spun on.
        let last_saved = waiting.iter().rposition(|&i| docx(i).exists());
        let spun_on = last_saved.map_or(0, |p| p + 1);
        eprintln!(
            "word processor {}: LibreOffice gave up",
            pages[waiting[spun_on]].0
        );
        waiting.drain(..=spun_on);
    }
    (0..pages.len())
        .map(|i| {
            let bytes = std::fs::read(docx(i)).ok()?;
            let shown = run(
                Command::new(tool("pandoc"))
                    .arg(docx(i))
                    .args(["-t", "plain", "--wrap=none"]),
                "pandoc",
            );
            Some((bytes, String::from_utf8_lossy(&shown).into_owned()))
        })
        .collect()
}

/// Runs one Writer (its profile in `profile`) that saves `files` as Word files into `dir`; true when it finished, false when it was
/// stopped because `saved` (how many are saved so far) stopped growing. `timeout` runs
/// Writer in a process group of its own and passes the stop on to the whole group, so that the office
/// process Writer starts is stopped with it.
fn writer_saves(dir: &Path, profile: &Path, files: &[PathBuf], saved: impl Fn() -> usize) -> bool {
    let mut writer = Command::new(tool("timeout"))
        .args(["--kill-after=5", "1d"])
        .arg(tool("soffice"))
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.join("profile").display()
        ))
        .args([
            "--headless",
            "--convert-to",
            "docx:MS Word 2007 XML",
            "--outdir",
        ])
        .arg(dir)
        .args(files)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (mut count, mut since) = (0, std::time::Instant::now());
    loop {
        if writer.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        let now = saved();
        let allowed = if count == 0 {
            WRITER_SECONDS
        } else {
            WRITER_PAGE_SECONDS
        };
        if now > count {
            (count, since) = (now, std::time::Instant::now());
        } else if since.elapsed().as_secs() >= allowed {
            run(
                Command::new(tool("kill")).arg(writer.id().to_string()),
                "kill",
            );
            writer.wait().unwrap();
            return false;
        }
    }
}
