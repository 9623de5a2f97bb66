//! Snapshots → chunks: the text a model would have streamed, from JSON snapshots of a growing value.
//!
//! Some APIs report a streamed value as a series of whole snapshots, and snapshots are the easiest way to
//! write a test fixture ("the summary is `Bui`, then `Builds`, then `Builds things.`"). The [`Encoder`] turns
//! such a series into string chunks whose concatenation is one valid JSON text equal to the last snapshot,
//! each chunk at most `max_chunk` characters, so fixtures can mimic a model's 3–5-character tokens.
//!
//! What is certain is emitted at once, one snapshot late: a snapshot's growth is written when the next one
//! shows how it goes on. That lookahead is what makes the key order inside a snapshot irrelevant: when
//! several members appear together, the one that keeps growing in the next snapshot is written last, open.
//! A number at the growing end is held back until something follows it (`1` may still become `12`), and a
//! string stays open until a later member appears.
//!
//! A snapshot must extend the one before it: strings grow at the end, containers gain members at the end
//! (in the order written), and a member once followed by another no longer changes.

use serde_json::{Map, Value};

/// Why a series of snapshots cannot be streamed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// There was nothing to encode.
    #[error("no snapshots to encode")]
    NoSnapshots,
    /// A snapshot does not extend the previous one.
    #[error("snapshot {snapshot} does not extend the one before it at {path}: {detail}")]
    NotGrowing {
        /// Which snapshot (from 0).
        snapshot: usize,
        /// JSON Pointer of the value that changed.
        path: String,
        /// How it changed.
        detail: String,
    },
}

/// One open container of the text written so far.
#[derive(Debug)]
struct Level {
    object: bool,
    /// Keys written, in order (objects); the last is the active member.
    keys: Vec<String>,
    /// Members written, the active one included.
    count: usize,
}

/// The active scalar at the growing end.
#[derive(Debug)]
enum Leaf {
    /// No active scalar: the innermost container is empty or its active member is a container.
    Nothing,
    /// An open string, with the content written so far.
    Str(String),
    /// A number not yet written: it may still grow.
    Held(Value),
    /// `true`, `false` or `null`, written.
    Closed(Value),
}

/// Turns JSON snapshots of a growing value into streamed chunks. See the [module docs](self).
#[derive(Debug)]
pub struct Encoder {
    max_chunk: usize,
    pending: Option<Value>,
    started: bool,
    snapshots: usize,
    levels: Vec<Level>,
    leaf: Leaf,
    out: String,
}

/// Encodes a whole series of snapshots into chunks of at most `max_chunk` characters.
pub fn encode(snapshots: &[Value], max_chunk: usize) -> Result<Vec<String>, EncodeError> {
    let mut encoder = Encoder::new(max_chunk);
    let mut chunks = Vec::new();
    for snapshot in snapshots {
        chunks.extend(encoder.push(snapshot.clone())?);
    }
    chunks.extend(encoder.finish()?);
    Ok(chunks)
}

impl Encoder {
    /// An encoder whose chunks have at most `max_chunk` characters (at least 1).
    pub fn new(max_chunk: usize) -> Encoder {
        Encoder {
            max_chunk: max_chunk.max(1),
            pending: None,
            started: false,
            snapshots: 0,
            levels: Vec::new(),
            leaf: Leaf::Nothing,
            out: String::new(),
        }
    }

    /// Takes the next snapshot; returns the chunks that became certain (the previous snapshot's growth).
    pub fn push(&mut self, snapshot: Value) -> Result<Vec<String>, EncodeError> {
        if let Some(previous) = self.pending.replace(snapshot) {
            let next = self.pending.take();
            let result = self.advance(&previous, next.as_ref());
            self.pending = next;
            result?;
        }
        self.snapshots += 1;
        Ok(self.take_chunks())
    }

    /// Ends the series: returns the rest of the text, closed.
    pub fn finish(mut self) -> Result<Vec<String>, EncodeError> {
        let last = self.pending.take().ok_or(EncodeError::NoSnapshots)?;
        self.advance(&last, None)?;
        if self.levels.is_empty() {
            self.close_leaf();
        } else {
            self.close_active(0);
            self.close_level();
        }
        Ok(self.take_chunks())
    }

    fn take_chunks(&mut self) -> Vec<String> {
        let mut chunks = Vec::new();
        let mut chunk = String::new();
        let mut chars = 0;
        for c in self.out.chars() {
            chunk.push(c);
            chars += 1;
            if chars == self.max_chunk {
                chunks.push(std::mem::take(&mut chunk));
                chars = 0;
            }
        }
        if !chunk.is_empty() {
            chunks.push(chunk);
        }
        self.out.clear();
        chunks
    }

    /// Writes what `cur` adds to the text so far; `next` (the snapshot after it) orders new members.
    fn advance(&mut self, cur: &Value, next: Option<&Value>) -> Result<(), EncodeError> {
        if !self.started {
            self.started = true;
            self.open_value(cur, next);
            return Ok(());
        }
        if self.levels.is_empty() {
            return self.grow_leaf(cur);
        }
        self.sync(0, cur, next)
    }

    /// Brings the container at `depth` (and everything inside it) in line with `node`.
    fn sync(
        &mut self,
        depth: usize,
        node: &Value,
        next: Option<&Value>,
    ) -> Result<(), EncodeError> {
        let level = &self.levels[depth];
        let fresh = match (level.object, node) {
            (true, Value::Object(map)) => fresh_keys(level, map, next),
            (false, Value::Array(items)) => (level.count..items.len()).map(Member::Index).collect(),
            _ => return Err(self.not_growing(depth, "a container changed type")),
        };
        if level.count > 0 {
            let active = active_member(level);
            let (value, next_value) =
                (member(node, &active), next.and_then(|n| member(n, &active)));
            let value = value.ok_or_else(|| self.not_growing(depth + 1, "a member disappeared"))?;
            if depth + 1 < self.levels.len() {
                self.sync(depth + 1, value, next_value)?;
            } else {
                self.grow_leaf(value)?;
            }
            if !fresh.is_empty() {
                self.close_active(depth);
            }
        }
        self.write_members(node, next, &fresh);
        Ok(())
    }

    /// Writes new members of the innermost container: all but the last whole, the last left open.
    fn write_members(&mut self, node: &Value, next: Option<&Value>, fresh: &[Member]) {
        for (i, m) in fresh.iter().enumerate() {
            let Some(value) = member(node, m) else {
                continue;
            };
            let level = self.levels.last_mut().expect("an open container");
            if level.count > 0 {
                self.out.push(',');
            }
            level.count += 1;
            if let Member::Key(key) = m {
                level.keys.push(key.clone());
                self.out.push_str(&quoted(key));
                self.out.push(':');
            }
            if i + 1 < fresh.len() {
                self.out.push_str(&value.to_string());
                self.leaf = Leaf::Nothing;
            } else {
                self.open_value(value, next.and_then(|n| member(n, m)));
            }
        }
    }

    /// Writes the start of `value`: a string without its closing quote, a container with its members
    /// (the last open), `true`/`false`/`null` whole; a number is held.
    fn open_value(&mut self, value: &Value, next: Option<&Value>) {
        match value {
            Value::String(s) => {
                self.out.push('"');
                self.out.push_str(&escaped(s));
                self.leaf = Leaf::Str(s.clone());
            }
            Value::Number(_) => self.leaf = Leaf::Held(value.clone()),
            Value::Bool(_) | Value::Null => {
                self.out.push_str(&value.to_string());
                self.leaf = Leaf::Closed(value.clone());
            }
            Value::Object(map) => {
                self.out.push('{');
                self.leaf = Leaf::Nothing;
                let level = Level {
                    object: true,
                    keys: Vec::new(),
                    count: 0,
                };
                let fresh = fresh_keys(&level, map, next);
                self.levels.push(level);
                self.write_members(value, next, &fresh);
            }
            Value::Array(items) => {
                self.out.push('[');
                self.leaf = Leaf::Nothing;
                self.levels.push(Level {
                    object: false,
                    keys: Vec::new(),
                    count: 0,
                });
                let fresh: Vec<Member> = (0..items.len()).map(Member::Index).collect();
                self.write_members(value, next, &fresh);
            }
        }
    }

    /// The active scalar grew (or did not change).
    fn grow_leaf(&mut self, value: &Value) -> Result<(), EncodeError> {
        let depth = self.levels.len();
        match (&mut self.leaf, value) {
            (Leaf::Str(written), Value::String(s)) if s.starts_with(written.as_str()) => {
                self.out.push_str(&escaped(&s[written.len()..]));
                *written = s.clone();
                Ok(())
            }
            (Leaf::Str(_), _) => Err(self.not_growing(depth, "a string did not grow at its end")),
            (Leaf::Held(held), Value::Number(_)) => {
                *held = value.clone();
                Ok(())
            }
            (Leaf::Closed(written), value) if written == value => Ok(()),
            (Leaf::Nothing, _) => Ok(()),
            _ => Err(self.not_growing(depth, "a value changed")),
        }
    }

    /// Closes the active member of the container at `depth`, and everything open inside it.
    fn close_active(&mut self, depth: usize) {
        if depth + 1 < self.levels.len() {
            self.close_active(depth + 1);
            self.close_level();
        } else {
            self.close_leaf();
        }
    }

    fn close_level(&mut self) {
        if let Some(level) = self.levels.pop() {
            self.out.push(if level.object { '}' } else { ']' });
        }
        self.leaf = Leaf::Nothing;
    }

    fn close_leaf(&mut self) {
        match std::mem::replace(&mut self.leaf, Leaf::Nothing) {
            Leaf::Str(_) => self.out.push('"'),
            Leaf::Held(number) => self.out.push_str(&number.to_string()),
            Leaf::Closed(_) | Leaf::Nothing => {}
        }
    }

    fn not_growing(&self, depth: usize, detail: &str) -> EncodeError {
        let mut path = String::new();
        for level in &self.levels[..depth.min(self.levels.len())] {
            path.push('/');
            match (level.object, level.keys.last()) {
                (true, Some(key)) => path.push_str(&key.replace('~', "~0").replace('/', "~1")),
                _ => path.push_str(&level.count.saturating_sub(1).to_string()),
            }
        }
        EncodeError::NotGrowing {
            snapshot: self.snapshots.saturating_sub(1),
            path,
            detail: detail.to_owned(),
        }
    }
}

/// A member of a container: an object key or an array index.
#[derive(Debug, Clone)]
enum Member {
    Key(String),
    Index(usize),
}

fn active_member(level: &Level) -> Member {
    match level.keys.last() {
        Some(key) if level.object => Member::Key(key.clone()),
        _ => Member::Index(level.count - 1),
    }
}

fn member<'v>(node: &'v Value, m: &Member) -> Option<&'v Value> {
    match (node, m) {
        (Value::Object(map), Member::Key(key)) => map.get(key),
        (Value::Array(items), Member::Index(i)) => items.get(*i),
        _ => None,
    }
}

/// The keys of `map` not written yet, those that still grow in `next` last.
fn fresh_keys(level: &Level, map: &Map<String, Value>, next: Option<&Value>) -> Vec<Member> {
    let (mut settled, mut growing): (Vec<_>, Vec<_>) = map
        .iter()
        .filter(|(key, _)| !level.keys.iter().any(|k| k == *key))
        .partition(|(key, value)| {
            next.and_then(|n| n.get(key.as_str()))
                .is_none_or(|later| later == *value)
        });
    settled.append(&mut growing);
    settled
        .into_iter()
        .map(|(key, _)| Member::Key(key.clone()))
        .collect()
}

fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// The JSON-escaped form of `s`, without quotes. Escaping is per character, so the escaped form of a
/// string's growth is exactly the growth of its escaped form.
fn escaped(s: &str) -> String {
    let quoted = quoted(s);
    quoted[1..quoted.len() - 1].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn joined(snapshots: &[Value], max_chunk: usize) -> String {
        encode(snapshots, max_chunk).unwrap().concat()
    }

    #[test]
    fn a_growing_string_streams_its_growth() {
        let snapshots = [
            json!({"s": "Bui"}),
            json!({"s": "Builds"}),
            json!({"s": "Builds things."}),
        ];
        let mut encoder = Encoder::new(100);
        assert_eq!(
            encoder.push(snapshots[0].clone()).unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(
            encoder.push(snapshots[1].clone()).unwrap(),
            vec![r#"{"s":"Bui"#]
        );
        assert_eq!(encoder.push(snapshots[2].clone()).unwrap(), vec!["lds"]);
        assert_eq!(encoder.finish().unwrap(), vec![r#" things."}"#]);
    }

    #[test]
    fn chunks_have_at_most_the_given_number_of_characters() {
        let chunks = encode(&[json!({"summary": "héllo wörld, ünïcode"})], 3).unwrap();
        assert!(chunks.iter().all(|c| c.chars().count() <= 3));
        assert_eq!(
            serde_json::from_str::<Value>(&chunks.concat()).unwrap(),
            json!({"summary": "héllo wörld, ünïcode"})
        );
    }

    #[test]
    fn the_member_that_keeps_growing_is_written_last_whatever_the_key_order() {
        // Both keys appear at once; the next snapshot shows that "value" is the one still being written.
        let snapshots = [
            json!({"value": "Py", "op": "add"}),
            json!({"op": "add", "value": "Python"}),
        ];
        assert_eq!(joined(&snapshots, 100), r#"{"op":"add","value":"Python"}"#);
    }

    #[test]
    fn a_number_is_held_until_it_is_certain() {
        let mut encoder = Encoder::new(100);
        encoder.push(json!([1])).unwrap();
        assert_eq!(encoder.push(json!([12])).unwrap(), vec!["["]);
        assert_eq!(
            encoder.push(json!([12, true])).unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(encoder.finish().unwrap(), vec!["12,true]"]);
    }

    #[test]
    fn escapes_are_split_only_between_characters() {
        let snapshots = [json!({"q": "say \"hi"}), json!({"q": "say \"hi\"\n"})];
        assert_eq!(joined(&snapshots, 2), r#"{"q":"say \"hi\"\n"}"#);
    }

    #[test]
    fn a_snapshot_that_does_not_extend_the_last_is_refused() {
        let err = encode(
            &[
                json!({"s": "abc"}),
                json!({"s": "abd"}),
                json!({"s": "abde"}),
            ],
            4,
        )
        .unwrap_err();
        assert!(
            matches!(err, EncodeError::NotGrowing { ref path, .. } if path == "/s"),
            "{err}"
        );
        assert_eq!(encode(&[], 4).unwrap_err(), EncodeError::NoSnapshots);
    }
}
