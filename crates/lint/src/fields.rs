//! Which strings of a resume (or of a cover letter) are checked, and which words the resume itself teaches
//! the spelling check.

use std::collections::HashSet;

use serde_json::Value;

use crate::{Field, MAX_FIELD_CHARS, MAX_USER_WORDS};

/// The most fields one check reads: a resume with more entries than anyone writes is checked in part.
const MAX_FIELDS: usize = 5_000;

/// Fields written in words, per section entry: `(section, keys of one string, keys of a list of strings)`.
const PROSE: [(&str, &[&str], &[&str]); 8] = [
    (
        "work",
        &["position", "summary", "description"],
        &["highlights"],
    ),
    ("volunteer", &["position", "summary"], &["highlights"]),
    ("education", &["area", "studyType"], &[]),
    ("awards", &["title", "summary"], &[]),
    ("certificates", &["name"], &[]),
    ("publications", &["name", "summary"], &[]),
    ("projects", &["description"], &["highlights"]),
    ("references", &["reference"], &[]),
];

/// Fields that name things: their words are words (`(section, keys of one string, keys of a list)`).
const NAMES: [(&str, &[&str], &[&str]); 11] = [
    ("work", &["name", "location"], &[]),
    ("volunteer", &["organization"], &[]),
    ("education", &["institution"], &["courses"]),
    ("skills", &["name"], &["keywords"]),
    ("languages", &["language"], &[]),
    ("interests", &["name"], &["keywords"]),
    ("projects", &["name", "entity"], &["keywords", "roles"]),
    ("awards", &["awarder"], &[]),
    ("certificates", &["issuer"], &[]),
    ("publications", &["publisher"], &[]),
    ("references", &["name"], &[]),
];

/// The fields written in words, in document order, each cut to [`MAX_FIELD_CHARS`].
pub(crate) fn prose(resume: &Value) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    for key in ["label", "summary"] {
        push(
            &mut fields,
            format!("/basics/{key}"),
            &resume["basics"][key],
        );
    }
    for (section, one, many) in PROSE {
        each(resume, section, one, many, |path, value| {
            push(&mut fields, path, value);
        });
    }
    fields.truncate(MAX_FIELDS);
    fields
}

/// The fields of a cover letter written in words, in document order: its subject, greeting, paragraphs
/// and closing.
pub(crate) fn letter_prose(letter: &Value) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    for key in ["subject", "greeting"] {
        push(&mut fields, format!("/{key}"), &letter[key]);
    }
    let paragraphs = letter["paragraphs"].as_array().into_iter().flatten();
    for (i, paragraph) in paragraphs.enumerate().take(MAX_FIELDS) {
        push(&mut fields, format!("/paragraphs/{i}"), paragraph);
    }
    push(&mut fields, "/closing".to_owned(), &letter["closing"]);
    fields.truncate(MAX_FIELDS);
    fields
}

/// The words a cover letter names (its recipient, company, address and role), lower-cased, added to
/// `known`.
pub(crate) fn letter_names(letter: &Value, known: &mut HashSet<String>) {
    let recipient = &letter["recipient"];
    let names = ["name", "company", "address"]
        .iter()
        .map(|key| &recipient[*key])
        .chain([&letter["role"]]);
    for text in names.filter_map(Value::as_str) {
        for (_, word) in crate::words::words(text) {
            known.insert(word.to_lowercase());
        }
    }
}

/// Whether the field at `path` is written in sentences (where grammar applies), not a title or a label.
// (Grammar's alone: unused in a build without the `grammar` feature.)
pub(crate) fn in_sentences(path: &str) -> bool {
    ["/summary", "/description", "/reference"]
        .iter()
        .any(|end| path.ends_with(end))
        || path.contains("/highlights/")
        || path.starts_with("/paragraphs/")
}

/// Every word the resume names (people, companies, schools, skills, places, languages) and the user's
/// own words, lower-cased.
pub(crate) fn taught(resume: &Value, user: &[String]) -> HashSet<String> {
    let mut known = HashSet::new();
    let mut learn = |text: &str| {
        for (_, word) in crate::words::words(text) {
            known.insert(word.to_lowercase());
        }
    };
    let basics = &resume["basics"];
    learn(basics["name"].as_str().unwrap_or(""));
    if let Some(location) = basics["location"].as_object() {
        location
            .values()
            .filter_map(Value::as_str)
            .for_each(&mut learn);
    }
    for profile in basics["profiles"].as_array().into_iter().flatten() {
        learn(profile["network"].as_str().unwrap_or(""));
        learn(profile["username"].as_str().unwrap_or(""));
    }
    for (section, one, many) in NAMES {
        each(resume, section, one, many, |_, value| {
            learn(value.as_str().unwrap_or(""));
        });
    }
    for word in user.iter().take(MAX_USER_WORDS) {
        learn(word);
    }
    known
}

/// Calls `visit` with the pointer and value of each `one` key and each item of each `many` key of every
/// entry of `section`.
fn each<'a>(
    resume: &'a Value,
    section: &str,
    one: &[&str],
    many: &[&str],
    mut visit: impl FnMut(String, &'a Value),
) {
    let entries = resume[section].as_array().into_iter().flatten();
    for (i, entry) in entries.enumerate().take(MAX_FIELDS) {
        for key in one {
            visit(format!("/{section}/{i}/{key}"), &entry[key]);
        }
        for key in many {
            let items = entry[key].as_array().into_iter().flatten();
            for (j, item) in items.enumerate().take(MAX_FIELDS) {
                visit(format!("/{section}/{i}/{key}/{j}"), item);
            }
        }
    }
}

fn push<'a>(fields: &mut Vec<Field<'a>>, path: String, value: &'a Value) {
    if let Some(text) = value.as_str().filter(|t| !t.trim().is_empty()) {
        fields.push(Field {
            path,
            text: cut(text),
        });
    }
}

/// `text` cut to its first [`MAX_FIELD_CHARS`] characters (offsets stay those of the whole field).
pub(crate) fn cut(text: &str) -> &str {
    match text.char_indices().nth(MAX_FIELD_CHARS) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}
