//! What kind of failure an error is, for the UI to pick its action by (the words come from the error).

use redline_store::StoreError;
use serde::Serialize;
use ts_rs::TS;

use crate::{ConfirmError, ProviderError, TurnError};

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

impl ProviderError {
    /// Its [`ErrorKind`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            ProviderError::Unauthorized(_) => ErrorKind::Unauthorized,
            ProviderError::RateLimited(..) | ProviderError::Quota(_) => ErrorKind::RateLimited,
            ProviderError::ModelNotFound(..) => ErrorKind::ModelNotFound,
            ProviderError::Unreachable(_) | ProviderError::Timeout(_) | ProviderError::Lost => {
                ErrorKind::Unreachable
            }
            ProviderError::Server(..) => ErrorKind::Unreachable,
            ProviderError::ContextTooLong
            | ProviderError::BadResponse(_)
            | ProviderError::Refused(_)
            | ProviderError::TooLong(_)
            | ProviderError::Unfinished(_) => ErrorKind::Refused,
            ProviderError::Cancelled => ErrorKind::Stopped,
        }
    }
}

/// The [`ErrorKind`] of a store error.
pub fn store_kind(error: &StoreError) -> ErrorKind {
    match error {
        StoreError::Busy { .. } => ErrorKind::Busy,
        StoreError::ReadOnly { .. } | StoreError::DataDir { .. } => ErrorKind::ReadOnly,
        StoreError::DiskFull { .. } => ErrorKind::DiskFull,
        StoreError::Corrupt { .. } | StoreError::Unreadable { .. } | StoreError::Replay { .. } => {
            ErrorKind::Damaged
        }
        StoreError::TooNew { .. } => ErrorKind::TooNew,
        StoreError::NoDocument(_) | StoreError::NoRevision { .. } | StoreError::Empty => {
            ErrorKind::NotFound
        }
        StoreError::Stale { .. } => ErrorKind::Conflict,
        StoreError::DoesNotApply { .. } | StoreError::TooDeep { .. } => ErrorKind::Refused,
        StoreError::NoChange(_) | StoreError::NothingToUndo(_) | StoreError::NothingToRedo(_) => {
            ErrorKind::Invalid
        }
        StoreError::Backup(_) | StoreError::Sqlite(_) | StoreError::Json(_) => ErrorKind::Internal,
    }
}

impl TurnError {
    /// Its [`ErrorKind`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            TurnError::Provider(e) => e.kind(),
            TurnError::Store(e) => store_kind(e),
            TurnError::Cancelled => ErrorKind::Stopped,
            TurnError::Refused(_) => ErrorKind::Refused,
        }
    }
}

impl ConfirmError {
    /// Its [`ErrorKind`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            ConfirmError::Conflict(_) => ErrorKind::Conflict,
            ConfirmError::Refused(_) => ErrorKind::Refused,
            ConfirmError::NoChange => ErrorKind::Invalid,
            ConfirmError::Store(e) => store_kind(e),
        }
    }
}
