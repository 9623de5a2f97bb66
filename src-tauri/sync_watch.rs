//! Sync when the folder changes. While this device syncs through a folder, the app watches the folder's
//! `redline-sync` for files another device's drive brings, waits until it has been quiet for a moment (a
//! drive writes a burst of files), then syncs once and tells the window what came ([`AppEvent::Synced`],
//! carrying the `SyncSummary`). Files this device writes do not wake it, nor do a drive's temporary files.
//! A git remote is not watched: it is read at start and on "Sync now".
//!
//! Each command that answers with where this device syncs (status, sync now, choosing a folder or a
//! remote, turning sync off) hands the answer to [`SyncWatch::follow`], which watches the folder it names,
//! or stops.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use redline_engine::sync::{SyncPlace, SyncSummary, is_another_devices_file};
use tauri::{AppHandle, Emitter, Manager, Runtime};

use crate::engine::Engine;
use crate::events::AppEvent;

/// How long the folder must be quiet after a change before the sync runs.
const QUIET: Duration = Duration::from_secs(2);

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

/// A watcher on `folder`'s Redline files from devices other than `device`, and the thread that syncs
/// after they settle.
fn watch<R: Runtime>(
    app: AppHandle<R>,
    folder: &Path,
    device: &str,
) -> Result<RecommendedWatcher, String> {
    // One change waiting is as good as many: a program that writes files without end into the folder
    // keeps one message queued, not one a file, while a pass runs.
    let (changed, changes) = mpsc::sync_channel::<()>(1);
    let own = device.to_owned();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event.paths.iter().any(|p| is_another_devices_file(p, &own))
        {
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
        .spawn(move || settle_then_sync(&app, &changes))
        .map_err(|e| e.to_string())?;
    Ok(watcher)
}

/// For each burst of changes, once the folder has been quiet for [`QUIET`]: one sync, its summary sent
/// to the window. Ends when the watcher is dropped.
fn settle_then_sync<R: Runtime>(app: &AppHandle<R>, changes: &mpsc::Receiver<()>) {
    while changes.recv().is_ok() {
        loop {
            match changes.recv_timeout(QUIET) {
                Ok(()) => {}
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let engine = app.state::<Engine>();
        match tauri::async_runtime::block_on(engine.sync_now()) {
            Ok(summary) => {
                let _ = app.emit(AppEvent::Synced.name(), summary);
            }
            // A drive still writing the marker, a folder gone: the next change, or "Sync now", tries again.
            Err(e) => log::warn!("sync after a change in the folder: {}", e.message),
        }
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
    fn a_change_another_device_brings_into_the_folder_is_synced_and_told() {
        let root = tempfile::tempdir().unwrap();
        let (laptop, desktop, folder) = (
            root.path().join("laptop"),
            root.path().join("desktop"),
            root.path().join("cloud"),
        );
        std::fs::create_dir_all(&folder).unwrap();
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
    }
}
