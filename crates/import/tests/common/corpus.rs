//! The generated corpus (issue #49): resumes from a seeded generator (`crates/import/corpus/generate.mjs`)
//! drawn by every published JSON Resume theme that renders offline and printed by Chromium
//! (`crates/import/corpus/build.mjs`), split before any tuning into a tuning part and a held-out part. A
//! resume with an odd index, and every resume drawn by a theme not among `TUNING_THEMES`, is held out:
//! the reader is never tuned on it, and the floors are on it.
//!
//! The corpus is built once per version of its scripts and themes, into the cache
//! (`$XDG_CACHE_HOME/redline/import-corpus/KEY`), or read from `REDLINE_IMPORT_CORPUS`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use redline_import::score::{Score, dropped, score};
use redline_import::{ImportError, Imported};
use serde_json::Value;

use super::{run, tool};

/// The built corpus: its folder and what `build.mjs` says of it.
pub struct Corpus {
    pub dir: PathBuf,
    manifest: Value,
}

/// One resume of the corpus: its index and the document.
pub struct Resume {
    pub index: usize,
    pub document: Value,
}

impl Corpus {
    /// The corpus: `REDLINE_IMPORT_CORPUS`, or the cache's copy of this version of it, built first if
    /// the cache does not have it (`node build.mjs --cached`; `scripts/test.sh` runs it before the tests,
    /// so that the build's minutes are not a test's).
    pub fn open() -> Corpus {
        let dir = std::env::var_os("REDLINE_IMPORT_CORPUS").map_or_else(cached, PathBuf::from);
        let manifest = serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap())
            .expect("the corpus's manifest is JSON");
        Corpus { dir, manifest }
    }

    /// Every resume, in index order; each must be valid JSON Resume.
    pub fn resumes(&self) -> Vec<Resume> {
        let count = self.manifest["count"].as_u64().unwrap() as usize;
        (0..count)
            .map(|index| {
                let file = self.dir.join(format!("resumes/{index:03}.json"));
                let document: Value = serde_json::from_slice(&std::fs::read(&file).unwrap())
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                if let Err(problems) = redline_resume::validate(&document) {
                    panic!("{}: {problems:?}", file.display());
                }
                Resume { index, document }
            })
            .collect()
    }

    /// The published themes that drew the corpus.
    pub fn themes(&self) -> Vec<String> {
        strings(&self.manifest["themes"])
    }

    /// Whether what `theme` made of resume `index` is in the held-out part.
    pub fn held_out(&self, theme: &str, index: usize) -> bool {
        index % 2 == 1 || !super::TUNING_THEMES.contains(&theme)
    }

    /// Whether a run reads only the tuning part (`REDLINE_CORPUS_ONLY=tuning`, for work on the reader: a
    /// quarter of the time, and no held-out figure seen while tuning), and this file is not in it.
    pub fn skipped(held_out: bool) -> bool {
        held_out && std::env::var("REDLINE_CORPUS_ONLY").is_ok_and(|only| only == "tuning")
    }

    /// The PDF `theme` made of resume `index`, if it made one.
    pub fn pdf(&self, theme: &str, index: usize) -> Option<Vec<u8>> {
        std::fs::read(self.dir.join(format!("pdf/{theme}/{index:03}.pdf"))).ok()
    }

    /// The page `theme` made of resume `index`, if it made one.
    pub fn html(&self, theme: &str, index: usize) -> Option<String> {
        std::fs::read_to_string(self.dir.join(format!("html/{theme}/{index:03}.html"))).ok()
    }
}

fn strings(list: &Value) -> Vec<String> {
    (list.as_array().into_iter().flatten())
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect()
}

/// The cache's copy of the corpus, built first if it is not there (tests that run at once wait on a lock
/// for the one that builds it).
fn cached() -> PathBuf {
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    assert!(
        scripts.join("node_modules").is_dir(),
        "the themes are needed for this test: run scripts/setup.sh --test"
    );
    let lock =
        std::fs::File::create(std::env::temp_dir().join("redline-import-corpus.lock")).unwrap();
    lock.lock().unwrap();
    let printed = run(
        Command::new(tool("node"))
            .current_dir(&scripts)
            .args(["build.mjs", "--cached"]),
        "the corpus's build",
    );
    PathBuf::from(String::from_utf8(printed).unwrap().trim())
}

/// What one family of files read back as: fields right per source (a theme, a design, a writer), in the
/// tuning part and in the held-out part; and the files refused whole or that dropped a line.
#[derive(Default)]
pub struct Tally {
    tuning: BTreeMap<String, Score>,
    held_out: BTreeMap<String, Score>,
    /// `source index: why`, for each file refused whole.
    pub refused: Vec<String>,
    /// `source index`, for each file that dropped a line in silence.
    pub dropping: Vec<String>,
}

impl Tally {
    /// `other`'s counts added to these.
    pub fn merge(&mut self, other: Tally) {
        for (mine, theirs) in [
            (&mut self.tuning, other.tuning),
            (&mut self.held_out, other.held_out),
        ] {
            for (source, s) in theirs {
                mine.entry(source).or_default().add(s);
            }
        }
        self.refused.extend(other.refused);
        self.dropping.extend(other.dropping);
        // In the order of their names, whichever thread read them.
        self.refused.sort();
        self.dropping.sort();
    }

    /// Reads `bytes` (what `source` made of `want`, resume `index`, showing `shown`) and counts it.
    pub fn read(
        &mut self,
        (source, index, held_out): (&str, usize, bool),
        bytes: &[u8],
        want: &Value,
        shown: &str,
    ) {
        if Corpus::skipped(held_out) {
            return;
        }
        let name = format!("{source} {index:03}");
        if bytes.starts_with(b"%PDF") {
            super::print_lines_if_asked(&name, bytes);
        }
        let s = match redline_import::import(&name, bytes) {
            Ok(imported) => self.scored(&name, &imported, want, shown),
            Err(e) => self.refused_whole(&name, &e, want, shown),
        };
        let part = if held_out {
            &mut self.held_out
        } else {
            &mut self.tuning
        };
        part.entry(source.to_owned()).or_default().add(s);
    }

    fn scored(&mut self, name: &str, imported: &Imported, want: &Value, shown: &str) -> Score {
        if !dropped(&imported.lines, &imported.document, &imported.unplaced).is_empty() {
            self.dropping.push(name.to_owned());
        }
        let s = score(want, &imported.document, shown);
        if std::env::var_os("REDLINE_CORPUS_MISSED")
            .is_some_and(|v| name.contains(&*v.to_string_lossy()))
        {
            eprintln!("{name}: {}/{}", s.right, s.total);
            for m in &s.missed {
                eprintln!("  {m}");
            }
        }
        s
    }

    /// A file refused whole scores none of its fields.
    fn refused_whole(&mut self, name: &str, e: &ImportError, want: &Value, shown: &str) -> Score {
        self.refused.push(format!("{name}: {e}"));
        let s = score(want, &Value::Null, shown);
        Score {
            right: 0,
            total: s.total,
            missed: Vec::new(),
        }
    }

    /// Prints each source's figure in both parts, and the totals; returns the held-out part's total and
    /// its lowest source.
    pub fn report(&self, family: &str) -> (Score, Option<(String, f64)>) {
        let mut held_out_total = Score::default();
        let mut lowest: Option<(String, f64)> = None;
        eprintln!("{family}: fields right, held out | tuning");
        let sources: std::collections::BTreeSet<&String> =
            self.tuning.keys().chain(self.held_out.keys()).collect();
        for source in sources {
            let (h, t) = (self.held_out.get(source), self.tuning.get(source));
            eprintln!("  {source:<22} {:>22} | {}", shown(h), shown(t));
            if let Some(h) = h {
                held_out_total.add(summed(h));
                if lowest.as_ref().is_none_or(|(_, r)| h.ratio() < *r) {
                    lowest = Some((source.clone(), h.ratio()));
                }
            }
        }
        let mut tuning_total = Score::default();
        for t in self.tuning.values() {
            tuning_total.add(summed(t));
        }
        eprintln!(
            "  {:<22} {:>22} | {}",
            "all",
            shown(Some(&held_out_total)),
            shown(Some(&tuning_total))
        );
        eprintln!(
            "  refused whole: {} {:?}; dropped a line: {} {:?}",
            self.refused.len(),
            self.refused.iter().take(5).collect::<Vec<_>>(),
            self.dropping.len(),
            self.dropping.iter().take(5).collect::<Vec<_>>()
        );
        (held_out_total, lowest)
    }
}

fn summed(s: &Score) -> Score {
    Score {
        right: s.right,
        total: s.total,
        missed: Vec::new(),
    }
}

fn shown(s: Option<&Score>) -> String {
    s.map_or("—".to_owned(), |s| {
        format!("{}/{} ({:.1} %)", s.right, s.total, s.ratio() * 100.0)
    })
}
