//! Any JSON value, grown snapshot by snapshot (the reader's partial values over its text), encoded into
//! chunks and read back: the reader ends with the same value, and after each snapshot's chunks shows no
//! more than that snapshot.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redline_stream::{Encoder, Reader, is_growth};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, text)) = data.split_first() else { return };
    let Ok(value) = serde_json::from_slice::<Value>(text) else { return };
    let text = value.to_string();
    // Snapshots: the partial value after each piece of the text.
    let step = usize::from(seed % 8) + 1;
    let mut snapshots = Vec::new();
    let mut reader = Reader::new();
    for chunk in text.as_bytes().chunks(step) {
        reader.feed_quiet(chunk).unwrap();
        if let Some(v) = reader.value() {
            if snapshots.last() != Some(v) {
                snapshots.push(v.clone());
            }
        }
    }
    reader.finish().unwrap();
    let last = reader.value().unwrap().clone();
    if snapshots.last() != Some(&last) {
        snapshots.push(last.clone());
    }
    assert_eq!(last, value);

    let mut encoder = Encoder::new(usize::from(seed >> 4) + 1);
    let mut replay = Reader::new();
    for (i, snapshot) in snapshots.iter().enumerate() {
        for chunk in encoder.push(snapshot.clone()).unwrap() {
            replay.feed_quiet(chunk.as_bytes()).unwrap();
        }
        if i > 0 {
            let shown = replay.value().expect("something is shown after the first snapshot");
            assert!(is_growth(shown, &snapshots[i - 1]), "showed {shown} beyond snapshot {}", snapshots[i - 1]);
        }
    }
    for chunk in encoder.finish().unwrap() {
        replay.feed_quiet(chunk.as_bytes()).unwrap();
    }
    replay.finish().unwrap();
    assert_eq!(replay.value(), Some(&value));
});
