//! Edits held for the user's confirmation.
//!
//! The planner names the parts of the resume a change is about (its targets); an operation the patch
//! model writes outside all of them is never applied silently. The stabilizer holds it, the turn commits
//! the rest and reports what it held ([`Held`]), and the user may look at it and apply it later with
//! [`confirm`] — carried over to the revision the resume has reached by then, checked again like any
//! other bundle, and saved as a revision of its own.

use redline_error_kind::ErrorKind;
use redline_patch::{Hold, Operation, Policy, PolicyError, RebaseError, Scope};
use redline_store::{Change, Committed, Source, Store, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Operations held back from one bundle, waiting for the user. The app's window gets them as they are
/// (`HeldEdits` in TypeScript) and hands them back to be applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "HeldEdits")]
pub struct Held {
    /// The document they are for.
    #[ts(type = "number")]
    pub document_id: i64,
    /// The revision they were written against (their pointers refer to it).
    #[ts(type = "number")]
    pub base: u64,
    /// The operations, in the order the model wrote them.
    pub ops: Vec<Operation>,
    /// One line per operation, for the user, in words ("Change your title to “Pythonista”").
    pub descriptions: Vec<String>,
    /// The whole of a bundle, proposed for the user's review (review mode), rather than edits the model
    /// made outside what was asked.
    #[serde(default)]
    pub proposal: bool,
    /// Why each operation waits, in their order (the chat's card says it); empty for a proposal, and in
    /// edits kept before it was recorded.
    #[serde(default)]
    pub why: Vec<Hold>,
}

impl Held {
    /// Held operations written against revision `base` of `document_id`, whose resume is `document`
    /// (their descriptions name places in it, in words).
    pub fn new(document_id: i64, base: u64, ops: Vec<Operation>, document: &Value) -> Held {
        let descriptions = redline_patch::describe_all(&ops, document);
        Held {
            document_id,
            base,
            ops,
            descriptions,
            proposal: false,
            why: Vec::new(),
        }
    }

    /// The same, with why each operation waits (`why[i]` for `ops[i]`).
    pub fn because(self, why: Vec<Hold>) -> Held {
        Held { why, ..self }
    }

    /// A whole bundle proposed for the user's review, nothing of it applied.
    pub fn proposed(document_id: i64, base: u64, ops: Vec<Operation>, document: &Value) -> Held {
        Held {
            proposal: true,
            ..Held::new(document_id, base, ops, document)
        }
    }
}

/// Why held operations cannot be applied.
#[derive(Debug, thiserror::Error)]
pub enum ConfirmError {
    /// The resume changed since, so that an edit no longer points at what it was written for.
    #[error("the resume changed since this edit was proposed: {0}")]
    Conflict(#[from] RebaseError),
    /// The edit breaks a rule (a protected part, a limit, the JSON Resume schema).
    #[error("{0}")]
    Refused(#[from] PolicyError),
    /// The edit changes nothing any more.
    #[error("this edit would change nothing: the resume already reads that way")]
    NoChange,
    /// The store failed.
    #[error("{0}")]
    Store(StoreError),
}

impl ConfirmError {
    /// What kind of failure it is, for the window's action and the CLI's exit status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ConfirmError::Conflict(_) => ErrorKind::Conflict,
            ConfirmError::Refused(_) => ErrorKind::Refused,
            ConfirmError::NoChange => ErrorKind::Invalid,
            ConfirmError::Store(e) => e.kind(),
        }
    }
}

impl From<StoreError> for ConfirmError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NoChange(_) => ConfirmError::NoChange,
            other => ConfirmError::Store(other),
        }
    }
}

/// Applies `held` to the document's head as one revision, once the user confirmed it: the operations are
/// carried over from the revision they were proposed against, checked by the policy as the user's own,
/// and committed. Returns the revision and the operations as applied (for the view).
pub fn confirm(
    store: &mut Store,
    held: &Held,
    policy: &Policy,
) -> Result<(Committed, Vec<Operation>), ConfirmError> {
    let summary = match held.descriptions.as_slice() {
        [one] => format!("Confirmed: {one}"),
        many => format!("Confirmed {} held edits", many.len()),
    };
    commit_ops(
        store,
        held.document_id,
        held.base,
        &held.ops,
        policy,
        Source::Ai,
        summary,
    )
}

/// Commits `ops`, made against revision `base` of a document, as one revision from `source`: carried over
/// to the head (an edit made while another landed still lands where it was meant), checked by `policy` as
/// the user's own edit (nothing held: the user made or confirmed it), applied all or nothing. Held edits
/// the user confirmed and edits made by hand in the view both come through here.
pub fn commit_ops(
    store: &mut Store,
    document_id: i64,
    base: u64,
    ops: &[Operation],
    policy: &Policy,
    source: Source,
    summary: String,
) -> Result<(Committed, Vec<Operation>), ConfirmError> {
    let base = store.checkout(document_id, base)?.document;
    let head = store.head(document_id)?;
    let ops = redline_patch::rebase(&base, &head.document, ops)?;
    for op in &ops {
        policy.check_operation(op, &Scope::User)?;
    }
    let result = redline_patch::applied(&head.document, &ops).map_err(RebaseError::from)?;
    policy.check_bundle(&result, &ops)?;
    let patch = redline_patch::to_patch(&ops).map_err(RebaseError::from)?;
    let committed = store.commit(
        document_id,
        Change::new(head.number, source, patch).summary(summary),
    )?;
    Ok((committed, ops))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store_with_sample() -> (tempfile::TempDir, Store, i64) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let doc = store.import("Sample", &redline_resume::sample()).unwrap();
        (dir, store, doc)
    }

    /// The one operation `op` (in its wire form), held against revision `base` of the sample.
    fn held_one(doc: i64, base: u64, op: serde_json::Value) -> Held {
        let op = serde_json::from_value(op).unwrap();
        Held::new(doc, base, vec![op], &redline_resume::sample())
    }

    #[test]
    fn a_confirmed_edit_is_carried_over_to_the_head_and_saved() {
        let (_dir, mut store, doc) = store_with_sample();
        let sample = redline_resume::sample();
        // Held against revision 1: change the second profile's username.
        let held = held_one(
            doc,
            1,
            json!({"op": "replace", "path": "/basics/profiles/1/username", "value": "rh"}),
        );
        assert_eq!(
            held.descriptions,
            ["Change the username of your SoundCloud profile to “rh”"]
        );
        // Meanwhile the first profile was removed: the second now sits at index 0.
        let remove: json_patch::Patch =
            serde_json::from_value(json!([{"op": "remove", "path": "/basics/profiles/0"}]))
                .unwrap();
        store
            .commit(doc, Change::new(1, Source::User, remove))
            .unwrap();
        let (committed, ops) = confirm(&mut store, &held, &Policy::default()).unwrap();
        assert_eq!(committed.info.number, 3);
        assert_eq!(
            committed.info.summary,
            format!("Confirmed: {}", held.descriptions[0])
        );
        assert_eq!(ops[0].path(), "/basics/profiles/0/username");
        let head = store.head(doc).unwrap().document;
        assert_eq!(head["basics"]["profiles"][0]["username"], "rh");
        assert_eq!(
            head["basics"]["profiles"][0]["network"],
            sample["basics"]["profiles"][1]["network"]
        );
    }

    #[test]
    fn a_conflict_or_a_broken_rule_changes_nothing() {
        let (_dir, mut store, doc) = store_with_sample();
        let remove: json_patch::Patch =
            serde_json::from_value(json!([{"op": "remove", "path": "/work/0"}])).unwrap();
        store
            .commit(doc, Change::new(1, Source::User, remove))
            .unwrap();
        let label = store.head(doc).unwrap().document["basics"]["label"].clone();
        // Why confirming `op`, held against revision `base`, fails.
        let mut refusal = |base, op| {
            confirm(&mut store, &held_one(doc, base, op), &Policy::default()).unwrap_err()
        };
        // The item it was written for is gone.
        let err = refusal(
            1,
            json!({"op": "replace", "path": "/work/0/name", "value": "Hooli"}),
        );
        assert!(matches!(err, ConfirmError::Conflict(_)), "{err}");
        // A protected path stays protected, confirmed or not.
        let err = refusal(
            2,
            json!({"op": "add", "path": "/meta/version", "value": "v9"}),
        );
        assert!(err.to_string().contains("/meta"), "{err}");
        // So does the schema.
        let err = refusal(
            2,
            json!({"op": "replace", "path": "/basics/email", "value": 42}),
        );
        assert!(matches!(err, ConfirmError::Refused(_)), "{err}");
        // An edit already made changes nothing.
        let err = refusal(
            2,
            json!({"op": "replace", "path": "/basics/label", "value": label}),
        );
        assert!(matches!(err, ConfirmError::NoChange), "{err}");
        assert_eq!(store.head(doc).unwrap().number, 2, "nothing was committed");
    }
}
