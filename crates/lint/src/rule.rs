//! The rules: each has a stable id (what `--json`, a disabled list and the window's "ignore this rule"
//! name it by), a family (what the corpus measures it as) and a one-line reason a user reads.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A rule of the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleId {
    Spelling,
    GrammarAgreement,
    GrammarRepeatedWord,
    GrammarWordForm,
    GrammarPunctuation,
    GrammarCapitalisation,
    BulletWeakOpener,
    BulletFirstPerson,
    BulletPassive,
    BulletTooLong,
    BulletNoNumber,
    BulletActionVerb,
    BulletsSameOpener,
    TenseEndedJob,
    TenseCurrentJob,
    DatesEndBeforeStart,
    DatesFuture,
    DatesGap,
    ContactEmailMissing,
    ContactPhoneMissing,
}

/// What kind of check a rule is, as the corpus counts recall and precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Spelling,
    Grammar,
    Rules,
}

impl RuleId {
    /// Every rule, in the order of their ids' families.
    pub const ALL: [RuleId; 20] = [
        RuleId::Spelling,
        RuleId::GrammarAgreement,
        RuleId::GrammarRepeatedWord,
        RuleId::GrammarWordForm,
        RuleId::GrammarPunctuation,
        RuleId::GrammarCapitalisation,
        RuleId::BulletWeakOpener,
        RuleId::BulletFirstPerson,
        RuleId::BulletPassive,
        RuleId::BulletTooLong,
        RuleId::BulletNoNumber,
        RuleId::BulletActionVerb,
        RuleId::BulletsSameOpener,
        RuleId::TenseEndedJob,
        RuleId::TenseCurrentJob,
        RuleId::DatesEndBeforeStart,
        RuleId::DatesFuture,
        RuleId::DatesGap,
        RuleId::ContactEmailMissing,
        RuleId::ContactPhoneMissing,
    ];

    /// Its stable id (`spelling`, `bullet.weak-opener`, …).
    pub fn id(self) -> &'static str {
        self.entry().0
    }

    /// The rule whose id is `id`.
    pub fn parse(id: &str) -> Option<RuleId> {
        RuleId::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Its family.
    pub fn family(self) -> Family {
        match self {
            RuleId::Spelling => Family::Spelling,
            RuleId::GrammarAgreement
            | RuleId::GrammarRepeatedWord
            | RuleId::GrammarWordForm
            | RuleId::GrammarPunctuation
            | RuleId::GrammarCapitalisation => Family::Grammar,
            _ => Family::Rules,
        }
    }

    fn entry(self) -> (&'static str, &'static str) {
        ENTRIES[self as usize]
    }
}

/// Each rule's id and reason, in the order of [`RuleId`]'s variants.
const ENTRIES: [(&str, &str); 20] = [
    (
        "spelling",
        "A misspelt word is the first thing a reader notices.",
    ),
    (
        "grammar.agreement",
        "Words that do not agree (a/an, subject and verb) read as careless.",
    ),
    (
        "grammar.repeated-word",
        "A word written twice in a row is a slip a reader sees at once.",
    ),
    (
        "grammar.word-form",
        "A wrong form of a word (its/it's, could of) reads as careless.",
    ),
    (
        "grammar.punctuation",
        "Spaces around punctuation in the wrong place look untidy in print.",
    ),
    (
        "grammar.capitalisation",
        "A sentence or a name without its capital looks unedited.",
    ),
    (
        "bullet.weak-opener",
        "\"Responsible for\" says what you were asked to do, not what you did.",
    ),
    (
        "bullet.first-person",
        "A resume is written without \"I\" and \"my\": it is about you already.",
    ),
    (
        "bullet.passive",
        "The passive voice hides who did the work: you.",
    ),
    (
        "bullet.too-long",
        "A bullet over two printed lines is skimmed, not read.",
    ),
    (
        "bullet.no-number",
        "A figure (how many, how much, how fast) makes a result believable.",
    ),
    (
        "bullet.action-verb",
        "A bullet that opens with an action verb says at once what you did.",
    ),
    (
        "bullets.same-opener",
        "The same verb opening three bullets makes them read as one.",
    ),
    (
        "tense.ended-job",
        "A job that has ended is told in the past tense.",
    ),
    (
        "tense.current-job",
        "The job you hold now is told in the present tense.",
    ),
    (
        "dates.end-before-start",
        "An end before its start is a typo a recruiter will ask about.",
    ),
    (
        "dates.future",
        "A date in the future is a typo or needs a word of explanation.",
    ),
    (
        "dates.gap",
        "A gap of more than six months between jobs is something a recruiter will ask about.",
    ),
    (
        "contact.email-missing",
        "Without an e-mail address a recruiter cannot answer you.",
    ),
    (
        "contact.phone-missing",
        "Without a phone number a recruiter cannot call you.",
    ),
];

/// Why `rule` matters, in one line.
pub fn reason(rule: RuleId) -> &'static str {
    rule.entry().1
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for RuleId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for RuleId {
    /// A rule by its id (`bullet.weak-opener`); an id that names none is refused in words.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        RuleId::parse(&id).ok_or_else(|| {
            serde::de::Error::custom(format!("“{id}” is not a rule of the writing check"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_parses_back_and_is_unique() {
        let mut ids: Vec<_> = RuleId::ALL.iter().map(|r| r.id()).collect();
        for rule in RuleId::ALL {
            assert_eq!(RuleId::parse(rule.id()), Some(rule));
            assert!(
                reason(rule).ends_with('.'),
                "{rule}: a reason is a sentence"
            );
        }
        // The table follows the variants' order: spot checks at its start, middle and end.
        assert_eq!(RuleId::Spelling.id(), "spelling");
        assert_eq!(RuleId::BulletWeakOpener.id(), "bullet.weak-opener");
        assert_eq!(RuleId::DatesGap.id(), "dates.gap");
        assert_eq!(RuleId::ContactPhoneMissing.id(), "contact.phone-missing");
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RuleId::ALL.len());
    }
}
