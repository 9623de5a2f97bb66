//! Contact details as people write them: an email, a phone, a site, profiles on networks (by their
//! address, their name or their icon) and a place; read from a line of them, a block of them under a
//! heading, or a summary's block beside a sidebar.

mod address;
mod words;

use serde_json::{Map, Value, json};

use crate::Line;

pub(super) use address::location;
pub(super) use words::CONTACT_LABELS;
use words::{NETWORK_ICONS, NETWORKS};

/// The pieces of a line of contact details: split at `|`, `·`, `•`, tabs and wide spaces.
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

/// An email address, `mailto:` before it or not.
pub(super) fn is_email(text: &str) -> bool {
    let t = text.strip_prefix("mailto:").unwrap_or(text);
    let Some((user, host)) = t.split_once('@') else {
        return false;
    };
    !user.is_empty()
        && host.contains('.')
        && !t.contains(char::is_whitespace)
        && !host.starts_with('.')
}

/// A phone number: 7 to 16 digits, with only spaces, `+`, brackets, dashes, dots and slashes between them.
pub(super) fn is_phone(text: &str) -> bool {
    let digits = text.chars().filter(char::is_ascii_digit).count();
    (7..=16).contains(&digits)
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || " +()-./".contains(c))
}

/// A web address, `https://` before it or not (`ada.example.com`).
pub(super) fn is_url(text: &str) -> bool {
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
pub(super) fn full_url(text: &str) -> String {
    let t = text.trim().trim_start_matches('<').trim_end_matches('>');
    if t.starts_with("http://") || t.starts_with("https://") {
        t.to_owned()
    } else {
        format!("https://{t}")
    }
}

/// A profile added to `basics`' profiles, with those of its network, user name and address that it has.
pub(super) fn push_profile(basics: &mut Map<String, Value>, network: &str, user: &str, url: &str) {
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
pub(super) fn one_word(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && !t.contains(char::is_whitespace) && t.chars().count() <= 40
}

/// Reads the contact details in `line` into `basics`; false when the line is not contact details.
pub(super) fn contacts(line: &str, basics: &mut Map<String, Value>) -> bool {
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
        } else if one_word(p) && handle_like(p) {
            // A user name beside a network's icon (the icon not in the text), among other contacts.
            push_profile(basics, "", p.trim_start_matches('@'), "");
        } else if !basics.contains_key("location") {
            basics.insert("location".into(), location(p));
        } else {
            // A second place or a word we cannot tell: kept in the label's place rather than lost.
            return false;
        }
    }
    true
}

/// Whether a word reads as a user name, not a place or a postcode: Latin letters, digits, `.`, `_` and
/// `-` only, a letter among them, and no capital letter or else a digit or an underscore ("adeyemi",
/// "hannah17", "Ana_HR"; not "Berlin", "東京", "10115").
fn handle_like(word: &str) -> bool {
    let word = word.trim_start_matches('@');
    let allowed = (word.chars()).all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    let lettered = word.chars().any(|c| c.is_ascii_alphabetic());
    let marked = word.contains(|c: char| c.is_ascii_digit() || c == '_');
    allowed && lettered && (marked || !word.chars().any(|c| c.is_ascii_uppercase()))
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

/// A block of contact details: lines of them, labels over them ("Email", "Phone"), and a network's name
/// over the user's ("Twitter", then "neutralthoughts").
pub(super) fn contact_block(
    lines: &[&Line],
    basics: &mut Map<String, Value>,
    unplaced: &mut Vec<String>,
) {
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
