//! RFC 6901 JSON Pointers: checking one, and reading its tokens.

/// Checks that `pointer` is an RFC 6901 JSON Pointer, saying what is wrong if not.
pub fn check(pointer: &str) -> Result<(), String> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(format!(
            "\"{pointer}\" is not a JSON Pointer: it must be empty or start with \"/\""
        ));
    }
    let bytes = pointer.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'~' && !matches!(bytes.get(i + 1), Some(b'0' | b'1')) {
            return Err(format!(
                "\"{pointer}\" is not a JSON Pointer: \"~\" must be followed by 0 or 1 (found \"~{}\")",
                bytes
                    .get(i + 1)
                    .map(|&c| c as char)
                    .unwrap_or(' ')
                    .to_string()
                    .trim()
            ));
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
        assert!(check("/a~2b").unwrap_err().contains("~2"));
        assert!(check("/a~").is_err());
        assert_eq!(tokens("/a~1b/m~0n/0"), ["a/b", "m~n", "0"]);
        assert_eq!(tokens("/"), [""]);
    }

    #[test]
    fn within_respects_segment_boundaries() {
        assert!(is_within("/work/0/summary", "/work/0"));
        assert!(is_within("/work/0", "/work/0"));
        assert!(!is_within("/work/10", "/work/1"));
        assert!(is_within("/meta", ""));
    }
}
