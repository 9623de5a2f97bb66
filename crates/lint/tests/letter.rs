//! The writing check on a cover letter: spelling (and English grammar, where the build has it) in the
//! letter's own parts, the names of its resume and of its recipient taken as words, none of a resume's rules
//! on bullets and dates, and the letter's language over the resume's.

use redline_lint::{Family, Options, RuleId, check_letter};
use serde_json::{Value, json};

fn letter(paragraphs: &[&str]) -> Value {
    json!({
        "recipient": {"name": "Gavin Belson", "company": "Hooli"},
        "role": "Compression Engineer",
        "subject": "Application for the Compression Engineer position",
        "greeting": "Dear Gavin Belson,",
        "paragraphs": paragraphs,
        "closing": "Kind regards,"
    })
}

#[test]
fn a_letter_s_typos_are_found_in_its_own_parts_and_its_names_are_words() {
    let resume = redline_resume::sample();
    let findings = check_letter(
        &letter(&[
            "I am writting to apply for the role at Hooli.",
            "At Pied Piper I built the compression software our customers relied on.",
        ]),
        &resume,
        &Options::default(),
    );
    let spelled: Vec<(&str, &str)> = findings
        .iter()
        .filter(|f| f.rule == RuleId::Spelling)
        .map(|f| (f.path.as_str(), f.text.as_str()))
        .collect();
    assert_eq!(spelled, [("/paragraphs/0", "writting")], "{findings:#?}");
    assert!(
        findings
            .iter()
            .all(|f| matches!(f.rule.family(), Family::Spelling | Family::Grammar)),
        "a letter has no bullets or dates: {findings:#?}"
    );
    let off = Options {
        disabled: [RuleId::Spelling].into_iter().collect(),
        ..Options::default()
    };
    let unspelled = check_letter(&letter(&["I am writting."]), &resume, &off);
    assert!(unspelled.iter().all(|f| f.rule != RuleId::Spelling));
}

#[test]
fn a_letter_in_german_is_spelt_in_german() {
    let resume = redline_resume::sample();
    let mut german = letter(&["Ich bewerbe mich hiermit um die Stelle bei Hooli."]);
    german["meta"] = json!({"language": "de"});
    let findings = check_letter(&german, &resume, &Options::default());
    let spelled: Vec<&str> = findings
        .iter()
        .filter(|f| f.rule == RuleId::Spelling && f.path == "/paragraphs/0")
        .map(|f| f.text.as_str())
        .collect();
    assert_eq!(spelled, Vec::<&str>::new(), "{findings:#?}");
    let english = check_letter(
        &letter(&["Ich bewerbe mich hiermit um die Stelle bei Hooli."]),
        &resume,
        &Options::default(),
    );
    assert!(
        english.iter().any(|f| f.rule == RuleId::Spelling),
        "read as English, the German words are not English words"
    );
}

#[test]
fn grammar_is_checked_in_a_letter_s_paragraphs() {
    assert!(
        redline_lint::grammar_available(),
        "the grammar checker is not built: cargo build --features grammar --bin redline-grammar (the workspace's test run builds it)"
    );
    let resume = redline_resume::sample();
    let findings = check_letter(
        &letter(&["I has built the the compression software."]),
        &resume,
        &Options::default(),
    );
    assert!(
        findings
            .iter()
            .any(|f| f.rule.family() == Family::Grammar && f.path == "/paragraphs/0"),
        "{findings:#?}"
    );
}
