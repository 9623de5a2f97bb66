//! One sync pass ([`pass`]): this device's changes out, the place's new files in, merged and brought
//! into the store. A pass goes on from the replica the engine's last pass built ([`KeptReplica`]) when it
//! can, and then may read only the files a watch on the folder saw arrive ([`Scope::Appeared`]): what it
//! costs then grows with what changed, not with the history.

use std::path::{Path, PathBuf};

use redline_store::{Store, SyncEvent};
use redline_sync::{Event, Folder, FolderState, GitRemote, Known, Replica};

use super::{
    SkippedFile, SyncPlace, SyncSummary, applications, bring_in, device_of, library_of,
    send_changes,
};
use crate::error::{Error, ErrorKind};
use crate::settings::{self, Kept};

/// The most files a pass reads as [`Scope::Appeared`]; a watch that saw more asks for a whole pass. At
/// most this many files of the largest size one can be stay under what one pass may read
/// ([`redline_sync::folder::MAX_PASS_BYTES`]), so such a pass never leaves a file for the next one.
pub const MAX_APPEARED: usize = 200;
const _: () = assert!(
    MAX_APPEARED as u64 * redline_sync::event::MAX_FILE_BYTES
        < redline_sync::folder::MAX_PASS_BYTES
);

/// What a pass reads of the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// All of it: the folder listed (the remote pulled first), every file not read before read, and every
    /// event the folder lacks written (a folder restored from an older copy gets back what it lost).
    Whole,
    /// The files at these paths alone, which a watch on the folder saw arrive (none: only this device's
    /// changes go out), at most [`MAX_APPEARED`]. Taken by a pass that goes on from the last one's replica
    /// through the same folder; any other pass, or a path outside the folder, reads it whole.
    Appeared(Vec<PathBuf>),
}

/// Reads this device's own events from the place that it does not remember, before it records anything
/// (see `redline_sync::read_own`: its database may have been restored from a backup). A place that holds
/// no library yet, or another one, is left to the pass to say so.
fn read_own(
    store: &Store,
    place: &SyncPlace,
    git_dir: Option<&Path>,
    replica: &mut Replica,
    state: &mut FolderState,
) -> Result<(), Error> {
    let root = match place {
        SyncPlace::Folder { path } => Path::new(path),
        SyncPlace::Git { .. } => match git_dir {
            Some(dir) => dir,
            None => return Ok(()),
        },
    };
    let mine = settings::get(store, Kept::SyncLibrary)?;
    if let Some((folder, library)) = Folder::existing(root)?
        && mine.as_deref() == Some(library.as_str())
    {
        redline_sync::read_own(replica, &folder, state)?;
    }
    Ok(())
}

/// What a sync pass leaves for the next one of the same engine: the replica it built and what it knew of
/// the folder. Building a replica reads and checks every event kept (the whole history), and the files
/// read are as many; going on from these costs what changed since.
pub(crate) struct KeptReplica {
    /// The store's events as the pass left them ([`Store::sync_events_mark`]).
    mark: i64,
    /// What had been written to the store when the pass ended ([`Store::writes_mark`]): the same after,
    /// nothing was done since, and there is nothing to send.
    writes: (u64, i64),
    device: String,
    /// Where the pass synced: another place's files are all new.
    place: SyncPlace,
    replica: Replica,
    state: FolderState,
}

impl KeptReplica {
    /// True when something was written to the store since [`KeptReplica::written_until_now`] (something
    /// may go out).
    pub(crate) fn store_changed(&self, store: &Store) -> Result<bool, Error> {
        Ok(store.writes_mark()? != self.writes)
    }

    /// Notes that what the store holds now went out (the pass's own writes are not edits to send).
    pub(crate) fn written_until_now(&mut self, store: &Store) -> Result<(), Error> {
        self.writes = store.writes_mark()?;
        Ok(())
    }
}

/// One pass: out, in, merged (see the module's words). Goes on from `last`, the replica this engine's last
/// pass built, when the store's events are still as that pass left them (no other process synced since),
/// and only then reads the place as `scope` says (else whole); returns what it built for the next.
pub(super) fn pass(
    store: &mut Store,
    place: &SyncPlace,
    git: GitAccess,
    last: Option<KeptReplica>,
    scope: Scope,
) -> Result<(SyncSummary, KeptReplica), Error> {
    let device = device_of(store)?;
    let mark = store.sync_events_mark()?;
    let (mut replica, mut state, scope) = match last {
        Some(last) if last.device == device && last.mark == mark && last.place == *place => {
            let mut state = last.state;
            state.begin_again();
            (last.replica, state, scope)
        }
        _ => {
            let mut replica = replica_of(store, &device)?;
            let mut state = FolderState::remembering(store.sync_files_read()?);
            read_own(store, place, git.dir.as_deref(), &mut replica, &mut state)?;
            (replica, state, Scope::Whole)
        }
    };
    let mut summary = SyncSummary {
        place: Some(place.clone()),
        device: device.clone(),
        ..SyncSummary::default()
    };
    let (sent, unsent) = send_changes(store, &mut replica, &mut summary)?;
    summary.sent = sent.len();
    // What this device recorded, and any of its own events read back first, are kept: the folder's new
    // events are what is accepted after.
    let own: Vec<SyncEvent> = replica.take_accepted().iter().map(to_keep).collect();
    store.keep_sync_events(&own, &[])?;

    let report = through(store, place, git, &mut replica, &mut state, scope)?;
    let new: Vec<SyncEvent> = replica.take_accepted().iter().map(to_keep).collect();
    // A file counts as read for good once its event is accepted: one whose event waits for another is
    // read again next time (the wait is not kept), as is a copy under another name.
    let files: Vec<String> = state
        .fresh_files()
        .filter(|file| {
            file.rsplit('/')
                .next()
                .and_then(|name| name.strip_suffix(".json"))
                .is_some_and(|hash| replica.knows_hash(hash))
        })
        .cloned()
        .collect();
    store.keep_sync_events(&new, &files)?;

    bring_in(store, &mut replica, &unsent, &mut summary)?;
    applications::bring_in(store, &mut replica, &mut summary)?;
    take_report(&mut summary, report);
    summary.devices = replica
        .devices()
        .filter(|d| *d != device)
        .map(str::to_owned)
        .collect();
    let now = redline_store::now_ms();
    settings::set(store, Kept::SyncLast, &now.to_string())?;
    summary.last_synced_at = Some(now);
    let kept = KeptReplica {
        mark: store.sync_events_mark()?,
        writes: store.writes_mark()?,
        device,
        place: place.clone(),
        replica,
        state,
    };
    Ok((summary, kept))
}

/// What the folder's side of a pass did, into the summary: counts, the files left and why, in words.
fn take_report(summary: &mut SyncSummary, report: redline_sync::Report) {
    summary.read = report.read;
    summary.accepted = report.accepted;
    summary.written = report.written;
    summary.bytes_written = report.bytes_written;
    summary.skipped = report
        .skipped
        .into_iter()
        .map(|s| SkippedFile {
            file: s.file,
            reason: s.reason,
        })
        .collect();
    if report.skipped_unnamed > 0 {
        summary.notices.push(format!(
            "{} more files in the sync folder were left for now, as those listed were",
            report.skipped_unnamed
        ));
    }
    if report.left_for_next > 0 {
        summary.notices.push(format!(
            "{} files were left for the next sync: one sync reads at most {} MiB of the folder's files",
            report.left_for_next,
            redline_sync::folder::MAX_PASS_BYTES >> 20
        ));
    }
}

/// This device's replica as the store kept it. Each kept event is checked again as it is read back (a
/// database restored from a backup is no more trusted than the folder); one that no longer reads is left
/// out.
fn replica_of(store: &Store, device: &str) -> Result<Replica, Error> {
    let mut replica = Replica::new(device)?;
    for event in store.sync_events()? {
        if let Ok(read) = Event::decode(&event.bytes, replica.policy()) {
            replica.receive(&event.hash, read);
        }
    }
    // Every one of them is kept already: what is accepted from now on is new.
    replica.track_accepted();
    Ok(replica)
}

/// What a pass through a git remote needs besides its address.
pub(super) struct GitAccess {
    /// The working copy (none without a data folder).
    pub(super) dir: Option<PathBuf>,
    /// What to give the remote when it asks (from the keychain).
    pub(super) credentials: Option<redline_sync::Credentials>,
}

/// The files in and out, through the folder or the git remote (pulled first, pushed after).
fn through(
    store: &mut Store,
    place: &SyncPlace,
    git: GitAccess,
    replica: &mut Replica,
    state: &mut FolderState,
    scope: Scope,
) -> Result<redline_sync::Report, Error> {
    Ok(match place {
        SyncPlace::Folder { path } => {
            let library = library_of(store, Path::new(path))?;
            let folder = Folder::open(Path::new(path), &library)?;
            match appeared(&folder, scope) {
                Some(entries) => redline_sync::sync_changed(replica, &folder, state, &entries)?,
                None => redline_sync::sync(replica, &folder, state)?,
            }
        }
        SyncPlace::Git { url } => {
            let dir = git.dir.ok_or_else(|| {
                Error::new(ErrorKind::NotFound, "a git remote needs a data folder")
            })?;
            let remote = GitRemote::open(&dir, url)?.with_credentials(git.credentials);
            remote.pull()?;
            let library = library_of(store, &remote.folder())?;
            let folder = Folder::open(&remote.folder(), &library)?;
            let report = redline_sync::sync(replica, &folder, state)?;
            remote.push()?;
            report
        }
    })
}

/// The folder's files a pass of `scope` reads without listing the folder, or `None` when it lists it: a
/// whole pass, more files than [`MAX_APPEARED`], or a path that does not lie in the folder.
fn appeared(folder: &Folder, scope: Scope) -> Option<Vec<redline_sync::folder::Entry>> {
    let Scope::Appeared(paths) = scope else {
        return None;
    };
    if paths.len() > MAX_APPEARED {
        return None;
    }
    let mut entries = Vec::with_capacity(paths.len());
    for path in &paths {
        entries.extend(folder.entry_at(path).ok()?);
    }
    Some(entries)
}

fn to_keep(known: &Known) -> SyncEvent {
    SyncEvent {
        hash: known.hash.clone(),
        device: known.event.device.clone(),
        seq: known.event.seq,
        bytes: known.event.encode().1,
    }
}
