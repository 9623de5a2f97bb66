//! The generated corpus read back (issue #49): resumes the reader has never seen, drawn by the published JSON
//! Resume themes, by Redline's own designs, written as Word files by pandoc and by a word processor, and
//! as LinkedIn exports. Each test prints each source's figure in the tuning part and in the held-out part;
//! the floors are on the held-out part (see `common/corpus.rs` for the split).
//!
//! The floors are today's figures, so that a change that reads unseen files worse fails the run; the goal
//! is 95 % over the held-out part and 90 % in every theme (docs/benchmarks.md has the history).

mod common;

use std::process::Command;

use common::corpus::{Corpus, Resume, Tally};
use common::{run, saved_by_writer_all, tool};
use redline_resume::export::{self, Page, Template};

/// Runs `read` on every `(source, resume)` pair on two threads (the machines this runs on have two cores
/// at least), each with its own tally, and adds the tallies up. Each thread takes the next pair when it is
/// done with one, so that neither waits on the other's slower half.
fn tally_of<'a, S: Sync>(
    jobs: &[(S, &'a Resume)],
    read: impl Fn(&mut Tally, &S, &'a Resume) + Sync,
) -> Tally {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let (read, next) = (&read, &next);
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    while let Some((source, resume)) =
                        jobs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        read(&mut tally, source, resume);
                    }
                    tally
                })
            })
            .collect();
        let mut all = Tally::default();
        for h in handles {
            all.merge(h.join().unwrap());
        }
        all
    })
}

/// The held-out part's total and lowest source, held to their floors.
fn at_least(family: &str, tally: &Tally, total_floor: f64, lowest_floor: f64) {
    let (total, lowest) = tally.report(family);
    assert!(
        total.ratio() >= total_floor,
        "{family}: {:.3} held out",
        total.ratio()
    );
    if let Some((source, ratio)) = lowest {
        assert!(ratio >= lowest_floor, "{family}: {source} {ratio:.3}");
    }
}

#[test]
fn generated_resumes_printed_from_published_themes_read_back() {
    let corpus = Corpus::open();
    let resumes = corpus.resumes();
    let themes = corpus.themes();
    let jobs: Vec<(&str, &Resume)> = (themes.iter())
        .flat_map(|t| resumes.iter().map(move |r| (t.as_str(), r)))
        .collect();
    let tally = tally_of(&jobs, |tally, theme, resume| {
        let held_out = corpus.held_out(theme, resume.index);
        let Some(pdf) = corpus
            .pdf(theme, resume.index)
            .filter(|_| !Corpus::skipped(held_out))
        else {
            return;
        };
        let shown = redline_pdf::ats::extract(&pdf).unwrap().join("\n");
        tally.read(
            (theme, resume.index, held_out),
            &pdf,
            &resume.document,
            &shown,
        );
    });
    // Today: 53.4 % held out, the lowest theme (paper) 7.7 %. The goal: 95 %, and 90 % in every theme.
    at_least("published themes", &tally, 0.53, 0.07);
}

#[test]
fn generated_resumes_in_redlines_own_designs_read_back() {
    let corpus = Corpus::open();
    let resumes = corpus.resumes();
    let jobs: Vec<(Template, &Resume)> = (Template::ALL.into_iter())
        .flat_map(|t| resumes.iter().map(move |r| (t, r)))
        .collect();
    let tally = tally_of(&jobs, |tally, template, resume| {
        let pdf = redline_pdf::pdf(&resume.document, *template, Page::Letter).unwrap();
        let shown = redline_pdf::ats::extract(&pdf).unwrap().join("\n");
        let part = (template.name(), resume.index, resume.index % 2 == 1);
        tally.read(part, &pdf, &resume.document, &shown);
    });
    // Today: 90.1 % held out, the lowest design (elegant) 82.3 %.
    at_least("Redline's designs", &tally, 0.90, 0.82);
}

#[test]
fn generated_resumes_as_word_files_read_back() {
    let corpus = Corpus::open();
    let resumes = corpus.resumes();
    let jobs: Vec<((), &Resume)> = resumes.iter().map(|r| ((), r)).collect();
    let mut tally = tally_of(&jobs, |tally, (), resume| {
        let docx = pandoc(&export::markdown(&resume.document));
        let shown = export::text(&resume.document);
        let part = ("pandoc", resume.index, resume.index % 2 == 1);
        tally.read(part, &docx, &resume.document, &shown);
    });
    // The word processor opens one theme's page of each resume, the themes taken in turn.
    let themes: Vec<String> = (corpus.themes().into_iter())
        .filter(|t| !WRITER_HANGS_ON.contains(&t.as_str()))
        .collect();
    let pages: Vec<(String, &Resume)> = (resumes.iter())
        .filter_map(|r| {
            let theme = themes.get(r.index / 2 % themes.len().max(1))?;
            corpus.html(theme, r.index).map(|html| (html, r))
        })
        .collect();
    // One Writer for each half of the pages, the two halves side by side.
    let saved: Vec<_> = std::thread::scope(|scope| {
        let halves: Vec<_> = (pages.chunks(pages.len().div_ceil(2).max(1)))
            .map(|half| {
                let named: Vec<(String, &str)> = (half.iter())
                    .map(|(html, r)| (format!("{:03}", r.index), html.as_str()))
                    .collect();
                scope.spawn(move || saved_by_writer_all(&named))
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    for ((_, resume), saved) in pages.iter().zip(saved) {
        if let Some((docx, shown)) = saved {
            let index = resume.index;
            let part = ("word processor", index, index % 2 == 1);
            tally.read(part, &docx, &resume.document, &shown);
        }
    }
    // Today: 79.1 % held out; pandoc's 93.0 %, LibreOffice Writer's 60.3 %.
    at_least("Word files", &tally, 0.79, 0.60);
}

#[test]
fn generated_resumes_as_linkedin_exports_read_back() {
    let corpus = Corpus::open();
    let mut tally = Tally::default();
    for resume in corpus.resumes() {
        let (zip, want, shown) = common::linkedin::export(&resume.document);
        let part = ("linkedin", resume.index, resume.index % 2 == 1);
        tally.read(part, &zip, &want, &shown);
    }
    // Today: every field, in both parts.
    at_least("LinkedIn exports", &tally, 0.99, 0.99);
}

/// `markdown` as pandoc writes it to a Word file.
fn pandoc(markdown: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("r.md"), dir.path().join("r.docx"));
    std::fs::write(&input, markdown).unwrap();
    run(
        Command::new(tool("pandoc"))
            .arg(&input)
            .arg("-o")
            .arg(&output),
        "pandoc",
    );
    std::fs::read(output).unwrap()
}

/// The themes whose pages LibreOffice Writer 7.4 hangs on, more often than not (onepage-efficient's: it
/// spins until stopped), left out of the word processor's turn.
const WRITER_HANGS_ON: [&str; 1] = ["onepage-efficient"];
