//! Cover letters: a letter is a document of its own kind, belonging to a resume (its sender), with its own
//! revisions, undo and history like a resume's. A new letter is written for a job posting by the same turn
//! that edits a resume ([`Engine::chat`]): the model streams operations that add paragraphs, the letter's
//! policy lets them write only the letter, and the facts guard holds what is in neither the resume nor the
//! posting. Its exports read the sender from the resume at its head; its PDF and Word file are drawn in that
//! resume's design (`export::file_of`).

use redline_store::DocumentKind;
use serde_json::Value;

use super::Engine;
use crate::chat::{ChatAsk, ServerChoice, TurnEnd};
use crate::error::{Error, ErrorKind};
use crate::settings::{self, Kept};
use redline_agent::TurnEvent;

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
            begin_letter(&mut open.store, resume, posting)?
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
                    "{}. The letter was not kept (`redline undelete {id}` brings back its empty frame).",
                    error.message.trim_end().trim_end_matches('.')
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

    /// Document `doc` at its head, with the resume at its head that sends it when `doc` is a letter
    /// (`Some(null)` for a letter whose resume is gone: it is then unsigned).
    pub(crate) async fn with_sender(&self, doc: i64) -> Result<(Value, Option<Value>), Error> {
        let open = self.open()?.lock().await;
        let record = open.store.document(doc)?;
        let document = open.store.head(doc)?.document;
        if record.kind != DocumentKind::Letter {
            return Ok((document, None));
        }
        let sender = record
            .resume_id
            .and_then(|r| open.store.head(r).ok())
            .map_or(Value::Null, |h| h.document);
        Ok((document, Some(sender)))
    }

    /// Writes a cover letter for the job `posting` from the window: the letter is begun for the resume
    /// on screen and opened (every window hears it), then the model writes its first draft in a turn like
    /// any other, streamed to `emit`. An empty `posting` is the posting the resume on screen was tailored
    /// to: a tailored copy and its letter, one after the other. When the turn fails, the letter's frame
    /// stays open, with what went wrong in the chat: the user can ask again.
    pub async fn write_letter(
        &self,
        posting: &str,
        emit: crate::ipc::Emit<'_>,
    ) -> Result<crate::ipc::TurnOutcome, Error> {
        let config = self.configured().await?;
        self.idle()?;
        {
            let mut open = self.open()?.lock().await;
            let resume = open.document_id;
            let tailored_to = match posting.trim().is_empty() {
                true => settings::job_of(&open.store, resume)?,
                false => None,
            };
            let posting = checked_posting(tailored_to.as_deref().unwrap_or(posting))?;
            let id = begin_letter(&mut open.store, resume, posting)?;
            crate::documents::show(&mut open, id, emit)?;
        }
        emit(crate::ipc::TurnMessage::Chat(crate::ipc::ChatEvent::User {
            text: FIRST_DRAFT.to_owned(),
        }));
        self.turn(config, FIRST_DRAFT, None, false, emit).await
    }
}

impl Engine {
    /// From a job `posting`, in one step: a copy of the resume on screen tailored to it, a cover letter
    /// for that copy drafted by the model (streamed to `emit`), and an application to the job, saved,
    /// that pins the copy and the letter. Each stays undoable on its own: the copy and the letter are
    /// documents, the draft a revision of the letter, the application a card on the board. When the
    /// draft fails, the copy and the letter's frame stay and no application is recorded; when the
    /// posting does not say the company or the role, the chat says the application was not recorded.
    pub async fn apply_for(
        &self,
        posting: &str,
        emit: crate::ipc::Emit<'_>,
    ) -> Result<crate::ipc::TurnOutcome, Error> {
        self.configured().await?;
        let copy = self.tailor(posting, emit).await?;
        emit(crate::ipc::TurnMessage::Chat(
            crate::ipc::ChatEvent::Status {
                text: format!(
                    "Made a copy of your resume for {}: {} of the posting's {} terms are in it.",
                    copy.headline,
                    copy.terms.iter().filter(|t| t.found).count(),
                    copy.terms.len()
                ),
            },
        ));
        let outcome = self.write_letter("", emit).await?;
        let job = redline_resume::posting::job(posting);
        let said = match job.company.is_empty() || job.role.is_empty() {
            true => "The posting does not say its company and its role, so no application was recorded: \
                     add it on the Applications board."
                .to_owned(),
            false => {
                let fields = redline_store::NewApplication {
                    company: job.company.clone(),
                    role: job.role.clone(),
                    posting: posting.trim().to_owned(),
                    ..redline_store::NewApplication::default()
                };
                self.add_application_on_screen(fields, true).await?;
                format!(
                    "Recorded your application to {} as {} (saved), with this letter and its resume.",
                    job.company, job.role
                )
            }
        };
        emit(crate::ipc::TurnMessage::Chat(
            crate::ipc::ChatEvent::Status { text: said },
        ));
        Ok(outcome)
    }
}

/// A new letter's frame for resume `resume` and the job `posting` (kept with it), dated today: its id.
/// Refused when `resume` is a letter.
fn begin_letter(
    store: &mut redline_store::Store,
    resume: i64,
    posting: &str,
) -> Result<i64, Error> {
    let sender = store.document(resume)?;
    if sender.kind != DocumentKind::Resume {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a letter is written for a resume: open the resume it is from, then ask for a letter",
        ));
    }
    let job = redline_resume::posting::job(posting);
    let skeleton =
        redline_resume::letter::skeleton(&job.company, &job.role, &redline_store::today());
    let title = format!("Letter — {}", crate::documents::headline(posting));
    let id = store.create_letter(resume, &title, &skeleton)?;
    settings::set(store, Kept::Job(id), posting)?;
    Ok(id)
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

#[cfg(test)]
pub(crate) mod tests {
    use std::path::{Path, PathBuf};

    use redline_resume::export::{Format, Page, Template};

    use super::*;
    use crate::ipc::{ChatEvent, ExportRequest, TurnMessage};

    /// A letter to Hooli with `paragraphs`, written by hand for the resume on screen, and put on screen:
    /// its id.
    pub(crate) async fn letter_on_screen(engine: &Engine, paragraphs: &[&str]) -> i64 {
        let resume = engine.state().await.unwrap().document_id;
        let mut frame = redline_resume::letter::skeleton("Hooli", "Engineer", "2025-03-01");
        frame["paragraphs"] = serde_json::json!(paragraphs);
        let letter = {
            let mut open = engine.open().unwrap().lock().await;
            open.store
                .create_letter(resume, "Letter — Hooli", &frame)
                .unwrap()
        };
        engine.switch(letter, &mut |_| {}).await.unwrap();
        letter
    }

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../agent/fixtures/letters")
    }

    /// An engine on the first-start sample whose provider is a replay server writing the fixture's letter
    /// `turns` times, and the fixture's posting.
    async fn engine_writing_letters(
        dir: &Path,
        turns: usize,
    ) -> (redline_agent::ReplayServer, Engine, String) {
        let f = redline_agent::fixtures::load(&fixtures().join("01-letter-written.json")).unwrap();
        let replies = (0..turns).flat_map(|_| f.replies.clone()).collect();
        let (server, settings) =
            crate::tests::replay_provider(replies, redline_agent::ProviderSettings::default())
                .await;
        let engine = Engine::in_test_folder(dir);
        engine.save_provider(settings).await.unwrap();
        let posting = std::fs::read_to_string(fixtures().join("posting.txt")).unwrap();
        (server, engine, posting)
    }

    /// From the window: the letter is begun for the resume on screen and opened before the model writes,
    /// the ask is in the chat, the draft is committed, and the letter on screen exports as a PDF in the
    /// resume's design. On a letter, or with no posting, another is refused in words.
    #[tokio::test]
    async fn the_window_writes_a_letter_for_the_resume_on_screen_and_opens_it() {
        let dir = tempfile::tempdir().unwrap();
        let (_server, engine, posting) = engine_writing_letters(dir.path(), 1).await;
        let resume = engine.state().await.unwrap().document_id;
        let mut heard = Vec::new();
        let outcome = engine
            .write_letter(&posting, &mut |m| heard.push(m))
            .await
            .unwrap();
        assert_eq!(outcome.revisions, [2], "{outcome:?}");
        assert!(outcome.held.is_empty(), "{outcome:?}");
        let state = engine.state().await.unwrap();
        assert_ne!(state.document_id, resume);
        assert!(state.title.starts_with("Letter — "), "{}", state.title);
        assert!(
            matches!(&heard[0], TurnMessage::Surface(_)),
            "the letter is on screen before the model writes"
        );
        assert!(heard.iter().any(
            |m| matches!(m, TurnMessage::Chat(ChatEvent::User { text }) if text == FIRST_DRAFT)
        ));
        let (letter, sender) = engine.with_sender(state.document_id).await.unwrap();
        assert_eq!(letter["paragraphs"].as_array().unwrap().len(), 4);
        assert_eq!(letter["recipient"]["company"], "Hooli");
        assert_eq!(sender.unwrap()["basics"]["name"], "Richard Hendriks");

        let request = ExportRequest {
            format: Format::Pdf,
            template: Template::Modern,
            page: Page::A4,
        };
        let (pdf, title, extension) = engine.render(&request).await.unwrap();
        assert!(pdf.starts_with(b"%PDF") && extension == "pdf" && title == state.title);
        let resume_pdf = engine.render_of(resume, request).await.unwrap();
        assert_ne!(pdf, resume_pdf, "the letter, not its resume");

        let on_letter = engine
            .write_letter(&posting, &mut |_| {})
            .await
            .unwrap_err();
        assert!(
            on_letter
                .message
                .contains("a letter is written for a resume"),
            "{on_letter:?}"
        );
        engine.switch(resume, &mut |_| {}).await.unwrap();
        let empty = engine.write_letter(" \n", &mut |_| {}).await.unwrap_err();
        assert!(
            empty.message.contains("the job posting is empty"),
            "{empty:?}"
        );
        let huge = "posting ".repeat(redline_resume::coverage::MAX_DESCRIPTION_BYTES / 8 + 1);
        let too_long = engine.write_letter(&huge, &mut |_| {}).await.unwrap_err();
        assert!(
            too_long.message.contains("longer than any job posting"),
            "{too_long:?}"
        );
        assert_eq!(
            engine.state().await.unwrap().document_id,
            resume,
            "nothing was begun"
        );
    }

    /// An engine whose server was learned not to plan by calling tools (a small local model: the one-model
    /// path), answering each request with the next of `answers` as plain text.
    async fn engine_of_a_small_model(
        dir: &Path,
        answers: &[&str],
    ) -> (redline_agent::ReplayServer, Engine) {
        let replies = answers
            .iter()
            .map(|text| redline_agent::Reply {
                say: Some((*text).to_owned()),
                ..redline_agent::Reply::default()
            })
            .collect();
        let (server, settings) =
            crate::tests::replay_provider(replies, redline_agent::ProviderSettings::default())
                .await;
        let engine = Engine::in_test_folder(dir);
        engine.save_provider(settings.clone()).await.unwrap();
        let config = redline_agent::ProviderConfig {
            chat_model: settings.chat_model.clone(),
            patch_model: settings.patch_model.clone(),
            ..redline_agent::ProviderConfig::new(Some(settings.base_url.clone()), None)
        };
        let small = redline_agent::Learned {
            patch_format: "json_object".into(),
            streams_tools: false,
            calls_tools: false,
        };
        let provider = redline_agent::Provider::new(config).with_learned(&small);
        let mut open = engine.open().unwrap().lock().await;
        redline_agent::settings::remember(&mut open.store, &provider, true).unwrap();
        drop(open);
        (server, engine)
    }

    /// The worst a small model can send as prose: one paragraph of 200,000 characters, then, asked again,
    /// nothing but a greeting and a signature. Neither is kept: the letter stays its frame, the user is
    /// told in words, and the frame stays open to ask again.
    #[tokio::test]
    async fn a_runaway_or_empty_prose_answer_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let runaway = format!(
            "I am applying for the role. {}\n",
            "compression ".repeat(16_700)
        );
        let empty = "Dear team,\n\nSincerely,\n[Your Name]\n";
        let (_server, engine) = engine_of_a_small_model(dir.path(), &[&runaway, empty]).await;
        let posting = std::fs::read_to_string(fixtures().join("posting.txt")).unwrap();
        let outcome = engine.write_letter(&posting, &mut |_| {}).await.unwrap();
        assert!(outcome.revisions.is_empty(), "{outcome:?}");
        assert!(outcome.held.is_empty(), "{outcome:?}");
        assert!(outcome.reply.contains("Refused"), "{outcome:?}");
        let letter = engine.state().await.unwrap();
        assert_eq!(letter.revision, 1);
        let (frame, _) = engine.with_sender(letter.document_id).await.unwrap();
        assert_eq!(frame["paragraphs"], serde_json::json!([]));
    }

    /// A small model's letter on the one-model path: its plain text streams in as paragraphs, the job
    /// read from the posting, what is around the body left out, and the paragraph that claims what is in
    /// neither the resume nor the posting held on a card while the rest is kept.
    #[tokio::test]
    async fn a_small_model_writes_prose_and_what_it_invents_waits() {
        let draft = "Dear Hiring Manager,\n\nI am applying for the Senior Compression Engineer position at \
[Company Name], because compression is what I do.\n\nAt Pied Piper I built an algorithm for artists and won \
Techcrunch Disrupt with my team.\n\nAt Pied Piper I also increased revenue by 40 % in a single quarter of \
work.\n\nI would welcome a conversation about the Senior Compression Engineer role at Hooli soon.\n\n\
Sincerely,\n[Your Name]\n";
        let dir = tempfile::tempdir().unwrap();
        let (server, engine) = engine_of_a_small_model(dir.path(), &[draft]).await;
        let posting = std::fs::read_to_string(fixtures().join("posting.txt")).unwrap();
        let outcome = engine.write_letter(&posting, &mut |_| {}).await.unwrap();
        assert_eq!(outcome.revisions, [2], "{outcome:?}");
        let letter_id = engine.state().await.unwrap().document_id;
        let (letter, _) = engine.with_sender(letter_id).await.unwrap();
        assert_eq!(letter["role"], "Senior Compression Engineer");
        assert_eq!(letter["recipient"]["company"], "Hooli");
        let paragraphs = letter["paragraphs"].as_array().unwrap();
        assert_eq!(paragraphs.len(), 3, "{letter:#}");
        assert!(
            paragraphs[0]
                .as_str()
                .unwrap()
                .contains("Engineer position at Hooli,")
        );
        assert!(!letter.to_string().contains("40 %"), "{letter:#}");
        let [held] = &outcome.held[..] else {
            panic!("one card: {outcome:?}")
        };
        assert_eq!(held.ops.len(), 1);
        assert!(held.ops[0].value().unwrap().to_string().contains("40 %"));
        assert!(
            outcome.warnings[0].contains("not in your resume"),
            "{outcome:?}"
        );

        // One request, for plain text: no JSON format, the job and the resume shown as words.
        let requests = server.requests();
        assert_eq!(requests.len(), 1, "{requests:#?}");
        assert!(requests[0].get("response_format").is_none());
        let asked = requests[0]["messages"][1]["content"].as_str().unwrap();
        assert!(asked.contains(
            "Begin with: I am applying for the Senior Compression Engineer position at Hooli."
        ));
        assert!(asked.contains("Richard Hendriks") && !asked.contains("\"basics\""));
    }

    /// From a posting in one step: a tailored copy, its letter drafted, and a saved application that pins
    /// both, said in the chat; each its own thing to undo. Without a server, nothing is begun.
    #[tokio::test]
    async fn a_posting_becomes_a_copy_a_letter_and_an_application_in_one_step() {
        let dir = tempfile::tempdir().unwrap();
        let (_server, engine, posting) = engine_writing_letters(dir.path(), 1).await;
        let master = engine.state().await.unwrap().document_id;
        let mut heard = Vec::new();
        let outcome = engine
            .apply_for(&posting, &mut |m| heard.push(m))
            .await
            .unwrap();
        assert_eq!(outcome.revisions, [2], "{outcome:?}");
        let letter = engine.state().await.unwrap().document_id;
        let (open_letter, sender) = engine.with_sender(letter).await.unwrap();
        assert_eq!(open_letter["paragraphs"].as_array().unwrap().len(), 4);
        let [application] = &engine.applications().await.unwrap()[..] else {
            panic!("one application")
        };
        assert_eq!(application.company, "Hooli");
        assert_eq!(application.role, "Senior Compression Engineer");
        assert_eq!(application.stage, redline_store::Stage::Saved);
        let pinned_letter = application.letter.as_ref().unwrap();
        assert_eq!(
            (pinned_letter.document_id, pinned_letter.revision),
            (letter, 2)
        );
        let copy = application.resume.as_ref().unwrap().document_id;
        assert_ne!(copy, master, "the tailored copy is sent, not the master");
        assert_eq!(sender.unwrap(), engine.with_sender(copy).await.unwrap().0);
        // Lists name a letter by its sender, as they name a resume by its person.
        let rows = engine.documents().await.unwrap();
        let row = rows.iter().find(|r| r.id == letter).unwrap();
        assert_eq!(row.name, "Richard Hendriks");
        let listed = engine.list(false).await.unwrap();
        let listed = listed.iter().find(|l| l.document.id == letter).unwrap();
        assert_eq!(listed.name, "Richard Hendriks");
        assert!(heard.iter().any(|m| matches!(
            m,
            TurnMessage::Chat(ChatEvent::Status { text }) if text.contains("Recorded your application to Hooli")
        )));

        // The window's "PDF again": the letter sent, into a folder, twice, the same bytes as the command
        // line's `apply sent` in the design's defaults, and never over the first file.
        let downloads = tempfile::tempdir().unwrap();
        let sent = crate::applications::Sent::Letter;
        let first = engine
            .export_sent(application.id, sent, Format::Pdf, downloads.path())
            .await
            .unwrap();
        let again = engine
            .export_sent(application.id, sent, Format::Pdf, downloads.path())
            .await
            .unwrap();
        assert_ne!(first.path, again.path);
        let request = ExportRequest {
            format: Format::Pdf,
            template: Template::Classic,
            page: Page::A4,
        };
        let (cli, _) = engine
            .render_sent(application.id, sent, request)
            .await
            .unwrap();
        assert_eq!(std::fs::read(&first.path).unwrap(), cli);
        assert_eq!(std::fs::read(&again.path).unwrap(), cli);

        let bare = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(bare.path());
        let count = engine.documents().await.unwrap().len();
        assert!(engine.apply_for(&posting, &mut |_| {}).await.is_err());
        assert_eq!(
            engine.documents().await.unwrap().len(),
            count,
            "no copy without a server"
        );
    }

    /// A tailored copy and its letter, one after the other: an empty posting on a tailored copy is the
    /// posting it was tailored to, and the letter is the copy's.
    #[tokio::test]
    async fn a_letter_for_a_tailored_copy_takes_its_posting() {
        let dir = tempfile::tempdir().unwrap();
        let (_server, engine, posting) = engine_writing_letters(dir.path(), 1).await;
        let copy = engine
            .tailor(&posting, &mut |_| {})
            .await
            .unwrap()
            .document_id;
        engine.write_letter("", &mut |_| {}).await.unwrap();
        let letter = engine.state().await.unwrap().document_id;
        let open = engine.open().unwrap().lock().await;
        assert_eq!(open.store.document(letter).unwrap().resume_id, Some(copy));
        assert_eq!(
            settings::job_of(&open.store, letter).unwrap().as_deref(),
            Some(posting.trim())
        );
    }

    /// The writing check reads a letter's own parts, its resume's names taken as words, and a fix is a
    /// revision of the letter.
    #[tokio::test]
    async fn a_letter_is_checked_and_fixed_like_a_resume() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let letter = letter_on_screen(
            &engine,
            &["At Pied Piper I was writting compression software."],
        )
        .await;
        let findings = engine.lint_on_screen().await.unwrap();
        let spelled: Vec<(&str, &str)> = findings
            .iter()
            .filter(|f| f.rule == crate::lint::RuleId::Spelling)
            .map(|f| (f.path.as_str(), f.text.as_str()))
            .collect();
        assert_eq!(spelled, [("/paragraphs/0", "writting")], "{findings:#?}");
        let typo = findings
            .into_iter()
            .find(|f| f.rule == crate::lint::RuleId::Spelling)
            .unwrap();
        let base = engine.state().await.unwrap().revision;
        engine.fix_finding(base, typo, &mut |_| {}).await.unwrap();
        let (now, _) = engine.with_sender(letter).await.unwrap();
        let paragraph = now["paragraphs"][0].as_str().unwrap();
        assert!(!paragraph.contains("writting"), "{paragraph}");
        assert_eq!(engine.state().await.unwrap().revision, base + 1);
    }
}
