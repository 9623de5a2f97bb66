//! Redline's engine: what both front doors — the desktop app (`src-tauri`) and the `redline` command line —
//! drive. It holds the open store, the document in use and its surface, and the AI turn in progress (so that
//! Stop can cancel it); documents, revisions and undo, turns, held edits, review mode, tailoring, the
//! resume's words and headings, exports and the Page view's images are its public operations. It knows no
//! GUI toolkit: the app's commands and the CLI's commands are adapters over it.

use std::path::PathBuf;
use std::time::Duration;

use redline_agent::{Provider, ProviderConfig, Turn, TurnEvent};
use redline_patch::{PatchState, Policy, Surface, SurfaceUpdate};
use redline_store::{Store, StoreError};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

use crate::ipc::{
    AtsView, ChatEvent, ChatLine, ChatPage, ChatRole, ErrorKind, ExportDone, ExportRequest,
    IpcError, PageImage, PageImages, ProviderView, Streamed, TurnSummary,
};

/// How finely the Page view's pages are drawn: 1.5 pixels per point (an A4 page is 893 pixels wide), sharp on
/// a normal screen and quick to draw.
const PAGE_PIXELS_PER_POINT: f32 = 1.5;

/// The surface id of the main window's resume view.
pub const MAIN_SURFACE: &str = "main";

use redline_agent::fixtures::DEMO_TITLE;

mod documents;
pub mod ipc;
pub mod kept;
pub mod streams;
pub mod tidy;
#[doc(hidden)]
pub mod year;

/// The engine as the app runs it.
pub struct Engine {
    data_dir: Option<PathBuf>,
    /// Where API keys are kept: the OS keychain (in memory in tests).
    keychain: std::sync::Arc<dyn redline_agent::Keychain>,
    state: Result<Mutex<Open>, IpcError>,
    running: std::sync::Mutex<Option<CancellationToken>>,
    /// What happened at start that the window should say (once).
    notices: std::sync::Mutex<Vec<String>>,
    /// Files the app was asked to open that wait for the window's import review.
    reviews: std::sync::Mutex<Vec<ipc::ImportPreview>>,
    /// The Page view's pages as last drawn (a page that did not change is not drawn again).
    pages: std::sync::Arc<std::sync::Mutex<redline_pdf::PageDrawer>>,
    /// Whether the Page view has asked for pages yet (the first time, the other template is warmed).
    pages_warmed: std::sync::atomic::AtomicBool,
    /// How the environment is read (`OPENAI_API_KEY`, `REDLINE_BASE_URL`, …): the process's, or a test's.
    env: redline_agent::settings::Environment,
}

struct Open {
    store: Store,
    document_id: i64,
    surface: Surface,
}

impl Engine {
    /// Opens the store in `data_dir`, creating it with the bundled sample resume on first start. A failure
    /// does not stop the app: the window opens and says what is wrong.
    pub fn start(data_dir: Option<PathBuf>) -> Engine {
        Engine::start_with(data_dir, std::sync::Arc::new(redline_agent::OsKeychain))
    }

    /// [`Engine::start`] with another keychain (tests use one in memory).
    pub fn start_with(
        data_dir: Option<PathBuf>,
        keychain: std::sync::Arc<dyn redline_agent::Keychain>,
    ) -> Engine {
        let state = match &data_dir {
            None => Err(IpcError::new(
                ErrorKind::NotFound,
                "cannot tell where your data folder is: start Redline with --data-dir DIR or set REDLINE_DATA_DIR",
            )),
            Some(dir) => open(dir).map(Mutex::new).map_err(IpcError::from),
        };
        Engine {
            data_dir,
            keychain,
            state,
            running: std::sync::Mutex::new(None),
            notices: std::sync::Mutex::new(Vec::new()),
            reviews: std::sync::Mutex::new(Vec::new()),
            pages: Default::default(),
            pages_warmed: Default::default(),
            env: redline_agent::settings::env_var,
        }
    }

    /// This engine with the environment read through `env` instead of the process's (tests).
    pub fn with_environment(mut self, env: redline_agent::settings::Environment) -> Engine {
        self.env = env;
        self
    }

    /// Keeps `text` for the window to say when it asks ([`Engine::take_notices`]).
    pub fn notice(&self, text: impl Into<String>) {
        self.notices
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(text.into());
    }

    /// What the window should say about the start, once.
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut *self.notices.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Keeps `preview` — a file the app was asked to open before the window was there — for the window's
    /// import review ([`Engine::take_reviews`]).
    pub fn await_review(&self, preview: ipc::ImportPreview) {
        self.reviews
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(preview);
    }

    /// The files waiting for the import review, once.
    pub fn take_reviews(&self) -> Vec<ipc::ImportPreview> {
        std::mem::take(&mut *self.reviews.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Why the engine could not start, if it could not.
    pub fn problem(&self) -> Option<&str> {
        self.state.as_ref().err().map(|e| e.message.as_str())
    }

    /// The data folder in use.
    pub fn data_dir(&self) -> Option<&PathBuf> {
        self.data_dir.as_ref()
    }

    fn open(&self) -> Result<&Mutex<Open>, IpcError> {
        self.state.as_ref().map_err(Clone::clone)
    }

    /// A `create` message with the current document at its head revision. (During a turn this waits
    /// until the turn ends: the view then gets the committed document.)
    pub async fn open_surface(&self) -> Result<SurfaceUpdate, IpcError> {
        let mut open = self.open()?.lock().await;
        let head = open.store.head(open.document_id)?;
        Ok(open.surface.create(head.number, head.document))
    }

    /// The document on screen rendered as `request` asks (the text of the file).
    pub async fn render(
        &self,
        request: &ExportRequest,
    ) -> Result<(Vec<u8>, String, &'static str), IpcError> {
        let ExportRequest {
            format,
            template,
            page,
        } = *request;
        let open = self.open()?.lock().await;
        let resume = open.store.head(open.document_id)?.document;
        let title = open.store.document(open.document_id)?.title;
        drop(open);
        // Typst works for some milliseconds: off the async threads.
        let bytes = tokio::task::spawn_blocking(move || {
            redline_pdf::render(&resume, format, template, page)
        })
        .await
        .map_err(|e| IpcError::new(ErrorKind::Internal, e.to_string()))??;
        Ok((bytes, title, format.name()))
    }

    /// Exports the document on screen into `folder` (the Downloads folder in the app) under its title,
    /// never over an existing file — not even one that appears while the export is written.
    pub async fn export(
        &self,
        request: &ExportRequest,
        folder: &std::path::Path,
    ) -> Result<ExportDone, IpcError> {
        let (bytes, title, extension) = self.render(request).await?;
        let stem = file_stem(&title, extension);
        std::fs::create_dir_all(folder).map_err(|e| {
            IpcError::new(
                ErrorKind::ReadOnly,
                format!("cannot use {}: {e}", folder.display()),
            )
        })?;
        for n in 1..=1000 {
            let path = match n {
                1 => folder.join(format!("{stem}.{extension}")),
                n => folder.join(format!("{stem} ({n}).{extension}")),
            };
            match redline_resume::export::write_new(&path, &bytes, false) {
                Ok(()) => {
                    return Ok(ExportDone {
                        path: path.display().to_string(),
                        bytes: bytes.len() as u64,
                    });
                }
                // Taken (perhaps a moment ago): the next name.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(IpcError::new(
                        ErrorKind::ReadOnly,
                        format!("cannot write {}: {e}", path.display()),
                    ));
                }
            }
        }
        Err(IpcError::new(
            ErrorKind::Invalid,
            format!(
                "{} holds a thousand exports named “{stem}”; nothing was written",
                folder.display()
            ),
        ))
    }

    /// The pages of `document` — the view's, previews included — as the PDF in `request`'s template and
    /// page size prints them, drawn as images for the Page view: the header and the PNGs of the pages
    /// whose keys are not in `have` (the ones the window already shows are not sent again).
    pub async fn page_images(
        &self,
        document: serde_json::Value,
        request: &ExportRequest,
        have: &[String],
    ) -> Result<(PageImages, Vec<std::sync::Arc<[u8]>>), IpcError> {
        use redline_resume::export::{Page, Template};
        let (template, page) = (request.template, request.page);
        if redline_resume::measure(&document).bytes > redline_resume::MAX_DOCUMENT_BYTES {
            return Err(IpcError::new(
                ErrorKind::Invalid,
                "the resume is larger than any resume can be; its pages were not drawn",
            ));
        }
        let drawer = self.pages.clone();
        let first = !self
            .pages_warmed
            .swap(true, std::sync::atomic::Ordering::Relaxed);
        let (drawn, count) = tokio::task::spawn_blocking(move || {
            let mut drawer = drawer.lock().unwrap_or_else(|e| e.into_inner());
            let drawn = drawer.draw(&document, template, page, PAGE_PIXELS_PER_POINT);
            drop(drawer);
            if first {
                // The Page view is open: lay the other template out once in the background, so that
                // switching to it is not the first time Typst sees it (a first layout takes ~30 ms more).
                let other = match template {
                    Template::Classic => Template::Modern,
                    Template::Modern => Template::Classic,
                };
                std::thread::spawn(move || drop(redline_pdf::warm(&document, other, page)));
            }
            drawn
        })
        .await
        .map_err(|e| IpcError::new(ErrorKind::Internal, e.to_string()))??;
        let (width, height) = match page {
            Page::A4 => (595.28, 841.89),
            Page::Letter => (612.0, 792.0),
        };
        let mut pngs = Vec::new();
        let pages = drawn
            .into_iter()
            .map(|d| {
                let key = format!("{:032x}", d.key);
                let bytes = if have.contains(&key) {
                    0
                } else {
                    pngs.push(d.png.clone());
                    u32::try_from(d.png.len()).unwrap_or(u32::MAX)
                };
                PageImage { key, bytes }
            })
            .collect();
        let header = PageImages {
            pages,
            count: u32::try_from(count).unwrap_or(u32::MAX),
            width,
            height,
        };
        Ok((header, pngs))
    }

    /// How an applicant tracking system reads the document on screen: its PDF (in `request`'s template
    /// and page size) made and read back in-process, per section, with what is missing or out of order.
    pub async fn ats(&self, request: &ExportRequest) -> Result<AtsView, IpcError> {
        let (template, page) = (request.template, request.page);
        let open = self.open()?.lock().await;
        let resume = open.store.head(open.document_id)?.document;
        drop(open);
        let report =
            tokio::task::spawn_blocking(move || redline_pdf::ats::check(&resume, template, page))
                .await
                .map_err(|e| IpcError::new(ErrorKind::Internal, e.to_string()))??;
        Ok(AtsView::from(report))
    }

    /// The conversation about the document on screen (so that it survives a restart): its newest
    /// [`CHAT_PAGE`] messages before `before` (the newest of all when `None`), oldest first. A year of
    /// conversation is read a page at a time, as the user scrolls back.
    pub async fn chat_history(&self, before: Option<i64>) -> Result<ChatPage, IpcError> {
        let open = self.open()?.lock().await;
        let mut messages = open
            .store
            .recent_messages(open.document_id, before, CHAT_PAGE + 1)?;
        // One more than the page, to know whether there is more.
        let older = (messages.len() > CHAT_PAGE).then(|| {
            messages.remove(0);
            messages[0].id
        });
        let lines = messages
            .into_iter()
            .filter_map(|m| {
                let role = match m.role {
                    redline_store::Role::User => ChatRole::User,
                    redline_store::Role::Assistant => ChatRole::Assistant,
                    _ => return None,
                };
                Some(ChatLine {
                    role,
                    text: m.content,
                })
            })
            .collect();
        Ok(ChatPage { lines, older })
    }

    /// Runs an AI turn for `message` against the saved provider (the environment on top), with its key
    /// from `OPENAI_API_KEY` or the OS keychain.
    pub async fn send(
        &self,
        message: &str,
        selected: Option<String>,
        emit: &mut (dyn FnMut(Streamed) + Send),
    ) -> Result<TurnSummary, IpcError> {
        let config = self.configured().await?;
        self.turn(config, message, selected, false, emit).await
    }

    /// "Tidy with the model" after an import from `source` (see [`tidy`]): a turn whose every edit waits
    /// for the user's review, whatever review mode says.
    pub async fn tidy(
        &self,
        source: &crate::ipc::TidySource,
        emit: &mut (dyn FnMut(Streamed) + Send),
    ) -> Result<TurnSummary, IpcError> {
        let config = self.configured().await?;
        self.turn(config, &tidy::ask(source), None, true, emit)
            .await
    }

    /// Plays the scripted demo on a fresh copy of the sample resume, through a replay server on
    /// 127.0.0.1: no model, no key, nothing leaves the machine.
    pub async fn demo(
        &self,
        emit: &mut (dyn FnMut(Streamed) + Send),
    ) -> Result<TurnSummary, IpcError> {
        let fixture = redline_agent::fixtures::demo();
        {
            let mut open = self.open()?.lock().await;
            let id = redline_agent::fixtures::demo_document(&mut open.store)?;
            open.document_id = id;
            let head = open.store.head(id)?;
            emit(Streamed::Surface(
                open.surface.create(head.number, head.document),
            ));
        }
        emit(Streamed::Chat(ChatEvent::Status {
            text: format!(
                "Demo — scripted answers from a local replay server: no model, no key, nothing leaves this computer. It edits “{DEMO_TITLE}”, a fresh copy of the sample resume."
            ),
        }));
        emit(Streamed::Chat(ChatEvent::User {
            text: fixture.message.clone(),
        }));
        let (server, config) = redline_agent::fixtures::replay(&fixture, Duration::from_millis(25))
            .await
            .map_err(|e| {
                IpcError::new(
                    ErrorKind::Internal,
                    format!("the demo could not start its local server: {e}"),
                )
            })?;
        let summary = self.turn(config, &fixture.message, None, false, emit).await;
        drop(server);
        summary
    }

    /// One turn for `message`; with `review`, every edit waits for the user whatever review mode says.
    async fn turn(
        &self,
        config: ProviderConfig,
        message: &str,
        selected: Option<String>,
        review: bool,
        emit: &mut (dyn FnMut(Streamed) + Send),
    ) -> Result<TurnSummary, IpcError> {
        let cancel = CancellationToken::new();
        // Marked as running until this function returns, however it returns (a failed read below included).
        let _running = Running::start(&self.running, cancel.clone());
        let mut open = self.open()?.lock().await;
        let provider = redline_agent::settings::provider(&open.store, config)?;
        let job = kept::job_of(&open.store, open.document_id)?;
        let review = review || kept::review_mode(&open.store)?;
        let Open {
            store,
            document_id,
            surface,
        } = &mut *open;
        let result = Turn {
            store,
            document_id: Some(*document_id),
            provider: &provider,
            surface,
            policy: Policy::default(),
            selected,
            cancel,
            stall: Duration::from_secs(3),
            job,
            review,
        }
        .run(message, &mut |event| {
            emit(match event {
                TurnEvent::Surface { update } => Streamed::Surface(update),
                other => Streamed::Chat(ChatEvent::from(other)),
            })
        })
        .await;
        drop(_running);
        // What the server was found to take is kept for the next run; failing to keep it costs one
        // refused request next time, not this turn.
        if let Err(e) = redline_agent::settings::remember(&mut open.store, &provider, false) {
            log::warn!("could not keep what the server takes: {e}");
        }
        if let Ok(outcome) = &result {
            // Edits held for the user wait for them across a restart.
            let id = open.document_id;
            kept::keep_held(&mut open.store, id, &outcome.held)?;
        }
        match result {
            Ok(outcome) => Ok(TurnSummary {
                reply: outcome.reply,
                revisions: outcome.revisions,
                warnings: outcome.warnings,
                asked: outcome.asked,
            }),
            Err(e) => Err(nothing_changed(&open.store, open.document_id, e)),
        }
    }

    /// Applies edits a turn held for the user's confirmation, as one revision; returns its number.
    pub async fn apply_held(
        &self,
        held: redline_agent::Held,
        emit: &mut (dyn FnMut(Streamed) + Send),
    ) -> Result<u64, IpcError> {
        let mut open = self.open()?.lock().await;
        let Open {
            store,
            document_id,
            surface,
        } = &mut *open;
        if held.document_id != *document_id {
            return Err(IpcError::new(
                ErrorKind::Conflict,
                "these edits were proposed for another resume than the one on screen",
            ));
        }
        match redline_agent::confirm(store, &held, &Policy::default()) {
            Ok((committed, ops)) => {
                let n = committed.info.number;
                kept::drop_held(store, &held)?;
                emit(Streamed::Surface(surface.patch(
                    n,
                    PatchState::Committed,
                    ops,
                )));
                emit(Streamed::Chat(ChatEvent::Committed {
                    revision: n,
                    summary: committed.info.summary,
                }));
                Ok(n)
            }
            Err(e) => Err(nothing_changed(store, *document_id, e)),
        }
    }

    /// The configuration to run with (see [`redline_agent::settings::resolve`]); what is missing in words,
    /// with the demo as the way on.
    async fn configured(&self) -> Result<ProviderConfig, IpcError> {
        let open = self.open()?.lock().await;
        redline_agent::settings::resolve_in(self.env, &open.store, self.keychain.as_ref(), |_| {})
            .map_err(
            |e| match e {
                redline_agent::SetupError::Store(e) => IpcError::from(e),
                other => IpcError::new(
                    ErrorKind::NotConfigured,
                    format!(
                        "{other} (or `redline provider set` and `redline key set`). Or press “Try the demo” to see Redline edit without a model."
                    ),
                ),
            },
        )
    }

    /// The saved provider as the settings show it: never the key, only whether one is set.
    pub async fn provider(&self) -> Result<ProviderView, IpcError> {
        let open = self.open()?.lock().await;
        let (settings, saved) = redline_agent::ProviderSettings::load(&open.store)?;
        Ok(self.view(settings, saved))
    }

    fn view(&self, settings: redline_agent::ProviderSettings, saved: bool) -> ProviderView {
        let account = settings.key_account();
        let (key_set, keychain_problem) = match self.keychain.get(&account) {
            Ok(key) => (key.is_some(), None),
            Err(e) => (false, Some(e.to_string())),
        };
        let env = self.env;
        // The environment's key counts only where it would be sent (settings::env_key_is_for).
        let base_url = settings.clone().with_env(env).base_url;
        let from_env = ["REDLINE_BASE_URL", "OPENAI_BASE_URL"]
            .into_iter()
            .any(|name| env(name).is_some())
            || (env("OPENAI_API_KEY").is_some()
                && redline_agent::settings::env_key_is_for(env, &base_url));
        ProviderView {
            settings,
            saved,
            key_set,
            key_for: account.user(),
            keychain_problem,
            from_env,
        }
    }

    /// Saves the provider settings (checked first: a URL, and no key sent unencrypted to another host).
    pub async fn save_provider(
        &self,
        settings: redline_agent::ProviderSettings,
    ) -> Result<ProviderView, IpcError> {
        settings.check().map_err(|problem| {
            IpcError::new(ErrorKind::Invalid, format!("{problem}; nothing was saved"))
        })?;
        let mut open = self.open()?.lock().await;
        settings.save(&mut open.store)?;
        Ok(self.view(settings, true))
    }

    /// Keeps `key` in the keychain for the saved provider and its host. The key is not returned, logged
    /// or kept anywhere else.
    pub async fn set_key(&self, key: String) -> Result<ProviderView, IpcError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(IpcError::new(
                ErrorKind::Invalid,
                "the key is empty; nothing was saved",
            ));
        }
        let open = self.open()?.lock().await;
        let (settings, saved) = redline_agent::ProviderSettings::load(&open.store)?;
        self.keychain
            .set(&settings.key_account(), key)
            .map_err(|e| IpcError::new(ErrorKind::NotConfigured, e.to_string()))?;
        Ok(self.view(settings, saved))
    }

    /// Removes the saved provider's key from the keychain.
    pub async fn clear_key(&self) -> Result<ProviderView, IpcError> {
        let open = self.open()?.lock().await;
        let (settings, saved) = redline_agent::ProviderSettings::load(&open.store)?;
        self.keychain
            .remove(&settings.key_account())
            .map_err(|e| IpcError::new(ErrorKind::NotConfigured, e.to_string()))?;
        Ok(self.view(settings, saved))
    }

    /// The connection test against the saved provider (the environment on top).
    pub async fn test_connection(
        &self,
    ) -> Result<redline_agent::probe::ConnectionReport, IpcError> {
        let config = self.configured().await?;
        // Tested from scratch, so that a server that changed is learned again; then remembered.
        let provider = Provider::new(config);
        let report = redline_agent::probe::test_connection(&provider).await;
        let mut open = self.open()?.lock().await;
        redline_agent::settings::remember(&mut open.store, &provider, true)?;
        Ok(report)
    }

    /// Stops the turn in progress; true if there was one.
    pub fn stop(&self) -> bool {
        match self
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(cancel) => {
                cancel.cancel();
                true
            }
            None => false,
        }
    }
}

/// Every revision of `document_id`, oldest first, each summary in words: one written without a summary
/// (by an older Redline, or a change that came with none) is described from its operations.
pub fn history_in_words(
    store: &Store,
    document_id: i64,
) -> Result<Vec<redline_store::RevisionInfo>, StoreError> {
    let mut history = store.history(document_id)?;
    for info in &mut history {
        in_words(store, info)?;
    }
    Ok(history)
}

/// Revision `number` of `document_id`, its summary in words.
pub fn revision_in_words(
    store: &Store,
    document_id: i64,
    number: u64,
) -> Result<redline_store::RevisionInfo, StoreError> {
    let mut info = store.revision_info(document_id, number)?;
    in_words(store, &mut info)?;
    Ok(info)
}

/// A page of `document_id`'s history, newest first, summaries in words: at most `limit` revisions before
/// `before` (from the head when `None`) whose words or source have every one of `words` (as a word or the
/// start of one, in any case; all revisions when `words` is empty), and whether there are more.
pub fn history_page_in_words(
    store: &Store,
    document_id: i64,
    before: Option<u64>,
    limit: usize,
    words: &str,
) -> Result<(Vec<redline_store::RevisionInfo>, bool), StoreError> {
    let (mut page, more) = if words.trim().is_empty() {
        store.history_page(document_id, before, limit, |_| Ok(true))?
    } else {
        let wanted: Vec<String> = words.split_whitespace().map(str::to_lowercase).collect();
        store.search_history(document_id, words, before, limit, |info| {
            in_words(store, info)?;
            let said = format!("{} {}", info.summary, info.source.as_str()).to_lowercase();
            Ok(wanted.iter().all(|w| said.contains(w.as_str())))
        })?
    };
    for info in &mut page {
        in_words(store, info)?;
    }
    Ok((page, more))
}

/// Describes a revision written without a summary from its operations.
fn in_words(store: &Store, info: &mut redline_store::RevisionInfo) -> Result<(), StoreError> {
    if info.summary.is_empty() {
        let ops: Vec<redline_patch::Operation> = store
            .forward(info.document_id, info.number)?
            .iter()
            .map(Into::into)
            .collect();
        info.summary = redline_patch::summarize(&ops);
    }
    Ok(())
}

/// The address a link from the resume may be opened at, in the system's browser or mail program: only
/// one well-formed `https:`, `http:` or `mailto:` URL (the rule of every export,
/// [`redline_resume::outline::safe_href`]; a `mailto:` keeps only a subject, a body and a copy). The window
/// itself never navigates away.
pub fn link_to_open(url: &str) -> Result<String, IpcError> {
    redline_resume::outline::safe_href(url).ok_or_else(|| {
        let shown: String = url.chars().filter(|c| !c.is_control()).take(60).collect();
        IpcError::new(
            ErrorKind::Invalid,
            format!(
                "“{shown}” is not a web or e-mail link; Redline opens only https:, http: and mailto: links of up to {} characters",
                redline_resume::outline::MAX_HREF
            ),
        )
    })
}

/// The turn in progress, as [`Engine::stop`] and [`Engine::idle`] see it: set while this lives.
struct Running<'a>(&'a std::sync::Mutex<Option<CancellationToken>>);

impl<'a> Running<'a> {
    fn start(
        slot: &'a std::sync::Mutex<Option<CancellationToken>>,
        cancel: CancellationToken,
    ) -> Self {
        *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(cancel);
        Running(slot)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

/// The longest file name an export is given, in bytes, extension and " (n)" included: most file systems
/// take 255 bytes, and a title of 200 CJK or Arabic characters is 600.
const MAX_FILE_NAME_BYTES: usize = 255;

/// How many messages of the conversation [`Engine::chat_history`] reads at a time.
pub const CHAT_PAGE: usize = 200;

/// The stem of an export's file name made from `title`: characters a file system may refuse replaced, cut
/// at a character boundary so that the name with its suffix fits in [`MAX_FILE_NAME_BYTES`].
fn file_stem(title: &str, extension: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || " -_.()".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    // Room for " (1000)." and the extension.
    let room = MAX_FILE_NAME_BYTES - " (1000).".len() - extension.len();
    let mut cut = stem.len().min(room);
    while !stem.is_char_boundary(cut) {
        cut -= 1;
    }
    let stem = stem[..cut].trim().trim_matches('.');
    match stem.is_empty() {
        true => "resume".to_owned(),
        false => stem.to_owned(),
    }
}

/// A failure in the user's words, with the revision the resume stays at.
fn nothing_changed(store: &Store, document_id: i64, error: impl Into<IpcError>) -> IpcError {
    let error = error.into();
    let head = store
        .document(document_id)
        .map(|d| d.head_revision)
        .unwrap_or_default();
    IpcError::new(
        error.kind,
        format!(
            "{}. Your resume stays at revision {head}.",
            capital(&error.message)
        ),
    )
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn open(dir: &std::path::Path) -> Result<Open, StoreError> {
    let mut store = Store::open(dir)?;
    let mut current = store.current_or_import(redline_resume::first_resume)?;
    // The demo's copy is never where the next start opens: the user's own resume is.
    let demo = redline_agent::fixtures::demo_copy(&store)?;
    if Some(current.id) == demo
        && let Some(own) = store.list()?.into_iter().find(|d| Some(d.id) != demo)
    {
        current = own;
    }
    // A document that cannot be read back (an older Redline let a model nest it too deeply) must not keep
    // the window from the others: open the most recent one that reads, and say which did not.
    if let Err(problem) = store.head(current.id) {
        let readable = store.list()?.into_iter().find(|d| store.head(d.id).is_ok());
        if let Some(readable) = readable {
            log::warn!(
                "document {} cannot be opened ({problem}); showing document {} instead",
                current.id,
                readable.id
            );
            current = readable;
        }
    }
    // A backup a day (by default), made on start; failing to make one must not keep the app from opening.
    if let Err(e) = store.backup_if_due() {
        log::warn!("no backup was made: {e}");
    }
    Ok(Open {
        store,
        document_id: current.id,
        surface: Surface::new(MAIN_SURFACE),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use redline_agent::Keychain as _;

    #[test]
    fn a_link_opens_only_as_one_web_or_mail_url_without_attachments() {
        assert_eq!(
            link_to_open("mailto:r@p.example?subject=Hi&attach=/home/r/.ssh/id_rsa").unwrap(),
            "mailto:r@p.example?subject=Hi"
        );
        assert_eq!(
            link_to_open(" https://piedpiper.example ").unwrap(),
            "https://piedpiper.example"
        );
        for url in [
            "javascript:alert(1)",
            "https://a.example/\n[x](javascript:alert(1))",
            "file:///etc/passwd",
            "tauri://localhost/x",
        ] {
            let err = link_to_open(url).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Invalid, "{url}");
            assert!(err.message.contains("not a web or e-mail link"), "{err}");
            assert!(!err.message.contains('\n'), "{err}");
        }
    }

    #[tokio::test]
    async fn an_unreadable_document_does_not_keep_the_window_from_the_others() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut store = Store::open(dir.path()).unwrap();
            let good = store.import("Good", &redline_resume::sample()).unwrap();
            let bad = store.create_variant(good, 1, "Bad").unwrap();
            // Written by an older Redline: a value nested 200 levels deep, as the newest change.
            let deep = format!(
                r#"[{{"op":"add","path":"/basics/x","value":{}1{}}}]"#,
                "[".repeat(200),
                "]".repeat(200)
            );
            let conn = raw_head(dir.path());
            conn(bad, &deep);
        }
        let engine = Engine::start(Some(dir.path().to_owned()));
        assert_eq!(engine.problem(), None);
        let SurfaceUpdate::Create(create) = engine.open_surface().await.unwrap() else {
            panic!("the first message is a create");
        };
        assert_eq!(create.document, redline_resume::sample());
    }

    #[tokio::test]
    async fn a_long_conversation_comes_back_a_page_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let count = 2 * CHAT_PAGE + 50;
        {
            let mut store = Store::open(dir.path()).unwrap();
            let doc = store.import("Ada", &redline_resume::sample()).unwrap();
            for n in 0..count {
                let role = if n % 2 == 0 {
                    redline_store::Role::User
                } else {
                    redline_store::Role::Assistant
                };
                store.add_message(doc, role, &format!("line {n}")).unwrap();
            }
        }
        let engine = Engine::start(Some(dir.path().to_owned()));
        engine.open_surface().await.unwrap();
        let mut read = Vec::new();
        let mut before = None;
        let mut pages = Vec::new();
        loop {
            let page = engine.chat_history(before).await.unwrap();
            pages.push(page.lines.len());
            read.splice(0..0, page.lines.into_iter().map(|l| l.text));
            match page.older {
                Some(older) => before = Some(older),
                None => break,
            }
        }
        assert_eq!(pages, [CHAT_PAGE, CHAT_PAGE, 50]);
        let all: Vec<String> = (0..count).map(|n| format!("line {n}")).collect();
        assert_eq!(read, all);
    }

    /// Inserts a raw revision as the head of a document, bypassing every check (as an older Redline did).
    fn raw_head(dir: &std::path::Path) -> impl Fn(i64, &str) {
        let path = dir.join(redline_store::DATABASE_FILE);
        move |doc, forward| {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute(
                "INSERT INTO revisions (document_id, number, created_at, base_revision, source, summary, forward, inverse)
                 VALUES (?1, 2, 0, 1, 'ai', '', ?2, '[]')",
                rusqlite::params![doc, forward],
            )
            .unwrap();
            conn.execute(
                "UPDATE documents SET head_revision = 2, updated_at = 99999999999999 WHERE id = ?1",
                [doc],
            )
            .unwrap();
        }
    }

    #[tokio::test]
    async fn the_provider_is_set_up_and_its_key_never_crosses_back() {
        let dir = tempfile::tempdir().unwrap();
        let keys = std::sync::Arc::new(redline_agent::MemoryKeychain::default());
        let engine = Engine::start_with(Some(dir.path().to_owned()), keys.clone());
        let first = engine.provider().await.unwrap();
        assert!(!first.saved && !first.key_set);
        let replies: Vec<redline_agent::Reply> = serde_json::from_value(serde_json::json!([
            {"say": "OK"}, {"patch": {"operations": []}}
        ]))
        .unwrap();
        let server = redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
            .await
            .unwrap();
        let settings = redline_agent::ProviderSettings {
            preset: redline_agent::Preset::Custom,
            base_url: server.base_url(),
            chat_model: "replay-chat".into(),
            patch_model: "replay-patch".into(),
            ..first.settings.clone()
        };
        let saved = engine.save_provider(settings.clone()).await.unwrap();
        assert!(saved.saved);
        let secret = "sk-engine-secret-42";
        let view = engine.set_key(format!("  {secret}\n")).await.unwrap();
        assert!(view.key_set);
        assert_eq!(
            keys.get(&settings.key_account()).unwrap().as_deref(),
            Some(secret)
        );
        // No reply carries the key: not the view, not the connection test.
        let report = engine.test_connection().await.unwrap();
        assert!(report.works(), "{report:?}");
        for reply in [
            serde_json::to_string(&view).unwrap(),
            serde_json::to_string(&engine.provider().await.unwrap()).unwrap(),
            serde_json::to_string(&report).unwrap(),
        ] {
            assert!(!reply.contains("sk-engine"), "{reply}");
        }
        assert!(!engine.clear_key().await.unwrap().key_set);
        // Settings that cannot work are refused in words, and nothing changes.
        let err = engine
            .save_provider(redline_agent::ProviderSettings {
                base_url: "ftp://x".into(),
                ..settings
            })
            .await
            .unwrap_err();
        assert_eq!(err.kind, crate::ipc::ErrorKind::Invalid);
        assert!(err.message.contains("not a web address"), "{err}");
        assert_eq!(
            engine.provider().await.unwrap().settings.base_url,
            server.base_url()
        );
        assert!(engine.set_key("   ".into()).await.is_err());
    }

    #[tokio::test]
    async fn a_first_start_shows_the_sample() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        assert_eq!(engine.problem(), None);
        let SurfaceUpdate::Create(create) = engine.open_surface().await.unwrap() else {
            panic!("the first message is a create");
        };
        assert_eq!(create.document, redline_resume::sample());
        assert_eq!(create.revision, 1);
        assert!(
            redline_store::backup::latest(&dir.path().join(redline_store::DATABASE_FILE)).is_some(),
            "the first start makes the first backup"
        );
    }

    #[tokio::test]
    async fn a_damaged_database_is_reported_to_the_window() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("redline.db"), b"garbage ".repeat(1000)).unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        assert!(engine.problem().unwrap().contains("damaged"));
        let err = engine.open_surface().await.unwrap_err();
        assert!(err.message.contains("damaged"), "{err}");
        assert_eq!(err.kind, crate::ipc::ErrorKind::Damaged);
    }

    #[tokio::test]
    async fn the_demo_edits_a_fresh_copy_live_and_commits_one_revision() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        let first = engine.open_surface().await.unwrap();
        let mut surfaces = vec![first];
        let mut chat = Vec::new();
        let summary = engine
            .demo(&mut |e| match e {
                Streamed::Surface(u) => surfaces.push(u),
                Streamed::Chat(c) => chat.push(c),
            })
            .await
            .unwrap();
        assert_eq!(summary.revisions, [2]);
        // The view is switched to the demo document, then edited in place; the numbering never skips.
        let seqs: Vec<u64> = surfaces.iter().map(SurfaceUpdate::seq).collect();
        assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>());
        assert!(matches!(&surfaces[1], SurfaceUpdate::Create(c) if c.revision == 1));
        assert!(
            surfaces
                .iter()
                .any(|u| matches!(u, SurfaceUpdate::Text(t) if t.path == "/basics/summary"))
        );
        assert!(
            matches!(&chat[0], ChatEvent::Status { text } if text.starts_with("Demo — scripted"))
        );
        assert!(matches!(chat[1], ChatEvent::User { .. }));
        assert!(
            chat.iter()
                .any(|c| matches!(c, ChatEvent::Committed { revision: 2, .. }))
        );
        let SurfaceUpdate::Create(now) = engine.open_surface().await.unwrap() else {
            panic!()
        };
        assert_eq!(now.document["skills"][0]["keywords"][3], "Rust");
        assert!(!engine.stop(), "nothing runs after the turn");
        // The conversation is kept with the document, for the next start.
        let history = engine.chat_history(None).await.unwrap();
        assert_eq!(history.lines.len(), 2);
        assert_eq!(history.older, None);
        assert_eq!(history.lines[0].role, ChatRole::User);
        assert!(history.lines[1].text.starts_with("Sure — adding Rust"));
    }

    #[tokio::test]
    async fn edits_held_by_a_turn_are_applied_when_the_user_confirms() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        let SurfaceUpdate::Create(first) = engine.open_surface().await.unwrap() else {
            panic!()
        };
        let fixture = redline_agent::fixtures::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../agent/fixtures/16-out-of-scope-held.json"),
        )
        .unwrap();
        let (_server, config) = redline_agent::fixtures::replay(&fixture, Duration::ZERO)
            .await
            .unwrap();
        let mut chat = Vec::new();
        engine
            .turn(config, &fixture.message, None, false, &mut |e| {
                if let Streamed::Chat(c) = e {
                    chat.push(c)
                }
            })
            .await
            .unwrap();
        let held: Vec<redline_agent::Held> = chat
            .iter()
            .filter_map(|c| match c {
                ChatEvent::Held { edits } => Some(edits.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(held.len(), 1, "{chat:?}");
        assert_eq!(held[0].descriptions, ["Change your title to “Pythonista”"]);
        assert!(
            !chat
                .iter()
                .any(|c| matches!(c, ChatEvent::Status { text } if !text.is_empty())),
            "the held edit is shown once, as `Held`: {chat:?}"
        );
        let mut surfaces = Vec::new();
        let mut events = Vec::new();
        let revision = engine
            .apply_held(held[0].clone(), &mut |e| match e {
                Streamed::Surface(u) => surfaces.push(u),
                Streamed::Chat(c) => events.push(c),
            })
            .await
            .unwrap();
        assert_eq!(revision, first.revision + 2);
        assert!(
            matches!(&surfaces[..], [SurfaceUpdate::Patch(p)] if p.state == PatchState::Committed
                && p.revision == revision && p.ops.len() == 1),
            "{surfaces:?}"
        );
        assert!(
            matches!(&events[..], [ChatEvent::Committed { summary, .. }] if summary.starts_with("Confirmed"))
        );
        let SurfaceUpdate::Create(now) = engine.open_surface().await.unwrap() else {
            panic!()
        };
        assert_eq!(now.document["basics"]["label"], "Pythonista");
        // Applying twice changes nothing, and says so; edits for another resume are refused.
        let err = engine
            .apply_held(held[0].clone(), &mut |_| {})
            .await
            .unwrap_err();
        assert!(
            err.message.contains("change nothing")
                && err.message.contains(&format!("revision {revision}")),
            "{err}"
        );
        let other = redline_agent::Held {
            document_id: held[0].document_id + 1,
            ..held[0].clone()
        };
        let err = engine.apply_held(other, &mut |_| {}).await.unwrap_err();
        assert!(err.message.contains("another resume"), "{err}");
        assert_eq!(err.kind, crate::ipc::ErrorKind::Conflict);
    }

    #[tokio::test]
    async fn exports_never_overwrite_and_refuse_unknown_formats() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().join("data")));
        let out = dir.path().join("Downloads");
        // As the window's request arrives: JSON, read into the typed request.
        let request = |format: &str| -> ExportRequest {
            serde_json::from_value(
                serde_json::json!({"format": format, "template": "modern", "page": "letter"}),
            )
            .unwrap()
        };
        let first = engine.export(&request("html"), &out).await.unwrap();
        let second = engine.export(&request("html"), &out).await.unwrap();
        assert!(
            first.path.ends_with("Richard Hendriks — Programmer.html")
                || first.path.ends_with("Richard Hendriks - Programmer.html"),
            "{}",
            first.path
        );
        assert!(second.path.ends_with("(2).html"), "{}", second.path);
        let html = std::fs::read_to_string(&first.path).unwrap();
        assert!(html.contains("size:letter") && html.contains("Richard Hendriks"));
        assert_eq!(html.len() as u64, first.bytes);
        let pdf = engine.export(&request("pdf"), &out).await.unwrap();
        assert!(std::fs::read(&pdf.path).unwrap().starts_with(b"%PDF-"));
        // An unknown format never reaches the engine: the request is not read.
        let unknown = serde_json::from_value::<ExportRequest>(
            serde_json::json!({"format": "rtf", "template": "modern", "page": "letter"}),
        );
        assert!(unknown.unwrap_err().to_string().contains("rtf"));
        assert_eq!(
            std::fs::read_dir(&out).unwrap().count(),
            3,
            "nothing else is left behind"
        );
    }

    /// A title of 200 CJK or Arabic characters is 600 bytes: the file name is cut to what a file system
    /// takes, at a character boundary, and the export is written.
    #[tokio::test]
    async fn an_export_s_file_name_fits_a_file_system_whatever_the_title() {
        for letter in ["職", "ع", "a", "é"] {
            let stem = file_stem(&letter.repeat(200), "html");
            assert!(
                stem.len() + " (1000).html".len() <= MAX_FILE_NAME_BYTES,
                "{letter}: {}",
                stem.len()
            );
            assert!(stem.starts_with(letter));
        }
        assert_eq!(file_stem("../..", "pdf"), "-");
        assert_eq!(file_stem("...", "pdf"), "resume");
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start_with(
            Some(dir.path().to_owned()),
            std::sync::Arc::new(redline_agent::MemoryKeychain::default()),
        );
        let id = engine.documents().await.unwrap()[0].id;
        engine.rename(id, &"職歴".repeat(100)).await.unwrap();
        let out = dir.path().join("out");
        let request = ExportRequest {
            format: crate::ipc::Format::Text,
            template: crate::ipc::Template::Classic,
            page: crate::ipc::Page::A4,
        };
        for _ in 0..2 {
            let done = engine.export(&request, &out).await.unwrap();
            let name = std::path::Path::new(&done.path).file_name().unwrap();
            assert!(name.len() <= MAX_FILE_NAME_BYTES, "{}", name.len());
        }
    }

    /// A turn that fails before it reaches the model (here its store cannot be read) does not leave the
    /// engine "still editing": the next change by hand goes through.
    #[tokio::test]
    async fn a_turn_that_fails_in_its_first_reads_leaves_the_engine_idle() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start_with(
            Some(dir.path().to_owned()),
            std::sync::Arc::new(redline_agent::MemoryKeychain::default()),
        );
        // A saved review-mode setting that is not text: the turn's read of it fails.
        let conn =
            rusqlite::Connection::open(dir.path().join(redline_store::DATABASE_FILE)).unwrap();
        conn.execute(
            "INSERT INTO settings (key, value) VALUES ('app.review', x'ff00')",
            [],
        )
        .unwrap();
        let config = ProviderConfig::new(Some("http://127.0.0.1:9/v1".into()), None);
        let failed = engine.turn(config, "hi", None, false, &mut |_| {}).await;
        assert!(failed.is_err());
        assert!(!engine.stop(), "no turn is running any more");
        let base = engine.state().await.unwrap().revision;
        let ops = vec![redline_patch::Operation::Replace {
            path: "/basics/label".into(),
            value: serde_json::json!("Still mine"),
        }];
        let state = engine
            .edit(base, ops, &mut |_| {})
            .await
            .expect("the engine takes changes again");
        assert_eq!(state.revision, base + 1);
    }

    #[tokio::test]
    async fn without_a_model_configured_send_says_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start_with(
            Some(dir.path().to_owned()),
            std::sync::Arc::new(redline_agent::MemoryKeychain::default()),
        )
        // Whatever the developer's shell holds: an environment with nothing set.
        .with_environment(|_| None);
        let err = engine.send("hi", None, &mut |_| {}).await.unwrap_err();
        assert!(
            err.message.contains("OPENAI_API_KEY") && err.message.contains("Try the demo"),
            "{err}"
        );
        assert_eq!(err.kind, crate::ipc::ErrorKind::NotConfigured);
    }
}
