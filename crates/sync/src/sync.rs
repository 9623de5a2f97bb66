//! One sync with a folder: read the files not read yet, take their events, write the events the folder
//! lacks (this device's new ones, and any a restored folder lost), merge what changed.

use std::collections::{BTreeSet, HashSet};

use serde::Serialize;

use crate::error::SyncError;
use crate::event::{Event, Unreadable, hash_of, is_hash};
use crate::folder::{Entry, Folder};
use crate::merge::Known;
use crate::replica::{Received, Replica};

/// A file left for now, and why (it is tried again on the next sync unless it can never be read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The file, as `device/name`.
    pub file: String,
    /// Why, in words.
    pub reason: String,
}

/// The most files a report names as skipped; the rest are counted ([`Report::skipped_unnamed`]).
pub const MAX_SKIPPED_NAMED: usize = 1_000;

/// What one sync did.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Files read (new to this device).
    pub read: usize,
    /// Events accepted from them.
    pub accepted: usize,
    /// Files that held an event already known (a copy under another name, say).
    pub duplicates: usize,
    /// Files written.
    pub written: usize,
    /// Bytes written.
    pub bytes_written: u64,
    /// Of the files written, those the folder had lost (restored from an older copy).
    pub rewritten: usize,
    /// Files left for now, each named, at most [`MAX_SKIPPED_NAMED`] of them.
    pub skipped: Vec<Skipped>,
    /// Files left for now beyond those named.
    pub skipped_unnamed: usize,
    /// Files not read in this sync because it read as much as one sync may ([`Folder::max_pass_bytes`]):
    /// the next sync reads them.
    pub left_for_next: usize,
    /// Documents (sync ids) that changed.
    pub changed: Vec<String>,
}

impl Report {
    /// Notes a file left for now: named while fewer than [`MAX_SKIPPED_NAMED`] are, counted after.
    fn skip(&mut self, file: String, reason: impl Into<String>) {
        if self.skipped.len() < MAX_SKIPPED_NAMED {
            self.skipped.push(Skipped {
                file,
                reason: reason.into(),
            });
        } else {
            self.skipped_unnamed += 1;
        }
    }
}

/// What a device remembers of a folder between syncs: the files read, so a sync reads only new ones,
/// and the events written.
#[derive(Debug, Clone, Default)]
pub struct FolderState {
    read: HashSet<String>,
    /// Of `read`, the files first read since the state was made (those a device has yet to keep).
    fresh: Vec<String>,
    written: HashSet<String>,
    /// Every event of this device up to this sequence number is in the folder: a sync that does not list
    /// the folder writes those after it.
    own_through: u64,
}

impl FolderState {
    /// The state a device kept between runs: the files it read (see [`FolderState::files`]).
    pub fn remembering(read: impl IntoIterator<Item = String>) -> FolderState {
        FolderState {
            read: read.into_iter().collect(),
            fresh: Vec::new(),
            written: HashSet::new(),
            own_through: 0,
        }
    }

    /// Marks `file` read.
    fn mark_read(&mut self, file: String) {
        if !self.read.contains(&file) {
            self.fresh.push(file.clone());
            self.read.insert(file);
        }
    }

    /// Starts another sync with the same state (a program that syncs again and again keeps it): the files
    /// read before stay read, and [`FolderState::fresh_files`] starts empty.
    pub fn begin_again(&mut self) {
        self.fresh.clear();
    }

    /// The files first read since [`FolderState::remembering`] made the state (or
    /// [`FolderState::begin_again`] began a sync), as `device/name`: what a device adds to what it keeps
    /// (keeping them all again each time would cost the whole history).
    pub fn fresh_files(&self) -> impl Iterator<Item = &String> {
        self.fresh.iter()
    }

    /// How many files were read.
    pub fn files_read(&self) -> usize {
        self.read.len()
    }

    /// The files read, as `device/name`, for a device to keep.
    pub fn files(&self) -> impl Iterator<Item = &String> {
        self.read.iter()
    }
}

/// Syncs `replica` with `folder` once: lists the folder, reads the files not read before, and writes
/// every event known here whose file the folder lacks (this device's new ones, and any a folder restored
/// from an older copy lost).
pub fn sync(
    replica: &mut Replica,
    folder: &Folder,
    state: &mut FolderState,
) -> Result<Report, SyncError> {
    let mut report = Report::default();
    let entries = folder.list()?;
    let changed = read_new(replica, folder, state, &entries, &mut report)?;
    write_missing(replica, folder, state, &entries, &mut report)?;
    Ok(merged(replica, changed, report))
}

/// Syncs `replica` with the files `appeared` alone (those a watch on the folder saw arrive), without
/// listing the folder: reads those not read before and writes this device's events made since the last
/// sync with `state`. Its cost grows with what changed, not with the history. A file lost from the folder
/// is not noticed here: [`sync()`](fn@sync) notices it.
pub fn sync_changed(
    replica: &mut Replica,
    folder: &Folder,
    state: &mut FolderState,
    appeared: &[Entry],
) -> Result<Report, SyncError> {
    let mut report = Report::default();
    let changed = read_new(replica, folder, state, appeared, &mut report)?;
    write_own_new(replica, folder, state, &mut report)?;
    Ok(merged(replica, changed, report))
}

/// The report, with the documents that gained events merged again and named.
fn merged(replica: &mut Replica, changed: BTreeSet<String>, mut report: Report) -> Report {
    for document in &changed {
        replica.merged(document);
    }
    report.changed = changed.into_iter().collect();
    report
}

/// Reads `folder`'s files into `replica` and writes nothing (what a folder holds, looked at before it is
/// chosen). Returns the documents that gained events.
pub fn look(
    replica: &mut Replica,
    folder: &Folder,
    state: &mut FolderState,
) -> Result<BTreeSet<String>, SyncError> {
    let entries = folder.list()?;
    read_new(replica, folder, state, &entries, &mut Report::default())
}

/// Reads this device's own files that it does not know, before it records anything: after its database
/// was restored from a backup, the folder holds events it made later and no longer remembers, and a new
/// event must not take one of their sequence numbers (the other devices would refuse it as a forgery of
/// one they have). Those events come back with them. Returns how many were read.
pub fn read_own(
    replica: &mut Replica,
    folder: &Folder,
    state: &mut FolderState,
) -> Result<usize, SyncError> {
    let entries = folder.list_device(replica.device())?;
    let mut report = Report::default();
    read_new(replica, folder, state, &entries, &mut report)?;
    Ok(report.read)
}

/// Reads the files not read before; returns the documents that gained events.
fn read_new(
    replica: &mut Replica,
    folder: &Folder,
    state: &mut FolderState,
    entries: &[Entry],
    report: &mut Report,
) -> Result<BTreeSet<String>, SyncError> {
    let mut incoming: Vec<(String, String, Event)> = Vec::new();
    let mut bytes_read = 0;
    for entry in entries {
        let key = entry.key();
        if state.read.contains(&key) {
            continue;
        }
        if !entry.plain {
            report.skip(
                key,
                "it is a link, a pipe or a folder, not a plain file: Redline never opens it",
            );
            continue;
        }
        if bytes_read >= folder.max_pass_bytes() {
            report.left_for_next += 1;
            continue;
        }
        let Some(bytes) = folder.read(entry)? else {
            report.skip(
                key,
                "it is larger than a Redline sync file can be, or no longer a plain file",
            );
            continue;
        };
        bytes_read += bytes.len() as u64;
        report.read += 1;
        match take(replica, entry, &bytes) {
            Ok(None) => {
                report.duplicates += 1;
                state.mark_read(key);
            }
            Ok(Some((hash, event))) => incoming.push((key, hash, event)),
            Err(reason) => report.skip(key, reason),
        }
    }
    // In the agreed order, an event's parents come before it: few wait.
    incoming.sort_by_cached_key(|a| a.2.stamp());
    let mut changed = BTreeSet::new();
    for (key, hash, event) in incoming {
        let document = event.document.clone();
        match replica.receive(&hash, event) {
            Received::New(woken) => {
                report.accepted += 1 + woken;
                changed.insert(document);
            }
            Received::Known => report.duplicates += 1,
            Received::Waiting => {}
            Received::Refused(reason) => report.skip(key.clone(), reason),
        }
        state.mark_read(key);
    }
    Ok(changed)
}

/// The event in a file's bytes (`None`: one already known), or why it is left for now.
fn take(replica: &Replica, entry: &Entry, bytes: &[u8]) -> Result<Option<(String, Event)>, String> {
    let hash = hash_of(bytes);
    let stem = entry.name.strip_suffix(".json").unwrap_or(&entry.name);
    if is_hash(stem) && stem != hash {
        return Err("it does not match its name yet (still being copied?)".to_owned());
    }
    if replica.knows_hash(&hash) {
        return Ok(None);
    }
    let event = Event::decode(bytes, replica.policy()).map_err(|e| match e {
        Unreadable::Invalid(why) => format!("it cannot be read: {why}"),
        other => other.to_string(),
    })?;
    if event.device != entry.device {
        return Err(format!(
            "it says device {} made it, but it lies in the folder of {}",
            event.device, entry.device
        ));
    }
    Ok(Some((hash, event)))
}

/// Writes every known event whose file the folder lacks.
fn write_missing(
    replica: &Replica,
    folder: &Folder,
    state: &mut FolderState,
    entries: &[Entry],
    report: &mut Report,
) -> Result<(), SyncError> {
    let present = Folder::present(entries);
    for known in replica.events() {
        if present.contains(known.hash.as_str()) {
            if !state.written.contains(&known.hash) {
                state.written.insert(known.hash.clone());
            }
            continue;
        }
        write(folder, state, known, report)?;
    }
    // Every event known is in the folder now, this device's own among them.
    state.own_through = replica.next_seq() - 1;
    Ok(())
}

/// Writes this device's events made since the last sync with `state` (those the folder already has are
/// left as they are).
fn write_own_new(
    replica: &Replica,
    folder: &Folder,
    state: &mut FolderState,
    report: &mut Report,
) -> Result<(), SyncError> {
    for seq in state.own_through + 1..replica.next_seq() {
        // A number with no event accepted here: one of its own files read back that waits, in the folder.
        if let Some(known) = replica.own_event(seq) {
            write(folder, state, known, report)?;
        }
    }
    state.own_through = replica.next_seq() - 1;
    Ok(())
}

/// Writes `known`'s file unless the folder has it, and counts it.
fn write(
    folder: &Folder,
    state: &mut FolderState,
    known: &Known,
    report: &mut Report,
) -> Result<(), SyncError> {
    let bytes = folder.write(known)?;
    if bytes > 0 {
        report.written += 1;
        report.bytes_written += bytes;
        if !state.written.insert(known.hash.clone()) {
            report.rewritten += 1;
        }
        state.mark_read(format!("{}/{}.json", known.event.device, known.hash));
    }
    Ok(())
}
