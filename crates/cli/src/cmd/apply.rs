//! `redline apply`: the record of job applications — add one (pinning the revisions of the resume and
//! letter sent), list them, move one to another stage on a date, show one with its timeline, make the
//! resume or letter it sent again, and take the list out to a spreadsheet and back in as CSV.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::ErrorKind;
use redline_engine::applications::{
    Application, ApplicationAsk, MAX_CSV_BYTES, MAX_POSTING_CHARS, NewApplication, Sent, Stage,
};
use serde_json::json;

use super::export::FileArgs;
use super::letter::read_text;
use super::{on_engine, plain, print};
use crate::fail;

/// What `redline apply` does.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Record an application. `--resume` and `--letter` pin the revisions sent: their heads now.
    Add(Box<AddArgs>),
    /// List the applications, most recently changed first.
    List {
        /// Print a JSON array of applications.
        #[arg(long)]
        json: bool,
    },
    /// Move an application to another stage, on a date (a new line on its timeline).
    Move {
        /// The application's id (see `redline apply list`).
        id: i64,
        /// saved, applied, interviewing, offer, rejected or withdrawn.
        #[arg(value_parser = stage)]
        stage: Stage,
        /// The day it happened, YYYY-MM-DD (default: today).
        #[arg(long, value_name = "DATE")]
        date: Option<String>,
        /// Print the application as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Show one application with its timeline and the revisions it pinned.
    Show {
        /// The application's id.
        id: i64,
        /// Print it as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Write every application as CSV (Company, Role, Stage, Applied, Follow-up, Salary, Source,
    /// Contacts, Notes, Tags), safe to open in a spreadsheet.
    ExportCsv {
        /// The file (never over one unless --force); `-` or none writes to standard output.
        #[arg(value_name = "FILE", default_value = "-")]
        file: PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
        /// Print where it was written and how many rows as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Make again the resume or the letter an application sent, at the revisions it pinned: the same
    /// design and page make the same bytes as the first time.
    Sent(Box<SentArgs>),
    /// Record the applications of a CSV file (a header row naming the columns, Company and Role among
    /// them), all or none: a row that is refused is named.
    ImportCsv {
        /// The file; `-` reads standard input.
        file: PathBuf,
        /// Print the new applications' ids as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// What `redline apply add` takes.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// The employer.
    #[arg(long)]
    pub company: String,
    /// The job's title.
    #[arg(long)]
    pub role: String,
    /// The posting's text, kept with the application (never fetched from a URL); `-` reads standard
    /// input.
    #[arg(long, value_name = "FILE")]
    pub posting: Option<PathBuf>,
    /// Where the posting came from, in your words ("LinkedIn", "a friend").
    #[arg(long, value_name = "TEXT")]
    pub source: Option<String>,
    /// The posting's address, kept as text.
    #[arg(long)]
    pub url: Option<String>,
    /// The resume sent (pinned at its head revision).
    #[arg(long, value_name = "ID")]
    pub resume: Option<i64>,
    /// The letter sent (pinned at its head revision).
    #[arg(long, value_name = "ID")]
    pub letter: Option<i64>,
    /// The stage it starts at: saved, applied, interviewing, offer, rejected or withdrawn.
    #[arg(long, value_name = "S", default_value = "saved", value_parser = stage)]
    pub stage: Stage,
    /// The day of that stage, YYYY-MM-DD (default: today).
    #[arg(long, value_name = "DATE")]
    pub date: Option<String>,
    /// When to follow up, YYYY-MM-DD.
    #[arg(long, value_name = "DATE")]
    pub follow_up: Option<String>,
    /// The salary, as written.
    #[arg(long)]
    pub salary: Option<String>,
    /// The people to talk to.
    #[arg(long)]
    pub contacts: Option<String>,
    /// Anything else.
    #[arg(long)]
    pub notes: Option<String>,
    /// A label (repeat for more).
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
    /// Print the application as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What `redline apply sent` takes.
#[derive(Debug, clap::Args)]
pub struct SentArgs {
    /// The application's id (see `redline apply list`).
    pub id: i64,
    /// resume or letter.
    #[arg(value_parser = sent)]
    pub what: Sent,
    /// The format, the look and paper it was sent in, and where it goes.
    #[command(flatten)]
    pub file: FileArgs,
}

/// `resume` or `letter`, as clap reads it.
fn sent(name: &str) -> Result<Sent, String> {
    match name {
        "resume" => Ok(Sent::Resume),
        "letter" => Ok(Sent::Letter),
        _ => Err("resume or letter".to_owned()),
    }
}

/// A stage's name, as clap reads it.
fn stage(name: &str) -> Result<Stage, String> {
    Stage::parse(name)
        .ok_or_else(|| "one of saved, applied, interviewing, offer, rejected, withdrawn".to_owned())
}

pub fn run(data_dir: &Path, action: Action, out: &mut impl Write) -> Result<()> {
    match action {
        Action::Add(args) => add(data_dir, *args, out),
        Action::List { json } => {
            let list = on_engine(data_dir, async |e| e.applications().await)?;
            print(out, json, &serde_json::to_value(&list)?, |out| {
                list.iter().try_for_each(|a| line(out, a))
            })
        }
        Action::Move {
            id,
            stage,
            date,
            json,
        } => {
            let moved = on_engine(data_dir, async |e| {
                e.move_application(id, stage, date.as_deref()).await
            })?;
            print(out, json, &serde_json::to_value(&moved)?, |out| {
                line(out, &moved)
            })
        }
        Action::Show { id, json } => {
            let found = on_engine(data_dir, async |e| e.application(id).await)?;
            print(out, json, &serde_json::to_value(&found)?, |out| {
                shown(out, &found)
            })
        }
        Action::ExportCsv { file, force, json } => export(data_dir, &file, force, json, out),
        Action::Sent(args) => made_again(data_dir, *args, out),
        Action::ImportCsv { file, json } => {
            let text = read_text(&file, "the CSV file", MAX_CSV_BYTES)?;
            let ids = on_engine(data_dir, async |e| e.import_applications_csv(&text).await)?;
            print(
                out,
                json,
                &json!({"imported": ids.len(), "ids": ids}),
                |out| writeln!(out, "Imported {} application(s).", ids.len()),
            )
        }
    }
}

/// `redline apply sent`: the resume or letter sent, made again at its pinned revisions.
fn made_again(data_dir: &Path, args: SentArgs, out: &mut impl Write) -> Result<()> {
    let SentArgs { id, what, file } = args;
    let Some(request) = file.request() else {
        return Err(fail(
            ErrorKind::Invalid,
            "what an application sent is made again in a built-in design; a theme of your own is for `redline export`",
        ));
    };
    if file.to_stdout() {
        let (bytes, _) = on_engine(data_dir, async |e| e.render_sent(id, what, request).await)?;
        out.write_all(&bytes)?;
        out.flush()?;
        return Ok(());
    }
    let bytes = on_engine(data_dir, async |e| {
        e.export_sent_to(id, what, request, &file.output, file.force)
            .await
    })?;
    let path = file.output.display().to_string();
    print(
        out,
        file.json,
        &json!({"id": id, "path": path, "bytes": bytes}),
        |out| writeln!(out, "The {} sent, made again: {path}", what.word()),
    )
}

fn add(data_dir: &Path, args: AddArgs, out: &mut impl Write) -> Result<()> {
    let AddArgs {
        company,
        role,
        posting,
        source,
        url,
        resume,
        letter,
        stage,
        date,
        follow_up,
        salary,
        contacts,
        notes,
        tags,
        json,
    } = args;
    let posting = match posting {
        Some(file) => read_text(&file, "the posting", MAX_POSTING_CHARS * 4)?,
        None => String::new(),
    };
    let ask = ApplicationAsk {
        fields: NewApplication {
            company,
            role,
            posting,
            source: source.unwrap_or_default(),
            url: url.unwrap_or_default(),
            stage: Some(stage),
            date,
            follow_up,
            salary: salary.unwrap_or_default(),
            contacts: contacts.unwrap_or_default(),
            notes: notes.unwrap_or_default(),
            tags,
            ..NewApplication::default()
        },
        resume,
        letter,
    };
    let added = on_engine(data_dir, async |e| e.add_application(ask).await)?;
    print(out, json, &serde_json::to_value(&added)?, |out| {
        line(out, &added)
    })
}

fn export(
    data_dir: &Path,
    file: &Path,
    force: bool,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (csv, rows) = on_engine(data_dir, async |e| e.applications_csv().await)?;
    if file.as_os_str() == "-" {
        out.write_all(csv.as_bytes())?;
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    match force {
        true => options.create(true).truncate(true),
        false => options.create_new(true),
    };
    let mut written = options.open(file).map_err(|e| {
        let kind = match e.kind() {
            std::io::ErrorKind::AlreadyExists => ErrorKind::Refused,
            _ => ErrorKind::ReadOnly,
        };
        fail(
            kind,
            format!(
                "cannot write {}: {e}; nothing was written (pass --force to replace a file)",
                file.display()
            ),
        )
    })?;
    written.write_all(csv.as_bytes())?;
    print(
        out,
        json,
        &json!({"path": file.display().to_string(), "rows": rows}),
        |out| writeln!(out, "Wrote {rows} application(s) to {}", file.display()),
    )
}

/// One application on one line.
fn line(out: &mut dyn Write, a: &Application) -> std::io::Result<()> {
    let last = a.timeline.last().map(|c| c.date.as_str()).unwrap_or("");
    writeln!(
        out,
        "{:>4}  {} — {}  [{} {}]{}",
        a.id,
        plain(&a.company),
        plain(&a.role),
        a.stage,
        last,
        a.follow_up
            .as_deref()
            .map(|d| format!("  follow up {d}"))
            .unwrap_or_default()
    )
}

/// One application in full.
fn shown(out: &mut dyn Write, a: &Application) -> std::io::Result<()> {
    line(out, a)?;
    for change in &a.timeline {
        writeln!(out, "      {}  {}", change.date, change.stage)?;
    }
    for (what, pin) in [("resume", a.resume), ("letter", a.letter)] {
        if let Some(pin) = pin {
            writeln!(
                out,
                "      {what} {} at revision {} was sent",
                pin.document_id, pin.revision
            )?;
        }
    }
    for (what, text) in [
        ("source", &a.source),
        ("address", &a.url),
        ("salary", &a.salary),
        ("contacts", &a.contacts),
        ("notes", &a.notes),
    ] {
        if !text.is_empty() {
            writeln!(out, "      {what}: {}", plain(text))?;
        }
    }
    if !a.tags.is_empty() {
        writeln!(out, "      tags: {}", plain(&a.tags.join(", ")))?;
    }
    Ok(())
}
