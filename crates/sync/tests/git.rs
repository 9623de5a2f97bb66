//! The git remote: a local bare repository, and the same through `git daemon` when `git` is installed
//! (the test runs it; the product never does).

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{replace, resume, temp_folder};
use redline_sync::{Body, FolderState, GitRemote, Replica, new_id};
use serde_json::json;

struct GitDevice {
    replica: Replica,
    state: FolderState,
    remote: GitRemote,
}

impl GitDevice {
    fn new(dir: &Path, url: &str) -> GitDevice {
        GitDevice {
            replica: Replica::new(&new_id()).unwrap(),
            state: FolderState::default(),
            remote: GitRemote::open(dir, url).unwrap(),
        }
    }

    fn sync(&mut self, library: &str) {
        self.remote
            .sync(&mut self.replica, library, &mut self.state)
            .unwrap();
    }

    fn edit(&mut self, doc: &str, path: &str, value: &str) {
        let body = Body::Edit {
            source: "user".into(),
            summary: "edit".into(),
            forward: vec![replace(path, json!(value))],
        };
        self.replica.record(doc, body, 0).unwrap();
    }
}

/// Two devices, offline edits on both, pushed and pulled in turn: both end with the same resume, each
/// edit in it.
fn two_devices_through(url: &str, root: &Path) {
    let library = new_id();
    let mut a = GitDevice::new(&root.join("a"), url);
    let mut b = GitDevice::new(&root.join("b"), url);
    let (doc, _) = a.replica.create("Ada", resume(), 0).unwrap();
    a.sync(&library);
    b.sync(&library);
    assert!(b.replica.merged(&doc).is_some(), "b pulled a's resume");
    a.edit(&doc, "/basics/label", "Founder");
    b.edit(&doc, "/basics/summary", "Writes notes.");
    // b pushes after a did: its push is refused until it pulled, then the union is pushed.
    a.sync(&library);
    b.sync(&library);
    a.sync(&library);
    let (ha, hb) = (
        a.replica.merged(&doc).unwrap().document.clone(),
        b.replica.merged(&doc).unwrap().document.clone(),
    );
    assert_eq!(ha, hb);
    assert_eq!(ha["basics"]["label"], "Founder");
    assert_eq!(ha["basics"]["summary"], "Writes notes.");
    // A third device cloning later gets it all.
    let mut c = GitDevice::new(&root.join("c"), url);
    c.sync(&library);
    assert_eq!(c.replica.merged(&doc).unwrap().document, ha);
}

#[test]
fn a_local_bare_repository_carries_the_files_both_ways() {
    let root = temp_folder();
    let bare = root.path().join("remote.git");
    git2::Repository::init_bare(&bare).unwrap();
    two_devices_through(bare.to_str().unwrap(), root.path());
}

struct Daemon(Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn git_daemon_carries_the_files_both_ways() {
    let root = temp_folder();
    let bare = root.path().join("remote.git");
    git2::Repository::init_bare(&bare).unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // `git daemon` forks `git-daemon` and leaves it behind when killed: run `git-daemon` itself.
    let Some(exec_path) = Command::new("git")
        .arg("--exec-path")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    else {
        eprintln!("git is not installed: the git daemon case is not run");
        return;
    };
    let child = Command::new(Path::new(&exec_path).join("git-daemon"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .args([
            "--export-all",
            "--enable=receive-pack",
            "--listen=127.0.0.1",
            &format!("--port={port}"),
            &format!("--base-path={}", root.path().display()),
            &root.path().display().to_string(),
        ])
        .spawn();
    let Ok(child) = child else {
        eprintln!("git-daemon is not installed: the git daemon case is not run");
        return;
    };
    let _daemon = Daemon(child);
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("git://127.0.0.1:{port}/remote.git");
    two_devices_through(&url, root.path());
}
