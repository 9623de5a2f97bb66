//! The window's AI turns on the resume on screen: its conversation read back a page at a time, a turn
//! for a message (or to tidy an import, or the scripted demo), the edits a turn held applied, and Stop.
//! The command line's turns are in [`crate::chat`]; both run the agent's `Turn` on the open store.

use std::time::Duration;

use redline_agent::{Provider, ProviderConfig, Turn, TurnEvent};
use redline_patch::{PatchState, Policy, Surface};
use redline_store::Store;
use tokio_util::sync::CancellationToken;

use super::{Engine, Open, Running};
use crate::error::{Error, ErrorKind};
use crate::ipc::{ChatEvent, ChatLine, ChatPage, ChatRole, Emit, TurnMessage, TurnOutcome};
use crate::{DEMO_TITLE, settings, tidy};

/// How many messages of the conversation [`Engine::chat_history`] reads at a time.
pub const CHAT_PAGE: usize = 200;

impl Engine {
    /// The conversation about the document on screen (so that it survives a restart): its newest
    /// [`CHAT_PAGE`] messages before `before` (the newest of all when `None`), oldest first. A year of
    /// conversation is read a page at a time, as the user scrolls back.
    pub async fn chat_history(&self, before: Option<i64>) -> Result<ChatPage, Error> {
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
        emit: Emit<'_>,
    ) -> Result<TurnOutcome, Error> {
        let config = self.configured().await?;
        self.turn(config, message, selected, false, emit).await
    }

    /// "Tidy with the model" after an import from `source` (see [`tidy`]): a turn whose every edit waits
    /// for the user's review, whatever review mode says. Its ask quotes the file, and is kept marked so:
    /// the file's text is never the user's own words to the link and fact checks, in this turn or later.
    pub async fn tidy(
        &self,
        source: &crate::ipc::TidySource,
        emit: Emit<'_>,
    ) -> Result<TurnOutcome, Error> {
        let config = self.configured().await?;
        self.turn_on(config, TurnAsk::tidy(&tidy::ask(source)), emit)
            .await
    }

    /// Plays the scripted demo on a fresh copy of the sample resume, through a replay server on
    /// 127.0.0.1: no model, no key, nothing leaves the machine.
    pub async fn demo(&self, emit: Emit<'_>) -> Result<TurnOutcome, Error> {
        let fixture = redline_agent::fixtures::demo();
        {
            let mut open = self.open()?.lock().await;
            let id = redline_agent::fixtures::demo_document(&mut open.store)?;
            open.document_id = id;
            let head = open.store.head(id)?;
            emit(TurnMessage::Surface(
                open.surface.create(head.number, head.document),
            ));
        }
        emit(TurnMessage::Chat(ChatEvent::Status {
            text: format!(
                "Demo — scripted answers from a local replay server: no model, no key, nothing leaves this computer. It edits “{DEMO_TITLE}”, a fresh copy of the sample resume."
            ),
        }));
        emit(TurnMessage::Chat(ChatEvent::User {
            text: fixture.message.clone(),
        }));
        let (server, config) = demo_server(&fixture, Duration::from_millis(25)).await?;
        // The demo's server is a script, known by construction: nothing to learn, nothing left behind.
        let ask = TurnAsk {
            learn: false,
            ..TurnAsk::own(&fixture.message)
        };
        let summary = self.turn_on(config, ask, emit).await;
        drop(server);
        summary
    }

    /// One turn for the user's own `message`; with `review`, every edit waits for the user whatever review
    /// mode says.
    pub(crate) async fn turn(
        &self,
        config: ProviderConfig,
        message: &str,
        selected: Option<String>,
        review: bool,
        emit: Emit<'_>,
    ) -> Result<TurnOutcome, Error> {
        let ask = TurnAsk {
            selected,
            always_review: review,
            ..TurnAsk::own(message)
        };
        self.turn_on(config, ask, emit).await
    }

    /// One turn for what `ask` says, on the resume on screen.
    async fn turn_on(
        &self,
        config: ProviderConfig,
        ask: TurnAsk<'_>,
        emit: Emit<'_>,
    ) -> Result<TurnOutcome, Error> {
        let cancel = CancellationToken::new();
        // Marked as running until this function returns, however it returns (a failed read below included).
        let _running = Running::start(&self.running, cancel.clone());
        let checks = self.checks_note().await;
        let mut open = self.open()?.lock().await;
        let mut said = |event: TurnEvent| match event {
            TurnEvent::Surface { update } => emit(TurnMessage::Surface(update)),
            other => {
                if let Some(said) = ChatEvent::of(other) {
                    emit(TurnMessage::Chat(said));
                }
            }
        };
        let learned = match ask.learn {
            true => learn_first(&mut open.store, &config, &cancel, &mut said).await,
            false => Ok(()),
        };
        let provider = redline_agent::settings::provider(&open.store, config)?;
        let Open {
            store,
            document_id,
            surface,
        } = &mut *open;
        let message = ask.message;
        let result = match learned {
            Ok(()) => {
                ask.turn(store, Some(*document_id), surface, &provider, cancel)?
                    .with_checks(checks)
                    .run(message, &mut said)
                    .await
            }
            Err(e) => Err(e),
        };
        drop(_running);
        // What the server was found to take is kept for the next run; failing to keep it costs one
        // refused request next time, not this turn.
        if let Err(e) = redline_agent::settings::remember(&mut open.store, &provider, false) {
            log::warn!("could not keep what the server takes: {e}");
        }
        if let Ok(outcome) = &result {
            // Edits held for the user wait for them across a restart.
            let id = open.document_id;
            settings::keep_held(&mut open.store, id, &outcome.held)?;
        }
        match result {
            Ok(outcome) => Ok(outcome),
            Err(e) => Err(nothing_changed(&open.store, open.document_id, e)),
        }
    }

    /// Applies edits a turn held for the user's confirmation, as one revision; returns its number.
    pub async fn apply_held(
        &self,
        held: redline_agent::Held,
        emit: Emit<'_>,
    ) -> Result<u64, Error> {
        let mut open = self.open()?.lock().await;
        let Open {
            store,
            document_id,
            surface,
        } = &mut *open;
        if held.document_id != *document_id {
            return Err(Error::new(
                ErrorKind::Conflict,
                "these edits were proposed for another resume than the one on screen",
            ));
        }
        match redline_agent::confirm(store, &held, &Policy::default()) {
            Ok((committed, ops)) => {
                let n = committed.info.number;
                settings::drop_held(store, &held)?;
                emit(TurnMessage::Surface(surface.patch(
                    n,
                    PatchState::Committed,
                    ops,
                )));
                emit(TurnMessage::Chat(ChatEvent::Committed {
                    revision: n,
                    summary: committed.info.summary,
                }));
                Ok(n)
            }
            Err(e) => Err(nothing_changed(store, *document_id, e)),
        }
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

/// What one turn is asked, and how.
pub(crate) struct TurnAsk<'m> {
    /// The message.
    pub message: &'m str,
    /// The pointer the user selected in the resume view, if any.
    pub selected: Option<String>,
    /// Every edit waits for the user, whatever review mode says.
    pub always_review: bool,
    /// The message quotes a file (the ask that tidies an import): it is kept marked so, and its text is
    /// never the user's own words to the link and fact checks.
    pub quotes_file: bool,
    /// Learn what the server takes first, if nothing was learned for its models ([`learn_first`]); the
    /// demo's scripted server is not learned.
    pub learn: bool,
}

impl<'m> TurnAsk<'m> {
    /// The user's own `message`, nothing selected, as review mode says.
    pub(crate) fn own(message: &'m str) -> TurnAsk<'m> {
        TurnAsk {
            message,
            selected: None,
            always_review: false,
            quotes_file: false,
            learn: true,
        }
    }

    /// The ask that tidies an import ([`tidy::ask`]): it quotes the file, and every edit waits for the user.
    pub(crate) fn tidy(message: &'m str) -> TurnAsk<'m> {
        TurnAsk {
            always_review: true,
            quotes_file: true,
            ..TurnAsk::own(message)
        }
    }

    /// The agent's turn for this ask on `document` in `store`, shown on `surface`, as both front doors run
    /// it: review mode holds every edit, and a tailored copy shows the model its posting.
    pub(crate) fn turn<'t>(
        self,
        store: &'t mut Store,
        document: Option<i64>,
        surface: &'t mut Surface,
        provider: &'t Provider,
        cancel: CancellationToken,
    ) -> Result<Turn<'t>, Error> {
        let review = self.always_review || settings::review_mode(store)?;
        let job = match document {
            Some(id) => settings::job_of(store, id)?,
            None => None,
        };
        Ok(Turn {
            store,
            document_id: document,
            provider,
            surface,
            policy: Policy::default(),
            selected: self.selected,
            cancel,
            stall: Duration::from_secs(3),
            job,
            review,
            quotes_file: self.quotes_file,
            checks: None,
        })
    }
}

/// What the chat says while a server is learned before its first turn.
pub(crate) const LEARNING: &str = "Learning what this server can do (once)…";

/// Before a turn, in the window and on the command line alike: when nothing was learned about `config`'s
/// server and models (its first turn, or the first after the settings changed to it), what the connection
/// test learns is learned now ([`redline_agent::probe::learn`]: how the server takes a round with tools, how
/// its patch model gives JSON, whether its chat model plans by calling tools), said in the chat, and kept
/// for the next turns; a server that was learned is not asked again. A model that does not answer ends the
/// turn with the error its first request would have given (a server that is down, a key refused, a model
/// not found, Stop), in the same words; any other failure is left to the turn itself, which asks the way it
/// would have asked, with nothing kept, so that learning never gives a turn a new reason to fail.
pub(crate) async fn learn_first(
    store: &mut Store,
    config: &ProviderConfig,
    cancel: &CancellationToken,
    say: &mut (dyn FnMut(TurnEvent) + Send),
) -> Result<(), redline_agent::TurnError> {
    use redline_agent::{ProviderError as P, TurnError};
    if redline_agent::settings::learned(store, config)?.is_some() {
        return Ok(());
    }
    say(TurnEvent::Status {
        text: LEARNING.to_owned(),
    });
    let learning = Provider::new(config.clone()).for_learning();
    let found = tokio::select! {
        _ = cancel.cancelled() => return Err(TurnError::Cancelled),
        found = redline_agent::probe::learn(&learning) => found,
    };
    match found {
        Ok(()) => Ok(redline_agent::settings::remember(store, &learning, true)?),
        Err(
            e @ (P::Unreachable(_)
            | P::Timeout(_)
            | P::Unauthorized(_)
            | P::RateLimited(..)
            | P::Quota(_)
            | P::ModelNotFound(..)),
        ) => Err(e.into()),
        Err(e) => {
            log::warn!("could not learn what the server takes, the turn goes on: {e}");
            Ok(())
        }
    }
}

/// A failure in the user's words, with the revision the resume stays at.
pub(crate) fn nothing_changed(store: &Store, document_id: i64, error: impl Into<Error>) -> Error {
    let error = error.into();
    let head = store
        .document(document_id)
        .map(|d| d.head_revision)
        .unwrap_or_default();
    Error::new(
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

/// The demo's replay server on 127.0.0.1, sending its script with `delay` between pieces.
pub(crate) async fn demo_server(
    fixture: &redline_agent::fixtures::Fixture,
    delay: Duration,
) -> Result<(redline_agent::ReplayServer, ProviderConfig), Error> {
    redline_agent::fixtures::replay(fixture, delay)
        .await
        .map_err(|e| {
            Error::new(
                ErrorKind::Internal,
                format!("the demo could not start its local server: {e}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::chat::ServerChoice;
    use crate::ipc::{ImportFormat, TidySource};

    /// The job the model adds in [`adds_evil_corp`], with a site only a file had.
    fn evil_corp() -> Value {
        json!({"name": "Evil Corp", "url": "https://evil.example/x", "startDate": "2011-01-01"})
    }

    /// The replay server's answers in one turn in which the model adds [`evil_corp`] to the work entries.
    fn adds_evil_corp() -> Vec<Value> {
        vec![
            json!({"toolCall": {"name": "patch_resume", "arguments": {"changes": "Add the job at Evil Corp with its site", "targets": ["/work"]}}}),
            json!({"patch": {"operations": [{"op": "add", "path": "/work/-", "value": evil_corp()}]}}),
            json!({"say": "Done."}),
        ]
    }

    /// A file whose text plants a link.
    fn planted() -> TidySource {
        let line = "Evil Corp, https://evil.example/x, 2011".to_owned();
        TidySource {
            name: "cv.pdf".into(),
            format: ImportFormat::Pdf,
            lines: vec!["Ada Lovelace".into(), line.clone()],
            unplaced: vec![line],
        }
    }

    /// An engine on the sample resume whose saved provider is a replay server giving `turns` times the
    /// answers of [`adds_evil_corp`].
    async fn engine_adding_evil_corp(
        dir: &std::path::Path,
        turns: usize,
    ) -> (redline_agent::ReplayServer, Engine) {
        let replies =
            serde_json::from_value((0..turns).flat_map(|_| adds_evil_corp()).collect()).unwrap();
        let (server, settings) =
            crate::tests::replay_provider(replies, redline_agent::ProviderSettings::default())
                .await;
        let engine = Engine::in_test_folder(dir);
        engine.save_provider(settings).await.unwrap();
        (server, engine)
    }

    /// After "Tidy with the model", a link planted in the file is still not one the user gave: a later turn
    /// whose edit writes it is held for the user, not applied. The same link in the user's own message is
    /// theirs, and the edit is applied. The tidy's ask stays in the chat.
    #[tokio::test]
    async fn a_link_planted_in_a_tidied_file_is_never_one_the_user_gave() {
        let dir = tempfile::tempdir().unwrap();
        let (_server, engine) = engine_adding_evil_corp(dir.path(), 3).await;
        let start = engine.state().await.unwrap().revision;
        let tidied = engine.tidy(&planted(), &mut |_| {}).await.unwrap();
        assert!(tidied.revisions.is_empty() && tidied.held[0].proposal);
        let later = engine
            .send("Add my job at Evil Corp", None, &mut |_| {})
            .await
            .unwrap();
        assert!(later.revisions.is_empty(), "nothing applied");
        assert_eq!(later.held[0].why, [redline_patch::Hold::NewLink]);
        assert_eq!(engine.state().await.unwrap().revision, start);

        let given = engine
            .send(
                "Add my job at Evil Corp, https://evil.example/x",
                None,
                &mut |_| {},
            )
            .await
            .unwrap();
        assert_eq!(given.revisions, [start + 1]);
        assert!(given.held.is_empty());
        let open = engine.open().unwrap().lock().await;
        let work = &open.store.head(open.document_id).unwrap().document["work"];
        assert_eq!(work.as_array().unwrap().last(), Some(&evil_corp()));
        drop(open);
        let chat = engine.chat_history(None).await.unwrap();
        assert_eq!(chat.lines[0].role, ChatRole::User);
        assert!(chat.lines[0].text.contains("https://evil.example/x"));
    }

    /// `redline import --tidy`'s turn keeps its ask as quoting the file, as the window's does.
    #[tokio::test]
    async fn the_command_line_s_tidy_keeps_its_ask_as_quoting_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let (_server, engine) = engine_adding_evil_corp(dir.path(), 1).await;
        let doc = engine.state().await.unwrap().document_id;
        let end = engine
            .tidy_chat(doc, &planted(), ServerChoice::default(), &mut |_| {})
            .await
            .unwrap();
        let outcome = end.result.unwrap();
        assert!(outcome.revisions.is_empty() && outcome.held[0].proposal);
        let open = engine.open().unwrap().lock().await;
        let kept = open.store.messages(doc).unwrap();
        assert!(kept[0].quotes_file && kept[0].content.contains("https://evil.example/x"));
        assert_eq!(open.store.said_by_user(doc).unwrap(), "");
    }

    /// One turn's answers: the planner asks to add `word` to the sample's first skill, the patch model adds
    /// it, the chat model says it is done.
    fn adds(word: &str) -> Vec<Value> {
        vec![
            json!({"toolCall": {"name": "patch_resume", "arguments": {"changes": format!("Add {word}"), "targets": ["/skills/0/keywords"]}}}),
            json!({"patch": {"operations": [{"op": "add", "path": "/skills/0/keywords/-", "value": word}]}}),
            json!({"say": "Done."}),
        ]
    }

    /// An engine on the sample resume whose saved provider (with `rest`'s timeouts) is a replay server
    /// answering `replies`; nothing learned about it yet.
    async fn engine_answering(
        dir: &std::path::Path,
        replies: Vec<Value>,
        rest: redline_agent::ProviderSettings,
    ) -> (redline_agent::ReplayServer, Engine) {
        let replies = serde_json::from_value(Value::Array(replies)).unwrap();
        let (server, settings) = crate::tests::replay_provider(replies, rest).await;
        let engine = Engine::in_test_folder(dir);
        engine.save_provider(settings).await.unwrap();
        (server, engine)
    }

    /// A turn in the window for `message`: how it ended, and the status lines the chat showed.
    async fn window_turn(
        engine: &Engine,
        message: &str,
    ) -> (Result<TurnOutcome, Error>, Vec<String>) {
        let mut statuses = Vec::new();
        let result = engine
            .send(message, None, &mut |m| {
                if let TurnMessage::Chat(ChatEvent::Status { text }) = m {
                    statuses.push(text);
                }
            })
            .await;
        (result, statuses)
    }

    /// A turn on the command line for `message` on the resume on screen: how it ended, and its status lines.
    async fn command_line_turn(
        engine: &Engine,
        message: &str,
    ) -> (Result<redline_agent::TurnOutcome, Error>, Vec<String>) {
        let document = Some(engine.state().await.unwrap().document_id);
        let mut statuses = Vec::new();
        let ask = crate::chat::ChatAsk {
            message: message.to_owned(),
            document,
            server: ServerChoice::default(),
        };
        let end = engine
            .chat(ask, &mut |e| {
                if let TurnEvent::Status { text } = e {
                    statuses.push(text.clone());
                }
            })
            .await
            .unwrap();
        (end.result, statuses)
    }

    /// The first turn on a server and models learns what the server takes, once, in the window and on the
    /// command line alike: said in the chat, asked before the turn's own requests, kept; the next turn
    /// asks nothing more. Changing the settings to other models (or back) learns again; changing a timeout
    /// does not.
    #[tokio::test]
    async fn a_server_is_learned_on_its_first_turn_and_again_when_the_settings_change() {
        for window in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let replies = ["Python", "Rust", "Go", "Zig", "Nim"]
                .iter()
                .flat_map(|w| adds(w))
                .collect();
            let (server, engine) = engine_answering(
                dir.path(),
                replies,
                redline_agent::ProviderSettings::default(),
            )
            .await;
            let turn = async |message: &str| match window {
                true => {
                    let (result, said) = window_turn(&engine, message).await;
                    (result.map(|o| o.revisions), said)
                }
                false => {
                    let (result, said) = command_line_turn(&engine, message).await;
                    (result.map(|o| o.revisions), said)
                }
            };
            assert_eq!(engine.provider_report().await.unwrap().learned, None);
            let start = engine.state().await.unwrap().revision;
            let (revisions, said) = turn("Add Python").await;
            assert_eq!(revisions.unwrap(), [start + 1], "window: {window}");
            assert_eq!(said, [LEARNING]);
            assert_eq!(server.learning_requests().len(), 3);
            assert_eq!(
                engine.provider_report().await.unwrap().learned,
                Some(redline_agent::Learned::default()),
                "kept"
            );
            // Learned once: the next turn asks only its own requests.
            let (revisions, said) = turn("Add Rust").await;
            assert_eq!(revisions.unwrap(), [start + 2]);
            assert!(said.is_empty(), "{said:?}");
            assert_eq!(server.learning_requests().len(), 3);

            // A timeout changed: the same server and models, nothing to learn again.
            let change =
                |model: Option<&str>, timeout: Option<u64>| crate::provider::ProviderChange {
                    model: model.map(str::to_owned),
                    first_token_timeout: timeout,
                    ..Default::default()
                };
            engine
                .change_provider(change(None, Some(90)))
                .await
                .unwrap();
            turn("Add Go").await.0.unwrap();
            assert_eq!(server.learning_requests().len(), 3);
            // Another chat model: learned again, before the turn.
            engine
                .change_provider(change(Some("replay-patch"), None))
                .await
                .unwrap();
            let (revisions, said) = turn("Add Zig").await;
            assert_eq!(revisions.unwrap(), [start + 4]);
            assert_eq!(said, [LEARNING]);
            let asked = server.learning_requests();
            assert_eq!(asked.len(), 6);
            assert_eq!(asked[3]["model"], "replay-patch");
            // Back to the first: the settings changed to it, so it is learned again too.
            engine
                .change_provider(change(Some("replay-chat"), None))
                .await
                .unwrap();
            assert_eq!(turn("Add Nim").await.1, [LEARNING]);
            assert_eq!(server.learning_requests().len(), 9);
            assert_eq!(server.remaining(), 0, "every turn had its own answers");
        }
    }

    /// A server whose round with tools stalls (nothing before the first-token timeout): the turn still
    /// commits, by the one-model path, and says so; what was found is kept, so that the next turn starts on
    /// that path, with no tools offered and no stall to wait through.
    #[tokio::test]
    async fn a_stalled_tool_round_falls_back_and_the_next_turn_starts_there() {
        let dir = tempfile::tempdir().unwrap();
        let add = |word: &str| json!({"patch": {"operations": [{"op": "add", "path": "/skills/0/keywords/-", "value": word}]}});
        let replies = vec![
            json!({"say": "Let me see", "stallAfter": 0, "stallMs": 5000}),
            add("Python"),
            add("Rust"),
        ];
        let quick = redline_agent::ProviderSettings {
            first_token_timeout_secs: 1,
            ..Default::default()
        };
        let (server, engine) = engine_answering(dir.path(), replies, quick).await;
        let start = engine.state().await.unwrap().revision;
        let (result, said) = window_turn(&engine, "Add Python to my skills.").await;
        assert_eq!(result.unwrap().revisions, [start + 1]);
        assert_eq!(said[0], LEARNING);
        assert!(said[1].contains("without them"), "{said:?}");
        let learned = engine.provider_report().await.unwrap().learned.unwrap();
        assert!(!learned.calls_tools, "{learned:?}");

        let (result, said) = window_turn(&engine, "Add Rust to my skills.").await;
        assert_eq!(result.unwrap().revisions, [start + 2]);
        assert!(said.is_empty(), "{said:?}");
        let asked = server.requests();
        assert_eq!(asked.len(), 3);
        assert!(asked[0]["tools"].is_array() && asked[2].get("tools").is_none());
        let open = engine.open().unwrap().lock().await;
        let keywords =
            &open.store.head(open.document_id).unwrap().document["skills"][0]["keywords"];
        assert_eq!(
            keywords,
            &json!(["HTML", "CSS", "Javascript", "Python", "Rust"])
        );
    }

    /// A server that is down: the learning before the first turn fails, and the turn ends with the words
    /// it would have ended with had the server been learned before; nothing is kept.
    #[tokio::test]
    async fn learning_a_server_that_is_down_ends_in_the_turn_s_own_words() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let nobody = format!("http://{}/v1", closed.local_addr().unwrap());
        drop(closed);
        let settings = redline_agent::ProviderSettings {
            preset: redline_agent::Preset::Custom,
            base_url: nobody.clone(),
            ..Default::default()
        };
        let mut errors = Vec::new();
        for learned_before in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let engine = Engine::in_test_folder(dir.path());
            engine.save_provider(settings.clone()).await.unwrap();
            if learned_before {
                let mut open = engine.open().unwrap().lock().await;
                let config = settings
                    .config(None, &redline_agent::MemoryKeychain::default())
                    .unwrap();
                let known = redline_agent::Provider::new(config);
                redline_agent::settings::remember(&mut open.store, &known, true).unwrap();
            }
            let (result, said) = window_turn(&engine, "Add Python to my skills.").await;
            assert_eq!(said.len(), usize::from(!learned_before), "{said:?}");
            errors.push(result.unwrap_err());
            let learned = engine.provider_report().await.unwrap().learned;
            assert_eq!(learned.is_some(), learned_before);
        }
        assert_eq!(errors[0], errors[1]);
        assert_eq!(errors[0].kind, ErrorKind::Unreachable);
        assert!(
            errors[0].message.starts_with("Cannot reach 127.0.0.1:"),
            "{}",
            errors[0]
        );
    }
}
