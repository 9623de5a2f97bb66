//! The resume's header and a summary's block: the name (the largest of the first lines), the label,
//! contact lines, a place, and the summary's prose.

use serde_json::{Map, Value, json};

use crate::Line;

use super::contacts::{contacts, is_email, is_phone, is_url, location, one_word, push_profile};
use super::lines::{paragraphs, short};

/// The header: the name (the largest of the first lines), the label, contact lines and a summary.
pub(super) fn header(
    lines: &[&Line],
    basics: &mut Map<String, Value>,
    summary: &mut Vec<String>,
    unplaced: &mut Vec<String>,
) {
    let Some(name_at) = lines
        .iter()
        .take(3)
        .enumerate()
        .filter(|(_, l)| !is_email(&l.text) && !is_phone(&l.text))
        .max_by(|a, b| {
            a.1.size
                .partial_cmp(&b.1.size)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.0.cmp(&a.0))
        })
        .map(|(i, _)| i)
    else {
        return;
    };
    let mut prose: Vec<&Line> = Vec::new();
    // The place read from the line before, while the next line may still continue it.
    let mut place: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let text = line.text.trim();
        if let Some(joined) = place.take().and_then(|before| continued(&before, line)) {
            basics.insert("location".into(), location(&joined));
            continue;
        }
        if i == name_at {
            basics.insert("name".into(), json!(text));
        } else if contacts(text, basics) {
        } else if !basics.contains_key("label") && short(text) && i <= name_at + 2 {
            basics.insert("label".into(), json!(text));
        } else if short(text)
            && (prose.is_empty() || line.gap || line.bullet)
            && !basics.contains_key("location")
            && let Some(written) = written_place(text)
        {
            basics.insert("location".into(), written);
            place = Some(text.to_owned());
        } else if short(text) && i < name_at {
            unplaced.push(text.to_owned());
        } else {
            prose.push(line);
        }
    }
    summary.extend(paragraphs(&prose));
}

/// `text` read as a place, when it is written as one: with commas, or ending in a country's code.
fn written_place(text: &str) -> Option<Value> {
    let place = location(text);
    (text.contains([',', '、', '،']) || place.get("countryCode").is_some()).then_some(place)
}

/// `before` (a place) and `line` as one place, when `line` continues it: an address wrapped in a narrow
/// column ("2712 Broadway St, CA 94115, San", then "Francisco, California, US") reads as more of a place
/// joined than alone. A line after a gap, a bullet or a line of prose is not a place's rest.
fn continued(before: &str, line: &Line) -> Option<String> {
    let text = line.text.trim();
    if line.gap || line.bullet || !short(text) || contacts(text, &mut Map::new()) {
        return None;
    }
    let joined = format!("{before} {text}");
    let fields = |place: &Value| {
        place.as_object().map_or(0, |o| {
            o.values()
                .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
                .count()
        })
    };
    let (alone, together) = (location(before), location(&joined));
    (fields(&together) > fields(&alone)).then_some(joined)
}

/// A summary's block, which beside a sidebar often holds the contact details too ("About"): where it
/// has contact lines, or has no prose while the summary stands under a heading of its own
/// (`summary_elsewhere`), its short lines are contact details (an address wrapped over lines, a user name beside a
/// network's icon) and only its prose is the summary.
pub(super) fn about(
    lines: &[&Line],
    summary_elsewhere: bool,
    basics: &mut Map<String, Value>,
    summary: &mut Vec<String>,
    unplaced: &mut Vec<String>,
) {
    let lines = rejoined(lines);
    let mut details = Map::new();
    let is_contact: Vec<bool> = lines
        .iter()
        .map(|l| short(&l.text) && contacts(&l.text, &mut details))
        .collect();
    let no_prose = lines.iter().all(|l| short(&l.text));
    let details = is_contact.contains(&true) || summary_elsewhere && no_prose;
    if !details {
        let lines: Vec<&Line> = lines.iter().collect();
        summary.extend(paragraphs(&lines));
        return;
    }
    let mut prose: Vec<&Line> = Vec::new();
    let mut place: Vec<&str> = Vec::new();
    for (line, contact) in lines.iter().zip(is_contact) {
        let text = line.text.trim();
        if contact {
            contacts(text, basics);
        } else if !short(text) {
            prose.push(line);
        } else if one_word(text) && !text.ends_with('.') {
            push_profile(basics, "", text.trim_start_matches('@'), "");
        } else if prose.is_empty() && !basics.contains_key("location") {
            place.push(text);
        } else {
            unplaced.push(text.to_owned());
        }
    }
    if !place.is_empty() {
        basics.insert("location".into(), location(&place.join(" ")));
    }
    summary.extend(paragraphs(&prose));
}

/// Lines with an address or a link broken across them (`richard@mail.c`, then `om`) joined again.
fn rejoined(lines: &[&Line]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    for line in lines {
        let text = line.text.trim();
        if let Some(last) = out.last_mut()
            && !line.gap
            && (is_email(&last.text) || is_url(&last.text))
            && one_word(text)
            && text.chars().count() <= 12
            && text.starts_with(|c: char| c.is_lowercase() || c == '/')
        {
            last.text.push_str(text);
            continue;
        }
        out.push((*line).clone());
    }
    out
}
