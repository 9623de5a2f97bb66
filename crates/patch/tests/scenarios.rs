//! The stabilizer's scenarios, as data: each file in `tests/scenarios/` gives a document, the patch model's
//! output (whole text cut into chunks, or explicit chunks), and the exact surface messages, notices and
//! final document expected. One runner; a failure names the case.
//!
//! To record a new scenario's expectations, write it without `expect` and run with `REDLINE_BLESS=1`; then
//! read what was recorded before committing it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use redline_patch::{Output, Policy, Scope, Stabilizer, Status, Surface};
use serde_json::{Value, json};

fn run(case: &Value) -> Value {
    let mut policy = Policy::default();
    for p in case["protect"].as_array().into_iter().flatten() {
        policy.protected.push(p.as_str().unwrap().to_owned());
    }
    if let Some(limit) = case["maxStringChars"].as_u64() {
        policy.max_string_chars = limit as usize;
    }
    for (knob, limit) in [
        ("maxOperations", &mut policy.max_operations),
        ("maxHeld", &mut policy.max_held),
        ("maxValueBytes", &mut policy.max_value_bytes),
        ("maxDocumentBytes", &mut policy.max_document_bytes),
    ] {
        if let Some(n) = case[knob].as_u64() {
            *limit = n as usize;
        }
    }
    let scope = match case["targets"].as_array() {
        Some(targets) => Scope::Targets(
            targets
                .iter()
                .map(|t| t.as_str().unwrap().to_owned())
                .collect(),
        ),
        None => Scope::Anywhere,
    };
    let start = Instant::now();
    let doc = case["doc"].clone();
    let mut surface = Surface::new("main");
    let mut stabilizer = Stabilizer::new(doc.clone(), 1, policy, scope, &mut surface, start)
        .with_stall_threshold(Duration::from_secs(5));
    if let Some(seen) = case.get("madeAgainst") {
        stabilizer = stabilizer.made_against(seen.clone());
    }
    let chunks: Vec<String> = match case["chunks"].as_array() {
        Some(chunks) => chunks
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect(),
        None => {
            let text = case["output"].as_str().unwrap();
            let size = case["chunk"].as_u64().unwrap_or(5) as usize;
            text.as_bytes()
                .chunks(size)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect()
        }
    };
    let mut messages = Vec::new();
    let mut record = |outputs: Vec<Output>| {
        for output in outputs {
            messages.push(match output {
                Output::Surface(m) => serde_json::to_value(m).unwrap(),
                Output::Notice(n) => serde_json::to_value(n).unwrap(),
            });
        }
    };
    // The clock moves one second per chunk; a case may stall (a long silence) after a given chunk.
    let stall_after = case["stallAfterChunk"].as_u64().map(|n| n as usize);
    for (i, chunk) in chunks.iter().enumerate() {
        let now = start + Duration::from_secs(i as u64);
        record(stabilizer.feed(chunk.as_bytes(), now));
        record(stabilizer.check_stall(now + Duration::from_millis(500)));
        if stall_after == Some(i) {
            record(stabilizer.check_stall(now + Duration::from_secs(60)));
            break;
        }
    }
    record(stabilizer.finish());
    let mut final_doc = doc;
    if let Status::Complete(bundle) = stabilizer.status() {
        final_doc = bundle.document.clone();
        record(stabilizer.commit(2));
    }
    let error = match stabilizer.status() {
        Status::Failed(reason) => json!(reason.to_string()),
        _ => Value::Null,
    };
    json!({"messages": messages, "final": final_doc, "committed": matches!(stabilizer.status(), Status::Committed(_)), "error": error})
}

#[test]
fn every_scenario_gives_exactly_the_expected_messages_and_document() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 12,
        "the scenarios are missing from {}",
        dir.display()
    );
    let bless = std::env::var_os("REDLINE_BLESS").is_some();
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let mut case: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let actual = run(&case);
        if bless && case.get("expect").is_none() {
            case["expect"] = actual;
            std::fs::write(&file, serde_json::to_string_pretty(&case).unwrap() + "\n").unwrap();
            continue;
        }
        let expected = &case["expect"];
        assert_eq!(actual["error"], expected["error"], "{name}: error");
        assert_eq!(
            actual["committed"], expected["committed"],
            "{name}: committed"
        );
        assert_eq!(actual["final"], expected["final"], "{name}: final document");
        assert_eq!(actual["messages"], expected["messages"], "{name}: messages");
        // Rolled back or committed, the view ends where the document is.
        let mut view = case["doc"].clone();
        for message in actual["messages"].as_array().unwrap() {
            match message["kind"].as_str() {
                Some("patch") => {
                    let ops: Vec<redline_patch::Operation> =
                        serde_json::from_value(message["ops"].clone()).unwrap();
                    redline_patch::apply(&mut view, &ops).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                Some("text") => {
                    let path = message["path"].as_str().unwrap();
                    let s = view.pointer_mut(path).and_then(|v| match v {
                        Value::String(s) => Some(s),
                        _ => None,
                    });
                    s.unwrap_or_else(|| panic!("{name}: no string at {path}"))
                        .push_str(message["append"].as_str().unwrap());
                }
                _ => {}
            }
        }
        assert_eq!(
            view, actual["final"],
            "{name}: the view does not end at the final document"
        );
    }
}
