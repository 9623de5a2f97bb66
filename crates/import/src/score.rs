//! How much of a resume an import got right, field by field: the benchmark's and the tests' measure.
//!
//! Every string (and number) in the resume the file was made from is a field, by its JSON Pointer. A field
//! counts only where the file shows it (its words stand together in the file's text). It is right when the
//! import has the same text at the same pointer, compared by letters and digits only, in lower case; dates by
//! year and month.

use serde_json::Value;

/// Fields right, out of the fields the file shows, and the ones missed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Score {
    pub right: usize,
    pub total: usize,
    /// `pointer: expected ≠ got`, for the ones missed.
    pub missed: Vec<String>,
}

impl Score {
    pub fn ratio(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.right as f64 / self.total as f64
        }
    }

    pub fn add(&mut self, other: Score) {
        self.right += other.right;
        self.total += other.total;
        self.missed.extend(other.missed);
    }
}

/// `text`'s letters and digits, lower case.
pub fn normal(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfkc()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// `text`'s words (letters and digits), lower case, each with a space either side: a value is shown
/// where its words stand together in the file's, not inside a longer word ("US" is not in "focuses").
fn words(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::from(" ");
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Scripts written without spaces between words, where a value is looked for by its letters alone.
fn unspaced_script(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{9FFF}' | '\u{0E00}'..='\u{0E7F}'))
}

fn leaves<'a>(value: &'a Value, pointer: String, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                leaves(v, format!("{pointer}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{pointer}/{i}"), out);
            }
        }
        Value::String(_) | Value::Number(_) => out.push((pointer, value)),
        _ => {}
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether `pointer` names a date.
fn is_date(pointer: &str) -> bool {
    pointer.ends_with("Date") || pointer.ends_with("/date")
}

/// A date compared by year and month.
fn month(date: &str) -> String {
    date.chars().take(7).collect()
}

/// A year alone (`2015`) that the file shows as January of it: a theme that formats every date with a
/// month ("Jan 2015") writes it so, and reading it so is right.
fn january_shown(expected: &str, actual: &str) -> bool {
    expected.len() == 4
        && actual.len() == 7
        && actual.starts_with(expected)
        && actual.ends_with("-01")
}

/// The import `got` against the resume `want` the file was made from; `shown` is the file's text.
pub fn score(want: &Value, got: &Value, shown: &str) -> Score {
    let (shown_words, shown) = (words(shown), normal(shown));
    let mut fields = Vec::new();
    leaves(want, String::new(), &mut fields);
    let mut score = Score::default();
    for (pointer, value) in fields {
        if pointer.starts_with("/meta")
            || pointer.starts_with("/$schema")
            || pointer.ends_with("/image")
        {
            continue;
        }
        let expected = text_of(value);
        let is_date = is_date(&pointer);
        // A date is shown as the file writes it, not as ISO: it counts when its year is there.
        let visible = if is_date {
            expected.get(..4).is_some_and(|y| shown.contains(y))
        } else {
            let n = normal(&expected);
            !n.is_empty()
                && if unspaced_script(&expected) {
                    shown.contains(&n)
                } else {
                    shown_words.contains(&words(&expected))
                }
        };
        if !visible {
            continue;
        }
        score.total += 1;
        let actual = got.pointer(&pointer).map(text_of).unwrap_or_default();
        let right = if is_date {
            month(&expected) == month(&actual) || january_shown(&expected, &actual)
        } else {
            normal(&expected) == normal(&actual)
        };
        if right {
            score.right += 1;
        } else {
            score
                .missed
                .push(format!("{pointer}: {expected:?} ≠ {actual:?}"));
        }
    }
    score
}

/// The source's lines that are in neither the document nor the lines not placed: what an import dropped
/// without a word. A line counts as kept when each of its words (three letters or more, its dates and
/// the labels the reader reads by aside) stands somewhere in the document's text or in a line not placed;
/// a heading is kept as the section it opened.
pub fn dropped(lines: &[String], document: &Value, unplaced: &[String]) -> Vec<String> {
    let mut fields = Vec::new();
    leaves(document, String::new(), &mut fields);
    let mut kept = String::new();
    for (_, v) in &fields {
        kept.push_str(&normal(&text_of(v)));
        kept.push(' ');
    }
    for line in unplaced {
        kept.push_str(&normal(line));
        kept.push(' ');
    }
    lines
        .iter()
        .filter(|line| {
            if crate::headings::part(line).is_some() {
                return false;
            }
            let text = crate::structure::strip_bullet(line).unwrap_or(line);
            let mut rest = match text.split_once(':') {
                Some((label, rest)) if crate::structure::is_label(label) => rest.to_owned(),
                _ => text.to_owned(),
            };
            while let Some(span) = crate::dates::find(&rest) {
                rest = crate::dates::without(&rest, &span);
            }
            words(&rest)
                .split(' ')
                .filter(|w| w.chars().count() >= 3 && !w.chars().all(|c| c.is_ascii_digit()))
                .any(|w| !kept.contains(w) && !crate::structure::is_label(w))
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_year_shown_as_its_january_counts_and_no_other_month_does() {
        let want = json!({"work": [{"startDate": "2015", "endDate": "2019-06"}]});
        let shown = "Jan 2015 – Jun 2019";
        let read = |start: &str, end: &str| {
            score(
                &want,
                &json!({"work": [{"startDate": start, "endDate": end}]}),
                shown,
            )
            .right
        };
        assert_eq!(read("2015-01", "2019-06"), 2);
        assert_eq!(read("2015", "2019-06-30"), 2);
        assert_eq!(read("2015-02", "2019"), 0);
        assert_eq!(read("2016-01", "2019-01"), 0);
    }
}
