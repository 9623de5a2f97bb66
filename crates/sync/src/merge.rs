//! Merge: a document's events replayed in the order every device agrees on.
//!
//! Every device that knows the same events computes the same document: the replay depends on nothing but
//! the events. An edit is applied to the document as it stands at its place in the order. When it was made
//! knowing everything before it (the common case: one device, or devices that synced between edits), its
//! operations apply as they are. Otherwise the document its maker had (the replay of its `parent`) is
//! rebuilt, each operation is carried over to the current document by `redline_patch::rebase`, and an
//! operation whose field was changed meanwhile by a concurrent edit is not guessed: it is held as a
//! [`Conflict`] for the user to pick.

use std::collections::{BTreeMap, HashMap};

use redline_patch::{Operation, Policy, PolicyError, apply, pointer, rebase};
use serde::Serialize;
use serde_json::Value;

use crate::event::{Body, Event, Stamp};

/// A document's events, in the agreed order.
pub type Events = BTreeMap<Stamp, Known>;
/// Per device, the latest sequence number known: a set of events closed under "made on".
pub type Vector = BTreeMap<String, u64>;

/// One accepted event and its content hash (its file's name).
#[derive(Debug, Clone)]
pub struct Known {
    /// The SHA-256 of its bytes.
    pub hash: String,
    /// The event.
    pub event: Event,
}

/// An edit to a field that another device changed at the same time: not applied, waiting for the user.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    /// The document's sync id.
    pub document: String,
    /// The field, as a JSON Pointer into the merged document.
    pub path: String,
    /// What the merged document has there (`None`: nothing).
    pub ours: Option<Value>,
    /// What the held edit would put there (`None`: it removes it).
    pub theirs: Option<Value>,
    /// The device that made the held edit.
    pub device: String,
    /// The device whose edit is in the document.
    pub kept_from: String,
    /// The held event: its device and sequence number.
    pub event: (String, u64),
    /// The held edit's summary.
    pub summary: String,
    /// Why it could not land besides the clash, when there is more to say (it no longer applies, or the
    /// resume would break a rule).
    pub why: Option<String>,
}

/// A held operation: the device it clashes with (if known) and why, when there is more to say.
type Held<'o> = (&'o Operation, Option<String>, Option<String>);

impl Conflict {
    /// Why it waits, as the device `viewer` says it: "changed on DEVICE too", naming the other device.
    pub fn reason(&self, viewer: &str) -> String {
        let other = if viewer == self.device {
            &self.kept_from
        } else {
            &self.device
        };
        match &self.why {
            Some(why) => format!("changed on {other} too; {why}"),
            None => format!("changed on {other} too"),
        }
    }
}

/// What a merge says once to the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Notice {
    /// A document deleted on one device while another edited it: kept.
    KeptDespiteDelete {
        /// The document's sync id.
        document: String,
        /// The device that deleted it.
        deleted_on: String,
        /// The device that edited it.
        edited_on: String,
    },
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::KeptDespiteDelete {
                deleted_on,
                edited_on,
                ..
            } => write!(
                f,
                "this resume was deleted on {deleted_on} while {edited_on} edited it; it is kept"
            ),
        }
    }
}

/// A document as its events make it, and the state the replay goes on from when more events come.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// The document's sync id.
    pub id: String,
    /// Its content (`Null` until its creation is known).
    pub document: Value,
    /// Its title.
    pub title: String,
    /// True once its creation is known.
    pub created: bool,
    /// For a cover letter, the sync id of the resume it belongs to (`None`: a resume).
    pub letter_of: Option<String>,
    /// True for a job application (its document is an [`crate::event::ApplicationRecord`]).
    pub application: bool,
    /// True when it is deleted.
    pub deleted: bool,
    /// Edits held for the user.
    pub conflicts: Vec<Conflict>,
    /// What to tell the user.
    pub notices: Vec<Notice>,
    /// Operations applied.
    pub landed: usize,
    /// The last event replayed.
    pub head: Option<Stamp>,
    /// Every event replayed.
    pub seen: Vector,
    delete: Option<(String, u64)>,
    landed_edits: Vector,
    /// Per device, the document as it had it after its latest event here (and the events it knew).
    views: HashMap<String, (Vector, Value)>,
    /// The device whose view is the current document, not yet copied into `views`.
    view_is_current: Option<(String, Vector)>,
    /// Each landed operation's path, with its event: who changed a field, for a conflict's reason.
    written: Vec<(String, String, u64)>,
    /// How many replays of an edit's past this one is inside.
    depth: usize,
}

/// Replays already computed for one merge, by the events they hold (a bound keeps it small).
type Memo = HashMap<Vector, Value>;
const MEMO_LIMIT: usize = 64;
/// The deepest a replay of an edit's past may nest: files could be forged to nest without end; past it, an
/// edit is taken as made on the document as it stands (every device still decides the same).
const MAX_DEPTH: usize = 16;

impl Merged {
    /// An empty document with sync id `id`, before any event.
    pub fn new(id: &str) -> Merged {
        Merged {
            id: id.to_owned(),
            ..Merged::default()
        }
    }

    /// Replays every event of `all` after the last one replayed.
    pub fn catch_up(&mut self, all: &Events, policy: &Policy) {
        let mut memo = Memo::new();
        let from = self.head.clone();
        let rest: Vec<&Known> = match &from {
            Some(head) => all
                .range((
                    std::ops::Bound::Excluded(head.clone()),
                    std::ops::Bound::Unbounded,
                ))
                .map(|(_, k)| k)
                .collect(),
            None => all.values().collect(),
        };
        for known in rest {
            self.feed(&known.event, all, policy, &mut memo);
        }
    }

    /// Replays one event (which sorts after every event replayed so far).
    fn feed(&mut self, e: &Event, all: &Events, policy: &Policy, memo: &mut Memo) {
        let fast = e.parent == self.seen;
        if let Some((device, vector)) = self.view_is_current.take()
            && !(fast && device == e.device)
        {
            self.views.insert(device, (vector, self.document.clone()));
        }
        match &e.body {
            Body::Create { title, document } if !self.created => {
                self.create(e, title, document, None)
            }
            Body::Letter {
                title,
                resume,
                document,
            } if !self.created => self.create(e, title, document, Some(resume)),
            Body::Application { application } if !self.created => {
                let title = format!("{} — {}", application.company, application.role);
                let document = serde_json::to_value(application).unwrap_or_default();
                self.create(e, &title, &document, None);
                self.application = true;
            }
            // A second creation of one id is no Redline's: ignored.
            Body::Create { .. } | Body::Letter { .. } | Body::Application { .. } => {}
            Body::Moved { stage, date } => self.moved(stage, date),
            Body::Rename { title } => self.title = title.clone(),
            Body::Delete => self.delete(e),
            Body::Undelete => {
                self.deleted = false;
                self.delete = None;
            }
            Body::Edit {
                forward, summary, ..
            } => {
                let base = if fast {
                    None
                } else {
                    Some(self.base_for(e, all, policy, memo))
                };
                self.edit(e, forward, summary, base, policy);
            }
        }
        *self.seen.entry(e.device.clone()).or_default() = e.seq;
        self.head = Some(e.stamp());
    }

    fn create(&mut self, e: &Event, title: &str, document: &Value, letter_of: Option<&String>) {
        self.document = document.clone();
        self.title = title.to_owned();
        self.created = true;
        self.letter_of = letter_of.cloned();
        self.remember_view(e, None);
    }

    /// An application's move: one more entry on its timeline (both of two devices' moves are kept), and
    /// the stage of the last move in the agreed order. A move of anything but an application, or past
    /// the timeline's bound, changes nothing.
    fn moved(&mut self, stage: &str, date: &str) {
        if !self.application {
            return;
        }
        let Some(timeline) = self
            .document
            .get_mut("timeline")
            .and_then(Value::as_array_mut)
            .filter(|t| t.len() < crate::event::MAX_TIMELINE)
        else {
            return;
        };
        timeline.push(serde_json::json!({"stage": stage, "date": date}));
        self.document["stage"] = Value::String(stage.to_owned());
    }

    fn delete(&mut self, e: &Event) {
        let concurrent = self
            .landed_edits
            .iter()
            .find(|(device, seq)| !e.knows(device, **seq));
        match concurrent {
            Some((edited_on, _)) => self.notices.push(Notice::KeptDespiteDelete {
                document: self.id.clone(),
                deleted_on: e.device.clone(),
                edited_on: edited_on.clone(),
            }),
            None => {
                self.deleted = true;
                self.delete = Some((e.device.clone(), e.seq));
            }
        }
    }

    /// The document as `e`'s maker had it: its own latest view if it knew nothing new since, else the
    /// replay of the events it knew.
    fn base_for(&self, e: &Event, all: &Events, policy: &Policy, memo: &mut Memo) -> Value {
        if let Some((vector, view)) = self.views.get(&e.device)
            && *vector == e.parent
        {
            return view.clone();
        }
        if let Some(value) = memo.get(&e.parent) {
            return value.clone();
        }
        if self.depth >= MAX_DEPTH {
            return self.document.clone();
        }
        let mut past = Merged::new(&self.id);
        past.depth = self.depth + 1;
        for known in all.values() {
            let x = &known.event;
            if e.knows(&x.device, x.seq) {
                past.feed(x, all, policy, memo);
            }
        }
        if memo.len() < MEMO_LIMIT {
            memo.insert(e.parent.clone(), past.document.clone());
        }
        past.document
    }

    /// Records that `e`'s maker now has `view` (`None`: the current document).
    fn remember_view(&mut self, e: &Event, view: Option<Value>) {
        let mut vector = e.parent.clone();
        vector.insert(e.device.clone(), e.seq);
        match view {
            Some(view) => {
                self.views.insert(e.device.clone(), (vector, view));
            }
            None => self.view_is_current = Some((e.device.clone(), vector)),
        }
    }

    fn edit(
        &mut self,
        e: &Event,
        ops: &[Operation],
        summary: &str,
        base: Option<Value>,
        policy: &Policy,
    ) {
        let fast = base.is_none();
        // `maker_view`: the document as `e`'s maker had it after `e` (`None`: the candidate).
        let (candidate, mut held, maker_view) = match base {
            None => {
                let mut candidate = self.document.clone();
                match apply(&mut candidate, ops) {
                    Ok(()) => (candidate, Vec::new(), None),
                    Err(err) => {
                        let held = ops
                            .iter()
                            .map(|op| (op, None, Some(err.reason.clone())))
                            .collect();
                        (self.document.clone(), held, None)
                    }
                }
            }
            Some(base) => {
                let (candidate, held, theirs) = self.carry_over(e, ops, base);
                (candidate, held, Some(theirs))
            }
        };
        let mut landed = ops.len() - held.len();
        if landed > 0
            && let Err(err) = self.check_whole(&candidate, policy)
        {
            // The edits together break the document: none lands, each waits with the reason.
            let reason = err.to_string();
            held = ops
                .iter()
                .map(|op| (op, None, Some(reason.clone())))
                .collect();
            landed = 0;
        }
        let all_landed = landed == ops.len();
        let maker_view = match maker_view {
            Some(view) => Some(view),
            None if fast && all_landed => None,
            None => Some(candidate.clone()),
        };
        if landed > 0 {
            self.land(e, ops, &held, candidate);
        }
        for (op, kept_from, reason) in held {
            self.hold(e, op, summary, kept_from, reason);
        }
        self.remember_view(e, maker_view);
    }

    /// Checks what the document would be, whole: a valid resume, or a valid letter.
    fn check_whole(&self, candidate: &Value, policy: &Policy) -> Result<(), PolicyError> {
        match self.letter_of {
            None => policy.check_bundle(candidate, &[]),
            Some(_) => policy.check_letter(candidate),
        }
    }

    /// Makes `candidate` the document: `ops` of `e` landed, but those `held`.
    fn land(&mut self, e: &Event, ops: &[Operation], held: &[Held<'_>], candidate: Value) {
        self.document = candidate;
        for op in ops {
            if !held.iter().any(|(h, ..)| std::ptr::eq(*h, op)) {
                self.written
                    .push((op.path().to_owned(), e.device.clone(), e.seq));
                self.landed += 1;
            }
        }
        self.landed_edits.insert(e.device.clone(), e.seq);
        if let Some((device, seq)) = self.delete.clone()
            && !e.knows(&device, seq)
        {
            self.notices.push(Notice::KeptDespiteDelete {
                document: self.id.clone(),
                deleted_on: device,
                edited_on: e.device.clone(),
            });
            self.deleted = false;
            self.delete = None;
        }
    }

    /// Carries each of `ops` (made on `base`) over to the current document. Returns the document with
    /// those that could land, the held ones (with the device they clash with, if known, and why), and the
    /// document as `e`'s maker had it after them.
    fn carry_over<'o>(
        &self,
        e: &Event,
        ops: &'o [Operation],
        base: Value,
    ) -> (Value, Vec<Held<'o>>, Value) {
        let mut theirs = base;
        let mut candidate = self.document.clone();
        let mut held = Vec::new();
        for op in ops {
            match self.place(e, op, &theirs, &candidate) {
                Ok(moved) => {
                    if let Err(err) = apply(&mut candidate, std::slice::from_ref(&moved)) {
                        held.push((op, None, Some(err.reason)));
                    }
                }
                Err(kept_from) => {
                    held.push((op, Some(kept_from), None));
                }
            }
            // The maker's document moves on with every operation, landed here or not.
            let _ = apply(&mut theirs, std::slice::from_ref(op));
        }
        (candidate, held, theirs)
    }

    /// `op` as it must read in `current`, or the device whose concurrent edit changed what it changes.
    fn place(
        &self,
        e: &Event,
        op: &Operation,
        base: &Value,
        current: &Value,
    ) -> Result<Operation, String> {
        let moved = match rebase(base, current, std::slice::from_ref(op)) {
            Ok(mut ops) if ops.len() == 1 => ops.remove(0),
            _ => return Err(self.who_changed(e, op.path())),
        };
        let pairs: Vec<(&str, &str, bool)> = match (op, &moved) {
            (Operation::Test { .. }, _) => Vec::new(),
            (Operation::Move { from, path }, Operation::Move { from: f2, path: p2 }) => {
                vec![(from, f2, false), (path, p2, true)]
            }
            _ => vec![(op.path(), moved.path(), is_insert(op, base))],
        };
        for (was_at, now_at, insert) in pairs {
            if insert {
                continue; // an insertion into a list: both devices' items land
            }
            let now = pointer::get(current, now_at);
            if op.value().is_some() && op.value() == now {
                continue; // both devices wrote the same: nothing to ask
            }
            // A concurrent edit wrote here (even one that later wrote the old value back), or the field is
            // not what the maker saw: either way, not guessed.
            if let Some(device) = self.concurrent_writer(e, now_at) {
                return Err(device);
            }
            if pointer::get(base, was_at) != now {
                return Err(self.who_changed(e, now_at));
            }
        }
        Ok(moved)
    }

    /// The device of the latest landed edit to `path` (or around or inside it) that `e` did not know of.
    fn concurrent_writer(&self, e: &Event, path: &str) -> Option<String> {
        let overlaps = |p: &str| pointer::is_within(p, path) || pointer::is_within(path, p);
        self.written
            .iter()
            .rev()
            .find(|(p, device, seq)| !e.knows(device, *seq) && *device != e.device && overlaps(p))
            .map(|(_, device, _)| device.clone())
    }

    /// The device of the latest concurrent edit to `path`, else of any concurrent event.
    fn who_changed(&self, e: &Event, path: &str) -> String {
        self.concurrent_writer(e, path)
            .or_else(|| {
                self.seen
                    .iter()
                    .find(|(device, seq)| **device != e.device && !e.knows(device, **seq))
                    .map(|(device, _)| device.clone())
            })
            .unwrap_or_else(|| "another device".to_owned())
    }

    fn hold(
        &mut self,
        e: &Event,
        op: &Operation,
        summary: &str,
        kept_from: Option<String>,
        why: Option<String>,
    ) {
        let kept_from = kept_from.unwrap_or_else(|| self.who_changed(e, op.path()));
        self.conflicts.push(Conflict {
            document: self.id.clone(),
            path: op.path().to_owned(),
            ours: pointer::get(&self.document, op.path()).cloned(),
            theirs: op.value().cloned(),
            device: e.device.clone(),
            kept_from,
            event: (e.device.clone(), e.seq),
            summary: summary.to_owned(),
            why,
        });
    }
}

/// True when `op` inserts into a list (an `add` at an index or `-` of an array): never a clash.
fn is_insert(op: &Operation, base: &Value) -> bool {
    let Operation::Add { path, .. } = op else {
        return false;
    };
    path.rsplit_once('/')
        .is_some_and(|(parent, _)| pointer::get(base, parent).is_some_and(Value::is_array))
}
