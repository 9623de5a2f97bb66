//! Any bytes, cut into chunks anywhere: the reader never panics, agrees with serde_json on what is JSON and
//! what its value is, only ever extends its partial value, and completes every prefix into valid JSON.
#![no_main]

use std::collections::{HashMap, HashSet};

use libfuzzer_sys::fuzz_target;
use redline_stream::{Event, Reader, is_growth};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&cut_seed, text)) = data.split_first() else { return };
    let step = usize::from(cut_seed % 16) + 1;
    let mut reader = Reader::new();
    let mut last: Option<Value> = None;
    let mut fed_ok = true;
    // A repeated key replaces the earlier member (as serde_json does): the one way a value may change.
    let mut keys: HashMap<String, HashSet<String>> = HashMap::new();
    let mut repeated_key = false;
    for chunk in text.chunks(step) {
        let fed = reader.feed(chunk, |path, event| match event {
            Event::StartObject => {
                keys.insert(path.to_pointer(), HashSet::new());
            }
            Event::Key(key) => {
                repeated_key |= !keys.entry(path.to_pointer()).or_default().insert(key.to_owned());
            }
            _ => {}
        });
        if fed.is_err() {
            fed_ok = false;
            break;
        }
        if let Some(now) = reader.value().filter(|_| !repeated_key) {
            if let Some(before) = &last {
                assert!(is_growth(before, now), "the partial value shrank: {before} then {now}");
            }
            last = Some(now.clone());
        }
        if let Some(completed) = reader.completed_text() {
            if let Err(e) = serde_json::from_str::<Value>(&completed) {
                assert!(e.to_string().contains("recursion limit"), "completed_text {completed:?} is not JSON: {e}");
            }
        }
    }
    let ours = if fed_ok { reader.finish().ok().and(reader.value().cloned()) } else { None };
    match (serde_json::from_slice::<Value>(text), ours) {
        (Ok(expected), Some(value)) => assert_eq!(value, expected),
        (Ok(_), None) => {
            // serde_json accepts what the reader refuses only past the reader's depth limit; serde_json's own
            // limit (128) is lower, so this cannot happen.
            panic!("serde_json accepts {:?}, the reader does not", String::from_utf8_lossy(text));
        }
        (Err(e), Some(_)) => assert!(
            e.to_string().contains("recursion limit"),
            "the reader accepts {:?}, serde_json does not: {e}",
            String::from_utf8_lossy(text)
        ),
        (Err(_), None) => {}
    }
});
