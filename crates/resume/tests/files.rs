//! What `read_file` opens: a regular file only. A FIFO passed as the file to open (`redline-app PATH`,
//! `redline import PATH`) once held the caller until something wrote to it; a device or a folder is no
//! resume either.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use redline_resume::{ReadError, read_file};

/// `read_file(path)` on another thread, with a minute to answer: a read that blocks fails the test.
fn read_in_time(path: &Path) -> Result<serde_json::Value, ReadError> {
    let (tx, rx) = mpsc::channel();
    let path = path.to_owned();
    std::thread::spawn(move || {
        let _ = tx.send(read_file(&path));
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("read_file blocked on a file that is not a regular one")
}

#[cfg(unix)]
#[test]
fn a_fifo_a_device_or_a_folder_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("resume.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for path in [fifo.as_path(), Path::new("/dev/zero"), dir.path()] {
        let err = read_in_time(path).expect_err("not a file");
        assert!(
            matches!(err, ReadError::NotAFile(_)),
            "{}: {err}",
            path.display()
        );
        assert!(err.to_string().contains("is not a file"), "{err}");
    }
    // A regular file is read as before.
    let file = dir.path().join("ok.json");
    std::fs::write(&file, r#"{"basics": {"name": "Ada"}}"#).unwrap();
    assert_eq!(read_in_time(&file).unwrap()["basics"]["name"], "Ada");
}
