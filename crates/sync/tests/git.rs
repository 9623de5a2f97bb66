//! The git remote: a local bare repository, and the same through `git daemon` and through HTTPS (`git
//! http-backend` behind TLS and a token, as a forge serves it) when `git`, `python3` and `openssl` are
//! installed (the test runs them; the product never does).

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{replace, resume, temp_folder};
use redline_sync::{Body, Credentials, FolderState, GitRemote, Replica, SyncError, new_id};
use serde_json::json;

struct GitDevice {
    replica: Replica,
    state: FolderState,
    remote: GitRemote,
}

impl GitDevice {
    fn new(dir: &Path, url: &str) -> GitDevice {
        GitDevice::with_credentials(dir, url, None)
    }

    fn with_credentials(dir: &Path, url: &str, credentials: Option<Credentials>) -> GitDevice {
        GitDevice {
            replica: Replica::new(&new_id()).unwrap(),
            state: FolderState::default(),
            remote: GitRemote::open(dir, url)
                .unwrap()
                .with_credentials(credentials),
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
    two_devices_with(url, root, None);
}

fn two_devices_with(url: &str, root: &Path, credentials: Option<Credentials>) {
    let library = new_id();
    let device =
        |name: &str| GitDevice::with_credentials(&root.join(name), url, credentials.clone());
    let (mut a, mut b) = (device("a"), device("b"));
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
    let mut c = device("c");
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

/// A commit on the sync branch of the bare repository at `bare`, whose tree is `files`: each a path, a
/// file mode and the blob's bytes.
fn forge_branch(bare: &Path, files: &[(&str, i32, Vec<u8>)]) {
    let repo = git2::Repository::open_bare(bare).unwrap();
    let mut index = git2::Index::new().unwrap();
    for (path, mode, bytes) in files {
        let id = repo.blob(bytes).unwrap();
        let entry = git2::IndexEntry {
            ctime: git2::IndexTime::new(0, 0),
            mtime: git2::IndexTime::new(0, 0),
            dev: 0,
            ino: 0,
            mode: *mode as u32,
            uid: 0,
            gid: 0,
            file_size: 0,
            id,
            flags: 0,
            flags_extended: 0,
            path: path.as_bytes().to_vec(),
        };
        index.add(&entry).unwrap();
    }
    let tree = repo.find_tree(index.write_tree_to(&repo).unwrap()).unwrap();
    let who = git2::Signature::now("Someone", "someone@example.com").unwrap();
    repo.commit(
        Some("refs/heads/redline-sync"),
        &who,
        &who,
        "files",
        &tree,
        &[],
    )
    .unwrap();
}

/// Bytes that do not compress (a xorshift's output), so that a pack carries them whole.
fn noise(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn a_hostile_remote_brings_only_plain_files_into_the_sync_folder() {
    let root = temp_folder();
    let bare = root.path().join("remote.git");
    git2::Repository::init_bare(&bare).unwrap();
    // A real device's first event, pushed beside what a hostile remote could add.
    let mut maker = Replica::new(&new_id()).unwrap();
    let (doc, known) = maker.create("Ada", resume(), 0).unwrap();
    let device = maker.device().to_owned();
    let real = format!("redline-sync/{device}/{}.json", known.hash);
    let link = format!("redline-sync/{device}/{}.json", "a".repeat(64));
    let (blob, exec) = (0o100_644, 0o100_755);
    forge_branch(
        &bare,
        &[
            (real.as_str(), blob, known.event.encode().1),
            // A link (checked out, it would lead out of the folder), a hidden folder, a file too large
            // to be Redline's, and a file outside the sync folder.
            (link.as_str(), 0o120_000, b"/etc/passwd".to_vec()),
            (
                "redline-sync/.hooks/post-checkout.json",
                exec,
                b"#!/bin/sh\n".to_vec(),
            ),
            (
                &format!("redline-sync/{device}/huge.json"),
                blob,
                vec![b' '; 2 << 20],
            ),
            ("run-me.sh", exec, b"#!/bin/sh\n".to_vec()),
        ],
    );
    let mut b = GitDevice::new(&root.path().join("b"), bare.to_str().unwrap());
    b.sync(&new_id());
    assert_eq!(
        b.replica.merged(&doc).unwrap().document,
        resume(),
        "the real file is read"
    );
    let work = b.remote.folder();
    assert!(work.join(&real).is_file());
    for absent in [link.as_str(), "redline-sync/.hooks", "run-me.sh"] {
        assert!(
            work.join(absent).symlink_metadata().is_err(),
            "{absent} was brought"
        );
    }
    assert!(
        !work
            .join(format!("redline-sync/{device}/huge.json"))
            .exists()
    );
}

#[test]
fn a_remote_that_sends_more_than_a_library_holds_is_stopped_in_words() {
    let root = temp_folder();
    let bare = root.path().join("remote.git");
    git2::Repository::init_bare(&bare).unwrap();
    let device = new_id();
    forge_branch(
        &bare,
        &[(
            &format!("redline-sync/{device}/x.json"),
            0o100_644,
            noise(512 << 10),
        )],
    );
    let remote = GitRemote::open(&root.path().join("b"), bare.to_str().unwrap())
        .unwrap()
        .with_max_fetch_bytes(64 << 10);
    let err = remote.pull().unwrap_err();
    assert!(
        matches!(err, redline_sync::SyncError::TooLarge { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("more than 1 MiB of data"), "{err}");
}

/// A git server over HTTPS on 127.0.0.1 (`support/git_https_server.py`), asking for `alice` and `TOKEN`.
struct HttpsServer {
    child: Child,
    url: String,
}

impl Drop for HttpsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const TOKEN: &str = "ghp_test_token_7f3a";

/// Serves the bare repositories under `root` over HTTPS with a certificate `name` made for it (there);
/// `None` (said) when `python3`, `git` or `openssl` is missing.
fn https_server(root: &Path, name: &str) -> Option<(HttpsServer, std::path::PathBuf)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/git_https_server.py");
    let child = Command::new("python3")
        .arg(script)
        .arg(root)
        .args([name, "alice", TOKEN])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("python3 is not installed: the HTTPS case is not run");
        return None;
    };
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    let Some((port, cert)) = first.trim().split_once(' ') else {
        eprintln!("openssl or git is not installed: the HTTPS case is not run");
        let _ = child.wait();
        return None;
    };
    let url = format!("https://127.0.0.1:{port}/remote.git");
    Some((HttpsServer { child, url }, cert.into()))
}

fn alice(token: &str) -> Option<Credentials> {
    Some(Credentials {
        user: "alice".into(),
        token: token.into(),
    })
}

#[test]
fn https_with_a_token_carries_the_files_both_ways_and_without_one_says_what_to_give() {
    let root = temp_folder();
    git2::Repository::init_bare(root.path().join("remote.git")).unwrap();
    let Some((server, cert)) = https_server(root.path(), "trusted") else {
        return;
    };
    // The server's certificate is a system authority's here, as a forge's is on a user's computer.
    // SAFETY: libgit2's certificate locations are set before any of this test's fetches; the other
    // tests in this binary reach no HTTPS server.
    unsafe { git2::opts::set_ssl_cert_file(&cert).unwrap() };
    two_devices_with(&server.url, root.path(), alice(TOKEN));

    for (name, given, refused) in [("none", None, false), ("wrong", alice("ghp_wrong"), true)] {
        let remote = GitRemote::open(&root.path().join(name), &server.url)
            .unwrap()
            .with_credentials(given);
        let err = remote.pull().unwrap_err();
        assert!(
            matches!(err, SyncError::GitCredentials { refused: r, .. } if r == refused),
            "{name}: {err:?}"
        );
        let words = err.to_string();
        assert!(words.contains("https://USER:TOKEN@"), "{words}");
        assert!(
            !words.contains("ghp_"),
            "a token is never in the words: {words}"
        );
    }
}

#[test]
fn https_to_a_server_no_authority_vouches_for_is_refused() {
    let root = temp_folder();
    git2::Repository::init_bare(root.path().join("remote.git")).unwrap();
    let Some((server, _)) = https_server(root.path(), "self-signed") else {
        return;
    };
    let remote = GitRemote::open(&root.path().join("a"), &server.url)
        .unwrap()
        .with_credentials(alice(TOKEN));
    let err = remote.pull().unwrap_err();
    assert!(matches!(err, SyncError::Git { .. }), "{err:?}");
    assert!(err.to_string().contains("certificate"), "{err}");
}
