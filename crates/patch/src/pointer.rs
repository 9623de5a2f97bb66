//! RFC 6901 JSON Pointers: checking one, reading its tokens, looking one up.

use std::borrow::Cow;

use serde_json::Value;

/// A string that is not an RFC 6901 JSON Pointer, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointerError {
    /// Neither empty nor starting with `/`.
    #[error("\"{0}\" is not a JSON Pointer: it must be empty or start with \"/\"")]
    NoSlash(String),
    /// A `~` not followed by `0` or `1` (`found`: what followed it, if anything).
    #[error(
        "\"{pointer}\" is not a JSON Pointer: \"~\" must be followed by 0 or 1 (found \"~{found}\")"
    )]
    BadEscape { pointer: String, found: String },
}

/// Checks that `pointer` is an RFC 6901 JSON Pointer, saying what is wrong if not.
pub fn check(pointer: &str) -> Result<(), PointerError> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(PointerError::NoSlash(pointer.to_owned()));
    }
    let bytes = pointer.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'~' && !matches!(bytes.get(i + 1), Some(b'0' | b'1')) {
            let found = bytes.get(i + 1).map(|&c| c as char).unwrap_or(' ');
            return Err(PointerError::BadEscape {
                pointer: pointer.to_owned(),
                found: found.to_string().trim().to_owned(),
            });
        }
    }
    Ok(())
}

/// The reference tokens of a checked pointer, unescaped (`/a~1b/0` → `["a/b", "0"]`).
pub fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer[1..]
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The walk [`get`] and [`get_mut`] share: from `$doc` down the tokens of `$pointer`, each looked up with
/// `$get` (`get` or `get_mut`, the one word in which the two differ); `None` where a token names nothing.
macro_rules! walk {
    ($doc:expr, $pointer:expr, $get:ident) => {{
        let mut node = $doc;
        for token in raw_tokens($pointer)? {
            node = match node {
                Value::Object(map) => match unescape(token) {
                    Cow::Borrowed(key) => map.$get(key)?,
                    Cow::Owned(key) => map.$get(&key)?,
                },
                Value::Array(items) => items.$get(index(token)?)?,
                _ => return None,
            };
        }
        Some(node)
    }};
}

/// The value at `pointer` in `doc`. Unlike `serde_json::Value::pointer`, which allocates two strings per
/// token, this allocates only for a token that has an escape (`~0`, `~1`): it runs on every preview.
pub fn get<'v>(doc: &'v Value, pointer: &str) -> Option<&'v Value> {
    walk!(doc, pointer, get)
}

/// The value at `pointer` in `doc`, to change it; see [`get`].
pub fn get_mut<'v>(doc: &'v mut Value, pointer: &str) -> Option<&'v mut Value> {
    walk!(doc, pointer, get_mut)
}

fn raw_tokens(pointer: &str) -> Option<RawTokens<'_>> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    Some(RawTokens { rest: pointer })
}

/// The still-escaped tokens of a pointer that is empty or starts with `/`: a plain byte scan, cheaper than
/// `str::split` on the paths of a resume (a few short tokens).
struct RawTokens<'p> {
    rest: &'p str,
}

impl<'p> Iterator for RawTokens<'p> {
    type Item = &'p str;

    fn next(&mut self) -> Option<&'p str> {
        let after = self.rest.strip_prefix('/')?;
        let end = after.bytes().position(|b| b == b'/').unwrap_or(after.len());
        let (token, rest) = after.split_at(end);
        self.rest = rest;
        Some(token)
    }
}

pub(crate) fn unescape(token: &str) -> Cow<'_, str> {
    if token.bytes().any(|b| b == b'~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An array index token: digits, no leading zero.
pub(crate) fn index(token: &str) -> Option<usize> {
    if token.is_empty()
        || (token.len() > 1 && token.starts_with('0'))
        || !token.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    token.parse().ok()
}

/// True when `pointer` is `prefix` or lies below it (`/work/0/summary` is below `/work/0`, not below `/wo`).
pub fn is_within(pointer: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || pointer == prefix
        || (pointer.starts_with(prefix) && pointer.as_bytes().get(prefix.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_checked_and_split() {
        assert!(check("").is_ok() && check("/a~0b/~1/0").is_ok());
        assert!(check("skills/0").is_err());
        assert!(check("/a~2b").unwrap_err().to_string().contains("~2"));
        assert!(check("/a~").is_err());
        assert_eq!(tokens("/a~1b/m~0n/0"), ["a/b", "m~n", "0"]);
        assert_eq!(tokens("/"), [""]);
    }

    #[test]
    fn lookups_unescape_and_read_indexes_strictly() {
        let doc = serde_json::json!({"a/b": {"m~n": [10, 20]}, "": 1});
        assert_eq!(get(&doc, "/a~1b/m~0n/1"), Some(&serde_json::json!(20)));
        assert_eq!(get(&doc, "/"), Some(&serde_json::json!(1)));
        assert_eq!(get(&doc, ""), Some(&doc));
        assert_eq!(get(&doc, "/a~1b/m~0n/01"), None);
        assert_eq!(get(&doc, "/a~1b/m~0n/+1"), None);
        assert_eq!(get(&doc, "a"), None);
        *get_mut(&mut doc.clone(), "/a~1b/m~0n/0").unwrap() = serde_json::json!(0);
    }

    #[test]
    fn within_respects_segment_boundaries() {
        assert!(is_within("/work/0/summary", "/work/0"));
        assert!(is_within("/work/0", "/work/0"));
        assert!(!is_within("/work/10", "/work/1"));
        assert!(is_within("/meta", ""));
    }
}
