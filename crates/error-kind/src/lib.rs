//! What kind of failure an error is, for the window to pick its action by and the command line its exit
//! status (the words come from the error itself). Every error type of Redline's crates says its own kind,
//! next to its definition (`StoreError::kind`, `StabilizerError::kind`, `ProviderError::kind`, …): this
//! crate is the one word list they share, below all of them.

#![forbid(unsafe_code)]

use serde::Serialize;
use ts_rs::TS;

/// What kind of failure: one name in Rust, in TypeScript (generated) and over IPC. The UI picks the
/// action from the kind ("Open settings", "Replace key", "Retry"), the words from the error's sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No model or key is set up.
    NotConfigured,
    /// The key was refused.
    Unauthorized,
    /// The server cannot be reached, or it went quiet.
    Unreachable,
    /// The server does not know the model.
    ModelNotFound,
    /// The server asks to wait (or the account has no quota).
    RateLimited,
    /// The model's answer broke a rule, or was malformed, or the server refused the request.
    Refused,
    /// The resume changed under an edit.
    Conflict,
    /// Another program holds the database.
    Busy,
    /// The database (or one of its revisions) is damaged.
    Damaged,
    /// The database or its folder cannot be written.
    ReadOnly,
    /// The disk is full.
    DiskFull,
    /// The database was written by a newer Redline.
    TooNew,
    /// No such document or revision.
    NotFound,
    /// The user stopped it.
    Stopped,
    /// The request itself was wrong (an unknown format, say).
    Invalid,
    /// Anything else.
    Internal,
}
