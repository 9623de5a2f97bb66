//! References: a quotation and the name of who said it (after a dash, under it, or run on after its last
//! sentence).

use serde_json::{Map, Value};

use super::entries::Raw;
use super::fields::put;
use super::lines::{is_proper_name, short};
use crate::Line;

/// A section's lines cut after each line that names who gave the reference above it: a dash and a
/// short name ("— Haddad"). One group where no line does.
pub(super) fn by_attribution<'a>(lines: &[&'a Line]) -> Vec<Vec<&'a Line>> {
    let mut groups: Vec<Vec<&Line>> = vec![Vec::new()];
    for &line in lines {
        let attribution = line
            .text
            .trim()
            .strip_prefix(['—', '–', '―'])
            .is_some_and(|name| short(name) && is_proper_name(name.trim()));
        if let Some(group) = groups.last_mut() {
            group.push(line);
        }
        if attribution {
            groups.push(Vec::new());
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

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
