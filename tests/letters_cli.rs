//! Cover letters on the command line: `redline letter new` against the replay server (a letter written, an
//! invented fact held, review mode, a rollback mid-stream), then `show`, `export`, `undo` and `list` on it.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn redline(data_dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .env_remove("REDLINE_DATA_DIR")
        .env_remove("REDLINE_BASE_URL")
        .env_remove("REDLINE_MODEL")
        .env_remove("REDLINE_PATCH_MODEL")
        .output()
        .expect("the redline binary runs")
}

fn ok(out: Output) -> String {
    String::from_utf8(common::succeeded(out).stdout).unwrap()
}

fn json(out: Output) -> Value {
    serde_json::from_str(&ok(out)).unwrap()
}

fn letters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/agent/fixtures/letters")
}

/// `redline letter new` for the posting beside the fixtures, against a replay server playing `fixture`.
fn letter_new(dir: &Path, fixture: &str) -> Output {
    let f = redline_agent::fixtures::load(&letters().join(fixture)).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime
        .block_on(redline_agent::ReplayServer::start(
            f.replies,
            redline_agent::Pace::default(),
        ))
        .unwrap();
    let url = server.base_url();
    let posting = letters().join("posting.txt");
    let args = [
        "letter",
        "new",
        "--posting",
        posting.to_str().unwrap(),
        "--base-url",
        &url,
        "--model",
        "m",
        "--json",
    ];
    let out = redline(dir, &args);
    drop(server);
    out
}

#[test]
fn a_letter_is_written_for_a_posting_and_shown_exported_and_undone_like_a_resume() {
    let dir = tempfile::tempdir().unwrap();
    let made = json(letter_new(dir.path(), "01-letter-written.json"));
    let id = made["id"].as_i64().unwrap();
    assert_eq!(made["revision"], 2, "{made}");
    assert_eq!(made["held"], 0, "{made}");

    let list = json(redline(dir.path(), &["list", "--json"]));
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == id)
        .unwrap();
    let resume = list
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] != id)
        .unwrap();
    assert_eq!(row["kind"], "letter");
    assert_eq!(row["resumeId"], resume["id"]);
    assert_eq!(resume["kind"], "resume");

    let doc = id.to_string();
    let letter = json(redline(dir.path(), &["show", "--doc", &doc]));
    assert_eq!(letter["recipient"]["company"], "Hooli");
    assert_eq!(letter["role"], "Senior Compression Engineer");
    assert_eq!(letter["paragraphs"].as_array().unwrap().len(), 4);
    assert!(
        letter.get("basics").is_none(),
        "the sender is not copied: {letter}"
    );

    let export = |format: &str| {
        ok(redline(
            dir.path(),
            &["export", "--doc", &doc, "--format", format, "-o", "-"],
        ))
    };
    let text = export("text");
    assert!(
        text.starts_with("Richard Hendriks\n"),
        "the sender comes from the resume: {text}"
    );
    assert!(
        text.contains("at Hooli.") && text.contains("Kind regards,\nRichard Hendriks"),
        "{text}"
    );
    assert!(export("markdown").contains("# Richard Hendriks"));
    assert!(export("html").contains("<p class=\"body\">I am writing to apply"));
    let round: Value = serde_json::from_str(&export("json")).unwrap();
    assert_eq!(round, letter);
    let file = dir.path().join("letter.txt");
    ok(redline(
        dir.path(),
        &[
            "export",
            "--doc",
            &doc,
            "--format",
            "text",
            "-o",
            file.to_str().unwrap(),
        ],
    ));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    ok(redline(dir.path(), &["undo", "--doc", &doc]));
    let undone = json(redline(dir.path(), &["show", "--doc", &doc]));
    assert_eq!(undone["paragraphs"], serde_json::json!([]));
    let history = ok(redline(dir.path(), &["history", "--doc", &doc]));
    assert!(history.contains("undo"), "{history}");
}

/// The PDF and the Word file are drawn in the resume's design; the same letter makes the same bytes.
#[test]
fn a_letter_exports_as_pdf_and_word_in_its_resume_s_design() {
    let dir = tempfile::tempdir().unwrap();
    let made = json(letter_new(dir.path(), "01-letter-written.json"));
    let doc = made["id"].to_string();
    let bytes = |format: &str, template: &str| {
        let out = redline(
            dir.path(),
            &[
                "export",
                "--doc",
                &doc,
                "--format",
                format,
                "--template",
                template,
                "-o",
                "-",
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let pdf = bytes("pdf", "modern");
    assert!(pdf.starts_with(b"%PDF"), "a PDF");
    assert_eq!(pdf, bytes("pdf", "modern"), "made again byte for byte");
    assert_ne!(pdf, bytes("pdf", "classic"), "in the design asked for");
    assert!(bytes("docx", "classic").starts_with(b"PK"), "a Word file");
    // An applicant tracking system reads every part back, in order, under the sender's header.
    let read = json(redline(dir.path(), &["ats", "--doc", &doc, "--json"]));
    assert_eq!(read["missing"], serde_json::json!([]), "{read}");
    assert_eq!(read["out_of_order"], serde_json::json!([]), "{read}");
    assert_eq!(read["pages"], 1, "{read}");
    assert!(
        read["sections"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Hooli"),
        "{read}"
    );
}

#[test]
fn a_fact_in_neither_the_resume_nor_the_posting_is_held() {
    let dir = tempfile::tempdir().unwrap();
    let made = json(letter_new(dir.path(), "02-invented-fact-held.json"));
    assert_eq!(made["revision"], 1, "nothing is saved: {made}");
    assert!(made["held"].as_u64().unwrap() >= 1, "{made}");
    let warnings = made["warnings"].to_string();
    assert!(
        warnings.contains("not in your resume")
            && warnings.contains("“57”")
            && warnings.contains("“40%”"),
        "{warnings}"
    );
    let doc = made["id"].to_string();
    let held = json(redline(dir.path(), &["held", "--doc", &doc, "--json"]));
    // The whole bundle waits, its invented sentence with it.
    let ops = held["held"].as_array().unwrap();
    assert_eq!(ops.len(), 4, "{held}");
    assert!(
        ops[3]["op"]["value"]
            .as_str()
            .unwrap()
            .contains("team of 57")
    );
    let letter = json(redline(dir.path(), &["show", "--doc", &doc]));
    assert_eq!(letter["paragraphs"], serde_json::json!([]));
}

#[test]
fn review_mode_holds_the_whole_draft() {
    let dir = tempfile::tempdir().unwrap();
    ok(redline(dir.path(), &["review", "on"]));
    let made = json(letter_new(dir.path(), "03-review-mode.json"));
    assert_eq!(made["revision"], 1, "{made}");
    assert_eq!(made["held"], 7, "every operation waits: {made}");
    let doc = made["id"].to_string();
    ok(redline(
        dir.path(),
        &["held", "--doc", &doc, "accept", "--all"],
    ));
    let letter = json(redline(dir.path(), &["show", "--doc", &doc]));
    assert_eq!(
        letter["paragraphs"].as_array().unwrap().len(),
        4,
        "{letter}"
    );
}

#[test]
fn a_rollback_mid_stream_keeps_no_letter() {
    let dir = tempfile::tempdir().unwrap();
    let out = letter_new(dir.path(), "04-rollback-mid-stream.json");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("connection to the model was lost") && err.contains("not kept"),
        "{err}"
    );
    let list = json(redline(dir.path(), &["list", "--json"]));
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .all(|d| d["kind"] == "resume"),
        "{list}"
    );
    let deleted = json(redline(dir.path(), &["list", "--deleted", "--json"]));
    assert_eq!(deleted[0]["kind"], "letter", "{deleted}");
}
