//! The resumes the export tests of this crate and of `redline-pdf` share (the latter includes this file by
//! path): the sample, the ones written for the purpose in `tests/resumes`, a crowded one whose lines
//! wrap in many places, and one whose bullets are in two languages.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The folder of the resumes written for the tests.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../resume/tests/resumes")
}

/// The sample, then `long`, `non-latin` and `empty-sections`, in that order.
pub fn resumes() -> Vec<(String, Value)> {
    let mut all = vec![("sample".to_owned(), redline_resume::sample())];
    for name in ["long", "non-latin", "empty-sections"] {
        let text = std::fs::read_to_string(dir().join(format!("{name}.json"))).unwrap();
        all.push((name.to_owned(), serde_json::from_str(&text).unwrap()));
    }
    all
}

/// The sample with profiles of every length and an entry with a long subtitle and place, so that the
/// header's and the entry's lines break at many places; in English (`crowded`) and Arabic (`crowded-ar`).
pub fn crowded() -> Vec<(String, Value)> {
    let mut crowded = redline_resume::sample();
    crowded["basics"]["profiles"] = (1..=14)
        .map(|i| json!({ "network": "Network".repeat(i % 4 + 1), "username": format!("user{}", "x".repeat(i)) }))
        .collect();
    crowded["work"][0]["name"] =
        json!("Pied Piper, the compression company of Palo Alto and beyond");
    crowded["work"][0]["location"] = json!("Palo Alto, California, United States of America");
    let english = crowded.clone();
    crowded["meta"] = json!({ "language": "ar" });
    vec![("crowded".into(), english), ("crowded-ar".into(), crowded)]
}

/// The sample with two Arabic bullets among its first job's English ones, in an English resume (`mixed`)
/// and an Arabic one (`mixed-ar`): bullets that read the other way from the resume.
pub fn mixed() -> Vec<(String, Value)> {
    let mut mixed = redline_resume::sample();
    let highlights = mixed["work"][0]["highlights"].as_array_mut().unwrap();
    highlights.insert(1, json!("قاد فريقًا من خمسة مهندسين"));
    highlights.push(json!("بنى خوارزمية ضغط جديدة"));
    let english = mixed.clone();
    mixed["meta"] = json!({ "language": "ar" });
    vec![("mixed".into(), english), ("mixed-ar".into(), mixed)]
}
