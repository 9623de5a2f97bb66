//! How much of a model's answer is read: the text of a reply, a tool call's arguments, and a whole answer
//! that is not streamed. The client (`provider`) and its transport (`wire`) both hold to these.

/// The most text one chat answer may stream, in bytes (a long reply is a few kilobytes).
pub const MAX_REPLY_BYTES: usize = 64 * 1024;
/// The most bytes one tool call's arguments may stream: `create_resume` carries a whole resume, at most
/// [`redline_resume::MAX_DOCUMENT_BYTES`] of JSON, escaped once more inside a string.
pub const MAX_ARGUMENTS_BYTES: usize = 2 * redline_resume::MAX_DOCUMENT_BYTES;
/// The most bytes of one answer that is not streamed: a reply and a tool call's arguments, each within its
/// own limit, as JSON.
pub const MAX_ANSWER_BYTES: usize = MAX_REPLY_BYTES + 2 * MAX_ARGUMENTS_BYTES;
