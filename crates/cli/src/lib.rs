//! `redline`: the headless command line of Redline.
//!
//! It runs the same engine on the same database as the desktop app, so what it shows is what the app
//! shows, and it works on a machine with no display. `--data-dir DIR` (or `REDLINE_DATA_DIR`) points it at
//! another data folder, which is how tests and scripts keep away from a user's real data.
//!
//! # Layout
//! - [`Cli`] and [`Command`]: the arguments, parsed by clap.
//! - [`run`]: opens the store and carries out one command; each command prints a plain result on stdout
//!   (JSON where asked for) and any failure as one plain sentence on stderr, with a non-zero exit.
//! - [`Exit`]: what the exit status says: 0 done, 1 failed, 2 a usage error (clap's), 3 not found,
//!   4 refused (a file that is not a resume, a change that does not apply, an answer the checks refused),
//!   5 not configured (no model server or key that can work), 130 stopped by Ctrl-C.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use redline_agent::{ErrorKind, Keychain, OsKeychain, Preset, ProviderSettings};
use redline_store::{Committed, DATA_DIR_ENV, Store};

mod chat;
use serde_json::{Value, json};

/// Redline: edit JSON Resume documents with AI, locally.
#[derive(Debug, Parser)]
#[command(name = "redline", version, about, long_about = None)]
struct Cli {
    /// The data folder (default: the desktop app's own, in the OS app-data folder).
    #[arg(long, global = true, env = DATA_DIR_ENV, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the resumes (the current one is marked with *).
    List {
        /// Print a JSON array of documents (id, title, name, …).
        #[arg(long)]
        json: bool,
        /// List the deleted ones instead (they can be brought back with `undelete`).
        #[arg(long)]
        deleted: bool,
    },
    /// Import a JSON Resume file as a new document. An invalid file is refused with each problem named by
    /// JSON Pointer, and nothing changes.
    Import {
        /// The JSON Resume file; `-` reads it from standard input.
        file: PathBuf,
        /// The title (default: the name and label in the resume).
        #[arg(long)]
        title: Option<String>,
        /// Print the new document's id, title and revision as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Print a resume as JSON (by default the current one, at its head revision).
    Show {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// A revision number; default: the head.
        #[arg(long, value_name = "N")]
        revision: Option<u64>,
    },
    /// The revisions of a resume, oldest first (times in local time).
    History {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print a JSON array of revisions.
        #[arg(long)]
        json: bool,
    },
    /// Take back the latest change (as a new revision: nothing is lost).
    Undo {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the document, the new revision and its summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Apply again the change undone last.
    Redo {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the document, the new revision and its summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The RFC 6902 patch that turns revision A into revision B.
    Diff {
        /// The revision to start from.
        a: u64,
        /// The revision to arrive at.
        b: u64,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
    },
    /// Make the resume read as it did at revision N (as a new revision).
    Restore {
        /// The revision to bring back (see `redline history`).
        revision: u64,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the document, the new revision and its summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Give a resume a new title.
    Rename {
        /// The new title.
        title: String,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the document and its new title as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Delete a resume (it can be brought back with `undelete`).
    Delete {
        /// The document's id (see `redline list`).
        id: i64,
        /// Print the document's id as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Bring a deleted resume back.
    Undelete {
        /// The document's id (see `redline list --deleted`).
        id: i64,
        /// Print the document's id as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// A new resume made from another at one of its revisions, with its own history.
    Variant {
        /// The new resume's title.
        title: String,
        /// The document to start from (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// The revision to start from; default: the head.
        #[arg(long, value_name = "N")]
        revision: Option<u64>,
        /// Print the new document's id, where it came from and its revision as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Ask the model to change a resume: the reply and the edits stream as they come, and the edits are
    /// committed as a revision. The key comes from OPENAI_API_KEY (local servers need none). Ctrl-C stops
    /// and rolls back whatever was being previewed.
    Chat {
        /// What to ask.
        message: String,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// An OpenAI-compatible base URL (default: OpenAI; e.g. http://127.0.0.1:11434/v1 for Ollama).
        #[arg(long, value_name = "URL", env = "REDLINE_BASE_URL")]
        base_url: Option<String>,
        /// The chat model.
        #[arg(long, value_name = "M", env = "REDLINE_MODEL")]
        model: Option<String>,
        /// The patch model (asked at a low temperature).
        #[arg(long, value_name = "M", env = "REDLINE_PATCH_MODEL")]
        patch_model: Option<String>,
        /// One JSON object per line (chat deltas, surface messages), ending with the committed revision.
        #[arg(long)]
        json: bool,
        /// Start a new resume from the conversation (the model creates it) instead of editing one.
        #[arg(long, conflicts_with = "doc")]
        new: bool,
    },
    /// Play a scripted editing session (no model, no key) on a fresh copy of the sample resume.
    Demo {
        /// One JSON object per line, as `chat --json`.
        #[arg(long)]
        json: bool,
    },
    /// Export a resume: PDF (made in-process by Typst, fonts embedded), HTML (one self-contained file),
    /// JSON Resume (lossless), Markdown or plain text.
    Export {
        /// The file format.
        #[arg(long, value_name = "FORMAT")]
        format: ExportFormat,
        /// The look (HTML and PDF).
        #[arg(long, value_name = "T", default_value = "classic")]
        template: ExportTemplate,
        /// The paper size (HTML and PDF).
        #[arg(long, value_name = "SIZE", default_value = "a4")]
        page: ExportPage,
        /// Where to write it (a file that exists is left alone unless --force); `-` writes to standard output.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
        /// Print where it was written and its size as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// How an applicant tracking system reads a resume: its PDF is made and read back in-process, and the
    /// text read is shown per section, with any field missing or out of order. Exits 0 when every field
    /// reads back in order, 1 otherwise.
    Ats {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// The look of the PDF that is read.
        #[arg(long, value_name = "T", default_value = "classic")]
        template: ExportTemplate,
        /// Its paper size.
        #[arg(long, value_name = "SIZE", default_value = "a4")]
        page: ExportPage,
        /// Read this PDF (one exported earlier, say) instead of making one: is it still the resume?
        #[arg(long, value_name = "FILE", conflicts_with_all = ["template", "page"])]
        pdf: Option<PathBuf>,
        /// Print one JSON object: the text read per section (`sections`), `missing` and `out_of_order`.
        #[arg(long)]
        json: bool,
    },
    /// The model server: show, change or test it (saved for the app and the CLI alike).
    Provider {
        #[command(subcommand)]
        action: ProviderAction,
    },
    /// The API key of the saved provider, kept in the OS keychain (never in the database).
    Key {
        #[command(subcommand)]
        action: KeyAction,
    },
    /// Write a backup of the database now (into `backups/` in the data folder).
    Backup {
        /// Print the backup's path as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Set a damaged database aside and open its latest backup instead. A healthy database is left alone
    /// unless --force.
    Recover {
        /// Replace the database with its latest backup even though it is healthy.
        #[arg(long)]
        force: bool,
    },
    /// Print the completion script for a shell (the packages install them; e.g.
    /// `redline completions bash > ~/.local/share/bash-completion/completions/redline`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), as the packages install it.
    #[command(hide = true)]
    Man,
    /// Print a PDF's text as a JSON array of pages: `ats --pdf` runs this in a child process whose memory
    /// and time are bounded ([`pdf_text_bounded`]).
    #[command(hide = true)]
    ReadPdfText { path: PathBuf },
}

/// `--format`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExportFormat {
    /// PDF, made in-process by Typst, fonts embedded.
    Pdf,
    /// One self-contained HTML file.
    Html,
    /// JSON Resume, lossless.
    Json,
    /// Markdown.
    #[value(alias = "markdown")]
    Md,
    /// Plain text.
    #[value(alias = "text")]
    Txt,
}

/// `--template`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExportTemplate {
    /// Serif, one column, centred header.
    Classic,
    /// Sans-serif, one column, an accent colour and a header band.
    Modern,
}

/// `--page`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExportPage {
    /// 210 × 297 mm.
    A4,
    /// 8.5 × 11 in.
    #[value(alias = "us-letter")]
    Letter,
}

#[derive(Debug, Subcommand)]
enum ProviderAction {
    /// The preset, base URL, models, and whether a key is set (never the key).
    Show {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Change the saved provider; what is not given stays as it is.
    Set {
        /// openai, ollama, lmstudio, llamacpp or custom (a preset brings its usual base URL).
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
        /// An OpenAI-compatible base URL.
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// The chat model.
        #[arg(long, value_name = "M")]
        model: Option<String>,
        /// The patch model.
        #[arg(long, value_name = "M")]
        patch_model: Option<String>,
        /// How long to wait for a model's first token, in seconds (default 60; a slow local model on a
        /// long resume may need more).
        #[arg(long, value_name = "SECONDS")]
        first_token_timeout: Option<u64>,
        /// How long a model's answer may go quiet once it has started, in seconds (default 30).
        #[arg(long, value_name = "SECONDS")]
        idle_timeout: Option<u64>,
    },
    /// Test the connection: the server's model list, one tiny request to each model, and how the patch
    /// model gives JSON. Exits 0 only when both models answer.
    Test {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum KeyAction {
    /// Read the key from standard input (without echo on a terminal) and keep it in the keychain for the
    /// saved provider and its host.
    Set,
    /// Remove the saved provider's key from the keychain.
    Clear,
}

/// Runs the command line on `args` (the first is the program's name): `redline-app --cli …`, which the
/// `redline` launcher starts (`src-tauri/main.rs`, `src-tauri/cli.rs`).
pub fn main_from<I, T>(args: I) -> std::process::ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::parse_from(args);
    // Ctrl-C exits 130 (a database write under way is rolled back by SQLite). A turn handles it itself:
    // it stops the model and rolls back its preview first.
    if !matches!(cli.command, Command::Chat { .. } | Command::Demo { .. }) {
        exit_on_ctrl_c();
    }
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("redline: {err:#}");
            std::process::ExitCode::from(Exit::of(&err) as u8)
        }
    }
}

fn exit_on_ctrl_c() {
    std::thread::spawn(|| {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        if runtime.block_on(tokio::signal::ctrl_c()).is_ok() {
            std::process::exit(Exit::Interrupted as i32);
        }
    });
}

/// What the exit status says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Anything else that failed.
    Failed = 1,
    /// No such document, revision or file.
    NotFound = 3,
    /// Refused: a file that is not a resume, a change that does not apply, an answer the checks refused.
    Refused = 4,
    /// No model server or key that can work.
    NotConfigured = 5,
    /// Stopped by Ctrl-C.
    Interrupted = 130,
}

impl Exit {
    /// The exit status a child process of ours ended with, as an [`Exit`].
    fn from_code(code: i32) -> Exit {
        match code {
            3 => Exit::NotFound,
            4 => Exit::Refused,
            5 => Exit::NotConfigured,
            130 => Exit::Interrupted,
            _ => Exit::Failed,
        }
    }

    /// The exit status for `error`, from the first error in its chain whose kind is known.
    pub fn of(error: &anyhow::Error) -> Exit {
        use redline_agent::{SetupError, TurnError};
        use redline_resume::ReadError;
        for cause in error.chain() {
            if let Some(failure) = cause.downcast_ref::<Failure>() {
                return failure.exit;
            }
            let kind = if let Some(e) = cause.downcast_ref::<redline_store::StoreError>() {
                redline_agent::store_kind(e)
            } else if let Some(e) = cause.downcast_ref::<TurnError>() {
                e.kind()
            } else if let Some(e) = cause.downcast_ref::<SetupError>() {
                match e {
                    SetupError::Store(e) => redline_agent::store_kind(e),
                    SetupError::Keychain(_) | SetupError::Unusable(_) => ErrorKind::NotConfigured,
                }
            } else if let Some(e) = cause.downcast_ref::<ReadError>() {
                match e {
                    ReadError::Unreadable(_, io) if io.kind() == std::io::ErrorKind::NotFound => {
                        ErrorKind::NotFound
                    }
                    ReadError::Unreadable(..) => ErrorKind::Internal,
                    _ => ErrorKind::Refused,
                }
            } else {
                continue;
            };
            return Exit::from(kind);
        }
        Exit::Failed
    }
}

impl From<ErrorKind> for Exit {
    fn from(kind: ErrorKind) -> Exit {
        match kind {
            ErrorKind::NotConfigured | ErrorKind::Unauthorized => Exit::NotConfigured,
            ErrorKind::NotFound => Exit::NotFound,
            ErrorKind::Refused | ErrorKind::Conflict | ErrorKind::Invalid => Exit::Refused,
            ErrorKind::Stopped => Exit::Interrupted,
            _ => Exit::Failed,
        }
    }
}

/// A failure worded here, with its exit status.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub exit: Exit,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// An error saying `message`, exiting with `exit`.
pub fn fail(exit: Exit, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Failure {
        message: message.into(),
        exit,
    })
}

/// A time stored in the database (ms since the epoch), in the user's local time.
fn local(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_default()
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "redline",
                &mut std::io::stdout(),
            );
            return Ok(());
        }
        Command::Man => {
            clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout())?;
            return Ok(());
        }
        Command::ReadPdfText { path } => {
            let bytes = read_limited(&path, MAX_PDF_BYTES)?;
            let pages = redline_pdf::ats::extract(&bytes)
                .map_err(|e| fail(Exit::Refused, format!("{}: {e}", path.display())))?;
            serde_json::to_writer(std::io::stdout().lock(), &pages)?;
            return Ok(());
        }
        _ => {}
    }
    let data_dir = redline_store::resolve_data_dir(cli.data_dir).ok_or_else(|| {
        fail(
            Exit::NotConfigured,
            "cannot tell where your data folder is; pass --data-dir DIR or set REDLINE_DATA_DIR",
        )
    })?;
    if let Command::Recover { force } = cli.command {
        return recover(&data_dir, force);
    }
    let mut store = Store::open(&data_dir)?;
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::List { json, deleted } => {
            let documents = if deleted {
                store.list_deleted()?
            } else {
                store.current_or_import(redline_resume::first_resume)?;
                store.list()?
            };
            let mut rows = Vec::new();
            for d in &documents {
                // One document that cannot be read says so in its row; the others list as usual.
                let (name, problem) = match d.deleted_at {
                    None => match store.head(d.id) {
                        Ok(head) => (
                            head.document["basics"]["name"]
                                .as_str()
                                .unwrap_or("")
                                .to_owned(),
                            None,
                        ),
                        Err(e) => (String::new(), Some(e.to_string())),
                    },
                    Some(_) => (String::new(), None),
                };
                rows.push((d, name, problem));
            }
            if json {
                let array: Vec<Value> = rows
                    .iter()
                    .map(|(d, name, problem)| {
                        let mut v = serde_json::to_value(d).unwrap_or_default();
                        v["name"] = json!(name);
                        if let Some(problem) = problem {
                            v["problem"] = json!(problem);
                        }
                        v
                    })
                    .collect();
                serde_json::to_writer_pretty(&mut out, &array)?;
                writeln!(out)?;
            } else {
                for (i, (d, name, problem)) in rows.iter().enumerate() {
                    let mark = if i == 0 && !deleted { "*" } else { " " };
                    writeln!(
                        out,
                        "{mark} {:>4}  {}  —  {}  (revision {}, {})",
                        d.id,
                        d.title,
                        if name.is_empty() { "no name" } else { name },
                        d.head_revision,
                        local(d.deleted_at.unwrap_or(d.updated_at))
                    )?;
                    if let Some(problem) = problem {
                        writeln!(out, "        cannot be opened: {problem}")?;
                    }
                }
            }
        }
        Command::Import { file, title, json } => {
            let document = if file.as_os_str() == "-" {
                redline_resume::read_from("standard input".into(), std::io::stdin().lock())?
            } else {
                read_resume(&file)?
            };
            let title = title.unwrap_or_else(|| redline_resume::title_of(&document));
            let id = store.import(&title, &document)?;
            if json {
                let revision = store.document(id)?.head_revision;
                print_json(
                    &mut out,
                    &json!({"id": id, "title": title, "revision": revision}),
                )?;
            } else {
                writeln!(out, "Imported “{title}” as document {id}.")?;
            }
        }
        Command::Show { doc, revision } => {
            let doc = document(&mut store, doc)?;
            let revision = match revision {
                Some(n) => store.checkout(doc, n)?,
                None => store.head(doc)?,
            };
            serde_json::to_writer_pretty(&mut out, &revision.document)?;
            writeln!(out)?;
        }
        Command::History { doc, json } => {
            let doc = document(&mut store, doc)?;
            let history = store.history(doc)?;
            if json {
                serde_json::to_writer_pretty(&mut out, &history)?;
                writeln!(out)?;
            } else {
                let head = store.document(doc)?.head_revision;
                for r in &history {
                    writeln!(
                        out,
                        "{} {:>5}  {}  {:<7}  {}",
                        if r.number == head { "*" } else { " " },
                        r.number,
                        local(r.created_at),
                        r.source.as_str(),
                        r.summary
                    )?;
                }
            }
        }
        Command::Undo { doc, json } => {
            let doc = document(&mut store, doc)?;
            let done = store.undo(doc)?;
            report(&mut out, doc, &done, json)?;
        }
        Command::Redo { doc, json } => {
            let doc = document(&mut store, doc)?;
            let done = store.redo(doc)?;
            report(&mut out, doc, &done, json)?;
        }
        Command::Diff { a, b, doc } => {
            let doc = document(&mut store, doc)?;
            serde_json::to_writer_pretty(&mut out, &store.diff(doc, a, b)?)?;
            writeln!(out)?;
        }
        Command::Restore {
            revision,
            doc,
            json,
        } => {
            let doc = document(&mut store, doc)?;
            let done = store.restore(doc, revision)?;
            report(&mut out, doc, &done, json)?;
        }
        Command::Rename { title, doc, json } => {
            let doc = document(&mut store, doc)?;
            store.rename(doc, &title)?;
            if json {
                print_json(&mut out, &json!({"id": doc, "title": title}))?;
            } else {
                writeln!(out, "Document {doc} is now “{title}”.")?;
            }
        }
        Command::Delete { id, json } => {
            store.delete(id)?;
            if json {
                print_json(&mut out, &json!({"id": id, "deleted": true}))?;
            } else {
                writeln!(
                    out,
                    "Deleted document {id}; `redline undelete {id}` brings it back."
                )?;
            }
        }
        Command::Undelete { id, json } => {
            store.undelete(id)?;
            if json {
                print_json(&mut out, &json!({"id": id, "deleted": false}))?;
            } else {
                writeln!(out, "Document {id} is back.")?;
            }
        }
        Command::Variant {
            title,
            doc,
            revision,
            json,
        } => {
            let doc = document(&mut store, doc)?;
            let revision = match revision {
                Some(n) => n,
                None => store.document(doc)?.head_revision,
            };
            let id = store.create_variant(doc, revision, &title)?;
            if json {
                let head = store.document(id)?.head_revision;
                print_json(
                    &mut out,
                    &json!({"id": id, "title": title, "from": doc, "fromRevision": revision, "revision": head}),
                )?;
            } else {
                writeln!(
                    out,
                    "Created “{title}” (document {id}) from document {doc} at revision {revision}."
                )?;
            }
        }
        Command::Export {
            format,
            template,
            page,
            output,
            doc,
            force,
            json,
        } => {
            let (format, template, page) = (format.into(), template.into(), page.into());
            let to_stdout = output.as_os_str() == "-";
            if !to_stdout && output.exists() && !force {
                return Err(fail(
                    Exit::Refused,
                    format!(
                        "{} already exists; nothing was written. Choose another name, or pass --force to replace it",
                        output.display()
                    ),
                ));
            }
            let doc = document(&mut store, doc)?;
            let resume = store.head(doc)?.document;
            let bytes = redline_pdf::render(&resume, format, template, page)?;
            if to_stdout {
                out.write_all(&bytes)?;
                out.flush()?;
                return Ok(());
            }
            redline_resume::export::write_new(&output, &bytes, force).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    fail(
                        Exit::Refused,
                        format!(
                            "{} appeared while the export was being made; it was left alone and nothing was written",
                            output.display()
                        ),
                    )
                } else {
                    anyhow::anyhow!("cannot write {}: {e}", output.display())
                }
            })?;
            if json {
                print_json(
                    &mut out,
                    &json!({"id": doc, "path": output.display().to_string(), "bytes": bytes.len()}),
                )?;
            } else {
                writeln!(out, "Exported to {}", output.display())?;
            }
        }
        Command::Ats {
            doc,
            template,
            page,
            pdf,
            json,
        } => {
            let doc = document(&mut store, doc)?;
            let resume = store.head(doc)?.document;
            let report = match pdf {
                Some(path) => redline_pdf::ats::compare(&pdf_text_bounded(&path)?, &resume),
                None => redline_pdf::ats::check(&resume, template.into(), page.into())?,
            };
            if json {
                let mut value = serde_json::to_value(&report)?;
                value["id"] = json!(doc);
                print_json(&mut out, &value)?;
            } else {
                ats_report(&mut out, &report)?;
            }
            if !report.clean() {
                return Err(fail(
                    Exit::Failed,
                    format!(
                        "an applicant tracking system would not read this resume as written: {} missing, {} out of order",
                        report.missing.len(),
                        report.out_of_order.len()
                    ),
                ));
            }
        }
        Command::Provider { action } => provider(&mut store, action, &mut out)?,
        Command::Key { action } => key(&store, action, &mut out)?,
        Command::Backup { json } => {
            let path = store.backup_now()?;
            if json {
                print_json(&mut out, &json!({"path": path.display().to_string()}))?;
            } else {
                writeln!(out, "Backed up to {}", path.display())?;
            }
        }
        Command::Chat {
            message,
            doc,
            base_url,
            model,
            patch_model,
            json,
            new,
        } => {
            let doc = if new {
                None
            } else {
                Some(document(&mut store, doc)?)
            };
            // The saved provider, with the environment and then the flags on top.
            let config = redline_agent::settings::resolve(&store, &OsKeychain, |settings| {
                if let Some(url) = base_url {
                    settings.base_url = url;
                }
                if let Some(m) = model {
                    settings.chat_model = m;
                }
                if let Some(m) = patch_model {
                    settings.patch_model = m;
                }
            })?;
            drop(out);
            chat::run(&mut store, doc, config, &message, json, None)?;
        }
        Command::Demo { json } => {
            drop(out);
            chat::demo(&mut store, json)?;
        }
        Command::Recover { .. }
        | Command::Completions { .. }
        | Command::Man
        | Command::ReadPdfText { .. } => {
            unreachable!("handled before the store is opened")
        }
    }
    Ok(())
}

/// `redline provider …`.
fn provider(store: &mut Store, action: ProviderAction, out: &mut impl Write) -> Result<()> {
    match action {
        ProviderAction::Show { json } => {
            let (settings, saved) = ProviderSettings::load(store)?;
            show_provider(store, &settings, saved, json, out)
        }
        ProviderAction::Set {
            preset,
            base_url,
            model,
            patch_model,
            first_token_timeout,
            idle_timeout,
        } => {
            let (mut settings, _) = ProviderSettings::load(store)?;
            if let Some(secs) = first_token_timeout {
                settings.first_token_timeout_secs = secs;
            }
            if let Some(secs) = idle_timeout {
                settings.idle_timeout_secs = secs;
            }
            if let Some(name) = preset {
                settings.preset = Preset::parse(&name).map_err(|e| fail(Exit::Refused, e))?;
                if let Some(url) = settings.preset.base_url() {
                    settings.base_url = url.to_owned();
                }
            }
            if let Some(url) = base_url {
                settings.base_url = url;
            }
            if let Some(m) = model {
                settings.chat_model = m;
            }
            if let Some(m) = patch_model {
                settings.patch_model = m;
            }
            if let Err(problem) = settings.check() {
                return Err(fail(
                    Exit::Refused,
                    format!("{problem}; nothing was changed"),
                ));
            }
            settings.save(store)?;
            show_provider(store, &settings, true, false, out)
        }
        ProviderAction::Test { json } => {
            let config = redline_agent::settings::resolve(store, &OsKeychain, |_| {})?;
            let provider = redline_agent::Provider::new(config.clone());
            let report = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?
                .block_on(redline_agent::probe::test_connection(&provider));
            redline_agent::settings::remember(store, &provider, true)?;
            if json {
                serde_json::to_writer_pretty(&mut *out, &report)?;
                writeln!(out)?;
            } else {
                let line = |check: &redline_agent::probe::Check| match &check.problem {
                    None => "answers".to_owned(),
                    Some(problem) => format!("FAILED: {problem}"),
                };
                let listed = match &report.listing.problem {
                    None => format!("answers; {} model(s) listed", report.models.len()),
                    Some(problem) => format!("no model list ({problem})"),
                };
                writeln!(out, "server       {}: {listed}", report.base_url)?;
                writeln!(
                    out,
                    "chat model   {}: {}",
                    config.chat_model,
                    line(&report.chat)
                )?;
                writeln!(
                    out,
                    "patch model  {}: {}{}",
                    config.patch_model,
                    line(&report.patch),
                    if report.patch.ok {
                        format!(" (JSON by {})", report.patch_format)
                    } else {
                        String::new()
                    }
                )?;
            }
            if !report.works() {
                out.flush()?;
                std::process::exit(1);
            }
            Ok(())
        }
    }
}

fn show_provider(
    store: &Store,
    settings: &ProviderSettings,
    saved: bool,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let account = settings.key_account();
    let (key, problem) = if redline_agent::settings::env_var("OPENAI_API_KEY").is_some() {
        ("set (OPENAI_API_KEY)", None)
    } else {
        match OsKeychain.get(&account) {
            Ok(Some(_)) => ("set", None),
            Ok(None) => ("not set", None),
            Err(e) => ("unknown", Some(e.to_string())),
        }
    };
    let learned = redline_agent::settings::learned(store, &settings.base_url)?;
    if json {
        let mut value = serde_json::to_value(settings)?;
        value["saved"] = json!(saved);
        value["keySet"] = json!(key.starts_with("set"));
        value["keyFor"] = json!(account.user());
        if let Some(problem) = &problem {
            value["keychainProblem"] = json!(problem);
        }
        value["learned"] = serde_json::to_value(&learned)?;
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "preset       {}{}",
        settings.preset.name(),
        if saved {
            ""
        } else {
            " (default: nothing saved yet)"
        }
    )?;
    writeln!(out, "base URL     {}", settings.base_url)?;
    writeln!(out, "chat model   {}", settings.chat_model)?;
    writeln!(out, "patch model  {}", settings.patch_model)?;
    writeln!(out, "key          {key} (for {})", account.user())?;
    if let Some(problem) = problem {
        writeln!(out, "             {problem}")?;
    }
    writeln!(
        out,
        "timeouts     {} s for the first token, {} s of silence",
        settings.first_token_timeout_secs, settings.idle_timeout_secs
    )?;
    match learned {
        Some(learned) => writeln!(
            out,
            "server takes JSON by {}; rounds with tools {}",
            learned.patch_format,
            if learned.streams_tools {
                "streamed"
            } else {
                "asked without streaming"
            }
        )?,
        None => writeln!(
            out,
            "server takes (not learned yet: `redline provider test` finds out)"
        )?,
    }
    Ok(())
}

/// `redline key …`.
fn key(store: &Store, action: KeyAction, out: &mut impl Write) -> Result<()> {
    let (settings, _) = ProviderSettings::load(store)?;
    let account = settings.key_account();
    let whose = format!("{} at {}", settings.preset.name(), account.host);
    match action {
        KeyAction::Set => {
            use std::io::{IsTerminal, Read};
            let key = if std::io::stdin().is_terminal() {
                rpassword::prompt_password(format!("API key for {whose}: "))?
            } else {
                let mut text = String::new();
                std::io::stdin().take(64 * 1024).read_to_string(&mut text)?;
                text
            };
            let key = key.trim();
            if key.is_empty() {
                return Err(fail(
                    Exit::Refused,
                    "no key was given on standard input; nothing was saved",
                ));
            }
            OsKeychain.set(&account, key)?;
            writeln!(out, "Saved the key for {whose} in the keychain.")?;
        }
        KeyAction::Clear => {
            if OsKeychain.remove(&account)? {
                writeln!(out, "Removed the key for {whose} from the keychain.")?;
            } else {
                writeln!(out, "There was no key for {whose} in the keychain.")?;
            }
        }
    }
    Ok(())
}

/// The document a command acts on: the one named, or the one changed last.
fn document(store: &mut Store, doc: Option<i64>) -> Result<i64> {
    Ok(match doc {
        Some(id) => store.document(id)?.id,
        None => store.current_or_import(redline_resume::first_resume)?.id,
    })
}

fn report(out: &mut impl Write, doc: i64, done: &Committed, json: bool) -> Result<()> {
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

/// The largest PDF `redline ats --pdf` reads: a resume's is well under 1 MB (fonts embedded).
const MAX_PDF_BYTES: u64 = 32 << 20;

/// The memory the reading of a PDF the user names may take (Linux: the child's data segment and private
/// mappings): a resume's PDF needs a few MB; one made to inflate to gigabytes stops here.
const PDF_READ_MEMORY: u64 = 1 << 30;

/// How long the reading of a PDF the user names may take.
const PDF_READ_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// [`PDF_READ_TIME`], or less when `REDLINE_PDF_READ_SECONDS` says so (the tests' way to see the bound act
/// without waiting a minute; it can only shorten it).
fn pdf_read_time() -> std::time::Duration {
    std::env::var("REDLINE_PDF_READ_SECONDS")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(PDF_READ_TIME, |s| {
            std::time::Duration::from_secs(s).min(PDF_READ_TIME)
        })
}

/// The text of the PDF at `path`, one string per page, read in a child process (this program again, in
/// `read-pdf-text` mode) bounded in memory ([`PDF_READ_MEMORY`], on Linux) and time ([`PDF_READ_TIME`]): a
/// file built to inflate to gigabytes or to keep the reader busy is refused in words, and this process —
/// the database open in it — is never at its mercy.
fn pdf_text_bounded(path: &std::path::Path) -> Result<Vec<String>> {
    use std::io::Read as _;
    use std::process::Stdio;
    let me = std::env::current_exe()?;
    let mut command = std::process::Command::new(me);
    // This program is the app's binary in command-line mode (`redline-app --cli …`, src-tauri/main.rs).
    command
        .args(["--cli", "read-pdf-text"])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt as _;
        // SAFETY: between fork and exec the closure calls only setrlimit, which is async-signal-safe, and
        // allocates nothing.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: PDF_READ_MEMORY,
                    rlim_max: PDF_READ_MEMORY,
                };
                if libc::setrlimit(libc::RLIMIT_DATA, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let mut child = command.spawn()?;
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(64 << 20).read_to_end(&mut bytes);
        }
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.take(64 << 10).read_to_string(&mut text);
        }
        text
    });
    let limit = pdf_read_time();
    let deadline = std::time::Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(fail(
                Exit::Refused,
                format!(
                    "{}: reading its text took longer than {} s; it is not a PDF Redline can check",
                    path.display(),
                    limit.as_secs()
                ),
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (out, err) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    if status.success() {
        return serde_json::from_slice(&out).map_err(|e| {
            fail(
                Exit::Failed,
                format!("{}: its text came back unreadable: {e}", path.display()),
            )
        });
    }
    // The child said what was wrong ("redline: …" and its exit code): pass it on.
    if let Some(code) = status.code().filter(|&c| c != 101) {
        let said = err.trim().trim_start_matches("redline: ");
        return Err(fail(Exit::from_code(code), said.to_owned()));
    }
    Err(fail(
        Exit::Refused,
        format!(
            "{}: reading its text needed more than {} MB of memory or stopped the reader; it is not a PDF \
             Redline can check",
            path.display(),
            PDF_READ_MEMORY >> 20
        ),
    ))
}

/// The file at `path`, refused when it is over `limit` bytes (read one byte past it, never whole).
fn read_limited(path: &std::path::Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| {
        let exit = if e.kind() == std::io::ErrorKind::NotFound {
            Exit::NotFound
        } else {
            Exit::Failed
        };
        fail(exit, format!("cannot read {}: {e}", path.display()))
    })?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(fail(
            Exit::Refused,
            format!(
                "{} is larger than {} MB, far more than a resume's PDF; it was not read",
                path.display(),
                limit >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// `redline ats` in words: what was read per section, then what did not read back.
fn ats_report(out: &mut impl Write, report: &redline_pdf::ats::Report) -> Result<()> {
    let pages = if report.pages == 1 { "page" } else { "pages" };
    writeln!(out, "Read back from the PDF ({} {pages}):", report.pages)?;
    for section in &report.sections {
        let heading = if section.id == "basics" {
            "Header"
        } else {
            &section.heading
        };
        let text = redline_resume::shorten(&section.text, 100);
        writeln!(out, "  {heading}: {text}")?;
    }
    for (what, findings) in [
        ("Missing", &report.missing),
        ("Out of order", &report.out_of_order),
    ] {
        if !findings.is_empty() {
            writeln!(out, "{what} ({}):", findings.len())?;
            for f in findings {
                writeln!(out, "  {} {}: {}", f.section, f.field, f.text)?;
            }
        }
    }
    if report.clean() {
        writeln!(out, "Every field reads back, in order.")?;
    }
    Ok(())
}

fn print_json(out: &mut impl Write, value: &Value) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}

impl From<ExportFormat> for redline_resume::export::Format {
    fn from(format: ExportFormat) -> Self {
        use redline_resume::export::Format;
        match format {
            ExportFormat::Pdf => Format::Pdf,
            ExportFormat::Html => Format::Html,
            ExportFormat::Json => Format::Json,
            ExportFormat::Md => Format::Markdown,
            ExportFormat::Txt => Format::Text,
        }
    }
}

impl From<ExportTemplate> for redline_resume::export::Template {
    fn from(template: ExportTemplate) -> Self {
        match template {
            ExportTemplate::Classic => redline_resume::export::Template::Classic,
            ExportTemplate::Modern => redline_resume::export::Template::Modern,
        }
    }
}

impl From<ExportPage> for redline_resume::export::Page {
    fn from(page: ExportPage) -> Self {
        match page {
            ExportPage::A4 => redline_resume::export::Page::A4,
            ExportPage::Letter => redline_resume::export::Page::Letter,
        }
    }
}

/// Reads and checks a JSON Resume file; every problem is named by its JSON Pointer.
fn read_resume(file: &Path) -> Result<Value> {
    Ok(redline_resume::read_file(file)?)
}

fn recover(data_dir: &Path, force: bool) -> Result<()> {
    let recovery = redline_store::backup::recover(data_dir, force)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "Opened the backup {}.", recovery.backup.display())?;
    for aside in &recovery.set_aside {
        writeln!(out, "The damaged file is kept as {}.", aside.display())?;
    }
    Ok(())
}
