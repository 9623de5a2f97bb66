//! LinkedIn's data export (the `.zip` LinkedIn sends): `Profile.csv`, `Positions.csv`, `Education.csv`,
//! `Skills.csv`, `Languages.csv`, `Projects.csv`, `Certifications.csv`, `Honors.csv`, `Publications.csv`,
//! `Volunteering.csv`, `Email Addresses.csv`, `PhoneNumbers.csv` — whatever it holds — read by their
//! columns' names. The rest of the export (messages, connections, …) is not a resume's and is never read;
//! its files are named in the list of what was not placed.

use serde_json::{Map, Value, json};

use crate::bounds::{grouped, refused};
use crate::dates;
use crate::zipped::Archive;
use crate::{Format, ImportError, Read, Section};

/// The most columns a row of a CSV file may have: LinkedIn's widest file (`Profile.csv`) has 13; each
/// field becomes an entry of a map, some 100 bytes however short it is.
pub const MAX_COLUMNS: usize = 64;

/// The most rows one CSV file may have: LinkedIn keeps 100 skills and a career has tens of positions.
pub const MAX_ROWS: usize = 2_000;

/// The most fields all the files read may hold: 30 times a long career's, some 10 MB as maps.
pub const MAX_FIELDS: usize = 100_000;

/// The longest field: LinkedIn's longest (a summary, a description) is 2,600 characters.
pub const MAX_FIELD_BYTES: usize = 64 << 10;

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

/// One CSV file's rows, each a map from its column's name (lower case) to its value; `fields` counts the
/// fields of all the files read so far. A file past [`MAX_COLUMNS`], [`MAX_ROWS`], [`MAX_FIELD_BYTES`] or
/// [`MAX_FIELDS`] is refused as it is read.
fn rows(file: &str, text: &str, fields: &mut usize) -> Result<Vec<Row>, ImportError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let Ok(headers) = reader.headers() else {
        return Ok(Vec::new());
    };
    within_bounds(file, headers, 0, *fields)?;
    let headers: Vec<String> = headers.iter().map(|h| h.trim().to_lowercase()).collect();
    let mut rows = Vec::new();
    for record in reader.records() {
        let Ok(record) = record else { continue };
        within_bounds(file, &record, rows.len() + 1, *fields)?;
        *fields += record.len();
        let row: Row = headers
            .iter()
            .zip(record.iter())
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(h, v)| (h.clone(), json!(v.trim())))
            .collect();
        rows.push(row);
    }
    Ok(rows)
}

/// The record `record`, the `row`th of `file` (0 for its header), with `fields` read before it: refused
/// past a bound.
fn within_bounds(
    file: &str,
    record: &csv::StringRecord,
    row: usize,
    fields: usize,
) -> Result<(), ImportError> {
    let (crossed, most) = if record.len() > MAX_COLUMNS {
        (
            format!("has a row of more than {MAX_COLUMNS} columns in {file}"),
            format!("{MAX_COLUMNS} columns"),
        )
    } else if row > MAX_ROWS {
        (
            format!("has more than {} rows in {file}", grouped(MAX_ROWS)),
            format!("{} rows a file", grouped(MAX_ROWS)),
        )
    } else if fields + record.len() > MAX_FIELDS {
        (
            format!("has more than {} fields", grouped(MAX_FIELDS)),
            format!("{} fields", grouped(MAX_FIELDS)),
        )
    } else if record.iter().any(|field| field.len() > MAX_FIELD_BYTES) {
        (
            format!(
                "has a field of more than {} KB in {file}",
                MAX_FIELD_BYTES >> 10
            ),
            format!("{} KB a field", MAX_FIELD_BYTES >> 10),
        )
    } else {
        return Ok(());
    };
    Err(refused(Format::Linkedin, &crossed, &most))
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
    let mut sections: Vec<(Section, Vec<Row>)> = ENTRIES
        .iter()
        .map(|(section, file, fields)| (*section, entries(files.rows(file), fields)))
        .collect();
    // Skills are one entry of all the rows, listed where JSON Resume lists them: after publications.
    let after = sections
        .iter()
        .position(|(s, _)| *s == Section::Publications);
    let at = after.map_or(sections.len(), |i| i + 1);
    sections.insert(at, (Section::Skills, skills(files.rows("Skills.csv"))));
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
    let mut fields = 0;
    for name in &names {
        let file = base(name);
        match READ.iter().find(|r| **r == file) {
            Some(known) => {
                let text = archive.text(name)?.unwrap_or_default();
                files.push((*known, rows(known, &text, &mut fields)?));
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

/// Where an entry's field is read from in a row of a CSV.
enum Column {
    /// The text of the first of these columns the row has.
    Text(&'static [&'static str]),
    /// A date, from the first of these columns.
    Date(&'static [&'static str]),
    /// `startDate` and `endDate`, from the row's start and finish.
    Dates,
    /// A list of one item, the text of this column (Education's notes as a course).
    One(&'static str),
    /// A description: its lines that open with a bullet are the entry's highlights, the rest its summary.
    Described,
}

/// An entry's fields, each with where it is read from, in the order JSON Resume lists them.
type Fields = &'static [(&'static str, Column)];

/// The sections made of one entry a row: each from its file, each field from its columns.
const ENTRIES: &[(Section, &str, Fields)] = &[
    (
        Section::Work,
        "Positions.csv",
        &[
            ("name", Column::Text(&["company name", "company"])),
            ("position", Column::Text(&["title"])),
            ("location", Column::Text(&["location"])),
            ("", Column::Dates),
            ("", Column::Described),
        ],
    ),
    (
        Section::Volunteer,
        "Volunteering.csv",
        &[
            (
                "organization",
                Column::Text(&["company name", "organization"]),
            ),
            ("position", Column::Text(&["role"])),
            ("", Column::Dates),
            ("", Column::Described),
        ],
    ),
    (
        Section::Education,
        "Education.csv",
        &[
            ("institution", Column::Text(&["school name", "school"])),
            ("studyType", Column::Text(&["degree name", "degree"])),
            ("area", Column::Text(&["field of study"])),
            ("", Column::Dates),
            ("courses", Column::One("notes")),
        ],
    ),
    (
        Section::Awards,
        "Honors.csv",
        &[
            ("title", Column::Text(&["title"])),
            ("date", Column::Date(&["issued on"])),
            ("summary", Column::Text(&["description"])),
        ],
    ),
    (
        Section::Certificates,
        "Certifications.csv",
        &[
            ("name", Column::Text(&["name"])),
            ("issuer", Column::Text(&["authority"])),
            ("url", Column::Text(&["url"])),
            ("date", Column::Date(&["started on"])),
        ],
    ),
    (
        Section::Publications,
        "Publications.csv",
        &[
            ("name", Column::Text(&["name"])),
            ("publisher", Column::Text(&["publisher"])),
            ("url", Column::Text(&["url"])),
            ("releaseDate", Column::Date(&["published on"])),
            ("summary", Column::Text(&["description"])),
        ],
    ),
    (
        Section::Languages,
        "Languages.csv",
        &[
            ("language", Column::Text(&["name"])),
            ("fluency", Column::Text(&["proficiency"])),
        ],
    ),
    (
        Section::Projects,
        "Projects.csv",
        &[
            ("name", Column::Text(&["title"])),
            ("description", Column::Text(&["description"])),
            ("url", Column::Text(&["url"])),
            ("", Column::Dates),
        ],
    ),
];

/// `rows` as entries with `fields`.
fn entries(rows: &[Row], fields: Fields) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut m = Map::new();
            for (field, column) in fields {
                match column {
                    Column::Text(columns) => put(&mut m, field, get(r, columns)),
                    Column::Date(columns) => put(&mut m, field, &date(get(r, columns))),
                    Column::Dates => dated(&mut m, r),
                    Column::Described => described(&mut m, get(r, &["description"])),
                    Column::One(column) => {
                        let text = get(r, &[column]).trim();
                        if !text.is_empty() {
                            m.insert((*field).into(), json!([text]));
                        }
                    }
                }
            }
            m
        })
        .collect()
}

/// A position's description into `m`: the lines that open with a bullet as its highlights, the others
/// (joined) as its summary.
fn described(m: &mut Row, description: &str) {
    let mut summary = Vec::new();
    let mut highlights = Vec::new();
    for line in description.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match crate::structure::strip_bullet(line) {
            Some(item) => highlights.push(json!(item.trim())),
            None => summary.push(line),
        }
    }
    put(m, "summary", &summary.join(" "));
    if !highlights.is_empty() {
        m.insert("highlights".into(), Value::Array(highlights));
    }
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
