//! English grammar for Redline's writing checks, from Automattic's Harper, in a program of its own
//! (`redline-grammar`) that the app and the command line start and talk to.
//!
//! Harper is about 9 MB of program: compiled into both the app and the command line it would be in the
//! installers twice. As a program of its own it is there once, and whatever a hostile text makes it do
//! (loop, panic, run out of memory) stops that program, never the app with the resume open in it: the
//! caller waits a bounded time, and a text that stopped it is not asked about again.
//!
//! # Layout
//! - This file: what crosses between the two programs, one JSON line each way: a [`Request`] (texts) and a
//!   [`Reply`] (what was found in each, as [`Found`]), and the bounds on both.
//! - [`client`]: the caller's side: the program found beside the caller, started on first use, asked
//!   with a time limit, started again after it stopped; what it found in each text kept.
//! - `checker` (feature `checker`, the `redline-grammar` program only): Harper's rules, mapped to
//!   [`Rule`]s, and [`serve`], the program's loop.

#![forbid(unsafe_code)]

use serde::{Deserialize, Serialize};

#[cfg(feature = "checker")]
mod checker;
pub mod client;

#[cfg(feature = "checker")]
pub use checker::serve;
pub use client::{available, check, forget};

/// The program's name (with `.exe` on Windows), installed beside the app and the command line.
pub const PROGRAM: &str = "redline-grammar";

/// The most characters of one text the checker reads: grammar is a sentence's matter, and Harper's time
/// grows with the text.
pub const MAX_TEXT_CHARS: usize = 5_000;

/// The most texts one request carries (a resume has a few hundred fields).
pub const MAX_TEXTS: usize = 256;

/// The longest line either side reads: a request of [`MAX_TEXTS`] texts of [`MAX_TEXT_CHARS`] is under
/// 6 MB as JSON, and a reply is smaller.
pub const MAX_LINE_BYTES: u64 = 16 << 20;

/// The most findings kept of one text, and the most characters of a finding's message and fix.
pub const MAX_FOUND_PER_TEXT: usize = 200;
const MAX_WORDS_CHARS: usize = 500;

/// The kinds of grammar mistake Redline reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Subject and verb, article and noun ("a apple").
    Agreement,
    /// A word written twice ("the the").
    RepeatedWord,
    /// The wrong form of a word ("should of", "have went").
    WordForm,
    /// Spacing and marks of punctuation.
    Punctuation,
    /// Capital letters.
    Capitalisation,
}

/// One mistake found in a text: its rule, its characters `start..end` (Unicode scalar values), a plain
/// sentence and the words to put in their place, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    pub rule: Rule,
    pub start: usize,
    pub end: usize,
    pub message: String,
    pub fix: Option<String>,
}

impl Found {
    /// Whether it can be shown on a text of `length` characters (as [`checked_length`] counts them): its
    /// span within them and not empty, its words within bounds. What the other program says is checked so.
    pub fn fits(&self, length: usize) -> bool {
        self.start < self.end
            && self.end <= length
            && self.message.chars().count() <= MAX_WORDS_CHARS
            && self
                .fix
                .as_ref()
                .is_none_or(|fix| fix.chars().count() <= MAX_WORDS_CHARS)
    }
}

/// The characters of `text` the checker reads: its first [`MAX_TEXT_CHARS`].
pub fn checked_length(text: &str) -> usize {
    text.chars().take(MAX_TEXT_CHARS).count()
}

/// What the caller asks: the texts to check, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub texts: Vec<String>,
}

/// What the checker answers: what it found in each text of the request, in the same order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub found: Vec<Vec<Found>>,
}
