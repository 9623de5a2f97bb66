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
    fn an_unknown_verb_is_refused() {
        let err = serde_json::from_value::<Operation>(json!({"op": "frobnicate", "path": "/a"}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("frobnicate"), "{err}");
    }
}
