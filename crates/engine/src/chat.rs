//! A turn as the command line runs it: on a named resume (or a new one the model creates), with the saved
//! provider and the command's own server and models on top, every event handed out as the agent said it
//! (`redline chat --json` prints them as they are), and how it ended told with the revisions it committed,
//! each in words. Review mode and a tailored copy's posting hold as in the window, whose turns run on the
//! resume on screen (`lib.rs`). Also the tidy after an import (`redline import --tidy`), the demo on the
//! command line, and the evals' setup and asks.

use std::time::Duration;

use redline_agent::{ProviderConfig, TurnOutcome};
use redline_patch::Surface;
use tokio_util::sync::CancellationToken;

pub use redline_agent::eval::{Ask as EvalAsk, Outcome as EvalOutcome, Suite, Totals};
pub use redline_agent::{Learned, TurnEvent};

use super::Engine;
use crate::error::{Error, ErrorKind};
use crate::ipc::TidySource;
use crate::settings;
use crate::turn::TurnAsk;

/// The server and models a command asks for over the saved provider (its flags, or the environment's
/// `REDLINE_BASE_URL`, `REDLINE_MODEL`, `REDLINE_PATCH_MODEL`).
#[derive(Debug, Clone, Default)]
pub struct ServerChoice {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub patch_model: Option<String>,
}

/// A turn the command line asks for.
#[derive(Debug, Clone)]
pub struct ChatAsk {
    /// What the user asks.
    pub message: String,
    /// The resume to change; `None` starts a new one from the conversation.
    pub document: Option<i64>,
    /// The server and models, over the saved provider.
    pub server: ServerChoice,
}

/// How a turn ended: the resume it worked on and its head revision now, and what it did (with each
/// committed revision's operations in words) or why it failed (nothing was written then: the resume stays
/// at `head`).
#[derive(Debug)]
pub struct TurnEnd {
    pub document: Option<i64>,
    pub head: u64,
    pub result: Result<TurnOutcome, Error>,
    /// Each revision the turn committed, in order, with its operations in words.
    pub in_words: Vec<(u64, Vec<String>)>,
}

impl Engine {
    /// Runs the turn `ask` describes, handing each event to `emit` as it comes. Stop ([`Engine::stop`])
    /// cancels it and rolls back its preview.
    pub async fn chat(
        &self,
        ask: ChatAsk,
        emit: &mut (dyn FnMut(&TurnEvent) + Send),
    ) -> Result<TurnEnd, Error> {
        let config = self.configured_with(ask.server).await?;
        self.chat_with(config, TurnAsk::own(&ask.message), ask.document, emit)
            .await
    }

    /// Tidies `document`, just imported from the file `source` describes, with the model and `server`
    /// (`redline import --tidy`), as [`Engine::tidy`] does in the window: every edit waits for the user
    /// whatever review mode says, and the ask, which quotes the file, is kept marked so: the file's text is
    /// never the user's own words to the link and fact checks.
    pub async fn tidy_chat(
        &self,
        document: i64,
        source: &TidySource,
        server: ServerChoice,
        emit: &mut (dyn FnMut(&TurnEvent) + Send),
    ) -> Result<TurnEnd, Error> {
        let config = self.configured_with(server).await?;
        let ask = crate::tidy::ask(source);
        self.chat_with(config, TurnAsk::tidy(&ask), Some(document), emit)
            .await
    }

    /// Plays the scripted demo through a replay server on 127.0.0.1 on a fresh copy of the sample resume;
    /// `started` hears that copy's id and the demo's ask before the turn runs.
    pub async fn demo_chat(
        &self,
        started: impl FnOnce(i64, &str),
        emit: &mut (dyn FnMut(&TurnEvent) + Send),
    ) -> Result<TurnEnd, Error> {
        let fixture = redline_agent::fixtures::demo();
        let doc = {
            let mut open = self.open()?.lock().await;
            redline_agent::fixtures::demo_document(&mut open.store)?
        };
        started(doc, &fixture.message);
        let (server, config) =
            crate::turn::demo_server(&fixture, Duration::from_millis(12)).await?;
        // The demo's server is a script, known by construction: nothing to learn, nothing left behind.
        let ask = TurnAsk {
            learn: false,
            ..TurnAsk::own(&fixture.message)
        };
        let end = self.chat_with(config, ask, Some(doc), emit).await;
        drop(server);
        end
    }

    /// What `redline eval` runs with: the configuration, and what the server takes — learned by the
    /// connection test when nothing was learned before.
    pub async fn eval_setup(
        &self,
        server: ServerChoice,
    ) -> Result<(ProviderConfig, Learned), Error> {
        let config = self.configured_with(server).await?;
        let mut open = self.open()?.lock().await;
        if let Some(learned) = redline_agent::settings::learned(&open.store, &config)? {
            return Ok((config, learned));
        }
        let provider = redline_agent::Provider::new(config.clone());
        let report = redline_agent::probe::test_connection(&provider).await;
        if !report.works() {
            let problem = report
                .chat
                .problem
                .or(report.patch.problem)
                .unwrap_or_default();
            return Err(Error::new(
                ErrorKind::Unreachable,
                format!("the server does not answer as a model server should: {problem}"),
            ));
        }
        redline_agent::settings::remember(&mut open.store, &provider, true)?;
        Ok((config, provider.learned()))
    }

    /// One ask of an eval suite, on a fresh copy of its resume in a throwaway store: the user's resumes are
    /// never touched.
    pub async fn eval_ask(
        &self,
        config: &ProviderConfig,
        learned: &Learned,
        ask: &EvalAsk,
    ) -> Result<EvalOutcome, Error> {
        let dir =
            tempfile::tempdir().map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
        Ok(redline_agent::eval::run(config, learned, ask, dir.path()).await)
    }

    /// The saved provider with the environment and then `server` on top, its problems in the agent's own
    /// words.
    async fn configured_with(&self, server: ServerChoice) -> Result<ProviderConfig, Error> {
        let open = self.open()?.lock().await;
        let ServerChoice {
            base_url,
            model,
            patch_model,
        } = server;
        redline_agent::settings::resolve_in(
            self.env,
            &open.store,
            self.keychain.as_ref(),
            |settings| settings.choose(base_url, model, patch_model),
        )
        .map_err(|e| Error::new(e.kind(), e.to_string()))
    }

    /// Runs one turn for `ask` on `document` with `config`, as [`Engine::chat`] says.
    async fn chat_with(
        &self,
        config: ProviderConfig,
        ask: TurnAsk<'_>,
        document: Option<i64>,
        emit: &mut (dyn FnMut(&TurnEvent) + Send),
    ) -> Result<TurnEnd, Error> {
        let cancel = CancellationToken::new();
        let _running = crate::Running::start(&self.running, cancel.clone());
        let mut open = self.open()?.lock().await;
        let store = &mut open.store;
        let mut said = |event: TurnEvent| emit(&event);
        let learned = match ask.learn {
            true => crate::turn::learn_first(store, &config, &cancel, &mut said).await,
            false => Ok(()),
        };
        let provider = redline_agent::settings::provider(store, config)?;
        let mut surface = Surface::new("cli");
        let message = ask.message;
        let result = match learned {
            Ok(()) => {
                ask.turn(&mut *store, document, &mut surface, &provider, cancel)?
                    .run(message, &mut said)
                    .await
            }
            Err(e) => Err(e),
        };
        // What the server was found to take is kept for the next run (a failure costs one refused request
        // next time, not this turn).
        if let Err(e) = redline_agent::settings::remember(store, &provider, false) {
            log::warn!("could not keep what the server takes: {e}");
        }
        let document = match &result {
            Ok(outcome) => outcome.document_id,
            Err(_) => document,
        };
        let head = match document {
            Some(id) => store.document(id)?.head_revision,
            None => 0,
        };
        let mut in_words = Vec::new();
        let result = match result {
            Ok(outcome) => {
                if let Some(id) = outcome.document_id {
                    // Edits held for the user wait for them (`redline held`, or the app) across runs.
                    settings::keep_held(store, id, &outcome.held)?;
                }
                for &n in &outcome.revisions {
                    in_words.push((n, described(store, document, n)?));
                }
                Ok(outcome)
            }
            Err(e) => Err(Error::from(e)),
        };
        Ok(TurnEnd {
            document,
            head,
            result,
            in_words,
        })
    }
}

/// The operations of revision `n` of `document`, each in words; a first revision created the resume.
fn described(
    store: &redline_store::Store,
    document: Option<i64>,
    n: u64,
) -> Result<Vec<String>, Error> {
    let Some(doc) = document else {
        return Ok(Vec::new());
    };
    if n == 1 {
        return Ok(vec![format!("created document {doc}")]);
    }
    Ok(store
        .diff(doc, n - 1, n)?
        .iter()
        .map(|op| {
            let op: redline_patch::Operation = op.into();
            op.describe()
        })
        .collect())
}
