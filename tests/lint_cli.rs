//! `redline lint`'s contract, run as a user runs it against a throwaway data folder: one finding a line,
//! or `{"findings": [...]}` with `--json`; exit 1 when there is anything to fix, 0 when there is nothing.

mod common;

use std::path::Path;

use common::redline;
use serde_json::{Value, json};

/// Imports `resume` into the data folder `dir` and gives its id.
fn import(dir: &Path, resume: &Value) -> String {
    let file = dir.join("resume.json");
    std::fs::write(&file, resume.to_string()).unwrap();
    let out = common::succeeded(redline(dir, &["import", file.to_str().unwrap(), "--json"]));
    let imported: Value = serde_json::from_slice(&out.stdout).unwrap();
    imported["id"]
        .as_i64()
        .expect("the import gives an id")
        .to_string()
}

/// `redline lint --json`'s report on `resume`, imported into `dir`, which has findings (exit 1).
fn findings_of(dir: &Path, resume: &Value) -> Value {
    let id = import(dir, resume);
    let out = redline(dir, &["lint", "--doc", &id, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A short resume with nothing to fix: contact details, one ended job in the past tense with a figure.
fn clean() -> Value {
    json!({
        "basics": {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "+44 20 7946 0000",
                   "summary": "Engineer who builds reliable systems."},
        "work": [{"name": "Analytical Engines", "position": "Engineer", "startDate": "2019-01",
                  "endDate": "2020-06", "highlights": ["Reduced build times by 40% with a shared cache."]}]
    })
}

#[test]
fn a_typo_is_found_at_its_field_and_offsets_in_characters() {
    let dir = tempfile::tempdir().unwrap();
    let mut resume = clean();
    // A dash before the typo: its offset in characters differs from its offset in bytes.
    let summary = "Engineer — builds relable systems.";
    resume["basics"]["summary"] = json!(summary);
    let id = import(dir.path(), &resume);
    let out = redline(dir.path(), &["lint", "--doc", &id, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    let findings = report["findings"].as_array().unwrap();
    let start = summary[..summary.find("relable").unwrap()].chars().count();
    let spelling: Vec<&Value> = findings
        .iter()
        .filter(|f| f["rule"] == "spelling")
        .collect();
    assert_eq!(spelling.len(), 1, "{report:#}");
    let typo = spelling[0];
    assert_eq!(typo["path"], "/basics/summary");
    assert_eq!(
        (typo["start"].as_u64(), typo["end"].as_u64()),
        (Some(start as u64), Some(start as u64 + 7))
    );
    assert_eq!(typo["text"], "relable");
    assert!(
        typo["fix"].is_string(),
        "a spelling finding proposes a word: {typo}"
    );

    // The words: one line a finding, naming the rule, the field and the words.
    let out = redline(dir.path(), &["lint", "--doc", &id]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("spelling"))
        .expect("a spelling line");
    assert!(
        line.contains("/basics/summary") && line.contains("“relable”"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("to look at"));
}

#[test]
fn json_output_has_every_key_and_a_null_fix_where_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut resume = clean();
    resume["basics"]["phone"] = json!("");
    let report = findings_of(dir.path(), &resume);
    let findings = report["findings"].as_array().unwrap();
    for finding in findings {
        let keys: Vec<&String> = finding.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["rule", "path", "start", "end", "text", "message", "fix"],
            "{finding}"
        );
    }
    let phone = findings
        .iter()
        .find(|f| f["rule"] == "contact.phone-missing")
        .expect("no phone named");
    assert_eq!(phone["path"], "/basics/phone");
    assert!(phone["fix"].is_null());
}

#[test]
fn a_clean_resume_exits_0_and_an_added_word_is_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let id = import(dir.path(), &clean());
    let out = common::succeeded(redline(dir.path(), &["lint", "--doc", &id, "--json"]));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report, json!({"findings": []}));
    let out = common::succeeded(redline(dir.path(), &["lint", "--doc", &id]));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nothing to fix"));

    // A word of the user's own is kept in the data folder, and the check takes it from then on.
    let mut resume = clean();
    resume["basics"]["summary"] = json!("Engineer who builds Zorblat systems and zorblat tools.");
    let id = import(dir.path(), &resume);
    assert_eq!(
        redline(dir.path(), &["lint", "--doc", &id]).status.code(),
        Some(1)
    );
    common::succeeded(redline(
        dir.path(),
        &["lint", "--doc", &id, "--add-word", "zorblat"],
    ));
    let words = std::fs::read_to_string(dir.path().join("words.txt")).unwrap();
    assert_eq!(words.lines().collect::<Vec<_>>(), ["zorblat"]);
    let out = redline(
        dir.path(),
        &["lint", "--doc", &id, "--add-word", "two words"],
    );
    assert_eq!(out.status.code(), Some(4), "a word with a space is refused");
}

/// English grammar, from the `redline-grammar` program beside `redline` (started by the check, as the
/// installed command line would start the installed one): a repeated word and a verb that does not agree.
#[test]
fn grammar_is_found_by_the_program_beside_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut resume = clean();
    resume["basics"]["summary"] = json!("She have built the the reliable systems.");
    let report = findings_of(dir.path(), &resume);
    let grammar: Vec<(&str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("grammar."))
        })
        .map(|f| (f["rule"].as_str().unwrap(), f["text"].as_str().unwrap()))
        .collect();
    assert!(
        grammar.contains(&("grammar.repeated-word", "the the")),
        "{report:#}"
    );
    assert!(
        grammar.iter().any(|(rule, _)| *rule == "grammar.agreement"),
        "{report:#}"
    );
}
