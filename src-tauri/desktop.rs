//! What makes Redline a citizen of the desktop: its menu, one running copy per data folder, a log file in
//! the OS's log folder, and the startup measurement.
//!
//! The menu is described as data ([`MENU`]) and built from it, so that what it offers (and which keys it
//! takes) is checked by tests without a display. The items that act on the window are forwarded to the
//! UI as an `AppEvent::Menu` carrying the item's id (a `MenuAction`, generated to TypeScript); the UI does
//! what its own buttons do.

use std::time::Instant;

use crate::events::{AppEvent, MenuAction};
use tauri::menu::{AboutMetadata, Menu, MenuItem, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, Emitter, Manager, Runtime};

/// One item of the menu: its id, its label, and its shortcut in Tauri's accelerator syntax.
#[derive(Debug, Clone, Copy)]
pub struct Item {
    pub id: &'static str,
    pub label: &'static str,
    pub accelerator: Option<&'static str>,
}

/// A line of a submenu.
#[derive(Debug, Clone, Copy)]
pub enum Entry {
    /// An item of Redline's own.
    Item(Item),
    /// The platform's own text-editing item (cut, copy, paste, select all): it acts on the focused field.
    Text(TextItem),
    Separator,
    /// The platform's About window, with the app's name, version and licence.
    About,
}

/// The platform's text-editing items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextItem {
    Cut,
    Copy,
    Paste,
    SelectAll,
}

const fn item(id: &'static str, label: &'static str, accelerator: Option<&'static str>) -> Entry {
    Entry::Item(Item {
        id,
        label,
        accelerator,
    })
}

/// The menu, submenu by submenu. Undo and Redo carry no shortcut here: Ctrl/Cmd+Z belongs to the text field
/// being typed in, and the window itself takes those keys only outside text fields (App.svelte).
pub const MENU: &[(&str, &[Entry])] = &[
    (
        "File",
        &[
            item(MenuAction::New.id(), "New Resume", Some("CmdOrCtrl+N")),
            item(MenuAction::NewSample.id(), "New from the Sample", None),
            item(MenuAction::Import.id(), "Import…", Some("CmdOrCtrl+O")),
            item(MenuAction::Documents.id(), "Documents…", None),
            Entry::Separator,
            item(
                MenuAction::Export.id(),
                "Export…",
                Some("CmdOrCtrl+Shift+E"),
            ),
            Entry::Separator,
            item(MenuAction::Settings.id(), "Settings…", Some("CmdOrCtrl+,")),
            Entry::Separator,
            item("quit", "Quit Redline", Some("CmdOrCtrl+Q")),
        ],
    ),
    (
        "Edit",
        &[
            item(MenuAction::Undo.id(), "Undo Change", None),
            item(MenuAction::Redo.id(), "Redo Change", None),
            item(MenuAction::History.id(), "History…", None),
            Entry::Separator,
            Entry::Text(TextItem::Cut),
            Entry::Text(TextItem::Copy),
            Entry::Text(TextItem::Paste),
            Entry::Text(TextItem::SelectAll),
        ],
    ),
    (
        "Help",
        &[
            item(
                MenuAction::CommandPalette.id(),
                "Command Palette…",
                Some("CmdOrCtrl+K"),
            ),
            item(MenuAction::Shortcuts.id(), "Keyboard Shortcuts…", None),
            Entry::Separator,
            Entry::About,
            item("check-updates", "Check for Updates…", None),
            item("open-log-folder", "Open Log Folder", None),
        ],
    ),
];

/// The ids the UI acts on (the rest are handled here).
pub fn ui_items() -> impl Iterator<Item = &'static str> {
    MenuAction::ALL.into_iter().map(MenuAction::id)
}

/// Builds [`MENU`] for `app`. On macOS the first menu is the application's own (About, Services, Hide,
/// Quit with Cmd+Q), and the Edit menu starts with the system's Undo and Redo, which text fields there need.
pub fn menu<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<Menu<R>> {
    let mac = cfg!(target_os = "macos");
    let menu = Menu::new(app)?;
    if mac {
        let application = Submenu::new(app, "Redline", true)?;
        application.append(&PredefinedMenuItem::about(
            app,
            Some("About Redline"),
            Some(about()),
        )?)?;
        application.append(&PredefinedMenuItem::separator(app)?)?;
        application.append(&PredefinedMenuItem::services(app, None)?)?;
        application.append(&PredefinedMenuItem::separator(app)?)?;
        application.append(&PredefinedMenuItem::hide(app, None)?)?;
        application.append(&PredefinedMenuItem::hide_others(app, None)?)?;
        application.append(&PredefinedMenuItem::show_all(app, None)?)?;
        application.append(&PredefinedMenuItem::separator(app)?)?;
        application.append(&PredefinedMenuItem::quit(app, Some("Quit Redline"))?)?;
        menu.append(&application)?;
    }
    for (title, entries) in MENU {
        let submenu = Submenu::new(app, *title, true)?;
        if mac && *title == "Edit" {
            submenu.append(&PredefinedMenuItem::undo(app, None)?)?;
            submenu.append(&PredefinedMenuItem::redo(app, None)?)?;
            submenu.append(&PredefinedMenuItem::separator(app)?)?;
        }
        for entry in *entries {
            match entry {
                // macOS has these in the application menu.
                Entry::Item(item) if mac && item.id == "quit" => {}
                Entry::About if mac => {}
                Entry::Item(item) => {
                    submenu.append(&MenuItem::with_id(
                        app,
                        item.id,
                        item.label,
                        true,
                        item.accelerator,
                    )?)?;
                }
                Entry::Text(text) => submenu.append(&match text {
                    TextItem::Cut => PredefinedMenuItem::cut(app, None)?,
                    TextItem::Copy => PredefinedMenuItem::copy(app, None)?,
                    TextItem::Paste => PredefinedMenuItem::paste(app, None)?,
                    TextItem::SelectAll => PredefinedMenuItem::select_all(app, None)?,
                })?,
                Entry::Separator => submenu.append(&PredefinedMenuItem::separator(app)?)?,
                Entry::About => submenu.append(&PredefinedMenuItem::about(
                    app,
                    Some("About Redline"),
                    Some(about()),
                )?)?,
            }
        }
        menu.append(&submenu)?;
    }
    Ok(menu)
}

fn about() -> AboutMetadata<'static> {
    AboutMetadata {
        name: Some("Redline".into()),
        version: Some(env!("CARGO_PKG_VERSION").into()),
        comments: Some("Edit your resume with AI, locally.".into()),
        license: Some(
            "MIT. The third-party licences are in THIRD-PARTY-NOTICES.md, installed beside Redline.".into(),
        ),
        copyright: Some("© The Redline authors".into()),
        ..Default::default()
    }
}

/// What a click on a menu item does.
pub fn on_menu<R: Runtime>(app: &AppHandle<R>, id: &str) {
    match id {
        "quit" => app.exit(0),
        "check-updates" => crate::updates::check_from_menu(app.clone()),
        "open-log-folder" => open_log_folder(app),
        id if ui_items().any(|ui| ui == id) => {
            let _ = app.emit(AppEvent::Menu.name(), id);
        }
        _ => {}
    }
}

fn open_log_folder<R: Runtime>(app: &AppHandle<R>) {
    use tauri_plugin_opener::OpenerExt;
    let opened = app.path().app_log_dir().and_then(|dir| {
        std::fs::create_dir_all(&dir)?;
        Ok(dir)
    });
    match opened {
        Ok(dir) => {
            if let Err(e) = app
                .opener()
                .open_path(dir.display().to_string(), None::<&str>)
            {
                log::warn!("could not open the log folder: {e}");
            }
        }
        Err(e) => log::warn!("there is no log folder: {e}"),
    }
}

/// The log: a file in the OS's log folder (`redline.log`, at most 1 MB, the last three kept) and the
/// terminal. Only Redline's own messages at `info` and up, and others' warnings: no request, prompt,
/// resume or key is ever logged (what the engine logs names documents by id and problems in words).
pub fn log_plugin<R: Runtime>() -> tauri::plugin::TauriPlugin<R> {
    use tauri_plugin_log::{RotationStrategy, Target, TargetKind};
    tauri_plugin_log::Builder::new()
        .clear_targets()
        .targets([
            Target::new(TargetKind::LogDir {
                file_name: Some("redline".into()),
            }),
            Target::new(TargetKind::Stderr),
        ])
        .level(log::LevelFilter::Info)
        .filter(|metadata| logged(metadata.target()))
        .format(|out, message, record| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            let t = redline_store::Utc::from_ms(now);
            out.finish(format_args!(
                "[{:04}-{:02}-{:02} {:02}:{:02}:{:02}][{}][{}] {}",
                t.year,
                t.month,
                t.day,
                t.hour,
                t.minute,
                t.second,
                record.target(),
                record.level(),
                log_line(&message.to_string())
            ))
        })
        .max_file_size(1_000_000)
        .rotation_strategy(RotationStrategy::KeepSome(3))
        .build()
}

/// The crates whose messages reach the log: Redline's own, which say what happened without the user's
/// data. Every other crate's are dropped, at every level: async-openai logs a server's 5xx body and an
/// unparseable chunk whole (through `tracing`, which reaches `log`), and a server that echoes its request
/// would put the resume, or a key it reflects, into a plaintext file.
const LOGGED: [&str; 7] = [
    "redline_app",
    "redline_engine",
    "redline_agent",
    "redline_store",
    "redline_pdf",
    "redline_resume",
    "redline_patch",
];

/// Whether a message from `target` (a module path) is written.
fn logged(target: &str) -> bool {
    let krate = target.split("::").next().unwrap_or(target);
    LOGGED.contains(&krate)
}

/// The longest line the log keeps, in characters: a message is a sentence, never a body.
const MAX_LOG_LINE: usize = 400;

/// A message as one line of the log: control characters (line breaks included), direction overrides and
/// invisible characters shown escaped, cut to [`MAX_LOG_LINE`] characters.
fn log_line(message: &str) -> String {
    let mut line = String::new();
    let mut shown = 0;
    for c in message.chars() {
        let piece: String = if c.is_control() || redline_engine::unseen::is_unseen(c) {
            c.escape_default().collect()
        } else {
            c.into()
        };
        shown += piece.chars().count();
        if shown > MAX_LOG_LINE {
            line.push('…');
            break;
        }
        line.push_str(&piece);
    }
    line
}

/// The name under which the running copy for `data_dir` is found by the next launch (Linux's D-Bus): one
/// copy per data folder, so a second launch on the same folder hands its files to the first instead of
/// opening the same database twice, and a test's own folder never meets a user's running app.
pub fn instance_id(identifier: &str, data_dir: Option<&std::path::Path>) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    data_dir.hash(&mut hasher);
    format!("{identifier}.d{:016x}", hasher.finish())
}

/// A second launch: the first window comes to the front and opens the files it was asked to open.
pub fn second_launch<R: Runtime>(app: &AppHandle<R>, argv: Vec<String>, cwd: String) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    let files: Vec<_> = crate::files_from_args(argv.into_iter().skip(1))
        .into_iter()
        .map(|file| std::path::Path::new(&cwd).join(file))
        .collect();
    if !files.is_empty() {
        crate::open_files(app, files, true);
    }
}

/// Linux: WebKitGTK draws the page without its GPU compositor (`WEBKIT_DISABLE_COMPOSITING_MODE`), unless
/// the user set that variable themselves. The compositor loads the OpenGL stack (Mesa's llvmpipe where
/// there is no GPU driver) into the web process: measured here, the web process took 209 MB with it and
/// 108 MB without, for a page of text that scrolls as smoothly either way (README "Budgets"). With the
/// compositor off, the DMA-BUF renderer (which carries the compositor's frames to the window) has nothing to
/// carry: it is turned off too (`WEBKIT_DISABLE_DMABUF_RENDERER`, unless set), and the app process keeps
/// less of the OpenGL stack (4.8 MB PSS less, measured). Called first thing in `run`, before any thread or
/// WebKit process starts.
///
/// # Safety
/// It writes the process's environment: no other thread may be running (and so reading the environment)
/// when it is called.
pub unsafe fn software_compositing() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        // SAFETY: the caller promises that no other thread runs.
        unsafe { std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1") };
        if std::env::var_os("WEBKIT_DISABLE_DMABUF_RENDERER").is_none() {
            // SAFETY: as above.
            unsafe { std::env::set_var("WEBKIT_DISABLE_DMABUF_RENDERER", "1") };
        }
    }
}

/// `--measure-startup`: the time from the process's start to the view's first paint of the resume.
#[derive(Debug)]
pub struct Startup {
    began: Instant,
    /// How long the process ran before `main` (the dynamic loader), as far as the OS tells.
    before_main_ms: f64,
    pub measuring: bool,
}

impl Startup {
    /// Called first thing in `main`.
    pub fn begin(measuring: bool) -> Startup {
        Startup {
            began: Instant::now(),
            before_main_ms: before_main_ms().unwrap_or(0.0),
            measuring,
        }
    }

    /// Milliseconds from the process's start until now.
    pub fn elapsed_ms(&self) -> f64 {
        self.before_main_ms + self.began.elapsed().as_secs_f64() * 1000.0
    }
}

/// Linux: the process's age when `main` began, from its start time (`/proc/self/stat`, in clock ticks
/// since boot) and the time since boot (`/proc/uptime`), both to 10 ms.
fn before_main_ms() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // The fields after the command name (which may hold spaces) start after the last ')'.
        let rest = &stat[stat.rfind(')')? + 2..];
        // starttime is field 22 of the line, the 20th after the command name.
        let ticks: f64 = rest.split_whitespace().nth(19)?.parse().ok()?;
        let uptime: f64 = std::fs::read_to_string("/proc/uptime")
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        // Linux's USER_HZ is 100 on every architecture it supports.
        Some(((uptime - ticks / 100.0) * 1000.0).max(0.0))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The view painted the resume for the first time: with `--measure-startup`, print the time and quit.
pub fn painted<R: Runtime>(app: &AppHandle<R>) {
    let Some(startup) = app.try_state::<Startup>() else {
        return;
    };
    if startup.measuring {
        println!(
            "{}",
            serde_json::json!({ "first_paint_ms": startup.elapsed_ms().round() as u64 })
        );
        app.exit(0);
    }
}

#[cfg(test)]
mod log_tests {
    /// Only Redline's own crates reach the log, each message one line of bounded length: a server's 5 MB
    /// error body, logged by the model client, is written nowhere.
    #[test]
    fn the_log_holds_redline_s_sentences_not_other_crates_bodies() {
        for ours in [
            "redline_app",
            "redline_engine::documents",
            "redline_agent::turn",
        ] {
            assert!(super::logged(ours), "{ours}");
        }
        for theirs in [
            "async_openai::client",
            "reqwest::connect",
            "tauri::app",
            "redline",
            "hyper",
        ] {
            assert!(!super::logged(theirs), "{theirs}");
        }
        let body = format!("Server error: MARKER\n{}", "x".repeat(5 << 20));
        let line = super::log_line(&body);
        assert!(
            line.chars().count() <= super::MAX_LOG_LINE + 1,
            "{}",
            line.len()
        );
        assert!(
            !line.contains('\n') && line.contains("MARKER\\n"),
            "{line:.60}"
        );
        // A direction override in a title would show the line reversed in a log viewer.
        assert_eq!(
            super::log_line("opened \u{202e}fdp.exe\u{200b}"),
            "opened \\u{202e}fdp.exe\\u{200b}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items() -> impl Iterator<Item = Item> {
        MENU.iter()
            .flat_map(|(_, entries)| entries.iter())
            .filter_map(|entry| match entry {
                Entry::Item(item) => Some(*item),
                _ => None,
            })
    }

    #[test]
    fn no_shortcut_takes_a_key_that_edits_text() {
        // Keys a text field (or the platform's line editing) answers to: select all, copy, cut, paste, undo,
        // redo, line start/end, word moves, bold/italic/underline in rich fields, delete, kill line.
        let text_keys = [
            "A",
            "B",
            "C",
            "D",
            "E",
            "F",
            "H",
            "I",
            "K",
            "U",
            "V",
            "X",
            "Y",
            "Z",
            "Backspace",
            "Delete",
            "Left",
            "Right",
            "Home",
            "End",
        ];
        for item in items() {
            let Some(accelerator) = item.accelerator else {
                continue;
            };
            let parts: Vec<&str> = accelerator.split('+').collect();
            let key = parts.last().unwrap();
            let shifted = parts.contains(&"Shift");
            assert!(
                parts.contains(&"CmdOrCtrl"),
                "{accelerator}: on macOS an app shortcut uses Cmd"
            );
            // The one exception: the command palette's Ctrl/Cmd+K is the window's in every field already
            // (App.svelte's `onkeydown` takes it before a field does); the menu's accelerator takes no more.
            let palette = item.id == MenuAction::CommandPalette.id();
            assert!(
                palette || shifted && *key != "Z" || !text_keys.contains(key),
                "“{}” takes {accelerator}, which text fields use",
                item.label
            );
        }
    }

    #[test]
    fn every_item_is_handled_and_ids_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for item in items() {
            assert!(seen.insert(item.id), "{} is in the menu twice", item.id);
            assert!(
                ui_items().any(|ui| ui == item.id)
                    || ["quit", "check-updates", "open-log-folder"].contains(&item.id),
                "nothing handles the menu item {}",
                item.id
            );
        }
        for id in ui_items() {
            assert!(seen.contains(id), "{id} is handled but not in the menu");
        }
        let accelerators: Vec<_> = items().filter_map(|i| i.accelerator).collect();
        let unique: std::collections::HashSet<_> = accelerators.iter().collect();
        assert_eq!(
            unique.len(),
            accelerators.len(),
            "a shortcut is taken twice"
        );
    }

    #[test]
    fn the_menu_has_what_a_desktop_app_offers() {
        let titles: Vec<_> = MENU.iter().map(|(title, _)| *title).collect();
        assert_eq!(titles, ["File", "Edit", "Help"]);
        let labels: Vec<_> = items().map(|i| i.label).collect();
        for wanted in [
            "New Resume",
            "Import…",
            "Export…",
            "Quit Redline",
            "Undo Change",
            "Redo Change",
            "Check for Updates…",
            "Open Log Folder",
        ] {
            assert!(labels.contains(&wanted), "no “{wanted}” in the menu");
        }
        // Help lists the window's shortcuts, and reaches the command palette by its key.
        let help: Vec<_> = MENU
            .iter()
            .find(|(t, _)| *t == "Help")
            .unwrap()
            .1
            .iter()
            .filter_map(|e| match e {
                Entry::Item(item) => Some((item.id, item.label, item.accelerator)),
                _ => None,
            })
            .collect();
        assert_eq!(
            help[..2],
            [
                (
                    MenuAction::CommandPalette.id(),
                    "Command Palette…",
                    Some("CmdOrCtrl+K")
                ),
                (MenuAction::Shortcuts.id(), "Keyboard Shortcuts…", None),
            ]
        );
        let edit = MENU.iter().find(|(t, _)| *t == "Edit").unwrap().1;
        let text: Vec<_> = edit
            .iter()
            .filter_map(|e| match e {
                Entry::Text(t) => Some(*t),
                _ => None,
            })
            .collect();
        assert_eq!(
            text,
            [
                TextItem::Cut,
                TextItem::Copy,
                TextItem::Paste,
                TextItem::SelectAll
            ]
        );
        assert!(
            MENU.iter()
                .any(|(_, e)| e.iter().any(|e| matches!(e, Entry::About)))
        );
    }

    /// The menu's key for the command palette is the one the window answers to and shows (commands.ts).
    #[test]
    fn the_palette_s_key_is_the_window_s() {
        let commands = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/lib/commands.ts"),
        )
        .unwrap();
        let palette = items()
            .find(|i| i.id == MenuAction::CommandPalette.id())
            .and_then(|i| i.accelerator)
            .unwrap();
        assert!(
            commands.contains(&format!("export const PALETTE_SHORTCUT = \"{palette}\";")),
            "the menu opens the palette with {palette}, commands.ts's PALETTE_SHORTCUT says otherwise"
        );
    }

    #[test]
    fn one_instance_per_data_folder() {
        let a = instance_id(
            "app.redline.desktop",
            Some("/home/a/.local/share/x".as_ref()),
        );
        let b = instance_id("app.redline.desktop", Some("/tmp/test".as_ref()));
        assert_ne!(a, b);
        assert_eq!(
            a,
            instance_id(
                "app.redline.desktop",
                Some("/home/a/.local/share/x".as_ref())
            )
        );
        // A D-Bus name element may not start with a digit.
        assert!(a.rsplit('.').next().unwrap().starts_with('d'));
    }

    #[test]
    fn the_process_age_before_main_is_known_on_linux() {
        let startup = Startup::begin(true);
        if cfg!(target_os = "linux") {
            assert!(before_main_ms().is_some());
        }
        // A test process has been running for a while: never negative, never absurd.
        let ms = startup.elapsed_ms();
        assert!((0.0..86_400_000.0).contains(&ms), "{ms}");
    }
}
