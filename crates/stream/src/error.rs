//! What can go wrong while reading a stream.

/// A reading error: where in the stream, and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} (at byte {offset})")]
pub struct Error {
    /// Byte offset in the whole stream (not in the last chunk) where the problem was found.
    pub offset: usize,
    /// What the problem is.
    pub kind: ErrorKind,
}

/// The kinds of [`Error`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The text is not JSON: no continuation could make it valid.
    #[error("invalid JSON: {0}")]
    Invalid(String),
    /// The stream ended before the JSON value was complete (what has been read is a valid prefix).
    #[error("incomplete JSON: the stream ended {0}")]
    Incomplete(&'static str),
    /// Containers nest deeper than the configured limit.
    #[error("JSON nests deeper than the limit of {0} levels")]
    TooDeep(usize),
    /// The stream is longer than the configured limit.
    #[error("JSON is longer than the limit of {0} bytes")]
    TooLarge(usize),
}

impl Error {
    /// True when the stream was a valid prefix that simply ended too soon.
    pub fn is_incomplete(&self) -> bool {
        matches!(self.kind, ErrorKind::Incomplete(_))
    }
}
