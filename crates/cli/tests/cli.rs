//! The `redline` binary, run as a user runs it, against a throwaway data folder.

use std::path::Path;
use std::process::{Command, Output};

fn redline(data_dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .env_remove("REDLINE_DATA_DIR")
        .output()
        .expect("the redline binary runs")
}

#[test]
fn show_prints_the_sample_resume_on_a_fresh_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = redline(dir.path(), &["show"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown, redline_resume::sample());
    assert!(dir.path().join("redline.db").exists());
}

#[test]
fn the_data_folder_can_come_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("show")
        .env("REDLINE_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("redline.db").exists());
}

#[test]
fn a_missing_revision_is_a_plain_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = redline(dir.path(), &["show", "--revision", "9"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("redline: document 1 has no revision 9"),
        "{err}"
    );
}

#[test]
fn a_damaged_database_is_reported_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("redline.db"), b"not a database".repeat(200)).unwrap();
    let out = redline(dir.path(), &["show"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is damaged"), "{err}");
    assert_eq!(
        std::fs::read(dir.path().join("redline.db")).unwrap(),
        b"not a database".repeat(200)
    );
}

#[test]
fn help_lists_the_commands() {
    let out = Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        help.contains("show") && help.contains("--data-dir"),
        "{help}"
    );
}
