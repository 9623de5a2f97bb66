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
