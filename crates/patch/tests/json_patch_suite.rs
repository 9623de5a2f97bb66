//! The RFC 6902 conformance suite (`../shared/data/json-patch-tests`), driven from its data files: every
//! case not marked disabled either gives its expected document or fails, as the case says.

use std::path::PathBuf;

use redline_patch::{Operation, applied};
use serde_json::Value;

fn cases(file: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/json-patch-tests")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing: {e} (shared/ must sit beside the repository)",
            path.display()
        )
    });
    serde_json::from_str::<Vec<Value>>(&text).unwrap()
}

fn run(file: &str) -> usize {
    let mut ran = 0;
    for (i, case) in cases(file).iter().enumerate() {
        if case["disabled"] == true {
            continue;
        }
        let name = format!(
            "{file} #{i}: {}",
            case["comment"].as_str().unwrap_or("(no comment)")
        );
        let outcome = serde_json::from_value::<Vec<Operation>>(case["patch"].clone())
            .map_err(|e| e.to_string())
            .and_then(|ops| applied(&case["doc"], &ops).map_err(|e| e.to_string()));
        match (outcome, case.get("expected"), case.get("error")) {
            (Ok(result), Some(expected), _) => assert_eq!(&result, expected, "{name}"),
            (Ok(result), None, Some(error)) => {
                panic!("{name}: expected the error {error}, got {result}")
            }
            (Ok(_), None, None) => {} // a case that only checks the patch applies
            (Err(e), _, Some(_)) => assert!(!e.is_empty(), "{name}"),
            (Err(e), Some(_), None) => panic!("{name}: failed: {e}"),
            (Err(e), None, None) => panic!("{name}: failed: {e}"),
        }
        ran += 1;
    }
    ran
}

#[test]
fn every_enabled_case_of_tests_json_passes() {
    assert_eq!(run("tests.json"), 92);
}

#[test]
fn every_enabled_case_of_spec_tests_json_passes() {
    assert_eq!(run("spec_tests.json"), 16);
}
