//! A place as people write it, into JSON Resume's location: parts set apart by commas, or an address
//! written with no commas, read by what its words are (a street's word, a US state, a ZIP code).

use serde_json::{Map, Value, json};

use super::words::{STREET_WORDS, US_STATE_CODES, US_STATES};

/// A place as people write it, into JSON Resume's location: a country code at the end (`US`, `(US)`), a
/// postal code where one is (`94115`, `CA 94115`), then address, city and region by how many parts are
/// left.
pub(crate) fn location(text: &str) -> Value {
    let mut parts: Vec<String> = text
        .split([',', '、', '،'])
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let code = |p: &str| p.len() == 2 && p.chars().all(|c| c.is_ascii_uppercase());
    if parts.len() == 1
        && let Some(place) = address_words(&parts[0]).or_else(|| spaced_place(&parts[0]))
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

/// A place written with no commas, ending in a country's code (`Sydney AU`, `東京 東京都 JP`, `Rio de
/// Janeiro RJ BR`): the code, then a region's code or (in a script that sets no spaces between a name's
/// words) a last word as the region, and the rest the city. `None` when it ends in no country's code.
fn spaced_place(text: &str) -> Option<Map<String, Value>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let code = |w: &str, most: usize| {
        (2..=most).contains(&w.len()) && w.chars().all(|c| c.is_ascii_uppercase())
    };
    let [rest @ .., country] = words.as_slice() else {
        return None;
    };
    if rest.is_empty() || !code(country, 2) {
        return None;
    }
    let mut place = Map::new();
    place.insert("countryCode".into(), json!(country));
    let unspaced = |w: &str| !w.chars().any(|c| c.is_ascii_alphabetic());
    let city = match rest {
        [city @ .., region] if !city.is_empty() && code(region, 3) => {
            place.insert("region".into(), json!(region));
            city
        }
        [city, region] if unspaced(city) && unspaced(region) => {
            place.insert("region".into(), json!(region));
            std::slice::from_ref(city)
        }
        _ => rest,
    };
    place.insert("city".into(), json!(city.join(" ")));
    Some(place)
}

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
