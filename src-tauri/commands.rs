//! The commands the web UI calls. Most hand the window's arguments to one method of the engine and answer
//! with what it returns: `engine_commands!` declares those, a line each; the rest are written out.

use std::io::Write as _;
use std::path::PathBuf;

use tauri::{AppHandle, Emitter, Manager, Runtime, State};

use crate::engine::Engine;
use crate::events::AppEvent;
use crate::ipc::{
    AppInfo, ChatPage, DocState, DocumentRow, Error, ExportDone, ExportRequest, HistoryPage,
    HistoryQuery, ImportDone, ImportPreview, ProviderView, RevisionView, SurfaceUpdate, TailorView,
    TurnMessage, TurnOutcome,
};
use crate::sync_watch::SyncWatch;
use redline_engine::applications::{Application, NewApplication, Stage};
use redline_engine::lint::Finding;
use redline_engine::streams::{TurnMessages, TurnStreams};
use redline_engine::sync::{FolderChosen, SyncSummary};

/// Declares Tauri commands that each await one method of the engine and answer with what it returns:
/// `fn name(argument: Type, …) -> T = method(expression, …);` is the command `name`, which takes the
/// engine's state and the window's arguments, calls `engine.method(expression, …)` and answers with
/// `Result<T, Error>`. After `changing:`, the method is also handed [`emitter`], last: what it
/// changes, every window hears. After `streaming:`, the first argument is the turn's number and the method
/// is handed a [`turn_emitter`] for it, last: the turn streams to the window that started it, which reads
/// it with [`turn_stream`], and the stream ends when the command returns. After `syncing:`, the method
/// answers with a `SyncSummary`, which [`SyncWatch::follow`] is handed too: the sync folder it names is
/// watched.
macro_rules! engine_commands {
    (changing: $($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $out:ty
        = $method:ident($($call:expr),*);)*) => {$(
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name<R: Runtime>(
            app: AppHandle<R>,
            engine: State<'_, Engine>,
            $($arg: $ty),*
        ) -> Result<$out, Error> {
            engine.$method($($call,)* &mut emitter(app)).await
        }
    )*};
    (streaming: $($(#[$doc:meta])* fn $name:ident($turn:ident: u32 $(, $arg:ident: $ty:ty)*) -> $out:ty
        = $method:ident($($call:expr),*);)*) => {$(
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name(
            engine: State<'_, Engine>,
            streams: State<'_, TurnStreams>,
            $turn: u32,
            $($arg: $ty),*
        ) -> Result<$out, Error> {
            let _ends = Ends(&streams, $turn);
            engine.$method($($call,)* &mut turn_emitter(&streams, $turn)).await
        }
    )*};
    (syncing: $($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> SyncSummary
        = $method:ident($($call:expr),*);)*) => {$(
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name<R: Runtime>(
            app: AppHandle<R>,
            engine: State<'_, Engine>,
            $($arg: $ty),*
        ) -> Result<SyncSummary, Error> {
            let summary = engine.$method($($call),*).await?;
            app.state::<SyncWatch>().follow(&app, &summary);
            Ok(summary)
        }
    )*};
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $out:ty
        = $method:ident($($call:expr),*);)*) => {$(
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name(
            engine: State<'_, Engine>,
            $($arg: $ty),*
        ) -> Result<$out, Error> {
            engine.$method($($call),*).await
        }
    )*};
}

engine_commands! {
    /// The resume view's first message: the current document as a `create`. The UI calls it on start and
    /// again whenever it sees a gap in `seq`.
    fn open_surface() -> SurfaceUpdate = open_surface();

    /// How an applicant tracking system reads the resume's PDF (`request`'s template and page size).
    fn ats_check(request: ExportRequest, theme: Option<String>) -> crate::ipc::AtsView
        = ats(&request, theme);

    /// A page of the conversation about the document on screen: its newest lines before `before`, oldest
    /// first.
    fn chat_history(before: Option<i64>) -> ChatPage = chat_history(before);

    /// The saved provider: settings, and whether a key is set (never the key).
    fn provider_settings() -> ProviderView = provider();

    /// Saves the provider settings.
    fn save_provider(settings: redline_agent::ProviderSettings) -> ProviderView = save_provider(settings);

    /// Keeps the key in the OS keychain for the saved provider and host; the reply says only that it is set.
    fn set_key(key: String) -> ProviderView = set_key(key);

    /// Removes the saved provider's key from the OS keychain.
    fn clear_key() -> ProviderView = clear_key();

    /// Tests the connection: the model list, one tiny request to each model, how JSON is given.
    fn test_connection() -> redline_agent::probe::ConnectionReport = test_connection();

    /// Every resume that is not deleted, most recently changed first.
    fn list_documents() -> Vec<DocumentRow> = documents();

    /// The resume on screen: which, its revision, what Undo and Redo would do.
    fn document_state() -> DocState = state();

    /// Brings a deleted resume back.
    fn undelete_document(id: i64) -> () = undelete(id);

    /// A page of the history of the resume on screen, newest first (or of the revisions a search finds).
    fn history(query: HistoryQuery) -> HistoryPage = history(&query);

    /// One revision as it was, and what it changed, in words.
    fn revision(number: u64) -> RevisionView = revision(number);

    /// The tailoring report of the resume on screen, if it is a tailored copy.
    fn tailoring() -> Option<TailorView> = tailoring();

    /// The edits held for the user's confirmation on the resume on screen (kept across restarts).
    fn held_edits() -> Vec<redline_agent::Held> = held();

    /// What held edits would bring to the resume's writing, before they are accepted: the writing checks'
    /// findings, one list per edit.
    fn held_findings(edits: redline_agent::Held) -> Vec<Vec<Finding>> = held_findings(&edits);

    /// Discards edits that were held for the user: they are not offered again.
    fn discard_held(edits: redline_agent::Held) -> () = discard_held(&edits);

    /// Whether review mode is on (every AI edit waits for the user's Accept).
    fn review_mode() -> bool = review();

    /// Turns review mode on or off; returns the new state.
    fn set_review_mode(on: bool) -> bool = set_review(on);

    /// The writing checks' findings on the resume on screen: spelling, grammar, a recruiter's rules.
    fn lint_document() -> Vec<Finding> = lint_on_screen();

    /// Turns a writing check's rule on or off, for every resume.
    fn set_rule_enabled(rule: String, on: bool) -> () = set_rule_enabled(&rule, on);

    /// Every job application, most recently changed first.
    fn list_applications() -> Vec<Application> = applications();

    /// Moves an application to another stage, dated today.
    fn move_application(id: i64, stage: Stage) -> Application = move_application(id, stage, None);

    /// Records a job application from the window's form; with `pin`, the document on screen is pinned
    /// to it at its head revision as sent (a letter with the resume that sends it).
    fn add_application(fields: NewApplication, pin: bool) -> Application
        = add_application_on_screen(fields, pin);
}

engine_commands! {
    syncing:

    /// Where this device syncs, when it last did, and the other devices seen.
    fn sync_status() -> SyncSummary = sync_status();

    /// One sync: this device's changes out, the other devices' in, merged.
    fn sync_now() -> SyncSummary = sync_now();

    /// Syncs through the git remote at `url` from now on, and syncs once.
    fn sync_through_git(url: String) -> SyncSummary = sync_through_git(&url);

    /// Stops syncing; what was synced stays.
    fn sync_off() -> SyncSummary = sync_off();

    /// Syncs through the folder at `path` from now on, and syncs once (after the window offered to bring in
    /// what the folder holds, and the user said yes).
    fn sync_through_folder(path: String) -> SyncSummary = sync_through_folder(std::path::Path::new(&path));
}

engine_commands! {
    changing:

    /// Applies edits a turn held for confirmation; returns the new revision. The view hears the change as a
    /// committed `patch`.
    fn apply_held(edits: redline_agent::Held) -> u64 = apply_held(edits);

    /// Opens another resume; the view hears it as a `create`.
    fn open_document(id: i64) -> DocState = switch(id);

    /// A new resume, blank or from the sample, opened.
    fn new_document(from_sample: bool) -> DocState = new_document(from_sample);

    /// Imports the resume the import review shows (fixed by hand, perhaps) and opens it.
    fn import_reviewed(document: serde_json::Value, format: redline_engine::ipc::ImportFormat) -> ImportDone
        = import_reviewed(document, format);

    /// A copy of a resume with its own history, opened.
    fn duplicate_document(id: i64) -> DocState = duplicate(id);

    /// Deletes a resume softly; [`undelete_document`] brings it back.
    fn delete_document(id: i64) -> DocState = delete(id);

    /// Undo on the resume on screen.
    fn undo() -> DocState = undo();

    /// Redo on the resume on screen.
    fn redo() -> DocState = redo();

    /// Makes the resume read as it did at a revision, as a new revision.
    fn restore(number: u64) -> DocState = restore(number);

    /// The design and options of the resume on screen (`/meta/design`), as a revision of the user's own.
    fn set_design(base: u64, design: redline_engine::ipc::Design) -> DocState = set_design(base, design);

    /// The resume on screen fitted to `pages` pages (spacing, then margins, then size), as a revision.
    fn fit_pages(base: u64, pages: usize) -> redline_engine::ipc::FitDone = fit(base, pages);

    /// The photo of the resume on screen taken away (`basics.image`), as a revision.
    fn remove_photo(base: u64) -> DocState = set_photo(base, None);

    /// An edit made by hand in the resume view (operations against revision `base`), checked and committed
    /// like the model's, as a revision of the user's own.
    fn edit_document(base: u64, ops: Vec<redline_patch::Operation>) -> DocState = edit(base, ops);

    /// The resume's language or a section's heading (`meta.language`, `meta.headings`), as a revision.
    fn set_words(base: u64, change: crate::ipc::WordsChange) -> DocState = set_words(base, change);

    /// Puts a finding's suggested words in place on the resume on screen, as a revision of the check's.
    fn fix_finding(base: u64, finding: Finding) -> DocState = fix_finding(base, finding);

    /// A copy of the resume on screen tailored to a job posting, opened, with its coverage report.
    fn tailor_document(posting: String) -> TailorView = tailor(&posting);
}

engine_commands! {
    streaming:

    /// Runs an AI turn for the user's message; the reply and the edits stream as turn `turn`.
    fn send_message(turn: u32, text: String, selected: Option<String>) -> TurnOutcome
        = send(&text, selected);

    /// "Tidy with the model" after an import from `source`: a turn whose edits all wait for the user's
    /// review.
    fn tidy_import(turn: u32, source: redline_engine::ipc::TidySource) -> TurnOutcome = tidy(&source);

    /// Plays the scripted demo (no model, no key) on a fresh copy of the sample resume, streaming as turn
    /// `turn`.
    fn start_demo(turn: u32) -> TurnOutcome = demo();

    /// A cover letter for a job posting, begun for the resume on screen and opened; the model's first
    /// draft streams as turn `turn`.
    fn write_letter(turn: u32, posting: String) -> TurnOutcome = write_letter(&posting);

    /// From a job posting in one step: a tailored copy of the resume on screen, its cover letter drafted
    /// (streamed as turn `turn`) and a saved application pinning both.
    fn apply_for(turn: u32, posting: String) -> TurnOutcome = apply_for(&posting);
}

/// Sends what changed outside a turn (an undo, another resume opened, held edits applied) to every window,
/// as app-wide events: the resume view's surface messages and the chat's lines.
pub(crate) fn emitter<R: Runtime>(app: AppHandle<R>) -> impl FnMut(TurnMessage) + Send {
    move |streamed| {
        let _ = match streamed {
            TurnMessage::Surface(update) => app.emit(AppEvent::Surface.name(), update),
            TurnMessage::Chat(event) => app.emit(AppEvent::Chat.name(), event),
        };
    }
}

/// Sends a turn's surface messages and chat events to the window that started it, as turn `turn`'s stream
/// (ordered, this turn's alone), which the window reads with [`turn_stream`]. With
/// `REDLINE_PROBE_SENT=FILE`, the time each surface message leaves (microseconds since the Unix epoch) is
/// written to FILE, a line each, for the chunk-to-pixel benchmark.
pub(crate) fn turn_emitter(streams: &TurnStreams, turn: u32) -> impl FnMut(TurnMessage) + Send {
    let mut probe = std::env::var_os("REDLINE_PROBE_SENT")
        .and_then(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .ok()
        })
        .map(std::io::BufWriter::new);
    let mut send = streams.sender(turn);
    move |streamed| {
        if let (Some(probe), TurnMessage::Surface(_)) = (probe.as_mut(), &streamed) {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            let _ = writeln!(probe, "{}", now.as_micros());
        }
        send(streamed);
    }
}

/// The next of turn `turn`'s messages, once there are any (all there are), and whether the turn is over.
/// The window asks for them in turn, from when it starts the turn until it hears the end: a message pushed
/// into the page would be a new script each time, and WebKit keeps every script it has run
/// ([`redline_engine::streams`]).
#[tauri::command]
pub async fn turn_stream(
    streams: State<'_, TurnStreams>,
    turn: u32,
) -> Result<TurnMessages, Error> {
    Ok(streams.next(turn).await)
}

/// Ends turn `turn`'s stream, if the command that ran it has not (one that never started, its arguments
/// refused): the window's last request hears the end.
#[tauri::command]
pub fn end_turn_stream(streams: State<'_, TurnStreams>, turn: u32) {
    streams.end(turn);
}

/// Ends turn `turn`'s stream when dropped: when the command that runs the turn returns, or is dropped.
struct Ends<'a>(&'a TurnStreams, u32);

impl Drop for Ends<'_> {
    fn drop(&mut self) {
        self.0.end(self.1);
    }
}

/// The HTML export of the document on screen, for the export dialog's preview.
#[tauri::command]
pub async fn export_preview(
    engine: State<'_, Engine>,
    request: ExportRequest,
) -> Result<String, Error> {
    let html = ExportRequest {
        format: crate::ipc::Format::Html,
        ..request
    };
    engine
        .render(&html)
        .await
        .map(|(bytes, ..)| String::from_utf8_lossy(&bytes).into_owned())
}

/// The folder exports go to: Downloads, else the home folder.
fn downloads() -> Result<std::path::PathBuf, Error> {
    dirs::download_dir().or_else(dirs::home_dir).ok_or_else(|| {
        Error::new(
            crate::ipc::ErrorKind::NotFound,
            "cannot tell where your Downloads folder is",
        )
    })
}

/// Exports the document on screen into the Downloads folder: in `request`'s design, or in the user's
/// theme `theme` when one is named.
#[tauri::command]
pub async fn export_document(
    engine: State<'_, Engine>,
    request: ExportRequest,
    theme: Option<String>,
) -> Result<ExportDone, Error> {
    match theme {
        Some(name) => {
            engine
                .export_in_theme(&name, request.format, request.page, &downloads()?)
                .await
        }
        None => engine.export(&request, &downloads()?).await,
    }
}

/// Every design a resume can be shown in: the built-in ones, then the user's themes.
#[tauri::command]
pub fn designs(engine: State<'_, Engine>) -> Vec<redline_engine::ipc::DesignInfo> {
    engine.designs()
}

/// The first page of the resume on screen in `template`, drawn small for the design gallery (a PNG).
#[tauri::command]
pub async fn design_thumbnail(
    engine: State<'_, Engine>,
    template: crate::ipc::Template,
) -> Result<tauri::ipc::Response, Error> {
    let png = engine.design_thumbnail(template).await?;
    Ok(tauri::ipc::Response::new(png.to_vec()))
}

/// What the user's theme `name`'s files are now: it changes when one of them changes.
#[tauri::command]
pub fn theme_stamp(engine: State<'_, Engine>, name: String) -> Result<String, Error> {
    engine.theme_stamp(&name)
}

/// Makes again what application `id` sent (its resume or its letter, at the revisions it pinned, in the
/// pinned resume's design) into the Downloads folder.
#[tauri::command]
pub async fn export_sent(
    engine: State<'_, Engine>,
    id: i64,
    sent: redline_engine::applications::Sent,
    format: crate::ipc::Format,
) -> Result<ExportDone, Error> {
    engine.export_sent(id, sent, format, &downloads()?).await
}

/// The pages of `document` (the view's, previews included) as the PDF prints them, for the Page view: in
/// `request`'s design, or in the user's theme `theme` when one is named; drawn `shown_width` device pixels
/// wide when the window says how wide it shows them.
#[tauri::command]
pub async fn page_images(
    engine: State<'_, Engine>,
    document: serde_json::Value,
    request: ExportRequest,
    have: Vec<String>,
    theme: Option<String>,
    shown_width: Option<u32>,
) -> Result<tauri::ipc::Response, Error> {
    let (header, pngs) = match theme {
        Some(name) => {
            engine
                .theme_page_images(document, &name, request.page, &have, shown_width)
                .await?
        }
        None => {
            engine
                .page_images(document, &request, &have, shown_width)
                .await?
        }
    };
    Ok(tauri::ipc::Response::new(header.to_bytes(&pngs)))
}

/// Opens a link from the resume in the system's browser or mail program, where the engine's rule allows
/// it ([`redline_engine::link_to_open`]); the window itself never navigates away.
#[tauri::command]
pub fn open_link<R: Runtime>(app: AppHandle<R>, url: String) -> Result<(), Error> {
    use tauri_plugin_opener::OpenerExt;
    let href = redline_engine::link_to_open(&url)?;
    app.opener().open_url(href, None::<&str>).map_err(|e| {
        Error::new(
            crate::ipc::ErrorKind::Internal,
            format!("the link could not be opened: {e}"),
        )
    })
}

/// The model servers that answer at their usual addresses on this computer (for the first-run setup).
#[tauri::command]
pub async fn find_local_servers() -> Vec<redline_agent::probe::LocalServer> {
    redline_agent::probe::find_local_servers().await
}

/// Stops the turn in progress: the HTTP stream is cancelled and every preview rolled back.
#[tauri::command]
pub fn stop_turn(engine: State<'_, Engine>) -> bool {
    engine.stop()
}

/// The view has painted the resume for the first time (`--measure-startup` prints the time and quits).
#[tauri::command]
pub fn painted<R: Runtime>(app: AppHandle<R>) {
    crate::desktop::painted(&app);
}

/// The app's version and data folder.
#[tauri::command]
pub fn app_info(engine: State<'_, Engine>) -> AppInfo {
    AppInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        data_dir: engine
            .data_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
    }
}

/// Imports a resume (PDF, Word, OpenDocument, LinkedIn's export, text or JSON Resume) as a new resume, and
/// opens it: the file at `path` (dropped on the window), or, without one, the file the user picks in the
/// system's open dialog (`None` when they cancel).
#[tauri::command]
pub async fn import_document<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
    path: Option<String>,
) -> Result<Option<ImportDone>, Error> {
    let Some(path) = resume_file(&app, path).await else {
        return Ok(None);
    };
    engine.import(&path, &mut emitter(app)).await.map(Some)
}

/// Reads a resume for the import review, writing nothing: the file at `path` (dropped on the window), or,
/// without one, the file the user picks in the system's open dialog (`None` when they cancel).
#[tauri::command]
pub async fn preview_import<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
    path: Option<String>,
) -> Result<Option<ImportPreview>, Error> {
    let Some(path) = resume_file(&app, path).await else {
        return Ok(None);
    };
    engine.preview_import(&path).await.map(Some)
}

/// The files the app was asked to open before the window was there, for the import review, once.
#[tauri::command]
pub fn take_reviews(engine: State<'_, Engine>) -> Vec<ImportPreview> {
    engine.take_reviews()
}

/// What the user picks in the system dialog titled `title` that `open` shows (it is handed the dialog, to
/// add its filters and open it, and the dialog's callback), as a path; `None` when they cancel.
async fn picked<R: Runtime>(
    app: &AppHandle<R>,
    title: &str,
    open: impl FnOnce(
        tauri_plugin_dialog::FileDialogBuilder<R>,
        Box<dyn FnOnce(Option<tauri_plugin_dialog::FilePath>) + Send>,
    ),
) -> Option<PathBuf> {
    use tauri_plugin_dialog::DialogExt;
    let (picked, chosen) = tokio::sync::oneshot::channel();
    open(
        app.dialog().file().set_title(title),
        Box::new(move |file| {
            let _ = picked.send(file);
        }),
    );
    chosen.await.ok().flatten().and_then(|f| f.into_path().ok())
}

/// The resume file at `path`, or, without one, the file the user picks in the system's open dialog; `None`
/// when they cancel.
async fn resume_file<R: Runtime>(app: &AppHandle<R>, path: Option<String>) -> Option<PathBuf> {
    if let Some(path) = path {
        return Some(PathBuf::from(path));
    }
    picked(app, "Import a resume", |dialog, done| {
        dialog
            .add_filter(
                "Resumes (PDF, Word, OpenDocument, LinkedIn export, text, JSON Resume)",
                &redline_import::EXTENSIONS,
            )
            .add_filter("All files", &["*"])
            .pick_file(done)
    })
    .await
}

/// Sets the photo of the resume on screen (from revision `base`) from the image at `path`, or from the one
/// the user picks in the system's open dialog, as a revision; `None` when they cancel.
#[tauri::command]
pub async fn choose_photo<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
    base: u64,
    path: Option<String>,
) -> Result<Option<DocState>, Error> {
    let path = match path {
        Some(path) => PathBuf::from(path),
        None => {
            let chosen = picked(&app, "Choose a photo", |dialog, done| {
                dialog
                    .add_filter(
                        "Photos (JPEG, PNG, WebP, GIF)",
                        &["jpg", "jpeg", "png", "webp", "gif"],
                    )
                    .pick_file(done)
            })
            .await;
            match chosen {
                Some(path) => path,
                None => return Ok(None),
            }
        }
    };
    engine
        .set_photo(base, Some(path), &mut emitter(app))
        .await
        .map(Some)
}

/// What happened at start that the user should hear of (a file given to open that could not be), once.
#[tauri::command]
pub fn take_notices(engine: State<'_, Engine>) -> Vec<String> {
    engine.take_notices()
}

/// Adds a word to the user's dictionary (the data folder's `words.txt`, never the resume).
#[tauri::command]
pub fn add_word(engine: State<'_, Engine>, word: String) -> Result<(), Error> {
    engine.add_word(&word)
}

/// Gives a resume a new title.
#[tauri::command]
pub async fn rename_document(
    engine: State<'_, Engine>,
    id: i64,
    title: String,
) -> Result<(), Error> {
    engine.rename(id, &title).await.map(drop)
}

/// Writes every application as CSV to the file the user picks in the system's save dialog; where it went,
/// or `None` when they cancel.
#[tauri::command]
pub async fn export_applications_csv<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
) -> Result<Option<String>, Error> {
    let (csv, _) = engine.applications_csv().await?;
    let Some(path) = picked(&app, "Export your applications", |dialog, done| {
        dialog
            .set_file_name("applications.csv")
            .add_filter("CSV (a spreadsheet)", &["csv"])
            .save_file(done)
    })
    .await
    else {
        return Ok(None);
    };
    std::fs::write(&path, csv).map_err(|e| {
        Error::new(
            crate::ipc::ErrorKind::Internal,
            format!("{} could not be written: {e}", path.display()),
        )
    })?;
    Ok(Some(path.display().to_string()))
}

/// Reads applications from the CSV file the user picks in the system's open dialog (all of its rows, or
/// none, with the row that was refused named); how many were added, or `None` when they cancel.
#[tauri::command]
pub async fn import_applications_csv<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
) -> Result<Option<usize>, Error> {
    use std::io::Read as _;
    let Some(path) = picked(&app, "Import applications", |dialog, done| {
        dialog
            .add_filter("CSV (a spreadsheet)", &["csv", "txt"])
            .pick_file(done)
    })
    .await
    else {
        return Ok(None);
    };
    let unreadable = |e: std::io::Error| {
        Error::new(
            crate::ipc::ErrorKind::Invalid,
            format!("{} could not be read: {e}", path.display()),
        )
    };
    // Read one byte past the limit, so that a file too large is refused by the engine in words.
    let limit = redline_engine::applications::MAX_CSV_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(limit).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    let text = String::from_utf8(bytes).map_err(|_| {
        Error::new(
            crate::ipc::ErrorKind::Invalid,
            format!(
                "{} is not text (UTF-8): save it from the spreadsheet as CSV UTF-8",
                path.display()
            ),
        )
    })?;
    Ok(Some(engine.import_applications_csv(&text).await?.len()))
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder, mock_context, noop_assets};
    use tauri::webview::InvokeRequest;

    use crate::engine::Engine;

    fn invoke(engine: Engine, cmd: &str) -> Result<Value, Value> {
        let app = crate::with_redline(mock_builder(), engine)
            .build(mock_context(noop_assets()))
            .unwrap();
        let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap();
        get_ipc_response(
            &webview,
            InvokeRequest {
                cmd: cmd.into(),
                callback: tauri::ipc::CallbackFn(0),
                error: tauri::ipc::CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: tauri::ipc::InvokeBody::default(),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_string(),
            },
        )
        .map(|body| body.deserialize::<Value>().unwrap())
    }

    #[test]
    fn open_surface_answers_with_a_create_message_over_ipc() {
        let dir = tempfile::tempdir().unwrap();
        let reply = invoke(Engine::start(Some(dir.path().to_owned())), "open_surface").unwrap();
        assert_eq!(reply["kind"], "create");
        assert_eq!(reply["surfaceId"], "main");
        assert_eq!(reply["seq"], 0);
        assert_eq!(reply["document"]["basics"]["name"], "Richard Hendriks");
    }

    #[test]
    fn a_link_that_could_run_code_is_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        let app = crate::with_redline(mock_builder(), Engine::start(Some(dir.path().to_owned())))
            .build(mock_context(noop_assets()))
            .unwrap();
        for url in [
            "javascript:alert(1)",
            " data:text/html,<b>x</b>",
            "file:///etc/passwd",
            "tauri://localhost/x",
        ] {
            let err = super::open_link(app.handle().clone(), url.into()).unwrap_err();
            assert_eq!(err.kind, crate::ipc::ErrorKind::Invalid, "{url}");
            assert!(err.message.contains("not a web or e-mail link"), "{err}");
        }
    }

    #[test]
    fn the_window_stays_on_the_app() {
        let stays = |url: &str| crate::stays_in_app(&url.parse().unwrap(), None);
        assert!(stays("tauri://localhost/index.html"));
        assert!(stays("http://tauri.localhost/"));
        assert!(!stays("https://evil.example/"));
        assert!(!stays("http://localhost.evil.example/"));
        assert!(!stays("javascript:alert(1)"));
        let dev: tauri::Url = "http://localhost:1420".parse().unwrap();
        assert!(crate::stays_in_app(
            &"http://localhost:1420/src/main.ts".parse().unwrap(),
            Some(&dev)
        ));
        assert!(!crate::stays_in_app(
            &"http://localhost:9999/".parse().unwrap(),
            Some(&dev)
        ));
    }

    #[test]
    fn open_surface_reports_a_broken_store_in_plain_words() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("redline.db"), b"garbage ".repeat(1000)).unwrap();
        let reply = invoke(Engine::start(Some(dir.path().to_owned())), "open_surface").unwrap_err();
        assert!(
            reply["message"].as_str().unwrap().contains("damaged"),
            "{reply}"
        );
    }
}

/// Syncs through a folder the user picks (one a cloud drive carries) from now on, and syncs once; none if
/// they cancelled. A folder that holds resumes this device has not brought in is not synced yet: the
/// answer offers them, and `sync_through_folder` brings them in once the user says so.
#[tauri::command]
pub async fn choose_sync_folder<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
) -> Result<Option<FolderChosen>, Error> {
    let Some(folder) = picked(
        &app,
        "Choose the folder your cloud drive carries",
        |dialog, done| dialog.pick_folder(done),
    )
    .await
    else {
        return Ok(None);
    };
    // Resumes another device put there are not brought in unasked: the engine offers them first.
    let chosen = engine.choose_sync_folder(&folder).await?;
    if let FolderChosen::Synced { summary } = &chosen {
        app.state::<SyncWatch>().follow(&app, summary);
    }
    Ok(Some(chosen))
}
