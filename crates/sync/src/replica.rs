//! What one device knows: every event it accepted (its own and those read from other devices), the
//! events waiting for one they were made on, and each document as the merge makes it.
//!
//! An event is accepted only once every event it was made on is known, and only if its stamp is larger
//! than theirs: so the order by stamp never puts an event before one it was made on, on any device.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use redline_patch::{Policy, apply};
use serde_json::Value;

use crate::error::SyncError;
use crate::event::{Body, Event, FORMAT, Stamp, check_id, new_id};
use crate::merge::{Events, Known, Merged, Vector};

/// The most events kept waiting for one they were made on (each is at most a file's size).
pub const MAX_WAITING: usize = 10_000;

/// What became of an event handed to [`Replica::receive`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// Accepted (with any waiting events it let in, counted).
    New(usize),
    /// Already known (the same bytes under another name, or read before).
    Known,
    /// Kept until the event it was made on arrives.
    Waiting,
    /// Refused, and why.
    Refused(String),
}

#[derive(Debug, Default)]
struct DocLog {
    events: Events,
    merged: Merged,
    /// An event arrived that sorts before one already replayed: replay from the start.
    stale: bool,
}

/// One device's view of the synced library.
#[derive(Debug)]
pub struct Replica {
    device: String,
    policy: Policy,
    next_seq: u64,
    docs: BTreeMap<String, DocLog>,
    /// Every accepted event by `(device, seq)`: its document and stamp.
    ids: HashMap<(String, u64), (String, u64)>,
    hashes: HashSet<String>,
    /// Events waiting, by the `(device, seq)` they wait for.
    waiting: HashMap<(String, u64), Vec<Known>>,
    waiting_hashes: HashSet<String>,
    /// Every device that made an accepted event.
    devices: BTreeSet<String>,
    /// Once [`Replica::track_accepted`] is called, the events accepted since [`Replica::take_accepted`]
    /// was last called: their document and stamp. Not kept while a replica is built from what a device
    /// kept (measured: the 20,000 small allocations of a 10,000-event history made the replay after them
    /// 15 % slower).
    accepted: Option<Vec<(String, Stamp)>>,
}

/// What another device's edit may do: what a person's own edits may (the resume's language, headings and
/// design under `/meta` included, as the engine's own tools write them), within every limit of size and
/// depth. The document the edits add up to is checked whole where it is brought in.
pub fn own_edits() -> Policy {
    Policy {
        protected: Vec::new(),
        ..Policy::default()
    }
}

impl Replica {
    /// A device with id `device` that knows nothing yet.
    pub fn new(device: &str) -> Result<Replica, SyncError> {
        check_id(device).map_err(|_| SyncError::BadId {
            what: "the device",
            id: device.to_owned(),
        })?;
        Ok(Replica {
            device: device.to_owned(),
            policy: own_edits(),
            next_seq: 1,
            docs: BTreeMap::new(),
            ids: HashMap::new(),
            hashes: HashSet::new(),
            waiting: HashMap::new(),
            waiting_hashes: HashSet::new(),
            devices: BTreeSet::new(),
            accepted: None,
        })
    }

    /// This device's id.
    pub fn device(&self) -> &str {
        &self.device
    }

    /// The policy every operation read from another device is checked against.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The sync ids of every document known.
    pub fn documents(&self) -> impl Iterator<Item = &str> {
        self.docs.keys().map(String::as_str)
    }

    /// Every accepted event, document by document, in the agreed order.
    pub fn events(&self) -> impl Iterator<Item = &Known> {
        self.docs.values().flat_map(|log| log.events.values())
    }

    /// This device's own accepted event with sequence number `seq`, if there is one.
    pub fn own_event(&self, seq: u64) -> Option<&Known> {
        let id = (self.device.clone(), seq);
        let (document, lamport) = self.ids.get(&id)?;
        let stamp = (*lamport, id.0, id.1);
        self.docs.get(document)?.events.get(&stamp)
    }

    /// The sequence number this device's next event takes: every own event has a smaller one.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// How many events are accepted.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when no event is accepted.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// How many events wait for one they were made on.
    pub fn waiting(&self) -> usize {
        self.waiting_hashes.len()
    }

    /// True when the content hash `hash` is an accepted event.
    pub fn knows_hash(&self, hash: &str) -> bool {
        self.hashes.contains(hash)
    }

    /// Takes an event read from a file (already checked by [`Event::decode`]) whose bytes hash to `hash`.
    pub fn receive(&mut self, hash: &str, event: Event) -> Received {
        if self.hashes.contains(hash) || self.waiting_hashes.contains(hash) {
            return Received::Known;
        }
        // One of this device's own events that it no longer had (its database restored from a backup):
        // its sequence number is taken, whether it is accepted now or waits.
        if event.device == self.device {
            self.next_seq = self.next_seq.max(event.seq + 1);
        }
        let mut queue = vec![Known {
            hash: hash.to_owned(),
            event,
        }];
        let (mut accepted, mut first) = (0, None);
        while let Some(known) = queue.pop() {
            let outcome = self.accept(known, &mut queue);
            if matches!(outcome, Received::New(_)) {
                accepted += 1;
            }
            first.get_or_insert(outcome);
        }
        match first {
            Some(Received::New(_)) => Received::New(accepted - 1),
            Some(other) => other,
            None => Received::Known,
        }
    }

    /// Accepts one event, or keeps it waiting, or refuses it; events it lets in go on `queue`.
    fn accept(&mut self, known: Known, queue: &mut Vec<Known>) -> Received {
        let e = &known.event;
        let id = (e.device.clone(), e.seq);
        if let Some((doc, _)) = self.ids.get(&id) {
            return Received::Refused(format!(
                "another file is already event {} of device {} (in document {doc})",
                e.seq, e.device
            ));
        }
        for (device, &seq) in &e.parent {
            match self.ids.get(&(device.clone(), seq)) {
                None => {
                    if self.waiting_hashes.len() >= MAX_WAITING {
                        return Received::Refused(
                            "too many files wait for ones that never came".to_owned(),
                        );
                    }
                    self.waiting_hashes.insert(known.hash.clone());
                    self.waiting
                        .entry((device.clone(), seq))
                        .or_default()
                        .push(known);
                    return Received::Waiting;
                }
                Some((doc, lamport)) if *doc != e.document || *lamport >= e.lamport => {
                    return Received::Refused(
                        "it claims to be made on an event it cannot follow".to_owned(),
                    );
                }
                Some(_) => {}
            }
        }
        if e.device == self.device {
            self.next_seq = self.next_seq.max(e.seq + 1);
        }
        self.ids.insert(id.clone(), (e.document.clone(), e.lamport));
        self.hashes.insert(known.hash.clone());
        self.waiting_hashes.remove(&known.hash);
        let log = self
            .docs
            .entry(e.document.clone())
            .or_insert_with(|| DocLog {
                merged: Merged::new(&e.document),
                ..DocLog::default()
            });
        let stamp = e.stamp();
        if log.merged.head.as_ref().is_some_and(|head| stamp < *head) {
            log.stale = true;
        }
        if !self.devices.contains(&e.device) {
            self.devices.insert(e.device.clone());
        }
        if let Some(accepted) = &mut self.accepted {
            accepted.push((e.document.clone(), stamp.clone()));
        }
        log.events.insert(stamp, known);
        if let Some(woken) = self.waiting.remove(&id) {
            for w in &woken {
                self.waiting_hashes.remove(&w.hash);
            }
            queue.extend(woken);
        }
        Received::New(0)
    }

    /// From now on, notes each event accepted, for [`Replica::take_accepted`].
    pub fn track_accepted(&mut self) {
        self.accepted.get_or_insert_with(Vec::new);
    }

    /// The events accepted (received, woken, or recorded here) since the last call, or since
    /// [`Replica::track_accepted`], in the order they were accepted: what a device has yet to keep,
    /// without going over every event it knows.
    pub fn take_accepted(&mut self) -> Vec<Known> {
        let accepted = self
            .accepted
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        accepted
            .into_iter()
            .filter_map(|(document, stamp)| self.docs.get(&document)?.events.get(&stamp).cloned())
            .collect()
    }

    /// Every device that made an event this one accepted (itself included, once it made one).
    pub fn devices(&self) -> impl Iterator<Item = &str> {
        self.devices.iter().map(String::as_str)
    }

    /// The document with sync id `document`, merged from every event known.
    pub fn merged(&mut self, document: &str) -> Option<&Merged> {
        let policy = &self.policy;
        let log = self.docs.get_mut(document)?;
        if log.stale {
            log.merged = Merged::new(document);
            log.stale = false;
        }
        log.merged.catch_up(&log.events, policy);
        Some(&log.merged)
    }

    /// Records a change made on this device to `document` (a sync id known here), made on the document as
    /// [`Replica::merged`] has it. Returns the event, accepted.
    pub fn record(&mut self, document: &str, body: Body, made_at: i64) -> Result<Known, SyncError> {
        let (parent, lamport, current) = {
            let merged = self
                .merged(document)
                .ok_or_else(|| SyncError::NoDocument(document.to_owned()))?;
            let lamport = merged.head.as_ref().map_or(0, |h| h.0) + 1;
            (merged.seen.clone(), lamport, merged.document.clone())
        };
        if let Body::Edit { forward, .. } = &body {
            apply(&mut current.clone(), forward).map_err(|e| SyncError::Refused(e.to_string()))?;
        }
        self.make(document, parent, lamport, body, made_at)
    }

    /// Records a new document made on this device; returns its sync id and its first event.
    pub fn create(
        &mut self,
        title: &str,
        document: Value,
        made_at: i64,
    ) -> Result<(String, Known), SyncError> {
        let title = title.to_owned();
        self.begin(Body::Create { title, document }, made_at)
    }

    /// Records a new cover letter made on this device, belonging to the resume with sync id `resume`;
    /// returns its sync id and its first event.
    pub fn create_letter(
        &mut self,
        title: &str,
        resume: &str,
        document: Value,
        made_at: i64,
    ) -> Result<(String, Known), SyncError> {
        let (title, resume) = (title.to_owned(), resume.to_owned());
        self.begin(
            Body::Letter {
                title,
                resume,
                document,
            },
            made_at,
        )
    }

    /// Records a new job application made on this device; returns its sync id and its first event.
    pub fn create_application(
        &mut self,
        application: crate::event::ApplicationRecord,
        made_at: i64,
    ) -> Result<(String, Known), SyncError> {
        let application = Box::new(application);
        self.begin(Body::Application { application }, made_at)
    }

    /// Records the first event of a document new on this device, under a new sync id.
    fn begin(&mut self, first: Body, made_at: i64) -> Result<(String, Known), SyncError> {
        let id = new_id();
        let known = self.make(&id, Vector::new(), 1, first, made_at)?;
        Ok((id, known))
    }

    fn make(
        &mut self,
        document: &str,
        parent: Vector,
        lamport: u64,
        body: Body,
        made_at: i64,
    ) -> Result<Known, SyncError> {
        let event = Event {
            format: FORMAT,
            document: document.to_owned(),
            device: self.device.clone(),
            seq: self.next_seq,
            lamport,
            parent,
            made_at,
            body,
        };
        event.check(&self.policy).map_err(SyncError::Refused)?;
        let (hash, _) = event.encode();
        match self.receive(&hash, event.clone()) {
            Received::New(_) => Ok(Known { hash, event }),
            Received::Refused(why) => Err(SyncError::Refused(why)),
            other => Err(SyncError::Refused(format!("{other:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Body;

    fn edit(label: &str) -> Body {
        Body::Edit {
            source: "user".into(),
            summary: "an edit".into(),
            forward: vec![redline_patch::Operation::Replace {
                path: "/basics/label".into(),
                value: Value::String(label.into()),
            }],
        }
    }

    #[test]
    fn what_was_accepted_since_the_last_take_is_taken_once_in_order() {
        let resume = serde_json::json!({"basics": {"name": "Ada", "label": "Engineer"}});
        let mut a = Replica::new(&new_id()).unwrap();
        a.track_accepted();
        let (doc, first) = a.create("Ada", resume, 1).unwrap();
        let second = a.record(&doc, edit("Founder"), 2).unwrap();
        let taken: Vec<String> = a.take_accepted().into_iter().map(|k| k.hash).collect();
        assert_eq!(taken, [first.hash.clone(), second.hash.clone()]);
        assert!(a.take_accepted().is_empty());

        // Another device receives them out of order: the second waits, and both are accepted when the
        // first comes, the first first.
        let mut b = Replica::new(&new_id()).unwrap();
        b.track_accepted();
        assert_eq!(
            b.receive(&second.hash, second.event.clone()),
            Received::Waiting
        );
        assert!(b.take_accepted().is_empty());
        assert_eq!(
            b.receive(&first.hash, first.event.clone()),
            Received::New(1)
        );
        let taken: Vec<String> = b.take_accepted().into_iter().map(|k| k.hash).collect();
        assert_eq!(taken, [first.hash, second.hash]);
        assert_eq!(b.devices().collect::<Vec<_>>(), [a.device()]);
    }
}
