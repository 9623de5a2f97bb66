//! References: a quotation and the name of who said it (after a dash, under it, or run on after its last
//! sentence).

use serde_json::{Map, Value};

use super::entries::Raw;
use super::fields::put;
use super::lines::{is_proper_name, short};

/// A reference from its entry's lines into `m`.
pub(super) fn entry(raw: Raw, m: &mut Map<String, Value>) {
    // A quotation, then "— Erlich Bachman" under it: the dash marks the name.
    // A short quotation can be taken for a title line: a line in quotes, or a sentence, is the
    // reference's text.
    let quoted =
        |t: &str| t.starts_with(['“', '"', '„', '«']) || t.ends_with(['.', '”', '"', '»', '!']);
    let (mut text, mut names): (Vec<String>, Vec<String>) =
        raw.head.into_iter().partition(|h| quoted(h));
    text.extend(raw.paragraphs);
    let mut bullets = raw.bullets;
    // The dash before the name may have been read as a bullet.
    if !text.is_empty() && bullets.len() == 1 && bullets[0].split_whitespace().count() <= 4 {
        names.extend(bullets.pop());
    }
    text.extend(bullets);
    text.retain(|t| match t.strip_prefix(['—', '–', '-', '―']) {
        Some(name) if short(name) => {
            names.push(name.trim().to_owned());
            false
        }
        _ => true,
    });
    // The name run on after the quotation's last sentence ("… any company. ” Erlich Bachman"),
    // its own paragraph in the file but joined to the text above it.
    if names.is_empty()
        && let Some(last) = text.last_mut()
        && let Some((at, mark)) = last
            .char_indices()
            .rfind(|(_, c)| matches!(c, '.' | '!' | '?' | '”' | '"' | '»'))
        && let end = at + mark.len_utf8()
        && let tail = last[end..].trim()
        && tail.split_whitespace().count() >= 2
        && is_proper_name(tail)
    {
        names.push(tail.to_owned());
        last.truncate(end);
    }
    put(m, "name", names.join(", "));
    let quoted = text.join("\n\n");
    let quoted = quoted
        .trim()
        .trim_start_matches(['“', '"', '„', '«'])
        .trim_end_matches(['”', '"', '»'])
        .trim();
    put(m, "reference", quoted);
}
