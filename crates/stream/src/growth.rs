//! What "a growing value" means, for tests, fuzzers and the encoder's callers.

use serde_json::Value;

/// True when `later` is `earlier` grown: strings extended at their end, arrays and objects with more
/// members (each earlier one grown in turn), everything else equal. Each partial value the reader shows is
/// a growth of the one before.
pub fn is_growth(earlier: &Value, later: &Value) -> bool {
    match (earlier, later) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| is_growth(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(k, v)| b.get(k).is_some_and(|w| is_growth(v, w))),
        (a, b) => a == b,
    }
}

/// What partial-JSON libraries do on every chunk, kept as the baseline for benchmarks: scan the whole
/// accumulated text to find what is open, then close it. Independent of [`crate::Reader`].
pub fn complete_by_rescanning(text: &[u8]) -> String {
    let (mut stack, mut in_string, mut escaped) = (Vec::new(), false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => stack.push(b),
                b'}' | b']' => {
                    stack.pop();
                }
                _ => {}
            }
        }
    }
    let mut out = String::from_utf8_lossy(text).into_owned();
    if in_string {
        if escaped {
            out.pop();
        }
        out.push('"');
    }
    let end = out.trim_end().len();
    out.truncate(end);
    if out.ends_with(',') {
        out.pop();
    } else if out.ends_with(':') {
        out.push_str("null");
    }
    for open in stack.iter().rev() {
        out.push(if *open == b'{' { '}' } else { ']' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn growth_extends_and_never_changes() {
        assert!(is_growth(
            &json!({"a": "Bui", "b": [1]}),
            &json!({"a": "Builds", "b": [1, 2], "c": null})
        ));
        assert!(!is_growth(&json!({"a": "Bui"}), &json!({"a": "Bxx"})));
        assert!(!is_growth(&json!([1, 2]), &json!([1])));
        assert!(!is_growth(&json!({"a": 1}), &json!({"a": "1"})));
    }

    #[test]
    fn rescanning_closes_what_is_open() {
        let closed = complete_by_rescanning(br#"{"a": ["x", "y\"#);
        assert_eq!(closed, r#"{"a": ["x", "y"]}"#);
        assert!(serde_json::from_str::<Value>(&complete_by_rescanning(br#"{"a": 1,"#)).is_ok());
    }
}
