//! English grammar from Automattic's Harper, checked by the `redline-grammar` program (the
//! `redline_grammar` crate: one copy of Harper beside the app and the command line, not one in each), as
//! `grammar.*` findings: agreement, repeated words, wrong word forms, punctuation and capitalisation.
//!
//! What it found in each field's text is kept there, so that the check after a keystroke asks about the
//! one field that changed. Where the program is not installed, grammar finds nothing
//! ([`crate::grammar_available`]).

use std::collections::HashSet;

use redline_grammar::Rule;

use crate::{Field, Finding, RuleId, fields};

/// The finding a [`Rule`] is.
fn rule_id(rule: Rule) -> RuleId {
    match rule {
        Rule::Agreement => RuleId::GrammarAgreement,
        Rule::RepeatedWord => RuleId::GrammarRepeatedWord,
        Rule::WordForm => RuleId::GrammarWordForm,
        Rule::Punctuation => RuleId::GrammarPunctuation,
        Rule::Capitalisation => RuleId::GrammarCapitalisation,
    }
}

/// The grammar findings of the fields of `fields` written in sentences. A name the resume writes its own
/// way (`Techcrunch`, in its awards) is not a capitalisation mistake, and words the spelling check named
/// are not named twice.
pub(crate) fn check(fields: &[Field<'_>], known: &HashSet<String>, findings: &mut Vec<Finding>) {
    let prose: Vec<&Field<'_>> = fields
        .iter()
        .filter(|f| fields::in_sentences(&f.path))
        .collect();
    let texts: Vec<&str> = prose.iter().map(|f| f.text).collect();
    for (field, found) in prose.iter().zip(redline_grammar::check(&texts)) {
        for one in found.iter() {
            let span = (one.start, one.end);
            let finding = field.finding(
                rule_id(one.rule),
                span,
                one.message.clone(),
                one.fix.clone(),
            );
            let taught = finding.rule == RuleId::GrammarCapitalisation
                && known.contains(&finding.text.to_lowercase());
            let spelt = findings.iter().any(|f| {
                f.rule == RuleId::Spelling && f.path == finding.path && f.start == finding.start
            });
            if !taught && !spelt {
                findings.push(finding);
            }
        }
    }
}
