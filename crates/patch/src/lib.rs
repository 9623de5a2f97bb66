//! Edit operations: how a change to a resume is described, checked and shown.
//!
//! Every change to a document, whether the model proposes it or the user makes it by hand, is a list of
//! RFC 6902 operations. This crate describes those operations and the messages that carry them to a resume
//! view; it knows nothing of storage, models or the desktop shell.
//!
//! # Layout
//! - [`operation`]: [`Operation`], one RFC 6902 operation as it travels to the UI and into history.
//! - [`apply`]: applying a bundle of operations atomically (through the json-patch crate).
//! - [`pointer`]: RFC 6901 JSON Pointers: checked, split, compared by prefix.
//! - [`policy`]: [`Policy`] — protected paths, scope, size limits and the schema, each with its own error.
//! - [`rebase`]: stable array addressing — operations made against an older revision re-targeted to the
//!   same items in the head, or refused as a conflict.
//! - [`text`]: text operations (`appendSentence`, …) on rich-text fields, expanded into `replace`.
//! - [`stabilizer`]: [`Stabilizer`] — the patch model's streamed output in, previews and a finished
//!   [`Bundle`] out, or a rollback with the reason.
//! - [`surface`]: the surface protocol of DESIGN.md — [`SurfaceUpdate`] (`create`, `patch`, `text`) and
//!   [`Surface`], which numbers the messages of one view by `seq`.
//!

#![forbid(unsafe_code)]

pub mod apply;
pub mod operation;
pub mod pointer;
pub mod policy;
pub mod rebase;
pub mod stabilizer;
pub mod surface;
pub mod text;

pub use apply::{ApplyError, applied, apply, to_patch};
pub use operation::{Operation, describe_all, summarize, summarize_in};
pub use policy::{Admission, Hold, Policy, PolicyError, Scope};
pub use rebase::{RebaseError, rebase};
pub use stabilizer::{Bundle, Notice, Output, Stabilizer, StabilizerError, Status};
pub use surface::{PatchState, Surface, SurfaceUpdate};
