//! What an edit may do: checked before anything reaches the UI, and again at commit.

use serde_json::Value;

use crate::Operation;
use crate::pointer::is_within;

/// The rules edits must keep. Every limit holds while the model's answer streams, operation by
/// operation, not only once it has ended; the crate README gives each number and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Pointers nothing may change (default `/meta`), nor anything below them.
    pub protected: Vec<String>,
    /// Pointers below a protected one that an edit may write all the same, when what it writes passes their
    /// own check (default the design, `/meta/design`: a colour is a colour, a size stays readable).
    pub open: Vec<String>,
    /// Pointers a model's edit may change only with the user's confirmation, whatever the planner's
    /// targets (default: the identity and contact fields of `basics`).
    pub confirm: Vec<String>,
    /// The most operations in one bundle.
    pub max_operations: usize,
    /// The most operations one bundle may hold for confirmation.
    pub max_held: usize,
    /// The largest value one operation may carry, in bytes of JSON.
    pub max_value_bytes: usize,
    /// The longest string one operation may carry, in characters.
    pub max_string_chars: usize,
    /// The longest pointer an operation may write at, in characters (a key in a pointer is not a string
    /// the limit above sees; every message about the edit quotes the pointer).
    pub max_path_chars: usize,
    /// The largest document after any operation, in bytes of compact JSON.
    pub max_document_bytes: usize,
    /// The deepest a document may nest after any operation (see [`redline_resume::MAX_DEPTH`]).
    pub max_depth: usize,
    /// The longest answer the patch model may stream for one bundle, in bytes.
    pub max_answer_bytes: usize,
    /// The links a model's edit may write without the user's confirmation: those the resume has and the
    /// user wrote ([`links_in`]; the turn fills it). Any other link a model adds or changes — in a `url`
    /// field, or in a value that holds one — waits for the user, like a contact field: a job posting in the
    /// context can ask the model to slip one in.
    pub known_links: Vec<String>,
}

/// The identity and contact fields: who the resume is about and how to reach them.
pub const IDENTITY: &[&str] = &[
    "/basics/name",
    "/basics/email",
    "/basics/phone",
    "/basics/url",
    "/basics/location",
    "/basics/profiles",
    // The person's photo: chosen by the person, never by a model (nor by a posting that asks one).
    "/basics/image",
];

/// Every string under a `url` key in `value`, at any depth (a new work entry, a profile).
fn url_fields(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(o) => {
            for (key, v) in o {
                match v.as_str() {
                    Some(url) if key == "url" => out.push(url.to_owned()),
                    _ => url_fields(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| url_fields(v, out)),
        _ => {}
    }
}

/// A link as it is compared: without surrounding space or punctuation, a trailing slash or case.
fn same_link(url: &str) -> String {
    url.trim()
        .trim_matches(|c: char| matches!(c, '<' | '>' | '(' | ')' | '"' | '\'' | ',' | '.'))
        .trim_end_matches('/')
        .to_lowercase()
}

/// The links in `value`: every `url` field, and every word of its text that looks like an address
/// (`https://…`, `http://…`, `www.…`). For [`Policy::known_links`]: the links of the resume and of the
/// user's own messages.
pub fn links_in(value: &Value) -> Vec<String> {
    let mut links = Vec::new();
    url_fields(value, &mut links);
    let mut text = Vec::new();
    strings(value, &mut text);
    for s in text {
        links.extend(
            s.split_whitespace()
                .filter(|w| w.contains("://") || w.to_ascii_lowercase().starts_with("www."))
                .map(str::to_owned),
        );
    }
    links
}

fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// The sections whose whole entries are never removed without the user's confirmation.
const ENTRY_SECTIONS: &[&str] = &["/work", "/education"];

impl Default for Policy {
    fn default() -> Self {
        Policy {
            protected: vec!["/meta".to_owned()],
            open: vec![redline_resume::design::POINTER.to_owned()],
            confirm: IDENTITY.iter().map(|p| (*p).to_owned()).collect(),
            max_operations: 100,
            max_held: 20,
            max_value_bytes: 64 * 1024,
            max_string_chars: 8_000,
            max_path_chars: 1_024,
            max_document_bytes: redline_resume::MAX_DOCUMENT_BYTES,
            max_depth: redline_resume::MAX_DEPTH,
            max_answer_bytes: 4 << 20,
            known_links: Vec::new(),
        }
    }
}

/// Where a bundle was meant to act: the pointer prefixes the planner named. A model's edit outside all of
/// them is held for the user's confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The user's own edit (by hand, or a held edit they confirmed): nothing is held.
    User,
    /// A model's edit whose planner named no targets: only the fields that always need confirmation are held.
    Anywhere,
    /// A model's edit: only below these pointers.
    Targets(Vec<String>),
}

impl Scope {
    /// True when an edit at `path` is inside the scope.
    pub fn contains(&self, path: &str) -> bool {
        match self {
            Scope::User | Scope::Anywhere => true,
            Scope::Targets(targets) => targets.iter().any(|t| is_within(path, t)),
        }
    }
}

/// What the policy says about an allowed operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// It may be applied.
    Allowed,
    /// It is outside the scope, or changes who the resume is about: apply it only if the user confirms.
    NeedsConfirmation {
        /// The path that needs confirmation.
        path: String,
        /// Why it waits.
        why: Hold,
    },
}

/// Why a model's edit waits for the user's confirmation, told to the user beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum Hold {
    /// It writes outside the places the planner named for the ask.
    Outside,
    /// It changes who the resume is about (the fields that always need confirmation).
    AboutYou,
    /// It removes a whole entry: a job, a degree, a section.
    RemovesEntry,
    /// It brings a link that is neither in the resume nor in what the user wrote.
    NewLink,
    /// A letter's edit claims a fact (a number, a name, a title, a date) found neither in the resume it
    /// belongs to nor in the job posting.
    NotInResume,
    /// Another device changed the same field while this one did (sync): not guessed, the user picks.
    OtherDevice,
}

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// The edit names a place by a pointer too long to be one (quoted by its start).
    #[error(
        "the edit names a place {chars} characters long (“{start}…”); at most {limit} are allowed"
    )]
    PathTooLong {
        start: String,
        chars: usize,
        limit: usize,
    },
    /// The edit would change a protected part of the resume.
    #[error("the edit would change {path}, which is protected ({protected} is never edited)")]
    Protected { path: String, protected: String },
    /// Too many operations in one bundle.
    #[error("the edit has {count} operations; at most {limit} are allowed in one change")]
    TooManyOperations { count: usize, limit: usize },
    /// Too many operations held for confirmation in one bundle.
    #[error(
        "the model proposed more than {limit} edits outside what was asked; none of them was applied"
    )]
    TooManyHeld { limit: usize },
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
    /// The document would grow too large.
    #[error(
        "the edit at {path} would make the resume {bytes} bytes long; at most {limit} are allowed"
    )]
    DocumentTooLarge {
        path: String,
        bytes: usize,
        limit: usize,
    },
    /// The document would nest too deeply to be stored and read back.
    #[error(
        "the edit at {path} would nest the resume {depth} levels deep; at most {limit} are allowed"
    )]
    TooDeep {
        path: String,
        depth: usize,
        limit: usize,
    },
    /// A `copy` or `move` into its own source (which would double a part of the resume, or lose it).
    #[error("the edit would {verb} {from} into itself (to {path})")]
    IntoItself {
        verb: &'static str,
        from: String,
        path: String,
    },
    /// The design options the edit writes are not ones a resume can be shown in (the reason is the design's
    /// own sentence, `redline_resume::design::DesignError`).
    #[error("the edit at {path} was refused: {reason}")]
    Design { path: String, reason: String },
    /// The result breaks the JSON Resume schema.
    #[error("the result would not be a valid resume: {}", list(.0))]
    Schema(Vec<redline_resume::SchemaViolation>),
    /// The result breaks the cover letter's schema.
    #[error("the result would not be a valid letter: {}", list(.0))]
    LetterSchema(Vec<redline_resume::SchemaViolation>),
}

fn list(violations: &[redline_resume::SchemaViolation]) -> String {
    redline_resume::listed(violations).join("; ")
}

/// How many containers a pointer's value sits in (`/work/0/name` sits in three).
fn depth_of(path: &str) -> usize {
    path.bytes().filter(|&b| b == b'/').count()
}

impl Policy {
    /// Checks a pointer an operation writes to, as soon as it is known (before its value arrives).
    pub fn check_write(&self, path: &str) -> Result<(), PolicyError> {
        if path.len() > self.max_path_chars {
            let chars = path.chars().count();
            if chars > self.max_path_chars {
                return Err(PolicyError::PathTooLong {
                    start: path.chars().take(40).collect(),
                    chars,
                    limit: self.max_path_chars,
                });
            }
        }
        // An open pointer below a protected one (the design under /meta) is written whole or in part; its
        // value is checked apart (`check_design`).
        if self.open.iter().any(|open| is_within(path, open)) {
            return Ok(());
        }
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

    /// True when a model's write at `path` needs the user's confirmation whatever the planner said: it
    /// changes an identity or contact field (or a part holding one).
    pub fn always_confirm(&self, path: &str) -> bool {
        self.confirm
            .iter()
            .any(|c| is_within(path, c) || is_within(c, path))
    }

    /// True when a write at `path` waits for the user's confirmation: a model's edit outside the scope, or of
    /// who the resume is about. A person's own edit never waits.
    pub fn holds(&self, path: &str, scope: &Scope) -> bool {
        *scope != Scope::User && (!scope.contains(path) || self.always_confirm(path))
    }

    /// True when `op` writes a link that is not one of [`Policy::known_links`].
    fn adds_a_link(&self, op: &Operation) -> bool {
        let Some(value) = op.value() else {
            return false;
        };
        let mut written = Vec::new();
        if op.path().rsplit('/').next() == Some("url") {
            if let Some(url) = value.as_str() {
                written.push(url.to_owned());
            }
        } else {
            url_fields(value, &mut written);
        }
        written
            .iter()
            .map(|url| same_link(url))
            .filter(|url| !url.is_empty())
            .any(|url| !self.known_links.iter().any(|k| same_link(k) == url))
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
        if let Operation::Copy { from, path } | Operation::Move { from, path } = op
            && is_within(path, from)
            && path != from
        {
            return Err(PolicyError::IntoItself {
                verb: op.verb(),
                from: from.clone(),
                path: path.clone(),
            });
        }
        if let Some(value) = op.value() {
            self.check_value(op.path(), value)?;
            self.check_design_part(op.path(), value)?;
            let depth = depth_of(op.path()) + redline_resume::measure(value).depth;
            if depth > self.max_depth {
                return Err(PolicyError::TooDeep {
                    path: op.path().to_owned(),
                    depth,
                    limit: self.max_depth,
                });
            }
        }
        Ok(match self.why_held(op, writes, scope) {
            Some((path, why)) => Admission::NeedsConfirmation { path, why },
            None => Admission::Allowed,
        })
    }

    /// The first of `writes` (the places `op` writes) that waits for the user's confirmation, and why.
    fn why_held(&self, op: &Operation, writes: &[&str], scope: &Scope) -> Option<(String, Hold)> {
        if *scope == Scope::User {
            return None;
        }
        let held = |path: &str, why| Some((path.to_owned(), why));
        if let Some(path) = writes.iter().find(|path| !scope.contains(path)) {
            return held(path, Hold::Outside);
        }
        if let Some(path) = writes.iter().find(|path| self.always_confirm(path)) {
            return held(path, Hold::AboutYou);
        }
        if removes_entry(op) {
            return held(op.path(), Hold::RemovesEntry);
        }
        if self.adds_a_link(op) {
            return held(op.path(), Hold::NewLink);
        }
        None
    }

    /// Checks the size of a value and of every string in it.
    pub fn check_value(&self, path: &str, value: &Value) -> Result<(), PolicyError> {
        let bytes = redline_resume::measure(value).bytes;
        if bytes > self.max_value_bytes {
            return Err(PolicyError::ValueTooLarge {
                path: path.to_owned(),
                bytes,
                limit: self.max_value_bytes,
            });
        }
        self.check_strings(path, value)
    }

    /// Checks the length of every string in a value (keys included).
    pub fn check_strings(&self, path: &str, value: &Value) -> Result<(), PolicyError> {
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => self.check_string(path, s)?,
                Value::Array(items) => stack.extend(items),
                Value::Object(map) => {
                    for (key, item) in map {
                        self.check_string(path, key)?;
                        stack.push(item);
                    }
                }
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

    /// Checks what a document measures after an operation at `path`: its size and depth.
    pub fn check_document(
        &self,
        path: &str,
        measure: redline_resume::Measure,
    ) -> Result<(), PolicyError> {
        if measure.bytes > self.max_document_bytes {
            return Err(PolicyError::DocumentTooLarge {
                path: path.to_owned(),
                bytes: measure.bytes,
                limit: self.max_document_bytes,
            });
        }
        if measure.depth > self.max_depth {
            return Err(PolicyError::TooDeep {
                path: path.to_owned(),
                depth: measure.depth,
                limit: self.max_depth,
            });
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

    /// Checks a whole bundle at commit: its size, the document's size and depth, and that the result is a
    /// valid resume.
    pub fn check_bundle(&self, result: &Value, ops: &[Operation]) -> Result<(), PolicyError> {
        if ops.len() > self.max_operations {
            return Err(PolicyError::TooManyOperations {
                count: ops.len(),
                limit: self.max_operations,
            });
        }
        self.check_document("", redline_resume::measure(result))
            .map_err(|e| match e {
                PolicyError::DocumentTooLarge { bytes, limit, .. } => {
                    PolicyError::DocumentTooLarge {
                        path: "the resume".to_owned(),
                        bytes,
                        limit,
                    }
                }
                PolicyError::TooDeep { depth, limit, .. } => PolicyError::TooDeep {
                    path: "the resume".to_owned(),
                    depth,
                    limit,
                },
                other => other,
            })?;
        redline_resume::validate(result).map_err(PolicyError::Schema)?;
        self.check_design(result)
    }

    /// Checks a whole cover letter: the document's size and depth, and that it is a valid letter.
    pub fn check_letter(&self, result: &Value) -> Result<(), PolicyError> {
        self.check_document("the letter", redline_resume::measure(result))?;
        redline_resume::letter::validate(result).map_err(PolicyError::LetterSchema)
    }

    /// Checks the design a whole resume keeps, if any, against its bounds.
    pub fn check_design(&self, result: &Value) -> Result<(), PolicyError> {
        let pointer = redline_resume::design::POINTER;
        match result.pointer(pointer) {
            Some(design) if self.open.iter().any(|o| o == pointer) => {
                redline_resume::design::Design::read(design)
                    .map(drop)
                    .map_err(|e| PolicyError::Design {
                        path: pointer.to_owned(),
                        reason: e.to_string(),
                    })
            }
            _ => Ok(()),
        }
    }

    /// Checks a value written at or one level below the design, as soon as it is complete: the whole design,
    /// or one option of it. (Deeper writes, into the section lists, are checked with the whole resume.)
    fn check_design_part(&self, path: &str, value: &Value) -> Result<(), PolicyError> {
        let pointer = redline_resume::design::POINTER;
        if !self.open.iter().any(|o| o == pointer) || !is_within(path, pointer) {
            return Ok(());
        }
        let design = match path[pointer.len()..].strip_prefix('/') {
            None => value.clone(),
            Some(key) if !key.contains('/') => serde_json::json!({ key: value }),
            Some(_) => return Ok(()),
        };
        redline_resume::design::Design::read(&design)
            .map(drop)
            .map_err(|e| PolicyError::Design {
                path: path.to_owned(),
                reason: e.to_string(),
            })
    }
}

/// True when `op` takes a whole work or education entry (or the whole section) out of the resume.
fn removes_entry(op: &Operation) -> bool {
    let whole = |path: &str| {
        ENTRY_SECTIONS.iter().any(|section| {
            path == *section
                || path
                    .strip_prefix(section)
                    .and_then(|rest| rest.strip_prefix('/'))
                    .is_some_and(|index| !index.contains('/'))
        })
    };
    match op {
        Operation::Remove { path } => whole(path),
        Operation::Replace { path, .. } => ENTRY_SECTIONS.contains(&path.as_str()),
        // Moving an entry out of its section takes it away from there.
        Operation::Move { from, path } => {
            whole(from)
                && !ENTRY_SECTIONS
                    .iter()
                    .any(|s| is_within(path, s) && is_within(from, s))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_design_under_meta_may_be_written_within_its_bounds() {
        let policy = Policy::default();
        let write = |path: &str, value: Value| {
            policy.check_operation(
                &Operation::Replace {
                    path: path.into(),
                    value,
                },
                &Scope::Anywhere,
            )
        };
        assert_eq!(
            write("/meta/design/accent", json!("#003366")),
            Ok(Admission::Allowed)
        );
        assert_eq!(
            write("/meta/design", json!({"template": "elegant", "size": 11})),
            Ok(Admission::Allowed)
        );
        let refused = write("/meta/design/size", json!(40))
            .unwrap_err()
            .to_string();
        assert_eq!(
            refused,
            "the edit at /meta/design/size was refused: the text size (pt) 40 is outside what stays readable (9 to 12)"
        );
        let refused = write("/meta/design", json!({"accent": "yellow"}))
            .unwrap_err()
            .to_string();
        assert!(refused.contains("\"yellow\" is not a colour"), "{refused}");
        // The rest of /meta stays protected, and so does /meta as a whole.
        assert!(matches!(
            write("/meta/version", json!("v2")),
            Err(PolicyError::Protected { .. })
        ));
        assert!(matches!(
            write("/meta", json!({"design": {}})),
            Err(PolicyError::Protected { .. })
        ));
        // A deeper write is checked with the whole resume at commit.
        let mut resume = redline_resume::sample();
        resume["meta"]["design"] = json!({"sections": {"hide": ["hobbies"]}});
        let op = Operation::Add {
            path: "/meta/design/sections/hide/0".into(),
            value: json!("hobbies"),
        };
        assert_eq!(
            policy.check_operation(&op, &Scope::User),
            Ok(Admission::Allowed)
        );
        let refused = policy.check_bundle(&resume, &[op]).unwrap_err().to_string();
        assert!(
            refused.contains("\"hobbies\" is not a section"),
            "{refused}"
        );
        resume["meta"]["design"] = json!({"sections": {"hide": ["work"]}, "font": "carlito"});
        assert_eq!(policy.check_bundle(&resume, &[]), Ok(()));
    }

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

    /// A link a model adds or changes waits for the user unless the resume or the user's own words have
    /// it: in a `url` field, or inside a new entry. A person's own edit never waits.
    #[test]
    fn a_link_the_model_brings_waits_for_the_user() {
        let resume = json!({"basics": {"name": "R", "summary": "See www.piedpiper.example."},
            "work": [{"name": "Pied Piper", "url": "https://piedpiper.example/"}]});
        let mut known_links = links_in(&resume);
        known_links.extend(links_in(&json!("my site is https://rh.example/blog")));
        let policy = Policy {
            known_links,
            ..Policy::default()
        };
        let scope = Scope::Targets(vec!["/work".into(), "/projects".into()]);
        let write = |path: &str, value: Value| Operation::Add {
            path: path.into(),
            value,
        };
        let held = |op: &Operation, scope: &Scope| {
            matches!(
                policy.check_operation(op, scope).unwrap(),
                Admission::NeedsConfirmation {
                    why: Hold::NewLink,
                    ..
                }
            )
        };
        for op in [
            write("/work/0/url", json!("https://evil.example/phish")),
            write(
                "/projects/-",
                json!({"name": "X", "url": "http://evil.example"}),
            ),
            write(
                "/work/-",
                json!({"name": "Y", "highlights": [], "url": "javascript:alert(1)"}),
            ),
        ] {
            assert!(held(&op, &scope), "{op:?}");
            assert!(!held(&op, &Scope::User), "a person's own edit: {op:?}");
        }
        for op in [
            write("/work/0/url", json!("https://PiedPiper.example")),
            write(
                "/projects/-",
                json!({"name": "Blog", "url": "https://rh.example/blog/"}),
            ),
            write(
                "/work/0/name",
                json!("https://evil.example is only text here"),
            ),
            write("/projects/-", json!({"name": "No link"})),
        ] {
            assert!(!held(&op, &scope), "{op:?}");
        }
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
                path: "/work/1/summary".into(),
                why: Hold::Outside,
            })
        );
    }

    /// Each held edit says why it waits, for the chat's card; outside the ask comes first.
    #[test]
    fn a_held_edit_says_why_it_waits() {
        let policy = Policy::default();
        let scope = Scope::Targets(vec!["/work".into(), "/basics".into()]);
        let why = |op: Operation| match policy.check_operation(&op, &scope) {
            Ok(Admission::NeedsConfirmation { why, .. }) => Some(why),
            _ => None,
        };
        let replace = |path: &str, value: Value| Operation::Replace {
            path: path.into(),
            value,
        };
        assert_eq!(
            why(replace("/skills/0/name", json!("Rust"))),
            Some(Hold::Outside)
        );
        assert_eq!(
            why(replace("/basics/name", json!("Someone Else"))),
            Some(Hold::AboutYou)
        );
        assert_eq!(
            why(Operation::Remove {
                path: "/work/1".into()
            }),
            Some(Hold::RemovesEntry)
        );
        assert_eq!(
            why(replace("/work/0/url", json!("https://evil.example"))),
            Some(Hold::NewLink)
        );
        assert_eq!(why(replace("/work/0/summary", json!("Shipped."))), None);
        // Outside the ask and a new link at once: the first reason is the one said.
        assert_eq!(
            why(replace("/projects/0/url", json!("https://evil.example"))),
            Some(Hold::Outside)
        );
    }

    #[test]
    fn a_pointer_too_long_to_be_one_is_refused_and_quoted_by_its_start() {
        // A key of 100,000 characters under /basics (which takes any key) was written; under /meta the
        // refusal quoted it whole: a chat line of 100 KB, sent back to the model.
        let policy = Policy::default();
        for path in [
            format!("/basics/{}", "b".repeat(100_000)),
            format!("/meta/{}", "a".repeat(100_000)),
        ] {
            let err = policy.check_write(&path).unwrap_err();
            assert!(matches!(err, PolicyError::PathTooLong { chars, .. } if chars == path.len()));
            assert!(err.to_string().len() < 200, "{err}");
        }
        assert_eq!(
            policy.check_write(&format!("/basics/{}", "é".repeat(1_000))),
            Ok(())
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
