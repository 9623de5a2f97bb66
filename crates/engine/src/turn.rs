//! The window's AI turns on the resume on screen: its conversation read back a page at a time, a turn
//! for a message (or to tidy an import, or the scripted demo), the edits a turn held applied, and Stop.
//! The command line's turns are in [`crate::chat`]; both run the agent's `Turn` on the open store.

use std::time::Duration;

use redline_agent::{ProviderConfig, Turn, TurnEvent};
use redline_patch::{PatchState, Policy};
use redline_store::Store;
use tokio_util::sync::CancellationToken;

use super::{Engine, Open, Running};
use crate::ipc::{
    ChatEvent, ChatLine, ChatPage, ChatRole, ErrorKind, IpcError, TurnMessage, TurnOutcome,
};
use crate::{DEMO_TITLE, settings, tidy};

/// How many messages of the conversation [`Engine::chat_history`] reads at a time.
pub const CHAT_PAGE: usize = 200;

impl Engine {
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
        emit: &mut (dyn FnMut(TurnMessage) + Send),
    ) -> Result<TurnOutcome, IpcError> {
        let config = self.configured().await?;
        self.turn(config, message, selected, false, emit).await
    }

    /// "Tidy with the model" after an import from `source` (see [`tidy`]): a turn whose every edit waits
    /// for the user's review, whatever review mode says.
    pub async fn tidy(
        &self,
        source: &crate::ipc::TidySource,
        emit: &mut (dyn FnMut(TurnMessage) + Send),
    ) -> Result<TurnOutcome, IpcError> {
        let config = self.configured().await?;
        self.turn(config, &tidy::ask(source), None, true, emit)
            .await
    }

    /// Plays the scripted demo on a fresh copy of the sample resume, through a replay server on
    /// 127.0.0.1: no model, no key, nothing leaves the machine.
    pub async fn demo(
        &self,
        emit: &mut (dyn FnMut(TurnMessage) + Send),
    ) -> Result<TurnOutcome, IpcError> {
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
        let summary = self.turn(config, &fixture.message, None, false, emit).await;
        drop(server);
        summary
    }

    /// One turn for `message`; with `review`, every edit waits for the user whatever review mode says.
    pub(crate) async fn turn(
        &self,
        config: ProviderConfig,
        message: &str,
        selected: Option<String>,
        review: bool,
        emit: &mut (dyn FnMut(TurnMessage) + Send),
    ) -> Result<TurnOutcome, IpcError> {
        let cancel = CancellationToken::new();
        // Marked as running until this function returns, however it returns (a failed read below included).
        let _running = Running::start(&self.running, cancel.clone());
        let mut open = self.open()?.lock().await;
        let provider = redline_agent::settings::provider(&open.store, config)?;
        let job = settings::job_of(&open.store, open.document_id)?;
        let review = review || settings::review_mode(&open.store)?;
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
        .run(message, &mut |event| match event {
            TurnEvent::Surface { update } => emit(TurnMessage::Surface(update)),
            other => {
                if let Some(said) = ChatEvent::of(other) {
                    emit(TurnMessage::Chat(said));
                }
            }
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
        emit: &mut (dyn FnMut(TurnMessage) + Send),
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

/// A failure in the user's words, with the revision the resume stays at.
pub(crate) fn nothing_changed(
    store: &Store,
    document_id: i64,
    error: impl Into<IpcError>,
) -> IpcError {
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

/// The demo's replay server on 127.0.0.1, sending its script with `delay` between pieces.
pub(crate) async fn demo_server(
    fixture: &redline_agent::fixtures::Fixture,
    delay: Duration,
) -> Result<(redline_agent::ReplayServer, ProviderConfig), IpcError> {
    redline_agent::fixtures::replay(fixture, delay)
        .await
        .map_err(|e| {
            IpcError::new(
                ErrorKind::Internal,
                format!("the demo could not start its local server: {e}"),
            )
        })
}
