//! JSON Resume documents: what Redline edits.
//!
//! Redline stores and edits resumes in the [JSON Resume](https://jsonresume.org) format, version 1.x. This
//! crate owns what is specific to that format and knows nothing of storage, models or the desktop shell.
//!
//! # Layout
//! - [`sample`]: the sample resume bundled in `assets/`, which every new installation starts from, so the
//!   window is never empty.
//! - [`SCHEMA`]: the JSON Resume schema (draft-07) bundled in `assets/`, for validation.
//! - [`sections`]: the top-level sections of a resume, in the order a reader expects them.
//! - [`validate`]: checks a document against the schema, listing each problem by JSON Pointer and rule.
//! - [`shape`]: the schema in a few hundred words, for a model's prompt (the schema itself is thousands of
//!   tokens, more than a small local model's context can spare).
//! - [`MAX_DEPTH`], [`MAX_DOCUMENT_BYTES`] and [`measure`]: how deep and how large a resume may be, the same
//!   numbers for the edit policy, the stream reader and the store.
//!
//! - [`design`]: how the resume looks, kept in it at `/meta/design`: the design, its options and their bounds.
//! - [`letter`]: cover letters: their own schema, their outline (the sender read from the resume) and
//!   their text, Markdown and HTML exports.
//! - [`coverage`]: which terms of a job description a resume has, computed locally.
//! - [`place`]: where a JSON Pointer is, in a person's words (“the summary of your job at Pied Piper”).
//! - [`posting`]: the role and the company a job posting names, from its own words.
//! - [`resources`]: the files installed beside the programs (fonts, dictionaries, the grammar checker),
//!   found the same way by each program.
//! - [`photo`]: the person's photo, kept in the resume as a `data:` URL and bounded before it is drawn.
//! - [`outline`]: the resume as a reader meets it (header, sections, entries), which every export renders.
//! - [`words`]: a resume's words (headings, months, “present”, direction) in its own language, `meta.language`.
//! - [`export`]: HTML (self-contained, per template, print CSS), Markdown, plain text and JSON Resume;
//!   [`docx`]: Word.
//! - [`unseen`]: the characters that act on how text is shown without being seen (controls, direction
//!   overrides, invisible characters), kept out of what Redline writes for a person to read.
//!   PDF is made from the same outline by `redline-pdf` (Typst).

#![forbid(unsafe_code)]

pub mod choices;
pub mod coverage;
pub mod design;
pub mod docx;
pub mod export;
pub mod letter;
pub mod outline;
pub mod photo;
pub mod place;
pub mod posting;
pub mod resources;
pub mod unseen;
pub mod words;

use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// The JSON Resume sample (`assets/sample.resume.json`, MIT, from the jsonresume project).
pub const SAMPLE: &str = include_str!("../../../assets/sample.resume.json");

/// The JSON Resume schema 1.x (`assets/resume.schema.json`, MIT, from the jsonresume project).
pub const SCHEMA: &str = include_str!("../../../assets/resume.schema.json");

/// How many levels of objects and arrays a resume may nest (the sample needs 4). The store reads documents
/// and patches with serde_json, which refuses more than 128 levels; a stored patch wraps a value in two more
/// (`[{"value": …}]`), so 64 keeps every revision readable with room to spare, and no resume needs more.
pub const MAX_DEPTH: usize = 64;

/// The largest resume, in bytes of compact JSON (the sample is about 7 KB; a long career with every section
/// filled is under 100 KB). Bounds what a model's edits can grow a document to, operation by operation.
pub const MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// A value's size and depth, measured without writing it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measure {
    /// Bytes of compact JSON, near enough for a limit (an escape counts as one byte).
    pub bytes: usize,
    /// Levels of objects and arrays: a scalar is 0, `[]` is 1, `{"a": [1]}` is 2.
    pub depth: usize,
}

/// Measures `value` with an explicit stack, so no input, however deep, can overflow the call stack.
pub fn measure(value: &Value) -> Measure {
    let mut m = Measure::default();
    let mut stack = vec![(value, 0usize)];
    while let Some((v, level)) = stack.pop() {
        m.bytes += match v {
            Value::Null => 4,
            Value::Bool(b) => 4 + usize::from(!b),
            Value::Number(n) => n.to_string().len(),
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                m.depth = m.depth.max(level + 1);
                stack.extend(items.iter().map(|item| (item, level + 1)));
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => {
                m.depth = m.depth.max(level + 1);
                stack.extend(map.values().map(|item| (item, level + 1)));
                2 + map.len().saturating_sub(1) + map.keys().map(|k| k.len() + 3).sum::<usize>()
            }
        };
    }
    m
}

/// The sample resume as a JSON value.
pub fn sample() -> Value {
    serde_json::from_str(SAMPLE).expect("the bundled sample resume is valid JSON")
}

/// The resume a new installation starts from, with the title it is listed under.
pub fn first_resume() -> (String, Value) {
    let sample = sample();
    (title_of(&sample), sample)
}

/// The first `keep` characters of `text`, and "…" when it was longer: how a long value is quoted to a person.
pub fn shorten(text: &str, keep: usize) -> String {
    match text.char_indices().nth(keep) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The longest title a resume is listed under, in characters (longer ones are cut): it is the window's
/// title, a line of the documents list and of the toolbar, and a name or label may be 8,000 characters.
pub const MAX_TITLE_CHARS: usize = 200;

/// The title a resume is listed under: the person's name and label, or a neutral fallback; at most
/// [`MAX_TITLE_CHARS`].
pub fn title_of(resume: &Value) -> String {
    let basics = &resume["basics"];
    let name = basics["name"].as_str().map(str::trim).unwrap_or("");
    let label = basics["label"].as_str().map(str::trim).unwrap_or("");
    let title = match (name.is_empty(), label.is_empty()) {
        (false, false) => format!("{name} — {label}"),
        (false, true) => name.to_owned(),
        (true, false) => label.to_owned(),
        (true, true) => "Untitled resume".to_owned(),
    };
    fit_title(&title)
}

/// `title` as a resume may be listed under it: at most [`MAX_TITLE_CHARS`] characters, the ellipsis of a
/// cut one counted in. The store applies it to every title it writes.
pub fn fit_title(title: &str) -> String {
    if title.chars().count() <= MAX_TITLE_CHARS {
        title.to_owned()
    } else {
        shorten(title, MAX_TITLE_CHARS - 1)
    }
}

/// The top-level sections of a JSON Resume, in the order the resume view shows them: `basics`, then the
/// sections the exports head ([`words::SECTIONS`]).
pub fn sections() -> &'static [&'static str] {
    const ALL: [&str; 12] = {
        let mut all = ["basics"; 12];
        let mut i = 0;
        while i < words::SECTIONS.len() {
            all[i + 1] = words::SECTIONS[i];
            i += 1;
        }
        all
    };
    &ALL
}

/// The JSON Resume schema as a model needs it: every field, nested as in the document, one line per section,
/// derived from [`SCHEMA`] once. Text fields are bare names; lists are `[…]`, objects `{…}`; dates say so.
/// About a fifth of the schema's size, and nearly free of quotes (which some servers' prompt templates
/// escape as HTML entities, three tokens each).
///
/// ```
/// let shape = redline_resume::shape();
/// assert!(shape.contains("work: [{name, location, description, position, url, startDate: date, endDate: date, summary, highlights: [text]}]"));
/// ```
pub fn shape() -> &'static str {
    static SHAPE: OnceLock<String> = OnceLock::new();
    SHAPE.get_or_init(|| {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap_or(Value::Null);
        let mut lines = vec![
            "Every field is text unless shown otherwise; date: YYYY-MM-DD, YYYY-MM or YYYY; a field may be left out."
                .to_owned(),
        ];
        if let Some(properties) = schema["properties"].as_object() {
            for (name, field) in properties.iter().filter(|(name, _)| !name.starts_with('$')) {
                lines.push(format!("{name}: {}", shape_of(field, 0)));
            }
        }
        lines.join("\n")
    })
}

/// One schema node in the notation of [`shape`].
fn shape_of(node: &Value, depth: usize) -> String {
    if node.get("$ref").is_some() {
        return "date".to_owned();
    }
    match node["type"].as_str() {
        _ if depth > MAX_DEPTH => "…".to_owned(),
        Some("array") => match node["items"]["type"].as_str() {
            Some("string") => "[text]".to_owned(),
            _ => format!("[{}]", shape_of(&node["items"], depth + 1)),
        },
        Some("object") => {
            let fields: Vec<String> = node["properties"]
                .as_object()
                .map(|properties| {
                    properties
                        .iter()
                        .map(|(name, field)| match shape_of(field, depth + 1).as_str() {
                            "text" => name.clone(),
                            other => format!("{name}: {other}"),
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("{{{}}}", fields.join(", "))
        }
        Some("number" | "integer") => "number".to_owned(),
        Some("boolean") => "true/false".to_owned(),
        _ => "text".to_owned(),
    }
}

/// The largest file [`read_file`] takes, in bytes: four times the largest resume, room for pretty-printing.
pub const MAX_FILE_BYTES: u64 = 4 * MAX_DOCUMENT_BYTES as u64;

/// Why a file is not a resume Redline can import; nothing is imported.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read {0}: {1}")]
    Unreadable(String, std::io::Error),
    #[error("{0} is larger than {mb} MB, far more than any resume; nothing was imported", mb = MAX_FILE_BYTES >> 20)]
    TooLarge(String),
    #[error("{0} is not valid JSON ({1}); nothing was imported")]
    NotJson(String, serde_json::Error),
    #[error(
        "{0} is not a file (a folder, a pipe or a device); nothing was imported. To read standard input, pass -"
    )]
    NotAFile(String),
    #[error("{0} is not a valid JSON Resume; nothing was imported:\n{list}", list = list(.1))]
    Invalid(String, Vec<SchemaViolation>),
}

impl ReadError {
    /// What kind of failure it is: a file not found, one that could not be read, or one refused.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        use redline_error_kind::ErrorKind;
        match self {
            ReadError::Unreadable(_, io) if io.kind() == std::io::ErrorKind::NotFound => {
                ErrorKind::NotFound
            }
            ReadError::Unreadable(..) => ErrorKind::Internal,
            ReadError::TooLarge(_)
            | ReadError::NotJson(..)
            | ReadError::Invalid(..)
            | ReadError::NotAFile(_) => ErrorKind::Refused,
        }
    }
}

fn list(problems: &[SchemaViolation]) -> String {
    let lines: Vec<String> = listed(problems).iter().map(|p| format!("  {p}")).collect();
    lines.join("\n")
}

/// The most schema problems a message names; the rest are counted. A broken file or a model's hostile
/// value can break the schema thousands of times (a list of 5,000 numbers where jobs go: 5,000 problems,
/// 190 KB of message, shown in the chat, kept in the audit log and sent back to the model).
pub const MAX_LISTED: usize = 10;

/// The longest one problem is written, in characters: the validator quotes the offending value, up to a
/// string of 8,000 characters.
const MAX_PROBLEM_CHARS: usize = 200;

/// `problems` as a person can read them: the first [`MAX_LISTED`], then how many more.
pub fn listed(problems: &[SchemaViolation]) -> Vec<String> {
    let mut lines: Vec<String> = problems
        .iter()
        .take(MAX_LISTED)
        .map(ToString::to_string)
        .collect();
    if problems.len() > MAX_LISTED {
        lines.push(format!("and {} more", problems.len() - MAX_LISTED));
    }
    lines
}

/// A problem in the validator's words, cut to [`MAX_PROBLEM_CHARS`].
fn rule_of(error: &jsonschema::ValidationError) -> String {
    shorten(&error.to_string(), MAX_PROBLEM_CHARS)
}

/// Reads a JSON Resume file for import: at most [`MAX_FILE_BYTES`] (read one byte past the limit rather
/// than trusting the size the file system reports: a pipe has none), JSON, and valid against the schema,
/// each problem named by JSON Pointer.
pub fn read_file(path: &std::path::Path) -> Result<Value, ReadError> {
    let name = path.display().to_string();
    read_from(name.clone(), open_regular(path, &name)?)
}

/// Opens `path` for reading only if it is a regular file. Opened without blocking (a FIFO given as the
/// file to open once held the app's start-up until something wrote to it), then asked what it is: a
/// folder, a pipe, a socket or a device is refused before a byte is read.
pub fn open_regular(path: &std::path::Path, name: &str) -> Result<std::fs::File, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options
        .open(path)
        .map_err(|e| ReadError::Unreadable(name.to_owned(), e))?;
    let meta = file
        .metadata()
        .map_err(|e| ReadError::Unreadable(name.to_owned(), e))?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(name.to_owned()));
    }
    Ok(file)
}

/// [`read_file`] for what `reader` gives (standard input, say), called `name` in the errors.
pub fn read_from(name: String, reader: impl std::io::Read) -> Result<Value, ReadError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Unreadable(name.clone(), e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(name));
    }
    let document: Value =
        serde_json::from_slice(&bytes).map_err(|e| ReadError::NotJson(name.clone(), e))?;
    validate(&document).map_err(|problems| ReadError::Invalid(name, problems))?;
    Ok(document)
}

/// One way a document breaks the JSON Resume schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaViolation {
    /// JSON Pointer of the offending value (`""` for the whole document).
    pub pointer: String,
    /// The rule broken, in the schema validator's words.
    pub rule: String,
}

impl std::fmt::Display for SchemaViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "the resume"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.rule)
    }
}

/// Checks `document` against the JSON Resume schema; every problem is listed.
pub fn validate(document: &Value) -> Result<(), Vec<SchemaViolation>> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        jsonschema::validator_for(schema_value()).expect("the bundled schema compiles")
    });
    let violations: Vec<_> = validator
        .iter_errors(document)
        .map(|e| SchemaViolation {
            pointer: e.instance_path().to_string(),
            rule: rule_of(&e),
        })
        .collect();
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

/// The bundled schema as a value, parsed once.
fn schema_value() -> &'static Value {
    static SCHEMA_VALUE: OnceLock<Value> = OnceLock::new();
    SCHEMA_VALUE
        .get_or_init(|| serde_json::from_str(SCHEMA).expect("the bundled schema is valid JSON"))
}

/// Checks one value against the part of the schema that governs `pointer` (where an edit puts it), so that
/// a wrong value is refused before it is shown. The rules of the whole document (`validate`) still apply at
/// commit. Violations are reported at their place in the document.
///
/// Runs on every operation the model completes: each part of the schema is found and its validator
/// compiled once, and a valid value costs one hash lookup and one `is_valid`.
pub fn validate_at(pointer: &str, value: &Value) -> Result<(), Vec<SchemaViolation>> {
    let part = governing_part(pointer);
    let Some(validator) = part.validator() else {
        return Ok(()); // a place the schema says nothing about (additional properties are allowed)
    };
    if validator.is_valid(value) {
        return Ok(());
    }
    Err(validator
        .iter_errors(value)
        .map(|e| SchemaViolation {
            pointer: format!("{pointer}{}", e.instance_path()),
            rule: rule_of(&e),
        })
        .collect())
}

/// What can be checked of a value that has only started (a string or container still growing, or a
/// complete scalar): a scalar fully, anything else by its JSON type alone.
pub fn validate_start_at(pointer: &str, partial: &Value) -> Result<(), Vec<SchemaViolation>> {
    if !matches!(
        partial,
        Value::String(_) | Value::Array(_) | Value::Object(_)
    ) {
        return validate_at(pointer, partial);
    }
    let expected = governing_part(pointer)
        .schema
        .and_then(|sub| sub.get("type"))
        .and_then(Value::as_str);
    let found = match partial {
        Value::String(_) => "string",
        Value::Array(_) => "array",
        _ => "object",
    };
    match expected {
        Some(expected) if expected != found => Err(vec![SchemaViolation {
            pointer: pointer.to_owned(),
            rule: format!("{found} given where the schema wants {expected}"),
        }]),
        _ => Ok(()),
    }
}

/// The part of the bundled schema that governs one shape of pointer (every array index alike), with its
/// validator, compiled when first needed.
struct Part {
    schema: Option<&'static Value>,
    validator: OnceLock<Option<jsonschema::Validator>>,
}

impl Part {
    fn validator(&self) -> Option<&jsonschema::Validator> {
        let sub = self.schema?;
        self.validator
            .get_or_init(|| {
                // The part on its own, with the definitions its references point into.
                let schema = schema_value();
                let mut standalone = sub.clone();
                if let (Some(object), Some(definitions)) =
                    (standalone.as_object_mut(), schema.get("definitions"))
                {
                    object.insert("definitions".into(), definitions.clone());
                    object.insert("$schema".into(), schema["$schema"].clone());
                }
                jsonschema::validator_for(&standalone).ok()
            })
            .as_ref()
    }
}

/// [`sub_schema`] of the bundled schema, remembered by the pointer's shape: one hash lookup per value the
/// model streams instead of a walk of four lookups per token.
fn governing_part(pointer: &str) -> Arc<Part> {
    type Cache = Mutex<rustc_hash::FxHashMap<String, Arc<Part>>>;
    /// Shapes come from the model's output, so the cache is bounded; past it, the walk is done each time.
    const MOST: usize = 4096;
    static SHAPES: OnceLock<Cache> = OnceLock::new();
    let mut shape = String::with_capacity(pointer.len());
    for token in pointer.split('/').skip(1) {
        shape.push('/');
        let is_index =
            token == "-" || (!token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()));
        shape.push_str(if is_index { "-" } else { token });
    }
    let mut cache = SHAPES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(part) = cache.get(&shape) {
        return part.clone();
    }
    let part = Arc::new(Part {
        schema: sub_schema(schema_value(), &shape),
        validator: OnceLock::new(),
    });
    if cache.len() < MOST {
        cache.insert(shape, part.clone());
    }
    part
}

/// What a value at `pointer` may be, as a self-contained JSON schema a model server can hold its output to
/// (`None` where the bundled schema says nothing): references inlined, a date by its pattern, text never
/// empty, an object with only the fields the schema names. Stricter than the schema on purpose: it guides a
/// small model's decoding; what is checked is still [`validate_at`].
///
/// ```
/// let date = redline_resume::value_schema("/work/0/startDate").unwrap();
/// assert!(date["pattern"].as_str().unwrap().starts_with("^([1-2]"));
/// let keywords = redline_resume::value_schema("/skills/0/keywords").unwrap();
/// assert_eq!(keywords["items"]["type"], "string");
/// ```
pub fn value_schema(pointer: &str) -> Option<Value> {
    let schema = schema_value();
    sub_schema(schema, pointer).map(|node| guide(schema, node, 0))
}

/// One schema node in the form of [`value_schema`].
fn guide(schema: &Value, node: &Value, depth: usize) -> Value {
    let node = resolve(schema, node);
    match node["type"].as_str() {
        Some("array") if depth < 4 => {
            serde_json::json!({"type": "array", "items": guide(schema, &node["items"], depth + 1)})
        }
        Some("object") if depth < 4 => {
            let properties: serde_json::Map<String, Value> = node["properties"]
                .as_object()
                .map(|p| {
                    p.iter()
                        .filter(|(name, _)| !name.starts_with('$'))
                        .map(|(name, field)| (name.clone(), guide(schema, field, depth + 1)))
                        .collect()
                })
                .unwrap_or_default();
            serde_json::json!({"type": "object", "properties": properties, "additionalProperties": false})
        }
        Some(kind @ ("number" | "integer" | "boolean")) => serde_json::json!({"type": kind}),
        _ => match node["pattern"].as_str() {
            Some(pattern) => serde_json::json!({"type": "string", "pattern": pattern}),
            None => serde_json::json!({"type": "string", "minLength": 1}),
        },
    }
}

/// The part of the schema that governs a document pointer (`None` where the schema says nothing).
fn sub_schema<'s>(schema: &'s Value, pointer: &str) -> Option<&'s Value> {
    let mut node = schema;
    for token in pointer.split('/').skip(1) {
        node = resolve(schema, node);
        let is_index =
            token == "-" || (!token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()));
        node = match node.get("items") {
            Some(items) if is_index => items,
            _ if token.contains('~') => node
                .get("properties")?
                .get(token.replace("~1", "/").replace("~0", "~").as_str())?,
            _ => node.get("properties")?.get(token)?,
        };
    }
    Some(resolve(schema, node))
}

/// Follows a local `$ref` (`#/definitions/…`).
fn resolve<'s>(schema: &'s Value, node: &'s Value) -> &'s Value {
    match node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        // The schema's own references have no escapes: a plain walk, without serde_json's two
        // allocations per token (this runs for every value the model streams).
        Some(path) => path
            .split('/')
            .skip(1)
            .try_fold(schema, |node, key| node.get(key))
            .unwrap_or(node),
        None => node,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_valid_and_a_bad_value_is_named_by_pointer() {
        assert_eq!(validate(&sample()), Ok(()));
        let mut bad = sample();
        bad["work"][0]["highlights"] = serde_json::json!("not a list");
        bad["basics"]["email"] = serde_json::json!(42);
        let violations = validate(&bad).unwrap_err();
        let pointers: Vec<_> = violations.iter().map(|v| v.pointer.as_str()).collect();
        assert!(pointers.contains(&"/work/0/highlights"), "{violations:?}");
        assert!(pointers.contains(&"/basics/email"), "{violations:?}");
        assert!(
            violations.iter().any(|v| v
                .to_string()
                .starts_with("/basics/email: 42 is not of type")),
            "{violations:?}"
        );
    }

    #[test]
    fn thousands_of_problems_are_named_ten_at_most_and_each_briefly() {
        use serde_json::json;
        // A list of numbers where jobs go, and a job whose dates are strings of 8,000 letters.
        let numbers = validate_at("/work", &json!(vec![1; 5_000])).unwrap_err();
        assert_eq!(numbers.len(), 5_000);
        let lines = listed(&numbers);
        assert_eq!(lines.len(), MAX_LISTED + 1);
        assert_eq!(lines[0], "/work/0: 1 is not of type \"object\"");
        assert_eq!(lines[MAX_LISTED], "and 4990 more");
        let long = validate_at("/work/0", &json!({"startDate": "y".repeat(8_000)})).unwrap_err();
        let line = &listed(&long)[0];
        assert!(
            line.chars().count() < MAX_PROBLEM_CHARS + 30 && line.ends_with('…'),
            "{line}"
        );
        let mut file = sample();
        file["work"] = json!(vec![1; 5_000]);
        let bytes = serde_json::to_vec(&file).unwrap();
        let message = read_from("broken.json".into(), bytes.as_slice())
            .unwrap_err()
            .to_string();
        assert!(
            message.len() < 2_000 && message.ends_with("  and 4990 more"),
            "{message}"
        );
    }

    #[test]
    fn the_sample_is_a_resume_with_a_name_and_work() {
        let sample = sample();
        assert_eq!(sample["basics"]["name"], "Richard Hendriks");
        assert!(sample["work"].as_array().is_some_and(|w| !w.is_empty()));
    }

    #[test]
    fn every_section_the_view_shows_is_a_property_of_the_schema() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        for section in sections() {
            assert!(
                schema["properties"].get(*section).is_some(),
                "{section} is not in the JSON Resume schema"
            );
        }
    }

    #[test]
    fn a_value_is_checked_against_the_rules_of_its_place() {
        use serde_json::json;
        assert_eq!(validate_at("/work/0/position", &json!("CTO")), Ok(()));
        let err = validate_at("/work/0/position", &json!(7)).unwrap_err();
        assert_eq!(err[0].pointer, "/work/0/position");
        assert!(
            validate_at("/work/-", &json!({"name": "Hooli", "highlights": "one"})).unwrap_err()[0]
                .pointer
                == "/work/-/highlights"
        );
        assert!(
            validate_at("/work/0/startDate", &json!("2013-13-45")).is_err(),
            "dates follow the schema's pattern"
        );
        assert!(validate_at("/work/0/startDate", &json!("2013-12")).is_ok());
        assert_eq!(
            validate_at("/custom/anything", &json!(1)),
            Ok(()),
            "additional properties are allowed"
        );
        assert!(
            validate_start_at("/work/0/startDate", &json!("20")).is_ok(),
            "a growing date is not judged yet"
        );
        assert!(validate_start_at("/work/0/highlights", &json!("x")).is_err());
        assert!(validate_start_at("/work/0/position", &json!(7)).is_err());
    }

    #[test]
    fn titles_fall_back_gracefully() {
        assert_eq!(title_of(&sample()), "Richard Hendriks — Programmer");
        let named = serde_json::json!({"basics": {"name": "Ada"}});
        assert_eq!(title_of(&named), "Ada");
        assert_eq!(title_of(&serde_json::json!({})), "Untitled resume");
        // A name of 8,000 characters (a model's, or a file's) is not a title of 8,000.
        let long = serde_json::json!({"basics": {"name": "é".repeat(8_000), "label": "Engineer"}});
        let title = title_of(&long);
        assert_eq!(title.chars().count(), MAX_TITLE_CHARS);
        assert!(title.starts_with("éé") && title.ends_with("é…"), "{title}");
        let exact = serde_json::json!({"basics": {"name": "a".repeat(MAX_TITLE_CHARS)}});
        assert_eq!(title_of(&exact), "a".repeat(MAX_TITLE_CHARS));
    }
}
