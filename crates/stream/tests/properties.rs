//! Invariants no list of cases covers: for random JSON values fed in random chunks, every partial value is
//! contained in the next and the last equals serde_json's; every prefix completes into valid JSON; and the
//! encoder's chunks read back to each snapshot.

use proptest::prelude::*;
use redline_stream::{Encoder, Event, Reader, is_growth};
use serde_json::{Map, Number, Value};

/// Random JSON values: strings with escapes, non-ASCII and astral characters; all kinds of numbers.
fn json_value() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        "[a-z ]{0,12}",
        "\\PC{0,8}",
        Just("quote \" backslash \\ slash / tab \t newline \n".to_owned()),
        Just("emoji 😀 and ünïcödé €".to_owned()),
    ];
    let number = prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        (-1e12f64..1e12).prop_filter_map("finite", Number::from_f64),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number.prop_map(Value::Number),
        text.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{0,6}", inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Cuts `len` bytes into chunks at the given (sorted, deduplicated) points.
fn chunks(len: usize, mut cuts: Vec<usize>) -> Vec<(usize, usize)> {
    cuts.retain(|&c| c > 0 && c < len);
    cuts.sort_unstable();
    cuts.dedup();
    let mut from = 0;
    let mut out = Vec::new();
    for cut in cuts.into_iter().chain([len]) {
        out.push((from, cut));
        from = cut;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn partial_values_only_grow_and_end_as_serde_jsons(
        value in json_value(),
        pretty in any::<bool>(),
        cuts in prop::collection::vec(0usize..2048, 0..64),
    ) {
        let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
        let mut reader = Reader::new();
        let mut previous: Option<Value> = None;
        for (from, to) in chunks(text.len(), cuts) {
            reader.feed_quiet(&text.as_bytes()[from..to]).unwrap();
            let completed = reader.completed_text();
            if let Some(completed) = &completed {
                let closed: Value = serde_json::from_str(completed)
                    .unwrap_or_else(|e| panic!("{completed:?} is not JSON: {e}"));
                // The completion holds at least what the partial value shows.
                if let Some(now) = reader.value() {
                    prop_assert!(is_growth(now, &closed), "{now} is not in its completion {closed}");
                }
            }
            if let (Some(before), Some(now)) = (&previous, reader.value()) {
                prop_assert!(is_growth(before, now), "{before} then {now}");
            }
            previous = reader.value().cloned();
        }
        reader.finish().unwrap();
        prop_assert_eq!(reader.value(), Some(&value));
    }

    #[test]
    fn string_appends_rebuild_every_string(
        value in json_value(),
        cuts in prop::collection::vec(0usize..2048, 0..64),
    ) {
        // The events alone (no partial value) carry every string whole: appends concatenate to the value.
        let text = serde_json::to_string(&value).unwrap();
        let mut reader = Reader::new().events_only();
        let mut rebuilt: Vec<String> = Vec::new();
        let mut open = false;
        for (from, to) in chunks(text.len(), cuts) {
            reader.feed(&text.as_bytes()[from..to], |_, event| match event {
                Event::StringStart => { rebuilt.push(String::new()); open = true; }
                Event::StringAppend(s) => { assert!(open); rebuilt.last_mut().unwrap().push_str(s); }
                Event::StringEnd => open = false,
                _ => {}
            }).unwrap();
        }
        reader.finish().unwrap();
        let mut expected = Vec::new();
        let mut stack = vec![&value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => expected.push(s.clone()),
                Value::Array(items) => stack.extend(items.iter().rev()),
                Value::Object(map) => stack.extend(map.values().rev()),
                _ => {}
            }
        }
        prop_assert_eq!(rebuilt, expected);
    }

    #[test]
    fn encoded_snapshots_read_back_to_each_snapshot(
        value in json_value(),
        step in 1usize..9,
        max_chunk in 1usize..8,
    ) {
        // Snapshots of a growing value: the partial values over its text, every `step` bytes.
        let text = serde_json::to_string(&value).unwrap();
        let mut grower = Reader::new();
        let mut snapshots: Vec<Value> = Vec::new();
        for piece in text.as_bytes().chunks(step) {
            grower.feed_quiet(piece).unwrap();
            if let Some(v) = grower.value().filter(|v| snapshots.last() != Some(*v)) {
                snapshots.push(v.clone());
            }
        }
        grower.finish().unwrap();
        snapshots.push(value.clone());

        let mut encoder = Encoder::new(max_chunk);
        let mut reader = Reader::new();
        for (i, snapshot) in snapshots.iter().enumerate() {
            for chunk in encoder.push(snapshot.clone()).unwrap() {
                prop_assert!(chunk.chars().count() <= max_chunk);
                reader.feed_quiet(chunk.as_bytes()).unwrap();
            }
            // One snapshot late: after snapshot i's chunks the reader shows snapshot i-1 (less a number
            // still being held back), and never more.
            if i > 0 {
                let shown = reader.value().unwrap();
                prop_assert!(is_growth(shown, &snapshots[i - 1]), "shows {shown}, beyond {}", snapshots[i - 1]);
            }
        }
        for chunk in encoder.finish().unwrap() {
            reader.feed_quiet(chunk.as_bytes()).unwrap();
        }
        reader.finish().unwrap();
        prop_assert_eq!(reader.value(), Some(&value));
    }
}
