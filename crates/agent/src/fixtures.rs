//! Scripted sessions: what the user says, what the replay server answers (chat replies, tool calls, the
//! patch model's output — written as the final value and chunked by the stream encoder, or as raw text
//! where it must be broken), and what must come of it.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::replay::Reply;

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
}

/// The scripted demo session played by `redline demo` and the app's "try the demo".
pub fn demo() -> Fixture {
    serde_json::from_str(include_str!("../fixtures/demo.json")).expect("the demo script is valid")
}

/// Reads a fixture file.
pub fn load(path: &Path) -> Result<Fixture, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a valid fixture: {e}", path.display()))
}
