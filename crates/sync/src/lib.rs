//! Sync: a person's resumes on every device they own, through a folder their cloud drive carries or a
//! git remote they own. No Redline server, no account.
//!
//! Each device writes its changes as files written once and never changed, named by the SHA-256 of their
//! bytes, so no sync engine ever sees two versions of one file; it reads the other devices' files and
//! merges them into the same document on every device. A file in the folder is untrusted input: bounded,
//! checked against the schema and the edit policy, skipped (and read again later) when incomplete.
//!
//! The crate knows nothing of the store: the engine keeps the events a [`Replica`] accepts and turns each
//! merged document into a revision.
//!
//! # Layout
//! - [`event`]: the file format: [`Event`] and [`Body`], their bytes, their hash, their checks.
//! - [`merge`]: replaying a document's events in the agreed order into a [`Merged`] document, with the
//!   edits that clash held as [`Conflict`]s.
//! - [`replica`]: [`Replica`], what one device knows: events accepted, waiting, and recorded here.
//! - [`folder`]: [`Folder`], the sync folder on disk: its marker, its files, atomic writes.
//! - [`sync`](mod@sync): [`sync()`](fn@sync), one pass over a folder, [`sync_changed`], one over the files
//!   a watch saw arrive, and their [`Report`].
//! - [`git`]: [`GitRemote`], the same files committed to a repository and pushed to a remote.
//! - [`error`]: [`SyncError`], what stops a sync, in words.

#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod error;
pub mod event;
pub mod folder;
pub mod git;
pub mod merge;
pub mod replica;
pub mod sync;

pub use error::SyncError;
pub use event::{ApplicationRecord, Body, Event, SentDocument, StageMove, content_hash, new_id};
pub use folder::Folder;
pub use git::{Credentials, GitRemote, start_before_threads};
pub use merge::{Conflict, Known, Merged, Notice};
pub use replica::{Received, Replica};
pub use sync::{FolderState, Report, Skipped, look, read_own, sync, sync_changed};
