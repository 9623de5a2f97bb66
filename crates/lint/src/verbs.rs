//! English action verbs, with their past and present forms: a bullet should open with one, in the past for
//! a job that has ended and in the present for the one held now. The lists are English only; other
//! languages get the rules that need no verb list (`bullets`).

use crate::words::first_word;
use crate::{Field, Finding, RuleId};

/// Action verbs whose past is made by rule (`managed`, `applied`, `developed`).
const REGULAR: &[&str] = &[
    "accelerate",
    "achieve",
    "acquire",
    "adapt",
    "address",
    "administer",
    "advise",
    "advocate",
    "analyze",
    "analyse",
    "architect",
    "arrange",
    "assemble",
    "assess",
    "audit",
    "author",
    "automate",
    "award",
    "balance",
    "boost",
    "budget",
    "calculate",
    "champion",
    "clarify",
    "coach",
    "collaborate",
    "collect",
    "compile",
    "complete",
    "compose",
    "conceive",
    "conduct",
    "configure",
    "consolidate",
    "construct",
    "consult",
    "contribute",
    "convert",
    "coordinate",
    "create",
    "cultivate",
    "debug",
    "decrease",
    "define",
    "deliver",
    "deploy",
    "design",
    "detect",
    "develop",
    "devise",
    "diagnose",
    "direct",
    "document",
    "draft",
    "edit",
    "educate",
    "eliminate",
    "enable",
    "engineer",
    "enhance",
    "ensure",
    "establish",
    "evaluate",
    "execute",
    "expand",
    "expedite",
    "facilitate",
    "finalize",
    "forecast",
    "formulate",
    "generate",
    "guide",
    "handle",
    "implement",
    "improve",
    "increase",
    "influence",
    "initiate",
    "innovate",
    "inspect",
    "install",
    "integrate",
    "interview",
    "introduce",
    "invent",
    "launch",
    "lower",
    "maintain",
    "manage",
    "market",
    "maximize",
    "measure",
    "mentor",
    "migrate",
    "minimize",
    "moderate",
    "modernize",
    "monitor",
    "motivate",
    "negotiate",
    "operate",
    "optimize",
    "orchestrate",
    "organize",
    "outperform",
    "overhaul",
    "own",
    "partner",
    "perform",
    "pilot",
    "pioneer",
    "prepare",
    "present",
    "prioritize",
    "produce",
    "program",
    "promote",
    "prototype",
    "publish",
    "raise",
    "recruit",
    "redesign",
    "reduce",
    "refactor",
    "remodel",
    "reorganize",
    "replace",
    "research",
    "resolve",
    "restructure",
    "review",
    "revamp",
    "save",
    "scale",
    "secure",
    "simplify",
    "solve",
    "streamline",
    "strengthen",
    "supervise",
    "support",
    "test",
    "train",
    "transform",
    "translate",
    "triple",
    "unify",
    "upgrade",
    "validate",
];

/// Action verbs whose past is not made by rule: `(present, past)`.
const IRREGULAR: &[(&str, &str)] = &[
    ("build", "built"),
    ("lead", "led"),
    ("run", "ran"),
    ("write", "wrote"),
    ("teach", "taught"),
    ("win", "won"),
    ("make", "made"),
    ("drive", "drove"),
    ("grow", "grew"),
    ("begin", "began"),
    ("bring", "brought"),
    ("draw", "drew"),
    ("hold", "held"),
    ("oversee", "oversaw"),
    ("sell", "sold"),
    ("spend", "spent"),
    ("take", "took"),
    ("think", "thought"),
    ("ship", "shipped"),
    ("plan", "planned"),
    ("scan", "scanned"),
    ("control", "controlled"),
    ("commit", "committed"),
    ("cut", "cut"),
    ("set", "set"),
    ("spearhead", "spearheaded"),
    ("found", "founded"),
    ("rebuild", "rebuilt"),
    ("rewrite", "rewrote"),
    ("double", "doubled"),
];

/// The tense of a verb form as it opens a bullet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tense {
    Present,
    Past,
    /// The same word in both (`cut`, `set`), or a form that says no tense (`managing`).
    Either,
}

/// The regular past of `base`: `manage` → `managed`, `apply` → `applied`, `develop` → `developed`.
fn regular_past(base: &str) -> String {
    if let Some(stem) = base
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
    {
        format!("{stem}ied")
    } else if base.ends_with('e') {
        format!("{base}d")
    } else {
        format!("{base}ed")
    }
}

/// The verb `word` is a form of, as `(present, past, tense of word)`, if it is an action verb.
fn verb(word: &str) -> Option<(String, String, Tense)> {
    let w = word.to_lowercase();
    let pairs = IRREGULAR
        .iter()
        .map(|(p, past)| ((*p).to_owned(), (*past).to_owned()))
        .chain(REGULAR.iter().map(|p| ((*p).to_owned(), regular_past(p))));
    for (present, past) in pairs {
        let third = if present.ends_with(['s', 'x', 'h']) {
            format!("{present}es")
        } else if let Some(stem) = present
            .strip_suffix('y')
            .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
        {
            format!("{stem}ies")
        } else {
            format!("{present}s")
        };
        let gerund = format!("{}ing", present.strip_suffix('e').unwrap_or(&present));
        let tense = if present == past && w == past {
            Tense::Either
        } else if w == past {
            Tense::Past
        } else if w == present || w == third {
            Tense::Present
        } else if w == gerund {
            Tense::Either
        } else {
            continue;
        };
        return Some((present, past, tense));
    }
    None
}

/// `word` written with the capital `like` has (`Led` for `led` after `Lead`).
fn cased_like(word: &str, like: &str) -> String {
    let mut chars = word.chars();
    match (like.starts_with(char::is_uppercase), chars.next()) {
        (true, Some(first)) => first.to_uppercase().chain(chars).collect(),
        _ => word.to_owned(),
    }
}

/// The word that should be the bullet's verb, with its span: the first, or the second after an adverb
/// (`Successfully launched`).
fn opening_verb(text: &str) -> Option<(usize, usize, &str)> {
    let (start, end, word) = first_word(text)?;
    if !word.to_lowercase().ends_with("ly") {
        return Some((start, end, word));
    }
    let (at, next) = crate::words::words(text).into_iter().nth(1)?;
    Some((at, at + next.chars().count(), next))
}

/// The English rules on one bullet: it opens with an action verb, in the tense of its job (`ended`:
/// whether the job has ended, where that is known).
pub(crate) fn english(bullet: &Field<'_>, ended: Option<bool>, findings: &mut Vec<Finding>) {
    let Some((start, end, word)) = opening_verb(bullet.text) else {
        return;
    };
    let opener_named = findings.iter().any(|f| {
        f.path == bullet.path
            && f.start <= start
            && matches!(f.rule, RuleId::BulletWeakOpener | RuleId::BulletFirstPerson)
    });
    let Some((present, past, tense)) = verb(word) else {
        if !opener_named {
            let message = format!(
                "“{word}” is not an action verb; open with what you did (Led, Built, Reduced)."
            );
            findings.push(bullet.finding(RuleId::BulletActionVerb, (start, end), message, None));
        }
        return;
    };
    match (ended, tense) {
        (Some(true), Tense::Present) => {
            let message = format!("This job has ended: “{word}” should be in the past tense.");
            let fix = Some(cased_like(&past, word));
            findings.push(bullet.finding(RuleId::TenseEndedJob, (start, end), message, fix));
        }
        (Some(false), Tense::Past) => {
            let message =
                format!("This is the job you hold now: “{word}” should be in the present tense.");
            let fix = Some(cased_like(&present, word));
            findings.push(bullet.finding(RuleId::TenseCurrentJob, (start, end), message, fix));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_told_apart() {
        assert_eq!(verb("Managed").map(|v| v.2), Some(Tense::Past));
        assert_eq!(verb("leads").map(|v| v.2), Some(Tense::Present));
        assert_eq!(verb("cut").map(|v| v.2), Some(Tense::Either));
        assert_eq!(regular_past("apply"), "applied");
        assert_eq!(verb("Applied"), None, "apply is not in the list");
        assert_eq!(verb("Simplified").map(|v| v.0), Some("simplify".to_owned()));
        assert_eq!(verb("Team"), None);
    }
}
