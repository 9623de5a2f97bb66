//! A resume as LinkedIn's data export holds it: the CSV files and columns LinkedIn writes (as of 2026), its
//! dates ("Jan 2020"; years alone for schools), a position's description holding its summary and its
//! bullets. What the export has no column for (a school's field of study, a skill's level, a profile on
//! another network) is not in it, so the resume to read back is the one the export holds.

use std::io::Write as _;

use serde_json::{Map, Value, json};

/// The export of `resume` as a ZIP, the resume it holds (what a reader can get back), and its text.
pub fn export(resume: &Value) -> (Vec<u8>, Value, String) {
    let mut files: Vec<(&str, String)> = Vec::new();
    let mut held = Map::new();
    let basics = &resume["basics"];
    let (profile, held_basics) = profile(basics);
    files.push(("Profile.csv", profile));
    if let Some(email) = basics["email"].as_str() {
        let row = csv(&[email, "Yes", "Yes", "1/2/24, 9:00 AM"]);
        files.push((
            "Email Addresses.csv",
            format!("Email Address,Confirmed,Primary,Updated On\n{row}"),
        ));
    }
    if let Some(phone) = basics["phone"].as_str() {
        let row = csv(&["", phone, "Mobile"]);
        files.push(("PhoneNumbers.csv", format!("Extension,Number,Type\n{row}")));
    }
    held.insert("basics".into(), Value::Object(held_basics));
    for (file, section, columns) in SECTIONS {
        let entries = resume[*section].as_array().map_or(&[][..], Vec::as_slice);
        if entries.is_empty() {
            continue;
        }
        let header: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
        let mut text = format!("{}\n", header.join(","));
        let mut kept = Vec::new();
        for entry in entries {
            let mut entry_held = Map::new();
            let cells: Vec<String> = (columns.iter())
                .map(|(_, cell)| cell.of(entry, &mut entry_held))
                .collect();
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            text.push_str(&csv(&cells));
            kept.push(Value::Object(entry_held));
        }
        files.push((file, text));
        held.insert((*section).into(), Value::Array(kept));
    }
    let skills: Vec<&str> = (resume["skills"].as_array().into_iter().flatten())
        .flat_map(|s| s["keywords"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    if !skills.is_empty() {
        let rows: String = skills.iter().map(|s| csv(&[s])).collect();
        files.push(("Skills.csv", format!("Name\n{rows}")));
        held.insert("skills".into(), json!([{"keywords": skills}]));
    }
    let shown = files.iter().map(|(_, text)| text.as_str()).collect();
    (zip(&files), Value::Object(held), shown)
}

/// What a column of LinkedIn's holds of an entry.
enum Cell {
    /// Nothing the resume has.
    Empty,
    /// The text of a field.
    Text(&'static str),
    /// A date, as a position's ("Jan 2020").
    Month(&'static str),
    /// A date, as a school's (the year).
    Year(&'static str),
    /// A position's description: its summary, then its bullets.
    Described,
}

impl Cell {
    /// The cell's text for `entry`, what of it the cell holds kept in `held`.
    fn of(&self, entry: &Value, held: &mut Map<String, Value>) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(field) => text(entry, field, held),
            Cell::Month(field) => month(entry, field, held),
            Cell::Year(field) => year(entry, field, held),
            Cell::Described => description(entry, held),
        }
    }
}

use Cell::{Described, Empty, Month, Text, Year};

/// A CSV file's columns: each one's name and what it holds.
type Columns = &'static [(&'static str, Cell)];

/// Each section LinkedIn keeps: its file, the JSON Resume section, and the file's columns.
const SECTIONS: &[(&str, &str, Columns)] = &[
    (
        "Positions.csv",
        "work",
        &[
            ("Company Name", Text("name")),
            ("Title", Text("position")),
            ("Description", Described),
            ("Location", Text("location")),
            ("Started On", Month("startDate")),
            ("Finished On", Month("endDate")),
        ],
    ),
    (
        "Education.csv",
        "education",
        &[
            ("School Name", Text("institution")),
            ("Start Date", Year("startDate")),
            ("End Date", Year("endDate")),
            ("Notes", Empty),
            ("Degree Name", Text("studyType")),
            ("Activities", Empty),
        ],
    ),
    (
        "Volunteering.csv",
        "volunteer",
        &[
            ("Company Name", Text("organization")),
            ("Role", Text("position")),
            ("Cause", Empty),
            ("Started On", Month("startDate")),
            ("Finished On", Month("endDate")),
            ("Description", Described),
        ],
    ),
    (
        "Honors.csv",
        "awards",
        &[
            ("Title", Text("title")),
            ("Description", Text("summary")),
            ("Issued On", Month("date")),
        ],
    ),
    (
        "Certifications.csv",
        "certificates",
        &[
            ("Name", Text("name")),
            ("Url", Text("url")),
            ("Authority", Text("issuer")),
            ("Started On", Month("date")),
            ("Finished On", Empty),
            ("License Number", Empty),
        ],
    ),
    (
        "Publications.csv",
        "publications",
        &[
            ("Name", Text("name")),
            ("Published On", Month("releaseDate")),
            ("Description", Text("summary")),
            ("Publisher", Text("publisher")),
            ("Url", Text("url")),
        ],
    ),
    (
        "Languages.csv",
        "languages",
        &[("Name", Text("language")), ("Proficiency", Text("fluency"))],
    ),
    (
        "Projects.csv",
        "projects",
        &[
            ("Title", Text("name")),
            ("Description", Text("description")),
            ("Url", Text("url")),
            ("Started On", Month("startDate")),
            ("Finished On", Month("endDate")),
        ],
    ),
];

/// The profile's file, and the basics it holds: the name split in two, the headline, the summary, the
/// place as one line, the first web site, the Twitter handle.
fn profile(basics: &Value) -> (String, Map<String, Value>) {
    let mut held = Map::new();
    let name = basics["name"].as_str().unwrap_or_default();
    let (first, last) = name.split_once(' ').unwrap_or((name, ""));
    if !name.is_empty() {
        held.insert("name".into(), json!(name));
    }
    let label = text(basics, "label", &mut held);
    let summary = text(basics, "summary", &mut held);
    let location = &basics["location"];
    let place: Vec<&str> = ["city", "region"]
        .iter()
        .filter_map(|k| location[*k].as_str())
        .collect();
    let place = place.join(", ");
    if !place.is_empty() {
        held.insert("location".into(), json!({"city": place}));
    }
    let url = text(basics, "url", &mut held);
    let websites = if url.is_empty() {
        String::new()
    } else {
        format!("[PORTFOLIO:{url}]")
    };
    let twitter = (basics["profiles"].as_array().into_iter().flatten())
        .find(|p| p["network"].as_str() == Some("Twitter"))
        .and_then(|p| p["username"].as_str());
    if let Some(handle) = twitter {
        held.insert(
            "profiles".into(),
            json!([{"network": "Twitter", "username": handle}]),
        );
    }
    let twitter = twitter.map_or(String::new(), |h| format!("[{h}]"));
    let header = "First Name,Last Name,Maiden Name,Address,Birth Date,Headline,Summary,Industry,Zip Code,Geo Location,Twitter Handles,Websites,Instant Messengers";
    let row = csv(&[
        first, last, "", "", "", &label, &summary, "", "", &place, &twitter, &websites, "",
    ]);
    (format!("{header}\n{row}"), held)
}

/// The text of `entry`'s `field`, kept in `held` when there is one.
fn text(entry: &Value, field: &str, held: &mut Map<String, Value>) -> String {
    let value = entry[field].as_str().unwrap_or_default().to_owned();
    if !value.is_empty() {
        held.insert(field.into(), json!(value));
    }
    value
}

/// A position's description: its summary, then its bullets, one a line.
fn description(entry: &Value, held: &mut Map<String, Value>) -> String {
    let mut lines = vec![text(entry, "summary", held)];
    lines.retain(|l| !l.is_empty());
    if let Some(highlights) = entry["highlights"].as_array().filter(|h| !h.is_empty()) {
        held.insert("highlights".into(), Value::Array(highlights.clone()));
        lines.extend(
            (highlights.iter())
                .filter_map(Value::as_str)
                .map(|h| format!("• {h}")),
        );
    }
    lines.join("\n")
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A date as LinkedIn writes a position's: "Jan 2020" (or the year alone when that is all there is).
fn month(entry: &Value, field: &str, held: &mut Map<String, Value>) -> String {
    let Some(date) = entry[field].as_str().filter(|d| d.len() >= 4) else {
        return String::new();
    };
    let m = date.get(5..7).and_then(|m| m.parse::<usize>().ok());
    match m.filter(|m| (1..=12).contains(m)) {
        Some(m) => {
            held.insert(field.into(), json!(date[..7]));
            format!("{} {}", MONTHS[m - 1], &date[..4])
        }
        None => {
            held.insert(field.into(), json!(date[..4]));
            date[..4].to_owned()
        }
    }
}

/// A date as LinkedIn writes a school's: the year.
fn year(entry: &Value, field: &str, held: &mut Map<String, Value>) -> String {
    let Some(date) = entry[field].as_str().filter(|d| d.len() >= 4) else {
        return String::new();
    };
    held.insert(field.into(), json!(date[..4]));
    date[..4].to_owned()
}

/// One CSV row, each cell quoted where it must be.
fn csv(cells: &[&str]) -> String {
    let cells: Vec<String> = (cells.iter())
        .map(|c| {
            if c.contains([',', '"', '\n']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                (*c).to_owned()
            }
        })
        .collect();
    format!("{}\n", cells.join(","))
}

fn zip(files: &[(&str, String)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in files {
        writer
            .start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}
