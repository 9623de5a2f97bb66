//! A recruiter's rules on bullets (`highlights` of work, volunteer and projects): a weak opener, first
//! person, passive voice, a bullet over two printed lines, a job with no figure, the same opener thrice,
//! and (in English, where the verb lists are) an action verb first and the tense of the job.

use std::collections::HashMap;

use serde_json::Value;

use crate::words::{first_word, words};
use crate::{Field, Finding, Language, RuleId, fields};

/// About two printed lines of a bullet in Redline's templates (A4 or Letter, 10–11 pt).
const MAX_BULLET_CHARS: usize = 180;

/// How many bullets of one entry may open with the same word before it is named.
const SAME_OPENER: usize = 3;

/// The words of a language the rules read: weak openers (lower case), first-person words, the passive's
/// auxiliaries, and number words.
struct Lexicon {
    weak: &'static [&'static str],
    first_person: &'static [&'static str],
    passive: &'static [&'static str],
    numbers: &'static [&'static str],
}

const EN: Lexicon = Lexicon {
    weak: &[
        "responsible for",
        "helped with",
        "helped to",
        "worked on",
        "assisted with",
        "assisted in",
        "tasked with",
        "involved in",
        "participated in",
        "duties included",
        "in charge of",
    ],
    first_person: &["i", "me", "my", "mine", "myself"],
    passive: &["was", "were", "been", "being", "is", "are"],
    numbers: &[
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "twelve",
        "twenty",
        "dozen",
        "dozens",
        "hundred",
        "hundreds",
        "thousand",
        "thousands",
        "million",
        "millions",
        "billion",
        "doubled",
        "tripled",
        "halved",
        "double",
        "half",
    ],
};
const DE: Lexicon = Lexicon {
    weak: &[
        "verantwortlich für",
        "zuständig für",
        "mitgewirkt an",
        "mitgewirkt bei",
        "mithilfe bei",
        "unterstützung bei",
        "beteiligt an",
        "mitarbeit an",
        "mitarbeit bei",
    ],
    first_person: &[
        "ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "meines",
    ],
    passive: &["wurde", "wurden", "worden"],
    numbers: &[
        "zwei",
        "drei",
        "vier",
        "fünf",
        "sechs",
        "sieben",
        "acht",
        "neun",
        "zehn",
        "zwölf",
        "zwanzig",
        "dutzend",
        "hundert",
        "tausend",
        "million",
        "millionen",
        "verdoppelt",
        "halbiert",
        "verdreifacht",
    ],
};
const FR: Lexicon = Lexicon {
    weak: &[
        "responsable de",
        "responsable du",
        "responsable des",
        "chargé de",
        "chargée de",
        "chargé du",
        "participation à",
        "participé à",
        "aidé à",
        "travaillé sur",
    ],
    first_person: &["je", "j'", "moi", "mon", "ma", "mes", "m'"],
    passive: &["été"],
    numbers: &[
        "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "douze", "vingt",
        "cent", "cents", "mille", "million", "millions", "doublé", "triplé", "divisé",
    ],
};
const ES: Lexicon = Lexicon {
    weak: &[
        "responsable de",
        "encargado de",
        "encargada de",
        "ayudé a",
        "ayudé con",
        "trabajé en",
        "participé en",
    ],
    first_person: &["yo", "mi", "mis", "conmigo"],
    passive: &["fue", "fueron", "sido"],
    numbers: &[
        "dos",
        "tres",
        "cuatro",
        "cinco",
        "seis",
        "siete",
        "ocho",
        "nueve",
        "diez",
        "cien",
        "mil",
        "millón",
        "millones",
        "duplicado",
    ],
};
const PT: Lexicon = Lexicon {
    weak: &[
        "responsável por",
        "encarregado de",
        "encarregada de",
        "ajudei a",
        "ajudei com",
        "trabalhei em",
        "participei em",
    ],
    first_person: &["eu", "meu", "minha", "meus", "minhas", "mim", "comigo"],
    passive: &["foi", "foram", "sido"],
    numbers: &[
        "dois",
        "duas",
        "três",
        "quatro",
        "cinco",
        "seis",
        "sete",
        "oito",
        "nove",
        "dez",
        "cem",
        "mil",
        "milhão",
        "milhões",
        "duplicado",
    ],
};

fn lexicon(language: Language) -> Option<&'static Lexicon> {
    match language {
        Language::English => Some(&EN),
        Language::German => Some(&DE),
        Language::French => Some(&FR),
        Language::Spanish => Some(&ES),
        Language::Portuguese => Some(&PT),
        Language::Japanese | Language::Chinese | Language::Arabic => None,
    }
}

/// Whether a section's entry has ended: `Some(true)` with an end date, `Some(false)` with a start and no
/// end (the job held now), `None` where the section has no tense (projects).
fn ended(section: &str, entry: &Value) -> Option<bool> {
    if section == "projects" {
        return None;
    }
    let end = entry["endDate"].as_str().map(str::trim).unwrap_or("");
    let start = entry["startDate"].as_str().map(str::trim).unwrap_or("");
    match (
        start.is_empty(),
        end.is_empty() || end.eq_ignore_ascii_case("present"),
    ) {
        (_, false) => Some(true),
        (false, true) => Some(false),
        (true, true) => None,
    }
}

/// The bullet findings of `resume`.
pub(crate) fn check(resume: &Value, language: Language, findings: &mut Vec<Finding>) {
    let Some(lexicon) = lexicon(language) else {
        return;
    };
    for section in ["work", "volunteer", "projects"] {
        let entries = resume[section].as_array().into_iter().flatten();
        for (i, entry) in entries.enumerate() {
            let bullets: Vec<Field<'_>> = entry["highlights"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .filter_map(|(j, b)| {
                    Some(Field {
                        path: format!("/{section}/{i}/highlights/{j}"),
                        text: fields::cut(b.as_str().filter(|t| !t.trim().is_empty())?),
                    })
                })
                .collect();
            let english = language == Language::English;
            for bullet in &bullets {
                one_bullet(bullet, lexicon, findings);
                if english {
                    crate::verbs::english(bullet, ended(section, entry), findings);
                }
            }
            same_opener(&bullets, findings);
            if section == "work" {
                no_number(&bullets, lexicon, findings);
            }
        }
    }
}

/// The rules on one bullet in any language with a lexicon.
fn one_bullet(bullet: &Field<'_>, lexicon: &Lexicon, findings: &mut Vec<Finding>) {
    let lower = bullet.text.to_lowercase();
    let lead = bullet
        .text
        .chars()
        .take_while(|c| !c.is_alphanumeric())
        .count();
    let opening: String = lower.chars().skip(lead).collect();
    if let Some(weak) = lexicon.weak.iter().find(|w| opens_with(&opening, w)) {
        let span = (lead, lead + weak.chars().count());
        let message = "This bullet opens with a duty; open with what you did and what came of it.";
        findings.push(bullet.finding(RuleId::BulletWeakOpener, span, message.to_owned(), None));
    }
    for (at, word) in words(bullet.text) {
        let lower = word.to_lowercase().replace('’', "'");
        let elided = lexicon
            .first_person
            .iter()
            .any(|p| p.ends_with('\'') && lower.starts_with(p));
        if lexicon.first_person.contains(&lower.as_str()) || elided {
            let end = at + if elided { 2 } else { word.chars().count() };
            let message = format!("“{word}” is first person; a resume leaves it out.");
            findings.push(bullet.finding(RuleId::BulletFirstPerson, (at, end), message, None));
        }
    }
    passive(bullet, lexicon, findings);
    let length = bullet.text.chars().count();
    if length > MAX_BULLET_CHARS {
        let message = format!(
            "This bullet is {length} characters, more than two printed lines (about {MAX_BULLET_CHARS}); shorten it or split it."
        );
        findings.push(bullet.finding(RuleId::BulletTooLong, (0, length), message, None));
    }
}

fn opens_with(text: &str, phrase: &str) -> bool {
    text.strip_prefix(phrase)
        .is_some_and(|rest| rest.is_empty() || !rest.starts_with(char::is_alphanumeric))
}

/// An auxiliary of the passive followed by a participle (`was built`, `wurde … entwickelt`, `a été`).
fn passive(bullet: &Field<'_>, lexicon: &Lexicon, findings: &mut Vec<Finding>) {
    let found = words(bullet.text);
    for (k, (at, word)) in found.iter().enumerate() {
        if !lexicon.passive.contains(&word.to_lowercase().as_str()) {
            continue;
        }
        // The participle may follow an adverb ("was quickly adopted"); German puts it at the clause's end.
        let next = found[k + 1..].iter().take(2).find(|(_, w)| participle(w));
        let german = lexicon.passive.contains(&"wurde");
        let end = match next {
            Some((p, w)) => p + w.chars().count(),
            None if german => at + word.chars().count(),
            None => continue,
        };
        let message =
            "This is in the passive voice; say what you did, with an active verb.".to_owned();
        findings.push(bullet.finding(RuleId::BulletPassive, (*at, end), message, None));
    }
}

/// A past participle in one of the languages with a passive rule.
fn participle(word: &str) -> bool {
    const IRREGULAR: [&str; 24] = [
        "built", "made", "led", "given", "taken", "written", "done", "chosen", "sent", "held",
        "won", "shown", "known", "seen", "brought", "bought", "taught", "drawn", "grown", "run",
        "set", "put", "kept", "paid",
    ];
    let w = word.to_lowercase();
    let chars = w.chars().count();
    IRREGULAR.contains(&w.as_str())
        || (chars >= 4 && w.ends_with("ed"))
        || (chars > 3
            && ["é", "ée", "és", "ées", "ado", "ada", "ido", "ida"]
                .iter()
                .any(|e| w.ends_with(e)))
}

/// The same word opening [`SAME_OPENER`] bullets or more of one entry: named from the third on.
fn same_opener(bullets: &[Field<'_>], findings: &mut Vec<Finding>) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for bullet in bullets {
        let Some((start, end, word)) = first_word(bullet.text) else {
            continue;
        };
        let count = seen.entry(word.to_lowercase()).or_default();
        *count += 1;
        if *count >= SAME_OPENER {
            let message = format!("“{word}” opens {count} bullets of this entry; vary the verbs.");
            findings.push(bullet.finding(RuleId::BulletsSameOpener, (start, end), message, None));
        }
    }
}

/// A job whose bullets carry no figure: named on its first bullet, with the placeholder `[N]` to fill in.
fn no_number(bullets: &[Field<'_>], lexicon: &Lexicon, findings: &mut Vec<Finding>) {
    let has_number = |b: &Field<'_>| {
        b.text.chars().any(|c| c.is_ascii_digit())
            || words(b.text)
                .iter()
                .any(|(_, w)| lexicon.numbers.contains(&w.to_lowercase().as_str()))
    };
    let Some(first) = bullets.first() else {
        return;
    };
    if bullets.iter().any(has_number) {
        return;
    }
    let text = first.text.trim_end();
    let body = text.trim_end_matches(['.', ';', '!']);
    let fix = format!("{body} ([N]){}", &text[body.len()..]);
    let length = first.text.chars().count();
    let message = "No bullet of this job carries a figure; add how many, how much or how fast where you know it.";
    findings.push(first.finding(
        RuleId::BulletNoNumber,
        (0, length),
        message.to_owned(),
        Some(fix),
    ));
}
