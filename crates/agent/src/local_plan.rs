//! The one-model path's planner, on this computer: which part of the resume an ask is about, from its
//! words and the resume's outline, for a chat model that cannot call tools.
//!
//! "Tighten the summary of my job at Pied Piper" names an entry (Pied Piper, a job) and a field of it
//! (summary): the target is `/work/0/summary`. "Add Python to my skills" names a section: `/skills`. The
//! selection, when the user made one, wins. Nothing here changes the resume: the targets only say where
//! the patch model may write, and the scope fence, the identity holds and review mode apply as for any
//! planner.

use serde_json::Value;

/// Where an ask goes, and how the chat says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Aim {
    /// The pointers the patch model may change.
    pub targets: Vec<String>,
    /// The targets in words (`your job at Pied Piper`).
    pub words: String,
}

/// The verbs an ask to change the resume starts with or holds (English, and the first words of the other
/// languages Redline writes).
const EDIT_VERBS: &[&str] = &[
    "add",
    "append",
    "insert",
    "include",
    "put",
    "list",
    "mention",
    "change",
    "replace",
    "update",
    "set",
    "make",
    "rename",
    "edit",
    "fix",
    "correct",
    "rewrite",
    "reword",
    "rephrase",
    "tighten",
    "shorten",
    "expand",
    "improve",
    "polish",
    "remove",
    "delete",
    "drop",
    "cut",
    "move",
    "reorder",
    "swap",
    "sort",
    "translate",
    "füge",
    "ändere",
    "entferne",
    "ajoute",
    "modifie",
    "supprime",
    "añade",
    "agrega",
    "cambia",
    "elimina",
    "aggiungi",
    "modifica",
    "rimuovi",
    "adicione",
    "altere",
    "remova",
];

/// True when `message` reads as an ask to change the resume rather than a question about it.
pub fn looks_like_edit(message: &str) -> bool {
    let words = words_of(message);
    let question = message.trim_end().ends_with('?')
        && words.first().is_some_and(|w| {
            matches!(
                w.as_str(),
                "what" | "why" | "how" | "who" | "when" | "which" | "is" | "are" | "does" | "do"
            )
        });
    !question && words.iter().any(|w| EDIT_VERBS.contains(&w.as_str()))
}

/// The sections, by the words people use for them.
const SECTIONS: &[(&str, &[&str])] = &[
    (
        "work",
        &[
            "job",
            "jobs",
            "work",
            "experience",
            "employment",
            "employer",
            "career",
        ],
    ),
    ("volunteer", &["volunteer", "volunteering"]),
    (
        "education",
        &[
            "education",
            "degree",
            "degrees",
            "school",
            "university",
            "studies",
            "college",
        ],
    ),
    (
        "awards",
        &["award", "awards", "prize", "prizes", "honors", "honours"],
    ),
    (
        "certificates",
        &[
            "certificate",
            "certificates",
            "certification",
            "certifications",
        ],
    ),
    (
        "publications",
        &[
            "publication",
            "publications",
            "paper",
            "papers",
            "article",
            "articles",
        ],
    ),
    (
        "skills",
        &["skill", "skills", "stack", "technologies", "tools"],
    ),
    ("languages", &["languages", "language", "fluency", "spoken"]),
    ("interests", &["interest", "interests", "hobby", "hobbies"]),
    (
        "references",
        &["reference", "references", "referee", "referees"],
    ),
    ("projects", &["project", "projects"]),
];

/// The fields of `basics`, by the words people use for them.
const BASICS: &[(&str, &[&str])] = &[
    ("summary", &["summary", "about", "bio", "overview"]),
    ("label", &["headline", "title", "label", "tagline"]),
    ("name", &["name"]),
    ("email", &["email", "e-mail", "mail"]),
    ("phone", &["phone", "telephone", "mobile"]),
    ("url", &["website", "site", "homepage", "url"]),
    ("location", &["address", "location", "city"]),
    (
        "profiles",
        &["profile", "profiles", "linkedin", "github", "twitter"],
    ),
];

/// An entry's fields, by the words people use for them (the first that names a field of that entry wins).
const FIELDS: &[(&str, &[&str])] = &[
    ("summary", &["summary", "description"]),
    ("description", &["description"]),
    (
        "highlights",
        &[
            "highlight",
            "highlights",
            "bullet",
            "bullets",
            "achievement",
            "achievements",
        ],
    ),
    ("keywords", &["keyword", "keywords"]),
    ("position", &["position", "title", "role"]),
    ("startDate", &["start", "started", "began"]),
    ("endDate", &["end", "ended", "left", "until"]),
    ("courses", &["course", "courses"]),
    ("fluency", &["fluency", "level"]),
    ("level", &["level"]),
    ("url", &["link", "url", "website"]),
];

/// The field that names an entry of `section`.
fn name_field(section: &str) -> &'static [&'static str] {
    match section {
        "work" => &["name", "position"],
        "volunteer" => &["organization"],
        "education" => &["institution", "area"],
        "awards" => &["title"],
        "languages" => &["language"],
        "references" => &["name"],
        _ => &["name"],
    }
}

/// Where an ask about a cover letter goes on the one-model path: the part of the letter selected, else
/// its paragraphs (a first draft adds them; a later ask rewrites them).
pub fn letter_aim(selected: Option<&str>) -> Aim {
    match selected.filter(|s| s.starts_with("/paragraphs") || s.starts_with("/subject")) {
        Some(selected) => Aim {
            targets: vec![selected.to_owned()],
            words: "the selected part of your letter".to_owned(),
        },
        None => Aim {
            targets: vec!["/paragraphs".to_owned()],
            words: "your letter".to_owned(),
        },
    }
}

/// Where `message` asks to change `resume`: the selection when there is one, else an entry it names (and
/// a field of it, if it names one), else a section or a detail it names. `None` when it names nothing.
pub fn aim(resume: &Value, message: &str, selected: Option<&str>) -> Option<Aim> {
    let mut targets = match selected.filter(|s| s.starts_with('/') && resume.pointer(s).is_some()) {
        Some(selected) => vec![selected.to_owned()],
        None => by_words(resume, message),
    };
    if targets.is_empty() {
        return None;
    }
    if removes_only(message) {
        targets = targets
            .into_iter()
            .flat_map(|t| named_inside(resume, &t, message))
            .collect();
    }
    let words: Vec<String> = targets
        .iter()
        .map(|t| redline_resume::place::place(resume, t))
        .collect();
    Some(Aim {
        targets,
        words: words.join(" and "),
    })
}

/// True when `message` asks only to remove something ("Remove GIF from my skills").
pub fn removes_only(message: &str) -> bool {
    let fit = crate::places::Fit::of(message);
    fit.remove && fit.verbs.as_ref().is_some_and(Vec::is_empty)
}

/// What a removal inside `target` names: the text values under it that `message` says word for word ("GIF"
/// → that keyword), an entry's name standing for its entry; `target` itself when it names none.
fn named_inside(resume: &Value, target: &str, message: &str) -> Vec<String> {
    let lower = message.to_lowercase();
    let mut found: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut walk = vec![(target.to_owned(), resume.pointer(target))];
    while let Some((pointer, value)) = walk.pop() {
        match value {
            Some(Value::String(text))
                if text.chars().count() >= 2 && contains_words(&lower, &text.to_lowercase()) =>
            {
                // An entry's name stands for the entry.
                match pointer.rsplit_once('/') {
                    Some((entry, field))
                        if ["name", "language", "institution", "organization", "title"]
                            .contains(&field) =>
                    {
                        names.push(entry.to_owned())
                    }
                    _ => found.push(pointer),
                }
            }
            Some(Value::Object(fields)) => walk.extend(fields.iter().map(|(k, v)| {
                (
                    format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")),
                    Some(v),
                )
            })),
            Some(Value::Array(items)) => walk.extend(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (format!("{pointer}/{i}"), Some(v))),
            ),
            _ => {}
        }
    }
    // A word inside the entry is more precise than the entry's name ("Remove GIF from Compression").
    let mut chosen = if found.is_empty() { names } else { found };
    chosen.sort();
    chosen.dedup();
    if chosen.is_empty() {
        vec![target.to_owned()]
    } else {
        chosen
    }
}

fn by_words(resume: &Value, message: &str) -> Vec<String> {
    let lower = message.to_lowercase();
    let words = words_of(message);
    let has = |w: &&str| words.iter().any(|x| x == w);
    let mut targets = Vec::new();
    // The words an entry's field took ("the summary of my job at …" is not your summary).
    let mut used: Vec<&str> = Vec::new();
    // Entries named by their name: "Pied Piper", "Web Development".
    for (section, _) in SECTIONS {
        let Some(items) = resume[*section].as_array() else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let named = name_field(section).iter().any(|key| {
                item[*key]
                    .as_str()
                    .map(str::to_lowercase)
                    .is_some_and(|name| name.chars().count() >= 2 && contains_words(&lower, &name))
            });
            if !named {
                continue;
            }
            let entry = format!("/{section}/{i}");
            let field = FIELDS
                .iter()
                .find(|(field, said)| item.get(*field).is_some() && said.iter().any(&has));
            if let Some((_, said)) = field {
                used.extend(said.iter().copied());
            }
            targets.push(match field {
                Some((field, _)) => format!("{entry}/{field}"),
                None => entry,
            });
        }
    }
    if !targets.is_empty() {
        // "… and change my headline": a detail of `basics` named beside an entry.
        targets.extend(
            BASICS
                .iter()
                .filter(|(_, said)| said.iter().any(|w| has(w) && !used.contains(w)))
                .map(|(field, _)| format!("/basics/{field}"))
                .take(1),
        );
        return targets;
    }
    for (section, said) in SECTIONS {
        if said.iter().any(&has) {
            targets.push(format!("/{section}"));
        }
    }
    // "my summary", "my e-mail": a detail of `basics`, unless a section was named ("the summary of my
    // job" names a job).
    if targets.is_empty() {
        for (field, said) in BASICS {
            if said.iter().any(&has) {
                targets.push(format!("/basics/{field}"));
                break;
            }
        }
    }
    targets
}

/// The message's words, lowercase, split at anything that is not a letter, a digit, `-` or `'`.
fn words_of(message: &str) -> Vec<String> {
    message
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches("'s").to_owned())
        .collect()
}

/// True when `haystack` holds `needle` as whole words (not "java" inside "javascript").
fn contains_words(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aimed(message: &str) -> Vec<String> {
        aim(&redline_resume::sample(), message, None)
            .map(|a| a.targets)
            .unwrap_or_default()
    }

    #[test]
    fn an_entry_named_by_its_name_and_a_field_of_it() {
        assert_eq!(
            aimed("Tighten the summary of my job at Pied Piper."),
            ["/work/0/summary"]
        );
        assert_eq!(
            aimed("Add a highlight to Pied Piper"),
            ["/work/0/highlights"]
        );
        assert_eq!(
            aimed(
                "Add Python to my Web Development skills and change my headline to Backend Engineer."
            ),
            ["/skills/0", "/basics/label"]
        );
        assert_eq!(
            aimed("Add Python to my web development skills."),
            ["/skills/0"]
        );
        let aim = aim(
            &redline_resume::sample(),
            "Change the end date of Pied Piper to 2015",
            None,
        )
        .unwrap();
        assert_eq!(aim.targets, ["/work/0/endDate"]);
        assert_eq!(aim.words, "the end date of your job at Pied Piper");
    }

    #[test]
    fn a_section_or_a_detail_named_by_its_words() {
        assert_eq!(aimed("Add Python to my skills."), ["/skills"]);
        assert_eq!(aimed("Add German to my languages"), ["/languages"]);
        assert_eq!(aimed("Shorten my summary"), ["/basics/summary"]);
        assert_eq!(
            aimed("Change my phone number to 555 0100"),
            ["/basics/phone"]
        );
        assert_eq!(aimed("Add a project called Redline"), ["/projects"]);
        assert!(aimed("Make it better").is_empty());
    }

    #[test]
    fn a_removal_aims_at_what_it_names() {
        assert_eq!(aimed("Remove the skill Compression."), ["/skills/1"]);
        assert_eq!(
            aimed("Remove GIF from my Compression skill."),
            ["/skills/1/keywords/2"]
        );
        assert_eq!(aimed("Remove the interest Wildlife."), ["/interests/0"]);
        // Nothing named inside: the section.
        assert_eq!(aimed("Remove my languages"), ["/languages"]);
    }

    #[test]
    fn the_selection_wins_when_it_is_in_the_resume() {
        let sample = redline_resume::sample();
        let aim_at = |s| aim(&sample, "Make this shorter", Some(s)).map(|a| a.targets);
        assert_eq!(
            aim_at("/work/0/summary"),
            Some(vec!["/work/0/summary".to_owned()])
        );
        assert_eq!(aim_at("/nowhere"), None);
    }

    #[test]
    fn an_edit_is_told_from_a_question() {
        assert!(looks_like_edit("Add Python to my skills."));
        assert!(looks_like_edit("Please tighten the summary"));
        assert!(!looks_like_edit("What should I add to my skills?"));
        assert!(!looks_like_edit("Thanks!"));
    }
}
