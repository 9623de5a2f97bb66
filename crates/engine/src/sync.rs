//! Sync: the user's resumes on every device they own, through a folder their cloud drive carries
//! (`redline sync folder PATH`) or a git remote they own (`redline sync git URL`). There is no Redline
//! server and no account; the database never goes into the folder.
//!
//! One pass ([`Engine::sync_now`]; `sync/pass.rs`):
//! 1. This device's changes since the last pass go out as events, each revision its own, made on the
//!    history as it stood at the last pass: an edit another device made offline to the same field is
//!    then seen as made at the same time, and not guessed.
//! 2. The folder's new files come in (`redline_sync::sync`): bounded, checked against the schema and the
//!    policy, skipped and said when incomplete or forged.
//! 3. Each document as the merge makes it comes back: a revision whose source is `sync`, a new document, a
//!    rename, a delete. An edit that clashed with another device's waits as a held edit, "changed on
//!    DEVICE too", for the user to pick; picking it is an edit like any other, which goes out next pass.
//!
//! What a pass keeps between runs is in the store (the events accepted, which document each synced one
//! is, the files read). Resumes and their variants travel with their designs, cover letters with the
//! resume they belong to, and job applications with their timelines and what they sent
//! (`sync/applications.rs`); API keys, provider settings and window state never do. A git remote's token
//! is kept in the OS keychain (`sync/credentials.rs`).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use redline_agent::Held;
use redline_patch::{Hold, Operation};
use redline_store::{Change, DocumentKind, DocumentSummary, Source, Store, SyncedDocument};
use redline_sync::{Body, Conflict, Folder, FolderState, Known, Notice, Replica};
use serde::Serialize;
use serde_json::Value;

mod applications;
mod credentials;
mod pass;

pub(crate) use pass::KeptReplica;
/// The most files [`Engine::sync_appeared`] reads without listing the folder.
pub use pass::MAX_APPEARED;
use pass::{GitAccess, Scope, pass};

use super::Engine;
use crate::error::{Error, ErrorKind};
use crate::settings::{self, Kept};

/// The folder Redline keeps inside the sync folder the user chose (the one to watch for changes).
pub use redline_sync::folder::DIR as SYNC_DIR;
/// True for another device's event file in the sync folder (what wakes a watch on it).
pub use redline_sync::folder::{is_another_devices_file, is_another_devices_folder};
/// What each program calls first thing in `main`, before any thread: lets HTTPS git remotes find the
/// system's certificate authorities (see its own words).
pub use redline_sync::start_before_threads;

/// The folder, inside the data folder, that holds the git remote's working copy.
const GIT_DIR: &str = "sync-git";

/// Where this device syncs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum SyncPlace {
    /// A folder a sync engine carries (Syncthing, Dropbox, iCloud Drive, OneDrive, Nextcloud).
    Folder {
        /// The folder, as the user named it.
        path: String,
    },
    /// A git remote the user owns.
    Git {
        /// Its address.
        url: String,
    },
}

/// A file left for now, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct SkippedFile {
    /// The file, as `device/name`.
    pub file: String,
    /// Why, in words.
    pub reason: String,
}

/// What a sync did, and where things stand.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncSummary {
    /// Where this device syncs (none: sync is off).
    pub place: Option<SyncPlace>,
    /// This device's id.
    pub device: String,
    /// Changes this device sent.
    pub sent: usize,
    /// Files read (new to this device).
    pub read: usize,
    /// Changes taken from them.
    pub accepted: usize,
    /// Files written.
    pub written: usize,
    /// Bytes written.
    #[ts(type = "number")]
    pub bytes_written: u64,
    /// Files left for now, and why.
    pub skipped: Vec<SkippedFile>,
    /// Resumes new on this device.
    pub brought_in: Vec<String>,
    /// Resumes another device changed.
    pub updated: Vec<String>,
    /// Resumes another device deleted.
    pub deleted: Vec<String>,
    /// Edits waiting for the user's choice (new this pass).
    pub held: usize,
    /// What to tell the user.
    pub notices: Vec<String>,
    /// The other devices seen.
    pub devices: Vec<String>,
    /// When this device last synced, milliseconds since 1970.
    #[ts(type = "number | null")]
    pub last_synced_at: Option<i64>,
}

/// What a folder holds that this device has not brought in yet: looked at before the folder is chosen, so
/// that the window can offer to bring them in.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderHolds {
    /// The folder, made absolute.
    pub path: String,
    /// The resumes and letters other devices put there, by title.
    pub titles: Vec<String>,
    /// How many other devices' files it holds.
    pub devices: usize,
}

/// What choosing a folder in the window came to.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum FolderChosen {
    /// Nothing to bring in: the device syncs through it now, and synced once.
    Synced {
        /// What the sync did.
        summary: Box<SyncSummary>,
    },
    /// It holds resumes from other devices: nothing is done until the user says to bring them in.
    Offer {
        /// What it holds.
        holds: FolderHolds,
    },
}

impl Engine {
    /// What the folder at `path` holds that this device has not brought in yet. Nothing is written, here or
    /// in the folder; a folder that could not be the sync folder (inside the data folder, or carrying
    /// another library) is refused in words, as choosing it would be.
    pub async fn sync_folder_holds(&self, path: &Path) -> Result<FolderHolds, Error> {
        let path = checked_folder(path, self.data_dir.as_deref())?;
        let open = self.open()?.lock().await;
        let mut holds = FolderHolds {
            path: path.display().to_string(),
            titles: Vec::new(),
            devices: 0,
        };
        let Some((folder, library)) = Folder::existing(&path)? else {
            return Ok(holds);
        };
        if let Some(mine) = settings::get(&open.store, Kept::SyncLibrary)?
            && mine != library
        {
            let theirs = library;
            return Err(redline_sync::SyncError::OtherLibrary { path, theirs }.into());
        }
        let mut replica = Replica::new(&redline_sync::new_id())?;
        redline_sync::look(&mut replica, &folder, &mut FolderState::default())?;
        let ids: Vec<String> = replica.documents().map(str::to_owned).collect();
        for id in ids {
            if open.store.synced_document(&id)?.is_some() {
                continue;
            }
            let offered = |m: &&redline_sync::Merged| m.created && !m.deleted && !m.application;
            if let Some(doc) = replica.merged(&id).filter(offered) {
                holds
                    .titles
                    .push(redline_resume::fit_title(&doc.title).to_string());
            }
        }
        let mine = settings::get(&open.store, Kept::SyncDevice)?.unwrap_or_default();
        let devices: BTreeSet<&str> = replica.events().map(|k| k.event.device.as_str()).collect();
        holds.devices = devices.iter().filter(|d| **d != mine).count();
        Ok(holds)
    }

    /// The window's choice of the folder at `path`: when it holds resumes or letters this device has not
    /// brought in, they are offered and nothing is done; otherwise the device syncs through it from now on
    /// and syncs once.
    pub async fn choose_sync_folder(&self, path: &Path) -> Result<FolderChosen, Error> {
        let holds = self.sync_folder_holds(path).await?;
        if !holds.titles.is_empty() {
            return Ok(FolderChosen::Offer { holds });
        }
        let summary = Box::new(self.sync_through_folder(path).await?);
        Ok(FolderChosen::Synced { summary })
    }

    /// Syncs through the folder at `path` from now on, and syncs once. The folder must exist, and must
    /// neither hold the data folder nor lie inside it.
    pub async fn sync_through_folder(&self, path: &Path) -> Result<SyncSummary, Error> {
        let path = checked_folder(path, self.data_dir.as_deref())?;
        let place = SyncPlace::Folder {
            path: path.display().to_string(),
        };
        self.sync_through(place).await
    }

    /// Syncs through the git remote at `url` from now on (its working copy in the data folder), and syncs
    /// once. A token in an HTTPS address (`https://USER:TOKEN@host/path`) is taken out of it and kept in
    /// the keychain; the address is kept without it.
    pub async fn sync_through_git(&self, url: &str) -> Result<SyncSummary, Error> {
        if url.trim().is_empty() || url.chars().any(char::is_control) {
            return Err(Error::new(
                ErrorKind::Invalid,
                "give the git remote's address",
            ));
        }
        let address = credentials::split(url.trim())?;
        if let Some(token) = &address.token {
            credentials::keep(self.keychain.as_ref(), &address.url, token)?;
        }
        let place = SyncPlace::Git { url: address.url };
        let synced = self.sync_through(place.clone()).await;
        // A token given for a remote that did not become the place is not kept.
        if synced.is_err() && address.token.is_some() {
            let open = self.open()?.lock().await;
            if place_of(&open.store)?.as_ref() != Some(&place)
                && let SyncPlace::Git { url } = &place
            {
                credentials::forget(self.keychain.as_ref(), url);
            }
        }
        synced
    }

    /// Syncs through `place` from now on if a sync through it works; otherwise keeps the place before.
    async fn sync_through(&self, place: SyncPlace) -> Result<SyncSummary, Error> {
        let before = {
            let mut open = self.open()?.lock().await;
            let before = place_of(&open.store)?;
            if before.as_ref() != Some(&place) {
                open.store.forget_sync_files()?;
            }
            set_place(&mut open.store, Some(&place))?;
            before
        };
        let synced = self.sync_now().await;
        if synced.is_err() {
            let mut open = self.open()?.lock().await;
            set_place(&mut open.store, before.as_ref())?;
        }
        synced
    }

    /// Stops syncing (what was synced stays, here and in the folder).
    pub async fn sync_off(&self) -> Result<SyncSummary, Error> {
        let mut open = self.open()?.lock().await;
        // A git remote's token is forgotten with it.
        if let Some(SyncPlace::Git { url }) = place_of(&open.store)? {
            credentials::forget(self.keychain.as_ref(), &url);
        }
        set_place(&mut open.store, None)?;
        status(&open.store)
    }

    /// Where this device syncs and when it last did, without syncing.
    pub async fn sync_status(&self) -> Result<SyncSummary, Error> {
        let open = self.open()?.lock().await;
        status(&open.store)
    }

    /// One sync: this device's changes out, the other devices' in, merged.
    pub async fn sync_now(&self) -> Result<SyncSummary, Error> {
        self.sync_with(Scope::Whole).await
    }

    /// One sync that reads only the files at `paths`, which a watch on the sync folder saw arrive, without
    /// listing the folder (as [`Engine::sync_now`] does): what it costs grows with what changed, not with
    /// the history. A sync that cannot go on from this engine's last one, more than [`MAX_APPEARED`]
    /// files, or a path outside the folder, reads the folder whole.
    pub async fn sync_appeared(&self, paths: Vec<PathBuf>) -> Result<SyncSummary, Error> {
        self.sync_with(Scope::Appeared(paths)).await
    }

    /// Sends this device's changes made since this engine's last sync, if it made any, without reading
    /// the folder (what an app does now and then while the user edits): `None` when nothing changed here
    /// since, or when this engine has not synced yet.
    pub async fn sync_if_changed(&self) -> Result<Option<SyncSummary>, Error> {
        {
            let open = self.open()?.lock().await;
            let kept = self.kept_replica();
            match kept.as_ref() {
                Some(kept) if kept.store_changed(&open.store)? => {}
                _ => return Ok(None),
            }
        }
        self.sync_with(Scope::Appeared(Vec::new())).await.map(Some)
    }

    /// The last pass's replica, if this engine made one.
    fn kept_replica(&self) -> std::sync::MutexGuard<'_, Option<KeptReplica>> {
        self.synced
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn sync_with(&self, scope: Scope) -> Result<SyncSummary, Error> {
        let mut open = self.open()?.lock().await;
        let Some(place) = place_of(&open.store)? else {
            return Err(Error::new(
                ErrorKind::NotFound,
                "sync is off: choose a folder your cloud drive carries (redline sync folder PATH) or a \
                 git remote (redline sync git URL)",
            ));
        };
        let current = open.store.current().ok().map(|d| d.id);
        // Taken, so that a pass that fails leaves none.
        let kept = self.kept_replica().take();
        let git = GitAccess {
            dir: self.data_dir.as_ref().map(|dir| dir.join(GIT_DIR)),
            credentials: match &place {
                SyncPlace::Git { url } => credentials::for_remote(self.keychain.as_ref(), url),
                SyncPlace::Folder { .. } => None,
            },
        };
        let (summary, mut kept) = pass(&mut open.store, &place, git, kept, scope)?;
        // A resume brought in does not take the place of the one in use.
        if let Some(id) = current {
            open.store.set_current(id).ok();
        }
        kept.written_until_now(&open.store)?;
        *self.kept_replica() = Some(kept);
        Ok(summary)
    }
}

/// The folder the user named, made absolute, if it can be a sync folder.
fn checked_folder(path: &Path, data_dir: Option<&Path>) -> Result<PathBuf, Error> {
    let folder = std::fs::canonicalize(path).map_err(|e| {
        Error::new(
            ErrorKind::NotFound,
            format!("cannot use {} as the sync folder: {e}", path.display()),
        )
    })?;
    if !folder.is_dir() {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("{} is not a folder", path.display()),
        ));
    }
    if let Some(data) = data_dir.and_then(|d| std::fs::canonicalize(d).ok())
        && (folder.starts_with(&data) || data.starts_with(&folder))
    {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "{} and Redline's data folder ({}) would lie one inside the other: a sync engine would \
                 then carry the database itself; choose another folder",
                path.display(),
                data.display()
            ),
        ));
    }
    Ok(folder)
}

fn place_of(store: &Store) -> Result<Option<SyncPlace>, Error> {
    let set = |what| -> Result<Option<String>, Error> {
        Ok(settings::get(store, what)?.filter(|v| !v.is_empty()))
    };
    Ok(match (set(Kept::SyncFolder)?, set(Kept::SyncGit)?) {
        (Some(path), _) => Some(SyncPlace::Folder { path }),
        (None, Some(url)) => Some(SyncPlace::Git { url }),
        (None, None) => None,
    })
}

fn set_place(store: &mut Store, place: Option<&SyncPlace>) -> Result<(), Error> {
    let (folder, url) = match place {
        Some(SyncPlace::Folder { path }) => (path.as_str(), ""),
        Some(SyncPlace::Git { url }) => ("", url.as_str()),
        None => ("", ""),
    };
    settings::set(store, Kept::SyncFolder, folder)?;
    settings::set(store, Kept::SyncGit, url)
}

fn status(store: &Store) -> Result<SyncSummary, Error> {
    let devices: BTreeSet<String> = store.sync_events()?.into_iter().map(|e| e.device).collect();
    // Asking makes no id: a device that never synced has none yet.
    let device = settings::get(store, Kept::SyncDevice)?.unwrap_or_default();
    Ok(SyncSummary {
        place: place_of(store)?,
        devices: devices.into_iter().filter(|d| *d != device).collect(),
        device,
        last_synced_at: settings::get(store, Kept::SyncLast)?.and_then(|v| v.parse().ok()),
        ..SyncSummary::default()
    })
}

/// This device's id, made on its first sync.
fn device_of(store: &mut Store) -> Result<String, Error> {
    if let Some(id) = settings::get(store, Kept::SyncDevice)? {
        return Ok(id);
    }
    let id = redline_sync::new_id();
    settings::set(store, Kept::SyncDevice, &id)?;
    Ok(id)
}

/// The library this device's resumes belong to: the one the folder at `path` carries if this device has
/// none yet (a new device joining), else its own (a folder of another library is refused on open).
fn library_of(store: &mut Store, path: &Path) -> Result<String, Error> {
    if let Some(mine) = settings::get(store, Kept::SyncLibrary)? {
        return Ok(mine);
    }
    let library = Folder::library(path)?.unwrap_or_else(redline_sync::new_id);
    settings::set(store, Kept::SyncLibrary, &library)?;
    Ok(library)
}

/// The clock in seconds, as events carry it.
fn now_s() -> i64 {
    redline_store::now_ms() / 1000
}

/// This device's changes since the last pass, as events: new resumes, their revisions, renames, deletes;
/// and the resumes whose changes could not go out (they break a rule another device would refuse them
/// for): those stay here as they are, said, and take nothing in until they can.
fn send_changes(
    store: &mut Store,
    replica: &mut Replica,
    summary: &mut SyncSummary,
) -> Result<(Vec<Known>, HashSet<i64>), Error> {
    let mut synced: HashMap<i64, SyncedDocument> = store
        .synced_documents()?
        .into_iter()
        .map(|s| (s.document_id, s))
        .collect();
    let mut docs = store.list()?;
    docs.extend(store.list_deleted()?);
    // Resumes first: a new letter goes out naming its resume's sync id.
    docs.sort_by_key(|d| d.kind == DocumentKind::Letter);
    let (mut sent, mut unsent) = (Vec::new(), HashSet::new());
    for doc in &docs {
        let outcome = match synced.get(&doc.id) {
            None if doc.deleted_at.is_some() => Ok(()),
            None => send_new(store, replica, doc, &synced, &mut sent).map(|new| {
                if let Some(new) = new {
                    synced.insert(doc.id, new);
                }
            }),
            Some(s) => send_revisions(store, replica, doc, s, &mut sent),
        };
        if let Err(e) = outcome {
            unsent.insert(doc.id);
            summary.notices.push(format!(
                "“{}” was not sent: {}",
                redline_resume::fit_title(&doc.title),
                e.message
            ));
        }
    }
    // After the resumes and letters: an application names what it sent by their sync ids.
    applications::send(store, replica, &synced, &mut sent, summary)?;
    Ok((sent, unsent))
}

/// Sends a document new to sync: its first event. Returns what it is synced as (none: it stays here for
/// now — the sample never touched, or a letter whose resume does not travel).
fn send_new(
    store: &mut Store,
    replica: &mut Replica,
    doc: &DocumentSummary,
    synced: &HashMap<i64, SyncedDocument>,
    sent: &mut Vec<Known>,
) -> Result<Option<SyncedDocument>, Error> {
    let head = store.head(doc.id)?;
    let made_at = doc.created_at / 1000;
    let created = match doc.kind {
        // The sample a first start shows, never touched, is every device's own: it does not travel.
        DocumentKind::Resume
            if head.number == 1
                && (doc.title.clone(), head.document.clone()) == redline_resume::first_resume() =>
        {
            return Ok(None);
        }
        DocumentKind::Resume => replica.create(&doc.title, head.document, made_at),
        DocumentKind::Letter => {
            let Some(resume) = doc.resume_id.and_then(|id| synced.get(&id)) else {
                return Ok(None);
            };
            replica.create_letter(&doc.title, &resume.sync_id, head.document, made_at)
        }
    };
    let (sync_id, known) = created.map_err(Error::from)?;
    sent.push(known);
    let new = SyncedDocument {
        sync_id,
        document_id: doc.id,
        synced_revision: head.number,
    };
    store.set_synced(&new)?;
    Ok(Some(new))
}

fn send_revisions(
    store: &mut Store,
    replica: &mut Replica,
    doc: &DocumentSummary,
    synced: &SyncedDocument,
    sent: &mut Vec<Known>,
) -> Result<(), Error> {
    let id = &synced.sync_id;
    for number in synced.synced_revision + 1..=doc.head_revision {
        let info = store.revision_info(doc.id, number)?;
        if info.source == Source::Sync {
            continue; // another device's, brought in
        }
        let forward: Vec<Operation> = store
            .forward(doc.id, number)?
            .iter()
            .map(Into::into)
            .collect();
        let body = Body::Edit {
            source: info.source.as_str().to_owned(),
            summary: info.summary,
            forward,
        };
        match replica.record(id, body, info.created_at / 1000) {
            Ok(known) => sent.push(known),
            Err(_) => {
                // The history here and the synced one parted (a restored backup): send the difference.
                sent.extend(send_difference(store, replica, doc.id, id)?);
                break;
            }
        }
    }
    let (title, deleted) = match replica.merged(id) {
        Some(m) => (m.title.clone(), m.deleted),
        None => return Ok(()),
    };
    let now = now_s();
    if title != doc.title {
        let body = Body::Rename {
            title: doc.title.clone(),
        };
        sent.push(replica.record(id, body, now)?);
    }
    match (doc.deleted_at.is_some(), deleted) {
        (true, false) => sent.push(replica.record(id, Body::Delete, now)?),
        (false, true) => sent.push(replica.record(id, Body::Undelete, now)?),
        _ => {}
    }
    store.set_synced(&SyncedDocument {
        synced_revision: doc.head_revision,
        ..synced.clone()
    })?;
    Ok(())
}

/// One edit taking the synced document to this device's head, if they differ.
fn send_difference(
    store: &mut Store,
    replica: &mut Replica,
    document_id: i64,
    id: &str,
) -> Result<Option<Known>, Error> {
    let Some(merged) = replica.merged(id).map(|m| m.document.clone()) else {
        return Ok(None);
    };
    let head = store.head(document_id)?.document;
    let forward: Vec<Operation> = json_patch::diff(&merged, &head)
        .iter()
        .map(Into::into)
        .collect();
    if forward.is_empty() {
        return Ok(None);
    }
    let body = Body::Edit {
        source: Source::User.as_str().to_owned(),
        summary: "Changes made on this device".to_owned(),
        forward,
    };
    Ok(Some(replica.record(id, body, now_s())?))
}

/// A document as the merge makes it.
struct Made {
    document: Value,
    /// For a letter, the sync id of its resume.
    letter_of: Option<String>,
    title: String,
    deleted: bool,
    conflicts: Vec<Conflict>,
    notices: Vec<Notice>,
}

/// Brings every synced document here as the merge makes it, but those whose own changes could not go out.
fn bring_in(
    store: &mut Store,
    replica: &mut Replica,
    unsent: &HashSet<i64>,
    summary: &mut SyncSummary,
) -> Result<(), Error> {
    let viewer = replica.device().to_owned();
    let mut told: BTreeSet<String> = settings::get(store, Kept::SyncTold)?
        .and_then(|v| serde_json::from_str(&v).ok())
        .unwrap_or_default();
    let ids: Vec<String> = replica.documents().map(str::to_owned).collect();
    let mut made_all: Vec<(String, Made)> = ids
        .into_iter()
        .filter_map(|id| {
            let made = replica
                .merged(&id)
                .filter(|m| m.created && !m.application)
                .map(|m| Made {
                    document: m.document.clone(),
                    letter_of: m.letter_of.clone(),
                    title: m.title.clone(),
                    deleted: m.deleted,
                    conflicts: m.conflicts.clone(),
                    notices: m.notices.clone(),
                })?;
            Some((id, made))
        })
        .collect();
    // Resumes first: a letter new here is made beside its resume, brought in the same pass.
    made_all.sort_by_key(|(_, made)| made.letter_of.is_some());
    for (id, made) in made_all {
        let Some(document_id) = bring_one(store, &id, &made, unsent, summary)? else {
            continue;
        };
        if !made.deleted {
            hold_conflicts(store, document_id, &made, &viewer, &mut told, summary)?;
        }
        for notice in &made.notices {
            let Notice::KeptDespiteDelete { deleted_on, .. } = notice;
            if told.insert(format!("kept:{id}:{deleted_on}")) {
                summary.notices.push(format!(
                    "“{}” was deleted on {} while it was edited elsewhere; it is kept",
                    redline_resume::fit_title(&made.title),
                    device_name(deleted_on, &viewer)
                ));
            }
        }
    }
    let told = serde_json::to_string(&told).unwrap_or_default();
    settings::set(store, Kept::SyncTold, &told)
}

/// Makes the local document match `made`; returns its id (none: it was deleted before it came here).
fn bring_one(
    store: &mut Store,
    id: &str,
    made: &Made,
    unsent: &HashSet<i64>,
    summary: &mut SyncSummary,
) -> Result<Option<i64>, Error> {
    let title = redline_resume::fit_title(&made.title).to_string();
    // What another device's files add up to is checked whole, as an import is: it must read back.
    let policy = redline_patch::Policy::default();
    let whole = match made.letter_of {
        None => policy.check_bundle(&made.document, &[]),
        Some(_) => policy.check_letter(&made.document),
    };
    if let Err(e) = whole {
        summary.notices.push(format!(
            "“{title}” as your other devices have it was not brought in: {e}"
        ));
        return Ok(None);
    }
    let Some(synced) = store.synced_document(id)? else {
        if made.deleted {
            return Ok(None);
        }
        let Some(document_id) = create_here(store, made)? else {
            return Ok(None);
        };
        store.set_synced(&SyncedDocument {
            sync_id: id.to_owned(),
            document_id,
            synced_revision: 1,
        })?;
        summary.brought_in.push(title);
        return Ok(Some(document_id));
    };
    let document_id = synced.document_id;
    if unsent.contains(&document_id) {
        return Ok(None);
    }
    let was_deleted = store.document(document_id).is_err();
    match (was_deleted, made.deleted) {
        // Deleted here and there: it stays as it is until it is brought back.
        (true, true) => return Ok(None),
        (true, false) => store.undelete(document_id)?,
        _ => {}
    }
    let head = store.head(document_id)?;
    let mut number = head.number;
    if head.document != made.document {
        let ops = json_patch::diff(&head.document, &made.document);
        let change =
            Change::new(head.number, Source::Sync, ops).summary("Changes from your other devices");
        number = store.commit(document_id, change)?.info.number;
        summary.updated.push(title.clone());
    }
    if store.document(document_id)?.title != made.title {
        store.rename(document_id, &made.title)?;
    }
    if made.deleted {
        store.delete(document_id)?;
        summary.deleted.push(title);
    }
    store.set_synced(&SyncedDocument {
        synced_revision: number,
        ..synced
    })?;
    Ok(Some(document_id))
}

/// Makes the document `made` here (none yet: a letter whose resume has not come here, or was deleted
/// here for good; it comes with a later pass).
fn create_here(store: &mut Store, made: &Made) -> Result<Option<i64>, Error> {
    let Some(resume) = &made.letter_of else {
        return Ok(Some(store.import(&made.title, &made.document)?));
    };
    let sender = store.synced_document(resume)?.filter(|s| {
        store
            .document(s.document_id)
            .is_ok_and(|d| d.kind == DocumentKind::Resume)
    });
    let Some(sender) = sender else {
        return Ok(None);
    };
    Ok(Some(store.create_letter(
        sender.document_id,
        &made.title,
        &made.document,
    )?))
}

/// Each clash not held before waits for the user: the other device's value as a held edit, "changed on
/// DEVICE too".
fn hold_conflicts(
    store: &mut Store,
    document_id: i64,
    made: &Made,
    viewer: &str,
    told: &mut BTreeSet<String>,
    summary: &mut SyncSummary,
) -> Result<(), Error> {
    let base = store.head(document_id)?.number;
    let mut held = Vec::new();
    for c in &made.conflicts {
        let key = format!("held:{}:{}:{}:{}", c.document, c.event.0, c.event.1, c.path);
        let op = match (&c.ours, &c.theirs) {
            (_, _) if told.contains(&key) => continue,
            (Some(_), Some(value)) => Operation::Replace {
                path: c.path.clone(),
                value: value.clone(),
            },
            (None, Some(value)) => Operation::Add {
                path: c.path.clone(),
                value: value.clone(),
            },
            (Some(_), None) => Operation::Remove {
                path: c.path.clone(),
            },
            (None, None) => continue,
        };
        told.insert(key);
        let other = if viewer == c.device {
            &c.kept_from
        } else {
            &c.device
        };
        let mut edit =
            Held::new(document_id, base, vec![op], &made.document).because(vec![Hold::OtherDevice]);
        for line in &mut edit.descriptions {
            *line = format!("{line} (changed on {} too)", device_name(other, viewer));
        }
        held.push(edit);
    }
    summary.held += held.len();
    settings::keep_held(store, document_id, &held)
}

/// A device as the user reads it.
fn device_name(device: &str, viewer: &str) -> String {
    if device == viewer {
        "this device".to_owned()
    } else {
        format!("device {}", device.get(..8).unwrap_or(device))
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use redline_store::{Change, DocumentKind, Source, Store};
    use serde_json::json;

    use crate::Engine;

    /// The letters of the store in `data`: (title, its resume's title, paragraphs).
    fn letters(data: &Path) -> Vec<(String, String, serde_json::Value)> {
        let store = Store::open(data).unwrap();
        store
            .list()
            .unwrap()
            .into_iter()
            .filter(|d| d.kind == DocumentKind::Letter)
            .map(|d| {
                let resume = store.document(d.resume_id.unwrap()).unwrap().title;
                let paragraphs = store.head(d.id).unwrap().document["paragraphs"].clone();
                (d.title, resume, paragraphs)
            })
            .collect()
    }

    /// The id of the document titled `title` in `store`.
    fn id_of(store: &Store, title: &str) -> i64 {
        let docs = store.list().unwrap();
        docs.into_iter().find(|d| d.title == title).unwrap().id
    }

    /// One edit by hand to the document titled `title` in the data folder `data`: `path` set to `value`.
    fn replace_in(data: &Path, title: &str, path: &str, value: serde_json::Value) {
        let mut store = Store::open(data).unwrap();
        let id = id_of(&store, title);
        let head = store.head(id).unwrap().number;
        let ops = json!([{"op": "replace", "path": path, "value": value}]);
        let patch = serde_json::from_value(ops).unwrap();
        store
            .commit(id, Change::new(head, Source::User, patch))
            .unwrap();
    }

    /// The head of "Mine" in the data folder `data`.
    fn mine(data: &Path) -> serde_json::Value {
        let store = Store::open(data).unwrap();
        store.head(id_of(&store, "Mine")).unwrap().document
    }

    fn set_label(data: &Path, value: &str) {
        replace_in(data, "Mine", "/basics/label", json!(value));
    }

    /// "Mine" imported on device `a`, and an engine for each device, kept as the app keeps its own.
    fn mine_on_a_and_two_engines(a: &Path, b: &Path) -> (Engine, Engine) {
        Store::open(a)
            .unwrap()
            .import("Mine", &redline_resume::sample())
            .unwrap();
        (
            Engine::start_bare(a.to_owned()),
            Engine::start_bare(b.to_owned()),
        )
    }

    /// `label` set on the device whose data folder and engine are `from`, synced there and then on `to`,
    /// arrives on `to`.
    async fn label_travels(label: &str, from: (&Path, &Engine), to: (&Path, &Engine)) {
        set_label(from.0, label);
        from.1.sync_now().await.unwrap();
        to.1.sync_now().await.unwrap();
        assert_eq!(mine(to.0)["basics"]["label"], label);
    }

    #[tokio::test]
    async fn a_pass_goes_on_from_the_last_and_starts_again_when_another_process_synced() {
        let (_root, a, b, folder) = redline_testkit::two_devices();
        let (on_a, on_b) = mine_on_a_and_two_engines(&a, &b);
        on_a.sync_through_folder(&folder).await.unwrap();
        on_b.sync_through_folder(&folder).await.unwrap();
        // The app on a goes on from its last pass.
        label_travels("First", (&b, &on_b), (&a, &on_a)).await;
        // `redline sync` on a's data folder (another process) takes b's next edit; the app's next pass
        // must not go on from what it built before that.
        set_label(&b, "Second");
        on_b.sync_now().await.unwrap();
        Engine::start_bare(a.clone()).sync_now().await.unwrap();
        label_travels("Third", (&b, &on_b), (&a, &on_a)).await;
        label_travels("Fourth", (&a, &on_a), (&b, &on_b)).await;
        assert_eq!(mine(&a), mine(&b));
    }

    /// Every file under `dir`, with its bytes.
    fn files_under(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let mut stack = vec![dir.to_owned()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    files.push((path, bytes));
                }
            }
        }
        files.sort();
        files
    }

    /// Whether `folder` holds no resume new to the device of `engine`.
    async fn holds_nothing_new(engine: &Engine, folder: &Path) -> bool {
        let holds = engine.sync_folder_holds(folder).await.unwrap();
        holds.titles.is_empty()
    }

    #[tokio::test]
    async fn what_a_folder_holds_is_told_before_it_is_chosen_and_nothing_is_written() {
        let (root, a, b, folder) = redline_testkit::two_devices();
        let on_b = Engine::start_bare(b.clone());
        // An empty folder holds nothing.
        assert!(holds_nothing_new(&on_b, &folder).await);
        Store::open(&a)
            .unwrap()
            .import("Mine", &redline_resume::sample())
            .unwrap();
        Engine::start_bare(a.clone())
            .sync_through_folder(&folder)
            .await
            .unwrap();
        let before = files_under(&folder);
        let holds = on_b.sync_folder_holds(&folder).await.unwrap();
        assert_eq!(holds.titles, vec!["Mine".to_owned()]);
        assert_eq!(holds.devices, 1);
        assert_eq!(
            files_under(&folder),
            before,
            "looking wrote into the folder"
        );
        let status = on_b.sync_status().await.unwrap();
        assert!(
            status.place.is_none() && status.device.is_empty(),
            "{status:?}"
        );
        assert!(Store::open(&b).unwrap().list().unwrap().is_empty());
        // Once brought in, it holds nothing new for this device.
        on_b.sync_through_folder(&folder).await.unwrap();
        assert!(holds_nothing_new(&on_b, &folder).await);
        // A folder of another library is refused before it is chosen.
        let other = root.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        Store::open(&root.path().join("c"))
            .unwrap()
            .import("Theirs", &redline_resume::sample())
            .unwrap();
        Engine::start_bare(root.path().join("c"))
            .sync_through_folder(&other)
            .await
            .unwrap();
        let refused = on_b.sync_folder_holds(&other).await.unwrap_err();
        assert!(
            refused.message.contains("another Redline library"),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_folder_chosen_in_the_window_is_offered_when_it_holds_resumes_else_synced() {
        let (_root, a, b, folder) = redline_testkit::two_devices();
        let on_a = Engine::start_bare(a.clone());
        let chosen = on_a.choose_sync_folder(&folder).await.unwrap();
        assert!(
            matches!(chosen, super::FolderChosen::Synced { .. }),
            "{chosen:?}"
        );
        Store::open(&a)
            .unwrap()
            .import("Mine", &redline_resume::sample())
            .unwrap();
        on_a.sync_now().await.unwrap();
        let on_b = Engine::start_bare(b.clone());
        match on_b.choose_sync_folder(&folder).await.unwrap() {
            super::FolderChosen::Offer { holds } => {
                assert_eq!(holds.titles, vec!["Mine".to_owned()])
            }
            other => panic!("not offered: {other:?}"),
        }
        assert!(on_b.sync_status().await.unwrap().place.is_none());
    }

    #[tokio::test]
    async fn a_cover_letter_travels_with_its_resume_and_its_edits_come_back() {
        let (_root, a, b, folder) = redline_testkit::two_devices();
        {
            let mut store = Store::open(&a).unwrap();
            let resume = store.import("Mine", &redline_resume::sample()).unwrap();
            let mut letter = redline_resume::letter::skeleton("Hooli", "Engineer", "2025-03-01");
            letter["paragraphs"] = json!(["I build payment systems."]);
            store
                .create_letter(resume, "Letter — Hooli", &letter)
                .unwrap();
        }
        let on_a = Engine::start_bare(a.clone());
        let sent = on_a.sync_through_folder(&folder).await.unwrap();
        assert_eq!(sent.sent, 2, "the resume and its letter go out: {sent:?}");
        let on_b = Engine::start_bare(b.clone());
        let came = on_b.sync_through_folder(&folder).await.unwrap();
        assert!(
            came.brought_in.contains(&"Letter — Hooli".to_owned()),
            "{came:?}"
        );
        let expected = (
            "Letter — Hooli".to_owned(),
            "Mine".to_owned(),
            json!(["I build payment systems."]),
        );
        assert_eq!(letters(&b), vec![expected]);
        // An edit of the letter on b comes back to a, into the same letter.
        let paragraphs = json!(["I build payment systems.", "Hire me."]);
        replace_in(&b, "Letter — Hooli", "/paragraphs", paragraphs);
        on_b.sync_now().await.unwrap();
        on_a.sync_now().await.unwrap();
        let back = letters(&a);
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].2, json!(["I build payment systems.", "Hire me."]));
    }

    #[tokio::test]
    async fn a_token_in_a_remote_s_address_goes_to_the_keychain_and_not_with_a_remote_that_failed()
    {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("a");
        let keys = std::sync::Arc::new(redline_agent::MemoryKeychain::default());
        let engine = Engine::start_with(Some(data.clone()), keys.clone());
        // Nothing listens on port 9: the remote is not reached, sync stays off, the token is not kept.
        let err = engine
            .sync_through_git("https://alice:ghp_secret_1@127.0.0.1:9/cv.git")
            .await
            .unwrap_err();
        assert!(!err.to_string().contains("ghp_secret_1"), "{err}");
        assert_eq!(engine.sync_status().await.unwrap().place, None);
        let clean = "https://alice@127.0.0.1:9/cv.git";
        assert!(super::credentials::for_remote(keys.as_ref(), clean).is_none());
        // A token is never sent in the clear, and nothing of it reached the data folder.
        let err = engine
            .sync_through_git("http://alice:ghp_secret_1@127.0.0.1:9/cv.git")
            .await
            .unwrap_err();
        assert!(err.to_string().contains("only over HTTPS"), "{err}");
        drop(engine);
        for file in redline_testkit::files_under(&data) {
            let bytes = std::fs::read(&file).unwrap();
            assert!(
                !bytes.windows(12).any(|w| w == b"ghp_secret_1"),
                "{} holds the token",
                file.display()
            );
        }
    }

    #[tokio::test]
    async fn an_application_travels_with_its_pins_and_both_devices_moves_stay_on_its_timeline() {
        use redline_store::{NewApplication, Pinned, Stage};
        let (_root, a, b, folder) = redline_testkit::two_devices();
        let mine = Store::open(&a)
            .unwrap()
            .import("Mine", &redline_resume::sample())
            .unwrap();
        set_label(&a, "Pinned label");
        let sent = Store::open(&a)
            .unwrap()
            .add_application(&NewApplication {
                company: "Initech".into(),
                role: "Engineer".into(),
                stage: Some(Stage::Applied),
                date: Some("2026-11-02".into()),
                resume: Some(Pinned {
                    document_id: mine,
                    revision: 2,
                }),
                ..NewApplication::default()
            })
            .unwrap();
        set_label(&a, "Later label");
        let (on_a, on_b) = (Engine::start_bare(a.clone()), Engine::start_bare(b.clone()));
        on_a.sync_through_folder(&folder).await.unwrap();
        let pulled = on_b.sync_through_folder(&folder).await.unwrap();
        assert!(
            pulled.brought_in.iter().any(|t| t.contains("Initech")),
            "{pulled:?}"
        );
        // b's history of Mine never held what was sent (it came as its head): the pin is a copy of it,
        // deleted at once, so that the resume list is as it was.
        let store_b = Store::open(&b).unwrap();
        let apps = store_b.applications().unwrap();
        assert_eq!(apps.len(), 1);
        let pin = apps[0].resume.unwrap();
        let pinned = store_b.checkout(pin.document_id, pin.revision).unwrap();
        assert_eq!(pinned.document["basics"]["label"], "Pinned label");
        let titles = titles(&store_b);
        assert_eq!(titles, ["Mine"]);
        drop(store_b);

        // Offline, a moves it to interviewing and b to rejected: both moves land on both timelines.
        let moved_on = |data: &Path, id: i64, stage| {
            Store::open(data)
                .unwrap()
                .move_application(id, stage, Some("2026-11-09"))
                .unwrap();
        };
        moved_on(&a, sent, Stage::Interviewing);
        moved_on(&b, apps[0].id, Stage::Rejected);
        on_a.sync_now().await.unwrap();
        on_b.sync_now().await.unwrap();
        on_a.sync_now().await.unwrap();
        let timeline = |data: &Path| {
            let app = Store::open(data).unwrap().applications().unwrap().remove(0);
            let mut stages: Vec<Stage> = app.timeline.iter().map(|c| c.stage).collect();
            stages.sort_by_key(|s| s.as_str());
            (app.stage, stages)
        };
        let (on_a_now, on_b_now) = (timeline(&a), timeline(&b));
        assert_eq!(on_a_now, on_b_now);
        assert_eq!(
            on_a_now.1,
            [Stage::Applied, Stage::Interviewing, Stage::Rejected]
        );
        // One more pass sends nothing new and brings nothing twice.
        let again = on_b.sync_now().await.unwrap();
        assert_eq!((again.sent, again.accepted), (0, 0), "{again:?}");
        assert_eq!(timeline(&b), on_b_now);
    }

    /// An application to Initech made on `a`, pinned to revision 1 of "Mine" and of its letter "To
    /// Initech" (both changed after it when `changed_after`), synced onto `b`: b's store and application.
    async fn pinned_application_on_b(
        changed_after: bool,
    ) -> (tempfile::TempDir, Store, redline_store::Application) {
        use redline_store::{NewApplication, Pinned};
        let (root, a, b, folder) = redline_testkit::two_devices();
        let mut store_a = Store::open(&a).unwrap();
        let mine = store_a.import("Mine", &redline_resume::sample()).unwrap();
        let skeleton = redline_resume::letter::skeleton("Initech", "Engineer", "2026-11-02");
        let letter = store_a
            .create_letter(mine, "To Initech", &skeleton)
            .unwrap();
        let pin = |document_id| {
            Some(Pinned {
                document_id,
                revision: 1,
            })
        };
        store_a
            .add_application(&NewApplication {
                company: "Initech".into(),
                role: "Engineer".into(),
                resume: pin(mine),
                letter: pin(letter),
                ..NewApplication::default()
            })
            .unwrap();
        if changed_after {
            let ops = json!([{"op": "replace", "path": "/paragraphs", "value": ["Later words."]}]);
            let change = Change::new(1, Source::User, serde_json::from_value(ops).unwrap());
            store_a.commit(letter, change).unwrap();
        }
        drop(store_a);
        if changed_after {
            set_label(&a, "Later label");
        }
        both_through(&a, &b, &folder).await;
        let store_b = Store::open(&b).unwrap();
        let app = store_b.applications().unwrap().remove(0);
        (root, store_b, app)
    }

    #[tokio::test]
    async fn an_application_s_pin_is_the_revision_here_that_holds_what_was_sent() {
        let (_root, store_b, app) = pinned_application_on_b(false).await;
        let (resume, letter) = (app.resume.unwrap(), app.letter.unwrap());
        assert_eq!(
            (resume.document_id, resume.revision),
            (id_of(&store_b, "Mine"), 1)
        );
        assert_eq!(
            (letter.document_id, letter.revision),
            (id_of(&store_b, "To Initech"), 1)
        );
    }

    #[tokio::test]
    async fn what_an_application_sent_and_no_history_here_holds_is_kept_as_deleted_copies() {
        let (_root, store_b, app) = pinned_application_on_b(true).await;
        let (resume, letter) = (app.resume.unwrap(), app.letter.unwrap());
        let sent_resume = store_b
            .checkout(resume.document_id, resume.revision)
            .unwrap();
        assert_eq!(sent_resume.document, redline_resume::sample());
        let sent_letter = store_b
            .checkout(letter.document_id, letter.revision)
            .unwrap();
        assert_eq!(sent_letter.document["paragraphs"], json!([]));
        // Both are copies, out of the way: deleted, and the letter's copy belongs to the resume's.
        let deleted = store_b.list_deleted().unwrap();
        let copy_of = |id| deleted.iter().find(|d| d.id == id).expect("a deleted copy");
        assert_eq!(copy_of(resume.document_id).kind, DocumentKind::Resume);
        assert_eq!(
            copy_of(letter.document_id).resume_id,
            Some(resume.document_id)
        );
        let titles = titles(&store_b);
        assert_eq!(titles.len(), 2, "{titles:?}");
    }

    /// The titles of the documents in `store`.
    fn titles(store: &Store) -> Vec<String> {
        store.list().unwrap().into_iter().map(|d| d.title).collect()
    }

    /// The event files of device `device` in the sync folder `folder`.
    fn files_of(folder: &Path, device: &str) -> Vec<PathBuf> {
        redline_testkit::files_under(&folder.join(super::SYNC_DIR).join(device))
    }

    #[tokio::test]
    async fn edits_go_out_as_made_and_files_a_watch_saw_come_in_without_listing_the_folder() {
        let (_root, a, b, folder) = redline_testkit::two_devices();
        let (on_a, on_b) = mine_on_a_and_two_engines(&a, &b);
        assert_eq!(
            on_a.sync_if_changed().await.unwrap(),
            None,
            "not synced yet"
        );
        let device_a = on_a.sync_through_folder(&folder).await.unwrap().device;
        on_b.sync_through_folder(&folder).await.unwrap();
        assert_eq!(
            on_a.sync_if_changed().await.unwrap(),
            None,
            "nothing made since"
        );

        // An edit (here by another connection, as `redline` would make it) goes out alone.
        set_label(&a, "Founder");
        let sent = on_a
            .sync_if_changed()
            .await
            .unwrap()
            .expect("the edit goes out");
        assert_eq!((sent.sent, sent.written, sent.read), (1, 1, 0), "{sent:?}");
        assert_eq!(on_a.sync_if_changed().await.unwrap(), None);

        // The other device reads the files it is told of, and lists nothing: told of none, it has none.
        let none = on_b.sync_appeared(Vec::new()).await.unwrap();
        assert_eq!(none.read, 0);
        assert_ne!(mine(&b)["basics"]["label"], "Founder");
        let came = on_b
            .sync_appeared(files_of(&folder, &device_a))
            .await
            .unwrap();
        assert_eq!(
            (came.read, came.updated.clone()),
            (1, vec!["Mine".to_owned()])
        );
        assert_eq!(mine(&b)["basics"]["label"], "Founder");

        // A path outside the folder: the folder is read whole, and nothing is missed.
        set_label(&a, "CEO");
        on_a.sync_if_changed()
            .await
            .unwrap()
            .expect("the edit goes out");
        let elsewhere = on_b
            .sync_appeared(vec![PathBuf::from("/elsewhere/x.json")])
            .await
            .unwrap();
        assert_eq!(elsewhere.read, 1);
        assert_eq!(mine(&b)["basics"]["label"], "CEO");
    }

    /// Devices `a` and `b` sync through `folder` from now on, in that order, each as a new process would.
    async fn both_through(a: &Path, b: &Path, folder: &Path) {
        for data in [a, b] {
            let engine = Engine::start_bare(data.to_owned());
            engine.sync_through_folder(folder).await.unwrap();
        }
    }

    /// Copies the folder `from` to `to`, file by file.
    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    #[tokio::test]
    async fn a_database_restored_from_a_backup_takes_no_sequence_number_it_used_before() {
        let (root, a, b, folder) = redline_testkit::two_devices();
        Store::open(&a)
            .unwrap()
            .import("Mine", &redline_resume::sample())
            .unwrap();
        both_through(&a, &b, &folder).await;
        let backup = root.path().join("backup");
        copy_dir(&a, &backup);
        set_label(&a, "Second");
        Engine::start_bare(a.clone()).sync_now().await.unwrap();
        Engine::start_bare(b.clone()).sync_now().await.unwrap();
        assert_eq!(mine(&b)["basics"]["label"], "Second");
        // a's database comes back from the backup: it no longer remembers "Second", which the folder
        // holds, and makes another edit.
        std::fs::remove_dir_all(&a).unwrap();
        copy_dir(&backup, &a);
        set_label(&a, "Third");
        let on_a = Engine::start_bare(a.clone()).sync_now().await.unwrap();
        let on_b = Engine::start_bare(b.clone()).sync_now().await.unwrap();
        Engine::start_bare(a.clone()).sync_now().await.unwrap();
        for synced in [&on_a, &on_b] {
            assert!(synced.skipped.is_empty(), "{synced:?}");
        }
        assert_eq!(mine(&a), mine(&b));
        assert_eq!(mine(&b)["basics"]["label"], "Third");
    }
}
