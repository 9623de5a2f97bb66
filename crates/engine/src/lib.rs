//! Redline's engine: what both front doors — the desktop app (`src-tauri`) and the `redline` command line —
//! drive. It holds the open store, the document in use and its surface, and the AI turn in progress (so that
//! Stop can cancel it); documents, revisions and undo, turns, held edits, review mode, tailoring, the
//! resume's words and headings, exports and the Page view's images are its public operations. It knows no
//! GUI toolkit: the app's commands and the CLI's commands are adapters over it, and neither reaches past
//! it to the store, the agent or a reader.
//!
//! # Layout
//! One file per group of operations, each an `impl Engine` block:
//! - `lib.rs`: start, the resume on screen, the window's exports and Page view, its turns and Stop.
//! - `documents.rs`: the resumes (list, open, new, import for the window, variants, rename, delete) and
//!   the window's Undo, Redo, Restore, history panel, manual edits, words, tailoring and held edits.
//! - [`history`]: a named resume's revisions, a revision's document, diffs; Undo, Redo and Restore by id.
//! - [`export`]: a named resume to bytes or a file, and its ATS read-back.
//! - [`design`]: the designs a resume can be shown in, and fitting it to a number of pages; [`themes`]: the
//!   user's own themes, made, listed and laid out in a bounded child process.
//! - [`import`]: a file read into a resume with no model, and kept.
//! - [`letters`]: cover letters, written for a posting by the same turn, and their exports.
//! - [`applications`]: job applications, their stages and pinned revisions, and CSV out and in.
//! - [`chat`]: a turn on a named resume as the command line runs it; the demo; the evals.
//! - [`provider`]: the model server and its key.
//! - [`database`]: backup, the whole database checked, recovery from a backup.
//! - [`lint`]: a resume's writing checked (spelling, grammar, a recruiter's rules); the user's words.
//! - [`sync`](mod@sync): the resumes on every device the user owns, through a folder or a git remote.
//! - [`pdf_child`]: a PDF read in a child process bounded in memory and time.
//! - [`ipc`]: the types both front doors get, and their TypeScript bindings; [`settings`]: what the store
//!   keeps for the engine (review mode, held edits, a copy's posting); [`streams`]: a turn's stream as
//!   the window reads it; [`tidy`]: the ask that tidies an import.

#![forbid(unsafe_code)]
// Tests may be longer than library code (clippy.toml).
#![cfg_attr(test, allow(clippy::too_many_lines))]

use std::path::PathBuf;

use redline_patch::Surface;
use redline_store::{Store, StoreError};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

/// The surface id of the main window's resume view.
pub const MAIN_SURFACE: &str = "main";

pub use documents::{Listed, Variant};
pub use error::{Error, ErrorKind};
pub use history::{history_in_words, history_page_in_words, revision_in_words};
/// The title of the demo's copy of the sample resume.
pub use redline_agent::fixtures::DEMO_TITLE;
/// What the command line shows of a report, a provider or a revision.
pub use redline_agent::probe::{Check, ConnectionReport};
pub use redline_agent::{Held, Learned, ProviderSettings};
pub use redline_patch::SurfaceUpdate;
pub use redline_pdf::ats::{Finding, Report as AtsReport};
pub use redline_pdf::theme::is_name as theme_name;
/// What a resume can be made into: the file formats, the designs and the page sizes.
pub use redline_resume::export::{Format, Page, Template, UnknownName};
/// A file a front door reads for the engine, opened only when it is a regular file (not a pipe or a
/// device that never ends).
pub use redline_resume::open_regular;
/// What must not reach a person's screen or file unseen (controls, direction overrides, invisible
/// characters).
pub use redline_resume::unseen;
/// A resume's words cut to a length for a line, and its schema's limits a front door reads with.
pub use redline_resume::{coverage::MAX_DESCRIPTION_BYTES, shorten};
/// The data folder's variable and how it is found, for a front door's `--data-dir`.
pub use redline_store::{DATA_DIR_ENV, resolve_data_dir};
pub use redline_store::{DocumentSummary, RevisionInfo};
pub use themes::{Look, ThemeMade};
pub use turn::CHAT_PAGE;

pub mod applications;
pub mod chat;
pub mod database;
pub mod design;
mod documents;
mod error;
pub mod export;
pub mod history;
pub mod import;
pub mod ipc;
pub mod letters;
pub mod lint;
pub mod pdf_child;
pub mod provider;
#[cfg(test)]
mod scale_tests;
pub mod settings;
pub mod streams;
pub mod sync;
pub mod themes;
pub mod tidy;
mod turn;

/// The engine as the app runs it.
pub struct Engine {
    data_dir: Option<PathBuf>,
    /// Where API keys are kept: the OS keychain (in memory in tests).
    keychain: std::sync::Arc<dyn redline_agent::Keychain>,
    state: Result<Mutex<Open>, Error>,
    running: std::sync::Mutex<Option<CancellationToken>>,
    /// What happened at start that the window should say (once).
    notices: std::sync::Mutex<Vec<String>>,
    /// Files the app was asked to open that wait for the window's import review.
    reviews: std::sync::Mutex<Vec<ipc::ImportPreview>>,
    /// The Page view's pages as last drawn (a page that did not change is not drawn again).
    pages: std::sync::Arc<std::sync::Mutex<redline_pdf::PageDrawer>>,
    /// Whether the Page view has asked for pages yet (the first time, the other template is warmed).
    pages_warmed: std::sync::atomic::AtomicBool,
    /// The design gallery's thumbnails, kept per revision.
    thumbnails: std::sync::Mutex<design::Thumbnails>,
    /// What the last sync pass built, for the next pass of this engine (the app's) to go on from.
    synced: std::sync::Mutex<Option<sync::KeptReplica>>,
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

    /// An engine for a test: its data in `dir`, its keys in memory.
    #[cfg(test)]
    pub(crate) fn in_test_folder(dir: &std::path::Path) -> Engine {
        Engine::start_with(
            Some(dir.to_owned()),
            std::sync::Arc::new(redline_agent::MemoryKeychain::default()),
        )
    }

    /// [`Engine::start`] with another keychain (tests use one in memory).
    pub fn start_with(
        data_dir: Option<PathBuf>,
        keychain: std::sync::Arc<dyn redline_agent::Keychain>,
    ) -> Engine {
        let state = match &data_dir {
            None => Err(Error::new(
                ErrorKind::NotFound,
                "cannot tell where your data folder is: start Redline with --data-dir DIR or set REDLINE_DATA_DIR",
            )),
            Some(dir) => open(dir).map(Mutex::new).map_err(Error::from),
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
            thumbnails: Default::default(),
            synced: Default::default(),
            env: redline_agent::settings::env_var,
        }
    }

    /// The engine as a command of the `redline` command line starts it: the store in `data_dir` opened as it
    /// is — no sample resume on a first start and no backup, which are the app's — for a command that names
    /// what it works on ([`Engine::resolve`] brings the sample in when there is nothing to work on).
    pub fn start_bare(data_dir: PathBuf) -> Engine {
        let state = Store::open(&data_dir)
            .map(|store| {
                let document_id = store.current().map_or(0, |d| d.id);
                Mutex::new(Open {
                    store,
                    document_id,
                    surface: Surface::new(MAIN_SURFACE),
                })
            })
            .map_err(Error::from);
        Engine {
            state,
            ..Engine::start_with(None, std::sync::Arc::new(redline_agent::OsKeychain))
        }
        .in_folder(data_dir)
    }

    fn in_folder(mut self, data_dir: PathBuf) -> Engine {
        self.data_dir = Some(data_dir);
        self
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

    fn open(&self) -> Result<&Mutex<Open>, Error> {
        self.state.as_ref().map_err(Clone::clone)
    }

    /// A `create` message with the current document at its head revision. (During a turn this waits
    /// until the turn ends: the view then gets the committed document.)
    pub async fn open_surface(&self) -> Result<SurfaceUpdate, Error> {
        let mut open = self.open()?.lock().await;
        let head = open.store.head(open.document_id)?;
        Ok(open.surface.create(head.number, head.document))
    }
}

/// The address a link from the resume may be opened at, in the system's browser or mail program: only
/// one well-formed `https:`, `http:` or `mailto:` URL (the rule of every export,
/// [`redline_resume::outline::safe_href`]; a `mailto:` keeps only a subject, a body and a copy). The window
/// itself never navigates away.
pub fn link_to_open(url: &str) -> Result<String, Error> {
    redline_resume::outline::safe_href(url).ok_or_else(|| {
        let shown: String = url.chars().filter(|c| !c.is_control()).take(60).collect();
        Error::new(
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
    use std::time::Duration;

    use redline_agent::ProviderConfig;
    use redline_patch::PatchState;

    use crate::export::{MAX_FILE_NAME_BYTES, file_stem};
    use crate::ipc::{ChatEvent, ChatRole, ExportRequest, TurnMessage};
    use redline_agent::Keychain as _;

    /// A replay server answering with `replies`, and the provider settings that point at it (its two
    /// models), the rest as in `rest`.
    pub(crate) async fn replay_provider(
        replies: Vec<redline_agent::Reply>,
        rest: redline_agent::ProviderSettings,
    ) -> (redline_agent::ReplayServer, redline_agent::ProviderSettings) {
        let server = redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
            .await
            .unwrap();
        let settings = redline_agent::ProviderSettings {
            preset: redline_agent::Preset::Custom,
            base_url: server.base_url(),
            chat_model: "replay-chat".into(),
            patch_model: "replay-patch".into(),
            ..rest
        };
        (server, settings)
    }

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
        let (server, settings) = replay_provider(replies, first.settings.clone()).await;
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
        assert_eq!(err.kind, crate::ErrorKind::Invalid);
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
        assert_eq!(err.kind, crate::ErrorKind::Damaged);
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
                TurnMessage::Surface(u) => surfaces.push(u),
                TurnMessage::Chat(c) => chat.push(c),
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
                if let TurnMessage::Chat(c) = e {
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
                .any(|c| matches!(c, ChatEvent::Status { text } if text != crate::turn::LEARNING)),
            "the held edit is shown once, as `Held`: {chat:?}"
        );
        let mut surfaces = Vec::new();
        let mut events = Vec::new();
        let revision = engine
            .apply_held(held[0].clone(), &mut |e| match e {
                TurnMessage::Surface(u) => surfaces.push(u),
                TurnMessage::Chat(c) => events.push(c),
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
        assert_eq!(err.kind, crate::ErrorKind::Conflict);
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

    /// A PDF whose letters no font has says so in the finished export (the window's Export dialog names
    /// them, and the file is still made); HTML, and a resume every letter of which prints, say nothing.
    #[tokio::test]
    async fn a_pdf_export_names_the_letters_no_font_has() {
        use crate::ipc::{Format, Page, Template};
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let out = dir.path().join("out");
        let request = |format| ExportRequest {
            format,
            template: Template::Classic,
            page: Page::A4,
        };
        let clean = engine.export(&request(Format::Pdf), &out).await.unwrap();
        assert_eq!(clean.unprintable, "");
        // U+0378 is no letter of any script: no font has it.
        let op: redline_patch::Operation = serde_json::from_value(serde_json::json!(
            {"op": "replace", "path": "/basics/name", "value": "Richard \u{378}Hendriks"}
        ))
        .unwrap();
        engine.edit(1, vec![op], &mut |_| {}).await.unwrap();
        let pdf = engine.export(&request(Format::Pdf), &out).await.unwrap();
        assert_eq!(pdf.unprintable, "\u{378}");
        assert!(std::fs::read(&pdf.path).unwrap().starts_with(b"%PDF-"));
        let html = engine.export(&request(Format::Html), &out).await.unwrap();
        assert_eq!(html.unprintable, "");
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
        let engine = Engine::in_test_folder(dir.path());
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
        let engine = Engine::in_test_folder(dir.path());
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
        let engine = Engine::in_test_folder(dir.path())
            // Whatever the developer's shell holds: an environment with nothing set.
            .with_environment(|_| None);
        let err = engine.send("hi", None, &mut |_| {}).await.unwrap_err();
        assert!(
            err.message.contains("OPENAI_API_KEY") && err.message.contains("Try the demo"),
            "{err}"
        );
        assert_eq!(err.kind, crate::ErrorKind::NotConfigured);
    }
}
