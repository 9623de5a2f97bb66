//! Scripted sessions: what the user says, what the replay server answers (chat replies, tool calls, the
//! patch model's output — written as the final value and chunked by the stream encoder, or as raw text
//! where it must be broken), and what must come of it.

use std::path::Path;
use std::time::Duration;

use redline_store::{Store, StoreError};
use serde::Deserialize;
use serde_json::Value;

use crate::ProviderConfig;
use crate::replay::{Pace, ReplayServer, Reply};

/// The title of the document the demo plays on.
pub const DEMO_TITLE: &str = "Redline demo";

/// One scripted session against the sample resume.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fixture {
    /// What it shows.
    pub description: String,
    /// What the user says.
    pub message: String,
    /// The replay server's answers, in order.
    pub replies: Vec<Reply>,
    /// Characters per streamed delta (default 7).
    #[serde(default)]
    pub chunk: Option<usize>,
    /// How long without progress counts as a stall, in milliseconds (default 2000).
    #[serde(default)]
    pub stall_ms: Option<u64>,
    /// What must come of it.
    #[serde(default)]
    pub expect: Expect,
}

/// The outcome a fixture asserts.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Expect {
    /// The RFC 6902 operations that take the sample to the final document (empty: unchanged).
    pub changes: Vec<Value>,
    /// How many revisions the turn commits.
    pub revisions: usize,
    /// Part of the error the turn ends with, if it fails.
    pub error: Option<String>,
    /// How many refusals it reports.
    pub refusals: usize,
    /// Whether some previews arrive as text appends (a long string typing itself).
    pub text_appends: bool,
    /// Part of a warning it must give.
    pub warning: Option<String>,
    /// Notices it must report (`waiting`, `held`, `duplicate`).
    pub notices: Vec<String>,
    /// The operations it holds for the user's confirmation (applied on top of `changes` when confirmed).
    pub held: Vec<Value>,
}

/// The scripted demo session played by `redline demo` and the app's "try the demo".
pub fn demo() -> Fixture {
    serde_json::from_str(include_str!("../fixtures/demo.json")).expect("the demo script is valid")
}

/// A fresh copy of the sample resume for the demo to edit; an earlier demo document is deleted (softly,
/// so it can be brought back). Returns the new document's id.
pub fn demo_document(store: &mut Store) -> Result<i64, StoreError> {
    // The demo's copy never becomes the user's current resume: the one they had stays current.
    let before = demo_copy(store)?;
    let previous = store.current().ok().filter(|d| Some(d.id) != before);
    // The copy the last demo made goes; a document of the user's that happens to bear the demo's title
    // stays (it once went too).
    if let Some(old) = before {
        store.delete(old)?;
    }
    let id = store.import(DEMO_TITLE, &redline_resume::sample())?;
    store.set_setting(DEMO_SETTING, &id.to_string())?;
    if let Some(previous) = previous {
        store.set_current(previous.id)?;
    }
    Ok(id)
}

/// The setting that names the document the last demo made.
const DEMO_SETTING: &str = "demo.document";

/// The document the last demo made, while it is still the demo's: not deleted, still titled
/// [`DEMO_TITLE`] (a copy the user renamed has become theirs).
pub fn demo_copy(store: &Store) -> Result<Option<i64>, StoreError> {
    let Some(id) = store
        .setting(DEMO_SETTING)?
        .and_then(|v| v.parse::<i64>().ok())
    else {
        return Ok(None);
    };
    Ok(store
        .list()?
        .into_iter()
        .find(|d| d.id == id && d.title == DEMO_TITLE)
        .map(|d| d.id))
}

/// A replay server for `fixture` on 127.0.0.1 (a pause of `delay` between deltas, so the edits are seen
/// growing), and a provider configuration that points at it.
pub async fn replay(
    fixture: &Fixture,
    delay: Duration,
) -> std::io::Result<(ReplayServer, ProviderConfig)> {
    let pace = Pace {
        chunk: fixture.chunk.unwrap_or(4),
        delay,
    };
    let server = ReplayServer::start(fixture.replies.clone(), pace).await?;
    let mut config = ProviderConfig::new(Some(server.base_url()), None);
    config.chat_model = "demo".into();
    config.patch_model = "demo".into();
    Ok((server, config))
}

/// A fixture file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// It is not a fixture.
    #[error("{} is not a valid fixture: {source}", path.display())]
    Parse {
        path: std::path::PathBuf,
        source: serde_json::Error,
    },
}

impl FixtureError {
    /// What kind of failure it is: a fixture is the project's own file.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::Internal
    }
}

/// Reads a fixture file.
pub fn load(path: &Path) -> Result<Fixture, FixtureError> {
    let text = std::fs::read_to_string(path).map_err(|source| FixtureError::Read {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| FixtureError::Parse {
        path: path.to_owned(),
        source,
    })
}
