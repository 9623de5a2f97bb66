//! The commands, one module each. Each parses its arguments, calls one operation of the engine
//! (`redline_engine::Engine`, the one the window drives) on the resume it names, and prints words, or
//! JSON with `--json` ([`print`], [`print_json`]).

pub mod apply;
pub mod ats;
pub mod backup;
pub mod chat;
pub mod delete;
pub mod diff;
pub mod eval;
pub mod export;
pub mod fit;
pub mod held;
pub mod history;
pub mod import;
pub mod key;
pub mod letter;
pub mod lint;
pub mod list;
pub mod photo;
pub mod provider;
pub mod rename;
pub mod review;
pub mod show;
pub mod sync;
pub mod tailor;
pub mod theme;
pub mod undo;
pub mod variant;
pub mod words;

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::Error;
use redline_engine::history::Changed;
use redline_engine::{Engine, unseen};
use serde_json::{Value, json};

use crate::fail;
use redline_engine::ErrorKind;

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
        return Err(fail(ErrorKind::Internal, problem.to_owned()));
    }
    if let Some(id) = doc {
        runtime.block_on(engine.use_document(id)).map_err(failed)?;
    }
    Ok((runtime, engine))
}

/// Starts the engine on resume `doc` (default: the current one) and carries out `op`, a command's one
/// change, at the resume's head revision: returns that revision and what `op` returned.
pub(crate) fn at_head<T>(
    data_dir: &Path,
    doc: Option<i64>,
    op: impl AsyncFnOnce(&Engine, u64) -> Result<T, Error>,
) -> Result<(u64, T)> {
    let (runtime, engine) = engine(data_dir, doc)?;
    runtime
        .block_on(async {
            let head = engine.state().await?.revision;
            Ok((head, op(&engine, head).await?))
        })
        .map_err(failed)
}

/// Starts the engine on `data_dir` and carries out `op`, a command's one engine operation.
pub(crate) fn on_engine<T>(
    data_dir: &Path,
    op: impl AsyncFnOnce(&Engine) -> Result<T, Error>,
) -> Result<T> {
    let (runtime, engine) = bare(data_dir)?;
    runtime.block_on(op(&engine)).map_err(failed)
}

/// Starts the engine on `data_dir`, finds the resume `doc` names (by default the current one) and carries
/// out `op` on it: a command's one engine operation, with the resume's id.
pub(crate) fn on_document<T>(
    data_dir: &Path,
    doc: Option<i64>,
    op: impl AsyncFnOnce(&Engine, i64) -> Result<T, Error>,
) -> Result<T> {
    let (runtime, engine) = bare(data_dir)?;
    in_document(&runtime, &engine, doc, op)
}

/// [`on_document`] on an engine the command already started.
pub(crate) fn in_document<T>(
    runtime: &tokio::runtime::Runtime,
    engine: &Engine,
    doc: Option<i64>,
    op: impl AsyncFnOnce(&Engine, i64) -> Result<T, Error>,
) -> Result<T> {
    runtime
        .block_on(async {
            let id = engine.resolve(doc).await?;
            op(engine, id).await
        })
        .map_err(failed)
}

/// The engine on `data_dir` as a command starts it ([`Engine::start_bare`]), with a runtime to drive it.
pub(crate) fn bare(data_dir: &Path) -> Result<(tokio::runtime::Runtime, Engine)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // A store that did not open says why, with its kind, on the command's first call.
    Ok((runtime, Engine::start_bare(data_dir.to_owned())))
}

/// An engine's failure as the command line says it: its words, and the exit status of its kind.
pub(crate) fn failed(error: Error) -> anyhow::Error {
    anyhow::Error::new(error)
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

/// `text` on one line as it may reach a terminal: a control character from a resume or a model (an
/// escape sequence that would clear the screen or write the clipboard, a line break that would forge a line
/// of Redline's own), a direction override or an invisible character is shown escaped, never sent.
pub(crate) fn plain(text: &str) -> String {
    escaped(text, |_| false)
}

/// `text` with every character [`redline_engine::unseen::is_unseen`] names, and every other control
/// character but those `keep` allows, shown escaped (`\u{1b}`, `\u{202e}`).
fn escaped(text: &str, keep: impl Fn(char) -> bool) -> String {
    text.chars()
        .map(|c| match c {
            c if (c.is_control() || unseen::is_unseen(c)) && !keep(c) => {
                c.escape_default().to_string()
            }
            c => c.to_string(),
        })
        .collect()
}

/// `text` as a terminal may show it over several lines: line breaks and tabs kept, every other control
/// character, direction override and invisible character escaped. What the command line writes to a
/// terminal goes through this ([`Terminal`], and its errors), so no command can pass data's escape
/// sequences or reordered text on.
pub fn for_terminal(text: &str) -> String {
    escaped(text, |c| c == '\n' || c == '\t')
}

/// Standard output as the commands write to it: text with its control characters escaped
/// ([`for_terminal`]); bytes that are not UTF-8 (a PDF sent to `-`) pass as they are, for a pipe.
pub struct Terminal<W: Write>(pub W);

impl<W: Write> Write for Terminal<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) if text.chars().any(unseen::is_unseen) => {
                self.0.write_all(for_terminal(text).as_bytes())?
            }
            _ => self.0.write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
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

pub(crate) fn report(out: &mut impl Write, done: &Changed, json: bool) -> Result<()> {
    if json {
        return print_json(
            out,
            &json!({"id": done.document_id, "revision": done.revision, "summary": done.summary}),
        );
    }
    writeln!(out, "{} — now at revision {}.", done.summary, done.revision)?;
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
        // A title that a direction override would show reversed, and a word split unseen.
        assert_eq!(
            super::plain("Resume \u{202e}fdp.exe a\u{200b}b"),
            "Resume \\u{202e}fdp.exe a\\u{200b}b"
        );
    }

    /// Whatever a command writes, the terminal gets its lines and tabs and no other control character;
    /// bytes that are not text (a PDF to `-`) pass unchanged.
    #[test]
    fn the_terminal_gets_lines_but_no_escape_sequences() {
        use std::io::Write as _;
        let mut terminal = super::Terminal(Vec::new());
        write!(terminal, "you: hi\n\tRust\u{1b}[2J\u{9b}31m\u{7}\r").unwrap();
        let shown = String::from_utf8(terminal.0).unwrap();
        assert_eq!(shown, "you: hi\n\tRust\\u{1b}[2J\\u{9b}31m\\u{7}\\r");
        let mut terminal = super::Terminal(Vec::new());
        let pdf = b"%PDF-1.7\n\x1b\xff\xfe";
        terminal.write_all(pdf).unwrap();
        assert_eq!(terminal.0, pdf);
    }
}
