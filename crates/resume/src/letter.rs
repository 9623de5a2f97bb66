//! Cover letters: a document of their own kind, with their own schema, written for a job and shown beside
//! the resume they belong to.
//!
//! A letter holds what is its own (recipient, role, date, subject, greeting, paragraphs, closing); the
//! sender is never copied into it: it is the resume's `basics`, read when the letter is shown or exported,
//! so that a new phone number reaches every letter. [`LetterOutline`] is the letter as a reader meets it,
//! which the text, Markdown and HTML exports render.

use std::fmt::Write as _;
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::SchemaViolation;
use crate::export::{escape, md};
use crate::outline::{Item, outline};
use crate::unseen::visible;

/// The letter's schema (`assets/letter.schema.json`, Redline's own).
pub const LETTER_SCHEMA: &str = include_str!("../../../assets/letter.schema.json");

/// The places a letter has: its top-level fields (an edit anywhere else is refused).
pub const FIELDS: &[&str] = &[
    "/recipient",
    "/role",
    "/date",
    "/subject",
    "/greeting",
    "/paragraphs",
    "/closing",
    "/meta",
];

/// Checks `letter` against the letter's schema; every problem is listed by JSON Pointer.
pub fn validate(letter: &Value) -> Result<(), Vec<SchemaViolation>> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        let schema: Value =
            serde_json::from_str(LETTER_SCHEMA).expect("the bundled letter schema is valid JSON");
        jsonschema::validator_for(&schema).expect("the bundled letter schema compiles")
    });
    let violations: Vec<SchemaViolation> = validator
        .iter_errors(letter)
        .map(|e| SchemaViolation {
            pointer: e.instance_path().to_string(),
            rule: crate::shorten(&e.to_string(), 200),
        })
        .collect();
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

/// A new letter for `company` and `role` (either may be empty), dated `date` (`YYYY-MM-DD`): the frame
/// the model then fills with paragraphs.
pub fn skeleton(company: &str, role: &str, date: &str) -> Value {
    let mut letter = json!({
        "recipient": {},
        "date": date,
        "greeting": "Dear hiring team,",
        "paragraphs": [],
        "closing": "Kind regards,",
    });
    if !company.is_empty() {
        letter["recipient"]["company"] = json!(company);
    }
    if !role.is_empty() {
        letter["role"] = json!(role);
        letter["subject"] = json!(format!("Application for the {role} position"));
    }
    letter
}

/// The letter's shape in a few lines, for a model's prompt.
pub const SHAPE: &str = "{\"recipient\": {\"name\": text, \"company\": text, \"address\": text}, \
\"role\": text, \"date\": \"YYYY-MM-DD\", \"subject\": text, \"greeting\": text, \"paragraphs\": [text, …], \
\"closing\": text}";

/// A letter as a reader meets it: the sender (from the resume), then the letter's own parts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LetterOutline {
    /// The sender's name, from the resume.
    pub sender: String,
    /// The sender's e-mail, phone, site and place, from the resume.
    pub contacts: Vec<Item>,
    /// The date, as written in the letter.
    pub date: String,
    /// The recipient's name, company and address, each on its own line.
    pub recipient: Vec<String>,
    /// The subject line.
    pub subject: String,
    /// The greeting.
    pub greeting: String,
    /// The body.
    pub paragraphs: Vec<String>,
    /// The closing.
    pub closing: String,
}

/// The text of `key` in `v`, trimmed and without unseen characters.
fn s(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .map(|t| visible(t.trim()).into_owned())
        .unwrap_or_default()
}

/// The outline of `letter`, whose sender is `resume`'s person.
pub fn letter_outline(letter: &Value, resume: &Value) -> LetterOutline {
    let (header, _) = outline(resume);
    let recipient = &letter["recipient"];
    LetterOutline {
        sender: header.name,
        contacts: header.contacts,
        date: s(letter, "date"),
        recipient: ["name", "company", "address"]
            .iter()
            .map(|k| s(recipient, k))
            .filter(|t| !t.is_empty())
            .collect(),
        subject: s(letter, "subject"),
        greeting: s(letter, "greeting"),
        paragraphs: letter["paragraphs"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter_map(Value::as_str)
                    .map(|p| visible(p.trim()).into_owned())
                    .filter(|p| !p.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        closing: s(letter, "closing"),
    }
}

/// `resume` as the sender of `letter`: the resume, set in the letter's language when the letter names one
/// (`/meta/language`), so that its PDF and Word file read in the letter's words and direction.
pub fn sender_of(letter: &Value, resume: &Value) -> Value {
    let mut sender = resume.clone();
    if let Some(language) = letter["meta"]["language"].as_str() {
        if !sender["meta"].is_object() {
            sender["meta"] = json!({});
        }
        sender["meta"]["language"] = json!(language);
    }
    sender
}

/// The letter as plain text.
pub fn text(letter: &Value, resume: &Value) -> String {
    let o = letter_outline(letter, resume);
    let mut out = String::new();
    let mut block = |lines: Vec<String>| {
        let lines: Vec<String> = lines.into_iter().filter(|l| !l.is_empty()).collect();
        if !lines.is_empty() {
            let _ = writeln!(out, "{}\n", lines.join("\n"));
        }
    };
    let mut head = vec![o.sender.clone()];
    head.extend(o.contacts.iter().map(|c| c.text.clone()));
    block(head);
    block(vec![o.date.clone()]);
    block(o.recipient.clone());
    block(vec![o.subject.clone()]);
    block(vec![o.greeting.clone()]);
    for p in &o.paragraphs {
        block(vec![p.clone()]);
    }
    block(vec![o.closing.clone(), o.sender.clone()]);
    out
}

/// The letter as Markdown.
pub fn markdown(letter: &Value, resume: &Value) -> String {
    let o = letter_outline(letter, resume);
    let mut out = String::new();
    if !o.sender.is_empty() {
        let _ = writeln!(out, "# {}\n", md(&o.sender));
    }
    let contacts: Vec<String> = o.contacts.iter().map(|c| md(&c.text)).collect();
    if !contacts.is_empty() {
        let _ = writeln!(out, "{}\n", contacts.join(" · "));
    }
    for line in [&o.date].into_iter().filter(|l| !l.is_empty()) {
        let _ = writeln!(out, "{}\n", md(line));
    }
    if !o.recipient.is_empty() {
        let lines: Vec<String> = o.recipient.iter().map(|l| md(l)).collect();
        // Two spaces before a newline: a line break inside one paragraph.
        let _ = writeln!(out, "{}\n", lines.join("  \n"));
    }
    if !o.subject.is_empty() {
        let _ = writeln!(out, "**{}**\n", md(&o.subject));
    }
    for p in [&o.greeting].into_iter().chain(&o.paragraphs) {
        if !p.is_empty() {
            let _ = writeln!(out, "{}\n", md(p));
        }
    }
    let sign: Vec<String> = [&o.closing, &o.sender]
        .into_iter()
        .filter(|l| !l.is_empty())
        .map(|l| md(l))
        .collect();
    if !sign.is_empty() {
        let _ = writeln!(out, "{}", sign.join("  \n"));
    }
    out
}

/// The letter as one self-contained HTML page (no script, no outside resource).
pub fn html(letter: &Value, resume: &Value) -> String {
    let o = letter_outline(letter, resume);
    let mut body = String::new();
    let _ = write!(
        body,
        "<header><h1>{}</h1><p class=\"contacts\">{}</p></header>",
        escape(&o.sender),
        o.contacts
            .iter()
            .map(|c| escape(&c.text))
            .collect::<Vec<_>>()
            .join(" · ")
    );
    let para = |class: &str, lines: &[String]| -> String {
        let lines: Vec<String> = lines
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| escape(l))
            .collect();
        match lines.is_empty() {
            true => String::new(),
            false => format!("<p class=\"{class}\">{}</p>", lines.join("<br>")),
        }
    };
    body.push_str(&para("date", std::slice::from_ref(&o.date)));
    body.push_str(&para("recipient", &o.recipient));
    body.push_str(&para("subject", std::slice::from_ref(&o.subject)));
    body.push_str(&para("greeting", std::slice::from_ref(&o.greeting)));
    for p in &o.paragraphs {
        body.push_str(&para("body", std::slice::from_ref(p)));
    }
    body.push_str(&para("closing", &[o.closing.clone(), o.sender.clone()]));
    let title = match o.subject.is_empty() {
        true => "Cover letter".to_owned(),
        false => escape(&o.subject),
    };
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>{title}</title><style>\
         body{{font-family:Georgia,serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5;\
         overflow-wrap:anywhere}}h1{{margin:0}}.contacts{{margin-top:.25rem;color:#444}}\
         .subject{{font-weight:bold}}@media print{{body{{margin:0}}}}</style></head>\
         <body><main>{body}</main></body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resume() -> Value {
        json!({"basics": {"name": "Ada Lovelace", "email": "ada@example.com"}})
    }

    fn letter() -> Value {
        let mut letter = skeleton("Initech", "Engineer", "2025-03-01");
        letter["paragraphs"] = json!(["I write to apply <now>.", "  ", "Second *point*."]);
        letter
    }

    #[test]
    fn the_skeleton_is_a_valid_letter_and_a_resume_is_not() {
        assert_eq!(validate(&letter()), Ok(()));
        let problems = validate(&json!({"basics": {"name": "Ada"}})).unwrap_err();
        assert!(problems[0].rule.contains("basics"), "{problems:?}");
        let bad = validate(&json!({"date": "March", "paragraphs": [3]})).unwrap_err();
        let at: Vec<&str> = bad.iter().map(|p| p.pointer.as_str()).collect();
        assert!(
            at.contains(&"/date") && at.contains(&"/paragraphs/0"),
            "{at:?}"
        );
    }

    #[test]
    fn the_sender_speaks_the_letter_s_language_and_keeps_the_resume_s_design() {
        let mut resume = resume();
        resume["meta"] = json!({"design": {"accent": "#123456"}});
        let mut letter = letter();
        assert_eq!(
            sender_of(&letter, &resume),
            resume,
            "no language: the resume as it is"
        );
        letter["meta"] = json!({"language": "ar"});
        let sender = sender_of(&letter, &resume);
        assert_eq!(sender["meta"]["language"], "ar");
        assert_eq!(sender["meta"]["design"]["accent"], "#123456");
        assert_eq!(sender["basics"], resume["basics"]);
    }

    #[test]
    fn exports_take_the_sender_from_the_resume_and_escape_the_letter() {
        let text = text(&letter(), &resume());
        assert!(text.starts_with("Ada Lovelace\nada@example.com\n\n2025-03-01\n\nInitech\n"));
        assert!(text.contains("Application for the Engineer position"));
        assert!(text.trim_end().ends_with("Kind regards,\nAda Lovelace"));
        assert_eq!(
            letter_outline(&letter(), &resume()).paragraphs.len(),
            2,
            "an empty paragraph is left out"
        );
        let html = html(&letter(), &resume());
        assert!(html.contains("I write to apply &lt;now&gt;."), "{html}");
        assert!(!html.contains("<now>"));
        let md = markdown(&letter(), &resume());
        assert!(md.contains("Second \\*point\\*\\."), "{md}");
        assert!(md.starts_with("# Ada Lovelace\n"));
    }
}
