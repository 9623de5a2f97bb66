//! What the engine keeps in the store's settings between runs, by typed key: review mode, the job posting
//! a tailored copy was made for, and the edits held for the user's confirmation. Both front doors read and
//! write them here, so that the app and the `redline` command line agree on what each means.

use redline_agent::Held;
use redline_patch::Policy;
use redline_store::Store;

use crate::error::{Error, ErrorKind};

/// A setting the engine keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// Review mode: every AI edit waits for the user's Accept (`on`; off when absent).
    Review,
    /// The job posting resume `id` is tailored to.
    Job(i64),
    /// The edits held for the user's confirmation on resume `id` (JSON, oldest first).
    Held(i64),
    /// The writing check's rules the user turned off (a JSON list of rule ids).
    RulesOff,
    /// The sync folder (empty or absent: none).
    SyncFolder,
    /// The sync's git remote (empty or absent: none).
    SyncGit,
    /// This device's id, made on its first sync.
    SyncDevice,
    /// The library this device's resumes sync in (the sync folder's marker names it).
    SyncLibrary,
    /// When this device last synced, milliseconds since 1970.
    SyncLast,
    /// The clashes already held and the notices already said (a JSON list of keys): each once.
    SyncTold,
}

impl Kept {
    /// Its key in the store's settings.
    pub fn key(self) -> String {
        match self {
            Kept::Review => "app.review".to_owned(),
            Kept::Job(id) => format!("job:{id}"),
            Kept::Held(id) => format!("held:{id}"),
            Kept::RulesOff => "app.lint.off".to_owned(),
            Kept::SyncFolder => "sync.folder".to_owned(),
            Kept::SyncGit => "sync.git".to_owned(),
            Kept::SyncDevice => "sync.device".to_owned(),
            Kept::SyncLibrary => "sync.library".to_owned(),
            Kept::SyncLast => "sync.last".to_owned(),
            Kept::SyncTold => "sync.told".to_owned(),
        }
    }
}

/// The value kept under `what`, if any.
pub fn get(store: &Store, what: Kept) -> Result<Option<String>, Error> {
    Ok(store.setting(&what.key())?)
}

/// Keeps `value` under `what`.
pub fn set(store: &mut Store, what: Kept, value: &str) -> Result<(), Error> {
    Ok(store.set_setting(&what.key(), value)?)
}

/// The job posting resume `document_id` is tailored to, if it is a tailored copy.
pub fn job_of(store: &Store, document_id: i64) -> Result<Option<String>, Error> {
    get(store, Kept::Job(document_id))
}

/// Whether review mode is on (off by default).
pub fn review_mode(store: &Store) -> Result<bool, Error> {
    Ok(get(store, Kept::Review)?.as_deref() == Some("on"))
}

/// Turns review mode on or off.
pub fn set_review_mode(store: &mut Store, on: bool) -> Result<(), Error> {
    set(store, Kept::Review, if on { "on" } else { "off" })
}

/// The edits held for the user on resume `document_id`, oldest first (kept across restarts). A value that
/// cannot be read counts as none.
pub fn held_of(store: &Store, document_id: i64) -> Result<Vec<Held>, Error> {
    Ok(get(store, Kept::Held(document_id))?
        .and_then(|saved| serde_json::from_str(&saved).ok())
        .unwrap_or_default())
}

/// Adds `held` to what waits for the user on resume `document_id` (at most the policy's `max_held`
/// bundles are kept: the oldest go first).
pub fn keep_held(store: &mut Store, document_id: i64, held: &[Held]) -> Result<(), Error> {
    if held.is_empty() {
        return Ok(());
    }
    let mut all = held_of(store, document_id)?;
    all.extend(held.iter().cloned());
    let keep = Policy::default().max_held;
    if all.len() > keep {
        all.drain(..all.len() - keep);
    }
    save_held(store, document_id, &all)
}

/// Takes `held` — held edits, or some operations of them — off the list of what waits for the user
/// (applied, or discarded); the rest of their bundle keeps waiting.
pub fn drop_held(store: &mut Store, held: &Held) -> Result<(), Error> {
    let mut all = held_of(store, held.document_id)?;
    for waiting in all.iter_mut().filter(|w| w.base == held.base) {
        if held.ops.iter().all(|op| waiting.ops.contains(op)) {
            let left: Vec<usize> = (0..waiting.ops.len())
                .filter(|&i| !held.ops.contains(&waiting.ops[i]))
                .collect();
            fn kept<T: Clone>(all: &[T], left: &[usize]) -> Vec<T> {
                left.iter().filter_map(|&i| all.get(i).cloned()).collect()
            }
            waiting.why = kept(&waiting.why, &left);
            waiting.descriptions = kept(&waiting.descriptions, &left);
            waiting.ops = kept(&waiting.ops, &left);
            break;
        }
    }
    all.retain(|w| !w.ops.is_empty());
    save_held(store, held.document_id, &all)
}

fn save_held(store: &mut Store, document_id: i64, all: &[Held]) -> Result<(), Error> {
    let value =
        serde_json::to_string(all).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    set(store, Kept::Held(document_id), &value)
}
