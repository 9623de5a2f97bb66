//! The file format: one event (a revision, or a document-level change) per file, written once and never
//! changed, named by the SHA-256 of its bytes.
//!
//! An event says which document it belongs to (a random sync id, never the local integer id), which device
//! made it, that device's sequence number, a Lamport stamp and the events it was made on (its `parent`: per
//! device, the latest sequence number of that device's events in this document that the maker knew). The
//! stamp orders all events of a document the same way on every device: by `(lamport, device, seq)`. The wall
//! clock (`madeAt`) is shown, never used for order.

use std::collections::BTreeMap;

use redline_patch::{Operation, Policy, Scope};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The format this crate writes and reads; a file of another format is left for a newer Redline.
pub const FORMAT: u32 = 1;
/// The largest file read from the folder, in bytes: anything bigger is not one Redline wrote.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// The most devices an event may name as its parents.
pub const MAX_DEVICES: usize = 256;
/// The longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// The longest source or summary, in characters.
pub const MAX_SUMMARY_CHARS: usize = 2_000;
/// The most operations one event may carry (a restore of a long resume is one event).
pub const MAX_OPERATIONS: usize = 10_000;

/// The most stage changes an application's timeline may hold; moves past it are not replayed.
pub const MAX_TIMELINE: usize = 1_000;
/// The most tags an application may carry.
pub const MAX_TAGS: usize = 50;
/// The stages an application can be at, as the tracker names them.
pub const STAGES: [&str; 6] = [
    "saved",
    "applied",
    "interviewing",
    "offer",
    "rejected",
    "withdrawn",
];

/// Where an event sits in the order every device agrees on: Lamport stamp, then device, then sequence.
pub type Stamp = (u64, String, u64);

/// One change, as it travels between devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Event {
    /// The file format, [`FORMAT`].
    pub format: u32,
    /// The document's sync id (a UUID made when it was created).
    pub document: String,
    /// The device that made the event (a UUID).
    pub device: String,
    /// The device's sequence number, over all its documents, from 1.
    pub seq: u64,
    /// One more than the largest stamp among the events it was made on.
    pub lamport: u64,
    /// The events it was made on: per device, the latest of its sequence numbers in this document.
    pub parent: BTreeMap<String, u64>,
    /// When the maker's clock says it was made, in seconds since 1970: shown, never used for order.
    pub made_at: i64,
    /// What changed.
    pub body: Body,
}

/// What an event changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Body {
    /// A new resume (or a variant of one) with its first content.
    Create {
        /// Its title.
        title: String,
        /// Its first content.
        document: Value,
    },
    /// A new cover letter with its first content, belonging to a resume (its sender).
    Letter {
        /// Its title.
        title: String,
        /// The sync id of the resume it belongs to.
        resume: String,
        /// Its first content.
        document: Value,
    },
    /// A revision: the forward patch from the document as its maker had it.
    Edit {
        /// Who made it (`user`, `model`, `undo`, …), as the store names sources.
        source: String,
        /// The revision's summary.
        summary: String,
        /// Its operations.
        forward: Vec<Operation>,
    },
    /// A new job application, as the tracker holds it.
    Application {
        /// Its fields, its timeline, and what was sent.
        application: Box<ApplicationRecord>,
    },
    /// An application moved to a stage on a day (an entry on its timeline).
    Moved {
        /// The stage, as [`STAGES`] names it.
        stage: String,
        /// The day, `YYYY-MM-DD`.
        date: String,
    },
    /// A new title.
    Rename {
        /// The title.
        title: String,
    },
    /// The document was deleted (it can be brought back).
    Delete,
    /// The document was brought back.
    Undelete,
}

/// A job application as it travels: the tracker's fields, its stage and dated timeline, and the resume and
/// letter that were sent, named by their sync ids and carrying the content sent (a revision's number is
/// this device's own, and another device's history may never have held that content: it is made again
/// from this).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApplicationRecord {
    /// The employer.
    pub company: String,
    /// The job's title.
    pub role: String,
    /// The posting's text.
    pub posting: String,
    /// Where the posting came from.
    pub source: String,
    /// The posting's address, as text.
    pub url: String,
    /// The people to talk to.
    pub contacts: String,
    /// Anything else.
    pub notes: String,
    /// The salary, as written.
    pub salary: String,
    /// When to follow up, `YYYY-MM-DD`.
    pub follow_up: Option<String>,
    /// Labels.
    pub tags: Vec<String>,
    /// Where it stands.
    pub stage: String,
    /// Every change of stage, in the order made.
    pub timeline: Vec<StageMove>,
    /// The resume sent.
    pub resume: Option<SentDocument>,
    /// The letter sent.
    pub letter: Option<SentDocument>,
}

/// One change of an application's stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageMove {
    /// The stage, as [`STAGES`] names it.
    pub stage: String,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
}

/// A synced document at the content that was sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentDocument {
    /// Its sync id.
    pub document: String,
    /// Its content as sent.
    pub content: Value,
}

/// The SHA-256 of a document's content, with every object's keys sorted: the same content gives the same
/// hash on every device, whatever order its keys were written in.
pub fn content_hash(document: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&map[k])))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    hash_of(&serde_json::to_vec(&sorted(document)).expect("a value serializes"))
}

impl ApplicationRecord {
    /// What a file could forge: every field bounded, stages and dates well formed, sync ids, and the
    /// resume and letter sent checked whole against the policy, as a resume and a letter.
    pub fn check(&self, policy: &Policy) -> Result<(), String> {
        let fields = [
            ("company", &self.company, 500),
            ("role", &self.role, 500),
            ("posting", &self.posting, 100_000),
            ("source", &self.source, 500),
            ("address", &self.url, 500),
            ("contacts", &self.contacts, 20_000),
            ("notes", &self.notes, 20_000),
            ("salary", &self.salary, 500),
        ];
        for (what, text, limit) in fields {
            if text.chars().count() > limit {
                return Err(format!("its {what} is longer than {limit} characters"));
            }
        }
        if self.company.trim().is_empty() || self.role.trim().is_empty() {
            return Err("it has no company or no role".to_owned());
        }
        if self.tags.len() > MAX_TAGS || self.tags.iter().any(|t| t.chars().count() > 100) {
            return Err(format!(
                "it has more than {MAX_TAGS} tags, or one longer than 100 characters"
            ));
        }
        if self.timeline.len() > MAX_TIMELINE {
            return Err(format!("its timeline has more than {MAX_TIMELINE} entries"));
        }
        check_stage(&self.stage)?;
        for change in &self.timeline {
            check_stage(&change.stage)?;
            check_date(&change.date)?;
        }
        if let Some(date) = &self.follow_up {
            check_date(date)?;
        }
        if let Some(sent) = &self.resume {
            check_id(&sent.document).map_err(|e| format!("the resume it sent: {e}"))?;
            policy
                .check_bundle(&sent.content, &[])
                .map_err(|e| format!("the resume it sent is not valid: {e}"))?;
        }
        if let Some(sent) = &self.letter {
            check_id(&sent.document).map_err(|e| format!("the letter it sent: {e}"))?;
            policy
                .check_letter(&sent.content)
                .map_err(|e| format!("the letter it sent is not valid: {e}"))?;
        }
        Ok(())
    }
}

fn check_stage(stage: &str) -> Result<(), String> {
    if STAGES.contains(&stage) {
        Ok(())
    } else {
        Err(format!(
            "“{}” is not a stage",
            stage.chars().take(40).collect::<String>()
        ))
    }
}

/// A day written `YYYY-MM-DD` (the tracker checks that it is a real one).
fn check_date(date: &str) -> Result<(), String> {
    let b = date.as_bytes();
    let shaped = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if shaped {
        Ok(())
    } else {
        Err(format!(
            "“{}” is not a date written YYYY-MM-DD",
            date.chars().take(40).collect::<String>()
        ))
    }
}

impl Event {
    /// Where the event sits in the total order.
    pub fn stamp(&self) -> Stamp {
        (self.lamport, self.device.clone(), self.seq)
    }

    /// True when the event was made knowing `other` (which is in its past).
    pub fn knows(&self, device: &str, seq: u64) -> bool {
        self.parent.get(device).is_some_and(|&known| known >= seq)
    }

    /// The file's bytes and name: the same event always gives the same bytes (fields in declaration order,
    /// values in the order they were read), so two devices writing it write one file.
    pub fn encode(&self) -> (String, Vec<u8>) {
        let bytes = serde_json::to_vec(self).expect("an event always serializes");
        (hash_of(&bytes), bytes)
    }

    /// Reads and checks an event from a file's bytes. The error says why in words.
    pub fn decode(bytes: &[u8], policy: &Policy) -> Result<Event, Unreadable> {
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(Unreadable::Invalid(format!(
                "it is larger than {} bytes",
                MAX_FILE_BYTES
            )));
        }
        let event: Event = serde_json::from_slice(bytes).map_err(|e| {
            if e.is_eof() {
                Unreadable::Incomplete
            } else {
                Unreadable::Invalid(format!("it is not a Redline sync file ({e})"))
            }
        })?;
        if event.format != FORMAT {
            return Err(Unreadable::Newer(event.format));
        }
        event.check(policy).map_err(Unreadable::Invalid)?;
        Ok(event)
    }

    /// Checks what a file could forge: ids, bounds, and every operation against the policy.
    pub fn check(&self, policy: &Policy) -> Result<(), String> {
        check_id(&self.document).map_err(|e| format!("its document {e}"))?;
        check_id(&self.device).map_err(|e| format!("its device {e}"))?;
        if self.seq == 0 || self.lamport == 0 || self.seq > 1 << 53 || self.lamport > 1 << 53 {
            return Err("its sequence number or stamp is out of range".to_owned());
        }
        if self.parent.len() > MAX_DEVICES {
            return Err(format!("it names more than {MAX_DEVICES} devices"));
        }
        for (device, &seq) in &self.parent {
            check_id(device).map_err(|e| format!("a parent's device {e}"))?;
            if seq == 0 || (device == &self.device && seq >= self.seq) {
                return Err("its parents are out of order".to_owned());
            }
        }
        self.body.check(policy)
    }
}

impl Body {
    fn check(&self, policy: &Policy) -> Result<(), String> {
        let too_long = |what: &str, s: &str, limit: usize| {
            (s.chars().count() > limit)
                .then(|| format!("its {what} is longer than {limit} characters"))
        };
        let problem = match self {
            Body::Create { title, document } => {
                too_long("title", title, MAX_TITLE_CHARS).or_else(|| {
                    policy
                        .check_bundle(document, &[])
                        .err()
                        .map(|e| format!("its resume is not valid: {e}"))
                })
            }
            Body::Letter {
                title,
                resume,
                document,
            } => too_long("title", title, MAX_TITLE_CHARS)
                .or_else(|| check_id(resume).err().map(|e| format!("its resume {e}")))
                .or_else(|| {
                    policy
                        .check_letter(document)
                        .err()
                        .map(|e| format!("its letter is not valid: {e}"))
                }),
            Body::Rename { title } => too_long("title", title, MAX_TITLE_CHARS),
            Body::Application { application } => application
                .check(policy)
                .err()
                .map(|e| format!("its application is not valid: {e}")),
            Body::Moved { stage, date } => check_stage(stage).and_then(|()| check_date(date)).err(),
            Body::Edit {
                source,
                summary,
                forward,
            } => too_long("source", source, MAX_SUMMARY_CHARS)
                .or_else(|| too_long("summary", summary, MAX_SUMMARY_CHARS))
                .or_else(|| {
                    (forward.len() > MAX_OPERATIONS)
                        .then(|| format!("it has more than {MAX_OPERATIONS} operations"))
                })
                .or_else(|| {
                    forward.iter().find_map(|op| {
                        policy
                            .check_operation(op, &Scope::User)
                            .err()
                            .map(|e| e.to_string())
                    })
                }),
            Body::Delete | Body::Undelete => None,
        };
        problem.map_or(Ok(()), Err)
    }
}

/// Why a file's bytes are not (yet) an event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// The JSON ends early: a sync engine is still writing it.
    #[error("it is not complete yet (still being copied?)")]
    Incomplete,
    /// A newer Redline wrote it.
    #[error("a newer Redline wrote it (format {0})")]
    Newer(u32),
    /// It is not an event Redline accepts.
    #[error("{0}")]
    Invalid(String),
}

/// The SHA-256 of `bytes`, in lowercase hex: a file's name.
pub fn hash_of(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// True when `name` reads as a hash this crate would write (64 lowercase hex digits).
pub fn is_hash(name: &str) -> bool {
    name.len() == 64
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Checks a sync id: a UUID in its lowercase hyphenated form (so one id has one spelling, and it is safe
/// as a folder name).
pub fn check_id(id: &str) -> Result<(), String> {
    match uuid::Uuid::try_parse(id) {
        Ok(uuid) if uuid.hyphenated().to_string() == id => Ok(()),
        _ => Err(format!(
            "id “{}” is not a sync id",
            id.chars().take(40).collect::<String>()
        )),
    }
}

/// A new random sync id (for a device, a document or a library).
pub fn new_id() -> String {
    uuid::Uuid::new_v4().hyphenated().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event() -> Event {
        Event {
            format: FORMAT,
            document: new_id(),
            device: new_id(),
            seq: 2,
            lamport: 2,
            parent: BTreeMap::new(),
            made_at: 0,
            body: Body::Edit {
                source: "user".into(),
                summary: "Change the label".into(),
                forward: vec![Operation::Replace {
                    path: "/basics/label".into(),
                    value: json!({"b": 1, "a": 2}),
                }],
            },
        }
    }

    #[test]
    fn the_same_event_is_always_the_same_bytes_and_name() {
        let e = event();
        let (hash, bytes) = e.encode();
        let read = Event::decode(&bytes, &Policy::default()).unwrap();
        assert_eq!(read, e);
        assert_eq!(read.encode(), (hash.clone(), bytes.clone()));
        assert!(is_hash(&hash));
        assert_eq!(hash, hash_of(&bytes));
        // Keys keep the order they were written in, so a device re-encoding what it read agrees.
        assert!(
            String::from_utf8(bytes)
                .unwrap()
                .contains(r#"{"b":1,"a":2}"#)
        );
    }

    #[test]
    fn ids_have_one_spelling() {
        let id = new_id();
        assert!(check_id(&id).is_ok());
        assert!(check_id(&id.to_uppercase()).is_err());
        assert!(check_id(&id.replace('-', "")).is_err());
        assert!(check_id("../etc").is_err());
    }

    #[test]
    fn a_cut_file_is_incomplete_and_a_foreign_one_invalid() {
        let (_, bytes) = event().encode();
        let policy = Policy::default();
        assert_eq!(
            Event::decode(&bytes[..bytes.len() - 3], &policy),
            Err(Unreadable::Incomplete)
        );
        let mut newer = event();
        newer.format = 2;
        assert_eq!(
            Event::decode(&newer.encode().1, &policy),
            Err(Unreadable::Newer(2))
        );
        let mut own_parent = event();
        own_parent.parent.insert(own_parent.device.clone(), 5);
        assert!(matches!(
            Event::decode(&own_parent.encode().1, &policy),
            Err(Unreadable::Invalid(why)) if why.contains("out of order")
        ));
    }
}
