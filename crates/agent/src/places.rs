//! What one patch call may change, known before the model writes a byte.
//!
//! The planner names its targets; every place inside them is listed: each field that is there, each field
//! the schema allows that is not, each list's end (`…/-`), with the operations that fit it and what its value
//! may be. Two things come of that list, both for a small model's sake:
//! - the part of the resume the patch model is shown: the targets only, one field a line, in place of the
//!   whole document and the schema's shape ([`Reach::excerpt`]);
//! - a JSON schema the server can hold the answer to ([`Reach::schema`]): `op`, `path` and `value` chosen
//!   from the list, so that a model that cannot spell a JSON Pointer still writes one that exists.
//!
//! The schema is a help, never the guard: the stabilizer, the policy and the schema check judge every
//! operation as before, and a server that ignores the schema gets the same rules in words.

use serde_json::{Map, Value, json};

/// The most places one patch call lists. A job with ten highlights is some thirty; a target past this
/// (the whole resume, all of `/work`) is sent as the whole document with the general schema instead.
pub const MAX_PLACES: usize = 160;

/// The most operations a constrained answer holds (a message asks for one change, sometimes a few).
pub const MAX_OPERATIONS: usize = 16;

/// The longest a field's current text is shown, in characters (a summary is a few hundred).
const SHOWN_CHARS: usize = 2_000;

/// The fields that name an entry, in the order they are looked for.
const NAMES: [&str; 6] = [
    "name",
    "language",
    "institution",
    "organization",
    "title",
    "network",
];

/// The verbs that only apply to rich text.
const TEXT_VERBS: [&str; 4] = [
    "appendSentence",
    "prependSentence",
    "appendParagraph",
    "prependParagraph",
];

/// One place an edit may go.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// Where: a field, a list item, or a list's end (`…/-`).
    pub pointer: String,
    /// What is there now; `None` for a field not set or a list's end.
    pub now: Option<Value>,
}

impl Place {
    /// The operations that fit this place, other than `remove` and `move`.
    fn verbs(&self) -> Vec<&'static str> {
        match &self.now {
            None => vec!["add"],
            Some(Value::Object(_)) => Vec::new(),
            Some(Value::String(_)) if redline_patch::text::is_rich_text(&self.pointer) => {
                let mut verbs = vec!["replace"];
                verbs.extend(TEXT_VERBS);
                verbs
            }
            Some(_) => vec!["replace"],
        }
    }

    /// What the value may be, by the JSON Resume schema at this place.
    fn value(&self) -> Value {
        let mut value = redline_resume::value_schema(&self.pointer).unwrap_or_else(|| json!({}));
        // A new entry has at least what names it (a language its language, a job its employer).
        if self.now.is_none()
            && let Some(fields) = value["properties"].as_object()
            && let Some(name) = NAMES.iter().find(|n| fields.contains_key(**n))
        {
            value["required"] = json!([name]);
        }
        value
    }
}

/// Every place inside a turn's targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Reach {
    /// The places, in the document's order.
    pub places: Vec<Place>,
    /// The lists whose items may be reordered (two items or more), by pointer and length.
    lists: Vec<(String, usize)>,
    /// The targets the places were listed from.
    roots: Vec<String>,
}

impl Reach {
    /// The places inside `targets` in `document`; `None` when a target names nothing that is or could be
    /// there, or when the targets hold more than [`MAX_PLACES`].
    pub fn of(document: &Value, targets: &[String]) -> Option<Reach> {
        let mut reach = Reach {
            places: Vec::new(),
            lists: Vec::new(),
            roots: targets.to_vec(),
        };
        let mut sorted: Vec<&String> = targets.iter().collect();
        sorted.sort();
        sorted.dedup();
        let mut taken: Vec<&str> = Vec::new();
        for target in sorted {
            // A target inside one already taken adds nothing.
            if taken.iter().any(|t| within(target, t)) {
                continue;
            }
            reach.target(document, target)?;
            if reach.places.len() > MAX_PLACES {
                return None;
            }
            taken.push(target);
        }
        (!reach.places.is_empty()).then_some(reach)
    }

    fn target(&mut self, document: &Value, target: &str) -> Option<()> {
        if !target.starts_with('/') {
            return None;
        }
        if let Some(value) = document.pointer(target) {
            self.walk(target.to_owned(), value, 0);
            return Some(());
        }
        // Not there yet: a list's end, or a field its entry may have.
        let (parent, last) = target.rsplit_once('/')?;
        match document.pointer(parent)? {
            Value::Array(items) if last == "-" || last == items.len().to_string() => {
                self.places.push(Place {
                    pointer: format!("{parent}/-"),
                    now: None,
                });
            }
            Value::Object(_) if redline_resume::value_schema(target).is_some() => {
                self.places.push(Place {
                    pointer: target.to_owned(),
                    now: None,
                });
            }
            _ => return None,
        }
        Some(())
    }

    fn walk(&mut self, pointer: String, value: &Value, depth: usize) {
        if self.places.len() > MAX_PLACES || depth > 4 {
            return;
        }
        self.places.push(Place {
            pointer: pointer.clone(),
            now: Some(value.clone()),
        });
        match value {
            Value::Object(fields) => {
                for (name, field) in fields {
                    self.walk(format!("{pointer}/{}", escape(name)), field, depth + 1);
                }
                let schema = redline_resume::value_schema(&pointer);
                if let Some(allowed) = schema.as_ref().and_then(|s| s["properties"].as_object()) {
                    for name in allowed.keys().filter(|n| !fields.contains_key(*n)) {
                        self.places.push(Place {
                            pointer: format!("{pointer}/{}", escape(name)),
                            now: None,
                        });
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.walk(format!("{pointer}/{i}"), item, depth + 1);
                }
                self.places.push(Place {
                    pointer: format!("{pointer}/-"),
                    now: None,
                });
                if items.len() >= 2 {
                    self.lists.push((pointer, items.len()));
                }
            }
            _ => {}
        }
    }

    /// The pointers an operation may name.
    pub fn pointers(&self) -> impl Iterator<Item = &str> {
        self.places.iter().map(|p| p.pointer.as_str())
    }

    /// The JSON schema of an answer that stays inside these places: one kind of operation per group of
    /// places that take the same verbs and the same kind of value, `remove` for what is there, `move`
    /// within each list.
    pub fn schema(&self) -> Value {
        self.schema_for(&Fit::default())
    }

    /// [`Reach::schema`], narrowed to what one ask can need (see [`Fit::of`]).
    pub fn schema_for(&self, fit: &Fit) -> Value {
        let mut groups: Vec<(Vec<&'static str>, Value, Vec<&str>)> = Vec::new();
        for place in &self.places {
            let mut verbs = place.verbs();
            verbs.retain(|v| fit.verbs.as_ref().is_none_or(|allowed| allowed.contains(v)));
            if verbs.is_empty() {
                continue;
            }
            let value = place.value();
            match groups
                .iter_mut()
                .find(|(v, s, _)| *v == verbs && *s == value)
            {
                Some((_, _, paths)) => paths.push(&place.pointer),
                None => groups.push((verbs, value, vec![&place.pointer])),
            }
        }
        let mut kinds: Vec<Value> = groups
            .into_iter()
            .map(|(verbs, value, paths)| {
                operation(&[
                    ("op", json!({"enum": verbs})),
                    ("path", json!({"enum": paths})),
                    ("value", value),
                ])
            })
            .collect();
        // An ask that only removes removes what it aimed at, not a part of it.
        let removes_only = fit.verbs.as_ref().is_some_and(Vec::is_empty) && !fit.reorder;
        let there: Vec<&str> = self
            .places
            .iter()
            .filter(|p| p.now.is_some())
            .filter(|p| !removes_only || self.roots.contains(&p.pointer))
            .map(|p| p.pointer.as_str())
            .collect();
        if !there.is_empty() && fit.remove {
            kinds.push(operation(&[
                ("op", json!({"const": "remove"})),
                ("path", json!({"enum": there})),
            ]));
        }
        for (list, len) in self.lists.iter().filter(|_| fit.reorder) {
            let items: Vec<String> = (0..*len).map(|i| format!("{list}/{i}")).collect();
            kinds.push(operation(&[
                ("op", json!({"const": "move"})),
                ("path", json!({"enum": items})),
                ("from", json!({"enum": items})),
            ]));
        }
        json!({
            "type": "object",
            "properties": {
                "operations": {
                    "type": "array",
                    "items": {"anyOf": kinds},
                    "minItems": 1,
                    "maxItems": fit.operations,
                }
            },
            "required": ["operations"],
            "additionalProperties": false,
        })
    }

    /// The part of the resume the patch model is shown: each field inside the targets on a line of its own,
    /// `pointer: what it holds`, then where something can be added. No quotes to escape, no field outside.
    pub fn excerpt(&self) -> String {
        let mut lines = Vec::new();
        let mut new = Vec::new();
        for place in &self.places {
            match &place.now {
                Some(Value::Object(o)) if o.is_empty() => {
                    lines.push(format!("{}: (empty)", place.pointer))
                }
                Some(Value::Array(a)) if a.is_empty() => {
                    lines.push(format!("{}: (empty list)", place.pointer))
                }
                Some(Value::Object(_) | Value::Array(_)) => {}
                Some(Value::String(text)) => lines.push(format!(
                    "{}: {}",
                    place.pointer,
                    redline_resume::shorten(text, SHOWN_CHARS).replace('\n', "\\n")
                )),
                Some(other) => lines.push(format!("{}: {other}", place.pointer)),
                None if place.pointer.ends_with("/-") => {
                    new.push(format!("{} (a new item at the end)", place.pointer))
                }
                None => new.push(format!("{} (not set)", place.pointer)),
            }
        }
        if !new.is_empty() {
            lines.push("Where something can be added:".to_owned());
            lines.extend(new);
        }
        lines.join("\n")
    }
}

/// What one ask can need of the operations a [`Reach`] offers. By default, everything; for an ask read on
/// this computer (the one-model path), what its words say: a small model offered `remove` removes what it
/// was asked to tighten.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The most operations.
    pub operations: usize,
    /// Whether something may be removed.
    pub remove: bool,
    /// Whether a list may be reordered.
    pub reorder: bool,
    /// The verbs other than `remove` and `move` that may be used; `None`: all that fit.
    pub verbs: Option<Vec<&'static str>>,
}

impl Default for Fit {
    fn default() -> Fit {
        Fit {
            operations: MAX_OPERATIONS,
            remove: true,
            reorder: true,
            verbs: None,
        }
    }
}

impl Fit {
    /// What `ask` can need: `remove` when it says to remove, `move` when it says to reorder, and one
    /// operation for each thing it lists ("Add Python and Go": two), doubled for a move (which may need
    /// two), at most [`MAX_OPERATIONS`].
    pub fn of(ask: &str) -> Fit {
        let lower = ask.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let says = |of: &[&str]| words.iter().any(|w| of.contains(w));
        let reorder = says(&["move", "reorder", "swap", "sort"]);
        let parts =
            1 + words.iter().filter(|w| **w == "and").count() + lower.matches([',', ';']).count();
        let remove = says(&[
            "remove", "delete", "drop", "erase", "entferne", "supprime", "elimina", "rimuovi",
            "remova",
        ]);
        let add = says(&[
            "add", "append", "insert", "include", "mention", "füge", "ajoute", "añade", "agrega",
            "aggiungi", "adicione",
        ]);
        let change = says(&[
            "change", "replace", "update", "set", "make", "rename", "edit", "fix", "correct",
            "rewrite", "reword", "rephrase", "tighten", "shorten", "expand", "improve", "polish",
            "ändere", "modifie", "cambia", "modifica", "altere", "this",
        ]);
        // An ask that only removes, or only moves, writes nothing new; one that only adds, rewrites nothing.
        let verbs = match (add, change) {
            _ if (remove || reorder) && !add && !change => Some(Vec::new()),
            (true, false) => Some(vec![
                "add",
                "appendSentence",
                "prependSentence",
                "appendParagraph",
                "prependParagraph",
            ]),
            _ => None,
        };
        Fit {
            operations: (parts * if reorder { 2 } else { 1 }).min(MAX_OPERATIONS),
            remove,
            reorder,
            verbs,
        }
    }
}

/// One kind of operation: these properties, in this order, each required, nothing else.
fn operation(properties: &[(&str, Value)]) -> Value {
    let names: Vec<&str> = properties.iter().map(|(n, _)| *n).collect();
    let properties: Map<String, Value> = properties
        .iter()
        .map(|(n, s)| ((*n).to_owned(), s.clone()))
        .collect();
    json!({"type": "object", "properties": properties, "required": names, "additionalProperties": false})
}

/// `name` as a JSON Pointer token.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// True when `path` is `target` or inside it.
fn within(path: &str, target: &str) -> bool {
    path == target
        || path
            .strip_prefix(target)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        redline_resume::sample()
    }

    fn kinds(schema: &Value) -> &Vec<Value> {
        schema["properties"]["operations"]["items"]["anyOf"]
            .as_array()
            .unwrap()
    }

    /// The kinds of operation that may name `path`, by their verbs.
    fn verbs_at(schema: &Value, path: &str) -> Vec<String> {
        kinds(schema)
            .iter()
            .filter(|k| {
                k["properties"]["path"]["enum"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|p| p == path))
            })
            .flat_map(|k| {
                let op = &k["properties"]["op"];
                match op.get("const") {
                    Some(c) => vec![c.as_str().unwrap().to_owned()],
                    None => op["enum"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_str().unwrap().to_owned())
                        .collect(),
                }
            })
            .collect()
    }

    #[test]
    fn a_job_lists_its_fields_its_lists_ends_and_the_fields_it_could_have() {
        let doc = sample();
        let reach = Reach::of(&doc, &["/work/0".to_owned()]).unwrap();
        let pointers: Vec<&str> = reach.pointers().collect();
        assert!(pointers.contains(&"/work/0/name"));
        assert!(pointers.contains(&"/work/0/highlights/0"));
        assert!(pointers.contains(&"/work/0/highlights/-"));
        assert!(
            pointers.iter().all(|p| p.starts_with("/work/0")),
            "nothing outside the target: {pointers:?}"
        );
        let excerpt = reach.excerpt();
        assert!(excerpt.contains("/work/0/name: Pied Piper"), "{excerpt}");
        assert!(!excerpt.contains("Richard Hendriks"), "{excerpt}");
        assert!(!excerpt.contains('"'), "no quotes to escape: {excerpt}");
    }

    #[test]
    fn the_schema_offers_what_fits_each_place_and_nothing_else() {
        let doc = sample();
        let reach = Reach::of(&doc, &["/work/0".to_owned(), "/skills".to_owned()]).unwrap();
        let schema = reach.schema();
        let mut summary = verbs_at(&schema, "/work/0/summary");
        summary.sort();
        assert_eq!(
            summary,
            [
                "appendParagraph",
                "appendSentence",
                "prependParagraph",
                "prependSentence",
                "remove",
                "replace"
            ]
        );
        assert_eq!(verbs_at(&schema, "/work/0/name"), ["replace", "remove"]);
        assert_eq!(verbs_at(&schema, "/skills/-"), ["add"]);
        assert_eq!(verbs_at(&schema, "/skills/0/keywords/-"), ["add"]);
        // An entry is removed or moved, never rewritten whole.
        assert_eq!(verbs_at(&schema, "/skills/0"), ["remove", "move"]);
        assert!(verbs_at(&schema, "/basics/name").is_empty());
        // A date's value is held to the date's pattern.
        let date = kinds(&schema)
            .iter()
            .find(|k| {
                k["properties"]["path"]["enum"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|p| p == "/work/0/startDate"))
                    && k["properties"].get("value").is_some()
            })
            .unwrap();
        assert!(
            date["properties"]["value"]["pattern"]
                .as_str()
                .is_some_and(|p| p.contains("[0-9]{3}"))
        );
    }

    #[test]
    fn every_operation_the_schema_allows_is_one_the_policy_judges_by_the_same_pointers() {
        // Each example the schema admits validates against it; a path outside does not.
        let doc = sample();
        let reach = Reach::of(&doc, &["/skills/0".to_owned()]).unwrap();
        let validator = jsonschema::validator_for(&reach.schema()).unwrap();
        let good = json!({"operations": [{"op": "add", "path": "/skills/0/keywords/-", "value": "Python"}]});
        assert!(validator.is_valid(&good));
        for bad in [
            json!({"operations": [{"op": "add", "path": "/skills/1/keywords/-", "value": "Python"}]}),
            json!({"operations": [{"op": "add", "path": "/skills/0/keywords/-", "value": ""}]}),
            json!({"operations": [{"op": "replace", "path": "/skills/0/keywords/-", "value": "Python"}]}),
            json!({"operations": [{"op": "remove", "path": "/basics/name"}]}),
        ] {
            assert!(!validator.is_valid(&bad), "{bad}");
        }
    }

    #[test]
    fn an_ask_read_here_is_offered_what_its_words_need() {
        let doc = sample();
        let reach = Reach::of(&doc, &["/skills".to_owned()]).unwrap();
        let add = reach.schema_for(&Fit::of("Add Python and Go to my skills"));
        assert_eq!(add["properties"]["operations"]["maxItems"], 2);
        assert!(verbs_at(&add, "/skills/0").is_empty(), "no remove, no move");
        let remove = reach.schema_for(&Fit::of("Remove the skill Web Development"));
        assert_eq!(remove["properties"]["operations"]["maxItems"], 1);
        // Only what was aimed at, not a part of it.
        assert_eq!(verbs_at(&remove, "/skills"), ["remove"]);
        assert!(verbs_at(&remove, "/skills/0").is_empty());
        let entry = Reach::of(&doc, &["/skills/0".to_owned()]).unwrap();
        let remove = entry.schema_for(&Fit::of("Remove the skill Web Development"));
        assert_eq!(verbs_at(&remove, "/skills/0"), ["remove"]);
        assert!(verbs_at(&remove, "/skills/0/keywords/0").is_empty());
        let reorder = reach.schema_for(&Fit::of("Move Compression to the top"));
        assert_eq!(verbs_at(&reorder, "/skills/0"), ["move"]);
        assert!(verbs_at(&reorder, "/skills/0/name").is_empty());
        // A new entry has what names it.
        let new_skill = kinds(&add)
            .iter()
            .find(|k| k["properties"]["path"]["enum"][0] == "/skills/-")
            .unwrap();
        assert_eq!(
            new_skill["properties"]["value"]["required"],
            json!(["name"])
        );
    }

    #[test]
    fn a_new_place_counts_only_where_it_could_be() {
        let doc = sample();
        assert!(Reach::of(&doc, &["/skills/-".to_owned()]).is_some());
        let count = doc["skills"].as_array().unwrap().len();
        assert!(Reach::of(&doc, &[format!("/skills/{count}")]).is_some());
        assert!(Reach::of(&doc, &[format!("/skills/{}", count + 3)]).is_none());
        assert!(Reach::of(&doc, &["/nowhere/0".to_owned()]).is_none());
        assert!(Reach::of(&doc, &["skills".to_owned()]).is_none());
        // The whole resume is too much to list.
        assert!(Reach::of(&doc, &[String::new()]).is_none());
    }
}
