//! How well a resume covers a job description, computed locally and deterministically (no model): the
//! terms the description uses most — single words and two-word phrases, without the words every text has —
//! and whether each appears in the resume.

use std::collections::HashMap;

use serde_json::Value;

/// The most terms a report lists.
pub const MAX_TERMS: usize = 30;

/// The most of a job description that is read (a long posting is 10 KB).
pub const MAX_DESCRIPTION_BYTES: usize = 64 * 1024;

/// One term of the description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// As the description writes it, lower-cased (`python`, `distributed systems`, `c++`).
    pub term: String,
    /// How often the description uses it.
    pub count: usize,
    /// Whether the resume has it anywhere (any text field, whole words).
    pub found: bool,
}

/// The description's terms, most used first (ties in the order they first appear, then alphabetically).
pub fn coverage(description: &str, resume: &Value) -> Vec<Term> {
    let description = cut(description, MAX_DESCRIPTION_BYTES);
    let words = words(description);
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    let mut note = |term: String, at: usize| {
        counts.entry(term).or_insert((0, at)).0 += 1;
    };
    for (i, word) in words.iter().enumerate() {
        if is_term(word) {
            note(word.clone(), i);
        }
        if let Some(next) = words.get(i + 1)
            && is_term(word)
            && is_term(next)
        {
            note(format!("{word} {next}"), i);
        }
    }
    // A phrase counts when it recurs; a single word, always.
    let mut terms: Vec<(String, usize, usize)> = counts
        .into_iter()
        .filter(|(term, (count, _))| !term.contains(' ') || *count > 1)
        .map(|(term, (count, at))| (term, count, at))
        .collect();
    terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
    terms.truncate(MAX_TERMS);
    let text = format!(" {} ", words_of_resume(resume).join(" "));
    terms
        .into_iter()
        .map(|(term, count, _)| Term {
            found: text.contains(&format!(" {term} ")),
            term,
            count,
        })
        .collect()
}

/// The first `max` bytes of `text`, cut between words (a word cut in two is no term).
fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    head.rfind(char::is_whitespace)
        .map_or(head, |space| &head[..space])
}

/// The words of `text`, lower-cased: letters and digits, with `+`, `#` and inner `.`/`-` kept (`c++`, `c#`,
/// `node.js`, `ci-cd`).
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, words: &mut Vec<String>| {
        let trimmed = word.trim_end_matches(['.', '-']);
        if !trimmed.is_empty() {
            words.push(trimmed.to_lowercase());
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric()
            || c == '+'
            || c == '#'
            || ((c == '.' || c == '-') && !word.is_empty())
        {
            word.push(c);
        } else {
            flush(&mut word, &mut words);
        }
    }
    flush(&mut word, &mut words);
    words
}

/// Every word of every string in the resume, in order.
fn words_of_resume(resume: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![resume];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(s) => found.extend(words(s)),
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(fields) => stack.extend(fields.values().rev()),
            _ => {}
        }
    }
    found
}

/// A word worth reporting: not one every text has, and not a number (`5+`).
fn is_term(word: &str) -> bool {
    (word.chars().count() > 1 || matches!(word, "c" | "r"))
        && word.chars().any(char::is_alphabetic)
        && !STOP_WORDS.contains(&word)
}

/// Words every job description has (English), which say nothing about the job.
#[rustfmt::skip]
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "across", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "being", "both", "but", "by", "can", "could", "do", "does", "each", "etc", "every", "for",
    "from", "get", "has", "have", "help", "how", "if", "in", "including", "into", "is", "it", "its", "join",
    "just", "like", "make", "may", "more", "most", "must", "new", "no", "not", "of", "on", "one", "or",
    "other", "our", "out", "over", "own", "per", "plus", "role", "should", "so", "some", "such", "team",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through",
    "to", "up", "us", "use", "using", "very", "want", "was", "we", "well", "were", "what", "when", "where",
    "which", "while", "who", "will", "with", "work", "working", "would", "year", "years", "you", "your",
    "able", "ability", "experience", "strong", "skills", "looking", "candidate", "responsibilities",
    "requirements", "preferred", "required", "knowledge", "understanding", "within", "day", "ideal",
    "great", "good", "excellent", "opportunity", "company", "position", "need", "needs", "seeking",
    "hiring", "apply",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const JOB: &str = "Backend Engineer. We are looking for a backend engineer with Python and Rust. \
        You will build distributed systems in Python; experience with Kubernetes and distributed systems \
        is a plus. C++ or C# welcome. 5+ years.";

    #[test]
    fn the_terms_used_most_are_listed_with_whether_the_resume_has_them() {
        let resume = json!({"basics": {"summary": "I write Python services."},
            "skills": [{"name": "Languages", "keywords": ["Rust", "C#"]}]});
        let report = coverage(JOB, &resume);
        let find = |t: &str| report.iter().find(|r| r.term == t).cloned();
        assert_eq!(report[0].term, "backend");
        assert_eq!(find("python").map(|t| (t.count, t.found)), Some((2, true)));
        assert_eq!(
            find("distributed systems").map(|t| (t.count, t.found)),
            Some((2, false))
        );
        assert_eq!(find("kubernetes").map(|t| t.found), Some(false));
        assert_eq!(find("rust").map(|t| t.found), Some(true));
        assert_eq!(find("c#").map(|t| t.found), Some(true));
        assert_eq!(find("c++").map(|t| t.found), Some(false));
        // Words every posting has, numbers and one-off phrases are not terms.
        for absent in ["we", "looking", "experience", "5+", "python and", "years"] {
            assert!(find(absent).is_none(), "{absent} listed");
        }
        assert!(find("engineer with").is_none());
    }

    #[test]
    fn the_same_input_gives_the_same_report_and_a_huge_one_is_bounded() {
        let resume = redline_sample();
        assert_eq!(coverage(JOB, &resume), coverage(JOB, &resume));
        let huge = "kubernetes ".repeat(100_000);
        let report = coverage(&huge, &resume);
        assert_eq!(report.len(), 2);
        assert!(report[0].count <= MAX_DESCRIPTION_BYTES / 11 + 1);
        assert!(coverage("", &resume).is_empty());
    }

    fn redline_sample() -> Value {
        crate::sample()
    }
}
