//! Stable array addressing.
//!
//! JSON Resume array items carry no ids, so an index can point at the wrong item once the list changed.
//! A bundle names the revision it was made against (its *base*); [`rebase`] carries each operation over to
//! the current head. Wherever the path steps through an array, the item the bundle meant (the one at that
//! index in the base) is looked for in the head: at the same index if it is still there, else wherever the
//! same content now sits. If it is nowhere, the operation is refused as a conflict — never applied to
//! whichever item now sits at that index.

use serde_json::Value;

use crate::pointer;
use crate::{Operation, apply};

/// Why a bundle cannot be carried over to the head revision.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RebaseError {
    /// The item an operation addressed has changed or gone since the bundle's base revision.
    #[error("{path} no longer points at the item the edit was made for: {detail}")]
    Conflict { path: String, detail: String },
    /// The bundle does not even apply to its own base.
    #[error("{0}")]
    Invalid(#[from] apply::ApplyError),
}

/// The operations of a bundle made against `base`, re-targeted to apply to `head`.
pub fn rebase(
    base: &Value,
    head: &Value,
    ops: &[Operation],
) -> Result<Vec<Operation>, RebaseError> {
    if base == head {
        return Ok(ops.to_vec());
    }
    // Each operation's pointers refer to the document as the operations before it left it: walk the base
    // and the head forward together.
    let (mut base, mut head) = (base.clone(), head.clone());
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        let moved = retarget(&base, &head, op)?;
        apply::apply(&mut base, std::slice::from_ref(op))?;
        apply::apply(&mut head, std::slice::from_ref(&moved)).map_err(|e| {
            RebaseError::Conflict {
                path: op.path().to_owned(),
                detail: e.reason,
            }
        })?;
        out.push(moved);
    }
    Ok(out)
}

fn retarget(base: &Value, head: &Value, op: &Operation) -> Result<Operation, RebaseError> {
    let inserts = matches!(
        op,
        Operation::Add { .. } | Operation::Move { .. } | Operation::Copy { .. }
    );
    let mut op = op.clone();
    match &mut op {
        Operation::Add { path, .. }
        | Operation::Remove { path }
        | Operation::Replace { path, .. }
        | Operation::Test { path, .. } => *path = map_pointer(base, head, path, inserts)?,
        Operation::Move { from, path } | Operation::Copy { from, path } => {
            *from = map_pointer(base, head, from, false)?;
            *path = map_pointer(base, head, path, true)?;
        }
    }
    Ok(op)
}

/// `pointer`, meant for `base`, as it must read in `head`. With `insert`, its last token may be an
/// insertion position (an index up to the length, or `-`).
pub fn map_pointer(
    base: &Value,
    head: &Value,
    pointer: &str,
    insert: bool,
) -> Result<String, RebaseError> {
    pointer::check(pointer).map_err(|e| RebaseError::Conflict {
        path: pointer.to_owned(),
        detail: e.to_string(),
    })?;
    let tokens = pointer::tokens(pointer);
    let conflict = |detail: String| RebaseError::Conflict {
        path: pointer.to_owned(),
        detail,
    };
    let (mut b, mut h) = (Some(base), Some(head));
    let mut out = String::new();
    for (i, token) in tokens.iter().enumerate() {
        let last = i + 1 == tokens.len();
        let mapped = match (b, h) {
            (Some(Value::Array(bs)), Some(Value::Array(hs))) if token != "-" => {
                let Ok(index) = token.parse::<usize>() else {
                    return Ok(pointer.to_owned()); // not an index: let applying report it
                };
                if last && insert && index == bs.len() {
                    hs.len().to_string() // "at the end" stays at the end
                } else {
                    let Some(meant) = bs.get(index) else {
                        return Ok(pointer.to_owned()); // out of range in the base too: applying reports it
                    };
                    match find(hs, index, meant) {
                        Some(j) => j.to_string(),
                        None => {
                            return Err(conflict(format!(
                                "item {index} was changed, moved or removed since the edit was made"
                            )));
                        }
                    }
                }
            }
            _ => token.clone(),
        };
        b = b.and_then(|v| child(v, token));
        h = h.and_then(|v| child(v, &mapped));
        out.push('/');
        out.push_str(&mapped.replace('~', "~0").replace('/', "~1"));
    }
    Ok(out)
}

/// Where `meant` sits in `items`: at `index` if it is still there, else the nearest equal item.
fn find(items: &[Value], index: usize, meant: &Value) -> Option<usize> {
    if items.get(index) == Some(meant) {
        return Some(index);
    }
    (0..items.len())
        .filter(|&j| &items[j] == meant)
        .min_by_key(|&j| j.abs_diff(index))
}

fn child<'v>(value: &'v Value, token: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map.get(token),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn base() -> Value {
        json!({"work": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
    }

    #[test]
    fn an_unchanged_document_keeps_the_operations() {
        let ops = vec![Operation::Remove {
            path: "/work/1".into(),
        }];
        assert_eq!(rebase(&base(), &base(), &ops).unwrap(), ops);
    }

    #[test]
    fn an_item_that_moved_is_found_by_its_content() {
        // Since the base, someone removed A: B is now at index 0.
        let head = json!({"work": [{"name": "B"}, {"name": "C"}]});
        let ops = vec![Operation::Replace {
            path: "/work/1/name".into(),
            value: json!("B2"),
        }];
        assert_eq!(
            rebase(&base(), &head, &ops).unwrap(),
            vec![Operation::Replace {
                path: "/work/0/name".into(),
                value: json!("B2")
            }]
        );
    }

    #[test]
    fn an_item_that_changed_or_went_is_a_conflict_not_a_wrong_edit() {
        let head = json!({"work": [{"name": "A"}, {"name": "C"}]});
        let ops = vec![Operation::Remove {
            path: "/work/1".into(),
        }];
        let err = rebase(&base(), &head, &ops).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/work/1 no longer points at the item the edit was made for: item 1 was changed, moved or removed since the edit was made"
        );
    }

    #[test]
    fn inserts_keep_their_place_and_appends_stay_at_the_end() {
        let head = json!({"work": [{"name": "Z"}, {"name": "A"}, {"name": "B"}, {"name": "C"}]});
        let ops = vec![
            Operation::Add {
                path: "/work/1".into(),
                value: json!({"name": "A½"}),
            },
            Operation::Add {
                path: "/work/4".into(),
                value: json!({"name": "D"}),
            },
        ];
        let moved = rebase(&base(), &head, &ops).unwrap();
        assert_eq!(moved[0].path(), "/work/2"); // before B, wherever B is
        assert_eq!(moved[1].path(), "/work/5"); // the end
    }

    #[test]
    fn test_operations_guard_by_the_same_rule() {
        let head = json!({"work": [{"name": "C"}, {"name": "A"}, {"name": "B"}]});
        let ops = vec![
            Operation::Test {
                path: "/work/0/name".into(),
                value: json!("A"),
            },
            Operation::Remove {
                path: "/work/0".into(),
            },
        ];
        let moved = rebase(&base(), &head, &ops).unwrap();
        assert_eq!(moved[0].path(), "/work/1/name");
        assert_eq!(moved[1].path(), "/work/1");
    }
}
