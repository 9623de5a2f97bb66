use serde_json::{Value, json};

use super::*;

/// Feeds `chunks` and returns every event as a line `pointer event`, and the reader.
fn events_of(chunks: &[&str]) -> (Vec<String>, Reader) {
    let mut reader = Reader::new();
    let mut lines = Vec::new();
    for chunk in chunks {
        reader
            .feed(chunk.as_bytes(), |path, event| {
                lines.push(format!("{path} {event:?}"))
            })
            .unwrap();
    }
    (lines, reader)
}

/// A reader that refuses nesting deeper than `max_depth`, its other limits the defaults.
fn nesting_at_most(max_depth: usize) -> Reader {
    Reader::with_limits(Limits {
        max_depth,
        ..Limits::default()
    })
}

/// The partial value after each chunk.
fn partials(chunks: &[&[u8]]) -> Vec<Option<Value>> {
    let mut reader = Reader::new();
    chunks
        .iter()
        .map(|chunk| {
            reader.feed_quiet(chunk).unwrap();
            reader.value().cloned()
        })
        .collect()
}

#[test]
fn events_carry_the_path_of_their_value() {
    let (lines, mut reader) =
        events_of(&[r#"{"ops":[{"op":"add","path":"/a"},{"v":[1,true,null]}]}"#]);
    reader.finish().unwrap();
    assert_eq!(
        lines,
        [
            " StartObject",
            " Key(\"ops\")",
            "/ops StartArray",
            "/ops/0 StartObject",
            "/ops/0 Key(\"op\")",
            "/ops/0/op StringStart",
            "/ops/0/op StringAppend(\"add\")",
            "/ops/0/op StringEnd",
            "/ops/0 Key(\"path\")",
            "/ops/0/path StringStart",
            "/ops/0/path StringAppend(\"/a\")",
            "/ops/0/path StringEnd",
            "/ops/0 EndObject",
            "/ops/1 StartObject",
            "/ops/1 Key(\"v\")",
            "/ops/1/v StartArray",
            "/ops/1/v/0 Number(Number(1))",
            "/ops/1/v/1 Bool(true)",
            "/ops/1/v/2 Null",
            "/ops/1/v EndArray",
            "/ops/1 EndObject",
            "/ops EndArray",
            " EndObject",
        ]
    );
}

#[test]
fn a_string_grows_by_one_append_per_feed() {
    let (lines, _) = events_of(&[r#"{"s":"He"#, "llo, w", r#"orld"}"#]);
    let appends: Vec<_> = lines
        .iter()
        .filter(|l| l.contains("StringAppend"))
        .collect();
    assert_eq!(
        appends,
        [
            "/s StringAppend(\"He\")",
            "/s StringAppend(\"llo, w\")",
            "/s StringAppend(\"orld\")"
        ]
    );
}

#[test]
fn keys_appear_only_once_their_value_starts() {
    let steps = partials(&[b"{\"a\"", b":", b" \"", b"x\"", b",\"b\":", b"[", b"]}"]);
    assert_eq!(
        steps,
        [
            Some(json!({})),
            Some(json!({})),
            Some(json!({"a": ""})),
            Some(json!({"a": "x"})),
            Some(json!({"a": "x"})),
            Some(json!({"a": "x", "b": []})),
            Some(json!({"a": "x", "b": []})),
        ]
    );
}

#[test]
fn numbers_and_literals_appear_only_when_terminated() {
    let steps = partials(&[b"[1", b"2", b".", b"5", b",tr", b"ue", b",-", b"0]"]);
    assert_eq!(
        steps,
        [
            Some(json!([])),
            Some(json!([])),
            Some(json!([])),
            Some(json!([])),
            Some(json!([12.5])),
            Some(json!([12.5, true])),
            Some(json!([12.5, true])),
            Some(json!([12.5, true, -0.0])),
        ]
    );
}

#[test]
fn a_root_number_completes_at_finish() {
    let mut reader = Reader::new();
    reader.feed_quiet(b"12").unwrap();
    assert_eq!(reader.value(), None);
    let mut seen = Vec::new();
    reader
        .finish_with(|_, e| seen.push(format!("{e:?}")))
        .unwrap();
    assert_eq!(reader.value(), Some(&json!(12)));
    assert_eq!(seen, ["Number(Number(12))"]);
}

#[test]
fn a_split_utf8_sequence_waits_for_its_end() {
    let text = "{\"s\":\"a€b\"}".as_bytes(); // € is three bytes: E2 82 AC
    let euro = text.iter().position(|&b| b == 0xE2).unwrap();
    let steps = partials(&[
        &text[..euro + 1],
        &text[euro + 1..euro + 2],
        &text[euro + 2..],
    ]);
    assert_eq!(steps[0], Some(json!({"s": "a"})));
    assert_eq!(steps[1], Some(json!({"s": "a"})));
    assert_eq!(steps[2], Some(json!({"s": "a€b"})));
}

#[test]
fn a_split_surrogate_pair_waits_for_its_low_half() {
    let steps = partials(&[br#"["x\uD8"#, br#"3D\u"#, br#"DE0"#, br#"0y"]"#]);
    assert_eq!(steps[0], Some(json!(["x"])));
    assert_eq!(steps[1], Some(json!(["x"])));
    assert_eq!(steps[2], Some(json!(["x"])));
    assert_eq!(steps[3], Some(json!(["x😀y"])));
}

#[test]
fn every_escape_decodes_even_when_split() {
    let text = br#"["\"\\\/\b\f\n\r\t\u00e9"]"#;
    let expected: Value = serde_json::from_slice(text).unwrap();
    for split in 1..text.len() {
        let mut reader = Reader::new();
        reader.feed_quiet(&text[..split]).unwrap();
        reader.feed_quiet(&text[split..]).unwrap();
        reader.finish().unwrap();
        assert_eq!(reader.value(), Some(&expected), "split at {split}");
    }
}

#[test]
fn repeated_keys_keep_the_last_value_as_serde_json_does() {
    let mut reader = Reader::new();
    reader.feed_quiet(br#"{"a":1,"b":2,"a":3}"#).unwrap();
    reader.finish().unwrap();
    assert_eq!(reader.value(), Some(&json!({"a": 3, "b": 2})));
}

#[test]
fn completed_text_closes_every_kind_of_prefix() {
    let cases: &[(&str, Option<&str>)] = &[
        ("", None),
        ("  ", None),
        ("-", None),
        ("[12", Some("[12]")),
        (r#"{"a": "hel"#, Some(r#"{"a": "hel"}"#)),
        (r#"{"a": tr"#, Some(r#"{"a": true}"#)),
        (r#"{"a": 2."#, Some(r#"{"a": 2}"#)),
        (r#"{"a": 1e+"#, Some(r#"{"a": 1}"#)),
        (r#"{"a": 1, "b"#, Some(r#"{"a": 1}"#)),
        (r#"{"a": 1, "b":"#, Some(r#"{"a": 1}"#)),
        (r#"{"a": 1,"#, Some(r#"{"a": 1}"#)),
        ("[1, -", Some("[1]")),
        ("[1, 1e999", Some("[1]")),
        ("1e99", Some("1e99")),
        ("[1, [", Some("[1, []]")),
        (r#"[{"k"#, Some("[{}]")),
        (r#"["ab\"#, Some(r#"["ab"]"#)),
        (r#"["ab\u00"#, Some(r#"["ab"]"#)),
        (r#"["ab\uD83D"#, Some(r#"["ab"]"#)),
        (r#"["ab\uD83D\uDE00"#, Some(r#"["ab\uD83D\uDE00"]"#)),
        ("[\"a\u{e9}", Some("[\"a\u{e9}\"]")),
        (r#"{"a":[1,{"b":null}"#, Some(r#"{"a":[1,{"b":null}]}"#)),
    ];
    for (prefix, expected) in cases {
        let mut reader = Reader::new();
        reader.feed_quiet(prefix.as_bytes()).unwrap();
        let completed = reader.completed_text();
        assert_eq!(completed.as_deref(), *expected, "completing {prefix:?}");
        if let Some(text) = completed {
            serde_json::from_str::<Value>(&text)
                .unwrap_or_else(|e| panic!("{text:?} is not JSON: {e}"));
        }
    }
}

#[test]
fn completed_text_does_not_disturb_the_stream() {
    // The json_completer bug: completing `[12` must not turn `[12` + `3]` into `[12,3]`.
    let mut reader = Reader::new();
    reader.feed_quiet(b"[12").unwrap();
    assert_eq!(reader.completed_text().as_deref(), Some("[12]"));
    reader.feed_quiet(b"3]").unwrap();
    reader.finish().unwrap();
    assert_eq!(reader.value(), Some(&json!([123])));
    // A UTF-8 sequence split by the chunking is cut before, never completed with garbage.
    let mut reader = Reader::new();
    reader.feed_quiet(&"[\"é".as_bytes()[..3]).unwrap();
    assert_eq!(reader.completed_text().as_deref(), Some("[\"\"]"));
}

#[test]
fn errors_give_the_offset_and_a_plain_message() {
    let cases: &[(&[u8], usize, &str)] = &[
        (b"[1,]", 3, "unexpected ']', expected a JSON value"),
        (b"{\"a\" 1}", 5, "unexpected '1', expected ':' after a key"),
        (b"[01]", 2, "a number may not have a leading zero"),
        (
            b"[\"a\x01\"]",
            3,
            "control character 0x01 in a string (it must be escaped)",
        ),
        (b"[\"\\x\"]", 3, "unexpected 'x', expected an escape"),
        (b"[\"\xff\"]", 2, "invalid UTF-8 in a string"),
        (
            b"[\"\\uDC00\"]",
            7,
            "a low surrogate escape without a high one before it",
        ),
        (
            b"{} x",
            3,
            "unexpected 'x', expected nothing after the JSON value",
        ),
        (b"[truth]", 4, "unexpected 't', expected the literal `true`"),
        (b"[1e400]", 1, "the number 1e400 is out of range"),
    ];
    for (text, offset, message) in cases {
        let mut reader = Reader::new();
        let err = reader
            .feed_quiet(text)
            .and_then(|()| reader.finish())
            .unwrap_err();
        assert_eq!(
            err.offset,
            *offset,
            "{}: {err}",
            String::from_utf8_lossy(text)
        );
        assert!(
            err.to_string().contains(message),
            "{}: {err}",
            String::from_utf8_lossy(text)
        );
        // The reader stays failed: the same error again, and nothing more is read.
        assert_eq!(reader.feed_quiet(b"1").unwrap_err(), err);
    }
}

#[test]
fn an_open_prefix_is_incomplete_not_invalid() {
    for prefix in [
        "",
        "[",
        r#"{"a":"#,
        r#"["abc"#,
        "[1",
        "-",
        "tr",
        r#"["\u12"#,
    ] {
        let mut reader = Reader::new();
        reader.feed_quiet(prefix.as_bytes()).unwrap();
        let err = reader.finish().unwrap_err();
        assert!(err.is_incomplete(), "{prefix:?}: {err}");
        assert!(err.to_string().starts_with("incomplete JSON"), "{err}");
    }
}

#[test]
fn nesting_deeper_than_the_limit_is_refused() {
    let mut reader = nesting_at_most(3);
    reader.feed_quiet(b"[[[").unwrap();
    let err = reader.feed_quiet(b"[").unwrap_err();
    assert_eq!(err.kind, ErrorKind::TooDeep(3));
    assert_eq!(err.offset, 3);
    assert_eq!(
        err.to_string(),
        "JSON nests deeper than the limit of 3 levels (at byte 3)"
    );
}

#[test]
fn streams_longer_than_the_limit_are_refused() {
    let mut reader = Reader::with_limits(Limits {
        max_bytes: 8,
        ..Limits::default()
    });
    reader.feed_quiet(b"[1,2,").unwrap();
    let err = reader.feed_quiet(b"3,4]").unwrap_err();
    assert_eq!(err.kind, ErrorKind::TooLarge(8));
}

#[test]
fn a_very_deep_stream_neither_overflows_nor_panics() {
    // Deeper than recursion could survive: the reader has an explicit stack.
    let depth = 1_000_000;
    let mut reader = nesting_at_most(depth).events_only();
    reader.feed_quiet(&vec![b'['; depth]).unwrap();
    reader.feed_quiet(&vec![b']'; depth]).unwrap();
    reader.finish().unwrap();

    // The default limit stops it early, with its own error.
    let err = Reader::new().feed_quiet(&vec![b'['; depth]).unwrap_err();
    assert_eq!(err.kind, ErrorKind::TooDeep(512));
}

#[test]
fn a_deep_partial_value_is_dropped_without_recursion() {
    // serde_json drops a value recursively; the reader takes a deep one apart iteratively, so dropping
    // it on a thread with a small stack is fine.
    let depth = 10_000;
    let mut reader = nesting_at_most(depth);
    reader.feed_quiet(&vec![b'['; depth]).unwrap();
    assert!(reader.value().is_some());
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || drop(reader))
        .unwrap()
        .join()
        .expect("dropping a deep partial value must not overflow the stack");
}
