//! Lines of a resume, in reading order, into JSON Resume: the header (name, label, contacts, profiles,
//! summary), then each section known by its heading, split into entries and their fields. Every line ends
//! up in the document or in the list of lines not placed.

use redline_resume::words::{Language, Words};
use serde_json::{Map, Value, json};

use crate::Line;
use crate::dates::{self, Span};
use crate::headings::{Part, part};

/// What the lines said: the resume, and the lines that found no place in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub document: Value,
    pub unplaced: Vec<String>,
}

/// The lines of one part of the resume.
struct Block<'a> {
    part: Option<Part>,
    heading: &'a str,
    lines: Vec<&'a Line>,
}

/// `lines` (in reading order) as a resume.
pub fn read(lines: &[Line]) -> Read {
    let mut unplaced = Vec::new();
    let (blocks, language) = blocks(lines);
    let mut document = Map::new();
    let mut basics = Map::new();
    let mut summary: Vec<String> = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block.part {
            None if i == 0 => header(&block.lines, &mut basics, &mut summary, &mut unplaced),
            None => {
                unplaced.push(block.heading.to_owned());
                unplaced.extend(block.lines.iter().map(|l| l.text.clone()));
            }
            Some(Part::Summary) => summary.extend(paragraphs(&block.lines)),
            Some(Part::Contact) => {
                for line in &block.lines {
                    if !contacts(&line.text, &mut basics) {
                        unplaced.push(line.text.clone());
                    }
                }
            }
            Some(Part::Section(id)) => {
                let items = section(id, &block.lines, &mut unplaced);
                if items.is_empty() {
                    continue;
                }
                match document.get_mut(id) {
                    Some(Value::Array(list)) => list.extend(items),
                    _ => {
                        document.insert(id.to_owned(), Value::Array(items));
                    }
                }
            }
        }
    }
    if !summary.is_empty() {
        basics.insert("summary".into(), json!(summary.join("\n\n")));
    }
    let mut out = Map::new();
    out.insert("basics".into(), Value::Object(basics));
    out.extend(document);
    if let Some(language) = language.filter(|l| *l != Language::English) {
        out.insert("meta".into(), json!({"language": language.tag()}));
    }
    Read {
        document: Value::Object(out),
        unplaced,
    }
}

/// The lines split at their headings, and the language most of the headings were in.
fn blocks(lines: &[Line]) -> (Vec<Block<'_>>, Option<Language>) {
    let mut blocks = vec![Block {
        part: None,
        heading: "",
        lines: Vec::new(),
    }];
    let mut votes: Vec<(Language, usize)> = Vec::new();
    // The size the known section headings are set in: a heading the source marks but Redline does not
    // know starts a part of its own only at that level (smaller ones are entries' titles).
    let mut section_size: Option<f32> = None;
    for line in lines {
        if let Some((p, language)) = part(&line.text) {
            section_size.get_or_insert(line.size);
            if let Some(language) = language {
                match votes.iter_mut().find(|(l, _)| *l == language) {
                    Some((_, n)) => *n += 1,
                    None => votes.push((language, 1)),
                }
            }
            blocks.push(Block {
                part: Some(p),
                heading: &line.text,
                lines: Vec::new(),
            });
        } else if line.heading
            && blocks.len() > 1
            && !blocks[0].lines.is_empty()
            && section_size.is_some_and(|size| line.size >= size - 0.01)
        {
            // A heading the source marks as one, but no part Redline knows: its lines are shown, not lost.
            blocks.push(Block {
                part: None,
                heading: &line.text,
                lines: Vec::new(),
            });
        } else if let Some(block) = blocks.last_mut() {
            block.lines.push(line);
        }
    }
    let language = votes.into_iter().max_by_key(|&(_, n)| n).map(|(l, _)| l);
    (blocks, language)
}

/// Consecutive lines joined into paragraphs: a new one after a gap, a bullet, or a line that ends a
/// sentence well short of the width the others fill.
fn paragraphs(lines: &[&Line]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in lines {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            open = false;
            continue;
        }
        match out.last_mut() {
            Some(last) if open && !line.gap && !line.bullet => {
                join_wrapped(last, text);
            }
            _ => out.push(text.to_owned()),
        }
        open = !line.bullet;
    }
    out
}

/// `next` appended to `text` as the next line of one wrapped paragraph: a word broken at its hyphen is
/// joined; CJK text takes no space.
fn join_wrapped(text: &mut String, next: &str) {
    let cjk = |c: char| matches!(c, '\u{3000}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
    if text.ends_with('-') && next.starts_with(|c: char| c.is_lowercase()) {
        text.pop();
    } else if !(text.ends_with(cjk) && next.starts_with(cjk)) {
        text.push(' ');
    }
    text.push_str(next);
}

/// The bullets people start a list item with.
const BULLETS: &[char] = &[
    '•', '-', '–', '—', '▪', '■', '○', '◦', '●', '*', '·', '‣', '⁃', '∙', '➢', '➤', '►', '▸', '✓',
    '✔', '\u{F0B7}', '\u{F0A7}',
];

/// `text` without its bullet or list number, if it starts with one.
pub fn strip_bullet(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let mut chars = t.chars();
    let first = chars.next()?;
    if BULLETS.contains(&first) {
        let rest = chars.as_str();
        // "-5%" or "—" alone is not a list item; the bullet is followed by a space.
        if rest.starts_with(char::is_whitespace) && !rest.trim().is_empty() {
            return Some(rest.trim_start());
        }
        return None;
    }
    // `1.`, `2)`, `(3)`.
    let digits = t.trim_start_matches('(');
    let n = digits.chars().take_while(char::is_ascii_digit).count();
    if (1..=2).contains(&n) {
        let rest = &digits[n..];
        if let Some(rest) = rest.strip_prefix(['.', ')'])
            && rest.starts_with(char::is_whitespace)
            && !rest.trim().is_empty()
        {
            return Some(rest.trim_start());
        }
    }
    None
}

/// The pieces of a line of contact details: split at `|`, `·`, `•`, tabs and wide spaces.
fn pieces(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in line.split(['|', '·', '•', '◦', '⋅', '\t', '✉', '☎', '📞', '📧']) {
        for piece in piece.split("   ") {
            let piece = piece.trim_matches(|c: char| {
                c.is_whitespace() || ('\u{E000}'..='\u{F8FF}').contains(&c)
            });
            if !piece.is_empty() {
                out.push(piece.to_owned());
            }
        }
    }
    out
}

fn is_email(text: &str) -> bool {
    let t = text.strip_prefix("mailto:").unwrap_or(text);
    let Some((user, host)) = t.split_once('@') else {
        return false;
    };
    !user.is_empty()
        && host.contains('.')
        && !t.contains(char::is_whitespace)
        && !host.starts_with('.')
}

fn is_phone(text: &str) -> bool {
    let digits = text.chars().filter(char::is_ascii_digit).count();
    (7..=16).contains(&digits)
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || " +()-./".contains(c))
}

fn is_url(text: &str) -> bool {
    let t = text.trim();
    if t.contains(char::is_whitespace) {
        return false;
    }
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))
        .unwrap_or(t);
    let host = rest.split('/').next().unwrap_or("");
    let host = host.strip_prefix("www.").unwrap_or(host);
    rest.len() < t.len()
        || (host.contains('.')
            && host.rsplit('.').next().is_some_and(|tld| {
                (2..=6).contains(&tld.len()) && tld.chars().all(|c| c.is_ascii_alphabetic())
            }))
}

/// Networks known by their address: (host, network name).
const NETWORKS: &[(&str, &str)] = &[
    ("linkedin.com", "LinkedIn"),
    ("github.com", "GitHub"),
    ("gitlab.com", "GitLab"),
    ("twitter.com", "Twitter"),
    ("x.com", "X"),
    ("stackoverflow.com", "Stack Overflow"),
    ("medium.com", "Medium"),
    ("behance.net", "Behance"),
    ("dribbble.com", "Dribbble"),
    ("soundcloud.com", "SoundCloud"),
    ("xing.com", "XING"),
    ("instagram.com", "Instagram"),
    ("facebook.com", "Facebook"),
    ("youtube.com", "YouTube"),
    ("bsky.app", "Bluesky"),
];

/// A profile known by its address: `linkedin.com/in/ada` → (LinkedIn, ada).
fn profile_of(url: &str) -> Option<(String, String)> {
    let rest = url
        .trim()
        .trim_start_matches("https://")
        .trim_start_matches("http://")
        .trim_start_matches("www.");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (_, network) = NETWORKS
        .iter()
        .find(|(h, _)| host == *h || host.ends_with(&format!(".{h}")))?;
    let user = path
        .split('/')
        .filter(|p| !p.is_empty() && !matches!(*p, "in" | "users" | "u" | "company"))
        .find(|p| !p.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or("")
        .trim_start_matches('@');
    Some((network.to_string(), user.to_owned()))
}

/// A URL written as a link target: `https://` added where a line leaves it out.
fn full_url(text: &str) -> String {
    let t = text.trim().trim_start_matches('<').trim_end_matches('>');
    if t.starts_with("http://") || t.starts_with("https://") {
        t.to_owned()
    } else {
        format!("https://{t}")
    }
}

fn push_profile(basics: &mut Map<String, Value>, network: &str, user: &str, url: &str) {
    let mut p = Map::new();
    if !network.is_empty() {
        p.insert("network".into(), json!(network));
    }
    if !user.is_empty() {
        p.insert("username".into(), json!(user));
    }
    if !url.is_empty() {
        p.insert("url".into(), json!(url));
    }
    if let Value::Array(list) = basics
        .entry("profiles")
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        list.push(Value::Object(p));
    }
}

/// A place as people write it, into JSON Resume's location by how many parts it has.
fn location(text: &str) -> Value {
    let parts: Vec<&str> = text
        .split([',', '、', '،'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let country = |p: &str| p.len() == 2 && p.chars().all(|c| c.is_ascii_uppercase());
    let keys: &[&str] = match parts.len() {
        1 => &["city"],
        2 if country(parts[1]) => &["city", "countryCode"],
        2 => &["city", "region"],
        3 if country(parts[2]) => &["city", "region", "countryCode"],
        3 => &["address", "city", "region"],
        4 => &["address", "city", "region", "countryCode"],
        // Redline's own order: address, postal code, city, region, country.
        _ => &["address", "postalCode", "city", "region", "countryCode"],
    };
    let mut place = Map::new();
    for (i, key) in keys.iter().enumerate() {
        let value = if i + 1 == keys.len() {
            parts[i..].join(", ")
        } else {
            parts[i].to_owned()
        };
        place.insert((*key).into(), json!(value));
    }
    Value::Object(place)
}

/// Reads the contact details in `line` into `basics`; false when the line is not contact details.
fn contacts(line: &str, basics: &mut Map<String, Value>) -> bool {
    let pieces = pieces(line);
    let contact = |p: &str| is_email(p) || is_phone(p) || is_url(p) || network_piece(p).is_some();
    let known = pieces.iter().filter(|p| contact(p)).count();
    if known == 0 {
        return false;
    }
    for p in &pieces {
        if is_email(p) && !basics.contains_key("email") {
            basics.insert("email".into(), json!(p.trim_start_matches("mailto:")));
        } else if is_phone(p) && !basics.contains_key("phone") {
            basics.insert("phone".into(), json!(p));
        } else if let Some((network, user, url)) = network_piece(p) {
            push_profile(basics, &network, &user, &url);
        } else if is_url(p) {
            let url = full_url(p);
            match profile_of(&url) {
                Some((network, user)) => push_profile(basics, &network, &user, &url),
                None if !basics.contains_key("url") => {
                    basics.insert("url".into(), json!(url));
                }
                None => push_profile(basics, "", "", &url),
            }
        } else if !basics.contains_key("location") {
            basics.insert("location".into(), location(p));
        } else {
            // A second place or a word we cannot tell: kept in the label's place rather than lost.
            return false;
        }
    }
    true
}

/// `Twitter: neutralthoughts <https://twitter.com/…>` or `GitHub: ada`: (network, user, url).
fn network_piece(piece: &str) -> Option<(String, String, String)> {
    let (network, rest) = piece.split_once(':')?;
    let network = network.trim();
    if network.is_empty()
        || network.chars().count() > 20
        || network.contains(char::is_whitespace) && network.split_whitespace().count() > 2
        || matches!(network.to_lowercase().as_str(), "http" | "https" | "mailto")
    {
        return None;
    }
    let rest = rest.trim();
    let (user, url) = match rest.split_once('<') {
        Some((user, url)) => (user.trim(), url.trim_end_matches('>').trim()),
        None if is_url(rest) => ("", rest),
        None => (rest, ""),
    };
    if user.contains(char::is_whitespace) || user.is_empty() && url.is_empty() {
        return None;
    }
    // "Email: ada@example.com", "Phone: …" are contacts, not profiles.
    if is_email(user) || is_phone(user) || is_email(url) {
        return None;
    }
    let known = NETWORKS
        .iter()
        .any(|(_, n)| n.eq_ignore_ascii_case(network));
    let url = if url.is_empty() {
        String::new()
    } else {
        full_url(url)
    };
    (known || !url.is_empty()).then(|| (network.to_owned(), user.to_owned(), url))
}

/// The header: the name (the largest of the first lines), the label, contact lines and a summary.
fn header(
    lines: &[&Line],
    basics: &mut Map<String, Value>,
    summary: &mut Vec<String>,
    unplaced: &mut Vec<String>,
) {
    let Some(name_at) = lines
        .iter()
        .take(3)
        .enumerate()
        .filter(|(_, l)| !is_email(&l.text) && !is_phone(&l.text))
        .max_by(|a, b| {
            a.1.size
                .partial_cmp(&b.1.size)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.0.cmp(&a.0))
        })
        .map(|(i, _)| i)
    else {
        return;
    };
    let mut prose: Vec<&Line> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let text = line.text.trim();
        if i == name_at {
            basics.insert("name".into(), json!(text));
        } else if contacts(text, basics) {
        } else if !basics.contains_key("label") && short(text) && i <= name_at + 2 {
            basics.insert("label".into(), json!(text));
        } else if short(text)
            && prose.is_empty()
            && !basics.contains_key("location")
            && text.contains([',', '、', '،'])
        {
            basics.insert("location".into(), location(text));
        } else if short(text) && i < name_at {
            unplaced.push(text.to_owned());
        } else {
            prose.push(line);
        }
    }
    summary.extend(paragraphs(&prose));
}

/// A line that reads as a title or a field, not as a sentence of prose.
fn short(text: &str) -> bool {
    let words = text.split_whitespace().count();
    let chars = text.chars().count();
    chars <= 90 && words <= 12 && !text.trim_end().ends_with(['.', '。', '!'])
}

/// One entry as the lines gave it.
#[derive(Default)]
struct Raw {
    /// Title lines, the dates taken out.
    head: Vec<String>,
    /// Which head line the dates were on.
    dates_on: Option<usize>,
    dates: Option<Span>,
    paragraphs: Vec<String>,
    bullets: Vec<String>,
    /// The last line was a paragraph's: a next line may continue it.
    in_paragraph: bool,
}

impl Raw {
    fn has_body(&self) -> bool {
        !self.paragraphs.is_empty() || !self.bullets.is_empty()
    }
    fn is_empty(&self) -> bool {
        self.head.is_empty() && self.dates.is_none() && !self.has_body()
    }
}

/// The entries of a section whose entries have titles and dates.
fn entries(lines: &[&Line]) -> Vec<Raw> {
    let mut out: Vec<Raw> = Vec::new();
    let mut current = Raw::default();
    let mut last_bullet: Option<&Line> = None;
    let mut entry_indent = lines.first().map_or(0.0, |l| l.indent);
    for line in lines {
        let text = line.text.trim();
        if text.is_empty() {
            continue;
        }
        // A list whose bullets are drawn, not written (a browser's `<ul>` printed): its items stand in
        // from the entry's left edge.
        let drawn_bullet = !current.head.is_empty()
            && line.indent >= entry_indent + 1.0
            && !text.starts_with(|c: char| c.is_lowercase())
            && list_items(text).is_none()
            && last_bullet.is_none_or(|b| b.indent + 0.3 >= line.indent);
        if let Some(item) = strip_bullet(text).or((line.bullet || drawn_bullet).then_some(text)) {
            current.bullets.push(item.to_owned());
            current.in_paragraph = false;
            last_bullet = Some(line);
            continue;
        }
        if let Some(bullet) = last_bullet
            && !line.gap
            && (line.indent > bullet.indent + 0.3 || text.starts_with(|c: char| c.is_lowercase()))
            && let Some(last) = current.bullets.last_mut()
        {
            join_wrapped(last, text);
            continue;
        }
        last_bullet = None;
        let span = dates::find(text);
        let rest = span
            .as_ref()
            .map_or_else(|| text.to_owned(), |s| dates::without(text, s));
        let headish = short(text) || span.is_some() && short(&rest);
        // A short line right under a paragraph's last is that paragraph's end, not a new title; a list on
        // one line after the body is the entry's keywords.
        let continues_paragraph = current.in_paragraph && !line.gap;
        let starts = !current.is_empty()
            && headish
            && !continues_paragraph
            && list_items(text).is_none()
            && (current.has_body() || span.is_some() && current.dates.is_some());
        if starts {
            out.push(std::mem::take(&mut current));
        }
        if current.is_empty() {
            entry_indent = line.indent;
        }
        if headish && !current.has_body() && (current.head.len() < 3 || span.is_some()) {
            if let Some(span) = span.filter(|_| current.dates.is_none()) {
                current.dates = Some(span);
                if !rest.is_empty() {
                    current.dates_on = Some(current.head.len());
                    current.head.push(rest);
                }
            } else {
                current.head.push(text.to_owned());
            }
            continue;
        }
        match current.paragraphs.last_mut() {
            Some(last) if current.in_paragraph && !line.gap => join_wrapped(last, text),
            _ => current.paragraphs.push(text.to_owned()),
        }
        current.in_paragraph = true;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The separators between a title's parts on one line.
const SEPARATORS: &[&str] = &[" · ", " | ", " • ", " — ", " – ", " @ ", " at ", "  "];

fn split_parts(text: &str) -> Vec<String> {
    let mut parts = vec![text.to_owned()];
    for sep in SEPARATORS {
        parts = parts
            .iter()
            .flat_map(|p| p.split(sep).map(str::to_owned).collect::<Vec<_>>())
            .collect();
    }
    parts
        .into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Words that say a line is a role, not an organisation.
const ROLE_WORDS: &[&str] = &[
    "engineer",
    "developer",
    "manager",
    "director",
    "ceo",
    "cto",
    "cfo",
    "president",
    "intern",
    "analyst",
    "designer",
    "consultant",
    "lead",
    "head",
    "officer",
    "scientist",
    "architect",
    "specialist",
    "coordinator",
    "assistant",
    "teacher",
    "programmer",
    "founder",
    "administrator",
    "associate",
    "senior",
    "junior",
    "principal",
    "staff",
    "vp",
    "owner",
    "researcher",
    "editor",
    "writer",
    "nurse",
    "accountant",
    "technician",
    "student",
    "professor",
    "lecturer",
    "tutor",
    "entwickler",
    "ingenieur",
    "leiter",
    "berater",
    "ingénieur",
    "développeur",
    "chef",
    "desarrollador",
    "ingeniero",
    "gerente",
    "desenvolvedor",
    "engenheiro",
    "エンジニア",
    "工程师",
    "经理",
    "مهندس",
    "مدير",
];

fn role_score(text: &str) -> usize {
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| ROLE_WORDS.contains(w))
        .count()
        + ROLE_WORDS
            .iter()
            .filter(|w| !w.is_ascii() && lower.contains(*w))
            .count()
}

/// Words that name a school.
const SCHOOL_WORDS: &[&str] = &[
    "university",
    "college",
    "school",
    "institute",
    "academy",
    "polytechnic",
    "universität",
    "hochschule",
    "akademie",
    "université",
    "école",
    "universidad",
    "escuela",
    "universidade",
    "faculdade",
    "instituto",
    "大学",
    "学院",
    "学校",
    "جامعة",
    "كلية",
    "eth",
    "mit",
];

fn school_score(text: &str) -> usize {
    let lower = text.to_lowercase();
    SCHOOL_WORDS.iter().filter(|w| lower.contains(*w)).count()
}

/// A title line and a subtitle line from an entry's head: the title is the one that reads as the entry's
/// name (for jobs, the role), the other its organisation, place and link.
fn title_and_subtitle(
    raw: &Raw,
    score: fn(&str) -> usize,
    title_is_scored: bool,
) -> (String, String) {
    match raw.head.as_slice() {
        [] => (String::new(), String::new()),
        [one] => {
            // "Senior Engineer — Acme · London" on one line: its first parts are the two lines.
            let parts = split_parts(one);
            if parts.len() < 2 {
                return (one.clone(), String::new());
            }
            let (a, b) = (&parts[0], &parts[1]);
            let swap = score(a) != score(b) && (score(b) > score(a)) == title_is_scored;
            let (title, first) = if swap { (b, a) } else { (a, b) };
            let mut rest = vec![first.clone()];
            rest.extend(parts[2..].iter().cloned());
            (title.clone(), rest.join(" · "))
        }
        [a, b, ..] => {
            let listy = |t: &str| SEPARATORS[..4].iter().any(|s| t.contains(s)) || is_url(t);
            let (sa, sb) = (score(a), score(b));
            let a_first = if sa != sb {
                (sa > sb) == title_is_scored
            } else if listy(a) != listy(b) {
                !listy(a)
            } else {
                true
            };
            if a_first {
                (a.clone(), b.clone())
            } else {
                (b.clone(), a.clone())
            }
        }
    }
}

fn put(map: &mut Map<String, Value>, key: &str, value: impl Into<String>) {
    let value = value.into();
    let value = value.trim();
    if !value.is_empty() && !map.contains_key(key) {
        map.insert(key.into(), json!(value));
    }
}

fn put_dates(map: &mut Map<String, Value>, raw: &Raw, start: &str, end: &str) {
    if let Some(span) = &raw.dates {
        put(map, start, span.start.clone());
        if !end.is_empty() {
            // One date that is not "since": the entry began and ended then.
            let until = if span.end.is_empty() && !span.open {
                &span.start
            } else {
                &span.end
            };
            put(map, end, until.clone());
        }
    }
}

/// A subtitle line's parts: (organisation, place, link).
fn subtitle_parts(subtitle: &str) -> (String, String, String) {
    let mut org = String::new();
    let mut place = String::new();
    let mut url = String::new();
    for p in split_parts(subtitle) {
        if is_url(&p) && url.is_empty() {
            url = full_url(&p);
        } else if org.is_empty() {
            org = p;
        } else if place.is_empty() {
            place = p;
        } else {
            place = format!("{place}, {p}");
        }
    }
    (org, place, url)
}

/// A list written on one line: `Python, Rust, SQL` → its items (at least two, each a few words).
fn list_items(text: &str) -> Option<Vec<String>> {
    // Items set apart by wide gaps (a browser's keyword chips) are a list too.
    let items: Vec<String> = text
        .split("   ")
        .flat_map(|part| part.split([',', ';', '、', '،']))
        .map(|i| i.trim().trim_end_matches('.').to_owned())
        .filter(|i| !i.is_empty())
        .collect();
    (items.len() >= 2 && items.iter().all(|i| i.split_whitespace().count() <= 4)).then_some(items)
}

fn entry_value(id: &str, raw: Raw, words: &Words) -> Value {
    let mut m = Map::new();
    let summary = raw.paragraphs.join("\n\n");
    match id {
        "work" | "volunteer" => {
            let (title, subtitle) = title_and_subtitle(&raw, role_score, true);
            let (org, place, url) = subtitle_parts(&subtitle);
            put(&mut m, "position", title);
            put(
                &mut m,
                if id == "work" { "name" } else { "organization" },
                org,
            );
            if id == "work" {
                put(&mut m, "location", place);
            }
            put(&mut m, "url", url);
            put_dates(&mut m, &raw, "startDate", "endDate");
            let extra = raw.head.get(2).cloned().unwrap_or_default();
            if id == "work" && !extra.is_empty() {
                put(&mut m, "description", extra);
                put(&mut m, "summary", summary);
            } else {
                put(&mut m, "summary", [extra, summary].join("\n\n"));
            }
            highlights(&mut m, "highlights", raw.bullets);
        }
        "education" => {
            let (institution, degree) = title_and_subtitle(&raw, school_score, true);
            let swap = school_score(&degree) > school_score(&institution)
                || school_score(&institution) == 0 && !degree.is_empty();
            let (institution, degree) = if swap {
                (degree, institution)
            } else {
                (institution, degree)
            };
            let (school, _, url) = subtitle_parts(&institution);
            put(&mut m, "institution", school);
            put(&mut m, "url", url);
            let (study, area) = match degree
                .split_once(", ")
                .or_else(|| degree.split_once(" in "))
                .or_else(|| degree.split_once("、"))
            {
                Some((s, a)) => (s.to_owned(), a.to_owned()),
                None => (degree.clone(), String::new()),
            };
            put(&mut m, "studyType", study);
            put(&mut m, "area", area);
            put_dates(&mut m, &raw, "startDate", "endDate");
            let mut courses = Vec::new();
            for b in raw.bullets {
                let score = b.split_once(':').filter(|(label, _)| {
                    let l = label.trim().to_lowercase();
                    l == words.score().to_lowercase()
                        || Language::ALL
                            .iter()
                            .any(|&lang| Words::of(lang).score().to_lowercase() == l)
                        || matches!(l.as_str(), "gpa" | "grade" | "score")
                });
                match score {
                    Some((_, s)) if !m.contains_key("score") => put(&mut m, "score", s.trim()),
                    _ => courses.push(b),
                }
            }
            highlights(&mut m, "courses", courses);
            if !summary.is_empty() {
                let mut list: Vec<String> = m
                    .remove("courses")
                    .and_then(|c| serde_json::from_value(c).ok())
                    .unwrap_or_default();
                list.extend(raw.paragraphs);
                highlights(&mut m, "courses", list);
            }
        }
        "awards" | "certificates" | "publications" => {
            let (title, subtitle) = title_and_subtitle(&raw, |_| 0, true);
            let (org, _, url) = subtitle_parts(&subtitle);
            let (name, by, date) = match id {
                "awards" => ("title", "awarder", "date"),
                "certificates" => ("name", "issuer", "date"),
                _ => ("name", "publisher", "releaseDate"),
            };
            put(&mut m, name, title);
            put(&mut m, by, org);
            put(&mut m, "url", url);
            put_dates(&mut m, &raw, date, "");
            if id == "certificates" {
                // A certificate has no summary: its text is kept as what it is, a note in its name's place.
                if !summary.is_empty() {
                    let name = m.get(name).and_then(Value::as_str).unwrap_or("").to_owned();
                    m.insert(
                        "name".into(),
                        json!(format!("{name} — {summary}").trim_start_matches(" — ")),
                    );
                }
            } else {
                put(&mut m, "summary", summary);
            }
        }
        "references" => {
            let name = raw.head.join(", ");
            put(&mut m, "name", name);
            let mut text = raw.paragraphs;
            text.extend(raw.bullets);
            put(&mut m, "reference", text.join("\n\n"));
        }
        _ => {
            // projects
            let (title, subtitle) = title_and_subtitle(&raw, |_| 0, true);
            put(&mut m, "name", title);
            // "Smoogle · application · Team lead, Designer · https://…": entity, type, roles, link.
            let mut roles = Vec::new();
            for (i, p) in split_parts(&subtitle).into_iter().enumerate() {
                if is_url(&p) {
                    put(&mut m, "url", full_url(&p));
                } else if i == 0 {
                    put(&mut m, "entity", p);
                } else if p.contains([',', '、', '،']) || m.contains_key("type") {
                    roles.extend(p.split([',', '、', '،']).map(|r| r.trim().to_owned()));
                } else {
                    put(&mut m, "type", p);
                }
            }
            highlights(&mut m, "roles", roles);
            put_dates(&mut m, &raw, "startDate", "endDate");
            let mut paragraphs: Vec<String> = raw.head.iter().skip(2).cloned().collect();
            paragraphs.extend(raw.paragraphs);
            let keywords = paragraphs
                .last()
                .and_then(|p| list_items(p))
                .filter(|_| paragraphs.len() > 1 || !raw.bullets.is_empty());
            if let Some(keywords) = keywords {
                paragraphs.pop();
                highlights(&mut m, "keywords", keywords);
            }
            put(&mut m, "description", paragraphs.join("\n\n"));
            highlights(&mut m, "highlights", raw.bullets);
        }
    }
    Value::Object(m)
}

fn highlights(map: &mut Map<String, Value>, key: &str, items: Vec<String>) {
    let items: Vec<String> = items
        .into_iter()
        .map(|i| i.trim().to_owned())
        .filter(|i| !i.is_empty())
        .collect();
    if !items.is_empty() {
        map.insert(key.into(), json!(items));
    }
}

/// Words that say how well someone knows a skill or speaks a language.
const LEVELS: &[&str] = &[
    "master",
    "expert",
    "advanced",
    "intermediate",
    "beginner",
    "basic",
    "proficient",
    "familiar",
    "native",
    "native speaker",
    "fluent",
    "bilingual",
    "professional",
    "professional working proficiency",
    "full professional proficiency",
    "limited working proficiency",
    "elementary",
    "elementary proficiency",
    "native or bilingual proficiency",
    "conversational",
    "mother tongue",
    "a1",
    "a2",
    "b1",
    "b2",
    "c1",
    "c2",
    "muttersprache",
    "fließend",
    "verhandlungssicher",
    "grundkenntnisse",
    "gut",
    "sehr gut",
    "langue maternelle",
    "courant",
    "bilingue",
    "notions",
    "intermédiaire",
    "nativo",
    "nativa",
    "fluido",
    "fluida",
    "avanzado",
    "básico",
    "intermedio",
    "avançado",
    "fluente",
    "ネイティブ",
    "ビジネスレベル",
    "日常会話",
    "流利",
    "母语",
    "熟练",
    "精通",
    "اللغة الأم",
    "ممتاز",
    "جيد",
];

fn is_level(text: &str) -> bool {
    let t = text.trim().trim_end_matches('.').to_lowercase();
    LEVELS.contains(&t.as_str())
}

/// `English — Native speaker`, `German: fluent`, `French (B2)`: (name, level).
fn name_and_level(text: &str) -> (String, String) {
    for sep in [" — ", " – ", " - ", ": ", "：", " | ", " · ", "\t", " ("] {
        if let Some((a, b)) = text.split_once(sep) {
            let b = b.trim().trim_end_matches(')').trim();
            if !a.trim().is_empty() && !b.is_empty() {
                return (a.trim().to_owned(), b.to_owned());
            }
        }
    }
    (text.trim().to_owned(), String::new())
}

/// Skills or interests: a name, perhaps a level, and keywords.
fn named_lists(id: &str, lines: &[&Line]) -> Vec<Value> {
    let mut out: Vec<Map<String, Value>> = Vec::new();
    let level_key = if id == "skills" { Some("level") } else { None };
    for line in lines {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            continue;
        }
        let (name, rest) = match text.split_once([':', '：']) {
            Some((n, r)) if n.split_whitespace().count() <= 5 && !r.trim().is_empty() => {
                (Some(n.trim()), r.trim())
            }
            _ => (None, text),
        };
        if let Some(name) = name {
            let mut m = Map::new();
            put(&mut m, "name", name);
            let items = list_items(rest).unwrap_or_else(|| vec![rest.to_owned()]);
            highlights(&mut m, "keywords", items);
            out.push(m);
            continue;
        }
        let current = out.last_mut();
        match (list_items(text), current) {
            (Some(items), Some(m)) if !m.contains_key("keywords") => {
                highlights(m, "keywords", items);
            }
            (Some(items), _) => {
                let mut m = Map::new();
                highlights(&mut m, "keywords", items);
                out.push(m);
            }
            (None, Some(m))
                if level_key.is_some()
                    && is_level(text)
                    && !m.contains_key("level")
                    && !m.contains_key("keywords") =>
            {
                put(m, "level", text);
            }
            (None, Some(m)) if line.indent > 0.5 && !m.contains_key("keywords") => {
                highlights(m, "keywords", vec![text.to_owned()]);
            }
            (None, _) => {
                let mut m = Map::new();
                put(&mut m, "name", text);
                out.push(m);
            }
        }
    }
    out.into_iter().map(Value::Object).collect()
}

fn languages(lines: &[&Line]) -> Vec<Value> {
    let mut out: Vec<Map<String, Value>> = Vec::new();
    for line in lines {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            continue;
        }
        if is_level(text)
            && let Some(m) = out.last_mut().filter(|m| !m.contains_key("fluency"))
        {
            put(m, "fluency", text);
            continue;
        }
        let items = list_items(text).filter(|items| items.iter().all(|i| !i.contains(['(', ':'])));
        for item in items.unwrap_or_else(|| vec![text.to_owned()]) {
            let (language, fluency) = name_and_level(&item);
            let mut m = Map::new();
            put(&mut m, "language", language);
            put(&mut m, "fluency", fluency);
            out.push(m);
        }
    }
    out.into_iter().map(Value::Object).collect()
}

fn section(id: &str, lines: &[&Line], unplaced: &mut Vec<String>) -> Vec<Value> {
    let _ = unplaced;
    match id {
        "skills" | "interests" => named_lists(id, lines),
        "languages" => languages(lines),
        _ => {
            let words = Words::english();
            entries(lines)
                .into_iter()
                .map(|raw| entry_value(id, raw, &words))
                .filter(|v| v.as_object().is_some_and(|m| !m.is_empty()))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<Line> {
        crate::text::lines(text)
    }

    #[test]
    fn a_plain_text_resume_is_read_into_its_fields() {
        let read = read(&lines(
            "Ada Lovelace\nAnalytical Engineer\nada@example.com | +44 20 7946 0000 | https://ada.example.com | London, UK\nlinkedin.com/in/adalovelace · github.com/ada\n\nSummary\nI write programs for engines that do not exist yet.\n\nExperience\nSenior Engineer — Analytical Engines Ltd · London\nJan 2020 – Present\n• Wrote the first program\n• Translated Menabrea's paper, adding notes\n  three times its length\n\nLead Programmer | Babbage & Co | 2015 – 2019\n- Planned the Bernoulli numbers\n\nEducation\nUniversity of London\nBSc in Mathematics\n2011 – 2014\n\nSkills\nLanguages: Rust, Python, SQL\nMathematics: Analysis, Algebra\n\nLanguages\nEnglish — Native\nFrench: Fluent\n\nHobbies\nPoetry, Horses\n",
        ));
        let d = &read.document;
        assert_eq!(d["basics"]["name"], "Ada Lovelace");
        assert_eq!(d["basics"]["label"], "Analytical Engineer");
        assert_eq!(d["basics"]["email"], "ada@example.com");
        assert_eq!(d["basics"]["phone"], "+44 20 7946 0000");
        assert_eq!(d["basics"]["url"], "https://ada.example.com");
        assert_eq!(d["basics"]["location"]["city"], "London");
        assert_eq!(d["basics"]["profiles"][0]["network"], "LinkedIn");
        assert_eq!(d["basics"]["profiles"][0]["username"], "adalovelace");
        assert_eq!(d["basics"]["profiles"][1]["network"], "GitHub");
        assert_eq!(
            d["basics"]["summary"],
            "I write programs for engines that do not exist yet."
        );
        let work = &d["work"];
        assert_eq!(work[0]["position"], "Senior Engineer");
        assert_eq!(work[0]["name"], "Analytical Engines Ltd");
        assert_eq!(work[0]["location"], "London");
        assert_eq!(work[0]["startDate"], "2020-01");
        assert!(work[0].get("endDate").is_none());
        assert_eq!(
            work[0]["highlights"][1],
            "Translated Menabrea's paper, adding notes three times its length"
        );
        assert_eq!(work[1]["position"], "Lead Programmer");
        assert_eq!(work[1]["name"], "Babbage & Co");
        assert_eq!(work[1]["endDate"], "2019");
        assert_eq!(d["education"][0]["institution"], "University of London");
        assert_eq!(d["education"][0]["studyType"], "BSc");
        assert_eq!(d["education"][0]["area"], "Mathematics");
        assert_eq!(d["skills"][0]["name"], "Languages");
        assert_eq!(d["skills"][0]["keywords"], json!(["Rust", "Python", "SQL"]));
        assert_eq!(
            d["languages"][1],
            json!({"language": "French", "fluency": "Fluent"})
        );
        assert_eq!(d["interests"][0]["keywords"], json!(["Poetry", "Horses"]));
        assert!(read.unplaced.is_empty(), "{:?}", read.unplaced);
        redline_resume::validate(d).unwrap();
    }

    #[test]
    fn lines_under_a_heading_redline_does_not_know_are_listed_not_lost() {
        let mut ls = lines("Ada Lovelace\n\nWork\nEngineer\n2020 – 2021\n");
        let mut odd = Line::plain("Things I Like");
        odd.heading = true;
        ls.push(odd);
        ls.push(Line::plain("Long walks"));
        let read = read(&ls);
        assert_eq!(read.unplaced, ["Things I Like", "Long walks"]);
        assert_eq!(read.document["work"][0]["position"], "Engineer");
    }
}
