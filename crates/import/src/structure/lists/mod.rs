//! Skills, languages and interests: a name, perhaps a level, and keywords; one to a line, in lists on one
//! line, under labels, set in under their names, in a grid (`grid`), or with no heading over them at all.

mod grid;
mod words;

use serde_json::{Map, Value, json};

use crate::Line;
use crate::Section;
use crate::headings;

use super::entries::{ENTRY_LABELS, MAX_KEYWORDS};
use super::fields::{highlights, put};
use super::lines::{a_keyword, keyword_items, list_items, short, strip_bullet};
use grid::ungridded;
use words::LEVELS;

/// Skills or interests (as `id` says): a name, perhaps a level, and keywords.
pub(super) fn named_lists(id: Section, lines: &[&Line]) -> Vec<Value> {
    let mut lists = NamedLists::new(id == Section::Skills);
    let lines = ungridded(lines);
    for line in &lines {
        lists.line(line);
    }
    lists.out.into_iter().map(Value::Object).collect()
}

/// Skills or interests as [`named_lists`] reads them, one line after the other.
struct NamedLists {
    out: Vec<Map<String, Value>>,
    /// A line may be a level (skills have one; interests do not).
    levels: bool,
    /// The size and indent of the last name: smaller lines, or lines set in, under it are its keywords.
    name_at: Option<(f32, f32)>,
    /// Whether the last name was a line of its own, not a list item.
    name_plain: bool,
}

impl NamedLists {
    /// No list read yet; `levels`: a line may be a level.
    fn new(levels: bool) -> NamedLists {
        NamedLists {
            out: Vec::new(),
            levels,
            name_at: None,
            name_plain: false,
        }
    }

    /// Reads `line` into the last list, or starts a list with it.
    fn line(&mut self, line: &Line) {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            return;
        }
        // "Skills: a · b" under an interest's name: its keywords.
        if let Some((label, rest)) = text.split_once(':')
            && ENTRY_LABELS.contains(&headings::key(label).as_str())
            && let Some(m) = self.out.last_mut().filter(|m| !m.contains_key("keywords"))
        {
            highlights(m, "keywords", keyword_items(rest));
            return;
        }
        // Keywords one to a line, set in under their name or smaller than it.
        // (By indent only where the names stand at the left edge: a right-to-left page's lines end
        // there instead.)
        // A list item under a name that is not one: that name's keyword (an interest and its bullets).
        let bulleted = line.bullet || strip_bullet(&line.text).is_some();
        let under = self.name_at.is_some_and(|(size, indent)| {
            line.size < size - 0.05 || indent < 0.5 && line.indent > indent + 0.5
        }) || bulleted && self.name_plain;
        if under && !(self.levels && is_level(text)) && self.keywords_under(text) {
            return;
        }
        if self.named(text) {
            return;
        }
        self.listed_or_named(line, text, bulleted);
    }

    /// `text`, set under the last name, read as that name's keywords; false when there is no name.
    fn keywords_under(&mut self, text: &str) -> bool {
        let items = keyword_items(text);
        if let Some(Value::Array(keywords)) =
            self.out.last_mut().and_then(|m| m.get_mut("keywords"))
        {
            keywords.extend(items.into_iter().map(Value::String));
            return true;
        }
        if let Some(m) = self.out.last_mut().filter(|m| m.contains_key("name")) {
            highlights(m, "keywords", items);
            return true;
        }
        false
    }

    /// "Name: a, b": a list of its own, named; false when `text` is not one.
    fn named(&mut self, text: &str) -> bool {
        let (name, rest) = match text.split_once([':', '：']) {
            Some((n, r)) if n.split_whitespace().count() <= 5 && !r.trim().is_empty() => {
                (Some(n.trim()), r.trim())
            }
            _ => (None, text),
        };
        let Some(name) = name else {
            return false;
        };
        let mut m = Map::new();
        put(&mut m, "name", name);
        let items = list_items(rest).unwrap_or_else(|| vec![rest.to_owned()]);
        highlights(&mut m, "keywords", items);
        self.out.push(m);
        self.name_plain = false;
        true
    }

    /// A list on one line (the last name's keywords, or a list of its own), a level, a keyword set in, or
    /// a name on a line of its own.
    fn listed_or_named(&mut self, line: &Line, text: &str, bulleted: bool) {
        let current = self.out.last_mut();
        let items = list_items(text).or_else(|| {
            let items = keyword_items(text);
            (items.len() >= 2).then_some(items)
        });
        match (items, current) {
            (Some(items), Some(m)) if !m.contains_key("keywords") => {
                highlights(m, "keywords", items);
            }
            (Some(items), _) => {
                let mut m = Map::new();
                highlights(&mut m, "keywords", items);
                self.out.push(m);
                self.name_plain = false;
            }
            (None, Some(m))
                if self.levels
                    && is_level(text)
                    && !m.contains_key("level")
                    && !m.contains_key("keywords") =>
            {
                put(m, "level", text);
            }
            (None, Some(m)) if line.indent > 0.5 && !m.contains_key("keywords") => {
                highlights(m, "keywords", vec![text.to_owned()]);
            }
            (None, _) => {
                let mut m = Map::new();
                put(&mut m, "name", text);
                self.out.push(m);
                self.name_at = Some((line.size, line.indent));
                self.name_plain = !bulleted;
            }
        }
    }
}

/// Languages: a name and a fluency, one to a line or in a list on one line, or a level under its name (a
/// row of levels under a row of names).
pub(super) fn languages(lines: &[&Line]) -> Vec<Value> {
    let mut out: Vec<Map<String, Value>> = Vec::new();
    // How many languages the line before named.
    let mut last_row = 0;
    for line in lines {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            continue;
        }
        if is_level(text)
            && let Some(m) = out.last_mut().filter(|m| !m.contains_key("fluency"))
        {
            put(m, "fluency", text);
            continue;
        }
        let items = list_items(text).filter(|items| items.iter().all(|i| !i.contains(['(', ':'])));
        let items = items.unwrap_or_else(|| vec![text.to_owned()]);
        // A row of levels under a row of as many names (a grid: each name over its level).
        let above = out.len().saturating_sub(last_row);
        if items.len() >= 2
            && items.len() == last_row
            && items.iter().all(|i| is_level(i))
            && out[above..].iter().all(|m| !m.contains_key("fluency"))
        {
            for (m, level) in out[above..].iter_mut().zip(items) {
                put(m, "fluency", level);
            }
            last_row = 0;
            continue;
        }
        last_row = items.len();
        for item in items {
            let (language, fluency) = name_and_level(&item);
            let mut m = Map::new();
            put(&mut m, "language", language);
            put(&mut m, "fluency", fluency);
            out.push(m);
        }
    }
    out.into_iter().map(Value::Object).collect()
}

/// Skills each under a heading of its own that Redline does not know, with no "Skills" over them (a
/// sidebar's "Web Development", its level, rows of its keywords): which of `blocks` are read so, and the
/// skills. A block is one skill when its lines read as one list named by its heading, with a level or
/// keywords, each a keyword's length; two such blocks in a row at least, or one whose keywords
/// stand in a row of cells. Any other block is left as it is.
pub(super) fn skill_groups(blocks: &[super::Block]) -> (Vec<bool>, Vec<Value>) {
    let mut taken = vec![false; blocks.len()];
    let mut skills = Vec::new();
    let mut run: Vec<(usize, Map<String, Value>)> = Vec::new();
    let rowed = |&(i, _): &(usize, _)| blocks[i].lines.iter().any(|l| l.cells.len() >= 2);
    // Each block, then an end that no block stands in, which ends the last run as any other block would.
    for (i, block) in blocks.iter().map(Some).chain([None]).enumerate() {
        let skill = block
            .filter(|b| b.part.is_none())
            .and_then(|b| skill_of(b.heading?, &b.lines));
        if let Some(skill) = skill {
            run.push((i, skill));
            continue;
        }
        let ended = std::mem::take(&mut run);
        if ended.len() >= 2 || ended.first().is_some_and(rowed) {
            for (i, skill) in ended {
                taken[i] = true;
                skills.push(Value::Object(skill));
            }
        }
    }
    (taken, skills)
}

/// The one skill a block under `heading` holds (its name the heading's), if that is all it holds.
fn skill_of(heading: &Line, lines: &[&Line]) -> Option<Map<String, Value>> {
    let mut read = NamedLists::new(true);
    for line in std::iter::once(heading).chain(lines.iter().copied()) {
        read.line(line);
    }
    let [skill] = <[_; 1]>::try_from(read.out).ok()?;
    let keywords = skill.get("keywords").and_then(Value::as_array);
    let named = skill.get("name").and_then(Value::as_str) == Some(heading.text.trim());
    // A keyword's length ("Vue.js" reads as a link's address, so not `a_keyword`).
    let keyword = |k: &str| short(k) && k.split_whitespace().count() <= 4 && !k.ends_with(':');
    let fits = keywords.is_none_or(|k| k.iter().all(|k| k.as_str().is_some_and(keyword)));
    (named && fits && (keywords.is_some() || skill.contains_key("level"))).then_some(skill)
}

/// Skills listed with no heading over them (a sidebar: a name, its level, a row of its keywords, for
/// each), taken out of the lines not placed: two such skills in a row at least, or none is read.
pub(super) fn skills_unheaded(unplaced: &mut Vec<String>) -> Option<Vec<Value>> {
    let row = |t: &str| -> Option<Vec<String>> {
        let cells: Vec<String> = t
            .split("   ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect();
        (cells.len() >= 2 && cells.iter().all(|c| short(c))).then_some(cells)
    };
    // The skill starting at line `i`: (the skill, how many lines it takes).
    let skill_at = |i: usize| -> Option<(Value, usize)> {
        let name = unplaced.get(i)?;
        if !short(name) || row(name).is_some() || is_level(name) {
            return None;
        }
        let next = unplaced.get(i + 1)?;
        if let Some(keywords) = row(next) {
            return Some((json!({"name": name, "keywords": keywords}), 2));
        }
        if !is_level(next) {
            return None;
        }
        if let Some(keywords) = row(unplaced.get(i + 2)?) {
            return Some((
                json!({"name": name, "level": next, "keywords": keywords}),
                3,
            ));
        }
        // One keyword a line (a word processor's paragraphs), up to the next name with its level.
        let mut keywords = Vec::new();
        for (j, k) in unplaced.iter().enumerate().skip(i + 2).take(MAX_KEYWORDS) {
            let names_next = unplaced.get(j + 1).is_some_and(|n| is_level(n));
            if !a_keyword(k) || is_level(k) || names_next {
                break;
            }
            keywords.push(k.clone());
        }
        let taken = 2 + keywords.len();
        (!keywords.is_empty()).then(|| {
            (
                json!({"name": name, "level": next, "keywords": keywords}),
                taken,
            )
        })
    };
    for start in 0..unplaced.len() {
        let (mut skills, mut end) = (Vec::new(), start);
        while let Some((skill, taken)) = skill_at(end) {
            skills.push(skill);
            end += taken;
        }
        if skills.len() >= 2 {
            unplaced.drain(start..end);
            return Some(skills);
        }
    }
    None
}

/// Whether `text` says how well someone knows a skill or speaks a language ([`LEVELS`]).
fn is_level(text: &str) -> bool {
    let t = text.trim().trim_end_matches('.').to_lowercase();
    LEVELS.contains(&t.as_str())
}

/// `English — Native speaker`, `German: fluent`, `French (B2)`: (name, level).
fn name_and_level(text: &str) -> (String, String) {
    for sep in [" — ", " – ", " - ", ": ", "：", " | ", " · ", "\t", " ("] {
        if let Some((a, b)) = text.split_once(sep) {
            let b = b.trim().trim_end_matches(')').trim();
            if !a.trim().is_empty() && !b.is_empty() {
                return (a.trim().to_owned(), b.to_owned());
            }
        }
    }
    (text.trim().to_owned(), String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_with_no_heading_over_them_are_read_from_the_lines_not_placed() {
        let mut lines: Vec<String> = [
            "Left over",
            "Web Development",
            "Master",
            "HTML   CSS   Javascript",
            "Compression",
            "Mpeg   MP4",
            "Also left over",
        ]
        .map(str::to_owned)
        .to_vec();
        let skills = skills_unheaded(&mut lines).unwrap();
        assert_eq!(
            skills,
            [
                json!({"name": "Web Development", "level": "Master", "keywords": ["HTML", "CSS", "Javascript"]}),
                json!({"name": "Compression", "keywords": ["Mpeg", "MP4"]}),
            ]
        );
        assert_eq!(lines, ["Left over", "Also left over"]);
        // One such group alone is not taken for a list of skills.
        let mut one: Vec<String> = ["Compression", "Mpeg   MP4", "Hello"]
            .map(str::to_owned)
            .to_vec();
        assert_eq!(skills_unheaded(&mut one), None);
        assert_eq!(one.len(), 3);
        // Each keyword a line of its own, under a name and its level (a word processor's paragraphs).
        let mut paragraphs: Vec<String> = [
            "Web Development",
            "Master",
            "HTML",
            "CSS",
            "Compression",
            "Master",
            "Mpeg",
            "GIF",
            "A sentence that says more than a keyword.",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            skills_unheaded(&mut paragraphs).unwrap(),
            [
                json!({"name": "Web Development", "level": "Master", "keywords": ["HTML", "CSS"]}),
                json!({"name": "Compression", "level": "Master", "keywords": ["Mpeg", "GIF"]}),
            ]
        );
        assert_eq!(paragraphs, ["A sentence that says more than a keyword."]);
    }
}
