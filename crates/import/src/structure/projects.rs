//! Projects: a name, then its entity, type, roles and link on one line, the dates, a description,
//! keywords and highlights.

use serde_json::{Map, Value};

use super::contacts::{full_url, is_url};
use super::entries::{Raw, split_parts, title_and_subtitle};
use super::fields::{highlights, put, put_dates};
use super::lines::{a_keyword, list_items, short};

/// A project from its entry's lines into `m` (which may hold its keywords already, from a labelled list).
pub(super) fn entry(mut raw: Raw, m: &mut Map<String, Value>) {
    let (title, subtitle) = title_and_subtitle(&raw, |_| 0, true);
    put(m, "name", title);
    // "Smoogle · application · Team lead, Designer · https://…": entity, type, roles, link.
    let mut roles = Vec::new();
    // "Team lead and Designer at Smoogle": the roles, then the entity.
    let subtitle = match subtitle.split_once(" at ") {
        Some((who, rest)) if short(who) && split_parts(who).len() < 2 => {
            roles.extend(
                who.split([',', '、', '،', '&'])
                    .flat_map(|r| r.split(" and "))
                    .map(|r| r.trim().to_owned()),
            );
            rest.to_owned()
        }
        _ => subtitle,
    };
    // A sentence among them (a line with the link over it) is the description's start.
    let mut described = None;
    for (i, p) in split_parts(&subtitle).into_iter().enumerate() {
        if is_url(&p) {
            put(m, "url", full_url(&p));
        } else if p.split_whitespace().count() > 3 && !p.contains([',', '、', '،']) {
            described = Some(p);
        } else if i == 0 {
            put(m, "entity", p);
        } else if p.contains([',', '、', '،']) || m.contains_key("type") {
            roles.extend(p.split([',', '、', '،']).map(|r| r.trim().to_owned()));
        } else {
            put(m, "type", p);
        }
    }
    highlights(m, "roles", roles);
    put_dates(m, &raw, "startDate", "endDate");
    let mut paragraphs: Vec<String> = described.into_iter().collect();
    paragraphs.extend(raw.head.iter().skip(2).cloned());
    paragraphs.extend(raw.paragraphs);
    // A word of its own in small letters over the description ("application"): the kind.
    let kind = |p: &String| {
        !p.is_empty() && p.chars().all(|c| c.is_lowercase() || c == '-') && p.len() <= 30
    };
    if !m.contains_key("type") && paragraphs.len() > 1 && kind(&paragraphs[0]) {
        put(m, "type", paragraphs.remove(0));
    }
    let keywords = paragraphs
        .last()
        .and_then(|p| list_items(p))
        .filter(|_| paragraphs.len() > 1 || !raw.bullets.is_empty());
    if let Some(keywords) = keywords {
        paragraphs.pop();
        highlights(m, "keywords", keywords);
    }
    put(m, "description", paragraphs.join("\n\n"));
    // Words one to a bullet after the highlights (a theme's list of keywords under them).
    let tail = raw
        .bullets
        .iter()
        .rev()
        .take_while(|b| a_keyword(b))
        .count();
    if !m.contains_key("keywords") && tail >= 2 && tail < raw.bullets.len() {
        let words = raw.bullets.split_off(raw.bullets.len() - tail);
        highlights(m, "keywords", words);
    }
    highlights(m, "highlights", raw.bullets);
}
