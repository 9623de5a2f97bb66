//! Dates as people write them on a resume, in the eight languages Redline writes, read into JSON Resume's
//! ISO forms (`2020`, `2020-01`, `2020-01-15`): `Jan 2020`, `January 2020`, `Jan. 2020`, `01/2020`,
//! `2020-01`, `2020`, `März 2019`, `janv. 2018`, `2020年1月`, `يناير 2020`; ranges joined by a dash,
//! `to`, `bis`, `à`, `〜`, …, open at the end with `Present`, `heute`, `aujourd’hui`, `現在`, `至今`, …; a
//! start alone with `since 2019`, `seit 2019`, `depuis 2019`, `desde 2019`.

use std::sync::LazyLock;

use regex::Regex;

/// A span of dates found in a line: where it is, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// Byte range of the dates (and their brackets or separators) in the line.
    pub at: std::ops::Range<usize>,
    pub start: String,
    /// Empty when the span is open ("– Present", "since 2019") or a single date.
    pub end: String,
    /// True when the span says it is still going ("Present", "since …").
    pub open: bool,
}

/// Month names and their abbreviations, lower case, by month (1-based). The eight languages' forms as
/// Redline writes them, and the full names people write.
const MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("janvier", 1),
    ("janv", 1),
    ("januar", 1),
    ("jänner", 1),
    ("enero", 1),
    ("ene", 1),
    ("janeiro", 1),
    ("يناير", 1),
    ("february", 2),
    ("feb", 2),
    ("februar", 2),
    ("février", 2),
    ("févr", 2),
    ("fevr", 2),
    ("febrero", 2),
    ("fevereiro", 2),
    ("fev", 2),
    ("فبراير", 2),
    ("march", 3),
    ("mar", 3),
    ("märz", 3),
    ("mär", 3),
    ("mars", 3),
    ("marzo", 3),
    ("março", 3),
    ("مارس", 3),
    ("april", 4),
    ("apr", 4),
    ("avril", 4),
    ("avr", 4),
    ("abril", 4),
    ("abr", 4),
    ("أبريل", 4),
    ("may", 5),
    ("mai", 5),
    ("mayo", 5),
    ("maio", 5),
    ("مايو", 5),
    ("june", 6),
    ("jun", 6),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("junho", 6),
    ("يونيو", 6),
    ("july", 7),
    ("jul", 7),
    ("juli", 7),
    ("juillet", 7),
    ("juil", 7),
    ("julio", 7),
    ("julho", 7),
    ("يوليو", 7),
    ("august", 8),
    ("aug", 8),
    ("août", 8),
    ("aout", 8),
    ("agosto", 8),
    ("ago", 8),
    ("أغسطس", 8),
    ("september", 9),
    ("sept", 9),
    ("sep", 9),
    ("septembre", 9),
    ("septiembre", 9),
    ("setembro", 9),
    ("set", 9),
    ("سبتمبر", 9),
    ("october", 10),
    ("oct", 10),
    ("oktober", 10),
    ("okt", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("outubro", 10),
    ("out", 10),
    ("أكتوبر", 10),
    ("november", 11),
    ("nov", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("novembro", 11),
    ("نوفمبر", 11),
    ("december", 12),
    ("dec", 12),
    ("dezember", 12),
    ("dez", 12),
    ("décembre", 12),
    ("déc", 12),
    ("dic", 12),
    ("diciembre", 12),
    ("dezembro", 12),
    ("ديسمبر", 12),
];

/// What ends a span that is still going, lower case.
const PRESENT: [&str; 22] = [
    "present",
    "current",
    "now",
    "today",
    "ongoing",
    "heute",
    "bis heute",
    "jetzt",
    "aujourd’hui",
    "aujourd'hui",
    "présent",
    "actualidad",
    "actual",
    "presente",
    "hoy",
    "atual",
    "atualmente",
    "o momento",
    "現在",
    "至今",
    "现在",
    "حتى الآن",
];

/// What opens a span with no end, lower case.
const SINCE: [&str; 7] = ["since", "seit", "depuis", "desde", "dès", "从", "以来"];

fn alternation(words: impl Iterator<Item = String>) -> String {
    let mut words: Vec<String> = words.collect();
    // Longest first, so that `january` wins over `jan`.
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words.dedup();
    words
        .iter()
        .map(|w| regex::escape(w))
        .collect::<Vec<_>>()
        .join("|")
}

/// One date: `2020-01-15`, `2020-01`, `01/2020`, `1.2020`, `2020/01`, `Jan. 2020`, `2020年1月`, `2020`.
static ONE: LazyLock<String> = LazyLock::new(|| {
    let months = alternation(MONTHS.iter().map(|(m, _)| m.to_string()));
    format!(
        r"(?:(?P<iy>(?:19|20)\d\d)-(?P<im>0[1-9]|1[0-2])(?:-(?P<id>0[1-9]|[12]\d|3[01]))?\b|(?P<nm>0?[1-9]|1[0-2])\s*[/.]\s*(?P<ny>(?:19|20)\d\d)\b|(?P<sy>(?:19|20)\d\d)\s*/\s*(?P<sm>0[1-9]|1[0-2])\b|(?P<cy>(?:19|20)\d\d)\s*年\s*(?:(?P<cm>1[0-2]|0?[1-9])\s*月)?|(?i:(?P<wm>{months}))\.?,?\s*(?P<wy>(?:19|20)\d\d)\b|\b(?P<y>(?:19|20)\d\d)\b)"
    )
});

/// A range of two dates, or a date then "present", or "since" and a date.
static SPAN: LazyLock<Regex> = LazyLock::new(|| {
    let one = ONE.as_str();
    let named = |prefix: &str| one.replace("(?P<", &format!("(?P<{prefix}"));
    let present = alternation(PRESENT.iter().map(|p| p.to_string()));
    let since = alternation(SINCE.iter().map(|s| s.to_string()));
    let to = r"\s*(?:[-–—−~〜～至]|\bto\b|\buntil\b|\bbis\b|\bà\b|\bau\b|\ba\b|\baté\b|\bal\b|\bhasta\b|إلى)\s*";
    Regex::new(&format!(
        r"(?i)[(\[]?\s*(?:(?P<since>{since})\s+{s}|{a}(?:{to}(?:(?P<present>{present})|{b}))?)\s*[)\]]?",
        s = named("s_"),
        a = named("a_"),
        b = named("b_"),
    ))
    .expect("the date pattern compiles")
});

fn month_number(name: &str) -> Option<u32> {
    let name = name.to_lowercase();
    MONTHS.iter().find(|(m, _)| *m == name).map(|&(_, n)| n)
}

/// The ISO date the captures with `prefix` say, if they matched.
fn iso(c: &regex::Captures, prefix: &str) -> Option<String> {
    let get = |name: &str| c.name(&format!("{prefix}{name}")).map(|m| m.as_str());
    let ym = |y: &str, m: u32| format!("{y}-{m:02}");
    if let Some(y) = get("iy") {
        let m = get("im")?;
        return Some(match get("id") {
            Some(d) => format!("{y}-{m}-{d}"),
            None => format!("{y}-{m}"),
        });
    }
    if let Some(y) = get("ny") {
        return Some(ym(y, get("nm")?.parse().ok()?));
    }
    if let Some(y) = get("sy") {
        return Some(ym(y, get("sm")?.parse().ok()?));
    }
    if let Some(y) = get("cy") {
        return Some(match get("cm") {
            Some(m) => ym(y, m.parse().ok()?),
            None => y.to_owned(),
        });
    }
    if let Some(y) = get("wy") {
        return Some(ym(y, month_number(get("wm")?)?));
    }
    get("y").map(str::to_owned)
}

/// How long a span lasted, as a theme or LinkedIn prints it right after the dates: "3 years, 2 months",
/// "(5 yrs 3 mos)", "· 1 year".
static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    let years = r"(?:\d{1,2}|an?)\s*(?:years?|yrs?)";
    let months = r"(?:\d{1,2}|an?)\s*(?:months?|mos?)";
    Regex::new(&format!(
        r"(?i)^\s*[·•|,–-]?\s*\(?\s*(?:{years}(?:,?\s*{months})?|{months})\b\s*\)?"
    ))
    .unwrap()
});

/// The first span of dates in `line`, if it has one (with how long it lasted, where the line says so
/// right after it).
pub fn find(line: &str) -> Option<Span> {
    let start_of = |c: &regex::Captures| iso(c, "a_").or_else(|| iso(c, "s_"));
    let c = SPAN.captures_iter(line).find(|c| start_of(c).is_some())?;
    let whole = c.get(0)?;
    let start = start_of(&c)?;
    let end = iso(&c, "b_").unwrap_or_default();
    let open = c.name("present").is_some() || c.name("since").is_some();
    let lasted = DURATION.find(&line[whole.end()..]).map_or(0, |d| d.end());
    Some(Span {
        at: whole.start()..whole.end() + lasted,
        start,
        end,
        open,
    })
}

/// `line` without the span of dates in it, and what is left trimmed of the separators around it.
pub fn without(line: &str, span: &Span) -> String {
    let mut rest = String::with_capacity(line.len());
    rest.push_str(&line[..span.at.start]);
    rest.push(' ');
    rest.push_str(&line[span.at.end..]);
    trim_separators(&rest)
}

/// `text` trimmed of spaces and of the separators people put between a title and its dates.
pub fn trim_separators(text: &str) -> String {
    let is_separator = |c: char| {
        c.is_whitespace() || matches!(c, '|' | '·' | '•' | ',' | '–' | '—' | '-' | ':' | '(' | ')')
    };
    let t = text.trim_matches(is_separator);
    // A bracket left open or closed by taking the dates out.
    let t = t.strip_suffix('(').unwrap_or(t);
    // Parts a wide space set apart (a PDF's cells) stay apart.
    t.split("   ")
        .map(|part| part.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("   ")
}

/// Whether `text` is a date span and nothing else (separators aside).
pub fn only(text: &str) -> Option<Span> {
    let span = find(text)?;
    without(text, &span).is_empty().then_some(span)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> (String, String, bool) {
        let s = find(line).unwrap_or_else(|| panic!("no dates in {line:?}"));
        (s.start, s.end, s.open)
    }

    #[test]
    fn dates_are_read_in_the_forms_people_write_them() {
        let cases = [
            ("Jan 2020 – Present", ("2020-01", "", true)),
            ("January 2020 - March 2021", ("2020-01", "2021-03", false)),
            ("Jan. 2020 – Dec. 2021", ("2020-01", "2021-12", false)),
            ("01/2020 - 03/2022", ("2020-01", "2022-03", false)),
            ("2020-01 to 2021-06", ("2020-01", "2021-06", false)),
            ("2018 – 2020", ("2018", "2020", false)),
            ("since 2019", ("2019", "", true)),
            ("seit März 2019", ("2019-03", "", true)),
            ("März 2019 – heute", ("2019-03", "", true)),
            ("Okt. 2015 bis Dez. 2017", ("2015-10", "2017-12", false)),
            ("janv. 2018 – aujourd’hui", ("2018-01", "", true)),
            ("depuis 2017", ("2017", "", true)),
            ("ene. 2016 – actualidad", ("2016-01", "", true)),
            ("set. 2014 – atual", ("2014-09", "", true)),
            ("2020年4月 – 現在", ("2020-04", "", true)),
            ("2019年1月 – 至今", ("2019-01", "", true)),
            ("يناير 2020 – حتى الآن", ("2020-01", "", true)),
            ("CEO (Dec 2013 – Dec 2014)", ("2013-12", "2014-12", false)),
            ("Graduated 2011-06-01", ("2011-06-01", "", false)),
            ("12.2019 - 02.2021", ("2019-12", "2021-02", false)),
        ];
        for (line, (start, end, open)) in cases {
            assert_eq!(
                read(line),
                (start.to_owned(), end.to_owned(), open),
                "{line}"
            );
        }
    }

    #[test]
    fn what_is_left_of_a_line_is_its_title() {
        let line = "CEO/President (Dec 2013 – Dec 2014)";
        let span = find(line).unwrap();
        assert_eq!(without(line, &span), "CEO/President");
        let line = "Senior Engineer | Acme | 2019 – Present";
        assert_eq!(
            without(line, &find(line).unwrap()),
            "Senior Engineer | Acme"
        );
        assert!(only("Jan 2020 – Present").is_some());
        // How long it lasted, printed after the dates, is part of them.
        assert!(only("October, 2023 - Present 3 years, 2 months").is_some());
        assert!(only("Jan 2019 - Mar 2021 · 2 yrs 3 mos").is_some());
        assert!(only("January 2024 —  January 2025   a year").is_some());
        let line = "Acme 2018 – 2020 (2 years) Berlin";
        assert_eq!(without(line, &find(line).unwrap()), "Acme Berlin");
        let line = "2018 – 2020 12 engineers";
        assert_eq!(without(line, &find(line).unwrap()), "12 engineers");
        assert!(only("Founded in 2020 with friends").is_none());
        assert!(find("No dates here, only 12 numbers").is_none());
        // A phone number and a postcode are not years.
        assert!(find("(912) 555-4321").is_none());
    }
}
