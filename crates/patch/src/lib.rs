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
//! - [`text`]: text operations (`appendSentence`, …) on rich-text fields, expanded into `replace`.
//! - [`surface`]: the surface protocol of DESIGN.md — [`SurfaceUpdate`] (`create`, `patch`, `text`) and
//!   [`Surface`], which numbers the messages of one view by `seq`.
//!
//! The stabilizer (streamed model output → ready, previewed and committed operations), text operations and
//! the policy land here next (see the patch issue).

pub mod apply;
pub mod operation;
pub mod pointer;
pub mod policy;
pub mod surface;
pub mod text;

pub use apply::{ApplyError, applied, apply};
pub use operation::Operation;
pub use policy::{Admission, Policy, PolicyError, Scope};
pub use surface::{PatchState, Surface, SurfaceUpdate};
