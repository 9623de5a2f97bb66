//! Reading what arrives from outside with a bound: an HTTP response's body, refused as soon as it is known
//! to be too long, and a JSON text whose values are counted before any is built. The model client
//! (`redline-agent`'s transport) and the app's updater both read through these; neither borrows the other's
//! code.

#![forbid(unsafe_code)]

/// The most values (objects, arrays, members and items together) of one JSON text a server sends (a model
/// server, the update server). A chunk of a stream has a few dozen; a whole answer's text and arguments
/// are strings, one value each. Read into a tree, a 4 MB text of a million empty objects took over 100 MB;
/// this many take a few MB.
pub const MAX_JSON_VALUES: usize = 100_000;

/// Why a server's JSON was not read.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    #[error("it sent JSON of over {MAX_JSON_VALUES} values")]
    TooManyValues,
    #[error(transparent)]
    NotJson(#[from] serde_json::Error),
}

/// `text` read as JSON, after a count of its values that refuses one of more than [`MAX_JSON_VALUES`]
/// before any is built.
pub fn json(text: &[u8]) -> Result<serde_json::Value, JsonError> {
    if json_values(text) > MAX_JSON_VALUES {
        return Err(JsonError::TooManyValues);
    }
    Ok(serde_json::from_slice(text)?)
}

/// How many values a JSON text holds, or more, counted on its bytes without building any: every value but
/// the first follows a `[`, `,` or `:` outside a string (a member's name follows a `{` or `,`), so the
/// count is one and one for each of those. Each is a byte of the text, so a text of `n` bytes counts at
/// most `n + 1`.
pub fn json_values(text: &[u8]) -> usize {
    let (mut values, mut in_string, mut escaped) = (1, false, false);
    for &byte in text {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'[' | b'{' | b',' | b':' => values += 1,
                _ => {}
            }
        }
    }
    values
}

/// Why a body was not read whole.
#[cfg(feature = "http")]
#[derive(Debug)]
pub enum BodyError {
    /// It is longer than the limit (by the length it declares, or as it arrived).
    TooLarge,
    /// The connection broke, or timed out.
    Broken(reqwest::Error),
}

/// A response's whole body, refused as soon as it is known to be over `limit` bytes: by its declared
/// length, or as its pieces arrive. Never holds more than `limit`.
#[cfg(feature = "http")]
pub async fn body_at_most(
    response: &mut reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, BodyError> {
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(BodyError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Broken)? {
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_of_too_many_values_is_refused_before_it_is_built() {
        let many = format!("[{}0]", "{},".repeat(MAX_JSON_VALUES));
        assert!(matches!(
            json(many.as_bytes()),
            Err(JsonError::TooManyValues)
        ));
        // Commas and brackets inside strings (escaped quotes too) are text, not values.
        let text = format!(r#"{{"content": "\"{}"}}"#, "[,:{".repeat(MAX_JSON_VALUES));
        assert!(json(text.as_bytes()).unwrap()["content"].is_string());
        assert!(matches!(json(b"{"), Err(JsonError::NotJson(_))));
    }

    #[test]
    fn values_are_counted_outside_strings() {
        assert_eq!(json_values(b"0"), 1);
        assert_eq!(json_values(b"[0, 0, 0]"), 4);
        assert_eq!(json_values(br#"{"a": "x,[{\",", "b": [1, {"c": 2}]}"#), 9);
    }
}
