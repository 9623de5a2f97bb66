//! Education: the school and its link, the degree and its subject (in either order, on one line or two),
//! the dates, a grade, and courses.

mod words;

use redline_resume::words::{Language, Words};
use serde_json::{Map, Value};

use crate::headings;

use super::entries::{Raw, subtitle_parts, title_and_subtitle};
use super::fields::{highlights, put, put_dates};
use super::lines::list_items;
use words::{DEGREES, SCHOOL_WORDS};

/// An education from its entry's lines into `m`; `words`, the language's, say what its grade is labelled.
pub(super) fn entry(raw: Raw, words: &Words, m: &mut Map<String, Value>) {
    let summary = raw.paragraphs.join("\n\n");
    let (institution, degree) = title_and_subtitle(&raw, school_score, true);
    // A degree's word opening one line and not the other says which is which; else the school's words do.
    let swap = match (opens_with_degree(&institution), opens_with_degree(&degree)) {
        (true, false) => true,
        (false, true) => false,
        _ => {
            school_score(&degree) > school_score(&institution)
                || school_score(&institution) == 0 && !degree.is_empty()
        }
    };
    let (institution, degree) = if swap {
        (degree, institution)
    } else {
        (institution, degree)
    };
    let (school, _, url) = subtitle_parts(&institution);
    put(m, "institution", school);
    put(m, "url", url);
    let (study, area) = study_and_area(&degree);
    put_dates(m, &raw, "startDate", "endDate");
    let mut courses: Vec<String> = raw
        .head
        .iter()
        .skip(2)
        .flat_map(|l| list_items(l).unwrap_or_else(|| vec![l.clone()]))
        .collect();
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
    put(m, "studyType", study);
    put(m, "area", area);
    for b in bullets {
        let score = b
            .split_once(':')
            .filter(|(label, _)| grade_label(label, words));
        match score {
            Some((_, s)) if !m.contains_key("score") => put(m, "score", s.trim()),
            _ => courses.push(b),
        }
    }
    highlights(m, "courses", courses);
    if !summary.is_empty() {
        let mut list: Vec<String> = m
            .remove("courses")
            .and_then(|c| serde_json::from_value(c).ok())
            .unwrap_or_default();
        list.extend(raw.paragraphs);
        highlights(m, "courses", list);
    }
}

/// How many words of `text` name a school.
fn school_score(text: &str) -> usize {
    let lower = text.to_lowercase();
    SCHOOL_WORDS.iter().filter(|w| lower.contains(*w)).count()
}

/// Whether `text` is a degree's word ("Bachelor", "MSc").
fn is_degree(text: &str) -> bool {
    DEGREES.contains(&headings::key(text).as_str())
}

/// Whether `text` opens with a degree's word ("PhD in Physics", "M.Eng., Mathematics", "Bachelor").
fn opens_with_degree(text: &str) -> bool {
    let first = text.split([' ', ',']).next().unwrap_or_default();
    !first.is_empty() && is_degree(first)
}

/// A degree as written ("BSc in Mathematics", "MS, Computer Science") into its type and its subject.
fn study_and_area(degree: &str) -> (String, String) {
    match degree
        .split_once(", ")
        .or_else(|| degree.split_once(" in "))
        .or_else(|| degree.split_once(" of "))
        .or_else(|| degree.split_once("、"))
    {
        Some((s, a)) => (s.to_owned(), a.to_owned()),
        // "Bachelor Information Technology": a degree's word, then its subject.
        None => match degree.split_once(' ') {
            Some((s, a)) if is_degree(s) => (s.to_owned(), a.to_owned()),
            _ => (degree.to_owned(), String::new()),
        },
    }
}

/// Whether `label` is a grade's: "GPA", "Grade", "Score", or the word for it in `words`' language or any
/// other Redline writes.
fn grade_label(label: &str, words: &Words) -> bool {
    let l = label.trim().to_lowercase();
    l == words.score().to_lowercase()
        || Language::ALL
            .iter()
            .any(|&lang| Words::of(lang).score().to_lowercase() == l)
        || matches!(l.as_str(), "gpa" | "grade" | "score")
}
