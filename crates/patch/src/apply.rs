//! Applying a bundle of operations: all of it, or none of it.

use serde_json::Value;

use crate::Operation;

/// Why a bundle could not be applied. The document is left exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("operation {number} ({verb} {path}) could not be applied: {reason}")]
pub struct ApplyError {
    /// Which operation failed, counting from 1 as a person would.
    pub number: usize,
    /// Its verb (`add`, `replace`, …).
    pub verb: &'static str,
    /// Its path.
    pub path: String,
    /// What went wrong, in plain words.
    pub reason: String,
}

/// Applies `ops` to `doc` atomically: on any failure `doc` is unchanged.
pub fn apply(doc: &mut Value, ops: &[Operation]) -> Result<(), ApplyError> {
    if let [op] = ops
        && let Some(result) = apply_one_in_place(doc, op)
    {
        return result.map_err(|reason| error(0, op, reason.to_string()));
    }
    let mut patch = Vec::with_capacity(ops.len());
    for (index, op) in ops.iter().enumerate() {
        patch.push(to_json_patch(op).map_err(|reason| error(index, op, reason.to_string()))?);
    }
    // json_patch::patch undoes the operations already applied when a later one fails.
    json_patch::patch(doc, &patch).map_err(|e| {
        let reason = match e.kind {
            json_patch::PatchErrorKind::TestFailed => {
                "the test failed: the value there is not the expected one".to_owned()
            }
            json_patch::PatchErrorKind::InvalidFromPointer => format!(
                "\"from\" ({}) does not exist in the resume",
                from_of(&ops[e.operation])
            ),
            json_patch::PatchErrorKind::CannotMoveInsideItself => {
                "a value cannot be moved inside itself".to_owned()
            }
            _ => "the path does not exist in the resume (or an array index is out of range)"
                .to_owned(),
        };
        error(e.operation, &ops[e.operation], reason)
    })
}

/// One `add` or `replace`, the operations every preview sends, applied straight where it goes: one
/// allocation-free lookup instead of json-patch's (which allocates two strings per token). A single
/// operation either applies or fails before changing anything, so nothing needs undoing. `None` for the
/// other verbs, which take json-patch's route.
fn apply_one_in_place(doc: &mut Value, op: &Operation) -> Option<Result<(), Unapplied>> {
    let missing = || Unapplied::Missing;
    Some(match op {
        Operation::Replace { path, value } => check(path).and_then(|()| {
            let slot = crate::pointer::get_mut(doc, path).ok_or_else(missing)?;
            *slot = value.clone();
            Ok(())
        }),
        Operation::Add { path, value } if !path.is_empty() => check(path).and_then(|()| {
            let (parent, last) = path.rsplit_once('/').unwrap_or(("", path));
            match crate::pointer::get_mut(doc, parent).ok_or_else(missing)? {
                Value::Object(map) => {
                    map.insert(crate::pointer::unescape(last).into_owned(), value.clone());
                }
                Value::Array(items) => {
                    let at = match last {
                        "-" => items.len(),
                        _ => crate::pointer::index(last)
                            .filter(|&i| i <= items.len())
                            .ok_or_else(missing)?,
                    };
                    items.insert(at, value.clone());
                }
                _ => return Err(missing()),
            }
            Ok(())
        }),
        _ => return None,
    })
}

/// `ops` in json-patch's form (for the store), each pointer checked.
pub fn to_patch(ops: &[Operation]) -> Result<json_patch::Patch, ApplyError> {
    ops.iter()
        .enumerate()
        .map(|(index, op)| to_json_patch(op).map_err(|reason| error(index, op, reason.to_string())))
        .collect::<Result<Vec<_>, _>>()
        .map(json_patch::Patch)
}

/// The result of applying `ops` to a copy of `doc`.
pub fn applied(doc: &Value, ops: &[Operation]) -> Result<Value, ApplyError> {
    let mut copy = doc.clone();
    apply(&mut copy, ops)?;
    Ok(copy)
}

/// The json-patch crate's form of `op`, built directly (no serde round trip: this runs on every preview).
fn to_json_patch(op: &Operation) -> Result<json_patch::PatchOperation, Unapplied> {
    use json_patch::{
        AddOperation, CopyOperation, MoveOperation, PatchOperation, RemoveOperation,
        ReplaceOperation, TestOperation,
    };
    let pointer = |p: &str| {
        check(p)?;
        jsonptr::PointerBuf::parse(p)
            .map_err(|e| Unapplied::Unparsed(format!("\"{p}\" is not a JSON Pointer: {e}")))
    };
    Ok(match op {
        Operation::Add { path, value } => PatchOperation::Add(AddOperation {
            path: pointer(path)?,
            value: value.clone(),
        }),
        Operation::Remove { path } => PatchOperation::Remove(RemoveOperation {
            path: pointer(path)?,
        }),
        Operation::Replace { path, value } => PatchOperation::Replace(ReplaceOperation {
            path: pointer(path)?,
            value: value.clone(),
        }),
        Operation::Move { from, path } => PatchOperation::Move(MoveOperation {
            from: pointer(from)?,
            path: pointer(path)?,
        }),
        Operation::Copy { from, path } => PatchOperation::Copy(CopyOperation {
            from: pointer(from)?,
            path: pointer(path)?,
        }),
        Operation::Test { path, value } => PatchOperation::Test(TestOperation {
            path: pointer(path)?,
            value: value.clone(),
        }),
    })
}

/// Why one operation cannot be applied before json-patch is asked.
#[derive(Debug, thiserror::Error)]
enum Unapplied {
    #[error("the path does not exist in the resume (or an array index is out of range)")]
    Missing,
    #[error("{0}")]
    Pointer(#[from] crate::pointer::PointerError),
    /// json-patch's pointer parser refused it (in its words).
    #[error("{0}")]
    Unparsed(String),
}

fn check(pointer: &str) -> Result<(), Unapplied> {
    Ok(crate::pointer::check(pointer)?)
}

fn from_of(op: &Operation) -> &str {
    op.from().unwrap_or("")
}

fn error(index: usize, op: &Operation, reason: String) -> ApplyError {
    ApplyError {
        number: index + 1,
        verb: op.verb(),
        path: op.path().to_owned(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_failing_operation_leaves_the_document_untouched() {
        let mut doc = json!({"skills": [{"name": "Rust"}]});
        let ops = vec![
            Operation::Add {
                path: "/skills/0/keywords".into(),
                value: json!(["async"]),
            },
            Operation::Replace {
                path: "/skills/3/name".into(),
                value: json!("Go"),
            },
        ];
        let err = apply(&mut doc, &ops).unwrap_err();
        assert_eq!(doc, json!({"skills": [{"name": "Rust"}]}));
        assert_eq!(err.number, 2);
        assert_eq!(
            err.to_string(),
            "operation 2 (replace /skills/3/name) could not be applied: the path does not exist in the resume (or an array index is out of range)"
        );
    }

    #[test]
    fn a_bad_pointer_is_named() {
        let err = applied(
            &json!({}),
            &[Operation::Remove {
                path: "skills/0".into(),
            }],
        )
        .unwrap_err();
        assert!(
            err.reason.contains("\"skills/0\" is not a JSON Pointer"),
            "{err}"
        );
        let err = applied(
            &json!({}),
            &[Operation::Remove {
                path: "/a~2b".into(),
            }],
        )
        .unwrap_err();
        assert!(err.reason.contains("~2"), "{err}");
    }
}
