//! What an edit may do: checked before anything reaches the UI, and again at commit.

use serde_json::Value;

use crate::Operation;
use crate::pointer::is_within;

/// The rules edits must keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Pointers nothing may change (default `/meta`), nor anything below them.
    pub protected: Vec<String>,
    /// The most operations in one bundle.
    pub max_operations: usize,
    /// The largest value one operation may carry, in bytes of JSON.
    pub max_value_bytes: usize,
    /// The longest string one operation may carry, in characters.
    pub max_string_chars: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            protected: vec!["/meta".to_owned()],
            max_operations: 100,
            max_value_bytes: 64 * 1024,
            max_string_chars: 8_000,
        }
    }
}

/// Where a bundle was meant to act: the pointer prefixes the planner named. An edit outside all of them
/// is held for the user's confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// No limit (a change the user made by hand, or a planner that named no targets).
    Anywhere,
    /// Only below these pointers.
    Targets(Vec<String>),
}

impl Scope {
    /// True when an edit at `path` is inside the scope.
    pub fn contains(&self, path: &str) -> bool {
        match self {
            Scope::Anywhere => true,
            Scope::Targets(targets) => targets.iter().any(|t| is_within(path, t)),
        }
    }
}

/// What the policy says about an allowed operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// It may be applied.
    Allowed,
    /// It is outside the scope: apply it only if the user confirms.
    NeedsConfirmation {
        /// The path outside the scope.
        path: String,
    },
}

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// The edit would change a protected part of the resume.
    #[error("the edit would change {path}, which is protected ({protected} is never edited)")]
    Protected { path: String, protected: String },
    /// Too many operations in one bundle.
    #[error("the edit has {count} operations; at most {limit} are allowed in one change")]
    TooManyOperations { count: usize, limit: usize },
    /// One value is too large.
    #[error("the value for {path} is {bytes} bytes; at most {limit} are allowed")]
    ValueTooLarge {
        path: String,
        bytes: usize,
        limit: usize,
    },
    /// One string is too long.
    #[error("the text for {path} is {chars} characters long; at most {limit} are allowed")]
    StringTooLong {
        path: String,
        chars: usize,
        limit: usize,
    },
    /// The result breaks the JSON Resume schema.
    #[error("the result would not be a valid resume: {}", list(.0))]
    Schema(Vec<redline_resume::SchemaViolation>),
}

/// The size of `value` as compact JSON, near enough for a limit (escapes counted as one byte), without
/// writing it out.
fn json_size(value: &Value) -> usize {
    let mut size = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        size += match v {
            Value::Null => 4,
            Value::Bool(b) => 4 + usize::from(!b),
            Value::Number(n) => n.to_string().len(),
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => {
                stack.extend(map.values());
                2 + map.len().saturating_sub(1) + map.keys().map(|k| k.len() + 3).sum::<usize>()
            }
        };
    }
    size
}

fn list(violations: &[redline_resume::SchemaViolation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

impl Policy {
    /// Checks a pointer an operation writes to, as soon as it is known (before its value arrives).
    pub fn check_write(&self, path: &str) -> Result<(), PolicyError> {
        for protected in &self.protected {
            // Writing at or below a protected pointer changes it; so does writing any of its ancestors.
            if is_within(path, protected) || is_within(protected, path) {
                return Err(PolicyError::Protected {
                    path: if path.is_empty() {
                        "the whole resume".to_owned()
                    } else {
                        path.to_owned()
                    },
                    protected: protected.clone(),
                });
            }
        }
        Ok(())
    }

    /// Checks one complete operation against the protected paths, the limits and the scope.
    pub fn check_operation(&self, op: &Operation, scope: &Scope) -> Result<Admission, PolicyError> {
        let writes: &[&str] = match op {
            Operation::Test { .. } => &[],
            Operation::Copy { path, .. } => &[path],
            Operation::Move { from, path } => &[from, path],
            _ => &[op.path()],
        };
        for path in writes {
            self.check_write(path)?;
        }
        if let Some(value) = op.value() {
            self.check_value(op.path(), value)?;
        }
        match writes.iter().find(|path| !scope.contains(path)) {
            Some(path) => Ok(Admission::NeedsConfirmation {
                path: (*path).to_owned(),
            }),
            None => Ok(Admission::Allowed),
        }
    }

    /// Checks the size of a value and of every string in it.
    pub fn check_value(&self, path: &str, value: &Value) -> Result<(), PolicyError> {
        let bytes = json_size(value);
        if bytes > self.max_value_bytes {
            return Err(PolicyError::ValueTooLarge {
                path: path.to_owned(),
                bytes,
                limit: self.max_value_bytes,
            });
        }
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => self.check_string(path, s)?,
                Value::Array(items) => stack.extend(items),
                Value::Object(map) => stack.extend(map.values()),
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks the length of one string (also while it is still growing).
    pub fn check_string(&self, path: &str, s: &str) -> Result<(), PolicyError> {
        // Bytes bound characters from above: count characters only when the bytes say it may matter.
        if s.len() > self.max_string_chars {
            let chars = s.chars().count();
            if chars > self.max_string_chars {
                return Err(PolicyError::StringTooLong {
                    path: path.to_owned(),
                    chars,
                    limit: self.max_string_chars,
                });
            }
        }
        Ok(())
    }

    /// Checks a complete value against the schema's rules for the place it goes, before it is shown.
    pub fn check_schema_at(&self, path: &str, value: &Value) -> Result<(), PolicyError> {
        redline_resume::validate_at(path, value).map_err(PolicyError::Schema)
    }

    /// Checks a value that has just started (see `redline_resume::validate_start_at`), before its first preview.
    pub fn check_schema_start(&self, path: &str, partial: &Value) -> Result<(), PolicyError> {
        redline_resume::validate_start_at(path, partial).map_err(PolicyError::Schema)
    }

    /// Checks a whole bundle at commit: its size, and that the result is a valid resume.
    pub fn check_bundle(&self, result: &Value, ops: &[Operation]) -> Result<(), PolicyError> {
        if ops.len() > self.max_operations {
            return Err(PolicyError::TooManyOperations {
                count: ops.len(),
                limit: self.max_operations,
            });
        }
        redline_resume::validate(result).map_err(PolicyError::Schema)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn protected_paths_are_refused_by_name() {
        let policy = Policy::default();
        let err = policy
            .check_operation(
                &Operation::Replace {
                    path: "/meta/version".into(),
                    value: json!("v2"),
                },
                &Scope::Anywhere,
            )
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the edit would change /meta/version, which is protected (/meta is never edited)"
        );
        // Replacing the whole resume would change /meta too; moving /meta away removes it.
        assert!(policy.check_write("").is_err());
        assert!(
            policy
                .check_operation(
                    &Operation::Move {
                        from: "/meta".into(),
                        path: "/x".into()
                    },
                    &Scope::Anywhere
                )
                .is_err()
        );
        // Reading it is fine.
        assert!(
            policy
                .check_operation(
                    &Operation::Copy {
                        from: "/meta/version".into(),
                        path: "/basics/label".into()
                    },
                    &Scope::Anywhere
                )
                .is_ok()
        );
        assert!(policy.check_write("/metadata").is_ok());
    }

    #[test]
    fn edits_outside_the_scope_need_confirmation() {
        let scope = Scope::Targets(vec!["/skills".into(), "/work/0".into()]);
        let policy = Policy::default();
        let inside = Operation::Add {
            path: "/skills/0/keywords/-".into(),
            value: json!("Python"),
        };
        let outside = Operation::Replace {
            path: "/work/1/summary".into(),
            value: json!("x"),
        };
        assert_eq!(
            policy.check_operation(&inside, &scope),
            Ok(Admission::Allowed)
        );
        assert_eq!(
            policy.check_operation(&outside, &scope),
            Ok(Admission::NeedsConfirmation {
                path: "/work/1/summary".into()
            })
        );
    }

    #[test]
    fn limits_have_their_own_errors() {
        let policy = Policy {
            max_value_bytes: 40,
            max_string_chars: 5,
            max_operations: 1,
            ..Policy::default()
        };
        let long = Operation::Add {
            path: "/basics/summary".into(),
            value: json!("toolong"),
        };
        assert!(matches!(
            policy.check_operation(&long, &Scope::Anywhere),
            Err(PolicyError::StringTooLong { chars: 7, .. })
        ));
        let big = Operation::Add {
            path: "/skills/-".into(),
            value: json!({"keywords": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}),
        };
        assert!(matches!(
            policy.check_operation(&big, &Scope::Anywhere),
            Err(PolicyError::ValueTooLarge { .. })
        ));
        let two = [long.clone(), long];
        assert!(matches!(
            policy.check_bundle(&json!({}), &two),
            Err(PolicyError::TooManyOperations { count: 2, limit: 1 })
        ));
    }

    #[test]
    fn a_result_that_breaks_the_schema_is_refused_with_its_pointer() {
        let err = Policy::default()
            .check_bundle(&json!({"work": [{"highlights": "one"}]}), &[])
            .unwrap_err();
        assert!(err.to_string().contains("/work/0/highlights"), "{err}");
    }
}
