//! Awards, certificates and publications: a name, who gave or published it ("Awarded by …", "in
//! Hooli"), its date and a summary (a certificate, which has no summary, keeps its text in its name).

use serde_json::{Map, Value, json};

use crate::Section;

use super::entries::{BY_LABELS, Raw, subtitle_parts, title_and_subtitle};
use super::fields::{put, put_dates};
use super::lines::is_proper_name;

/// An award, a certificate or a publication (as `id` says) from its entry's lines into `m`.
pub(super) fn entry(id: Section, mut raw: Raw, m: &mut Map<String, Value>) {
    let summary = raw.paragraphs.join("\n\n");
    // "Awarded" over "by Techcrunch" (the date taken from between them): one line.
    let mut head: Vec<String> = Vec::new();
    for line in std::mem::take(&mut raw.head) {
        match head.last_mut() {
            Some(last) if line.starts_with("by ") && BY_LABELS.contains(&last.as_str()) => {
                *last = format!("{last} {line}");
            }
            _ => head.push(line),
        }
    }
    raw.head = head;
    // These have no list of highlights: a list under one is part of its summary, line by line.
    let mut summary = [summary, raw.bullets.join("\n")]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let (mut title, subtitle) = title_and_subtitle(&raw, |_| 0, true);
    let (mut org, rest, url) = subtitle_parts(&subtitle);
    // These have no place: what stood after the organisation ("Techcrunch" over "There is no
    // spoon.", the dates taken from beside it) is the summary's first line.
    if !rest.is_empty() {
        summary = [rest, summary]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n");
    }
    // "in Hooli" on a line of its own under a publication's title: where it appeared.
    if id == Section::Publications
        && let Some(publisher) = org.strip_prefix("in ").filter(|p| is_proper_name(p))
    {
        org = publisher.trim().to_owned();
    }
    // "Video compression for 3d media in Hooli": a publication's title, then where it appeared.
    if id == Section::Publications
        && org.is_empty()
        && let Some((name, publisher)) = title.rsplit_once(" in ")
        && is_proper_name(publisher)
    {
        (title, org) = (name.trim().to_owned(), publisher.trim().to_owned());
    }
    let (name, by, date) = match id {
        Section::Awards => ("title", "awarder", "date"),
        Section::Certificates => ("name", "issuer", "date"),
        _ => ("name", "publisher", "releaseDate"),
    };
    put(m, name, title);
    put(m, by, org);
    put(m, "url", url);
    put_dates(m, &raw, date, "");
    if id == Section::Certificates {
        // A certificate has no summary: its text is kept as what it is, a note in its name's place.
        if !summary.is_empty() {
            let name = m.get(name).and_then(Value::as_str).unwrap_or("").to_owned();
            m.insert(
                "name".into(),
                json!(format!("{name} — {summary}").trim_start_matches(" — ")),
            );
        }
    } else {
        put(m, "summary", summary);
    }
}
