//! Spelling: each word of a field written in words against the resume's language's Hunspell dictionary,
//! unless the resume or the user taught it.
//!
//! The dictionaries (`assets/dictionaries/`) are files beside the program ([`folder`]), read and parsed once
//! per language, on first use (tens of milliseconds each; `cargo bench -p redline-lint` prints each).

use std::collections::HashSet;
use std::io::Read;
use std::path::PathBuf;
use std::sync::OnceLock;

use spellbook::Dictionary;

use crate::{Field, Finding, Language, RuleId, words};

/// The longest word looked up; a longer run of letters is not a word a reader would take for one.
const MAX_WORD_CHARS: usize = 40;

/// Words that stand before a hyphen as a prefix (`multi-platform`, `co-founded`): not words alone.
const PREFIXES: [&str; 24] = [
    "anti", "bi", "co", "counter", "cross", "de", "e", "ex", "extra", "hyper", "inter", "intra",
    "macro", "micro", "mid", "multi", "non", "post", "pre", "re", "self", "semi", "sub", "tri",
];

/// Words of working life that the English dictionary lacks but every resume may use.
const RESUME_WORDS: [&str; 16] = [
    "onboarding",
    "offboarding",
    "backend",
    "frontend",
    "microservice",
    "microservices",
    "upskilling",
    "upskilled",
    "roadmap",
    "roadmaps",
    "stakeholder",
    "stakeholders",
    "scalable",
    "workflow",
    "workflows",
    "dataset",
];

/// French and Italian elisions (`l'équipe`, `d'une`, `qu'il`): the word is what follows the apostrophe.
const ELISIONS: [&str; 11] = ["l", "d", "j", "qu", "n", "s", "c", "m", "t", "dell", "all"];

/// The folder name of a language that has a dictionary: `assets/dictionaries/<tag>/<tag>.aff` and `.dic`.
fn tag(language: Language) -> Option<&'static str> {
    match language {
        Language::English => Some("en"),
        Language::German => Some("de"),
        Language::French => Some("fr"),
        Language::Spanish => Some("es"),
        Language::Portuguese => Some("pt"),
        // Written without spaces between words (Japanese, Chinese), or over the size budget (Arabic).
        Language::Japanese | Language::Chinese | Language::Arabic => None,
    }
}

/// The largest dictionary file read (German's `.dic`, the largest, is about 4 MB).
const MAX_DICTIONARY_BYTES: u64 = 32 << 20;

/// Where the dictionaries are. They are files beside the program, not compiled into it: each keeps its
/// own licence (German's is the GPL, which Redline's MIT binaries cannot take in), and the app and the
/// command line share one copy. `REDLINE_DICTIONARIES`, else the installed app's resources, else the source
/// tree's `assets/dictionaries` ([`redline_resume::resources::folder`]).
pub fn folder() -> Option<PathBuf> {
    redline_resume::resources::folder("dictionaries", "REDLINE_DICTIONARIES", |dir| {
        dir.join("en").join("en.aff").is_file()
    })
}

/// The `.aff` and `.dic` of `language`, read from [`folder`]; `None` when it has none or they are not there.
fn source(language: Language) -> Option<(String, String)> {
    let tag = tag(language)?;
    let dir = folder()?.join(tag);
    let read = |extension: &str| -> Option<String> {
        let file = std::fs::File::open(dir.join(format!("{tag}.{extension}"))).ok()?;
        let mut text = String::new();
        file.take(MAX_DICTIONARY_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    };
    Some((read("aff")?, read("dic")?))
}

/// Whether Redline has a spelling dictionary for `language`.
pub fn has_dictionary(language: Language) -> bool {
    tag(language).is_some()
}

/// The dictionary of `language`, parsed on first use. A dictionary that does not parse is no dictionary
/// (a test proves each bundled one parses).
fn dictionary(language: Language) -> Option<&'static Dictionary> {
    static LOADED: [OnceLock<Option<Dictionary>>; 8] = [const { OnceLock::new() }; 8];
    LOADED[language as usize]
        .get_or_init(|| {
            let (aff, dic) = source(language)?;
            Dictionary::new(&aff, &dic).ok()
        })
        .as_ref()
}

/// Parses `language`'s dictionary now, if it was not yet: whether it has one that parses.
pub fn dictionary_loaded(language: Language) -> bool {
    dictionary(language).is_some()
}

/// The spelling findings of `fields`, words in `known` (lower-cased) taken as spelt right.
pub(crate) fn check(
    fields: &[Field<'_>],
    language: Language,
    known: &HashSet<String>,
    findings: &mut Vec<Finding>,
) {
    let Some(dictionary) = dictionary(language) else {
        return;
    };
    let mut suggestions = Vec::new();
    for field in fields {
        let chars: Vec<char> = field.text.chars().collect();
        for (start, word) in words::to_spell(field.text) {
            let end = start + word.chars().count();
            if spelt_right(dictionary, language, known, word, &chars, (start, end)) {
                continue;
            }
            suggestions.clear();
            if end - start <= 30 {
                dictionary.suggest(word, &mut suggestions);
            }
            let fix = suggestions.first().cloned();
            let message = match &fix {
                Some(s) => format!(
                    "“{word}” is not in the {} dictionary; did you mean “{s}”?",
                    name(language)
                ),
                None => format!("“{word}” is not in the {} dictionary.", name(language)),
            };
            findings.push(field.finding(RuleId::Spelling, (start, end), message, fix));
        }
    }
}

/// Whether `word`, at `span` of the field `chars`, is spelt right, taught, or not a word to spell.
fn spelt_right(
    dictionary: &Dictionary,
    language: Language,
    known: &HashSet<String>,
    word: &str,
    chars: &[char],
    (start, end): (usize, usize),
) -> bool {
    let lower = word.to_lowercase();
    let length = end - start;
    if !(2..=MAX_WORD_CHARS).contains(&length) || known.contains(&lower) || dictionary.check(word) {
        return true;
    }
    if language == Language::English && RESUME_WORDS.contains(&lower.as_str()) {
        return true;
    }
    if chars.get(end) == Some(&'-') && PREFIXES.contains(&lower.as_str()) {
        return true;
    }
    // German writes every noun with a capital; elsewhere a capital inside a sentence marks a name.
    let capital = word.starts_with(char::is_uppercase);
    if capital && language != Language::German && !sentence_start(chars, start) {
        return true;
    }
    let plain = word.replace('’', "'");
    if plain != word && dictionary.check(&plain) {
        return true;
    }
    if let Some(stem) = plain
        .strip_suffix("'s")
        .or_else(|| plain.strip_suffix("s'"))
    {
        return dictionary.check(stem) || known.contains(&stem.to_lowercase());
    }
    match plain.split_once('\'') {
        Some((elided, rest)) if ELISIONS.contains(&elided.to_lowercase().as_str()) => {
            dictionary.check(rest) || known.contains(&rest.to_lowercase())
        }
        _ => false,
    }
}

/// Whether the word at `start` opens its field or a sentence (after `.`, `!`, `?`, `:` or a bullet mark).
fn sentence_start(chars: &[char], start: usize) -> bool {
    let before = chars[..start]
        .iter()
        .rev()
        .find(|c| !c.is_whitespace() && !"\"“‘'(«".contains(**c));
    before.is_none_or(|c| ".!?:;•–—-*".contains(*c))
}

fn name(language: Language) -> &'static str {
    match language {
        Language::English => "English",
        Language::German => "German",
        Language::French => "French",
        Language::Spanish => "Spanish",
        Language::Portuguese => "Portuguese",
        Language::Japanese => "Japanese",
        Language::Chinese => "Chinese",
        Language::Arabic => "Arabic",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_dictionary_parses_and_knows_a_word() {
        for (language, word) in [
            (Language::English, "managed"),
            (Language::German, "Mitarbeiter"),
            (Language::French, "équipe"),
            (Language::Spanish, "equipo"),
            (Language::Portuguese, "equipa"),
        ] {
            let dictionary = dictionary(language).expect("a bundled dictionary parses");
            assert!(dictionary.check(word), "{language:?} knows {word}");
            assert!(!dictionary.check("qzxwv"), "{language:?} knows no nonsense");
        }
        assert!(!has_dictionary(Language::Japanese));
    }
}
