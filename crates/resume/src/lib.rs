//! JSON Resume documents: what Redline edits.
//!
//! Redline stores and edits resumes in the [JSON Resume](https://jsonresume.org) format, version 1.x. This
//! crate owns what is specific to that format and knows nothing of storage, models or the desktop shell.
//!
//! # Layout
//! - [`sample`]: the sample resume bundled in `assets/`, which every new installation starts from, so the
//!   window is never empty.
//! - [`SCHEMA`]: the JSON Resume schema (draft-07) bundled in `assets/`, for validation.
//! - [`sections`]: the top-level sections of a resume, in the order a reader expects them.
//! - [`validate`]: checks a document against the schema, listing each problem by JSON Pointer and rule.
//!
//! Rendering to HTML and PDF lands here too (see the export issue).

use std::sync::OnceLock;

use serde_json::Value;

/// The JSON Resume sample (`assets/sample.resume.json`, MIT, from the jsonresume project).
pub const SAMPLE: &str = include_str!("../../../assets/sample.resume.json");

/// The JSON Resume schema 1.x (`assets/resume.schema.json`, MIT, from the jsonresume project).
pub const SCHEMA: &str = include_str!("../../../assets/resume.schema.json");

/// The sample resume as a JSON value.
pub fn sample() -> Value {
    serde_json::from_str(SAMPLE).expect("the bundled sample resume is valid JSON")
}

/// The title a resume is listed under: the person's name and label, or a neutral fallback.
pub fn title_of(resume: &Value) -> String {
    let basics = &resume["basics"];
    let name = basics["name"].as_str().map(str::trim).unwrap_or("");
    let label = basics["label"].as_str().map(str::trim).unwrap_or("");
    match (name.is_empty(), label.is_empty()) {
        (false, false) => format!("{name} — {label}"),
        (false, true) => name.to_owned(),
        (true, false) => label.to_owned(),
        (true, true) => "Untitled resume".to_owned(),
    }
}

/// The top-level sections of a JSON Resume, in the order the resume view shows them.
pub fn sections() -> &'static [&'static str] {
    &[
        "basics",
        "work",
        "volunteer",
        "education",
        "awards",
        "certificates",
        "publications",
        "skills",
        "languages",
        "interests",
        "references",
        "projects",
    ]
}

/// One way a document breaks the JSON Resume schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaViolation {
    /// JSON Pointer of the offending value (`""` for the whole document).
    pub pointer: String,
    /// The rule broken, in the schema validator's words.
    pub rule: String,
}

impl std::fmt::Display for SchemaViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "the resume"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.rule)
    }
}

/// Checks `document` against the JSON Resume schema; every problem is listed.
pub fn validate(document: &Value) -> Result<(), Vec<SchemaViolation>> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        let schema: Value = serde_json::from_str(SCHEMA).expect("the bundled schema is valid JSON");
        jsonschema::validator_for(&schema).expect("the bundled schema compiles")
    });
    let violations: Vec<_> = validator
        .iter_errors(document)
        .map(|e| SchemaViolation {
            pointer: e.instance_path().to_string(),
            rule: e.to_string(),
        })
        .collect();
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_valid_and_a_bad_value_is_named_by_pointer() {
        assert_eq!(validate(&sample()), Ok(()));
        let mut bad = sample();
        bad["work"][0]["highlights"] = serde_json::json!("not a list");
        bad["basics"]["email"] = serde_json::json!(42);
        let violations = validate(&bad).unwrap_err();
        let pointers: Vec<_> = violations.iter().map(|v| v.pointer.as_str()).collect();
        assert!(pointers.contains(&"/work/0/highlights"), "{violations:?}");
        assert!(pointers.contains(&"/basics/email"), "{violations:?}");
        assert!(
            violations.iter().any(|v| v
                .to_string()
                .starts_with("/basics/email: 42 is not of type")),
            "{violations:?}"
        );
    }

    #[test]
    fn the_sample_is_a_resume_with_a_name_and_work() {
        let sample = sample();
        assert_eq!(sample["basics"]["name"], "Richard Hendriks");
        assert!(sample["work"].as_array().is_some_and(|w| !w.is_empty()));
    }

    #[test]
    fn every_section_the_view_shows_is_a_property_of_the_schema() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        for section in sections() {
            assert!(
                schema["properties"].get(*section).is_some(),
                "{section} is not in the JSON Resume schema"
            );
        }
    }

    #[test]
    fn titles_fall_back_gracefully() {
        assert_eq!(title_of(&sample()), "Richard Hendriks — Programmer");
        let named = serde_json::json!({"basics": {"name": "Ada"}});
        assert_eq!(title_of(&named), "Ada");
        assert_eq!(title_of(&serde_json::json!({})), "Untitled resume");
    }
}
