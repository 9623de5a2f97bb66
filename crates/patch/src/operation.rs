//! One RFC 6902 operation, in the shape the UI receives and history stores.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// One RFC 6902 JSON Patch operation; `path` and `from` are RFC 6901 JSON Pointers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Operation {
    /// Insert `value` at `path` (into an array: before the index, or at the end with `-`).
    Add { path: String, value: Value },
    /// Remove the value at `path`.
    Remove { path: String },
    /// Replace the value at `path`, which must exist.
    Replace { path: String, value: Value },
    /// Move the value at `from` to `path`.
    Move { from: String, path: String },
    /// Copy the value at `from` to `path`.
    Copy { from: String, path: String },
    /// Fail the whole patch unless the value at `path` equals `value`.
    Test { path: String, value: Value },
}

impl Operation {
    /// The operation's verb, as on the wire.
    pub fn verb(&self) -> &'static str {
        match self {
            Operation::Add { .. } => "add",
            Operation::Remove { .. } => "remove",
            Operation::Replace { .. } => "replace",
            Operation::Move { .. } => "move",
            Operation::Copy { .. } => "copy",
            Operation::Test { .. } => "test",
        }
    }

    /// The pointer a `move` or `copy` reads from.
    pub fn from(&self) -> Option<&str> {
        match self {
            Operation::Move { from, .. } | Operation::Copy { from, .. } => Some(from),
            _ => None,
        }
    }

    /// The value the operation carries, if it carries one.
    pub fn value(&self) -> Option<&Value> {
        match self {
            Operation::Add { value, .. }
            | Operation::Replace { value, .. }
            | Operation::Test { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The pointer the operation writes to (or checks, for `test`).
    pub fn path(&self) -> &str {
        match self {
            Operation::Add { path, .. }
            | Operation::Remove { path }
            | Operation::Replace { path, .. }
            | Operation::Move { path, .. }
            | Operation::Copy { path, .. }
            | Operation::Test { path, .. } => path,
        }
    }
}

impl Operation {
    /// The operation in words, for history, held edits and the CLI: `add “Python” at /skills/0/keywords/3`.
    /// Values are quoted and cut to 80 characters: a model's text is shown, never trusted as markup.
    pub fn describe(&self) -> String {
        let value = shown;
        match self {
            Operation::Add { path, value: v } => format!("add {} at {path}", value(v)),
            Operation::Replace { path, value: v } => format!("change {path} to {}", value(v)),
            Operation::Remove { path } => format!("remove {path}"),
            Operation::Move { from, path } => format!("move {from} to {path}"),
            Operation::Copy { from, path } => format!("copy {from} to {path}"),
            Operation::Test { path, value: v } => format!("check that {path} is {}", value(v)),
        }
    }
}

impl Operation {
    /// The operation in a person's words, its places named as [`redline_resume::place::place`] names
    /// them in `doc` (the resume the operation applies to): `Add “Python” to the keywords of your skill
    /// “Web Development”`, `Change your title to “Founder”`. For held edits, review cards and the history:
    /// never a pointer where words can say it. Values are quoted and cut to 80 characters.
    pub fn describe_in(&self, doc: &Value) -> String {
        use redline_resume::place::place;
        let is_list = |pointer: &str| doc.pointer(pointer).is_some_and(Value::is_array);
        let into_list = |path: &str| {
            path.rsplit_once('/')
                .filter(|(parent, last)| {
                    (*last == "-" || last.parse::<usize>().is_ok()) && is_list(parent)
                })
                .map(|(parent, _)| parent.to_owned())
        };
        match self {
            Operation::Add { path, value } => match (into_list(path), value) {
                // A whole entry: named by what it holds (“your job at Hooli”).
                (Some(list), Value::Object(_)) if list.matches('/').count() == 1 => {
                    let mut holder = serde_json::Map::new();
                    holder.insert(list[1..].to_owned(), Value::Array(vec![value.clone()]));
                    format!(
                        "Add {}",
                        place(&Value::Object(holder), &format!("{list}/0"))
                    )
                }
                (Some(list), _) => format!("Add {} to {}", shown(value), place(doc, &list)),
                (None, _) => format!("Set {} to {}", place(doc, path), shown(value)),
            },
            Operation::Replace { path, value } => {
                format!("Change {} to {}", place(doc, path), shown(value))
            }
            Operation::Remove { path } => match doc.pointer(path) {
                Some(Value::String(text)) => {
                    format!(
                        "Remove {} ({})",
                        shown(&Value::String(text.clone())),
                        place(doc, path)
                    )
                }
                _ => format!("Remove {}", place(doc, path)),
            },
            Operation::Move { from, path } => {
                match (from.rsplit_once('/'), path.rsplit_once('/')) {
                    (Some((a, _)), Some((b, to))) if a == b && to.parse::<usize>().is_ok() => {
                        format!(
                            "Move {} to place {}",
                            place(doc, from),
                            to.parse::<usize>().unwrap_or(0) + 1
                        )
                    }
                    _ => format!("Move {} to {}", place(doc, from), place(doc, path)),
                }
            }
            Operation::Copy { from, path } => {
                format!("Copy {} to {}", place(doc, from), place(doc, path))
            }
            Operation::Test { path, .. } => format!("Check {}", place(doc, path)),
        }
    }
}

/// A value as the words show it: text quoted, anything else as JSON; cut to 80 characters.
fn shown(v: &Value) -> String {
    let (text, quoted) = match v {
        Value::String(s) => (s.clone(), true),
        other => (other.to_string(), false),
    };
    let short = redline_resume::shorten(&text, 80);
    if quoted {
        format!("“{short}”")
    } else {
        short
    }
}

/// [`summarize`] in a person's words ([`Operation::describe_in`]), the places named in `doc`, the resume
/// the bundle applies to: its first change, and how many more.
pub fn summarize_in(ops: &[Operation], doc: &Value) -> String {
    let changes: Vec<&Operation> = ops
        .iter()
        .filter(|op| !matches!(op, Operation::Test { .. }))
        .collect();
    match changes.as_slice() {
        [] => "No change".to_owned(),
        [one] => one.describe_in(doc),
        [first, rest @ ..] => format!(
            "{} and {} more change{}",
            first.describe_in(doc),
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        ),
    }
}

/// Each operation in a person's words, described against the resume as the ones before it left it (one
/// copy of `doc`, changed in place).
pub fn describe_all(ops: &[Operation], doc: &Value) -> Vec<String> {
    let mut current = doc.clone();
    ops.iter()
        .map(|op| {
            let line = op.describe_in(&current);
            let _ = crate::apply(&mut current, std::slice::from_ref(op));
            line
        })
        .collect()
}

/// A bundle in words, for a revision's summary: its one operation, or the first and how many more (`test`
/// guards are not changes, and are left out).
pub fn summarize(ops: &[Operation]) -> String {
    let changes: Vec<&Operation> = ops
        .iter()
        .filter(|op| !matches!(op, Operation::Test { .. }))
        .collect();
    let capitalised = |text: String| {
        let mut chars = text.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    };
    match changes.as_slice() {
        [] => "No change".to_owned(),
        [one] => capitalised(one.describe()),
        [first, rest @ ..] => format!(
            "{} and {} more change{}",
            capitalised(first.describe()),
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        ),
    }
}

/// json-patch's form of an operation as ours: the one conversion between the two types.
impl From<&json_patch::PatchOperation> for Operation {
    fn from(op: &json_patch::PatchOperation) -> Self {
        use json_patch::PatchOperation as P;
        match op {
            P::Add(o) => Operation::Add {
                path: o.path.to_string(),
                value: o.value.clone(),
            },
            P::Remove(o) => Operation::Remove {
                path: o.path.to_string(),
            },
            P::Replace(o) => Operation::Replace {
                path: o.path.to_string(),
                value: o.value.clone(),
            },
            P::Move(o) => Operation::Move {
                from: o.from.to_string(),
                path: o.path.to_string(),
            },
            P::Copy(o) => Operation::Copy {
                from: o.from.to_string(),
                path: o.path.to_string(),
            },
            P::Test(o) => Operation::Test {
                path: o.path.to_string(),
                value: o.value.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn operations_read_and_write_the_rfc_6902_wire_form() {
        let wire = json!([
            {"op": "add", "path": "/skills/0/keywords/-", "value": "Python"},
            {"op": "remove", "path": "/work/1"},
            {"op": "replace", "path": "/basics/summary", "value": "Builds things."},
            {"op": "move", "from": "/work/0", "path": "/work/2"},
            {"op": "copy", "from": "/basics/email", "path": "/basics/url"},
            {"op": "test", "path": "/basics/name", "value": "Ada"}
        ]);
        let ops: Vec<Operation> = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(
            ops[1],
            Operation::Remove {
                path: "/work/1".into()
            }
        );
        assert_eq!(ops[3].path(), "/work/2");
        assert_eq!(serde_json::to_value(&ops).unwrap(), wire);
    }

    #[test]
    fn operations_read_as_words_and_convert_from_json_patch() {
        let wire = json!([
            {"op": "add", "path": "/skills/0/keywords/-", "value": "Python"},
            {"op": "test", "path": "/basics/name", "value": "Ada"},
            {"op": "replace", "path": "/basics/summary", "value": "x".repeat(100)},
            {"op": "move", "from": "/work/0", "path": "/work/2"}
        ]);
        let patch: json_patch::Patch = serde_json::from_value(wire.clone()).unwrap();
        let ops: Vec<Operation> = patch.iter().map(Into::into).collect();
        assert_eq!(ops, serde_json::from_value::<Vec<Operation>>(wire).unwrap());
        assert_eq!(ops[0].describe(), "add “Python” at /skills/0/keywords/-");
        assert!(
            ops[2].describe().ends_with("xxx…”"),
            "{}",
            ops[2].describe()
        );
        assert_eq!(
            summarize(&ops),
            "Add “Python” at /skills/0/keywords/- and 2 more changes"
        );
        assert_eq!(summarize(&ops[1..2]), "No change");
    }

    #[test]
    fn an_unknown_verb_is_refused() {
        let err = serde_json::from_value::<Operation>(json!({"op": "frobnicate", "path": "/a"}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("frobnicate"), "{err}");
    }
}
