//! Job applications on the command line: add (pinning revisions), move with a dated timeline, show, list,
//! and a CSV round trip that a spreadsheet cannot turn into formulas.

mod common;

use std::path::Path;
use std::process::Output;

use common::redline;
use serde_json::Value;

fn ok(out: Output) -> String {
    String::from_utf8(common::succeeded(out).stdout).unwrap()
}

fn json(out: Output) -> Value {
    serde_json::from_str(&ok(out)).unwrap()
}

#[test]
fn an_application_pins_the_revisions_sent_and_keeps_a_dated_timeline() {
    let dir = tempfile::tempdir().unwrap();
    let list = json(redline(dir.path(), &["list", "--json"]));
    let resume = list[0]["id"].to_string();
    let posting = dir.path().join("posting.txt");
    std::fs::write(&posting, "Hooli seeks a Senior Engineer.").unwrap();
    let added = json(redline(
        dir.path(),
        &[
            "apply",
            "add",
            "--company",
            "Hooli",
            "--role",
            "Senior Engineer",
            "--posting",
            posting.to_str().unwrap(),
            "--source",
            "LinkedIn",
            "--resume",
            &resume,
            "--stage",
            "applied",
            "--date",
            "2025-01-02",
            "--follow-up",
            "2025-01-16",
            "--tag",
            "remote",
            "--json",
        ],
    ));
    let id = added["id"].to_string();
    assert_eq!(added["resume"]["revision"], 1, "{added}");
    assert_eq!(added["posting"], "Hooli seeks a Senior Engineer.");

    // The resume changes after it was sent: the application keeps the revision that went.
    ok(redline(dir.path(), &["language", "de", "--doc", &resume]));
    let moved = json(redline(
        dir.path(),
        &[
            "apply",
            "move",
            &id,
            "interviewing",
            "--date",
            "2025-01-20",
            "--json",
        ],
    ));
    assert_eq!(moved["stage"], "interviewing");
    assert_eq!(
        moved["timeline"],
        serde_json::json!([
            {"stage": "applied", "date": "2025-01-02"},
            {"stage": "interviewing", "date": "2025-01-20"}
        ])
    );
    let shown = json(redline(dir.path(), &["apply", "show", &id, "--json"]));
    assert_eq!(shown["resume"]["revision"], 1, "{shown}");
    let words = ok(redline(dir.path(), &["apply", "show", &id]));
    assert!(
        words.contains("2025-01-20  interviewing") && words.contains("at revision 1 was sent"),
        "{words}"
    );

    let bad = redline(
        dir.path(),
        &["apply", "move", &id, "offer", "--date", "2025-02-30"],
    );
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("“2025-02-30” is not a date"));
    let ghost = redline(dir.path(), &["apply", "show", "99"]);
    assert_eq!(ghost.status.code(), Some(3));
}

/// `redline apply sent`: the resume an application sent, made again as it was sent after it changed;
/// a letter it did not pin is said; a file there is left alone.
#[test]
fn what_an_application_sent_is_made_again_as_it_was_sent() {
    let dir = tempfile::tempdir().unwrap();
    let list = json(redline(dir.path(), &["list", "--json"]));
    let resume = list[0]["id"].to_string();
    let added = json(redline(
        dir.path(),
        &[
            "apply",
            "add",
            "--company",
            "Hooli",
            "--role",
            "Engineer",
            "--resume",
            &resume,
            "--json",
        ],
    ));
    let id = added["id"].to_string();
    let sent = |what: &str| {
        redline(
            dir.path(),
            &[
                "apply",
                "sent",
                &id,
                what,
                "--format",
                "pdf",
                "--template",
                "banner",
                "-o",
                "-",
            ],
        )
    };
    let then = common::succeeded(sent("resume")).stdout;
    assert!(then.starts_with(b"%PDF"));
    ok(redline(dir.path(), &["language", "de", "--doc", &resume]));
    assert_eq!(
        common::succeeded(sent("resume")).stdout,
        then,
        "as it was sent"
    );
    let now = common::succeeded(redline(
        dir.path(),
        &[
            "export",
            "--doc",
            &resume,
            "--format",
            "pdf",
            "--template",
            "banner",
            "-o",
            "-",
        ],
    ))
    .stdout;
    assert_ne!(now, then, "the resume today is in German");

    let no_letter = sent("letter");
    assert_eq!(no_letter.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&no_letter.stderr).contains("pinned no letter"));

    let file = dir.path().join("sent.docx");
    let path = file.to_str().unwrap();
    let args = [
        "apply", "sent", &id, "resume", "--format", "docx", "-o", path, "--json",
    ];
    let written = json(redline(dir.path(), &args));
    assert_eq!(written["bytes"], std::fs::metadata(&file).unwrap().len());
    let again = redline(dir.path(), &args);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
}

#[test]
fn csv_goes_out_without_formulas_and_comes_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    for (company, stage, notes) in [
        ("Initech", "applied", "=HYPERLINK(\"https://evil.example\")"),
        ("Globex, Inc.", "offer", "line one\nline two, \"quoted\""),
    ] {
        ok(redline(
            dir.path(),
            &[
                "apply",
                "add",
                "--company",
                company,
                "--role",
                "Engineer",
                "--stage",
                stage,
                "--date",
                "2025-03-04",
                "--notes",
                notes,
                // A value that starts with a dash is given with `=`, as to any command line.
                "--salary=-10% of asked",
                "--tag",
                "a",
                "--tag",
                "b",
            ],
        ));
    }
    let csv = ok(redline(dir.path(), &["apply", "export-csv"]));
    assert!(
        csv.starts_with("Company,Role,Stage,Applied,Follow-up,Salary,Source,Contacts,Notes,Tags\n"),
        "{csv}"
    );
    assert!(
        csv.contains("'=HYPERLINK") && csv.contains("'-10% of asked"),
        "{csv}"
    );
    assert!(
        !csv.contains(",=") && !csv.contains(",-"),
        "no cell starts a formula: {csv}"
    );

    let file = dir.path().join("out.csv");
    let written = json(redline(
        dir.path(),
        &["apply", "export-csv", file.to_str().unwrap(), "--json"],
    ));
    assert_eq!(written["rows"], 2);
    let again = redline(dir.path(), &["apply", "export-csv", file.to_str().unwrap()]);
    assert!(
        !again.status.success(),
        "a file is never replaced without --force"
    );

    let other = tempfile::tempdir().unwrap();
    let imported = json(redline(
        other.path(),
        &["apply", "import-csv", file.to_str().unwrap(), "--json"],
    ));
    assert_eq!(imported["imported"], 2);
    // What the columns hold comes back (the dates of stages after "applied" are not among them).
    let fields = |dir: &Path| -> Vec<Value> {
        let list = json(redline(dir, &["apply", "list", "--json"]));
        let mut rows: Vec<Value> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                serde_json::json!([
                    a["company"],
                    a["role"],
                    a["stage"],
                    a["salary"],
                    a["notes"],
                    a["tags"]
                ])
            })
            .collect();
        rows.sort_by_key(|r| r[0].to_string());
        rows
    };
    assert_eq!(fields(other.path()), fields(dir.path()));
    assert_eq!(ok(redline(other.path(), &["apply", "export-csv"])), csv);
}

#[test]
fn a_bad_csv_row_is_named_and_nothing_is_imported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.csv");
    std::fs::write(
        &file,
        "Company,Role,Stage,Applied\nInitech,Engineer,applied,2025-01-02\nGlobex,Analyst,applied,next week\n",
    )
    .unwrap();
    let out = redline(dir.path(), &["apply", "import-csv", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("row 3:") && err.contains("“next week” is not a date"),
        "{err}"
    );
    assert_eq!(
        json(redline(dir.path(), &["apply", "list", "--json"])),
        serde_json::json!([])
    );
}
