//! LinkedIn's data export (the `.zip` LinkedIn sends): `Profile.csv`, `Positions.csv`, `Education.csv`,
//! `Skills.csv`, `Languages.csv`, `Projects.csv`, `Certifications.csv`, `Honors.csv`, `Publications.csv`,
//! `Volunteering.csv`, `Email Addresses.csv`, `PhoneNumbers.csv` — whatever it holds — read by their
//! columns' names. The rest of the export (messages, connections, …) is not a resume's and is never read;
//! its files are named in the list of what was not placed.

use serde_json::{Map, Value, json};

use crate::dates;
use crate::zipped::Archive;
use crate::{ImportError, Read};

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

/// One CSV file's rows, each a map from its column's name (lower case) to its value.
fn rows(text: &str) -> Vec<Map<String, Value>> {
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

fn get<'a>(row: &'a Map<String, Value>, keys: &[&str]) -> &'a str {
    keys.iter()
        .find_map(|k| row.get(*k).and_then(Value::as_str))
        .unwrap_or("")
}

fn put(m: &mut Map<String, Value>, key: &str, value: &str) {
    if !value.trim().is_empty() {
        m.insert(key.into(), json!(value.trim()));
    }
}

/// A LinkedIn date (`Jan 2020`, `2020`, `01/15/2020`) as JSON Resume's.
fn date(text: &str) -> String {
    dates::find(text).map(|s| s.start).unwrap_or_default()
}

fn dated(m: &mut Map<String, Value>, row: &Map<String, Value>) {
    put(
        m,
        "startDate",
        &date(get(row, &["started on", "start date"])),
    );
    put(m, "endDate", &date(get(row, &["finished on", "end date"])));
}

/// The export in `archive` as a resume.
pub fn read(archive: &mut Archive) -> Result<Read, ImportError> {
    let names = archive.names();
    let mut files: Vec<(&str, Vec<Map<String, Value>>)> = Vec::new();
    let mut unplaced = Vec::new();
    for name in &names {
        let file = base(name);
        match READ.iter().find(|r| **r == file) {
            Some(known) => {
                let text = archive.text(name)?.unwrap_or_default();
                files.push((known, rows(&text)));
            }
            None if name.ends_with('/') => {}
            None => unplaced.push(format!("{name} (not read: not part of a resume)")),
        }
    }
    let rows_of = |file: &str| -> &[Map<String, Value>] {
        files
            .iter()
            .find(|(f, _)| *f == file)
            .map_or(&[], |(_, rows)| rows.as_slice())
    };
    let mut basics = Map::new();
    if let Some(p) = rows_of("Profile.csv").first() {
        let name = format!("{} {}", get(p, &["first name"]), get(p, &["last name"]));
        put(&mut basics, "name", &name);
        put(&mut basics, "label", get(p, &["headline"]));
        put(&mut basics, "summary", get(p, &["summary"]));
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
                put(&mut basics, "url", url);
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
    let email = rows_of("Email Addresses.csv")
        .iter()
        .find(|r| get(r, &["primary"]).eq_ignore_ascii_case("yes"))
        .or_else(|| rows_of("Email Addresses.csv").first())
        .map(|r| get(r, &["email address"]))
        .unwrap_or("");
    put(&mut basics, "email", email);
    if let Some(phone) = rows_of("PhoneNumbers.csv").first() {
        put(&mut basics, "phone", get(phone, &["number"]));
    }
    let mut document = Map::new();
    document.insert("basics".into(), Value::Object(basics));
    let mut section = |key: &str, items: Vec<Map<String, Value>>| {
        let items: Vec<Value> = items
            .into_iter()
            .filter(|m| !m.is_empty())
            .map(Value::Object)
            .collect();
        if !items.is_empty() {
            document.insert(key.into(), Value::Array(items));
        }
    };
    section(
        "work",
        rows_of("Positions.csv")
            .iter()
            .map(|r| {
                let mut m = Map::new();
                put(&mut m, "name", get(r, &["company name", "company"]));
                put(&mut m, "position", get(r, &["title"]));
                put(&mut m, "location", get(r, &["location"]));
                dated(&mut m, r);
                put(&mut m, "summary", get(r, &["description"]));
                m
            })
            .collect(),
    );
    section(
        "volunteer",
        rows_of("Volunteering.csv")
            .iter()
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
            .collect(),
    );
    section(
        "education",
        rows_of("Education.csv")
            .iter()
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
            .collect(),
    );
    section(
        "awards",
        rows_of("Honors.csv")
            .iter()
            .map(|r| {
                let mut m = Map::new();
                put(&mut m, "title", get(r, &["title"]));
                put(&mut m, "date", &date(get(r, &["issued on"])));
                put(&mut m, "summary", get(r, &["description"]));
                m
            })
            .collect(),
    );
    section(
        "certificates",
        rows_of("Certifications.csv")
            .iter()
            .map(|r| {
                let mut m = Map::new();
                put(&mut m, "name", get(r, &["name"]));
                put(&mut m, "issuer", get(r, &["authority"]));
                put(&mut m, "url", get(r, &["url"]));
                put(&mut m, "date", &date(get(r, &["started on"])));
                m
            })
            .collect(),
    );
    section(
        "publications",
        rows_of("Publications.csv")
            .iter()
            .map(|r| {
                let mut m = Map::new();
                put(&mut m, "name", get(r, &["name"]));
                put(&mut m, "publisher", get(r, &["publisher"]));
                put(&mut m, "url", get(r, &["url"]));
                put(&mut m, "releaseDate", &date(get(r, &["published on"])));
                put(&mut m, "summary", get(r, &["description"]));
                m
            })
            .collect(),
    );
    let skills: Vec<String> = rows_of("Skills.csv")
        .iter()
        .map(|r| get(r, &["name"]).to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    if !skills.is_empty() {
        section(
            "skills",
            vec![{
                let mut m = Map::new();
                m.insert("keywords".into(), json!(skills));
                m
            }],
        );
    }
    section(
        "languages",
        rows_of("Languages.csv")
            .iter()
            .map(|r| {
                let mut m = Map::new();
                put(&mut m, "language", get(r, &["name"]));
                put(&mut m, "fluency", get(r, &["proficiency"]));
                m
            })
            .collect(),
    );
    section(
        "projects",
        rows_of("Projects.csv")
            .iter()
            .map(|r| {
                let mut m = Map::new();
                put(&mut m, "name", get(r, &["title"]));
                put(&mut m, "description", get(r, &["description"]));
                put(&mut m, "url", get(r, &["url"]));
                dated(&mut m, r);
                m
            })
            .collect(),
    );
    Ok(Read {
        document: Value::Object(document),
        unplaced,
    })
}
