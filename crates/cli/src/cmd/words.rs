//! `redline language TAG` and `redline heading SECTION [NAME]`: the words a resume is shown in — its
//! language (headings and dates in it, in the view and every export) and a section's heading — each a
//! revision of your own, as in the window.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::ipc::WordsChange;
use serde_json::json;

use super::{at_head, plain, print};

/// Sets `change` on resume `doc` (default: the current one) at its head.
pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    change: WordsChange,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let (head, after) = at_head(data_dir, doc, async |engine, head| {
        engine.set_words(head, change, &mut |_| {}).await
    })?;
    let changed = after.revision != head;
    let value = json!({
        "id": after.document_id,
        "revision": after.revision,
        "changed": changed,
        "summary": if changed { after.undo.clone() } else { None },
    });
    print(out, json, &value, |out| match (&after.undo, changed) {
        (Some(summary), true) => writeln!(
            out,
            "{} — now at revision {}.",
            plain(summary),
            after.revision
        ),
        _ => writeln!(
            out,
            "Nothing to change: resume {} already reads so (revision {}).",
            after.document_id, after.revision
        ),
    })
}

/// The language change for `tag` (`en`, `default` or empty for English).
pub fn language(tag: &str) -> WordsChange {
    let tag = tag.trim();
    WordsChange::Language {
        tag: match tag.eq_ignore_ascii_case("default") || tag.is_empty() {
            true => None,
            false => Some(tag.to_owned()),
        },
    }
}
