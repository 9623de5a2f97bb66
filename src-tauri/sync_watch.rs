//! Sync when the folder changes, and send this device's edits as they are made. While this device syncs
//! through a folder, the app watches the folder's `redline-sync` for files another device's drive brings,
//! waits until it has been quiet for a moment (a drive writes a burst of files), then syncs once, reading
//! only the files that arrived, and tells the window what came ([`AppEvent::Synced`], carrying the
//! `SyncSummary`). Files this device writes do not wake it, nor do a drive's temporary files; a file of
//! another device's that goes away (a folder restored from an older copy) wakes a sync that reads the
//! folder whole and writes back what it lost. Every [`SEND_EVERY`], the edits made here since the last
//! sync go out, without reading the folder. A git remote is not watched: it is read and written at start
//! and on "Sync now".
//!
//! Each command that answers with where this device syncs (status, sync now, choosing a folder or a
//! remote, turning sync off) hands the answer to [`SyncWatch::follow`], which watches the folder it names,
//! or stops.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use redline_engine::Error;
use redline_engine::sync::{
    MAX_APPEARED, SyncPlace, SyncSummary, is_another_devices_file, is_another_devices_folder,
};
use tauri::{AppHandle, Emitter, Manager, Runtime};

use crate::engine::Engine;
use crate::events::AppEvent;

/// How long the folder must be quiet after a change before the sync runs.
const QUIET: Duration = Duration::from_secs(2);

/// How often the edits made here go out (when there are any); a second in the tests.
const SEND_EVERY: Duration = Duration::from_secs(if cfg!(test) { 1 } else { 10 });

/// The folder being watched, if any.
#[derive(Default)]
pub struct SyncWatch(Mutex<Option<Watching>>);

struct Watching {
    folder: PathBuf,
    /// Dropped, it stops watching, and its thread ends.
    _watcher: RecommendedWatcher,
}

impl SyncWatch {
    /// Watches the folder `summary` says this device syncs through (none: stops watching).
    pub fn follow<R: Runtime>(&self, app: &AppHandle<R>, summary: &SyncSummary) {
        let wanted = match &summary.place {
            Some(SyncPlace::Folder { path }) => Some(PathBuf::from(path)),
            _ => None,
        };
        let mut current = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if current.as_ref().map(|w| &w.folder) == wanted.as_ref() {
            return;
        }
        *current = None;
        let Some(folder) = wanted else {
            return;
        };
        match watch(app.clone(), &folder, &summary.device) {
            Ok(watcher) => {
                *current = Some(Watching {
                    folder,
                    _watcher: watcher,
                });
            }
            // Sync still runs at start and on "Sync now".
            Err(e) => log::warn!("the sync folder cannot be watched for changes: {e}"),
        }
    }
}

/// What the watch saw since the last sync it woke.
#[derive(Debug, Default, PartialEq, Eq)]
struct Seen {
    /// Another device's files that arrived (or changed: a drive that writes a file in place).
    appeared: BTreeSet<PathBuf>,
    /// Read the folder whole: one of another device's files went away, or more arrived than one sync
    /// reads without listing the folder.
    whole: bool,
}

impl Seen {
    /// Notes what `event` did to another device's files (`own` is this device's id); true if it did
    /// anything.
    fn note(&mut self, event: &notify::Event, own: &str) -> bool {
        let theirs = |p: &PathBuf| is_another_devices_file(p, own);
        let (gone, came): (&[PathBuf], &[PathBuf]) = match event.kind {
            EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(RenameMode::From)) => {
                (&event.paths, &[])
            }
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => {
                event.paths.split_at(1.min(event.paths.len()))
            }
            // Reading a file is no change (this device's own sync reads them).
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => (&[], &event.paths),
            EventKind::Access(_) => (&[], &[]),
            _ => (&[], &event.paths),
        };
        // A device's folder that appears: files written into it before the watch reached it give no
        // event, so the folder is read whole.
        let new_device = matches!(event.kind, EventKind::Create(_))
            && event
                .paths
                .iter()
                .any(|p| is_another_devices_folder(p, own));
        let (gone, came) = (gone.iter().any(theirs), came.iter().filter(|p| theirs(p)));
        let mut noted = gone || new_device;
        self.whole |= gone || new_device;
        for path in came {
            noted = true;
            if self.appeared.len() >= MAX_APPEARED {
                self.whole = true;
            } else if !self.whole {
                self.appeared.insert(path.clone());
            }
        }
        noted
    }
}

/// A watcher on `folder`'s Redline files from devices other than `device`, and the thread that syncs
/// after they settle and sends this device's edits.
fn watch<R: Runtime>(
    app: AppHandle<R>,
    folder: &Path,
    device: &str,
) -> Result<RecommendedWatcher, String> {
    // One change waiting is as good as many: a program that writes files without end into the folder
    // keeps one message queued, not one a file, while a pass runs; what they were is in `seen`, bounded.
    let (changed, changes) = mpsc::sync_channel::<()>(1);
    let seen = Arc::new(Mutex::new(Seen::default()));
    let own = device.to_owned();
    let noting = seen.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let noted = match event {
            Ok(event) => noting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .note(&event, &own),
            // The watch lost track (its queue overflowed): the folder is read whole.
            Err(_) => {
                noting.lock().unwrap_or_else(PoisonError::into_inner).whole = true;
                true
            }
        };
        if noted {
            let _ = changed.try_send(());
        }
    })
    .map_err(|e| e.to_string())?;
    let dir = folder.join(redline_engine::sync::SYNC_DIR);
    watcher
        .watch(&dir, RecursiveMode::Recursive)
        .map_err(|e| e.to_string())?;
    std::thread::Builder::new()
        .name("sync-watch".into())
        .spawn(move || settle_then_sync(&app, &changes, &seen))
        .map_err(|e| e.to_string())?;
    Ok(watcher)
}

/// For each burst of changes, once the folder has been quiet for [`QUIET`]: one sync of what the watch
/// saw, its summary sent to the window; and every [`SEND_EVERY`] without a change, the edits made here
/// since the last sync sent. Ends when the watcher is dropped.
fn settle_then_sync<R: Runtime>(
    app: &AppHandle<R>,
    changes: &mpsc::Receiver<()>,
    seen: &Mutex<Seen>,
) {
    loop {
        let engine = app.state::<Engine>();
        let synced = match changes.recv_timeout(SEND_EVERY) {
            Ok(()) => {
                if !settled(changes) {
                    return;
                }
                let seen =
                    std::mem::take(&mut *seen.lock().unwrap_or_else(PoisonError::into_inner));
                let pass = if seen.whole {
                    tauri::async_runtime::block_on(engine.sync_now())
                } else {
                    let appeared = seen.appeared.into_iter().collect();
                    tauri::async_runtime::block_on(engine.sync_appeared(appeared))
                };
                pass.map(Some)
            }
            Err(RecvTimeoutError::Timeout) => {
                tauri::async_runtime::block_on(engine.sync_if_changed())
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        told(app, synced);
    }
}

/// Waits until no change came for [`QUIET`]; false when the watcher was dropped meanwhile.
fn settled(changes: &mpsc::Receiver<()>) -> bool {
    loop {
        match changes.recv_timeout(QUIET) {
            Ok(()) => {}
            Err(RecvTimeoutError::Timeout) => return true,
            Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
}

/// Tells the window what a sync did (nothing, when none ran).
fn told<R: Runtime>(app: &AppHandle<R>, synced: Result<Option<SyncSummary>, Error>) {
    match synced {
        Ok(Some(summary)) => {
            let _ = app.emit(AppEvent::Synced.name(), summary);
        }
        Ok(None) => {}
        // A drive still writing the marker, a folder gone: the next change, or "Sync now", tries again.
        Err(e) => log::warn!("sync after a change in the folder: {}", e.message),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::mpsc;
    use std::time::Duration;

    use redline_store::{Change, Source, Store};
    use tauri::test::{mock_builder, mock_context, noop_assets};
    use tauri::{Listener, Manager};

    use super::SyncWatch;
    use crate::engine::Engine;
    use redline_engine::sync::is_another_devices_file;

    #[test]
    fn only_another_device_s_event_files_wake_the_watch() {
        let own = "11111111-1111-4111-8111-111111111111";
        let other = "22222222-2222-4222-8222-222222222222";
        let at = |device: &str, name: &str| format!("/cloud/redline-sync/{device}/{name}");
        assert!(is_another_devices_file(
            Path::new(&at(other, "ab.json")),
            own
        ));
        assert!(!is_another_devices_file(
            Path::new(&at(own, "ab.json")),
            own
        ));
        assert!(!is_another_devices_file(
            Path::new(&at(other, ".redline-x.tmp")),
            own
        ));
        assert!(!is_another_devices_file(
            Path::new(&at(other, ".ab.json")),
            own
        ));
        assert!(!is_another_devices_file(
            Path::new(&at(other, "notes.txt")),
            own
        ));
    }

    #[test]
    fn the_watch_notes_files_that_arrive_and_reads_the_folder_whole_when_one_goes() {
        use notify::event::{
            AccessKind, AccessMode, CreateKind, ModifyKind, RemoveKind, RenameMode,
        };
        use notify::{Event, EventKind};

        let own = "11111111-1111-4111-8111-111111111111";
        let other = "22222222-2222-4222-8222-222222222222";
        let at = |device: &str, name: &str| {
            std::path::PathBuf::from(format!("/cloud/redline-sync/{device}/{name}"))
        };
        let event = |kind, paths: Vec<std::path::PathBuf>| Event {
            kind,
            paths,
            attrs: Default::default(),
        };
        let mut seen = super::Seen::default();
        let created = EventKind::Create(CreateKind::File);
        assert!(seen.note(&event(created, vec![at(other, "a.json")]), own));
        assert!(!seen.note(&event(created, vec![at(own, "b.json")]), own));
        let read = EventKind::Access(AccessKind::Open(AccessMode::Read));
        assert!(!seen.note(&event(read, vec![at(other, "c.json")]), own));
        let renamed = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
        let into = vec![at(other, ".redline-x.tmp"), at(other, "d.json")];
        assert!(seen.note(&event(renamed, into), own));
        assert_eq!(
            seen.appeared.iter().collect::<Vec<_>>(),
            [&at(other, "a.json"), &at(other, "d.json")]
        );
        assert!(!seen.whole);

        let folder_made = EventKind::Create(CreateKind::Folder);
        let device_folder = std::path::PathBuf::from(format!("/cloud/redline-sync/{other}"));
        let mut fresh = super::Seen::default();
        assert!(!fresh.note(
            &event(folder_made, vec![device_folder.with_file_name(own)]),
            own
        ));
        assert!(fresh.note(&event(folder_made, vec![device_folder]), own));
        assert!(
            fresh.whole,
            "a new device's folder: the folder is read whole"
        );

        let removed = EventKind::Remove(RemoveKind::File);
        assert!(seen.note(&event(removed, vec![at(other, "a.json")]), own));
        assert!(seen.whole, "a file gone: the folder is read whole");

        let mut many = super::Seen::default();
        for i in 0..=redline_engine::sync::MAX_APPEARED {
            many.note(&event(created, vec![at(other, &format!("{i}.json"))]), own);
        }
        assert!(many.whole);
        assert_eq!(many.appeared.len(), redline_engine::sync::MAX_APPEARED);
    }

    /// Edits `title` in the data folder `data` once (the label), as the window commits an edit.
    fn edit(data: &Path, label: &str) {
        let mut store = Store::open(data).unwrap();
        let id = store.list().unwrap()[0].id;
        let head = store.head(id).unwrap().number;
        let ops = serde_json::json!([{"op": "replace", "path": "/basics/label", "value": label}]);
        let patch = serde_json::from_value(ops).unwrap();
        store
            .commit(id, Change::new(head, Source::User, patch))
            .unwrap();
    }

    #[test]
    fn a_change_another_device_brings_is_synced_and_told_and_an_edit_here_goes_out() {
        let (_root, laptop, desktop, folder) = redline_testkit::two_devices();
        Store::open(&laptop)
            .unwrap()
            .import("Mine", &redline_resume::sample())
            .unwrap();
        let other = Engine::start_bare(laptop.clone());
        tauri::async_runtime::block_on(other.sync_through_folder(&folder)).unwrap();

        // The app, on the other device: it joins the folder, and its window listens.
        let app = crate::with_redline(mock_builder(), Engine::start_bare(desktop.clone()))
            .build(mock_context(noop_assets()))
            .unwrap();
        let (told, synced) = mpsc::channel();
        app.listen_any(crate::events::AppEvent::Synced.name(), move |event| {
            let _ = told.send(event.payload().to_owned());
        });
        let engine = app.state::<Engine>();
        let joined = tauri::async_runtime::block_on(engine.sync_through_folder(&folder)).unwrap();
        app.state::<SyncWatch>().follow(app.handle(), &joined);

        // The laptop edits and syncs: its drive brings the file; the app syncs by itself.
        edit(&laptop, "Founder");
        tauri::async_runtime::block_on(other.sync_now()).unwrap();
        let payload = synced
            .recv_timeout(Duration::from_secs(60))
            .expect("the app synced after the folder changed");
        let summary: serde_json::Value = serde_json::from_str(&payload).unwrap();
        assert_eq!(summary["updated"], serde_json::json!(["Mine"]), "{summary}");
        let store = Store::open(&desktop).unwrap();
        let id = store.list().unwrap()[0].id;
        assert_eq!(
            store.head(id).unwrap().document["basics"]["label"],
            "Founder"
        );

        // An edit made here goes out by itself, without "Sync now", and the laptop takes it.
        let files = || {
            // (None until this device makes its first change.)
            std::fs::read_dir(folder.join("redline-sync").join(&joined.device))
                .map_or(0, Iterator::count)
        };
        let before = files();
        edit(&desktop, "Designer");
        // (A pass that sent nothing may come first: opening a store to look counts as a write.)
        let went_out = (0..60).any(|_| {
            synced
                .recv_timeout(Duration::from_secs(60))
                .expect("the edit went out")
                .contains("\"sent\":1")
        });
        assert!(went_out);
        assert_eq!(files(), before + 1);
        tauri::async_runtime::block_on(other.sync_now()).unwrap();
        let store = Store::open(&laptop).unwrap();
        let id = store.list().unwrap()[0].id;
        assert_eq!(
            store.head(id).unwrap().document["basics"]["label"],
            "Designer"
        );
    }
}
