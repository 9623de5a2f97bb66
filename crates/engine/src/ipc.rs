//! What crosses the bridge between the engine and the web UI.
//!
//! The UI's TypeScript types in `ui/src/bindings/` are generated from these Rust types (and from the
//! surface messages of `redline-patch`) by ts-rs, beside the shell's own (`src-tauri/events.rs`, whose
//! test fails when the generated files are out of date). Regenerate them with
//! `REDLINE_UPDATE_BINDINGS=1 cargo test --lib bindings`.

use serde::Serialize;
use ts_rs::TS;

pub use redline_patch::SurfaceUpdate;

pub use redline_resume::design::Design;
pub use redline_resume::export::{Format, Page, Template};
pub use redline_store::Source;

pub use redline_import::Format as ImportFormat;

/// A failed command crosses the bridge as the engine's [`Error`] (its kind and its words), declared to the
/// UI as `IpcError`.
pub use crate::error::{Error, ErrorKind};

/// What a turn streams to the window that started it, in order, over the `tauri::ipc::Channel` handed to
/// the command that starts it (`send_message`, `start_demo`): the resume view's surface messages and the
/// chat's events, one stream, so that a change and the chat line saying it was saved arrive in that order.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "to", content = "message", rename_all = "camelCase")]
pub enum TurnMessage {
    Surface(SurfaceUpdate),
    Chat(ChatEvent),
}

/// Where an operation sends what the window is to show as it happens — the resume view's surface messages
/// and the chat's events — in the order they happen.
pub type Emit<'a> = &'a mut (dyn FnMut(TurnMessage) + Send);

/// What the chat shows while a turn runs.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ChatEvent {
    /// The user's message (sent by the demo, which speaks for the user, and by a letter's first draft).
    User { text: String },
    /// More of the assistant's reply.
    Delta { text: String },
    /// The assistant is making changes.
    Planning { changes: String },
    /// A change was saved.
    Committed {
        #[ts(type = "number")]
        revision: u64,
        summary: String,
    },
    /// A change was refused and rolled back.
    Refused { reason: String, retrying: bool },
    /// Something to check.
    Warning { text: String },
    /// A status line (waiting for the model, learning what the server can do).
    Status { text: String },
    /// Edits outside what was asked, not applied: the user may apply them.
    Held { edits: redline_agent::Held },
}

impl ChatEvent {
    /// What the chat shows of a turn's event, if anything: surface messages travel on their own, and the
    /// edits a bundle held are said together, as one `Held`.
    pub fn of(event: redline_agent::TurnEvent) -> Option<ChatEvent> {
        use redline_agent::TurnEvent as E;
        use redline_patch::Notice;
        Some(match event {
            E::Chat { text } => ChatEvent::Delta { text },
            E::Planning { changes, .. } => ChatEvent::Planning { changes },
            E::Committed { revision, summary } => ChatEvent::Committed { revision, summary },
            E::Refused { reason, retrying } => ChatEvent::Refused { reason, retrying },
            E::Warning { text } => ChatEvent::Warning { text },
            E::Held { held } => ChatEvent::Held { edits: held },
            E::Status { text } => ChatEvent::Status { text },
            E::Notice { notice } => ChatEvent::Status {
                text: match notice {
                    Notice::Waiting { path, .. } => format!(
                        "Waiting for the model{}…",
                        path.map(|p| format!(" ({p})")).unwrap_or_default()
                    ),
                    Notice::Held { .. } => return None,
                    Notice::Duplicate { .. } => "A repeated edit was applied once.".to_owned(),
                },
            },
            E::Surface { .. } => return None,
        })
    }
}

/// One design a resume can be shown in, as the gallery and `redline theme list` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DesignInfo {
    /// Its name (`redline export --template NAME`, `/meta/design/template`).
    pub name: String,
    /// How a menu names it.
    pub label: String,
    /// What it looks like, in a line.
    pub description: String,
    /// Built into Redline (true), or a theme of the user's own (false).
    pub built_in: bool,
    /// Why a theme of the user's own cannot be used (its manifest cannot be read), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
}

/// What fitting to pages did: the resume's state after it, and the fit in words.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FitDone {
    /// The resume after the fit (a new revision, unless nothing changed).
    pub state: DocState,
    /// The options set, the pages taken and asked, and what to cut when it does not fit.
    pub fit: redline_pdf::Fitted,
    /// The fit in a sentence (the revision's summary when it changed anything).
    pub summary: String,
}

/// What an export asks for.
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportRequest {
    /// The file format.
    pub format: Format,
    /// The look (HTML and PDF).
    pub template: Template,
    /// The paper size (HTML and PDF).
    pub page: Page,
}

/// A change to the words a resume is shown in (`meta.language`, `meta.headings`): the view and every
/// export use them.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum WordsChange {
    /// The resume's language, a BCP 47 tag (`de`, `pt-BR`); `null` for English.
    Language { tag: Option<String> },
    /// A section's heading (`section` is its key, `work`); `null` for the language's own.
    Heading {
        section: String,
        heading: Option<String>,
    },
}

/// The resume's pages as the PDF prints them, for the Page view. Sent as bytes, not JSON: this header's
/// JSON length (a little-endian `u32`), the header, then the PNG of each page the window does not have yet,
/// in page order ([`PageImages::to_bytes`]).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageImages {
    /// The pages drawn (at most `redline_pdf::MAX_PAGE_IMAGES`).
    pub pages: Vec<PageImage>,
    /// How many pages the PDF has.
    pub count: u32,
    /// Each page's size in points (1/72 in): width, height.
    pub width: f32,
    pub height: f32,
}

/// One page of [`PageImages`].
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct PageImage {
    /// The same key is the same picture: the window keeps the pages it has by key.
    pub key: String,
    /// The length of its PNG in the bytes after the header; 0 when the window said it has this page.
    pub bytes: u32,
}

impl PageImages {
    /// The header, then `pngs` (the pages with `bytes > 0`, in order), as the window reads them.
    pub fn to_bytes(&self, pngs: &[std::sync::Arc<[u8]>]) -> Vec<u8> {
        let header = serde_json::to_vec(self).expect("the header is plain data");
        let length = u32::try_from(header.len()).expect("a header of at most a dozen pages");
        let mut out =
            Vec::with_capacity(4 + header.len() + pngs.iter().map(|p| p.len()).sum::<usize>());
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(&header);
        for png in pngs {
            out.extend_from_slice(png);
        }
        out
    }
}

/// How an applicant tracking system reads the resume's PDF (`redline_pdf::ats`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AtsView {
    /// Pages in the PDF.
    pub pages: u32,
    /// What was read: the header (`basics`), then each section from its heading on.
    pub sections: Vec<AtsSection>,
    /// Fields whose text was not read back at all.
    pub missing: Vec<AtsFinding>,
    /// Fields read, but ahead of something the resume puts before them.
    pub out_of_order: Vec<AtsFinding>,
}

/// The text read for one part of the resume.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AtsSection {
    /// `basics`, `work`, `skills`, …
    pub id: String,
    /// Its heading in the PDF (empty for the header).
    pub heading: String,
    pub text: String,
}

/// A field that did not read back as the resume has it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct AtsFinding {
    pub section: String,
    /// `name`, `heading`, `title`, `dates`, `item`, `keyword`, …
    pub field: String,
    pub text: String,
}

impl From<redline_pdf::ats::Report> for AtsView {
    fn from(r: redline_pdf::ats::Report) -> Self {
        let finding = |f: redline_pdf::ats::Finding| AtsFinding {
            section: f.section,
            field: f.field,
            text: f.text,
        };
        AtsView {
            pages: u32::try_from(r.pages).unwrap_or(u32::MAX),
            sections: r
                .sections
                .into_iter()
                .map(|s| AtsSection {
                    id: s.id,
                    heading: s.heading,
                    text: s.text,
                })
                .collect(),
            missing: r.missing.into_iter().map(finding).collect(),
            out_of_order: r.out_of_order.into_iter().map(finding).collect(),
        }
    }
}

/// A finished export.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportDone {
    /// Where the file was written.
    pub path: String,
    /// Its size in bytes.
    #[ts(type = "number")]
    pub bytes: u64,
    /// The document's letters that no font on this computer has, bundled or the system's: a PDF prints
    /// them as nothing. Empty when every letter prints, and for the formats that carry text (HTML, Word…).
    pub unprintable: String,
}

/// A page of the document's conversation: its newest lines before a point, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatPage {
    /// The lines.
    pub lines: Vec<ChatLine>,
    /// When older lines come before these: the first line's place, to ask again with as `before`.
    #[ts(type = "number | null")]
    pub older: Option<i64>,
}

/// A message of the document's conversation, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatLine {
    /// Who said it.
    pub role: ChatRole,
    /// What was said.
    pub text: String,
}

/// Who said a line of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    User,
    Assistant,
}

/// What a finished turn did.
pub use redline_agent::TurnOutcome;

/// A resume in the documents list.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DocumentRow {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// Its title.
    pub title: String,
    /// The name on it (`basics.name` at its head), empty if none.
    pub name: String,
    /// Its last change, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub updated_at: i64,
    /// Its head revision.
    #[ts(type = "number")]
    pub revision: u64,
    /// It is the one on screen.
    pub current: bool,
    /// It is the demo's copy of the sample.
    pub demo: bool,
    /// For a variant: the title of the resume it was made from.
    pub variant_of: Option<String>,
    /// Why it cannot be opened, if it cannot.
    pub problem: Option<String>,
    /// A resume, or a cover letter.
    pub kind: redline_store::DocumentKind,
}

/// Where the resume on screen stands: which it is, its revision, and what Undo and Redo would do.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DocState {
    /// The document's id.
    #[ts(type = "number")]
    pub document_id: i64,
    /// Its title.
    pub title: String,
    /// It is the demo's copy of the sample.
    pub demo: bool,
    /// Its head revision.
    #[ts(type = "number")]
    pub revision: u64,
    /// What Undo would take back (the revision's summary), if anything.
    pub undo: Option<String>,
    /// What Redo would apply again, if anything.
    pub redo: Option<String>,
}

/// A file imported as a new resume, now on screen: what it was read as, and the lines of it that found no
/// place in the resume (shown to the user, never dropped in silence).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportDone {
    pub state: DocState,
    /// What the file was read as (its label in `IMPORT_FORMATS`: "PDF", "Word document", …).
    pub format: ImportFormat,
    pub unplaced: Vec<String>,
    /// Values read into a field they do not fit, left out and named (their text is among `unplaced`).
    pub misfits: Vec<redline_import::Misfit>,
}

/// A file read for the import review, nothing written yet: what it was read as, the resume read, and the
/// file's own lines beside it (the ones that found no place also listed on their own).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportPreview {
    /// The file's name, as the review's title says it.
    pub name: String,
    /// What it was read as (its label in `IMPORT_FORMATS`: "PDF", "Word document", …).
    pub format: ImportFormat,
    /// The resume read: valid JSON Resume.
    pub document: serde_json::Value,
    /// The file's lines in reading order (none for JSON Resume and LinkedIn's export, read by field).
    pub lines: Vec<String>,
    pub unplaced: Vec<String>,
    /// Values read into a field they do not fit, left out and named (their text is among `unplaced`).
    pub misfits: Vec<redline_import::Misfit>,
}

/// A file that was imported, as "Tidy with the model" needs it: its name and format, its own lines, and
/// the lines that found no place (an [`ImportPreview`] without the resume read, which the store has).
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct TidySource {
    pub name: String,
    pub format: ImportFormat,
    pub lines: Vec<String>,
    pub unplaced: Vec<String>,
}

impl From<&ImportPreview> for TidySource {
    fn from(preview: &ImportPreview) -> TidySource {
        TidySource {
            name: preview.name.clone(),
            format: preview.format,
            lines: preview.lines.clone(),
            unplaced: preview.unplaced.clone(),
        }
    }
}

/// Which page of the history the panel asks for.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct HistoryQuery {
    /// Revisions older than this one (from the newest when absent).
    #[ts(type = "number | null")]
    pub before: Option<u64>,
    /// At most this many (100 when absent; never more than 1,000).
    pub limit: Option<u32>,
    /// Only revisions whose words (or where they came from: `ai`, `user`, …) have each of these words.
    pub words: Option<String>,
}

/// A page of the history, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    /// The revisions.
    pub rows: Vec<HistoryRow>,
    /// Whether older ones match too (ask again with `before` the last row's number).
    pub more: bool,
    /// The head revision's number (the panel marks it "now").
    #[ts(type = "number")]
    pub head: u64,
}

/// One revision in the history panel.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryRow {
    /// Its number, from 1.
    #[ts(type = "number")]
    pub number: u64,
    /// When, milliseconds since the Unix epoch (the UI shows local time).
    #[ts(type = "number")]
    pub created_at: i64,
    /// Where it came from (`user`: made by hand).
    pub source: Source,
    /// What it did, in words.
    pub summary: String,
}

/// A revision as it was, and what it changed, in words.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RevisionView {
    /// Its number.
    #[ts(type = "number")]
    pub number: u64,
    /// The resume at that revision.
    #[ts(type = "unknown")]
    pub document: serde_json::Value,
    /// What it changed from the revision before, one line per operation, in words
    /// (`Add “Python” to the keywords of your skill “Web Development”`).
    pub changes: Vec<String>,
    /// Where it changed the resume (JSON Pointers into `document`), for highlighting in place.
    pub paths: Vec<String>,
}

/// One term of a job posting, and whether the resume has it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CoverageTerm {
    /// The term, lower-cased (`python`, `distributed systems`).
    pub term: String,
    /// How often the posting uses it.
    #[ts(type = "number")]
    pub count: usize,
    /// Whether the resume has it.
    pub found: bool,
}

/// A resume tailored to a job: the posting's terms the resume has and lacks (computed locally, no model),
/// and what tailoring changed since the copy was made from the master.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TailorView {
    /// The tailored copy.
    #[ts(type = "number")]
    pub document_id: i64,
    /// The resume it was made from, if it is still there.
    pub master: Option<String>,
    /// The posting's first line, for a heading.
    pub headline: String,
    /// The posting's terms, most used first.
    pub terms: Vec<CoverageTerm>,
    /// What tailoring changed since the copy was made, one line per operation, in words.
    pub changes: Vec<String>,
}

/// Facts about the running app that the UI shows.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    /// The app's version.
    pub version: String,
    /// The data folder in use.
    pub data_dir: String,
}

/// What one request for a turn's stream is answered with.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnMessages {
    /// The messages, in the order they were sent.
    pub items: Vec<TurnMessage>,
    /// The turn is over and this is the last of it.
    pub done: bool,
}

/// The provider as the settings show it: what is saved, and whether a key is set — never the key.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderView {
    /// The saved settings (the defaults if nothing was saved).
    pub settings: redline_agent::ProviderSettings,
    /// Whether anything was saved yet (false on a first run).
    pub saved: bool,
    /// Whether the keychain holds a key for this provider and host.
    pub key_set: bool,
    /// The keychain entry the key belongs to (`openai@api.openai.com`).
    pub key_for: String,
    /// Why the keychain could not be asked, if it could not (then the key may come from OPENAI_API_KEY).
    pub keychain_problem: Option<String>,
    /// Whether the environment chooses the server or the key (`REDLINE_BASE_URL`, `OPENAI_BASE_URL`,
    /// `OPENAI_API_KEY`), which then override the settings.
    pub from_env: bool,
}

/// Writes every IPC type's TypeScript declaration (with its dependencies) into `dir`.
pub fn export_bindings(dir: &std::path::Path) -> Result<(), ts_rs::ExportError> {
    let cfg = ts_rs::Config::new().with_out_dir(dir);
    SurfaceUpdate::export_all(&cfg)?;
    AppInfo::export_all(&cfg)?;
    Error::export_all(&cfg)?;
    ErrorKind::export_all(&cfg)?;
    ProviderView::export_all(&cfg)?;
    redline_agent::probe::ConnectionReport::export_all(&cfg)?;
    redline_agent::probe::LocalServer::export_all(&cfg)?;
    ChatEvent::export_all(&cfg)?;
    redline_agent::Held::export_all(&cfg)?;
    TurnOutcome::export_all(&cfg)?;
    ChatLine::export_all(&cfg)?;
    ChatPage::export_all(&cfg)?;
    ExportRequest::export_all(&cfg)?;
    ExportDone::export_all(&cfg)?;
    WordsChange::export_all(&cfg)?;
    AtsView::export_all(&cfg)?;
    PageImages::export_all(&cfg)?;
    TurnMessage::export_all(&cfg)?;
    PageImage::export_all(&cfg)?;
    DocumentRow::export_all(&cfg)?;
    DocState::export_all(&cfg)?;
    ImportDone::export_all(&cfg)?;
    ImportFormat::export_all(&cfg)?;
    ImportPreview::export_all(&cfg)?;
    TidySource::export_all(&cfg)?;
    HistoryRow::export_all(&cfg)?;
    HistoryQuery::export_all(&cfg)?;
    HistoryPage::export_all(&cfg)?;
    TurnMessages::export_all(&cfg)?;
    RevisionView::export_all(&cfg)?;
    TailorView::export_all(&cfg)?;
    crate::applications::Application::export_all(&cfg)?;
    crate::applications::NewApplication::export_all(&cfg)?;
    crate::applications::Sent::export_all(&cfg)?;
    redline_lint::Finding::export_all(&cfg)?;
    crate::sync::SyncSummary::export_all(&cfg)?;
    crate::sync::FolderChosen::export_all(&cfg)?;
    DesignInfo::export_all(&cfg)?;
    Design::export_all(&cfg)?;
    FitDone::export_all(&cfg)?;
    std::fs::write(dir.join("vocabulary.ts"), vocabulary())?;
    Ok(())
}

/// The value lists the window's menus and dialogs are built from, written beside the types as
/// `vocabulary.ts`, so that no list of names is copied by hand in the UI.
fn vocabulary() -> String {
    use std::fmt::Write as _;
    let mut imports = String::new();
    let mut body = String::new();
    let mut choices = |name: &str, ty: &str, items: Vec<(&str, &str)>| {
        let _ = writeln!(imports, "import type {{ {ty} }} from \"./{ty}\";");
        // One line a list: the lists are short, and a line an item would repeat one shape four times.
        let items: Vec<String> = items
            .into_iter()
            .map(|(value, label)| format!("{{ value: {value:?}, label: {label:?} }}"))
            .collect();
        let _ = writeln!(
            body,
            "\nexport const {name}: readonly {{ value: {ty}; label: string }}[] = [{}];",
            items.join(", ")
        );
    };
    choices(
        "FORMATS",
        "Format",
        Format::ALL.iter().map(|f| (f.name(), f.label())).collect(),
    );
    choices(
        "IMPORT_FORMATS",
        "ImportFormat",
        ImportFormat::ALL
            .iter()
            .map(|f| (f.name(), f.label()))
            .collect(),
    );
    choices(
        "TEMPLATES",
        "Template",
        Template::ALL
            .iter()
            .map(|t| (t.name(), t.label()))
            .collect(),
    );
    choices(
        "PAGES",
        "Page",
        Page::ALL.iter().map(|p| (p.name(), p.label())).collect(),
    );
    // Each design's own accent colour: the design panel's colour field starts there.
    let accents: Vec<String> = Template::ALL
        .iter()
        .map(|&t| {
            let accent = redline_resume::design::Style::of(t).accent;
            format!("{:?}: {accent:?}", t.name())
        })
        .collect();
    let _ = writeln!(
        body,
        "\nexport const TEMPLATE_ACCENTS: Readonly<Record<Template, string>> = {{ {} }};",
        accents.join(", ")
    );
    format!(
        "// Generated from crates/engine/src/ipc.rs (`vocabulary`) with the other bindings. Do not edit this file manually.\n\n{imports}{body}"
    )
}
