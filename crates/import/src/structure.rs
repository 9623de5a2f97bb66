//! Lines of a resume, in reading order, into JSON Resume: the header (name, label, contacts, profiles,
//! summary), then each section known by its heading, split into entries and their fields. Every line ends
//! up in the document or in the list of lines not placed.

use redline_resume::words::{Language, Words};
use serde_json::{Map, Value, json};

use crate::Line;
use crate::dates::{self, Span};
use crate::headings::{self, Part, part};

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
    // A web page's own links ("Skip to content"), kept when a word processor saved the page: not the
    // resume's, so not placed in it (and listed, as every line not placed is).
    let (chrome, lines): (Vec<Line>, Vec<Line>) = lines.iter().cloned().partition(|l| {
        PAGE_CHROME.contains(&headings::key(&l.text).as_str())
            || page_number(&l.text)
            || last_updated(&l.text)
    });
    unplaced.extend(chrome.into_iter().map(|l| l.text));
    let lines = &lines[..];
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
            Some(Part::Summary) => about(&block.lines, &mut basics, &mut summary, &mut unplaced),
            Some(Part::Contact) => contact_block(&block.lines, &mut basics, &mut unplaced),
            Some(Part::Section(id)) => {
                // A publication's authors ("Frodo Baggins, Richard Hendriks, Samwise Gamgee", the
                // person among them): JSON Resume has no place for them, so they are listed, not
                // taken for where it appeared.
                let name = basics.get("name").and_then(Value::as_str).unwrap_or("");
                let (authors, lines): (Vec<&Line>, Vec<&Line>) = block
                    .lines
                    .iter()
                    .partition(|l| id == "publications" && authors_with(&l.text, name));
                unplaced.extend(authors.into_iter().map(|l| l.text.clone()));
                let items = section(id, &lines, &mut unplaced);
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
    if !document.contains_key("skills")
        && let Some(skills) = skills_unheaded(&mut unplaced)
    {
        document.insert("skills".into(), Value::Array(skills));
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

/// A list of names with `name` among them, or `name` alone: a publication's authors.
fn authors_with(text: &str, name: &str) -> bool {
    let key = |t: &str| t.trim().trim_matches('*').trim().to_lowercase();
    let names: Vec<String> = text
        .split([',', ';', '&'])
        .flat_map(|n| n.split(" and "))
        .map(key)
        .filter(|n| !n.is_empty())
        .collect();
    !name.trim().is_empty()
        && names.contains(&key(name))
        && names.iter().all(|n| n.split_whitespace().count() <= 4)
}

/// Skills listed with no heading over them (a sidebar: a name, its level, a row of its keywords, for
/// each), taken out of the lines not placed: two such skills in a row at least, or none is read.
fn skills_unheaded(unplaced: &mut Vec<String>) -> Option<Vec<Value>> {
    let row = |t: &str| -> Option<Vec<String>> {
        let cells: Vec<String> = t
            .split("   ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect();
        (cells.len() >= 2 && cells.iter().all(|c| short(c))).then_some(cells)
    };
    // The skill starting at line `i`: (the skill, how many lines it takes).
    let skill_at = |i: usize| -> Option<(Value, usize)> {
        let name = unplaced.get(i)?;
        if !short(name) || row(name).is_some() || is_level(name) {
            return None;
        }
        let next = unplaced.get(i + 1)?;
        if let Some(keywords) = row(next) {
            return Some((json!({"name": name, "keywords": keywords}), 2));
        }
        if !is_level(next) {
            return None;
        }
        if let Some(keywords) = row(unplaced.get(i + 2)?) {
            return Some((
                json!({"name": name, "level": next, "keywords": keywords}),
                3,
            ));
        }
        // One keyword a line (a word processor's paragraphs), up to the next name with its level.
        let mut keywords = Vec::new();
        for (j, k) in unplaced.iter().enumerate().skip(i + 2).take(MAX_KEYWORDS) {
            let names_next = unplaced.get(j + 1).is_some_and(|n| is_level(n));
            if !a_keyword(k) || is_level(k) || names_next {
                break;
            }
            keywords.push(k.clone());
        }
        let taken = 2 + keywords.len();
        (!keywords.is_empty()).then(|| {
            (
                json!({"name": name, "level": next, "keywords": keywords}),
                taken,
            )
        })
    };
    for start in 0..unplaced.len() {
        let (mut skills, mut end) = (Vec::new(), start);
        while let Some((skill, taken)) = skill_at(end) {
            skills.push(skill);
            end += taken;
        }
        if skills.len() >= 2 {
            unplaced.drain(start..end);
            return Some(skills);
        }
    }
    None
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
            // An entry's title set as large as the headings: the first line under one, or one with dates.
            && !blocks.last().is_some_and(|b| b.part.is_some() && b.lines.is_empty())
            && dates::find(&line.text).is_none()
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
/// Font Awesome's icons of networks, which LaTeX and Typst templates (moderncv, RenderCV) set before a user
/// name in the network's name's place: the same code points in its versions 5 to 7.
const NETWORK_ICONS: &[(char, &str)] = &[
    ('\u{f08c}', "LinkedIn"),
    ('\u{f0e1}', "LinkedIn"),
    ('\u{f09b}', "GitHub"),
    ('\u{f092}', "GitHub"),
    ('\u{f113}', "GitHub"),
    ('\u{f296}', "GitLab"),
    ('\u{e61b}', "X"),
    ('\u{f099}', "Twitter"),
    ('\u{f081}', "Twitter"),
    ('\u{f16c}', "Stack Overflow"),
    ('\u{f16d}', "Instagram"),
    ('\u{f167}', "YouTube"),
    ('\u{f16a}', "YouTube"),
    ('\u{f23a}', "Medium"),
    ('\u{f17d}', "Dribbble"),
    ('\u{f1b4}', "Behance"),
    ('\u{f1be}', "SoundCloud"),
    ('\u{f09a}', "Facebook"),
    ('\u{f082}', "Facebook"),
    ('\u{f168}', "XING"),
    ('\u{e671}', "Bluesky"),
    ('\u{f8d2}', "ORCID"),
    ('\u{f4f8}', "ResearchGate"),
    ('\u{f4f6}', "Mastodon"),
    ('\u{f2c6}', "Telegram"),
    ('\u{f3fe}', "Telegram"),
];

fn pieces(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in line.split(['|', '·', '•', '◦', '⋅', '\t', '✉', '☎', '📞', '📧']) {
        for piece in piece.split("   ") {
            let piece = piece.trim();
            let icon = piece.chars().next().and_then(|c| {
                NETWORK_ICONS
                    .iter()
                    .find(|(i, _)| *i == c)
                    .map(|&(_, network)| network)
            });
            let piece = piece.trim_matches(|c: char| {
                c.is_whitespace() || ('\u{E000}'..='\u{F8FF}').contains(&c)
            });
            // A network's icon, then a user name: the network's name said in words.
            match icon {
                Some(network) if one_word(piece) && !is_url(piece) && !is_email(piece) => {
                    out.push(format!("{network}: {}", piece.trim_start_matches('@')));
                }
                _ if !piece.is_empty() => out.push(piece.to_owned()),
                _ => {}
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
    // A network's own host, or one named for it (`soundcloud.example.com`).
    let (_, network) = NETWORKS.iter().find(|(h, _)| {
        host == *h
            || host.ends_with(&format!(".{h}"))
            || h.split('.')
                .next()
                .is_some_and(|stem| host.starts_with(&format!("{stem}.")))
    })?;
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

/// A place as people write it, into JSON Resume's location: a country code at the end (`US`, `(US)`), a
/// postal code where one is (`94115`, `CA 94115`), then address, city and region by how many parts are
/// left.
fn location(text: &str) -> Value {
    let mut parts: Vec<String> = text
        .split([',', '、', '،'])
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let code = |p: &str| p.len() == 2 && p.chars().all(|c| c.is_ascii_uppercase());
    if parts.len() == 1
        && let Some(place) = address_words(&parts[0])
    {
        return Value::Object(place);
    }
    let mut place = Map::new();
    if parts.len() > 1 {
        let last = parts.last().cloned().unwrap_or_default();
        // "Oakland, CA": after a city alone, a US state's code is its region (California, not Canada).
        if parts.len() == 2 && US_STATE_CODES.contains(&last.as_str()) {
            place.insert("city".into(), json!(parts[0]));
            place.insert("region".into(), json!(last));
            return Value::Object(place);
        }
        if code(&last) {
            place.insert("countryCode".into(), json!(last));
            parts.pop();
        } else if let Some((rest, country)) = last
            .strip_suffix(')')
            .and_then(|l| l.rsplit_once('('))
            .filter(|(_, c)| code(c))
        {
            place.insert("countryCode".into(), json!(country));
            let rest = rest.trim().to_owned();
            parts.pop();
            if !rest.is_empty() {
                parts.push(rest);
            }
        }
    }
    // `94115`, `CA 94115`, `NW1 5LR`, `75001`.
    let postal = |p: &str| {
        let digits = p.chars().filter(char::is_ascii_digit).count();
        let numbered = |w: &str| w.chars().any(|c| c.is_ascii_digit());
        p.split_whitespace().count() <= 2
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
            && (digits >= 2 && p.split_whitespace().all(numbered)
                || digits >= 4 && p.split_whitespace().all(|w| numbered(w) || code(w)))
    };
    if parts.len() > 1
        && let Some(i) = parts.iter().position(|p| postal(p))
    {
        place.insert("postalCode".into(), json!(parts.remove(i)));
    }
    let keys: &[&str] = match parts.len() {
        0 => &[],
        1 => &["city"],
        2 => &["city", "region"],
        _ => &["address", "city", "region"],
    };
    let n = parts.len();
    for (i, key) in keys.iter().enumerate() {
        let value = match (keys.len(), i) {
            // More parts than keys: the address takes the first ones.
            (3, 0) => parts[..n - 2].join(", "),
            (3, _) => parts[n - 3 + i].clone(),
            _ => parts[i].clone(),
        };
        place.insert((*key).into(), json!(value));
    }
    Value::Object(place)
}

/// Words that end a street's name in an address.
const STREET_WORDS: &[&str] = &[
    "st",
    "street",
    "ave",
    "avenue",
    "rd",
    "road",
    "blvd",
    "boulevard",
    "ln",
    "lane",
    "dr",
    "drive",
    "way",
    "ct",
    "court",
    "pl",
    "place",
    "sq",
    "square",
    "pkwy",
    "parkway",
    "hwy",
    "highway",
    "ter",
    "terrace",
    "cir",
    "circle",
];

/// The states of the United States, whose addresses are the ones most often written with no commas.
/// The US states' two-letter codes.
const US_STATE_CODES: &[&str] = &[
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
    "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
    "WI", "WY", "DC",
];

const US_STATES: &[&str] = &[
    "Alabama",
    "Alaska",
    "Arizona",
    "Arkansas",
    "California",
    "Colorado",
    "Connecticut",
    "Delaware",
    "Florida",
    "Georgia",
    "Hawaii",
    "Idaho",
    "Illinois",
    "Indiana",
    "Iowa",
    "Kansas",
    "Kentucky",
    "Louisiana",
    "Maine",
    "Maryland",
    "Massachusetts",
    "Michigan",
    "Minnesota",
    "Mississippi",
    "Missouri",
    "Montana",
    "Nebraska",
    "Nevada",
    "New Hampshire",
    "New Jersey",
    "New Mexico",
    "New York",
    "North Carolina",
    "North Dakota",
    "Ohio",
    "Oklahoma",
    "Oregon",
    "Pennsylvania",
    "Rhode Island",
    "South Carolina",
    "South Dakota",
    "Tennessee",
    "Texas",
    "Utah",
    "Vermont",
    "Virginia",
    "Washington",
    "West Virginia",
    "Wisconsin",
    "Wyoming",
    "District of Columbia",
];

/// An address written with no commas (`2712 Broadway St San Francisco California CA 94115 US`, a theme's
/// lines run together), split by what its words are: a number and a street up to a street's word, then
/// the city, a state's name, a state's code with its ZIP code, a country code. `None` when it is not one.
fn address_words(text: &str) -> Option<Map<String, Value>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let code = |w: &str| w.len() == 2 && w.chars().all(|c| c.is_ascii_uppercase());
    let zip = |w: &str| w.len() >= 4 && w.chars().all(|c| c.is_ascii_digit() || c == '-');
    if words.len() < 4 || !words[0].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let street =
        words.iter().skip(1).position(|w| {
            STREET_WORDS.contains(&w.trim_end_matches('.').to_lowercase().as_str())
        })? + 1;
    let mut place = Map::new();
    place.insert("address".into(), json!(words[..=street].join(" ")));
    let mut rest = &words[street + 1..];
    if let [before @ .., last] = rest
        && code(last)
        && before.last().is_some_and(|w| zip(w))
    {
        place.insert("countryCode".into(), json!(last));
        rest = before;
    }
    if let [before @ .., number] = rest
        && zip(number)
    {
        match before {
            [head @ .., state] if code(state) => {
                place.insert("postalCode".into(), json!(format!("{state} {number}")));
                rest = head;
            }
            _ => {
                place.insert("postalCode".into(), json!(number));
                rest = before;
            }
        }
    }
    for n in [3, 2, 1] {
        if rest.len() > n {
            let name = rest[rest.len() - n..].join(" ");
            if US_STATES.iter().any(|s| s.eq_ignore_ascii_case(&name)) {
                place.insert("region".into(), json!(name));
                rest = &rest[..rest.len() - n];
                break;
            }
        }
    }
    if !rest.is_empty() {
        place.insert("city".into(), json!(rest.join(" ")));
    }
    // A street and nothing the words could tell apart after it is not read as an address.
    (place.len() >= 3).then_some(place)
}

/// A network known by its name ("Twitter", "github"): its name as written in [`NETWORKS`].
fn network_named(text: &str) -> Option<&'static str> {
    let t = text.trim().trim_end_matches(':');
    NETWORKS
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(t))
        .map(|&(_, n)| n)
}

/// `neutralthoughts (Twitter)`: (network, user).
fn user_and_network(piece: &str) -> Option<(&'static str, &str)> {
    let (user, rest) = piece.split_once(" (")?;
    let network = network_named(rest.strip_suffix(')')?)?;
    let user = user.trim().trim_start_matches('@');
    (!user.is_empty() && !user.contains(char::is_whitespace)).then_some((network, user))
}

/// A word standing alone: a user name.
fn one_word(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && !t.contains(char::is_whitespace) && t.chars().count() <= 40
}

/// Reads the contact details in `line` into `basics`; false when the line is not contact details.
fn contacts(line: &str, basics: &mut Map<String, Value>) -> bool {
    let contact = |p: &str| {
        is_email(p)
            || is_phone(p)
            || is_url(p)
            || network_piece(p).is_some()
            || user_and_network(p).is_some()
    };
    let mut pieces = pieces(line);
    // None known: perhaps a link written after its words ("(912) 555-4321 <https://…>", "neutralthoughts
    // <https://twitter.com/>", as a Word file's links are read), the words and the address each a piece.
    if !pieces.iter().any(|p| contact(p)) {
        pieces = pieces.iter().flat_map(|p| linked(p)).collect();
    }
    let known = pieces.iter().filter(|p| contact(p)).count();
    if known == 0 {
        return false;
    }
    let mut i = 0;
    while i < pieces.len() {
        let p = &pieces[i];
        i += 1;
        if is_email(p) && !basics.contains_key("email") {
            basics.insert("email".into(), json!(p.trim_start_matches("mailto:")));
        } else if is_phone(p) && !basics.contains_key("phone") {
            basics.insert("phone".into(), json!(p));
        } else if let Some((network, user, url)) = network_piece(p) {
            push_profile(basics, &network, &user, &url);
        } else if let Some((network, user)) = user_and_network(p) {
            push_profile(basics, network, user, "");
        } else if is_url(p) {
            let url = full_url(p);
            match profile_of(&url) {
                Some((network, user)) => push_profile(basics, &network, &user, &url),
                None if !basics.contains_key("url") => {
                    basics.insert("url".into(), json!(url));
                }
                None => push_profile(basics, "", "", &url),
            }
        } else if one_word(p)
            && !is_email(p)
            && let Some(url) = pieces.get(i).filter(|u| is_url(u) && !is_email(u))
        {
            // "neutralthoughts · https://twitter.com": a user name and the profile's address.
            let url = full_url(url);
            let network = profile_of(&url).map(|(n, _)| n).unwrap_or_default();
            push_profile(basics, &network, p, &url);
            i += 1;
        } else if let Some(network) = p
            .strip_prefix('(')
            .and_then(|n| n.strip_suffix(')'))
            .and_then(network_named)
        {
            // "neutralthoughts <https://…> (Twitter)": the network of the profile just read.
            if let Some(Value::Object(last)) = basics
                .get_mut("profiles")
                .and_then(|l| l.as_array_mut()?.last_mut())
            {
                last.entry("network").or_insert_with(|| json!(network));
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

/// `text` with each link written after its words (`words <https://…>`) as two parts, the words and the
/// address; the words are left out when there are none.
fn linked(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest
        .find(" <")
        .or_else(|| rest.starts_with('<').then_some(0))
    {
        let from = if rest[open..].starts_with(" <") {
            open + 2
        } else {
            open + 1
        };
        let Some(close) = rest[from..].find('>').map(|c| from + c) else {
            break;
        };
        let target = &rest[from..close];
        if !is_url(target) || target.contains(char::is_whitespace) {
            break;
        }
        let words = rest[..open].trim();
        if !words.is_empty() {
            out.push(words.to_owned());
        }
        out.push(target.to_owned());
        rest = &rest[close + 1..];
    }
    if !rest.trim().is_empty() {
        out.push(rest.trim().to_owned());
    }
    out
}

/// Words that label a contact detail set on the line above it ("Email", then the address).
const CONTACT_LABELS: &[&str] = &[
    "email",
    "e-mail",
    "mail",
    "phone",
    "telephone",
    "tel",
    "mobile",
    "cell",
    "website",
    "web",
    "homepage",
    "url",
    "address",
    "location",
    "telefon",
    "adresse",
    "téléphone",
    "teléfono",
    "correo",
    "telefone",
    "endereço",
];

/// A block of contact details: lines of them, labels over them ("Email", "Phone"), and a network's name
/// over the user's ("Twitter", then "neutralthoughts").
fn contact_block(lines: &[&Line], basics: &mut Map<String, Value>, unplaced: &mut Vec<String>) {
    let mut i = 0;
    while i < lines.len() {
        let text = lines[i].text.trim();
        i += 1;
        let bare = text.trim_end_matches(':').to_lowercase();
        if CONTACT_LABELS.contains(&bare.as_str()) {
            continue;
        }
        if let Some(network) = network_named(text)
            && let Some(user) = lines.get(i).map(|l| l.text.trim()).filter(|u| one_word(u))
        {
            let (user, url) = if is_url(user) {
                let url = full_url(user);
                let name = profile_of(&url).map(|(_, u)| u).unwrap_or_default();
                (name, url)
            } else {
                (user.trim_start_matches('@').to_owned(), String::new())
            };
            push_profile(basics, network, &user, &url);
            i += 1;
            continue;
        }
        if !contacts(text, basics) {
            unplaced.push(text.to_owned());
        }
    }
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

/// A summary's block, which beside a sidebar often holds the contact details too ("About"): where it
/// has contact lines, its short lines are contact details (an address wrapped over lines, a user name
/// beside a network's icon) and only its prose is the summary.
fn about(
    lines: &[&Line],
    basics: &mut Map<String, Value>,
    summary: &mut Vec<String>,
    unplaced: &mut Vec<String>,
) {
    let lines = rejoined(lines);
    let mut details = Map::new();
    let is_contact: Vec<bool> = lines
        .iter()
        .map(|l| short(&l.text) && contacts(&l.text, &mut details))
        .collect();
    if !is_contact.contains(&true) {
        let lines: Vec<&Line> = lines.iter().collect();
        summary.extend(paragraphs(&lines));
        return;
    }
    let mut prose: Vec<&Line> = Vec::new();
    let mut place: Vec<&str> = Vec::new();
    for (line, contact) in lines.iter().zip(is_contact) {
        let text = line.text.trim();
        if contact {
            contacts(text, basics);
        } else if !short(text) {
            prose.push(line);
        } else if one_word(text) && !text.ends_with('.') {
            push_profile(basics, "", text.trim_start_matches('@'), "");
        } else if prose.is_empty() && !basics.contains_key("location") {
            place.push(text);
        } else {
            unplaced.push(text.to_owned());
        }
    }
    if !place.is_empty() {
        basics.insert("location".into(), location(&place.join(" ")));
    }
    summary.extend(paragraphs(&prose));
}

/// Lines with an address or a link broken across them (`richard@mail.c`, then `om`) joined again.
fn rejoined(lines: &[&Line]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    for line in lines {
        let text = line.text.trim();
        if let Some(last) = out.last_mut()
            && !line.gap
            && (is_email(&last.text) || is_url(&last.text))
            && one_word(text)
            && text.chars().count() <= 12
            && text.starts_with(|c: char| c.is_lowercase() || c == '/')
        {
            last.text.push_str(text);
            continue;
        }
        out.push((*line).clone());
    }
    out
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
            && (prose.is_empty() || line.gap || line.bullet)
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
    /// Lists under a label ("Skills: a · b"): the label's key and the items.
    lists: Vec<(String, Vec<String>)>,
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
/// `keywords_first`: a list of words one to a bullet right under a title is the entry's keywords (a
/// project's), not its highlights.
fn entries(lines: &[&Line], keywords_first: bool) -> Vec<Raw> {
    let mut out: Vec<Raw> = Vec::new();
    let mut current = Raw::default();
    let mut last_bullet: Option<&Line> = None;
    let mut last_was_head = false;
    let mut items_spaced = false;
    let mut entry_indent = lines.first().map_or(0.0, |l| l.indent);
    let mut skip = 0;
    for (at, line) in lines.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let text = line.text.trim();
        if text.is_empty() {
            continue;
        }
        // Dates set flush right beside the entry's first bullet or the first line of its description
        // (the title's line held its place): the entry's dates, not the line's words.
        let undated;
        let text = match text.rsplit_once("   ") {
            Some((before, last))
                if !current.head.is_empty()
                    && current.dates.is_none()
                    && (strip_bullet(before).is_some() || !short(before)) =>
            {
                match dates::only(last) {
                    Some(span) => {
                        current.dates = Some(span);
                        undated = before.trim_end().to_owned();
                        undated.as_str()
                    }
                    None => text,
                }
            }
            _ => text,
        };
        let after_head = std::mem::replace(&mut last_was_head, false);
        // "Highlights", "Courses": a label over a list, which the list's own field says.
        if !current.head.is_empty() && ENTRY_LABELS.contains(&headings::key(text).as_str()) {
            current.in_paragraph = false;
            last_bullet = None;
            continue;
        }
        // "Skills: a · b", "Major courses: a · b": a labelled list is the entry's keywords or courses, a
        // bullet's own too ("• Technologies: a, b").
        if !current.head.is_empty()
            && let Some((label, rest)) = strip_bullet(text).unwrap_or(text).split_once(':')
            && ENTRY_LABELS.contains(&headings::key(label).as_str())
            && !rest.trim().is_empty()
        {
            current
                .lists
                .push((headings::key(label), keyword_items(rest)));
            current.in_paragraph = false;
            continue;
        }
        // A list whose bullets are drawn, not written (a browser's `<ul>` printed): its items stand in
        // from the entry's left edge.
        let drawn_bullet = !current.head.is_empty()
            && line.indent >= entry_indent + 1.0
            // Right under a one-line title, a line set in a little is the title's second line.
            && (current.has_body() || current.head.len() >= 2 || line.indent >= entry_indent + 2.0)
            && !text.starts_with(|c: char| c.is_lowercase())
            && list_items(text).is_none()
            && !(line.wrapped && items_spaced && !line.gap)
            && last_bullet.is_none_or(|b| b.indent + 0.3 >= line.indent)
            // Right under the title, the line with the entry's dates is its second line, however far in
            // it stands (a right-to-left page sets a short line far from the left).
            && !(current.dates.is_none() && !current.has_body() && dates::find(text).is_some());
        // Words one to a bullet right under an entry's title, before anything else of it (a theme's
        // keywords over the description): a list of their own.
        if keywords_first
            && !current.head.is_empty()
            && !current.has_body()
            && current.lists.is_empty()
            && let Some(n) = keyword_bullets(&lines[at..])
        {
            let items = lines[at..at + n].iter().map(|l| {
                strip_bullet(l.text.trim())
                    .unwrap_or(l.text.trim())
                    .to_owned()
            });
            current.lists.push(("keywords".into(), items.collect()));
            skip = n - 1;
            continue;
        }
        if let Some(item) = strip_bullet(text).or((line.bullet || drawn_bullet).then_some(text)) {
            // A list whose items stand apart (a space between them): a line with none before it
            // carries on the item above.
            items_spaced = last_bullet.is_some() && line.gap;
            current.bullets.push(item.to_owned());
            current.in_paragraph = false;
            last_bullet = Some(line);
            continue;
        }
        if let Some(bullet) = last_bullet
            && (!line.gap && line.indent > bullet.indent + 0.3
                || line.wrapped && items_spaced && (line.indent - bullet.indent).abs() <= 0.3
                || text.starts_with(|c: char| c.is_lowercase()) && !is_url(text))
            && let Some(last) = current.bullets.last_mut()
        {
            join_wrapped(last, text);
            continue;
        }
        last_bullet = None;
        // Words one to a line between a description and its bullets (a project's keywords as a word
        // processor keeps them): a list of their own.
        if (!current.paragraphs.is_empty() || keywords_first && current.head.len() >= 2)
            && current.bullets.is_empty()
            && let Some(n) = keyword_lines(&lines[at..])
        {
            let items = lines[at..at + n].iter().map(|l| l.text.trim().to_owned());
            current.lists.push((UNLABELLED.into(), items.collect()));
            current.in_paragraph = false;
            skip = n - 1;
            continue;
        }
        let span = dates::find(text);
        let rest = span
            .as_ref()
            .map_or_else(|| text.to_owned(), |s| dates::without(text, s));
        let headish = short(text) || span.is_some() && short(&rest);
        // A short line right under a paragraph's last is that paragraph's end, not a new title; a list on
        // one line after the body is the entry's keywords.
        let continues_paragraph = current.in_paragraph && !line.gap;
        // A title's line can read as a list ("Quillmark, Senior Engineer   Seattle, WA"): after a space,
        // with dates on the line under it, it is the next entry's.
        let next_dated = || {
            lines
                .get(at + 1)
                .is_some_and(|next| dates::find(&next.text).is_some())
        };
        let starts = !current.is_empty()
            && headish
            && !continues_paragraph
            && (list_items(text).is_none() || line.gap && current.dates.is_some() && next_dated())
            && (current.has_body() || span.is_some() && current.dates.is_some());
        if starts {
            out.push(std::mem::take(&mut current));
        }
        if current.is_empty() {
            entry_indent = line.indent;
        } else if !current.has_body() {
            // A date set far right above the title does not set the entry's left edge.
            entry_indent = entry_indent.min(line.indent);
        }
        // The dates in a column of their own left of the title ("Dec 2013 – Dec 2014   CEO, Pied Piper",
        // LaTeX's moderncv): the entry's left edge is the title's, where its text stands.
        let first_cell = text.split("   ").next().unwrap_or(text);
        if !current.has_body()
            && let [first, title, ..] = line.cells[..]
            && title > first
            && dates::find(first_cell).is_some_and(|s| dates::without(first_cell, &s).is_empty())
        {
            entry_indent = title;
        }
        // Under the title, a line that runs on into the next (a word broken at its end, a sentence carried
        // on in lower case): the description's first line, though short; the dates beside it the entry's.
        let runs_on = lines.get(at + 1).is_some_and(|next| {
            next.wrapped && !next.gap && next.text.trim_start().starts_with(char::is_lowercase)
        });
        if headish && runs_on && !current.head.is_empty() && !current.has_body() {
            let first = match span.filter(|_| current.dates.is_none()) {
                Some(span) => {
                    current.dates = Some(span);
                    rest
                }
                None => text.to_owned(),
            };
            current.paragraphs.push(first);
            current.in_paragraph = true;
            continue;
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
                last_was_head = true;
            }
            continue;
        }
        match current.paragraphs.last_mut() {
            Some(last) if current.in_paragraph && !line.gap => join_wrapped(last, text),
            // A long line taken for the entry's last title line, with this one right under it: a
            // paragraph's first line, wrapped.
            None if !line.gap
                && after_head
                && (current.head.len() >= 2 || text.starts_with(|c: char| c.is_lowercase()))
                && current.dates_on != Some(current.head.len() - 1)
                && current
                    .head
                    .last()
                    .is_some_and(|h| h.split_whitespace().count() >= 8) =>
            {
                let mut first = current.head.pop().unwrap_or_default();
                join_wrapped(&mut first, text);
                current.paragraphs.push(first);
            }
            _ => current.paragraphs.push(text.to_owned()),
        }
        current.in_paragraph = true;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The key of a list that stood under no label ([`keyword_lines`]).
const UNLABELLED: &str = "";

/// How many lines from the first are bullets of a keyword each, two or more, followed by a line that is
/// not a bullet; `None` when they are not.
fn keyword_bullets(lines: &[&Line]) -> Option<usize> {
    let item = |l: &Line| {
        let t = l.text.trim();
        let bare = strip_bullet(t).or(l.bullet.then_some(t));
        bare.is_some_and(a_keyword)
    };
    let (n, next) = run_of(lines, item)?;
    (!next.bullet && strip_bullet(next.text.trim()).is_none()).then_some(n)
}

/// How many lines from the first are a list of words one to a line (two or more, each of at most three
/// words and no sentence, none a date, none bold, all of a size) right before a bulleted line; `None`
/// when they are not (a title in bold over its bullets starts an entry).
fn keyword_lines(lines: &[&Line]) -> Option<usize> {
    let size = lines.first()?.size;
    let word = |l: &Line| {
        let t = l.text.trim();
        !l.bullet
            && !l.bold
            && (l.size - size).abs() < 0.05
            && strip_bullet(t).is_none()
            && a_keyword(t)
    };
    let (n, next) = run_of(lines, word)?;
    (next.bullet || strip_bullet(next.text.trim()).is_some()).then_some(n)
}

/// How many lines from the first are each `item` — two to [`MAX_KEYWORDS`], looked ahead no further — and
/// the line after them; `None` for a shorter or longer run, or one that ends the lines.
fn run_of<'a>(lines: &[&'a Line], item: impl Fn(&Line) -> bool) -> Option<(usize, &'a Line)> {
    let n = lines
        .iter()
        .take(MAX_KEYWORDS + 1)
        .take_while(|l| item(l))
        .count();
    let next = lines.get(n).filter(|_| (2..=MAX_KEYWORDS).contains(&n))?;
    Some((n, *next))
}

/// The most keywords one to a line an entry is read with: a longer run is not a list of keywords, and
/// each line of a file is looked ahead from at most this far (a file of a million short lines stays linear).
const MAX_KEYWORDS: usize = 64;

/// A keyword, not a sentence or a title with its dates: at most three words, no sentence's end.
fn a_keyword(text: &str) -> bool {
    let t = text.trim();
    short(t)
        && t.split_whitespace().count() <= 3
        && !t.ends_with([',', ':', ';'])
        && !is_url(t)
        && dates::find(t).is_none()
}

/// Labels an entry's lists are set under, by their key: highlights, courses, keywords.
const ENTRY_LABELS: &[&str] = &[
    "highlights",
    "keyachievements",
    "achievements",
    "courses",
    "majorcourses",
    "coursework",
    "relevantcoursework",
    "skills",
    "keywords",
    "technologies",
    "tools",
    "stack",
    "techstack",
];

/// A list's items where they are set apart by commas, middle dots or wide gaps.
fn keyword_items(text: &str) -> Vec<String> {
    let mut text = text.to_owned();
    for dot in [" · ", " • ", " ∙ ", " | "] {
        text = text.replace(dot, ", ");
    }
    list_items(&text).unwrap_or_else(|| vec![text.trim().to_owned()])
}

/// True for a name of one to four words, each starting with a capital letter or a digit ("Hooli", "ACM
/// Queue"), not the end of a sentence ("3d media in practice").
fn is_proper_name(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..=4).contains(&words.len())
        && words.iter().all(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        })
}

/// The separators between a title's parts on one line.
const SEPARATORS: &[&str] = &[
    " · ", " | ", " • ", " ∙ ", " — ", " – ", " @ ", " at ", "  ",
];

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

/// A degree's first word, by its key.
const DEGREES: &[&str] = &[
    "bachelor",
    "bachelors",
    "master",
    "masters",
    "bsc",
    "ba",
    "bs",
    "beng",
    "msc",
    "ma",
    "ms",
    "meng",
    "mba",
    "phd",
    "doctor",
    "doctorate",
    "associate",
    "diploma",
    "licence",
    "licenciatura",
    "diplom",
];

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
            // "CEO/President, Pied Piper", "University of Oklahoma, Bachelor in …": a comma sets them apart
            // where one side reads as the title and the other not at all.
            let parts: Vec<String> = split_parts(one)
                .into_iter()
                .flat_map(|p| match comma_pair(&p, score) {
                    Some((a, b)) => vec![a, b],
                    None => vec![p],
                })
                .collect();
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
        [a, rest @ ..]
            if split_parts(a).len() == 2
                && split_parts(&rest[0]).len() < 2
                && (score(&rest[0]) == 0 || score(a) > 0)
                && dates::find(a).is_none() =>
        {
            // "CEO/President at Pied Piper" over "Palo Alto, CA": the first line is title and
            // organisation; the lines under it are the rest of the subtitle.
            let one = Raw {
                head: vec![a.clone()],
                ..Raw::default()
            };
            let (title, subtitle) = title_and_subtitle(&one, score, title_is_scored);
            let mut parts = vec![subtitle];
            parts.extend(rest.iter().take(1).cloned());
            (title, parts.join(" · "))
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

/// "Pied Piper, CEO/President" → its two sides, in their order: one comma between a side that `score`
/// reads as an entry's title and a side it does not read at all ("Palo Alto, CA" reads as neither).
fn comma_pair(text: &str, score: fn(&str) -> usize) -> Option<(String, String)> {
    let (a, b) = text.split_once(", ")?;
    let (a, b) = (a.trim(), b.trim());
    let one_side = |t: &str| !t.is_empty() && !t.contains(',') && t.split_whitespace().count() <= 6;
    (one_side(a) && one_side(b) && (score(a) == 0) != (score(b) == 0))
        .then(|| (a.to_owned(), b.to_owned()))
}

fn put(map: &mut Map<String, Value>, key: &str, value: impl Into<String>) {
    let value = value.into();
    let mut value = value.trim();
    // An entry's name that was a link ("Pied Piper <http://piedpiper.example.com/>", as a Word file's
    // link is read): the name, and the link as the entry's site.
    if NAMES.contains(&key)
        && let Some((name, target)) = value
            .strip_suffix('>')
            .and_then(|v| v.rsplit_once(" <"))
            .filter(|(name, _)| !name.trim().is_empty())
    {
        value = name.trim();
        if is_url(target) && !target.starts_with("mailto:") && !target.starts_with("tel:") {
            put(map, "url", full_url(target));
        }
    }
    if !value.is_empty() && !map.contains_key(key) {
        map.insert(key.into(), json!(value));
    }
}

/// A web page's own links, by their [`headings::key`].
const PAGE_CHROME: &[&str] = &[
    "skiptocontent",
    "skiptomaincontent",
    "jumptocontent",
    "backtotop",
];

/// A page's number in its margin: "Page 1 of 2", "Richard Hendriks - Page 1 of 2", "Seite 2 von 3", "1 / 2".
fn page_number(text: &str) -> bool {
    const PAGE: &[&str] = &[
        "page",
        "seite",
        "página",
        "pagina",
        "p.",
        "ページ",
        "页",
        "صفحة",
    ];
    const OF: &[&str] = &["of", "von", "sur", "de", "di", "/", "из"];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let number = |w: &str| w.len() <= 4 && w.chars().all(|c| c.is_ascii_digit());
    let [.., n, of, m] = words[..] else {
        return false;
    };
    if !(number(n) && OF.contains(&of) && number(m)) {
        return false;
    }
    let before = &words[..words.len() - 3];
    match before {
        [] => of == "/",
        [.., page] => PAGE.contains(page) && before.len() <= 6,
    }
}

/// A page's note of when it was last changed: "Last updated in Nov 2026", "Updated: 2026-11-03".
fn last_updated(text: &str) -> bool {
    const SAYS: &[&str] = &[
        "last updated",
        "updated",
        "zuletzt aktualisiert",
        "stand",
        "dernière mise à jour",
        "mis à jour",
        "última actualización",
        "actualizado",
        "última atualização",
        "atualizado",
    ];
    let lower = text.trim().to_lowercase();
    SAYS.iter().any(|says| {
        lower.strip_prefix(says).is_some_and(|rest| {
            let rest = rest.trim_start_matches([' ', ':', '-']);
            let rest = ["in ", "on ", "am ", "le ", "en ", "em "]
                .iter()
                .find_map(|w| rest.strip_prefix(w))
                .unwrap_or(rest);
            dates::find(rest).is_some() && rest.split_whitespace().count() <= 4
        })
    })
}

/// The fields that name an entry.
const NAMES: &[&str] = &[
    "name",
    "organization",
    "institution",
    "title",
    "publisher",
    "awarder",
    "issuer",
];

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

/// The words before "by" and the organisation: "Published by Hooli", "Awarded by Techcrunch".
const BY_LABELS: &[&str] = &["Published", "Awarded", "Issued"];

/// A subtitle line's parts: (organisation, place, link).
fn subtitle_parts(subtitle: &str) -> (String, String, String) {
    let mut org = String::new();
    let mut place = String::new();
    let mut url = String::new();
    for p in split_parts(subtitle) {
        // "Published by Hooli", "Awarded by Techcrunch", "Issued by …", "Issuer: …": the organisation.
        let p = BY_LABELS
            .iter()
            .find_map(|label| p.strip_prefix(label)?.strip_prefix(" by "))
            .or_else(|| {
                ["Issuer: ", "Publisher: "]
                    .iter()
                    .find_map(|l| p.strip_prefix(l))
            })
            .map_or(p.clone(), str::to_owned);
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

fn entry_value(id: &str, mut raw: Raw, words: &Words) -> Value {
    let mut m = Map::new();
    // Labelled lists: courses to an education's courses, highlights to highlights, the rest (skills,
    // tools) to a project's keywords or, elsewhere, a highlight of their own.
    let mut keywords = Vec::new();
    for (label, items) in std::mem::take(&mut raw.lists) {
        let courses = label.contains("course");
        if courses && id == "education"
            || label.contains("highlight")
            || label.contains("achievement")
        {
            raw.bullets.extend(items);
        } else if id == "projects" {
            keywords.extend(items);
        } else if label == UNLABELLED {
            // Elsewhere, lines under no label stay the description's.
            raw.paragraphs.extend(items);
        } else {
            raw.bullets.push(items.join(", "));
        }
    }
    highlights(&mut m, "keywords", keywords);
    let summary = raw.paragraphs.join("\n\n");
    match id {
        "work" | "volunteer" => {
            let (title, subtitle) = title_and_subtitle(&raw, role_score, true);
            let (mut org, mut place, url) = subtitle_parts(&subtitle);
            let mut extra = raw.head.get(2).cloned().unwrap_or_default();
            // "Pied Piper · Awesome compression company" over "Palo Alto, CA": the line that reads as a
            // place ("City, Region") is the place; the other part is the company's description.
            let placelike = |t: &str| {
                t.contains(", ") && t.split_whitespace().count() <= 5 && !t.ends_with('.')
            };
            // "CEO/President   Palo Alto, CA" over "Pied Piper" (sb2nov): the place came first.
            if placelike(&org) && !place.is_empty() && !placelike(&place) {
                std::mem::swap(&mut org, &mut place);
            }
            if placelike(&extra) && !placelike(&place) {
                std::mem::swap(&mut place, &mut extra);
            }
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
                .or_else(|| degree.split_once(" of "))
                .or_else(|| degree.split_once("、"))
            {
                Some((s, a)) => (s.to_owned(), a.to_owned()),
                // "Bachelor Information Technology": a degree's word, then its subject.
                None => match degree.split_once(' ') {
                    Some((s, a)) if DEGREES.contains(&headings::key(s).as_str()) => {
                        (s.to_owned(), a.to_owned())
                    }
                    _ => (degree.clone(), String::new()),
                },
            };
            put_dates(&mut m, &raw, "startDate", "endDate");
            let mut courses: Vec<String> = raw
                .head
                .iter()
                .skip(2)
                .flat_map(|l| list_items(l).unwrap_or_else(|| vec![l.clone()]))
                .collect();
            let is_degree = |t: &str| DEGREES.contains(&headings::key(t).as_str());
            let mut bullets = raw.bullets;
            // The subject over the degree, each a line of its own ("Information Technology", then
            // "Bachelor"): the degree's word, set in under it, was taken for the first course.
            // Or a line of the title's own, under the subject: taken for the first course too.
            let (study, area) = if area.is_empty() && !is_degree(&study) {
                if courses.first().is_some_and(|c| is_degree(c)) {
                    (courses.remove(0), study)
                } else if courses.is_empty() && bullets.first().is_some_and(|b| is_degree(b)) {
                    (bullets.remove(0), study)
                } else {
                    (study, area)
                }
            } else {
                (study, area)
            };
            put(&mut m, "studyType", study);
            put(&mut m, "area", area);
            for b in bullets {
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
            // "Awarded" over "by Techcrunch" (the date taken from between them): one line.
            let mut head: Vec<String> = Vec::new();
            for line in std::mem::take(&mut raw.head) {
                match head.last_mut() {
                    Some(last) if line.starts_with("by ") && BY_LABELS.contains(&last.as_str()) => {
                        *last = format!("{last} {line}");
                    }
                    _ => head.push(line),
                }
            }
            raw.head = head;
            // These have no list of highlights: a list under one is part of its summary, line by line.
            let mut summary = [summary, raw.bullets.join("\n")]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n\n");
            let (mut title, subtitle) = title_and_subtitle(&raw, |_| 0, true);
            let (mut org, rest, url) = subtitle_parts(&subtitle);
            // These have no place: what stood after the organisation ("Techcrunch" over "There is no
            // spoon.", the dates taken from beside it) is the summary's first line.
            if !rest.is_empty() {
                summary = [rest, summary]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("\n\n");
            }
            // "in Hooli" on a line of its own under a publication's title: where it appeared.
            if id == "publications"
                && let Some(publisher) = org.strip_prefix("in ").filter(|p| is_proper_name(p))
            {
                org = publisher.trim().to_owned();
            }
            // "Video compression for 3d media in Hooli": a publication's title, then where it appeared.
            if id == "publications"
                && org.is_empty()
                && let Some((name, publisher)) = title.rsplit_once(" in ")
                && is_proper_name(publisher)
            {
                (title, org) = (name.trim().to_owned(), publisher.trim().to_owned());
            }
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
            // A quotation, then "— Erlich Bachman" under it: the dash marks the name.
            // A short quotation can be taken for a title line: a line in quotes, or a sentence, is the
            // reference's text.
            let quoted = |t: &str| {
                t.starts_with(['“', '"', '„', '«']) || t.ends_with(['.', '”', '"', '»', '!'])
            };
            let (mut text, mut names): (Vec<String>, Vec<String>) =
                raw.head.into_iter().partition(|h| quoted(h));
            text.extend(raw.paragraphs);
            let mut bullets = raw.bullets;
            // The dash before the name may have been read as a bullet.
            if !text.is_empty() && bullets.len() == 1 && bullets[0].split_whitespace().count() <= 4
            {
                names.extend(bullets.pop());
            }
            text.extend(bullets);
            text.retain(|t| match t.strip_prefix(['—', '–', '-', '―']) {
                Some(name) if short(name) => {
                    names.push(name.trim().to_owned());
                    false
                }
                _ => true,
            });
            // The name run on after the quotation's last sentence ("… any company. ” Erlich Bachman"),
            // its own paragraph in the file but joined to the text above it.
            if names.is_empty()
                && let Some(last) = text.last_mut()
                && let Some((at, mark)) = last
                    .char_indices()
                    .rfind(|(_, c)| matches!(c, '.' | '!' | '?' | '”' | '"' | '»'))
                && let end = at + mark.len_utf8()
                && let tail = last[end..].trim()
                && tail.split_whitespace().count() >= 2
                && is_proper_name(tail)
            {
                names.push(tail.to_owned());
                last.truncate(end);
            }
            put(&mut m, "name", names.join(", "));
            let quoted = text.join("\n\n");
            let quoted = quoted
                .trim()
                .trim_start_matches(['“', '"', '„', '«'])
                .trim_end_matches(['”', '"', '»'])
                .trim();
            put(&mut m, "reference", quoted);
        }
        _ => {
            // projects
            let (title, subtitle) = title_and_subtitle(&raw, |_| 0, true);
            put(&mut m, "name", title);
            // "Smoogle · application · Team lead, Designer · https://…": entity, type, roles, link.
            let mut roles = Vec::new();
            // "Team lead and Designer at Smoogle": the roles, then the entity.
            let subtitle = match subtitle.split_once(" at ") {
                Some((who, rest)) if short(who) && split_parts(who).len() < 2 => {
                    roles.extend(
                        who.split([',', '、', '،', '&'])
                            .flat_map(|r| r.split(" and "))
                            .map(|r| r.trim().to_owned()),
                    );
                    rest.to_owned()
                }
                _ => subtitle,
            };
            // A sentence among them (a line with the link over it) is the description's start.
            let mut described = None;
            for (i, p) in split_parts(&subtitle).into_iter().enumerate() {
                if is_url(&p) {
                    put(&mut m, "url", full_url(&p));
                } else if p.split_whitespace().count() > 3 && !p.contains([',', '、', '،']) {
                    described = Some(p);
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
            let mut paragraphs: Vec<String> = described.into_iter().collect();
            paragraphs.extend(raw.head.iter().skip(2).cloned());
            paragraphs.extend(raw.paragraphs);
            // A word of its own in small letters over the description ("application"): the kind.
            let kind = |p: &String| {
                !p.is_empty() && p.chars().all(|c| c.is_lowercase() || c == '-') && p.len() <= 30
            };
            if !m.contains_key("type") && paragraphs.len() > 1 && kind(&paragraphs[0]) {
                put(&mut m, "type", paragraphs.remove(0));
            }
            let keywords = paragraphs
                .last()
                .and_then(|p| list_items(p))
                .filter(|_| paragraphs.len() > 1 || !raw.bullets.is_empty());
            if let Some(keywords) = keywords {
                paragraphs.pop();
                highlights(&mut m, "keywords", keywords);
            }
            put(&mut m, "description", paragraphs.join("\n\n"));
            // Words one to a bullet after the highlights (a theme's list of keywords under them).
            let tail = raw
                .bullets
                .iter()
                .rev()
                .take_while(|b| a_keyword(b))
                .count();
            if !m.contains_key("keywords") && tail >= 2 && tail < raw.bullets.len() {
                let words = raw.bullets.split_off(raw.bullets.len() - tail);
                highlights(&mut m, "keywords", words);
            }
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
    let lines = ungridded(lines);
    // The size and indent of the last name: smaller lines, or lines set in, under it are its keywords.
    let mut name_at: Option<(f32, f32)> = None;
    // Whether the last name was a line of its own, not a list item.
    let mut name_plain = false;
    for line in &lines {
        let text = strip_bullet(&line.text).unwrap_or(&line.text).trim();
        if text.is_empty() {
            continue;
        }
        // "Skills: a · b" under an interest's name: its keywords.
        if let Some((label, rest)) = text.split_once(':')
            && ENTRY_LABELS.contains(&headings::key(label).as_str())
            && let Some(m) = out.last_mut().filter(|m| !m.contains_key("keywords"))
        {
            highlights(m, "keywords", keyword_items(rest));
            continue;
        }
        // Keywords one to a line, set in under their name or smaller than it.
        // (By indent only where the names stand at the left edge: a right-to-left page's lines end
        // there instead.)
        // A list item under a name that is not one: that name's keyword (an interest and its bullets).
        let bulleted = line.bullet || strip_bullet(&line.text).is_some();
        let under = name_at.is_some_and(|(size, indent)| {
            line.size < size - 0.05 || indent < 0.5 && line.indent > indent + 0.5
        }) || bulleted && name_plain;
        if under && !(level_key.is_some() && is_level(text)) {
            let items = keyword_items(text);
            if let Some(Value::Array(keywords)) = out.last_mut().and_then(|m| m.get_mut("keywords"))
            {
                keywords.extend(items.into_iter().map(Value::String));
                continue;
            }
            if let Some(m) = out.last_mut().filter(|m| m.contains_key("name")) {
                highlights(m, "keywords", items);
                continue;
            }
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
            name_plain = false;
            continue;
        }
        let current = out.last_mut();
        let items = list_items(text).or_else(|| {
            let items = keyword_items(text);
            (items.len() >= 2).then_some(items)
        });
        match (items, current) {
            (Some(items), Some(m)) if !m.contains_key("keywords") => {
                highlights(m, "keywords", items);
            }
            (Some(items), _) => {
                let mut m = Map::new();
                highlights(&mut m, "keywords", items);
                out.push(m);
                name_plain = false;
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
                name_at = Some((line.size, line.indent));
                name_plain = !bulleted;
            }
        }
    }
    out.into_iter().map(Value::Object).collect()
}

/// Entries set side by side in a grid (skills in two columns: names, then levels, then keywords, each a
/// row) back one after the other: consecutive lines with as many wide-gap cells as each other, two or
/// more, read column by column; or, where the file says where each cell starts, a row of names over rows
/// with more cells, each cell under the name it stands beneath.
fn ungridded(lines: &[&Line]) -> Vec<Line> {
    let cells = |l: &Line| l.text.split("   ").count();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((columns, used)) = under_names(&lines[i..]) {
            out.extend(columns);
            i += used;
            continue;
        }
        let n = cells(lines[i]);
        let mut end = i + 1;
        while end < lines.len() && n >= 2 && cells(lines[end]) == n {
            end += 1;
        }
        if n >= 2 && end - i >= 2 {
            for column in 0..n {
                for line in &lines[i..end] {
                    let cell = line.text.split("   ").nth(column).unwrap_or("").trim();
                    let mut l = Line::plain(cell);
                    l.size = line.size;
                    out.push(l);
                }
            }
        } else {
            out.extend(lines[i..end].iter().map(|l| (*l).clone()));
        }
        i = end;
    }
    out
}

/// A row of two or more names (`lines[0]`) over rows with more cells, each cell standing under one of the
/// names (by where it starts, which PDF lines carry): the names one after the other, each followed by the
/// cells under it, a line a row. `None` unless every name has a cell under it in the first row below, and
/// with the number of lines read.
fn under_names(lines: &[&Line]) -> Option<(Vec<Line>, usize)> {
    let names = lines.first()?;
    let parts = |l: &Line| {
        l.text
            .split("   ")
            .map(str::trim)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let heads = parts(names);
    if heads.len() < 2 || names.cells.len() != heads.len() {
        return None;
    }
    // The column a cell starting at `x` stands in: the last name starting at or before it (half a body
    // size to spare for glyphs' side bearings).
    let column = |x: f32| names.cells.iter().rposition(|start| *start <= x + 0.5);
    let mut rows: Vec<(&Line, Vec<Vec<String>>)> = Vec::new();
    for line in &lines[1..] {
        let cells = parts(line);
        if line.cells.len() != cells.len() || cells.len() <= heads.len() {
            break;
        }
        let mut by_column = vec![Vec::new(); heads.len()];
        for (cell, x) in cells.into_iter().zip(&line.cells) {
            by_column[column(*x)?].push(cell);
        }
        if by_column.iter().any(Vec::is_empty) {
            break;
        }
        rows.push((line, by_column));
    }
    if rows.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for (c, head) in heads.iter().enumerate() {
        let mut name = Line::plain(head);
        name.size = names.size;
        name.heading = names.heading;
        name.bold = names.bold;
        out.push(name);
        for (line, by_column) in &rows {
            let mut l = Line::plain(&by_column[c].join("   "));
            l.size = line.size;
            out.push(l);
        }
    }
    Some((out, 1 + rows.len()))
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
            entries(lines, id == "projects")
                .into_iter()
                .map(|raw| entry_value(id, raw, &words))
                .filter(|v| v.as_object().is_some_and(|m| !m.is_empty()))
                .collect()
        }
    }
}

/// Whether `label` ("Email", "Major courses", "GPA", "Note") is one the reader reads a field by and does
/// not keep: a contact's, an entry list's, a grade's in any of the languages.
pub fn is_label(label: &str) -> bool {
    let key = headings::key(label);
    CONTACT_LABELS.contains(&key.as_str())
        || ENTRY_LABELS.contains(&key.as_str())
        || matches!(key.as_str(), "gpa" | "grade" | "score")
        || BY_LABELS.iter().any(|l| headings::key(l) == key)
        || Language::ALL
            .iter()
            .any(|&lang| headings::key(Words::of(lang).score()) == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_a_row_take_the_cells_that_stand_under_them() {
        let mut names = Line::plain("Web Development   Compression");
        names.size = 1.5;
        names.heading = true;
        names.cells = vec![0.0, 20.0];
        let mut keywords = Line::plain("HTML   CSS   Mpeg   GIF");
        keywords.cells = vec![0.1, 4.0, 20.2, 25.0];
        let (lines, used) = under_names(&[&names, &keywords]).unwrap();
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Web Development", "HTML   CSS", "Compression", "Mpeg   GIF"]
        );
        assert_eq!(used, 2);
        assert!(lines[0].heading && !lines[1].heading);
        // Where the file does not say where cells start, or a name has nothing under it: not a grid.
        let mut unplaced = keywords.clone();
        unplaced.cells.clear();
        assert!(under_names(&[&names, &unplaced]).is_none());
        let mut left = keywords.clone();
        left.cells = vec![0.1, 4.0, 8.0, 12.0];
        assert!(under_names(&[&names, &left]).is_none());
    }

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
    fn skills_with_no_heading_over_them_are_read_from_the_lines_not_placed() {
        let mut lines: Vec<String> = [
            "Left over",
            "Web Development",
            "Master",
            "HTML   CSS   Javascript",
            "Compression",
            "Mpeg   MP4",
            "Also left over",
        ]
        .map(str::to_owned)
        .to_vec();
        let skills = skills_unheaded(&mut lines).unwrap();
        assert_eq!(
            skills,
            [
                json!({"name": "Web Development", "level": "Master", "keywords": ["HTML", "CSS", "Javascript"]}),
                json!({"name": "Compression", "keywords": ["Mpeg", "MP4"]}),
            ]
        );
        assert_eq!(lines, ["Left over", "Also left over"]);
        // One such group alone is not taken for a list of skills.
        let mut one: Vec<String> = ["Compression", "Mpeg   MP4", "Hello"]
            .map(str::to_owned)
            .to_vec();
        assert_eq!(skills_unheaded(&mut one), None);
        assert_eq!(one.len(), 3);
        // Each keyword a line of its own, under a name and its level (a word processor's paragraphs).
        let mut paragraphs: Vec<String> = [
            "Web Development",
            "Master",
            "HTML",
            "CSS",
            "Compression",
            "Master",
            "Mpeg",
            "GIF",
            "A sentence that says more than a keyword.",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            skills_unheaded(&mut paragraphs).unwrap(),
            [
                json!({"name": "Web Development", "level": "Master", "keywords": ["HTML", "CSS"]}),
                json!({"name": "Compression", "level": "Master", "keywords": ["Mpeg", "GIF"]}),
            ]
        );
        assert_eq!(paragraphs, ["A sentence that says more than a keyword."]);
    }

    #[test]
    fn a_list_under_an_award_is_kept_in_its_summary() {
        let read = read(&lines(
            "Ada Lovelace\n\nAwards\nFirst Program Prize\nNov 2014 · Royal Society\n• For the notes on the engine\n• Read aloud in London\n",
        ));
        let award = &read.document["awards"][0];
        assert_eq!(award["title"], "First Program Prize");
        assert_eq!(award["awarder"], "Royal Society");
        assert_eq!(award["date"], "2014-11");
        assert_eq!(
            award["summary"],
            "For the notes on the engine\nRead aloud in London"
        );
    }

    #[test]
    fn a_run_of_words_longer_than_a_list_of_keywords_is_not_one() {
        let word = Line::plain("Brass");
        let mut bullet = Line::plain("Built it");
        bullet.bullet = true;
        for n in [2, MAX_KEYWORDS] {
            let mut run: Vec<&Line> = vec![&word; n];
            run.push(&bullet);
            assert_eq!(keyword_lines(&run), Some(n));
        }
        let mut long: Vec<&Line> = vec![&word; 100_000];
        long.push(&bullet);
        assert_eq!(keyword_lines(&long), None);
        let mut bullets: Vec<&Line> = vec![&bullet; 100_000];
        bullets.push(&word);
        assert_eq!(keyword_bullets(&bullets), None);
    }

    #[test]
    fn a_word_processor_s_paragraphs_are_read_as_their_fields() {
        let read = read(&lines(
            "Ada Lovelace\nEngineer\n\nProjects\nDifference Engine\nAug 2016 - Aug 2017\nA machine that adds numbers\nBrass\nSteam Power\n- Built the first part of it\n- Showed it in London\n\nEducation\nUniversity of London\nMathematics\nBachelor\n2011 - 2014\n\nInterests\nMathematics\n- Analysis\n- Poetry\n\nReferences\n“She wrote the first program.”\nCharles Babbage\n",
        ));
        let d = &read.document;
        let project = &d["projects"][0];
        assert_eq!(project["name"], "Difference Engine");
        assert_eq!(project["keywords"], json!(["Brass", "Steam Power"]));
        assert_eq!(
            project["highlights"],
            json!(["Built the first part of it", "Showed it in London"])
        );
        assert_eq!(d["education"][0]["studyType"], "Bachelor");
        assert_eq!(d["education"][0]["area"], "Mathematics");
        assert_eq!(
            d["interests"][0],
            json!({"name": "Mathematics", "keywords": ["Analysis", "Poetry"]})
        );
        assert_eq!(d["references"][0]["name"], "Charles Babbage");
        assert_eq!(
            d["references"][0]["reference"],
            "She wrote the first program."
        );
    }

    #[test]
    fn conventions_of_published_themes_are_read() {
        let read = read(&lines(
            "Ada Lovelace\nAnalytical Engineer\n2 Marylebone Rd, NW1 5LR, London, England (GB)\nadal · https://twitter.com/adal   enginefan · https://soundcloud.example.com/enginefan\n\nContact\nEmail\nada@example.com\nGitHub\nada\n\nExperience\nSenior Engineer at Analytical Engines Ltd   Jan 2020 - Dec 2021\nLondon, UK\nSkills: Rust · SQL\n\nSkills\nLanguages   Mathematics\nExpert   Advanced\nRust · Python   Analysis · Algebra\n\nReferences\n“She wrote the first program.”\n— Charles Babbage\n",
        ));
        let d = &read.document;
        let place = &d["basics"]["location"];
        assert_eq!(place["address"], "2 Marylebone Rd");
        assert_eq!(place["postalCode"], "NW1 5LR");
        assert_eq!(place["city"], "London");
        assert_eq!(place["region"], "England");
        assert_eq!(place["countryCode"], "GB");
        // The same with no commas, as a theme runs its lines together.
        assert_eq!(
            location("2712 Broadway St San Francisco California CA 94115 US"),
            json!({"address": "2712 Broadway St", "city": "San Francisco", "region": "California",
                   "postalCode": "CA 94115", "countryCode": "US"})
        );
        assert_eq!(
            location("350 Fifth Avenue New York NY 10118"),
            json!({"address": "350 Fifth Avenue", "city": "New York", "postalCode": "NY 10118"})
        );
        assert_eq!(
            location("221B Baker Street"),
            json!({"city": "221B Baker Street"})
        );
        let profiles = &d["basics"]["profiles"];
        assert_eq!(profiles[0]["network"], "Twitter");
        assert_eq!(profiles[0]["username"], "adal");
        assert_eq!(profiles[1]["network"], "SoundCloud");
        assert_eq!(profiles[1]["username"], "enginefan");
        assert_eq!(profiles[2], json!({"network": "GitHub", "username": "ada"}));
        assert_eq!(d["basics"]["email"], "ada@example.com");
        let work = &d["work"][0];
        assert_eq!(work["position"], "Senior Engineer");
        assert_eq!(work["name"], "Analytical Engines Ltd");
        assert_eq!(work["location"], "London, UK");
        assert_eq!(work["highlights"], json!(["Rust, SQL"]));
        // A grid of skills, read column by column.
        assert_eq!(
            d["skills"],
            json!([
                {"name": "Languages", "level": "Expert", "keywords": ["Rust", "Python"]},
                {"name": "Mathematics", "level": "Advanced", "keywords": ["Analysis", "Algebra"]},
            ])
        );
        assert_eq!(d["references"][0]["name"], "Charles Babbage");
        assert_eq!(
            d["references"][0]["reference"],
            "She wrote the first program."
        );
        assert!(read.unplaced.is_empty(), "{:?}", read.unplaced);
    }

    #[test]
    fn a_typst_or_latex_template_s_icons_furniture_and_comma_titles_are_read() {
        let source = "Last updated in Nov 2026\nMara Lindqvist\n\u{f3c5} Oakland, CA | \u{f0e0} mara@example.org\n\u{f09b} maralq   \u{e61b} @mlq\n\nExperience\nNorthwind Payments, Staff Engineer\nMar 2021 – present\n• Led six engineers\n\nEducation\nUniversity of Washington, MS in Computer Science\n2013 – 2014\nMara Lindqvist - Page 1 of 2\n\nPublications\nLedger notes\nFrodo Baggins, Mara Lindqvist\nHooli Press\n";
        let ls = lines(source);
        let read = read(&ls);
        let d = &read.document;
        assert_eq!(d["basics"]["name"], "Mara Lindqvist");
        assert_eq!(
            d["basics"]["location"],
            json!({"city": "Oakland", "region": "CA"})
        );
        assert_eq!(d["basics"]["profiles"][0]["network"], "GitHub");
        assert_eq!(d["basics"]["profiles"][0]["username"], "maralq");
        assert_eq!(d["basics"]["profiles"][1]["network"], "X");
        assert_eq!(d["basics"]["profiles"][1]["username"], "mlq");
        assert_eq!(d["work"][0]["position"], "Staff Engineer");
        assert_eq!(d["work"][0]["name"], "Northwind Payments");
        assert_eq!(d["education"][0]["institution"], "University of Washington");
        assert_eq!(d["education"][0]["studyType"], "MS");
        assert_eq!(d["education"][0]["area"], "Computer Science");
        assert_eq!(d["publications"][0]["name"], "Ledger notes");
        assert_eq!(d["publications"][0]["publisher"], "Hooli Press");
        // The page's furniture and the authors have no place: listed, not lost, not taken for fields.
        for line in [
            "Last updated in Nov 2026",
            "Mara Lindqvist - Page 1 of 2",
            "Frodo Baggins, Mara Lindqvist",
        ] {
            assert!(
                read.unplaced.iter().any(|u| u == line),
                "{:?}",
                read.unplaced
            );
        }
        let texts: Vec<String> = ls.iter().map(|l| l.text.clone()).collect();
        assert_eq!(
            crate::score::dropped(&texts, d, &read.unplaced),
            Vec::<String>::new()
        );
        // Had a line gone missing, the check says which.
        let mut less = read.unplaced.clone();
        less.retain(|u| !u.starts_with("Frodo"));
        assert_eq!(
            crate::score::dropped(&texts, d, &less),
            ["Frodo Baggins, Mara Lindqvist"]
        );
    }

    #[test]
    fn page_numbers_and_update_notes_are_known_in_several_languages() {
        for furniture in [
            "Page 1 of 2",
            "Richard Hendriks - Page 2 of 2",
            "Seite 1 von 3",
            "2 / 3",
        ] {
            assert!(page_number(furniture), "{furniture}");
        }
        for text in [
            "Page Turner",
            "2 of 3 projects shipped",
            "Version 1 of 2 of the plan",
            "1 of 2",
        ] {
            assert!(!page_number(text), "{text}");
        }
        assert!(last_updated("Last updated in Nov 2026"));
        assert!(last_updated("Zuletzt aktualisiert am 03.2025"));
        assert!(!last_updated(
            "Updated the billing service in 2021 for three teams"
        ));
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
