//! A resume as a reader meets it: a header, then sections of entries in document order. Every export
//! format renders this one outline, so they all show the same fields in the same order.

use serde_json::Value;

use crate::words::{SECTIONS, Words, words};

/// The person.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header {
    pub name: String,
    pub label: String,
    /// Email, phone, website and place, in that order (links with their target).
    pub contacts: Vec<Item>,
    /// Profiles: `Twitter: neutralthoughts`.
    pub profiles: Vec<Item>,
    pub summary: String,
}

/// A piece of text, with a link target if it is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub text: String,
    /// A safe target (`https:`, `http:` or `mailto:`); anything else is shown as text only.
    pub href: Option<String>,
}

/// One entry of a section (a job, a degree, a skill, …).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    pub title: String,
    pub subtitle: String,
    pub dates: String,
    pub location: String,
    pub url: Option<Item>,
    pub summary: String,
    pub bullets: Vec<String>,
    pub keywords: Vec<String>,
}

/// A section: its heading and entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The JSON Resume key (`work`, `skills`, …).
    pub id: &'static str,
    /// In the resume's language, or as the user renamed it ([`crate::words`]).
    pub heading: String,
    pub entries: Vec<Entry>,
}

/// The outline of `resume`, in its words ([`crate::words`]): empty or missing sections are left out.
pub fn outline(resume: &Value) -> (Header, Vec<Section>) {
    let words = words(resume);
    (header(&resume["basics"], &words), sections(resume, &words))
}

/// The text of field `key` of `v`, as every export shows it: trimmed, and without the characters that act
/// unseen ([`crate::unseen`]: controls, direction overrides, invisible characters), whoever wrote them.
fn s(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .map(shown)
        .unwrap_or_default()
}

/// The texts of list `key` of `v`, each as [`s`] gives it, the empty ones left out.
fn list(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(shown)
                .filter(|t| !t.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// `text` as an export shows it: without what acts unseen, then trimmed.
fn shown(text: &str) -> String {
    crate::unseen::visible(text).trim().to_owned()
}

/// The longest link target made a link, in bytes. Longer is no address anyone follows (browsers and servers
/// stop near 2,000); it is shown as text. (Typst refuses a link of more than 8,000 bytes, so a model's
/// 8,000-character email made the whole PDF fail.)
pub const MAX_HREF: usize = 2_000;

/// What a `mailto:` link may carry besides the address: a subject, a body and a copy. Anything else a mail
/// program understands (`attach=`, `bcc=`, …) is dropped: a link in a resume must not attach a file.
const MAILTO_FIELDS: [&str; 3] = ["subject", "body", "cc"];

/// A link target, or `None` where the target is shown as text only: one well-formed `https:`, `http:` (with
/// a host) or `mailto:` URL, no longer than [`MAX_HREF`], with no space or control character anywhere (a
/// newline inside a URL field once ended a Markdown link and began another). The target comes back as the
/// URL parser writes it (percent-encoded ASCII) unless that differs from the field by at most a trailing
/// slash; a `mailto:` keeps only [`MAILTO_FIELDS`] in its query.
pub fn safe_href(target: &str) -> Option<String> {
    let t = target.trim();
    if t.len() > MAX_HREF || t.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let mut url = url::Url::parse(t).ok()?;
    match url.scheme() {
        "https" | "http" => {
            url.host()?;
        }
        "mailto" => {
            let kept: Vec<(String, String)> = url
                .query_pairs()
                .filter(|(k, _)| MAILTO_FIELDS.contains(&k.to_ascii_lowercase().as_str()))
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            if url.query().is_some() {
                url.set_query(None);
                if !kept.is_empty() {
                    url.query_pairs_mut().extend_pairs(kept);
                }
            }
        }
        _ => return None,
    }
    let written = url.as_str();
    let href = if written == t || written.strip_suffix('/') == Some(t) {
        t
    } else {
        written
    };
    // What a parser may leave raw in a `mailto:` path; never part of a link a resume needs.
    let unsafe_char = |c: char| !c.is_ascii_graphic() || matches!(c, '<' | '>' | '"' | '`' | '\\');
    (!href.chars().any(unsafe_char) && href.len() <= MAX_HREF).then(|| href.to_owned())
}

fn link(text: String, target: &str) -> Item {
    Item {
        href: safe_href(target),
        text,
    }
}

fn header(basics: &Value, words: &Words) -> Header {
    let mut contacts = Vec::new();
    let email = s(basics, "email");
    if !email.is_empty() {
        contacts.push(link(email.clone(), &format!("mailto:{email}")));
    }
    let phone = s(basics, "phone");
    if !phone.is_empty() {
        contacts.push(Item {
            text: phone,
            href: None,
        });
    }
    let url = s(basics, "url");
    if !url.is_empty() {
        contacts.push(link(url.clone(), &url));
    }
    let location = &basics["location"];
    let place: Vec<String> = ["address", "postalCode", "city", "region", "countryCode"]
        .iter()
        .map(|k| s(location, k))
        .filter(|t| !t.is_empty())
        .collect();
    if !place.is_empty() {
        contacts.push(Item {
            text: words.list(&place),
            href: None,
        });
    }
    let profiles = basics["profiles"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| {
                    let (network, user, url) = (s(p, "network"), s(p, "username"), s(p, "url"));
                    let text = match (network.is_empty(), user.is_empty()) {
                        (false, false) => format!("{network}: {user}"),
                        (false, true) if !url.is_empty() => format!("{network}: {url}"),
                        (true, false) => user,
                        _ if !url.is_empty() => url.clone(),
                        _ => return None,
                    };
                    Some(link(text, &url))
                })
                .collect()
        })
        .unwrap_or_default();
    Header {
        name: s(basics, "name"),
        label: s(basics, "label"),
        contacts,
        profiles,
        summary: s(basics, "summary"),
    }
}

/// `2013-12-01` → `Dec 2013`; `2013` stays; anything else is shown as written (English; a resume's own
/// language is [`Words::month_year`]).
pub fn month_year(date: &str) -> String {
    Words::english().month_year(date)
}

fn range(v: &Value, words: &Words) -> String {
    words.range(&s(v, "startDate"), &s(v, "endDate"))
}

fn url_of(v: &Value) -> Option<Item> {
    let url = s(v, "url");
    (!url.is_empty()).then(|| link(url.clone(), &url))
}

fn join(parts: &[String], separator: &str) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join(separator)
}

/// The fields an entry's title and subtitle are read from, by section (education's and projects' are made
/// of several fields: [`entry`] makes them).
const TITLES: &[(&str, &str, Option<&str>)] = &[
    ("work", "position", Some("name")),
    ("volunteer", "position", Some("organization")),
    ("awards", "title", Some("awarder")),
    ("certificates", "name", Some("issuer")),
    ("publications", "name", Some("publisher")),
    ("skills", "name", Some("level")),
    ("languages", "language", Some("fluency")),
    ("interests", "name", None),
    ("references", "name", None),
    ("projects", "name", None),
];

/// An entry's dates: a range, or the one date of the section's own field.
fn dates(id: &str, v: &Value, words: &Words) -> String {
    match id {
        "work" | "volunteer" | "education" | "projects" => range(v, words),
        "awards" | "certificates" => words.month_year(&s(v, "date")),
        "publications" => words.month_year(&s(v, "releaseDate")),
        _ => String::new(),
    }
}

fn entry(id: &str, v: &Value, words: &Words) -> Entry {
    let mut e = Entry {
        url: url_of(v),
        dates: dates(id, v, words),
        ..Entry::default()
    };
    if let Some(&(_, title, subtitle)) = TITLES.iter().find(|(section, ..)| *section == id) {
        e.title = s(v, title);
        e.subtitle = subtitle.map(|field| s(v, field)).unwrap_or_default();
    }
    match id {
        "work" => {
            e.location = s(v, "location");
            e.summary = join(&[s(v, "description"), s(v, "summary")], "\n\n");
            e.bullets = list(v, "highlights");
        }
        "volunteer" => {
            e.summary = s(v, "summary");
            e.bullets = list(v, "highlights");
        }
        "education" => {
            e.title = words.list(&[s(v, "studyType"), s(v, "area")]);
            e.subtitle = s(v, "institution");
            let score = s(v, "score");
            if !score.is_empty() {
                e.bullets.push(format!("{}: {score}", words.score()));
            }
            e.bullets.extend(list(v, "courses"));
        }
        "awards" | "publications" => e.summary = s(v, "summary"),
        "skills" | "interests" => e.keywords = list(v, "keywords"),
        "references" => e.summary = s(v, "reference"),
        "projects" => {
            e.subtitle = join(
                &[s(v, "entity"), s(v, "type"), words.list(&list(v, "roles"))],
                " · ",
            );
            e.summary = s(v, "description");
            e.bullets = list(v, "highlights");
            e.keywords = list(v, "keywords");
        }
        _ => {}
    }
    e
}

fn sections(resume: &Value, words: &Words) -> Vec<Section> {
    SECTIONS
        .iter()
        .filter_map(|&id| {
            let entries: Vec<Entry> = resume[id]
                .as_array()?
                .iter()
                .map(|v| entry(id, v, words))
                .filter(|e| *e != Entry::default())
                .collect();
            (!entries.is_empty()).then(|| Section {
                id,
                heading: words.heading(id).to_owned(),
                entries,
            })
        })
        .collect()
}
