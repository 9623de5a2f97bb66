//! An entry's fields as JSON Resume's: a value written once, trimmed (a name that was a link, with the
//! link as the entry's site), its dates, a list of its items.

use serde_json::{Map, Value, json};

use super::contacts::{full_url, is_url};
use super::entries::Raw;

/// The fields that name an entry.
const NAMES: &[&str] = &[
    "name",
    "organization",
    "institution",
    "title",
    "publisher",
    "awarder",
    "issuer",
];

/// Writes `value`, trimmed, as `map`'s `key`: not when it is empty or the key is written already.
pub(super) fn put(map: &mut Map<String, Value>, key: &str, value: impl Into<String>) {
    let value = value.into();
    let mut value = value.trim();
    // An entry's name that was a link ("Pied Piper <http://piedpiper.example.com/>", as a Word file's
    // link is read): the name, and the link as the entry's site.
    if NAMES.contains(&key)
        && let Some((name, target)) = value
            .strip_suffix('>')
            .and_then(|v| v.rsplit_once(" <"))
            .filter(|(name, _)| !name.trim().is_empty())
    {
        value = name.trim();
        if is_url(target) && !target.starts_with("mailto:") && !target.starts_with("tel:") {
            put(map, "url", full_url(target));
        }
    }
    if !value.is_empty() && !map.contains_key(key) {
        map.insert(key.into(), json!(value));
    }
}

/// Writes `raw`'s dates as `map`'s `start` and `end`, or its start alone where `end` is empty (a section
/// whose entries have one date).
pub(super) fn put_dates(map: &mut Map<String, Value>, raw: &Raw, start: &str, end: &str) {
    if let Some(span) = &raw.dates {
        put(map, start, span.start.clone());
        if !end.is_empty() {
            // One date that is not "since": the entry began and ended then.
            let until = if span.end.is_empty() && !span.open {
                &span.start
            } else {
                &span.end
            };
            put(map, end, until.clone());
        }
    }
}

/// Writes `items`, trimmed, the empty ones left out, as `map`'s list `key`: not when none is left.
pub(super) fn highlights(map: &mut Map<String, Value>, key: &str, items: Vec<String>) {
    let items: Vec<String> = items
        .into_iter()
        .map(|i| i.trim().to_owned())
        .filter(|i| !i.is_empty())
        .collect();
    if !items.is_empty() {
        map.insert(key.into(), json!(items));
    }
}
