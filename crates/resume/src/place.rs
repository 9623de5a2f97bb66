//! Where a JSON Pointer is in a resume, in the words a person uses: `/basics/label` is “your title”,
//! `/work/0/highlights/2` is “a highlight of your job at Pied Piper”. Edits are shown to people this way —
//! held edits, review cards, the history — never as pointers.

use serde_json::Value;

/// The place `pointer` names in `resume`, in words. What the words cannot name is given as the pointer.
pub fn place(resume: &Value, pointer: &str) -> String {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    words(resume, &tokens).unwrap_or_else(|| pointer.to_owned())
}

fn words(resume: &Value, tokens: &[&str]) -> Option<String> {
    match tokens {
        [] => Some("the whole resume".to_owned()),
        ["basics"] => Some("your details".to_owned()),
        ["basics", "location"] => Some("your address".to_owned()),
        ["basics", "location", field] => Some(format!("the {} of your address", human(field))),
        ["basics", "profiles"] => Some("your profiles".to_owned()),
        ["basics", field] => Some(format!("your {}", basics_field(field))),
        ["basics", "profiles", i] => Some(profile(resume, i)),
        ["basics", "profiles", i, field] => {
            Some(format!("the {} of {}", human(field), profile(resume, i)))
        }
        [section] => Some(format!("your {}", section_name(section)?)),
        [section, i] => Some(entry(resume, section, i)?),
        [section, i, field] => Some(format!(
            "the {} of {}",
            entry_field(section, field),
            entry(resume, section, i)?
        )),
        [section, i, list, k] => {
            let item = match *k {
                "-" => "a new",
                _ => "a",
            };
            Some(format!(
                "{item} {} of {}",
                singular(list),
                entry(resume, section, i)?
            ))
        }
        _ => None,
    }
}

fn basics_field(field: &str) -> String {
    match field {
        "label" => "title".to_owned(),
        "email" => "e-mail".to_owned(),
        "phone" => "phone number".to_owned(),
        "url" => "web site".to_owned(),
        "image" => "photo".to_owned(),
        other => human(other),
    }
}

fn profile(resume: &Value, i: &str) -> String {
    match text(resume, &["basics", "profiles", i, "network"]) {
        Some(network) => format!("your {network} profile"),
        None if i == "-" => "a new profile".to_owned(),
        None => "one of your profiles".to_owned(),
    }
}

fn section_name(section: &str) -> Option<&'static str> {
    Some(match section {
        "work" => "jobs",
        "volunteer" => "volunteering",
        "education" => "education",
        "awards" => "awards",
        "certificates" => "certificates",
        "publications" => "publications",
        "skills" => "skills",
        "languages" => "languages",
        "interests" => "interests",
        "references" => "references",
        "projects" => "projects",
        "meta" => "resume's metadata",
        _ => return None,
    })
}

/// An entry of a section, by what names it (`your job at Pied Piper`, `your skill “Rust”`).
fn entry(resume: &Value, section: &str, i: &str) -> Option<String> {
    let named = |key: &str| text(resume, &[section, i, key]);
    let (kind, name) = match section {
        "work" => ("job at", named("name").or_else(|| named("position"))),
        "volunteer" => ("volunteering at", named("organization")),
        "education" => ("studies at", named("institution")),
        "awards" => ("award", named("title").map(quoted)),
        "certificates" => ("certificate", named("name").map(quoted)),
        "publications" => ("publication", named("name").map(quoted)),
        "skills" => ("skill", named("name").map(quoted)),
        "languages" => ("language", named("language").map(quoted)),
        "interests" => ("interest", named("name").map(quoted)),
        "references" => ("reference from", named("name")),
        "projects" => ("project", named("name").map(quoted)),
        _ => return None,
    };
    Some(match (name, i) {
        (Some(name), _) => format!("your {kind} {name}"),
        (None, "-") => format!("a new entry of your {}", section_name(section)?),
        (None, _) => format!("an entry of your {}", section_name(section)?),
    })
}

fn entry_field(section: &str, field: &str) -> String {
    match (section, field) {
        ("work" | "volunteer", "position") => "title".to_owned(),
        ("work", "name") => "employer".to_owned(),
        ("education", "studyType") => "degree".to_owned(),
        ("education", "area") => "field of study".to_owned(),
        ("skills", "keywords") | ("interests", "keywords") | ("projects", "keywords") => {
            "keywords".to_owned()
        }
        (_, "highlights") => "highlights".to_owned(),
        (_, other) => human(other),
    }
}

/// The one-item word for a list's name (`highlights` → `highlight`, `courses` → `course`).
fn singular(list: &str) -> String {
    let words = human(list);
    words.strip_suffix('s').map_or(words.clone(), str::to_owned)
}

/// `startDate` → `start date`, `countryCode` → `country code`.
fn human(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_uppercase() && !out.is_empty() {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
    }
    out
}

fn quoted(text: String) -> String {
    format!("“{text}”")
}

/// The string at `tokens`, if there is a non-empty one (cut to 40 characters).
fn text(resume: &Value, tokens: &[&str]) -> Option<String> {
    let mut node = resume;
    for token in tokens {
        node = match node {
            Value::Object(map) => map.get(*token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    let text = node.as_str()?.trim();
    if text.is_empty() {
        return None;
    }
    Some(crate::shorten(text, 40))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_named_as_a_person_would() {
        let resume = crate::sample();
        let cases = [
            ("", "the whole resume"),
            ("/basics/label", "your title"),
            ("/basics/email", "your e-mail"),
            ("/basics/location/city", "the city of your address"),
            ("/basics/profiles/0", "your Twitter profile"),
            (
                "/basics/profiles/1/username",
                "the username of your SoundCloud profile",
            ),
            ("/work/0", "your job at Pied Piper"),
            ("/work/0/summary", "the summary of your job at Pied Piper"),
            ("/work/0/position", "the title of your job at Pied Piper"),
            (
                "/work/0/startDate",
                "the start date of your job at Pied Piper",
            ),
            (
                "/work/0/highlights/1",
                "a highlight of your job at Pied Piper",
            ),
            (
                "/work/0/highlights/-",
                "a new highlight of your job at Pied Piper",
            ),
            ("/work/-", "a new entry of your jobs"),
            (
                "/skills/0/keywords",
                "the keywords of your skill “Web Development”",
            ),
            (
                "/skills/0/keywords/3",
                "a keyword of your skill “Web Development”",
            ),
            (
                "/education/0/studyType",
                "the degree of your studies at University of Oklahoma",
            ),
            ("/skills", "your skills"),
            ("/unknown/thing", "/unknown/thing"),
        ];
        for (pointer, words) in cases {
            assert_eq!(place(&resume, pointer), words, "{pointer}");
        }
    }

    #[test]
    fn a_name_from_the_resume_is_cut_and_never_more_than_text() {
        let resume = serde_json::json!({"work": [{"name": format!("<b>{}</b>", "x".repeat(100))}]});
        let named = place(&resume, "/work/0");
        assert!(named.starts_with("your job at <b>xxx"));
        assert!(named.chars().count() < 60, "{named}");
    }
}
