//! `redline`: the headless command line of Redline.
//!
//! It runs the same engine on the same database as the desktop app, so what it shows is what the app
//! shows, and it works on a machine with no display. `--data-dir DIR` (or `REDLINE_DATA_DIR`) points it at
//! another data folder, which is how tests and scripts keep away from a user's real data.
//!
//! # Layout
//! - [`Cli`] and [`Command`]: the arguments, parsed by clap.
//! - [`run`]: starts the engine and carries out one command through it; each command prints a plain result on stdout
//!   (JSON where asked for) and any failure as one plain sentence on stderr, with a non-zero exit.
//! - [`Exit`]: what the exit status says: 0 done, 1 failed, 2 a usage error (clap's), 3 not found,
//!   4 refused (a file that is not a resume, a change that does not apply, an answer the checks refused),
//!   5 not configured (no model server or key that can work), 130 stopped by Ctrl-C.

#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand};
use redline_engine::{DATA_DIR_ENV, Format, Look, Page, Template};
use redline_engine::{Error, ErrorKind};

mod cmd;

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
    /// Import a resume as a new document: a PDF (its text), a Word or OpenDocument file, LinkedIn's data
    /// export (the .zip), Markdown or plain text, or JSON Resume — known by the file's content, read with no
    /// model. Lines that found no place are listed. A file that cannot be read is refused in words, and
    /// nothing changes.
    Import {
        /// The file; `-` reads it from standard input.
        file: PathBuf,
        /// The title (default: the name and label in the resume).
        #[arg(long)]
        title: Option<String>,
        /// Read the file and show what was read, but write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Print one JSON object: the new document's id, title and revision (null with --dry-run), the
        /// format read, the document, and the lines not placed (with --tidy, the turn's JSON lines after
        /// it, as `redline chat --json` prints them).
        #[arg(long)]
        json: bool,
        /// Then have the configured model tidy what was read (never needed): place the lines that found
        /// no place and correct what was read wrongly, from the file's own text. Every edit waits for you
        /// (`redline held`), whatever review mode says.
        #[arg(long, conflicts_with = "dry_run")]
        tidy: bool,
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
        /// Only the revisions whose words (or source: ai, user, import, undo, redo, restore) have each of
        /// these words, in any case.
        #[arg(long, value_name = "WORDS")]
        search: Option<String>,
        /// Only the newest N (of those found).
        #[arg(long, value_name = "N")]
        last: Option<usize>,
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
    Chat(cmd::chat::Args),
    /// Measure how well the configured model edits: a suite of asks, each run on a fresh copy of its
    /// resume in a throwaway store (your resumes are not touched), each result checked without a model.
    /// Prints pass or miss per ask, its seconds and tokens, how the server was asked, and the totals.
    Eval(cmd::eval::Args),
    /// A copy of a resume tailored to a job posting (a variant linked to it, opened next in the app), with
    /// the posting's terms it has and lacks. `redline chat --doc ID` on the copy shows the model the
    /// posting. Without --posting, the report of a copy made earlier.
    Tailor {
        /// The job posting as text; `-` reads it from standard input.
        #[arg(long, value_name = "FILE")]
        posting: Option<PathBuf>,
        /// The resume to copy (or, without --posting, the tailored copy); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the report as one JSON object (documentId, master, headline, terms, changes).
        #[arg(long)]
        json: bool,
    },
    /// Cover letters: `redline letter new --posting FILE` writes one for a job posting, from your resume
    /// and the posting only. `show`, `export`, `undo`, `history` and `held` take a letter's id as a
    /// resume's.
    Letter {
        #[command(subcommand)]
        action: cmd::letter::Action,
    },
    /// Job applications: add (pinning the revisions of the resume and letter sent), list, move to a stage
    /// on a date, show, and CSV out and in for a spreadsheet.
    Apply {
        #[command(subcommand)]
        action: cmd::apply::Action,
    },
    /// Your resumes on every device you own, through a folder your cloud drive carries or a git remote
    /// you own (no Redline server): `redline sync folder PATH` or `redline sync git URL` chooses where and
    /// syncs; `redline sync` syncs again; `status` and `off`.
    Sync {
        #[command(subcommand)]
        action: Option<cmd::sync::Action>,
        /// Print what the sync did (or the state) as one JSON object.
        #[arg(long, global = true)]
        json: bool,
    },
    /// The language a resume is shown in: its headings and dates in the view and every export (a BCP 47
    /// tag such as de, pt-BR or ja; `default` for English). A revision of your own.
    Language {
        /// The language tag.
        tag: String,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the document, its revision and what changed as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// A section's heading (`redline heading work "Where I worked"`); without a name, the language's own.
    /// A revision of your own.
    Heading {
        /// The section's key: work, volunteer, education, awards, certificates, publications, skills,
        /// languages, interests, references or projects.
        section: String,
        /// The heading; leave it out for the usual one.
        name: Option<String>,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the document, its revision and what changed as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Fit a resume to a number of pages: its spacing, then margins, then text size tightened within
    /// readable bounds. A revision of your own (undo it with `redline undo`). Exits 0 when it fits, 4 when
    /// even the tightest does not (the longest sections are named).
    Fit {
        /// How many pages it should take (1 to 10).
        #[arg(long, default_value_t = 1)]
        pages: usize,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the fit, the options set and the resume's revision as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Set the photo the designs draw in the header from an image file (JPEG, PNG, WebP or GIF; kept small
    /// in the resume at basics.image), or remove it. A revision of your own (undo it with `redline undo`).
    Photo {
        /// The image file.
        #[arg(required_unless_present = "remove", conflicts_with = "remove")]
        file: Option<PathBuf>,
        /// Remove the photo instead.
        #[arg(long)]
        remove: bool,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print the resume's state and whether it changed as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The designs a resume can be shown in (`redline export --template NAME`).
    Theme {
        #[command(subcommand)]
        action: cmd::theme::Action,
    },
    /// The edits held for your confirmation — ones the model made outside what you asked, contact details,
    /// or every AI edit in review mode — listed in words; accept or reject them one by one or all.
    Held {
        #[command(subcommand)]
        action: Option<cmd::held::Action>,
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID", global = true)]
        doc: Option<i64>,
        /// Print one JSON object.
        #[arg(long, global = true)]
        json: bool,
    },
    /// Review mode, saved for the app and the CLI alike: with it on, `redline chat` holds every AI edit for
    /// you (see `redline held`) instead of saving it. Without an argument, says whether it is on.
    Review {
        /// Turn it on or off.
        switch: Option<cmd::review::Switch>,
        /// Print whether it is on as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Play a scripted editing session (no model, no key) on a fresh copy of the sample resume.
    Demo {
        /// One JSON object per line, as `chat --json`.
        #[arg(long)]
        json: bool,
    },
    /// Export a resume: PDF (made in-process by Typst, fonts embedded), Word (.docx: heading styles, a
    /// bulleted list, links), HTML (one self-contained file), JSON Resume (lossless), Markdown or plain text.
    Export(cmd::export::Args),
    /// How an applicant tracking system reads a resume: its PDF is made and read back in-process, and the
    /// text read is shown per section, with any field missing or out of order. Exits 0 when every field
    /// reads back in order, 1 otherwise.
    Ats {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// The look of the PDF that is read.
        #[arg(long, value_name = "T", default_value = "classic", value_parser = templates())]
        template: Template,
        /// Its paper size.
        #[arg(long, value_name = "SIZE", default_value = "a4", value_parser = pages())]
        page: Page,
        /// Read this PDF (one exported earlier, say) instead of making one: is it still the resume?
        #[arg(long, value_name = "FILE", conflicts_with_all = ["template", "page"])]
        pdf: Option<PathBuf>,
        /// Print one JSON object: the text read per section (`sections`), `missing` and `out_of_order`.
        #[arg(long)]
        json: bool,
    },
    /// Check a resume's writing: spelling in its language (English, German, French, Spanish,
    /// Portuguese), grammar in English, and a recruiter's rules (weak openers, first person, passive voice,
    /// long bullets, no figures, tense, dates, contact details). One finding a line: rule, field, the words
    /// and a suggested fix. Exits 0 when there is nothing to fix, 1 otherwise.
    Lint {
        /// The document's id (see `redline list`); default: the one changed last.
        #[arg(long, value_name = "ID")]
        doc: Option<i64>,
        /// Print one JSON object: `{"findings": [{"rule", "path", "start", "end", "text", "message",
        /// "fix"}]}`, offsets in characters, `fix` null when there is none.
        #[arg(long)]
        json: bool,
        /// First add this word to your dictionary (`words.txt` in the data folder), for every resume.
        #[arg(long, value_name = "WORD")]
        add_word: Option<String>,
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
    /// Check the whole database now: every page, every index against its table, every reference between
    /// tables (opening it reads every page; this also runs by itself after a crash and once a week). Exits
    /// with status 1 if anything is wrong.
    Check {
        /// Print what was found as one JSON object.
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
    /// and time are bounded ([`redline_engine::pdf_child`]).
    #[command(hide = true)]
    ReadPdfText { path: PathBuf },
    /// Print a PDF's lines for an import as JSON: `import` runs this in a child process bounded like
    /// `read-pdf-text`.
    #[command(hide = true)]
    ReadPdfLines { path: PathBuf },
    /// Lay a theme of the user's own out as a PDF: `export --template NAME` runs this in a child process
    /// bounded in memory and to 10 s ([`redline_engine::themes`]).
    #[command(hide = true)]
    RenderTheme { request: PathBuf },
}

/// A `--format`, `--template` or `--page` value, from the engine's own list of them (`Format`,
/// `Template`, `Page`), each with its help and its aliases.
fn choice<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    about: fn(T) -> &'static str,
    aliases: fn(T) -> &'static [&'static str],
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    let values = all.iter().map(move |&t| {
        PossibleValue::new(name(t))
            .help(about(t))
            .aliases(aliases(t))
    });
    PossibleValuesParser::new(values).map(move |chosen: String| {
        *all.iter()
            .find(|&&t| name(t) == chosen || aliases(t).contains(&chosen.as_str()))
            .expect("clap only lets through the values listed")
    })
}

/// `--format`.
fn formats() -> impl clap::builder::TypedValueParser<Value = Format> {
    choice(&Format::ALL, Format::name, Format::about, Format::aliases)
}

/// `--template`.
fn templates() -> impl clap::builder::TypedValueParser<Value = Template> {
    choice(&Template::ALL, Template::name, Template::about, |_| &[])
}

/// `export`'s `--template`: a built-in design, or any other name that can be a theme's (whether there is
/// one is known only once the data folder is: [`cmd::theme::unknown`]).
#[derive(Clone)]
struct Looks;

impl clap::builder::TypedValueParser for Looks {
    type Value = Look;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Look, clap::Error> {
        match templates().parse_ref(cmd, arg, value) {
            Ok(template) => Ok(Look::Design(template)),
            Err(e) => match value.to_str() {
                Some(name) if redline_engine::theme_name(name) => Ok(Look::Theme(name.to_owned())),
                _ => Err(e),
            },
        }
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let values: Vec<_> = templates().possible_values()?.collect();
        Some(Box::new(values.into_iter()))
    }
}

/// `export`'s `--template`.
fn looks() -> Looks {
    Looks
}

/// `--page`.
fn pages() -> impl clap::builder::TypedValueParser<Value = Page> {
    choice(&Page::ALL, Page::name, Page::about, Page::aliases)
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
    Set(ProviderSet),
    /// Test the connection: the server's model list, one tiny request to each model, and how the patch
    /// model gives JSON. Exits 0 only when both models answer.
    Test {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// `redline provider set`'s flags: the engine's [`redline_engine::provider::ProviderChange`], read from
/// the command line.
#[derive(Debug, clap::Args)]
struct ProviderSet {
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
}

impl From<ProviderSet> for redline_engine::provider::ProviderChange {
    fn from(flags: ProviderSet) -> Self {
        Self {
            preset: flags.preset,
            base_url: flags.base_url,
            model: flags.model,
            patch_model: flags.patch_model,
            first_token_timeout: flags.first_token_timeout,
            idle_timeout: flags.idle_timeout,
        }
    }
}

#[derive(Debug, Subcommand)]
enum KeyAction {
    /// Read the key from standard input (without echo on a terminal) and keep it in the keychain for the
    /// saved provider and its host.
    Set,
    /// Remove the saved provider's key from the keychain.
    Clear,
}

/// Runs the command line on `args` (the first is the program's name): the `redline` binary
/// (`src-tauri/cli.rs`).
pub fn main_from<I, T>(args: I) -> std::process::ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::parse_from(args);
    // Before any thread: libgit2 may set where OpenSSL finds the system's certificates. Only a sync can
    // reach a git remote, and the other commands keep their start-up.
    if matches!(cli.command, Command::Sync { .. }) {
        redline_engine::sync::start_before_threads();
    }
    // Ctrl-C exits 130 (a database write under way is rolled back by SQLite). A turn handles it itself:
    // it stops the model and rolls back its preview first.
    if !matches!(cli.command, Command::Chat { .. } | Command::Demo { .. }) {
        exit_on_ctrl_c();
    }
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The reader of the output stopped reading (`redline show | head`): nothing went wrong here.
        Err(err) if closed_output(&err) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("redline: {}", cmd::for_terminal(&format!("{err:#}")));
            std::process::ExitCode::from(Exit::of(&err) as u8)
        }
    }
}

/// Whether `err` is a write to an output whose reader has gone (a broken pipe), as text or as JSON. The
/// engine's own errors carry their causes in words, so a bare I/O error of that kind is the command's own
/// output.
fn closed_output(err: &anyhow::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().map(|e| e.kind());
        let json = cause
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io == Some(BrokenPipe) || json == Some(BrokenPipe)
    })
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
    /// The exit status for `error`, from the first error in its chain that is the engine's (a kind and a
    /// sentence).
    pub fn of(error: &anyhow::Error) -> Exit {
        error
            .chain()
            .find_map(|cause| cause.downcast_ref::<Error>())
            .map_or(Exit::Failed, |e| Exit::from(e.kind))
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

/// A failure worded here: the engine's error of `kind` saying `message`, which exits with its kind's
/// status.
pub fn fail(kind: ErrorKind, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Error::new(kind, message))
}

fn run(cli: Cli) -> Result<()> {
    let command = match cli.command {
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "redline", &mut std::io::stdout());
            return Ok(());
        }
        Command::Man => {
            clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout())?;
            return Ok(());
        }
        Command::ReadPdfText { path } => return cmd::ats::read_pdf_text(&path),
        Command::ReadPdfLines { path } => return cmd::import::read_pdf_lines(&path),
        Command::RenderTheme { request } => return cmd::theme::render_theme(&request),
        command => command,
    };
    let data_dir = redline_engine::resolve_data_dir(cli.data_dir).ok_or_else(|| {
        fail(
            ErrorKind::NotConfigured,
            "cannot tell where your data folder is; pass --data-dir DIR or set REDLINE_DATA_DIR",
        )
    })?;
    let out = &mut cmd::Terminal(std::io::stdout().lock());
    match command {
        Command::Recover { force } => cmd::backup::recover(&data_dir, force, out),
        Command::Tailor { .. }
        | Command::Language { .. }
        | Command::Heading { .. }
        | Command::Fit { .. }
        | Command::Photo { .. }
        | Command::Held { .. }
        | Command::Review { .. } => on_document(&data_dir, command, out),
        command => on_data(&data_dir, command, out),
    }
}

/// The commands on the resume on screen as the window has them: its words, tailoring, held edits and
/// review mode.
fn on_document(data_dir: &Path, command: Command, out: &mut impl Write) -> Result<()> {
    match command {
        Command::Tailor { posting, doc, json } => {
            cmd::tailor::run(data_dir, doc, posting, json, out)
        }
        Command::Language { tag, doc, json } => {
            cmd::words::run(data_dir, doc, cmd::words::language(&tag), json, out)
        }
        Command::Heading {
            section,
            name,
            doc,
            json,
        } => {
            let change = redline_engine::ipc::WordsChange::Heading {
                section,
                heading: name,
            };
            cmd::words::run(data_dir, doc, change, json, out)
        }
        Command::Held { action, doc, json } => cmd::held::run(data_dir, doc, action, json, out),
        Command::Fit { pages, doc, json } => cmd::fit::run(data_dir, doc, pages, json, out),
        Command::Photo {
            file, doc, json, ..
        } => cmd::photo::run(data_dir, doc, file, json, out),
        Command::Review { switch, json } => cmd::review::run(data_dir, switch, json, out),
        _ => unreachable!("only the commands on the resume on screen come here"),
    }
}

/// The other commands: each starts the engine on the data folder and asks it one thing.
fn on_data(data_dir: &Path, command: Command, out: &mut impl Write) -> Result<()> {
    match command {
        Command::List { json, deleted } => cmd::list::run(data_dir, json, deleted, out),
        Command::Letter { action } => cmd::letter::run(data_dir, action),
        Command::Apply { action } => cmd::apply::run(data_dir, action, out),
        Command::Sync { action, json } => cmd::sync::run(data_dir, action, json, out),
        Command::Theme { action } => cmd::theme::run(data_dir, action, out),
        Command::Import {
            file,
            title,
            dry_run,
            json,
            tidy,
        } => cmd::import::run(data_dir, file, title, dry_run, json, tidy, out),
        Command::Show { doc, revision } => cmd::show::run(data_dir, doc, revision, out),
        Command::History {
            doc,
            search,
            last,
            json,
        } => cmd::history::run(data_dir, doc, search, last, json, out),
        Command::Undo { doc, json } => cmd::undo::undo(data_dir, doc, json, out),
        Command::Redo { doc, json } => cmd::undo::redo(data_dir, doc, json, out),
        Command::Diff { a, b, doc } => cmd::diff::run(data_dir, a, b, doc, out),
        Command::Restore {
            revision,
            doc,
            json,
        } => cmd::undo::restore(data_dir, revision, doc, json, out),
        Command::Rename { title, doc, json } => cmd::rename::run(data_dir, title, doc, json, out),
        Command::Delete { id, json } => cmd::delete::delete(data_dir, id, json, out),
        Command::Undelete { id, json } => cmd::delete::undelete(data_dir, id, json, out),
        Command::Variant {
            title,
            doc,
            revision,
            json,
        } => cmd::variant::run(data_dir, title, doc, revision, json, out),
        Command::Export(args) => cmd::export::run(data_dir, args, out),
        Command::Ats {
            doc,
            template,
            page,
            pdf,
            json,
        } => cmd::ats::run(data_dir, doc, template, page, pdf, json, out),
        Command::Lint {
            doc,
            json,
            add_word,
        } => cmd::lint::run(data_dir, doc, add_word, json, out),
        Command::Provider { action } => cmd::provider::run(data_dir, action, out),
        Command::Key { action } => cmd::key::run(data_dir, action, out),
        Command::Backup { json } => cmd::backup::run(data_dir, json, out),
        Command::Check { json } => cmd::backup::check(data_dir, json, out),
        Command::Chat(args) => cmd::chat::run(data_dir, args),
        Command::Eval(args) => cmd::eval::run(data_dir, args, out),
        Command::Demo { json } => cmd::chat::demo(data_dir, json),
        _ => unreachable!("the other commands are carried out before the engine starts"),
    }
}
