//! Job applications: where each resume and letter went. An application pins the exact revisions of the
//! resume and letter that were sent (their heads when it is recorded), so that the same files can be made
//! again later (`Engine::render_sent`, with the exports); it moves through stages on a dated timeline; the whole list goes out to a spreadsheet and
//! comes back in as CSV, with the columns a spreadsheet user expects ([`COLUMNS`]).
//!
//! A CSV file is untrusted input: its size, its rows and each field are bounded, and a refusal names the
//! row. What goes out is safe to open in a spreadsheet: a cell that would start a formula (`=`, `+`, `-`,
//! `@`, a tab or a carriage return) is written after a quote, as OWASP advises, and read back without it.

/// An application's types, as the front doors use them.
pub use redline_store::{
    Application, MAX_POSTING_CHARS, NewApplication, Pinned, Stage, StageChange,
};

use redline_store::DocumentKind;

use super::Engine;
use crate::error::{Error, ErrorKind};

/// Which of the documents an application sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Sent {
    /// The resume.
    Resume,
    /// The cover letter.
    Letter,
}

impl Sent {
    /// Its name in a sentence.
    pub fn word(self) -> &'static str {
        match self {
            Sent::Resume => "resume",
            Sent::Letter => "letter",
        }
    }
}

/// The CSV's columns, in order.
pub const COLUMNS: [&str; 10] = [
    "Company",
    "Role",
    "Stage",
    "Applied",
    "Follow-up",
    "Salary",
    "Source",
    "Contacts",
    "Notes",
    "Tags",
];

/// The largest CSV file read, in bytes.
pub const MAX_CSV_BYTES: usize = 8 << 20;
/// The most rows a CSV file may hold (a job search is a few hundred).
pub const MAX_CSV_ROWS: usize = 10_000;

/// A new application as a front door asks for it: its fields, and the resume and letter sent (each pinned
/// at its head revision).
#[derive(Debug, Clone, Default)]
pub struct ApplicationAsk {
    /// Company, role, posting, stage, dates and the rest.
    pub fields: NewApplication,
    /// The resume sent.
    pub resume: Option<i64>,
    /// The letter sent.
    pub letter: Option<i64>,
}

impl Engine {
    /// Records an application, pinning the head revisions of the resume and letter named.
    pub async fn add_application(&self, ask: ApplicationAsk) -> Result<Application, Error> {
        let mut open = self.open()?.lock().await;
        let pin = |id: i64| -> Result<Pinned, Error> {
            Ok(Pinned {
                document_id: id,
                revision: open.store.document(id)?.head_revision,
            })
        };
        let mut fields = ask.fields;
        fields.resume = ask.resume.map(pin).transpose()?;
        fields.letter = ask.letter.map(pin).transpose()?;
        let id = open.store.add_application(&fields)?;
        Ok(open.store.application(id)?)
    }

    /// Records an application from the window: with `pin`, the document on screen is pinned as sent at
    /// its head revision — a resume as the resume; a letter as the letter, with the resume that sends it.
    pub async fn add_application_on_screen(
        &self,
        fields: NewApplication,
        pin: bool,
    ) -> Result<Application, Error> {
        let (resume, letter) = match pin {
            false => (None, None),
            true => {
                let open = self.open()?.lock().await;
                let shown = open.store.document(open.document_id)?;
                match shown.kind {
                    DocumentKind::Letter => (shown.resume_id, Some(shown.id)),
                    DocumentKind::Resume => (Some(shown.id), None),
                }
            }
        };
        self.add_application(ApplicationAsk {
            fields,
            resume,
            letter,
        })
        .await
    }

    /// Every application, most recently changed first.
    pub async fn applications(&self) -> Result<Vec<Application>, Error> {
        let open = self.open()?.lock().await;
        Ok(open.store.applications()?)
    }

    /// One application, with its timeline.
    pub async fn application(&self, id: i64) -> Result<Application, Error> {
        let open = self.open()?.lock().await;
        Ok(open.store.application(id)?)
    }

    /// Moves application `id` to `stage` on `date` (`YYYY-MM-DD`; today when `None`).
    pub async fn move_application(
        &self,
        id: i64,
        stage: Stage,
        date: Option<&str>,
    ) -> Result<Application, Error> {
        let mut open = self.open()?.lock().await;
        Ok(open.store.move_application(id, stage, date)?)
    }

    /// Every application as CSV ([`COLUMNS`]), safe to open in a spreadsheet, with how many rows it has
    /// (a cell may hold line breaks: lines are not rows).
    pub async fn applications_csv(&self) -> Result<(String, usize), Error> {
        let mut list = self.applications().await?;
        // Oldest first, as a spreadsheet grows: a file imported and exported again reads the same.
        list.sort_by_key(|a| a.id);
        Ok((to_csv(&list)?, list.len()))
    }

    /// Records every application of the CSV `text` (a header row, then one application a row), or none:
    /// a row that is refused is named. Returns the new ids.
    pub async fn import_applications_csv(&self, text: &str) -> Result<Vec<i64>, Error> {
        let news = from_csv(text)?;
        let mut open = self.open()?.lock().await;
        // Row 1 is the header.
        Ok(open.store.add_applications(&news, 2)?)
    }
}

/// `cell` as a spreadsheet may open it: one that would start a formula is written after a quote.
fn safe_cell(cell: &str) -> String {
    match cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        true => format!("'{cell}"),
        false => cell.to_owned(),
    }
}

/// A cell as it was before [`safe_cell`].
fn unsafe_cell(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
        _ => cell,
    }
}

fn internal(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Internal, e.to_string())
}

/// `list` as CSV.
fn to_csv(list: &[Application]) -> Result<String, Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(COLUMNS).map_err(internal)?;
    for a in list {
        let row = [
            a.company.as_str(),
            a.role.as_str(),
            a.stage.as_str(),
            a.applied_on().unwrap_or_default(),
            a.follow_up.as_deref().unwrap_or_default(),
            a.salary.as_str(),
            a.source.as_str(),
            a.contacts.as_str(),
            a.notes.as_str(),
            &a.tags.join(", "),
        ];
        writer
            .write_record(row.iter().map(|c| safe_cell(c)))
            .map_err(internal)?;
    }
    let bytes = writer.into_inner().map_err(internal)?;
    String::from_utf8(bytes).map_err(internal)
}

fn refused(message: String) -> Error {
    Error::new(ErrorKind::Invalid, message)
}

/// The applications of a CSV file, each row read into one; the first row names the columns (any order,
/// any case; Company and Role are needed, unknown columns are left out).
fn from_csv(text: &str) -> Result<Vec<NewApplication>, Error> {
    if text.len() > MAX_CSV_BYTES {
        return Err(refused(format!(
            "the file is larger than {} MB, far more than any list of applications; nothing was imported",
            MAX_CSV_BYTES >> 20
        )));
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| {
            refused(format!(
                "the first row cannot be read as CSV ({e}); nothing was imported"
            ))
        })?
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    let column = |name: &str| headers.iter().position(|h| h == &name.to_lowercase());
    let (Some(_), Some(_)) = (column("Company"), column("Role")) else {
        return Err(refused(
            "the first row must name the columns, Company and Role among them; nothing was imported"
                .to_owned(),
        ));
    };
    let at: Vec<Option<usize>> = COLUMNS.iter().map(|c| column(c)).collect();
    let mut news = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let row = i + 2;
        if news.len() == MAX_CSV_ROWS {
            return Err(refused(format!(
                "the file has more than {MAX_CSV_ROWS} applications; nothing was imported"
            )));
        }
        let record = record.map_err(|e| {
            refused(format!(
                "row {row} cannot be read as CSV ({e}); nothing was imported"
            ))
        })?;
        let cell = |c: usize| {
            at[c]
                .and_then(|i| record.get(i))
                .map(|v| unsafe_cell(v.trim()).to_owned())
                .unwrap_or_default()
        };
        if record.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        news.push(row_to_new(row, cell)?);
    }
    Ok(news)
}

/// One row's application; `cell(c)` is the text of column [`COLUMNS`]`[c]`.
fn row_to_new(row: usize, cell: impl Fn(usize) -> String) -> Result<NewApplication, Error> {
    let stage = match cell(2) {
        s if s.is_empty() => Stage::Saved,
        s => Stage::parse(&s).ok_or_else(|| {
            refused(format!(
                "row {row}: the stage “{}” is none of saved, applied, interviewing, offer, rejected, withdrawn; nothing was imported",
                redline_resume::shorten(&s, 40)
            ))
        })?,
    };
    let applied = cell(3);
    let timeline = match applied.is_empty() {
        true => Vec::new(),
        false => vec![StageChange {
            stage: Stage::Applied,
            date: applied.clone(),
        }],
    };
    let follow_up = cell(4);
    Ok(NewApplication {
        company: cell(0),
        role: cell(1),
        stage: Some(stage),
        timeline,
        // A row at "applied" keeps its date as the stage's own.
        date: (stage == Stage::Applied && !applied.is_empty()).then_some(applied),
        follow_up: (!follow_up.is_empty()).then_some(follow_up),
        salary: cell(5),
        source: cell(6),
        contacts: cell(7),
        notes: cell(8),
        tags: cell(9)
            .split([',', ';'])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        ..NewApplication::default()
    })
}

#[cfg(test)]
mod tests {
    use redline_resume::export::{Format, Page, Template};
    use serde_json::json;

    use super::*;
    use crate::ipc::ExportRequest;

    fn replace(path: &str, value: &str) -> Vec<redline_patch::Operation> {
        serde_json::from_value(json!([{"op": "replace", "path": path, "value": value}])).unwrap()
    }

    /// The letter and resume an application sent are made again as they were sent, byte for byte, after
    /// both have changed; a letter on screen is pinned with its resume; what was not pinned is said.
    #[tokio::test]
    async fn what_an_application_sent_is_made_again_byte_for_byte_after_later_edits() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let resume = engine.state().await.unwrap().document_id;
        let letter = crate::letters::tests::letter_on_screen(
            &engine,
            &["I am writing to apply for the Engineer position at Hooli."],
        )
        .await;
        let fields = NewApplication {
            company: "Hooli".into(),
            role: "Engineer".into(),
            ..NewApplication::default()
        };
        let sent = engine
            .add_application_on_screen(fields.clone(), true)
            .await
            .unwrap();
        assert_eq!(sent.letter.map(|p| p.document_id), Some(letter));
        assert_eq!(sent.resume.map(|p| p.document_id), Some(resume));

        let request = ExportRequest {
            format: Format::Pdf,
            template: Template::Modern,
            page: Page::Letter,
        };
        let remade = async |what| engine.render_sent(sent.id, what, request).await.unwrap().0;
        let (letter_then, resume_then) = (remade(Sent::Letter).await, remade(Sent::Resume).await);
        // Later: the letter is reworded and the resume's person renamed (the letter's sender).
        let head = engine.state().await.unwrap().revision;
        engine
            .edit(
                head,
                replace("/paragraphs/0", "Another opening."),
                &mut |_| {},
            )
            .await
            .unwrap();
        engine.switch(resume, &mut |_| {}).await.unwrap();
        let head = engine.state().await.unwrap().revision;
        engine
            .edit(head, replace("/basics/name", "Dick Hendriks"), &mut |_| {})
            .await
            .unwrap();
        assert_eq!(remade(Sent::Letter).await, letter_then);
        assert_eq!(remade(Sent::Resume).await, resume_then);
        assert_ne!(
            engine.render_of(letter, request).await.unwrap(),
            letter_then
        );

        // Only the resume pinned: no letter to make again, in words; nothing pinned from a resume's screen
        // but the resume.
        let plain = engine
            .add_application_on_screen(fields, true)
            .await
            .unwrap();
        assert_eq!(plain.resume.map(|p| p.document_id), Some(resume));
        assert!(plain.letter.is_none());
        let none = engine
            .render_sent(plain.id, Sent::Letter, request)
            .await
            .unwrap_err();
        assert_eq!(none.kind, ErrorKind::NotFound);
        assert!(none.message.contains("pinned no letter"), "{none:?}");
    }

    #[test]
    fn a_cell_that_would_start_a_formula_is_quoted_and_read_back() {
        for cell in ["=HYPERLINK(\"x\")", "+1", "-5%", "@SUM(A1)", "\tx"] {
            assert_eq!(safe_cell(cell), format!("'{cell}"));
            assert_eq!(unsafe_cell(&safe_cell(cell)), cell);
        }
        assert_eq!(safe_cell("Initech"), "Initech");
        assert_eq!(unsafe_cell("'quoted"), "'quoted");
    }

    #[test]
    fn a_bad_row_is_named_and_nothing_is_read() {
        let text = "Company,Role,Stage\nInitech,Engineer,applied\nGlobex,Analyst,ghosted\n";
        let err = from_csv(text).unwrap_err();
        assert!(
            err.message.starts_with("row 3: the stage “ghosted”"),
            "{}",
            err.message
        );
        let err = from_csv("Name,Title\nx,y\n").unwrap_err();
        assert!(err.message.contains("Company and Role"), "{}", err.message);
        let many = format!("Company,Role\n{}", "a,b\n".repeat(MAX_CSV_ROWS + 1));
        assert!(
            from_csv(&many)
                .unwrap_err()
                .message
                .contains("more than 10000")
        );
    }
}
