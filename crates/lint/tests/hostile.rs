//! Text no one vetted — a model's output, an imported file — never makes the check panic, and every
//! finding's offsets fall inside its field and give back its words.

use redline_lint::{Date, Options, check};
use serde_json::{Value, json};

/// The character at `pointer`'s string, or `""` for a field that is missing.
fn field(resume: &Value, pointer: &str) -> String {
    resume
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

#[test]
fn hostile_text_never_panics_and_offsets_stay_in_their_field() {
    let long = "Managed teh ".repeat(5_000);
    let strange = [
        "",
        " ",
        "\u{202e}Led a tem\u{202c} of 5",
        "e\u{301}quipe ́ ́ ̈",
        "👩‍💻 Built 🚀 a sytem",
        "I I I I I",
        "'''''''",
        "a-b-c-d--e",
        "...,,,;;;!!!",
        "ﬁnance ﬂow", // ligatures
        "\u{0}\u{1}\u{7f}",
        long.as_str(),
        "Responsible for",
        "was",
        "wurde",
        "l'",
        "J'",
    ];
    for (n, text) in strange.iter().enumerate() {
        let language = ["de", "fr", "ja", "ar", "xx", "en"][n % 6];
        let resume = json!({
            "basics": {"name": text, "summary": text, "email": 5, "phone": null, "location": [text]},
            "work": [
                {"name": text, "startDate": text, "endDate": "2020-13-40", "highlights": [text, text, text, 7, null]},
                {"startDate": "0000", "endDate": "9999-12-31", "highlights": "not a list"},
                "not an entry"
            ],
            "projects": {"not": "a list"},
            "awards": [{"date": text, "title": text}],
            "meta": {"language": language}
        });
        let options = Options {
            today: Date::parse("2026-11-28"),
            words: vec![(*text).to_owned()],
            ..Options::default()
        };
        let findings = check(&resume, &options);
        assert!(findings.len() <= redline_lint::MAX_FINDINGS);
        for finding in &findings {
            let chars: Vec<char> = field(&resume, &finding.path).chars().collect();
            assert!(
                finding.start <= finding.end && finding.end <= chars.len(),
                "case {n}: {finding:?}"
            );
            let words: String = chars[finding.start..finding.end].iter().collect();
            assert_eq!(words, finding.text, "case {n}");
        }
    }
}
