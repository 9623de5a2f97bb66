//! `redline lint`: a resume's writing checked — spelling in its language, grammar in English, a
//! recruiter's rules — one finding a line (or JSON), exiting 1 when there is anything to fix.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::ErrorKind;
use redline_engine::lint::Finding;
use serde_json::json;

use super::{on_document, plain, print_json};
use crate::fail;

/// `redline lint [--doc ID] [--json] [--add-word WORD]`.
pub fn run(
    data_dir: &Path,
    doc: Option<i64>,
    add_word: Option<String>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let findings = on_document(data_dir, doc, async |engine, id| {
        if let Some(word) = &add_word {
            engine.add_word(word)?;
        }
        engine.lint(id).await
    })?;
    if json {
        print_json(&mut *out, &json!({ "findings": findings }))?;
    } else {
        for finding in &findings {
            writeln!(out, "{}", line(finding))?;
        }
    }
    if findings.is_empty() {
        if !json {
            writeln!(out, "Nothing to fix.")?;
        }
        return Ok(());
    }
    let things = if findings.len() == 1 {
        "thing"
    } else {
        "things"
    };
    Err(fail(
        ErrorKind::Internal,
        format!(
            "the check found {} {things} to look at in this resume",
            findings.len()
        ),
    ))
}

/// One finding on one line: rule, field, the words, and the fix where there is one.
pub(super) fn line(finding: &Finding) -> String {
    let fix = match &finding.fix {
        Some(fix) => format!(" → “{}”", plain(fix)),
        None => String::new(),
    };
    format!(
        "{}\t{} [{}..{}]\t“{}”{fix}\t{}",
        finding.rule,
        finding.path,
        finding.start,
        finding.end,
        plain(&finding.text),
        plain(&finding.message)
    )
}
