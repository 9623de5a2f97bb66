//! An entry's title lines told apart: which is its title (the line that reads as the entry's name, for a
//! job its role), which its subtitle, and the subtitle's organisation, place and link.

use crate::dates;

use super::Raw;
use super::words::{BY_LABELS, SEPARATORS};
use crate::structure::contacts::{full_url, is_url};

/// A title's parts on one line, set apart by [`SEPARATORS`].
pub(crate) fn split_parts(text: &str) -> Vec<String> {
    split_on(text, SEPARATORS)
}

/// `text`'s parts between any of `separators`, trimmed, the empty ones left out.
fn split_on(text: &str, separators: &[&str]) -> Vec<String> {
    let mut parts = vec![text.to_owned()];
    for sep in separators {
        // "Barista at The Inn at Union Square": a role at an organisation whose own name may hold "at".
        let most = if *sep == " at " { 2 } else { usize::MAX };
        parts = parts
            .iter()
            .flat_map(|p| p.splitn(most, sep).map(str::to_owned).collect::<Vec<_>>())
            .collect();
    }
    parts
        .into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// A title line and a subtitle line from an entry's head: the title is the one that reads as the entry's
/// name (for jobs, the role), the other its organisation, place and link.
pub(crate) fn title_and_subtitle(
    raw: &Raw,
    score: fn(&str) -> usize,
    title_is_scored: bool,
) -> (String, String) {
    match raw.head.as_slice() {
        [] => (String::new(), String::new()),
        [one] => {
            // "Senior Engineer — Acme · London" on one line: its first parts are the two lines.
            // "CEO/President, Pied Piper", "University of Oklahoma, Bachelor in …": a comma sets them apart
            // where one side reads as the title and the other not at all; a role "at" an organisation
            // keeps its commas ("Sales Director, EMEA at Initech").
            let at = one.contains(" at ");
            let parts: Vec<String> = split_parts(one)
                .into_iter()
                .flat_map(|p| match comma_pair(&p, score).filter(|_| !at) {
                    Some((a, b)) => vec![a, b],
                    None => vec![p],
                })
                .collect();
            if parts.len() < 2 {
                return (one.clone(), String::new());
            }
            let (a, b) = (&parts[0], &parts[1]);
            let swap = score(a) != score(b) && (score(b) > score(a)) == title_is_scored;
            let (title, first) = if swap { (b, a) } else { (a, b) };
            let mut rest = vec![first.clone()];
            rest.extend(parts[2..].iter().cloned());
            (title.clone(), rest.join(" · "))
        }
        [a, rest @ ..]
            if split_parts(a).len() == 2
                && split_parts(&rest[0]).len() < 2
                && (score(&rest[0]) == 0 || score(a) > 0)
                && dates::find(a).is_none() =>
        {
            // "CEO/President at Pied Piper" over "Palo Alto, CA": the first line is title and
            // organisation; the lines under it are the rest of the subtitle.
            let one = Raw {
                head: vec![a.clone()],
                ..Raw::default()
            };
            let (title, subtitle) = title_and_subtitle(&one, score, title_is_scored);
            let mut parts = vec![subtitle];
            parts.extend(rest.iter().take(1).cloned());
            (title, parts.join(" · "))
        }
        [a, b, ..] => {
            let listy = |t: &str| SEPARATORS[..4].iter().any(|s| t.contains(s)) || is_url(t);
            let (sa, sb) = (score(a), score(b));
            let a_first = if sa != sb {
                (sa > sb) == title_is_scored
            } else if listy(a) != listy(b) {
                !listy(a)
            } else {
                true
            };
            if a_first {
                (a.clone(), b.clone())
            } else {
                (b.clone(), a.clone())
            }
        }
    }
}

/// "Pied Piper, CEO/President" → its two sides, in their order: one comma between a side that `score`
/// reads as an entry's title and a side it does not read at all ("Palo Alto, CA" reads as neither).
fn comma_pair(text: &str, score: fn(&str) -> usize) -> Option<(String, String)> {
    let (a, b) = text.split_once(", ")?;
    let (a, b) = (a.trim(), b.trim());
    let one_side = |t: &str| !t.is_empty() && !t.contains(',') && t.split_whitespace().count() <= 6;
    (one_side(a) && one_side(b) && (score(a) == 0) != (score(b) == 0))
        .then(|| (a.to_owned(), b.to_owned()))
}

/// A subtitle line's parts: (organisation, place, link).
pub(crate) fn subtitle_parts(subtitle: &str) -> (String, String, String) {
    let mut org = String::new();
    let mut place = String::new();
    let mut url = String::new();
    // " at " sets a role from its organisation; in the organisation's own line it is part of its name
    // ("The Gallery at Little Washington", "University of Texas at Austin").
    let separators: Vec<&str> = SEPARATORS
        .iter()
        .copied()
        .filter(|s| *s != " at ")
        .collect();
    for p in split_on(subtitle, &separators) {
        // "Published by Hooli", "Awarded by Techcrunch", "Issued by …", "Issuer: …": the organisation.
        let p = BY_LABELS
            .iter()
            .find_map(|label| p.strip_prefix(label)?.strip_prefix(" by "))
            .or_else(|| {
                ["Issuer: ", "Publisher: "]
                    .iter()
                    .find_map(|l| p.strip_prefix(l))
            })
            .map_or(p.clone(), str::to_owned);
        if is_url(&p) && url.is_empty() {
            url = full_url(&p);
        } else if org.is_empty() {
            org = p;
        } else if place.is_empty() {
            place = p;
        } else {
            place = format!("{place}, {p}");
        }
    }
    (org, place, url)
}
