//! The engine's one error: a kind, for a front end to pick an action by (the window's button, the command
//! line's exit code), and a sentence for the user. Every operation of [`crate::Engine`] returns it.
//!
//! Its wire form, what the window receives when a command fails, is the same two fields, declared to the UI
//! as `IpcError` (`ui/src/bindings/IpcError.ts`).

use serde::Serialize;
use ts_rs::TS;

pub use redline_agent::ErrorKind;

/// Why an operation failed: its kind and what went wrong, in words, with what to do about it where there
/// is something to do.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "IpcError")]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// What went wrong and, where there is one, what to do about it.
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// A failure of `kind` in these words.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }
}

/// An error of the engine's crates as the engine says it: its own kind (each error type says its kind
/// next to its definition) and its own words.
macro_rules! from_errors {
    ($($error:ty),* $(,)?) => {
        $(impl From<$error> for Error {
            fn from(err: $error) -> Self {
                Error::new(err.kind(), err.to_string())
            }
        })*
    };
}

from_errors!(
    redline_store::StoreError,
    redline_agent::TurnError,
    redline_agent::ConfirmError,
    redline_pdf::PdfError,
    redline_resume::export::UnknownName,
    redline_sync::SyncError,
);
