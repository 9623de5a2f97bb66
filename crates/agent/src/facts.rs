//! A guard against invented facts: after a bundle, the numbers, percentages, dates and names that appear in
//! the new text but nowhere in the document before it or in what the user said are flagged, so the user can
//! check them. It flags; it does not refuse (a person may well have told the model a number in an earlier
//! chat, or want the model's wording).

use std::collections::HashSet;

use serde_json::Value;

/// The most distinct facts looked up in one change. A real edit brings in a few dozen; a hostile answer can
/// bring hundreds of kilobytes of numbers, each looked up in the whole resume (40,000 took 1.7 s). Past this
/// many, the rest are not looked up, and the user is told so.
pub const MAX_CHECKED: usize = 1_000;

/// The most facts a warning names; the rest are counted.
pub const MAX_NAMED: usize = 8;

/// The longest a fact is quoted in a warning, in characters.
const MAX_QUOTED: usize = 60;

/// What the check found in one change.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Invented {
    /// The facts found nowhere, in the order the change has them.
    pub facts: Vec<String>,
    /// Whether the change brought in more distinct facts than [`MAX_CHECKED`], which were not looked up.
    pub unchecked: bool,
}

impl Invented {
    /// The one warning for the user, if there is anything to say; `nowhere` is where the facts were looked
    /// for ("your resume or your messages").
    pub fn warning(&self, nowhere: &str) -> Option<String> {
        let quoted: Vec<String> = self
            .facts
            .iter()
            .take(MAX_NAMED)
            .map(|fact| format!("“{}”", redline_resume::shorten(fact, MAX_QUOTED)))
            .collect();
        let more = self.facts.len() - quoted.len();
        let mut text = match (quoted.as_slice(), more) {
            ([], _) => String::new(),
            ([one], _) => format!("{one} appears nowhere in {nowhere}: please check it."),
            ([first @ .., last], 0) => format!(
                "{} and {last} appear nowhere in {nowhere}: please check them.",
                first.join(", ")
            ),
            (all, more) => format!(
                "{} and {more} more names and numbers appear nowhere in {nowhere}: please check them.",
                all.join(", ")
            ),
        };
        if self.unchecked {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format!(
                "This change brings in more names and numbers than Redline checks ({MAX_CHECKED}): \
                 please read it over."
            ));
        }
        (!text.is_empty()).then_some(text)
    }
}

/// The facts in `after`'s new or changed text that neither `before` nor `said` contains.
pub fn invented(before: &Value, after: &Value, said: &str) -> Invented {
    let mut known = before.to_string().to_lowercase();
    known.push('\n');
    known.push_str(&said.to_lowercase());
    let mut new_text = Vec::new();
    changed_strings(before, after, &mut new_text);
    let mut found = Invented::default();
    let mut seen = HashSet::new();
    for fact in new_text.into_iter().flat_map(facts) {
        if seen.contains(&fact) {
            continue;
        }
        if seen.len() == MAX_CHECKED {
            found.unchecked = true;
            break;
        }
        seen.insert(fact.clone());
        if !known.contains(&fact.to_lowercase()) {
            found.facts.push(fact);
        }
    }
    found
}

/// Strings of `after` that are new or different from what `before` held at the same place.
fn changed_strings<'a>(before: &Value, after: &'a Value, out: &mut Vec<&'a str>) {
    match after {
        Value::String(a) if before.as_str() != Some(a.as_str()) => out.push(a),
        Value::Object(a) => {
            for (key, value) in a {
                changed_strings(before.get(key).unwrap_or(&Value::Null), value, out);
            }
        }
        Value::Array(a) => {
            let b = before.as_array().map(Vec::as_slice).unwrap_or_default();
            for value in a {
                // Items move: an item found anywhere before is not new.
                if !b.contains(value) {
                    let like = b
                        .iter()
                        .find(|item| same_kind(item, value))
                        .unwrap_or(&Value::Null);
                    changed_strings(like, value, out);
                }
            }
        }
        _ => {}
    }
}

fn same_kind(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && !a.is_object()
}

/// The checkable facts in a text: a short value as a whole (a title, an employer, a date); in sentences,
/// every token with a digit (numbers, percentages, years, dates) and names written as two or more
/// capitalised words in a row.
fn facts(text: &str) -> Vec<String> {
    let mut out = contacts(text);
    let words: Vec<&str> = text.split_whitespace().collect();
    // A short value that is not a sentence (a title, an employer, a date) is one fact.
    let phrase = words.len() <= 6 && !text.contains(['.', '!', '?']);
    if phrase && text.chars().any(|c| c.is_uppercase() || c.is_ascii_digit()) {
        out.push(text.trim().to_owned());
    }
    for word in &words {
        let trimmed = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '%' && c != '$');
        if trimmed.chars().any(|c| c.is_ascii_digit()) {
            out.push(trimmed.to_owned());
        }
    }
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, out: &mut Vec<String>| {
        if run.len() >= 2 {
            out.push(run.join(" "));
        }
        run.clear();
    };
    for (i, word) in words.iter().enumerate() {
        let clean = word.trim_matches(|c: char| !c.is_alphanumeric());
        let sentence_start = i == 0 || words[i - 1].ends_with(['.', '!', '?', ':']);
        let capital = clean.chars().next().is_some_and(char::is_uppercase);
        if capital && !(sentence_start && run.is_empty()) {
            run.push(clean);
        } else {
            flush(&mut run, &mut out);
        }
        if word.ends_with([',', '.', ';', ':', '!', '?']) {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The e-mail addresses, URLs and phone numbers in a text, whole: how to reach someone is a fact a model
/// must never bring in on its own (a prompt-injected job description would like your replies).
fn contacts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| "<>()[]\"'“”‘’,;!?".contains(c));
        let word = word.trim_end_matches('.');
        let email = word
            .split_once('@')
            .is_some_and(|(user, host)| !user.is_empty() && host.contains('.'));
        let lower = word.to_ascii_lowercase();
        let url = lower.starts_with("http://")
            || lower.starts_with("https://")
            || lower.starts_with("www.")
            || lower.starts_with("mailto:");
        if email || url {
            out.push(word.to_owned());
        }
    }
    // A phone number: a run of digits, spaces and + ( ) - . with at least seven digits.
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<String>| {
        let number = run.trim().trim_end_matches(['.', '-']);
        if number.chars().filter(char::is_ascii_digit).count() >= 7 {
            out.push(number.to_owned());
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || "+()-. ".contains(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn new_numbers_and_names_are_flagged_known_ones_are_not() {
        let before = json!({"work": [{"name": "Pied Piper", "summary": "Built compression."}]});
        let after = json!({"work": [{"name": "Pied Piper", "summary":
            "Built compression at Pied Piper, cutting storage 40% for 2,000 customers with Hooli Cloud."}]});
        let flagged = invented(
            &before,
            &after,
            "tighten my Pied Piper summary; we had 2,000 customers",
        );
        assert_eq!(flagged.facts, ["40%", "Hooli Cloud"]);
    }

    #[test]
    fn a_rewording_without_new_facts_flags_nothing() {
        let before = json!({"basics": {"summary": "Engineer since 2015 at Initech."}});
        let after = json!({"basics": {"summary": "Since 2015, an engineer at Initech."}});
        assert_eq!(invented(&before, &after, ""), Invented::default());
    }

    #[test]
    fn new_contact_details_are_flagged() {
        let before = json!({"basics": {"email": "ada@example.com", "phone": "+44 20 7946 0000", "summary": "Engineer."}});
        let after = json!({"basics": {"email": "recruiter@evil.example", "phone": "+1 (555) 010-9999",
            "url": "https://evil.example/apply", "summary": "Engineer. Write to ada@example.com or see www.evil.example."}});
        let flagged = invented(&before, &after, "tighten my summary");
        for fact in [
            "recruiter@evil.example",
            "+1 (555) 010-9999",
            "https://evil.example/apply",
            "www.evil.example",
        ] {
            assert!(
                flagged.facts.iter().any(|f| f == fact),
                "{fact} in {flagged:?}"
            );
        }
        assert!(
            !flagged.facts.iter().any(|f| f == "ada@example.com"),
            "known: {flagged:?}"
        );
    }

    #[test]
    fn a_new_item_is_checked_whole() {
        let before = json!({"work": []});
        let after = json!({"work": [{"name": "Globex", "position": "Chief Scientist", "startDate": "2019-04"}]});
        let flagged = invented(&before, &after, "add my job at Globex");
        assert_eq!(flagged.facts, ["Chief Scientist", "2019-04"]);
    }

    #[test]
    fn the_facts_of_a_change_are_one_warning() {
        let where_ = "your resume or your messages";
        let found = |facts: &[&str], unchecked| Invented {
            facts: facts.iter().map(|f| (*f).to_owned()).collect(),
            unchecked,
        };
        assert_eq!(found(&[], false).warning(where_), None);
        assert_eq!(
            found(&["Hooli"], false).warning(where_).unwrap(),
            "“Hooli” appears nowhere in your resume or your messages: please check it."
        );
        assert_eq!(
            found(&["Hooli", "40%", "2019"], false)
                .warning(where_)
                .unwrap(),
            "“Hooli”, “40%” and “2019” appear nowhere in your resume or your messages: please check them."
        );
        let many: Vec<String> = (1..=20).map(|n| format!("Fact {n}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let text = found(&many, false).warning(where_).unwrap();
        assert!(
            text.starts_with("“Fact 1”, “Fact 2”,")
                && text.contains("“Fact 8” and 12 more names and numbers appear"),
            "{text}"
        );
        assert!(!text.contains("Fact 9”"), "{text}");
        let long = "A".repeat(8_000);
        let text = found(&[&long], true).warning(where_).unwrap();
        assert!(
            text.chars().count() < 250,
            "{} characters",
            text.chars().count()
        );
        assert!(text.contains(&format!("“{}…”", "A".repeat(60))), "{text}");
        assert!(
            text.ends_with("than Redline checks (1000): please read it over."),
            "{text}"
        );
        assert_eq!(
            found(&[], true).warning(where_).unwrap(),
            "This change brings in more names and numbers than Redline checks (1000): please read it over."
        );
    }

    #[test]
    fn a_change_of_a_megabyte_of_numbers_is_checked_in_part_and_said_so() {
        // What a hostile answer can bring in one bundle: hundreds of kilobytes of new numbers, each a fact.
        // Before, each was looked up and a warning line made for it: 40,000 of them took 1.7 s (release) and
        // made 40,000 chat lines.
        let numbers: Vec<String> = (0..40_000).map(|n| format!("7x{n}")).collect();
        let before = json!({"basics": {"summary": "x".repeat(500_000)}});
        let after = json!({"basics": {"summary": "x".repeat(500_000), "label": numbers.join(" ")}});
        let found = invented(&before, &after, "");
        assert!(found.unchecked);
        assert_eq!(found.facts.len(), MAX_CHECKED);
        assert!(
            found
                .facts
                .starts_with(&["7x0".to_owned(), "7x1".to_owned()])
        );
    }
}
