//! The AI turn: from a chat message to streamed, committed edits — headless, so that the CLI and the app
//! share it.
//!
//! # Layout
//! - [`provider`]: any OpenAI-compatible endpoint, read leniently, errors in the user's words.
//! - [`turn`]: the conversation agent and its tools; `patch_resume` streams the patch model's operations
//!   through `redline-stream` and `redline-patch` into `redline-store`.
//! - [`local_plan`]: the one-model path's planner, on this computer: which part of the resume an ask
//!   is about, from its words.
//! - [`places`]: what one patch call may change — every place inside its targets — known before the
//!   model writes a byte.
//! - [`eval`]: a suite of asks against a model, each result checked with no model.
//! - [`held`]: edits the model made outside what was asked, held until the user confirms them.
//! - [`keychain`]: API keys in the OS keychain, one entry per provider and host ([`Keychain`]).
//! - [`settings`]: the provider settings kept in the store, and how the environment overrides them.
//! - [`kind`]: [`ErrorKind`], what kind of failure an error is, for the UI to act on.
//! - [`facts`]: the guard that flags numbers, names and dates the model brought in from nowhere.
//! - [`letter`]: what differs when the turn writes a cover letter: its rules, its places, and the facts
//!   guard that holds what is not in the resume or the posting.
//! - [`prose`]: a letter a small model writes as plain text, turned into operations as it streams.
//! - [`probe`]: the connection test — the server, its models, and how the patch model gives JSON.
//! - [`replay`]: an OpenAI-compatible streaming server on 127.0.0.1 that answers from a script, for tests
//!   and the demo.
//! - [`wire`]: the model client's transport, each body bounded as its bytes arrive.
//! - [`limits`]: how much of a model's answer is read.
//! - [`fixtures`]: scripted sessions (`fixtures/*.json`), including the demo.

#![forbid(unsafe_code)]

pub mod eval;
pub mod facts;
pub mod fixtures;
pub mod held;
pub mod keychain;
pub mod letter;
pub mod limits;
pub mod local_plan;
pub mod places;
pub mod probe;
pub mod prose;
pub mod provider;
pub mod replay;
pub mod settings;
pub mod turn;
pub mod wire;

/// Makes rustls with ring the TLS of every HTTP client in the process (the model client's, the updater's):
/// one crypto provider, installed once; a later call does nothing. Called before any client is built.
pub fn install_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

pub use held::{ConfirmError, Held, commit_ops, confirm};
pub use keychain::{KeyAccount, Keychain, KeychainError, MemoryKeychain, OsKeychain};
pub use provider::{
    ChunkReader, Delta, Learned, Provider, ProviderConfig, ProviderError, Unusable,
};
pub use redline_error_kind::ErrorKind;
pub use replay::{Pace, ReplayServer, Reply};
pub use settings::{BadSettings, Preset, ProviderSettings, SetupError, UnknownPreset};
pub use turn::{Turn, TurnError, TurnEvent, TurnOutcome};
