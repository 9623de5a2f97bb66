//! Jobs and volunteering: the role is the title (known by its words), the organisation, its place and
//! link the subtitle, then the dates, a description, a summary and highlights.

mod words;

use serde_json::{Map, Value};

use crate::Section;

use super::entries::{Raw, subtitle_parts, title_and_subtitle};
use super::fields::{highlights, put, put_dates};
use words::{REMOTE_WORDS, ROLE_WORDS};

/// A job (`id` [`Section::Work`]) or a volunteer's role ([`Section::Volunteer`]) from its entry's lines
/// into `m`.
pub(super) fn entry(id: Section, raw: Raw, m: &mut Map<String, Value>) {
    let summary = raw.paragraphs.join("\n\n");
    let (title, subtitle) = title_and_subtitle(&raw, role_score, true);
    let (mut org, mut place, url) = subtitle_parts(&subtitle);
    let mut extra = raw.head.get(2).cloned().unwrap_or_default();
    // "Pied Piper · Awesome compression company" over "Palo Alto, CA": the line that reads as a
    // place ("City, Region") is the place; the other part is the company's description.
    let placelike = |t: &str| {
        (t.contains(", ") || remote(t)) && t.split_whitespace().count() <= 5 && !t.ends_with('.')
    };
    // "CEO/President   Palo Alto, CA" over "Pied Piper" (sb2nov): the place came first.
    if placelike(&org) && !place.is_empty() && !placelike(&place) {
        std::mem::swap(&mut org, &mut place);
    }
    if placelike(&extra) && !placelike(&place) {
        std::mem::swap(&mut place, &mut extra);
    }
    put(m, "position", title);
    put(
        m,
        if id == Section::Work {
            "name"
        } else {
            "organization"
        },
        org,
    );
    if id == Section::Work {
        put(m, "location", place);
    }
    put(m, "url", url);
    put_dates(m, &raw, "startDate", "endDate");
    if id == Section::Work && !extra.is_empty() {
        put(m, "description", extra);
        put(m, "summary", summary);
    } else {
        put(m, "summary", [extra, summary].join("\n\n"));
    }
    highlights(m, "highlights", raw.bullets);
}

/// Whether `text` is a place that is no town: "Remote", "Remote (EU)", "Hybrid".
fn remote(text: &str) -> bool {
    let first = text.split([' ', '(', ',', '/']).next().unwrap_or_default();
    REMOTE_WORDS.contains(&first.to_lowercase().as_str())
}

/// How many words of `text` say it is a role.
fn role_score(text: &str) -> usize {
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| ROLE_WORDS.contains(w))
        .count()
        + ROLE_WORDS
            .iter()
            .filter(|w| !w.is_ascii() && lower.contains(*w))
            .count()
}
