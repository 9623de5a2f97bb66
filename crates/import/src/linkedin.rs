//! LinkedIn's data export (the `.zip` LinkedIn sends): `Profile.csv`, `Positions.csv`, `Education.csv`,
//! `Skills.csv`, `Languages.csv`, `Projects.csv`, `Certifications.csv`, `Honors.csv`, `Publications.csv`,
//! `Volunteering.csv`, `Email Addresses.csv`, `PhoneNumbers.csv` — whatever it holds — read by their
//! columns' names. The rest of the export (messages, connections, …) is not a resume's and is never read;
//! its files are named in the list of what was not placed.

use serde_json::{Map, Value, json};

use crate::dates;
use crate::zipped::Archive;
use crate::{ImportError, Read, Section};

/// The files a LinkedIn export has that make a resume.
const READ: &[&str] = &[
    "Profile.csv",
    "Positions.csv",
    "Education.csv",
    "Skills.csv",
    "Languages.csv",
    "Projects.csv",
    "Certifications.csv",
    "Honors.csv",
    "Publications.csv",
    "Volunteering.csv",
    "Email Addresses.csv",
    "PhoneNumbers.csv",
];

/// Whether the archive's files say it is a LinkedIn export.
pub fn is_export(names: &[String]) -> bool {
    names
        .iter()
        .any(|n| base(n) == "Profile.csv" || base(n) == "Positions.csv")
}

fn base(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// One row of a CSV file: a map from its column's name (lower case) to its value; or one item of a section,
/// from its field's name to its value.
type Row = Map<String, Value>;

/// One CSV file's rows, each a map from its column's name (lower case) to its value.
fn rows(text: &str) -> Vec<Row> {
    // LinkedIn puts notes above some files' header ("Notes:\n…"): the header is the first line with a comma.
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let Ok(headers) = reader.headers().cloned() else {
        return Vec::new();
    };
    let headers: Vec<String> = headers.iter().map(|h| h.trim().to_lowercase()).collect();
    reader
        .records()
        .filter_map(Result::ok)
        .map(|record| {
            headers
                .iter()
                .zip(record.iter())
                .filter(|(_, v)| !v.trim().is_empty())
                .map(|(h, v)| (h.clone(), json!(v.trim())))
                .collect()
        })
        .collect()
}

fn get<'a>(row: &'a Row, keys: &[&str]) -> &'a str {
    keys.iter()
        .find_map(|k| row.get(*k).and_then(Value::as_str))
        .unwrap_or("")
}

fn put(m: &mut Row, key: &str, value: &str) {
    if !value.trim().is_empty() {
        m.insert(key.into(), json!(value.trim()));
    }
}

/// A LinkedIn date (`Jan 2020`, `2020`, `01/15/2020`) as JSON Resume's.
fn date(text: &str) -> String {
    dates::find(text).map(|s| s.start).unwrap_or_default()
}

fn dated(m: &mut Row, row: &Row) {
    put(
        m,
        "startDate",
        &date(get(row, &["started on", "start date"])),
    );
    put(m, "endDate", &date(get(row, &["finished on", "end date"])));
}

/// The export in `archive` as a resume.
pub fn read(archive: &mut Archive) -> Result<Read, ImportError> {
    let (files, unplaced) = files(archive)?;
    let mut document = Map::new();
    document.insert(Section::Basics.key().into(), Value::Object(basics(&files)));
    let sections = [
        (Section::Work, work(files.rows("Positions.csv"))),
        (
            Section::Volunteer,
            volunteer(files.rows("Volunteering.csv")),
        ),
        (Section::Education, education(files.rows("Education.csv"))),
        (Section::Awards, awards(files.rows("Honors.csv"))),
        (
            Section::Certificates,
            certificates(files.rows("Certifications.csv")),
        ),
        (
            Section::Publications,
            publications(files.rows("Publications.csv")),
        ),
        (Section::Skills, skills(files.rows("Skills.csv"))),
        (Section::Languages, languages(files.rows("Languages.csv"))),
        (Section::Projects, projects(files.rows("Projects.csv"))),
    ];
    for (section, items) in sections {
        let items: Vec<Value> = items
            .into_iter()
            .filter(|m| !m.is_empty())
            .map(Value::Object)
            .collect();
        if !items.is_empty() {
            document.insert(section.key().into(), Value::Array(items));
        }
    }
    Ok(Read {
        document: Value::Object(document),
        unplaced,
    })
}

/// The export's files that make a resume, each read into its rows.
struct Files(Vec<(&'static str, Vec<Row>)>);

impl Files {
    /// The rows of `file`; none where the export has no such file.
    fn rows(&self, file: &str) -> &[Row] {
        self.0
            .iter()
            .find(|(f, _)| *f == file)
            .map_or(&[], |(_, rows)| rows.as_slice())
    }
}

/// The files in `archive` that make a resume ([`READ`]), read; and the names of the others, listed as not
/// placed.
fn files(archive: &mut Archive) -> Result<(Files, Vec<String>), ImportError> {
    let names = archive.names();
    let mut files = Vec::new();
    let mut unplaced = Vec::new();
    for name in &names {
        let file = base(name);
        match READ.iter().find(|r| **r == file) {
            Some(known) => {
                let text = archive.text(name)?.unwrap_or_default();
                files.push((*known, rows(&text)));
            }
            None if name.ends_with('/') => {}
            None => unplaced.push(format!("{name} (not read: not part of a resume)")),
        }
    }
    Ok((Files(files), unplaced))
}

/// The basics: the profile's name, headline, summary, place, site and Twitter handle; the primary email
/// address; the first phone number.
fn basics(files: &Files) -> Row {
    let mut basics = Map::new();
    if let Some(p) = files.rows("Profile.csv").first() {
        profile(p, &mut basics);
    }
    let email = files
        .rows("Email Addresses.csv")
        .iter()
        .find(|r| get(r, &["primary"]).eq_ignore_ascii_case("yes"))
        .or_else(|| files.rows("Email Addresses.csv").first())
        .map(|r| get(r, &["email address"]))
        .unwrap_or("");
    put(&mut basics, "email", email);
    if let Some(phone) = files.rows("PhoneNumbers.csv").first() {
        put(&mut basics, "phone", get(phone, &["number"]));
    }
    basics
}

/// The profile's row `p` into `basics`.
fn profile(p: &Row, basics: &mut Row) {
    let name = format!("{} {}", get(p, &["first name"]), get(p, &["last name"]));
    put(basics, "name", &name);
    put(basics, "label", get(p, &["headline"]));
    put(basics, "summary", get(p, &["summary"]));
    let place = get(p, &["geo location", "location"]);
    if !place.is_empty() {
        basics.insert("location".into(), json!({"city": place}));
    }
    let websites = get(p, &["websites"]);
    for site in websites.trim_matches(['[', ']']).split(',') {
        // `[PORTFOLIO:https://…]` or a bare address.
        let url = site
            .split_once(':')
            .filter(|(kind, _)| !kind.starts_with("http"))
            .map_or(site, |(_, url)| url)
            .trim();
        if url.starts_with("http") && !basics.contains_key("url") {
            put(basics, "url", url);
        }
    }
    let twitter = get(p, &["twitter handles"]).trim_matches(['[', ']']);
    if !twitter.is_empty() {
        basics.insert(
            "profiles".into(),
            json!([{"network": "Twitter", "username": twitter.trim_start_matches('@')}]),
        );
    }
}

/// `Positions.csv`'s rows as jobs.
fn work(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "name", get(r, &["company name", "company"]));
            put(&mut m, "position", get(r, &["title"]));
            put(&mut m, "location", get(r, &["location"]));
            dated(&mut m, r);
            put(&mut m, "summary", get(r, &["description"]));
            m
        })
        .collect()
}

/// `Volunteering.csv`'s rows as volunteers' roles.
fn volunteer(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(
                &mut m,
                "organization",
                get(r, &["company name", "organization"]),
            );
            put(&mut m, "position", get(r, &["role"]));
            dated(&mut m, r);
            put(&mut m, "summary", get(r, &["description"]));
            m
        })
        .collect()
}

/// `Education.csv`'s rows as educations, their notes as a course.
fn education(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "institution", get(r, &["school name", "school"]));
            put(&mut m, "studyType", get(r, &["degree name", "degree"]));
            put(&mut m, "area", get(r, &["field of study"]));
            dated(&mut m, r);
            let notes = get(r, &["notes"]);
            if !notes.is_empty() {
                m.insert("courses".into(), json!([notes]));
            }
            m
        })
        .collect()
}

/// `Honors.csv`'s rows as awards.
fn awards(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "title", get(r, &["title"]));
            put(&mut m, "date", &date(get(r, &["issued on"])));
            put(&mut m, "summary", get(r, &["description"]));
            m
        })
        .collect()
}

/// `Certifications.csv`'s rows as certificates.
fn certificates(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "name", get(r, &["name"]));
            put(&mut m, "issuer", get(r, &["authority"]));
            put(&mut m, "url", get(r, &["url"]));
            put(&mut m, "date", &date(get(r, &["started on"])));
            m
        })
        .collect()
}

/// `Publications.csv`'s rows as publications.
fn publications(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "name", get(r, &["name"]));
            put(&mut m, "publisher", get(r, &["publisher"]));
            put(&mut m, "url", get(r, &["url"]));
            put(&mut m, "releaseDate", &date(get(r, &["published on"])));
            put(&mut m, "summary", get(r, &["description"]));
            m
        })
        .collect()
}

/// `Skills.csv`'s rows as one skill, each row's name a keyword of it; none when there are none.
fn skills(rows: &[Row]) -> Vec<Row> {
    let skills: Vec<String> = rows
        .iter()
        .map(|r| get(r, &["name"]).to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    if skills.is_empty() {
        return Vec::new();
    }
    let mut m = Map::new();
    m.insert("keywords".into(), json!(skills));
    vec![m]
}

/// `Languages.csv`'s rows as languages.
fn languages(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "language", get(r, &["name"]));
            put(&mut m, "fluency", get(r, &["proficiency"]));
            m
        })
        .collect()
}

/// `Projects.csv`'s rows as projects.
fn projects(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            put(&mut m, "name", get(r, &["title"]));
            put(&mut m, "description", get(r, &["description"]));
            put(&mut m, "url", get(r, &["url"]));
            dated(&mut m, r);
            m
        })
        .collect()
}
