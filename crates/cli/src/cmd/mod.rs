//! The commands, one module each. Those the window has too drive the engine as the window does
//! (`redline_engine::Engine`: tailoring, the resume's words, held edits, review mode); the others work on
//! the store the engine uses. Each prints words, or JSON with `--json` ([`print`], [`print_json`]).

pub mod ats;
pub mod backup;
pub mod chat;
pub mod delete;
pub mod diff;
pub mod export;
pub mod held;
pub mod history;
pub mod import;
pub mod key;
pub mod list;
pub mod provider;
pub mod rename;
pub mod review;
pub mod show;
pub mod tailor;
pub mod undo;
pub mod variant;
pub mod words;

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::Engine;
use redline_engine::ipc::IpcError;
use redline_store::{Committed, Store};
use serde_json::{Value, json};

use crate::{Exit, fail};

/// The engine on `data_dir`, working on resume `doc` (default: the current one), with a runtime to drive
/// it.
pub(crate) fn engine(
    data_dir: &Path,
    doc: Option<i64>,
) -> Result<(tokio::runtime::Runtime, Engine)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let engine = Engine::start(Some(data_dir.to_owned()));
    if let Some(problem) = engine.problem() {
        return Err(fail(Exit::Failed, problem.to_owned()));
    }
    if let Some(id) = doc {
        runtime.block_on(engine.use_document(id)).map_err(failed)?;
    }
    Ok((runtime, engine))
}

/// An engine's failure as the command line says it: its words, and the exit status of its kind.
pub(crate) fn failed(error: IpcError) -> anyhow::Error {
    fail(Exit::from(error.kind), error.message)
}

/// Prints `value` as JSON when `json`, else the words `words` writes.
pub(crate) fn print(
    out: &mut impl Write,
    json: bool,
    value: &Value,
    words: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut *out, value)?;
        writeln!(out)?;
    } else {
        words(out)?;
    }
    Ok(())
}

/// `text` as it may reach a terminal: a control character from a resume or a model (an escape sequence
/// that would clear the screen or write the clipboard) is shown escaped, never sent.
pub(crate) fn plain(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// A time stored in the database (ms since the epoch), in the user's local time.
pub(crate) fn local(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_default()
}

/// The document a command acts on: the one named, or the one changed last.
pub(crate) fn document(store: &mut Store, doc: Option<i64>) -> Result<i64> {
    Ok(match doc {
        Some(id) => store.document(id)?.id,
        None => store.current_or_import(redline_resume::first_resume)?.id,
    })
}

pub(crate) fn report(out: &mut impl Write, doc: i64, done: &Committed, json: bool) -> Result<()> {
    if json {
        return print_json(
            out,
            &json!({"id": doc, "revision": done.info.number, "summary": done.info.summary}),
        );
    }
    writeln!(
        out,
        "{} — now at revision {}.",
        done.info.summary, done.info.number
    )?;
    Ok(())
}

pub(crate) fn print_json(out: &mut impl Write, value: &Value) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A model's text or a title holding terminal escapes (clear the screen, write the clipboard, a forged
    /// line) reaches the terminal escaped, never as control characters.
    #[test]
    fn control_characters_never_reach_the_terminal() {
        let hostile = "Add \u{1b}]52;c;aGk=\u{7}Rust\u{1b}[2J\r\nredline: done\u{9b}";
        let shown = super::plain(hostile);
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert!(
            shown.contains("Rust") && shown.contains("\\u{1b}"),
            "{shown:?}"
        );
        assert_eq!(super::plain("Développeur — 職歴"), "Développeur — 職歴");
    }
}
