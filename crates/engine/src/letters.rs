//! Cover letters: a letter is a document of its own kind, belonging to a resume (its sender), with its own
//! revisions, undo and history like a resume's. A new letter is written for a job posting by the same turn
//! that edits a resume ([`Engine::chat`]): the model streams operations that add paragraphs, the letter's
//! policy lets them write only the letter, and the facts guard holds what is in neither the resume nor the
//! posting. Its exports (text, Markdown, HTML, JSON) read the sender from the resume at its head.

use std::path::Path;

use redline_store::DocumentKind;
use serde_json::Value;

use super::Engine;
use crate::chat::{ChatAsk, ServerChoice, TurnEnd};
use crate::error::{Error, ErrorKind};
use crate::settings::{self, Kept};
use redline_agent::TurnEvent;
use redline_resume::export::Format;

/// What the model is asked when a letter is begun.
pub const FIRST_DRAFT: &str = "Write a cover letter for this job posting: three or four paragraphs, about 300 \
words, naming the company and the role, using only what my resume shows.";

/// A letter just written: its id and head revision, and the turn that wrote it.
#[derive(Debug)]
pub struct LetterWritten {
    /// The new letter's id.
    pub id: i64,
    /// Its head revision (1 when every edit was held for review).
    pub revision: u64,
    /// How the turn that wrote it ended.
    pub end: TurnEnd,
}

impl Engine {
    /// Begins a cover letter for the job `posting` (its text, kept with the letter; never fetched), for
    /// resume `resume` (the current one when `None`), and has the model write its first draft through the
    /// same turn as a resume's edits, every event handed to `emit`. When the turn fails, the letter is
    /// deleted softly (`redline undelete` brings it back) and the turn's error is returned.
    pub async fn new_letter(
        &self,
        posting: &str,
        resume: Option<i64>,
        server: ServerChoice,
        emit: &mut (dyn FnMut(&TurnEvent) + Send),
    ) -> Result<LetterWritten, Error> {
        self.idle()?;
        let posting = checked_posting(posting)?;
        let resume = self.resolve(resume).await?;
        let id = {
            let mut open = self.open()?.lock().await;
            let sender = open.store.document(resume)?;
            if sender.kind != DocumentKind::Resume {
                return Err(redline_store::StoreError::NotAResume(resume).into());
            }
            let skeleton = redline_resume::letter::skeleton("", "", &redline_store::today());
            let title = format!("Letter — {}", headline(posting));
            let id = open.store.create_letter(resume, &title, &skeleton)?;
            settings::set(&mut open.store, Kept::Job(id), posting)?;
            id
        };
        let ask = ChatAsk {
            message: FIRST_DRAFT.to_owned(),
            document: Some(id),
            server,
        };
        let end = self.chat(ask, emit).await;
        let failed = match &end {
            Ok(end) => end.result.as_ref().err().cloned(),
            Err(e) => Some(e.clone()),
        };
        if let Some(error) = failed {
            let mut open = self.open()?.lock().await;
            open.store.delete(id)?;
            return Err(Error::new(
                error.kind,
                format!(
                    "{} The letter was not kept (`redline undelete {id}` brings back its empty frame).",
                    error.message.trim_end()
                ),
            ));
        }
        let end = end?;
        Ok(LetterWritten {
            id,
            revision: end.head,
            end,
        })
    }

    /// Letter `doc` at its head in `format` (text, Markdown, HTML or JSON), its sender read from its resume;
    /// `None` when `doc` is a resume (the resume's own exports apply).
    pub async fn letter_render(&self, doc: i64, format: Format) -> Result<Option<Vec<u8>>, Error> {
        let open = self.open()?.lock().await;
        let record = open.store.document(doc)?;
        if record.kind != DocumentKind::Letter {
            return Ok(None);
        }
        let letter = open.store.head(doc)?.document;
        let resume = match record.resume_id {
            Some(r) => open
                .store
                .head(r)
                .map(|h| h.document)
                .unwrap_or(Value::Null),
            None => Value::Null,
        };
        use redline_resume::letter;
        let text = match format {
            Format::Text => letter::text(&letter, &resume),
            Format::Markdown => letter::markdown(&letter, &resume),
            Format::Html => letter::html(&letter, &resume),
            Format::Json => serde_json::to_string_pretty(&letter)
                .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?,
            other => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "a letter is exported as text, Markdown, HTML or JSON; {} is for resumes for now",
                        other.label()
                    ),
                ));
            }
        };
        Ok(Some(text.into_bytes()))
    }

    /// Letter `doc` rendered in `format` and written to `output` (a file there is left alone unless
    /// `force`): the bytes written; `None` when `doc` is a resume.
    pub async fn export_letter_to(
        &self,
        doc: i64,
        format: Format,
        output: &Path,
        force: bool,
    ) -> Result<Option<u64>, Error> {
        let Some(bytes) = self.letter_render(doc, format).await? else {
            return Ok(None);
        };
        redline_resume::export::write_new(output, &bytes, force).map_err(|e| {
            let kind = match e.kind() {
                std::io::ErrorKind::AlreadyExists => ErrorKind::Refused,
                _ => ErrorKind::ReadOnly,
            };
            Error::new(
                kind,
                format!(
                    "cannot write {}: {e}; nothing was written (pass --force to replace a file)",
                    output.display()
                ),
            )
        })?;
        Ok(Some(bytes.len() as u64))
    }
}

/// The posting trimmed, refused when empty or longer than any posting.
fn checked_posting(posting: &str) -> Result<&str, Error> {
    let posting = posting.trim();
    if posting.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            "the job posting is empty: a letter is written for a posting's text",
        ));
    }
    let limit = redline_resume::coverage::MAX_DESCRIPTION_BYTES;
    if posting.len() > limit {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "that is {} KB, longer than any job posting (at most {} KB): give the posting alone",
                posting.len() / 1024,
                limit / 1024
            ),
        ));
    }
    Ok(posting)
}

/// The posting's first line, cut for a title.
fn headline(posting: &str) -> String {
    let line = posting
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("a job");
    redline_resume::shorten(line, 60)
}
