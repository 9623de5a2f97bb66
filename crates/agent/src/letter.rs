//! A cover letter written through the same turn as a resume's edit: the chat model plans, the patch model
//! streams operations that add or change paragraphs, the stabilizer previews them, the store keeps them.
//! What differs is said here: the rules the models get, the places a letter's edits may go (only the
//! letter's own fields), its schema, and the invented-facts guard, which for a letter holds rather than
//! warns: every number, organisation, title, date, degree or skill a letter claims must be in the resume
//! it belongs to or in the posting, and anything else waits for the user with the reason "not in your
//! resume".

use redline_patch::{Bundle, Hold, Operation, Policy};
use redline_store::{DocumentKind, Store, StoreError};
use serde_json::Value;

use crate::facts::Invented;

/// The chat model's rules for a letter.
pub const CHAT_RULES: &str = "You are Redline, a careful writer of cover letters. The user's cover letter \
(JSON) is below, then the resume of its sender and the job posting it answers. When the user asks for the \
letter or a change to it, call patch_resume with a precise description of the intended changes and the JSON \
Pointers of the parts to change (for a whole letter, /paragraphs); do not write the changes yourself. A good \
letter has three or four paragraphs, 250 to 400 words, names the company and the role, and claims nothing \
the resume does not show. Be brief. Never invent facts.";

/// The patch model's rules for a letter.
pub fn patch_rules() -> String {
    format!(
        "You write a cover letter by writing RFC 6902 JSON Patch operations. Answer with one JSON object \
{{\"operations\": [...]}} and nothing else. Each operation has \"op\" (add, remove, replace), \"path\" (a JSON \
Pointer into the letter) and \"value\". To add a paragraph, add a string at /paragraphs/-. Write only the \
letter's fields; the sender is the resume and is never copied. Use only facts from the resume and the job \
posting: never invent numbers, employers, titles, dates, degrees or skills. The letter's shape:\n{}",
        redline_resume::letter::SHAPE
    )
}

/// The heading of the sender's resume in a request about a letter.
pub const SENDER_HEADING: &str =
    "The sender's resume (facts may come only from it and the posting):";

/// The resume a letter belongs to, at its head, if `document` is a letter; `None` for a resume.
pub fn sender(store: &Store, document: i64) -> Result<Option<Value>, StoreError> {
    let summary = store.document(document)?;
    match (summary.kind, summary.resume_id) {
        (DocumentKind::Letter, Some(resume)) => Ok(Some(store.head(resume)?.document)),
        (DocumentKind::Letter, None) => Ok(Some(Value::Null)),
        (DocumentKind::Resume, _) => Ok(None),
    }
}

/// What a letter's facts may come from: the user's own words, the sender's resume and the posting.
pub fn known(said: &str, resume: &Value, job: Option<&str>) -> String {
    format!("{said}\n{resume}\n{}", job.unwrap_or_default())
}

/// The policy of a letter's turns: `base`, with every part of a resume protected, so that an edit may
/// write only the letter's own fields (the letter's schema, checked at commit, refuses the rest too).
pub fn policy(base: &Policy) -> Policy {
    let mut policy = base.clone();
    for section in redline_resume::sections() {
        let pointer = format!("/{section}");
        if !policy.protected.contains(&pointer) {
            policy.protected.push(pointer);
        }
    }
    policy
}

/// What the letter's own checks make of a complete bundle.
pub enum Verdict {
    /// It may be committed (or proposed).
    Fine,
    /// It breaks the letter's schema: refused with this reason (the model gets another try).
    Refused(String),
    /// It claims facts found neither in the resume nor in the posting: held whole for the user.
    Invented(Invented),
}

/// The letter's checks of `bundle`, written against the letter `before`, its facts looked up in `known`
/// ([`known`]).
pub fn verdict(before: &Value, bundle: &Bundle, known: &str) -> Verdict {
    if let Err(problems) = redline_resume::letter::validate(&bundle.document) {
        return Verdict::Refused(format!(
            "the letter would not be a valid letter: {}",
            redline_resume::listed(&problems).join("; ")
        ));
    }
    let invented = crate::facts::invented(before, &bundle.document, known);
    match invented.facts.is_empty() && !invented.unchecked {
        true => Verdict::Fine,
        false => Verdict::Invented(invented),
    }
}

/// A letter's operations sorted by what they claim: those that claim nothing new, and those that claim
/// a fact found neither in the resume nor in the posting.
#[derive(Debug, Default)]
pub struct Sorted {
    /// The operations that may be kept, in order.
    pub kept: Vec<Operation>,
    /// The letter they make, from the one before.
    pub document: Value,
    /// The operations that wait for the user, in order.
    pub invented: Vec<Operation>,
}

/// `ops`, applied in order to `before`, sorted by whether each claims a fact that `known` lacks. An
/// operation that no longer applies once another waits (an edit inside a paragraph held) waits too.
pub fn sorted(before: &Value, ops: &[Operation], known: &str) -> Sorted {
    let mut sorted = Sorted {
        document: before.clone(),
        ..Sorted::default()
    };
    for op in ops {
        let after = redline_patch::applied(&sorted.document, std::slice::from_ref(op));
        match after {
            Ok(after)
                if crate::facts::invented(&sorted.document, &after, known)
                    .facts
                    .is_empty() =>
            {
                sorted.document = after;
                sorted.kept.push(op.clone());
            }
            _ => sorted.invented.push(op.clone()),
        }
    }
    sorted
}

/// Why each operation of a bundle held for its invented facts waits: every one of them, as the bundle is
/// held whole (its previews are taken back together).
pub fn why_held(count: usize) -> Vec<Hold> {
    vec![Hold::NotInResume; count]
}

/// The words the user is told of a bundle held for its invented facts.
pub fn warning(invented: &Invented) -> String {
    let listed = invented
        .warning("your resume or the posting")
        .unwrap_or_default();
    format!("Held, not in your resume: {listed}")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn bundle(document: Value) -> Bundle {
        Bundle {
            ops: Vec::new(),
            document,
            held: Vec::new(),
            why_held: Vec::new(),
        }
    }

    #[test]
    fn a_letter_holds_what_neither_the_resume_nor_the_posting_says() {
        let resume = json!({"basics": {"name": "Ada"}, "work": [{"name": "Analytical Engines", "position": "Engineer"}]});
        let posting = "Initech seeks a Senior Engineer with Rust.";
        let known = known("write my letter", &resume, Some(posting));
        let before = json!({"paragraphs": []});
        let honest = json!({"paragraphs": ["I worked at Analytical Engines as an Engineer; Initech wants a Senior Engineer."]});
        match verdict(&before, &bundle(honest), &known) {
            Verdict::Fine => {}
            Verdict::Refused(reason) => panic!("refused: {reason}"),
            Verdict::Invented(found) => panic!("held: {:?}", found.facts),
        }
        let invented = json!({"paragraphs": ["I led a team of 12 and grew revenue 40% at Globex Corporation."]});
        let Verdict::Invented(found) = verdict(&before, &bundle(invented), &known) else {
            panic!("invented facts pass");
        };
        assert_eq!(found.facts, ["12", "40%", "Globex Corporation"]);
        assert!(warning(&found).starts_with("Held, not in your resume: "));
        let broken = json!({"paragraphs": "one string"});
        assert!(matches!(
            verdict(&before, &bundle(broken), &known),
            Verdict::Refused(reason) if reason.contains("/paragraphs")
        ));
    }

    #[test]
    fn a_letter_s_policy_protects_every_part_of_a_resume() {
        let policy = policy(&Policy::default());
        assert!(policy.check_write("/work/0/name").is_err());
        assert!(policy.check_write("/basics/name").is_err());
        assert!(policy.check_write("/paragraphs/-").is_ok());
        assert!(policy.check_write("/recipient/company").is_ok());
    }
}
