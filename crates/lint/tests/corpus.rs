//! The corpus: resumes in English, German and French with seeded, labelled mistakes
//! (`tests/corpus/<part>/<case>.json`, written by the generator in `support/corpus.rs`). Prints recall and
//! precision per family of rules for each part and holds them to floors; clean resumes, the bundled
//! sample among them, give no spelling or grammar finding.
//!
//! `REDLINE_BLESS=1 cargo test -p redline-lint --test corpus` writes the files again from the generator.

#![allow(clippy::too_many_lines)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use redline_lint::{Date, Finding, Options, check};
use support::corpus::{Case, Label, corpus};

/// Recall and precision must reach this in every family, in every part.
const FLOOR: f64 = 0.90;

fn folder(part: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(part)
}

/// The cases of `part` as the files hold them; the files are the generator's output, or the test says how
/// to write them again.
fn read_part(part: &str, generated: &[Case]) -> Vec<Case> {
    let dir = folder(part);
    if std::env::var_os("REDLINE_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for case in generated {
            let text = serde_json::to_string_pretty(case).unwrap();
            std::fs::write(dir.join(format!("{}.json", case.name)), text + "\n").unwrap();
        }
    }
    let mut cases: Vec<Case> = std::fs::read_dir(&dir)
        .unwrap_or_else(|_| panic!("{} is missing: run with REDLINE_BLESS=1", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    let mut expected = generated.to_vec();
    expected.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        cases == expected,
        "{part}: the files differ from the generator's output; run with REDLINE_BLESS=1"
    );
    cases
}

fn family(finding: &Finding) -> &'static str {
    match finding.rule.family() {
        redline_lint::Family::Spelling => "spelling",
        redline_lint::Family::Grammar => "grammar",
        redline_lint::Family::Rules => "rules",
    }
}

/// Whether `finding` is what `label` expects: the same family (and, for the recruiter's rules, the same
/// rule), the same field, and words that overlap (an empty span matches the same empty span).
fn matches(finding: &Finding, label: &Label) -> bool {
    let same_rule = label.family != "rules" || finding.rule.id() == label.rule;
    let overlap = if label.start == label.end || finding.start == finding.end {
        (finding.start, finding.end) == (label.start, label.end)
    } else {
        finding.start < label.end && label.start < finding.end
    };
    family(finding) == label.family && same_rule && finding.path == label.path && overlap
}

fn options() -> Options {
    Options {
        today: Date::parse("2026-11-28"),
        ..Options::default()
    }
}

#[derive(Default, Debug)]
struct Score {
    labels: usize,
    recalled: usize,
    findings: usize,
    right: usize,
}

#[test]
fn seeded_mistakes_are_found_and_clean_resumes_are_clean() {
    assert!(
        redline_lint::grammar_available(),
        "the grammar checker is not built: cargo build --features grammar --bin redline-grammar (the workspace's test run builds it)"
    );
    let sample = redline_resume::sample();
    let clean = check(&sample, &options());
    let noisy: Vec<&Finding> = clean.iter().filter(|f| family(f) != "rules").collect();
    assert!(
        noisy.is_empty(),
        "the sample gives spelling or grammar findings: {noisy:#?}"
    );
    let mut failures = Vec::new();
    for (part, generated) in corpus() {
        let cases = read_part(part, &generated);
        let mut scores: BTreeMap<&str, Score> = BTreeMap::new();
        for case in &cases {
            let findings = check(&case.resume, &options());
            if case.name.ends_with("-clean") {
                for f in findings.iter().filter(|f| family(f) != "rules") {
                    failures.push(format!(
                        "{part}/{}: a clean resume gives {} {} {:?}",
                        case.name, f.rule, f.path, f.text
                    ));
                }
            }
            let families = ["spelling", "grammar", "rules"];
            for name in families {
                let labels: Vec<&Label> =
                    case.expected.iter().filter(|l| l.family == name).collect();
                let found: Vec<&Finding> = findings.iter().filter(|f| family(f) == name).collect();
                let score = scores.entry(name).or_default();
                score.labels += labels.len();
                score.findings += found.len();
                for label in &labels {
                    if found.iter().any(|f| matches(f, label)) {
                        score.recalled += 1;
                    } else {
                        failures.push(format!("{part}/{}: missed {label:?}", case.name));
                    }
                }
                for finding in &found {
                    if labels.iter().any(|l| matches(finding, l)) {
                        score.right += 1;
                    } else {
                        failures.push(format!(
                            "{part}/{}: unexpected {} {} {:?}",
                            case.name, finding.rule, finding.path, finding.text
                        ));
                    }
                }
            }
        }
        let labels: usize = cases.iter().map(|c| c.expected.len()).sum();
        println!(
            "corpus {part}: {} resumes, {labels} labelled mistakes",
            cases.len()
        );
        for (name, s) in &scores {
            let recall = s.recalled as f64 / s.labels.max(1) as f64;
            let precision = s.right as f64 / s.findings.max(1) as f64;
            println!(
                "  {name:9} recall {:5.1} % ({}/{})  precision {:5.1} % ({}/{})",
                100.0 * recall,
                s.recalled,
                s.labels,
                100.0 * precision,
                s.right,
                s.findings
            );
            if recall < FLOOR || precision < FLOOR {
                failures.push(format!(
                    "{part}: {name} under the floor of {:.0} %",
                    FLOOR * 100.0
                ));
            }
        }
    }
    for failure in &failures {
        println!("  {failure}");
    }
    assert!(
        !failures
            .iter()
            .any(|f| f.contains("under the floor") || f.contains("a clean resume")),
        "a family is under its floor:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_same_resume_gives_the_same_findings_in_document_order() {
    // A pointer's segments, indices as numbers: `/work/2` comes before `/work/10`.
    let key = |f: &Finding| -> (Vec<(u64, String)>, usize) {
        let segments = f
            .path
            .split('/')
            .map(|s| (s.parse().unwrap_or(u64::MAX), s.to_owned()));
        (segments.collect(), f.start)
    };
    let (_, cases) = &corpus()[0];
    for case in cases.iter().filter(|c| c.name.ends_with("-seeded")).take(6) {
        let first = check(&case.resume, &options());
        assert!(!first.is_empty(), "{}", case.name);
        assert_eq!(first, check(&case.resume, &options()), "{}", case.name);
        assert!(
            first.windows(2).all(|w| key(&w[0]) <= key(&w[1])),
            "{}: {first:#?}",
            case.name
        );
    }
}
