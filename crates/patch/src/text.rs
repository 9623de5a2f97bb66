//! Text operations: adding a sentence or a paragraph to a rich-text field.
//!
//! A model that wants to add one sentence to a summary should not have to repeat the whole summary. A text
//! operation names the field and the new text; it expands deterministically into the `replace` that history
//! stores (an `add` when the field is missing), joining sentences with one space and paragraphs with a blank
//! line, with no doubled spaces or stray separators around an empty or missing field.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Operation;
use crate::pointer;

/// Which text operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TextVerb {
    /// Add a sentence after the field's text.
    AppendSentence,
    /// Add a sentence before the field's text.
    PrependSentence,
    /// Add a paragraph after the field's text.
    AppendParagraph,
    /// Add a paragraph before the field's text.
    PrependParagraph,
}

impl TextVerb {
    /// The verb as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            TextVerb::AppendSentence => "appendSentence",
            TextVerb::PrependSentence => "prependSentence",
            TextVerb::AppendParagraph => "appendParagraph",
            TextVerb::PrependParagraph => "prependParagraph",
        }
    }

    /// The verb named `name`, if it is a text operation.
    pub fn parse(name: &str) -> Option<TextVerb> {
        [
            TextVerb::AppendSentence,
            TextVerb::PrependSentence,
            TextVerb::AppendParagraph,
            TextVerb::PrependParagraph,
        ]
        .into_iter()
        .find(|v| v.as_str() == name)
    }
}

/// The fields whose text may grow by sentences and paragraphs, as pointer patterns (`*` is any array index).
pub const RICH_TEXT_FIELDS: &[&str] = &[
    "/basics/summary",
    "/work/*/summary",
    "/volunteer/*/summary",
    "/awards/*/summary",
    "/publications/*/summary",
    "/projects/*/description",
    "/references/*/reference",
];

/// Why a text operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// The field is not rich text.
    #[error(
        "{verb} works only on rich-text fields, and {path} is not one (rich-text fields: basics.summary, work[].summary, volunteer[].summary, awards[].summary, publications[].summary, projects[].description, references[].reference)"
    )]
    NotRichText { verb: &'static str, path: String },
    /// The field holds something other than text.
    #[error("{verb} needs text at {path}, but the resume has {found} there")]
    NotText {
        verb: &'static str,
        path: String,
        found: &'static str,
    },
    /// The object that should hold the field does not exist.
    #[error("{verb} cannot add {path}: the entry it belongs to does not exist")]
    NoParent { verb: &'static str, path: String },
    /// The path is not a JSON Pointer.
    #[error("{0}")]
    BadPointer(#[from] crate::pointer::PointerError),
}

/// True when `path` is one of the [`RICH_TEXT_FIELDS`].
pub fn is_rich_text(path: &str) -> bool {
    let tokens = pointer::tokens(path);
    RICH_TEXT_FIELDS.iter().any(|pattern| {
        let pattern = pointer::tokens(pattern);
        pattern.len() == tokens.len()
            && pattern.iter().zip(&tokens).all(|(p, t)| {
                (p == "*" && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())) || p == t
            })
    })
}

/// The RFC 6902 operation that `verb` with `text` at `path` amounts to in `doc`.
pub fn expand(doc: &Value, verb: TextVerb, path: &str, text: &str) -> Result<Operation, TextError> {
    pointer::check(path).map_err(TextError::BadPointer)?;
    if !is_rich_text(path) {
        return Err(TextError::NotRichText {
            verb: verb.as_str(),
            path: path.to_owned(),
        });
    }
    let current = match doc.pointer(path) {
        None => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Null) => None,
        Some(other) => {
            return Err(TextError::NotText {
                verb: verb.as_str(),
                path: path.to_owned(),
                found: kind_of(other),
            });
        }
    };
    let parent = &path[..path.rfind('/').unwrap_or(0)];
    if current.is_none() && !doc.pointer(parent).is_some_and(Value::is_object) {
        return Err(TextError::NoParent {
            verb: verb.as_str(),
            path: path.to_owned(),
        });
    }
    let joined = join(verb, current.unwrap_or(""), text);
    let path = path.to_owned();
    Ok(match doc.pointer(&path) {
        Some(_) => Operation::Replace {
            path,
            value: Value::String(joined),
        },
        None => Operation::Add {
            path,
            value: Value::String(joined),
        },
    })
}

/// Joins `addition` to `current`: sentences with one space, paragraphs with a blank line; whitespace at the
/// seam is folded so that nothing is doubled and nothing dangles.
pub fn join(verb: TextVerb, current: &str, addition: &str) -> String {
    let addition = addition.trim();
    let separator = match verb {
        TextVerb::AppendSentence | TextVerb::PrependSentence => " ",
        TextVerb::AppendParagraph | TextVerb::PrependParagraph => "\n\n",
    };
    let (first, second) = match verb {
        TextVerb::AppendSentence | TextVerb::AppendParagraph => (current.trim_end(), addition),
        TextVerb::PrependSentence | TextVerb::PrependParagraph => (addition, current.trim_start()),
    };
    match (first.trim().is_empty(), second.trim().is_empty()) {
        (true, _) => second.to_owned(),
        (_, true) => first.to_owned(),
        _ => format!("{first}{separator}{second}"),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sentences_join_with_one_space_and_paragraphs_with_a_blank_line() {
        assert_eq!(
            join(
                TextVerb::AppendSentence,
                "Builds things. ",
                "  Leads teams."
            ),
            "Builds things. Leads teams."
        );
        assert_eq!(
            join(
                TextVerb::PrependSentence,
                " Builds things.",
                "Leads teams. "
            ),
            "Leads teams. Builds things."
        );
        assert_eq!(
            join(TextVerb::AppendParagraph, "One.\n\n", "Two."),
            "One.\n\nTwo."
        );
        assert_eq!(
            join(TextVerb::PrependParagraph, "\nTwo.", "One."),
            "One.\n\nTwo."
        );
    }

    #[test]
    fn an_empty_field_gets_just_the_text() {
        for verb in [
            TextVerb::AppendSentence,
            TextVerb::PrependSentence,
            TextVerb::AppendParagraph,
            TextVerb::PrependParagraph,
        ] {
            assert_eq!(join(verb, "", " Leads teams. "), "Leads teams.");
            assert_eq!(join(verb, "   ", "Leads teams."), "Leads teams.");
            assert_eq!(join(verb, "Builds things.", "  "), "Builds things.");
        }
    }

    #[test]
    fn text_operations_expand_into_replace_or_add() {
        let doc = json!({"basics": {"summary": "Builds things."}, "work": [{"name": "Acme"}]});
        assert_eq!(
            expand(
                &doc,
                TextVerb::AppendSentence,
                "/basics/summary",
                "Leads teams."
            )
            .unwrap(),
            Operation::Replace {
                path: "/basics/summary".into(),
                value: json!("Builds things. Leads teams.")
            }
        );
        assert_eq!(
            expand(
                &doc,
                TextVerb::AppendParagraph,
                "/work/0/summary",
                "Shipped v2."
            )
            .unwrap(),
            Operation::Add {
                path: "/work/0/summary".into(),
                value: json!("Shipped v2.")
            }
        );
    }

    #[test]
    fn other_fields_are_refused_by_name() {
        let doc = json!({"basics": {"name": "Ada", "summary": 3}, "work": []});
        let err = expand(&doc, TextVerb::AppendSentence, "/basics/name", "x").unwrap_err();
        assert!(
            err.to_string().starts_with(
                "appendSentence works only on rich-text fields, and /basics/name is not one"
            ),
            "{err}"
        );
        assert!(matches!(
            expand(&doc, TextVerb::AppendSentence, "/work/0/name", "x"),
            Err(TextError::NotRichText { .. })
        ));
        assert!(matches!(
            expand(&doc, TextVerb::AppendSentence, "/basics/summary", "x"),
            Err(TextError::NotText {
                found: "a number",
                ..
            })
        ));
        assert!(matches!(
            expand(&doc, TextVerb::AppendSentence, "/work/0/summary", "x"),
            Err(TextError::NoParent { .. })
        ));
        assert!(!is_rich_text("/work/x/summary") && !is_rich_text("/work/0/summary/0"));
    }
}
