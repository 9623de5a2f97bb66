//! The Redline desktop app: a thin Tauri shell over the engine in `crates/engine`.
//!
//! The shell owns the window and the bridge between the web UI and the engine; it decides nothing about
//! resumes itself. The `redline` command line drives the same engine: the table "One engine, two front
//! doors" in `docs/architecture.md` says which operation each offers (`tests/parity.rs` keeps it true).
//!
//! # Layout
//! - [`ipc`] (from the engine): the types that cross the bridge, from which the UI's TypeScript types are
//!   generated.
//! - [`engine`]: `redline_engine`, what the app holds while it runs: the open store, the document on screen
//!   and its surface.
//! - [`commands`]: the Tauri commands the UI calls.
//! - [`desktop`]: the menu, one running copy per data folder, the log, the startup measurement.
//! - [`events`]: what the shell tells the window outside a turn (app-wide events, the menu's actions).
//! - [`updates`]: signed updates ("Check for Updates…").
//! - [`run`]: starts the app; [`data_dir_from_args`] reads `--data-dir` the way the CLI does.

pub mod commands;
pub mod desktop;
pub mod events;
pub mod sync_watch;
pub use redline_engine::{self as engine, ipc};
pub mod updates;

use std::path::PathBuf;

use engine::Engine;
use tauri::Manager;

/// The data folder named on the command line (`--data-dir DIR` or `--data-dir=DIR`), like the CLI's flag.
pub fn data_dir_from_args(args: impl IntoIterator<Item = String>) -> Option<PathBuf> {
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--data-dir" {
            return args.next().map(PathBuf::from);
        }
        if let Some(dir) = arg.strip_prefix("--data-dir=") {
            return Some(PathBuf::from(dir));
        }
    }
    None
}

/// Adds Redline's state and commands to a Tauri builder (the real runtime, or the mock one in tests).
pub fn with_redline<R: tauri::Runtime>(
    builder: tauri::Builder<R>,
    engine: Engine,
) -> tauri::Builder<R> {
    with_commands(builder).manage(engine)
}

/// Redline's commands and the plugins they use, without the engine (which [`run`] starts once the app
/// knows it is the only copy on its data folder).
fn with_commands<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    with_state_and_plugins(builder).invoke_handler(tauri::generate_handler![
        commands::painted,
        commands::open_link,
        commands::provider_settings,
        commands::save_provider,
        commands::set_key,
        commands::clear_key,
        commands::test_connection,
        commands::find_local_servers,
        commands::open_surface,
        commands::app_info,
        commands::send_message,
        commands::turn_stream,
        commands::end_turn_stream,
        commands::start_demo,
        commands::write_letter,
        commands::apply_for,
        commands::tidy_import,
        commands::apply_held,
        commands::stop_turn,
        commands::chat_history,
        commands::export_preview,
        commands::export_document,
        commands::designs,
        commands::theme_stamp,
        commands::design_thumbnail,
        commands::set_design,
        commands::fit_pages,
        commands::remove_photo,
        commands::choose_photo,
        commands::export_sent,
        commands::list_documents,
        commands::document_state,
        commands::open_document,
        commands::new_document,
        commands::import_document,
        commands::preview_import,
        commands::import_reviewed,
        commands::take_reviews,
        commands::duplicate_document,
        commands::rename_document,
        commands::delete_document,
        commands::undelete_document,
        commands::undo,
        commands::redo,
        commands::history,
        commands::revision,
        commands::restore,
        commands::take_notices,
        commands::edit_document,
        commands::set_words,
        commands::ats_check,
        commands::page_images,
        commands::tailor_document,
        commands::tailoring,
        commands::held_edits,
        commands::held_findings,
        commands::discard_held,
        commands::review_mode,
        commands::set_review_mode,
        commands::list_applications,
        commands::add_application,
        commands::move_application,
        commands::export_applications_csv,
        commands::import_applications_csv,
        commands::lint_document,
        commands::set_rule_enabled,
        commands::fix_finding,
        commands::add_word,
        commands::sync_status,
        commands::sync_now,
        commands::sync_through_git,
        commands::sync_off,
        commands::choose_sync_folder,
        commands::sync_through_folder
    ])
}

/// The state the commands share (turn streams, the sync folder's watch) and the plugins they use.
fn with_state_and_plugins<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
        .manage(redline_engine::streams::TurnStreams::default())
        .manage(sync_watch::SyncWatch::default())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(navigation_guard())
}

/// True when `url` is the app's own page (or, in development, the dev server's): nothing else is ever
/// shown in the window. A link in the resume opens in the system browser through `open_link` instead.
pub fn stays_in_app(url: &tauri::Url, dev_url: Option<&tauri::Url>) -> bool {
    let own = match url.scheme() {
        "tauri" => url.host_str() == Some("localhost"),
        "http" | "https" => url.host_str() == Some("tauri.localhost"),
        _ => false,
    };
    own || dev_url.is_some_and(|dev| dev.origin() == url.origin())
}

/// Refuses every navigation of a window away from the app (a link clicked, a script setting `location`).
fn navigation_guard<R: tauri::Runtime>() -> tauri::plugin::TauriPlugin<R> {
    tauri::plugin::Builder::new("redline-navigation")
        .on_navigation(|webview, url| {
            let dev = tauri::Manager::config(webview).build.dev_url.clone();
            // Only a debug build is served by the dev server.
            let dev = dev.filter(|_| cfg!(debug_assertions));
            stays_in_app(url, dev.as_ref())
        })
        .build()
}

/// The files named on the command line to open (`redline-app resume.json`, as a file manager or the OS's
/// file association starts it): every argument that is not a flag or the data folder.
pub fn files_from_args(args: impl IntoIterator<Item = String>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--data-dir" {
            args.next();
        } else if !arg.starts_with('-') && !arg.is_empty() {
            files.push(PathBuf::from(arg));
        }
    }
    files
}

/// Starts the desktop app.
pub fn run() {
    let startup = desktop::Startup::begin(std::env::args().any(|a| a == "--measure-startup"));
    // SAFETY: `run` is what `main` does first; no thread of the app's has started yet.
    unsafe { desktop::software_compositing() };
    redline_engine::sync::start_before_threads();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let data_dir = redline_store::resolve_data_dir(data_dir_from_args(args.clone()));
    let files = files_from_args(args);
    let context = tauri::generate_context!();
    let instance = desktop::instance_id(&context.config().identifier, data_dir.as_deref());
    // The single-instance plugin comes first: a second launch on the same data folder hands its files to
    // the running copy and exits before anything else starts (the engine is started in `setup`, after it).
    let builder = tauri::Builder::default()
        .plugin(
            tauri_plugin_single_instance::Builder::new()
                .dbus_id(instance)
                .callback(desktop::second_launch)
                .build(),
        )
        .plugin(desktop::log_plugin())
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .plugin(tauri_plugin_updater::Builder::new().build());
    with_commands(builder)
        .menu(desktop::menu)
        .on_menu_event(|app, event| desktop::on_menu(app, event.id().as_ref()))
        .manage(startup)
        .setup(move |app| {
            let engine = Engine::start(data_dir);
            if let Some(problem) = engine.problem() {
                // The window shows this too.
                log::error!("{problem}");
            }
            app.manage(engine);
            // A resume the app was asked to open is imported and shown; one that cannot be is said in the
            // chat.
            open_files(app.handle(), files, false);
            Ok(())
        })
        .build(context)
        .expect("the Redline window could not be started")
        .run(|_app, _event| {
            // macOS hands the files the user opens with Redline (Finder, the Dock) to the running app.
            #[cfg(any(target_os = "macos", target_os = "ios"))]
            if let tauri::RunEvent::Opened { urls } = &_event {
                let files = urls
                    .iter()
                    .filter_map(|url| url.to_file_path().ok())
                    .collect();
                open_files(_app, files, true);
            }
        });
}

/// Imports and shows each file the app is asked to open; one that cannot be is said in the chat (and the
/// log says only that a file could not be opened: its problems may quote the resume).
/// Before the window has loaded (`shown` false) the problem waits for it as a notice; after, it is said at
/// once.
pub(crate) fn open_files<R: tauri::Runtime>(
    app: &tauri::AppHandle<R>,
    files: Vec<PathBuf>,
    shown: bool,
) {
    use tauri::Emitter;
    let engine = app.state::<Engine>();
    for path in files {
        let mut emit = commands::emitter(app.clone());
        let opened = tauri::async_runtime::block_on(engine.open_file(&path, &mut emit));
        // A PDF, a Word file, …: the window's import review shows what was read before anything is written.
        if let Ok(Some(preview)) = opened {
            if shown {
                let _ = app.emit(events::AppEvent::Review.name(), preview);
            } else {
                engine.await_review(preview);
            }
        } else if let Err(e) = opened {
            log::warn!("a file Redline was asked to open could not be imported");
            if shown {
                let _ = app.emit(
                    events::AppEvent::Chat.name(),
                    ipc::ChatEvent::Status { text: e.message },
                );
            } else {
                engine.notice(e.message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_data_dir_flag_takes_both_forms() {
        assert_eq!(
            data_dir_from_args(args(&["--data-dir", "/tmp/a"])),
            Some(PathBuf::from("/tmp/a"))
        );
        assert_eq!(
            data_dir_from_args(args(&["--verbose", "--data-dir=/tmp/b"])),
            Some(PathBuf::from("/tmp/b"))
        );
        assert_eq!(data_dir_from_args(args(&["--data-dir"])), None);
        assert_eq!(data_dir_from_args(args(&[])), None);
    }

    #[test]
    fn files_to_open_are_the_arguments_that_are_not_flags() {
        assert_eq!(
            files_from_args(args(&["--data-dir", "/tmp/a", "cv.json", "-v", "b.json"])),
            [PathBuf::from("cv.json"), PathBuf::from("b.json")]
        );
        assert!(files_from_args(args(&["--data-dir=/tmp/a", "--measure-startup"])).is_empty());
    }
}
