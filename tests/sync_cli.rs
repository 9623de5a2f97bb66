//! Sync on the command line: two or three devices (data folders) sharing one sync folder or one bare git
//! repository, as `redline sync folder PATH`, `redline sync git URL` and `redline sync` run them: a resume
//! made on one shows on the others, edits to different fields both land, edits to the same field wait
//! for the user, a delete meets an edit, and what sync engines do to files (halfway copies, renamed
//! duplicates, files of another program) loses nothing.

mod common;

use std::path::{Path, PathBuf};

use common::{redline, succeeded};
use serde_json::Value;

fn json(data: &Path, args: &[&str]) -> Value {
    let out = succeeded(redline(data, args));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stdout));
    })
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.resume.json")
}

/// A device: its data folder, where `redline` runs.
struct Device {
    data: PathBuf,
}

impl Device {
    fn new(root: &Path, name: &str) -> Device {
        let data = root.join(name);
        std::fs::create_dir_all(&data).unwrap();
        Device { data }
    }

    fn run(&self, args: &[&str]) -> Value {
        json(&self.data, &[args, &["--json"]].concat())
    }

    fn sync(&self) -> Value {
        self.run(&["sync"])
    }

    /// The resumes listed, by title.
    fn titles(&self) -> Vec<String> {
        let list = self.run(&["list"]);
        let mut titles: Vec<String> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["title"].as_str().unwrap().to_owned())
            .collect();
        titles.sort();
        titles
    }

    fn id_of(&self, title: &str) -> String {
        let list = self.run(&["list"]);
        list.as_array()
            .unwrap()
            .iter()
            .find(|d| d["title"] == title)
            .unwrap_or_else(|| panic!("no “{title}” in {list}"))["id"]
            .to_string()
    }

    fn show(&self, title: &str) -> Value {
        let id = self.id_of(title);
        let out = succeeded(redline(&self.data, &["show", "--doc", &id]));
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

fn import_mine(device: &Device) -> String {
    let out = succeeded(redline(
        &device.data,
        &[
            "import",
            sample().to_str().unwrap(),
            "--title",
            "Mine",
            "--json",
        ],
    ));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["id"].to_string()
}

/// Two devices and one sync folder, "Mine" made on the first and sent into the folder.
fn one_synced() -> (tempfile::TempDir, PathBuf, Device, Device) {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("Sync");
    std::fs::create_dir(&folder).unwrap();
    let (a, b) = (Device::new(root.path(), "a"), Device::new(root.path(), "b"));
    import_mine(&a);
    a.run(&["sync", "folder", folder.to_str().unwrap()]);
    (root, folder, a, b)
}

/// As [`one_synced`], with "Mine" brought onto the second device too.
fn two_synced() -> (tempfile::TempDir, Device, Device) {
    let (root, folder, a, b) = one_synced();
    b.run(&["sync", "folder", folder.to_str().unwrap()]);
    (root, a, b)
}

#[test]
fn a_resume_made_on_one_device_shows_on_the_other_and_edits_to_different_fields_both_land() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("Dropbox");
    std::fs::create_dir(&folder).unwrap();
    let (a, b) = (Device::new(root.path(), "a"), Device::new(root.path(), "b"));
    let doc = import_mine(&a);

    let first = a.run(&["sync", "folder", folder.to_str().unwrap()]);
    assert_eq!(first["sent"], 1, "{first}");
    assert_eq!(first["written"], 1, "{first}");
    let joined = b.run(&["sync", "folder", folder.to_str().unwrap()]);
    assert_eq!(joined["broughtIn"], serde_json::json!(["Mine"]), "{joined}");
    assert_eq!(b.show("Mine"), a.show("Mine"));

    // Offline, A changes the language and B a heading; both sync (A twice, to take B's).
    succeeded(redline(&a.data, &["language", "de", "--doc", &doc]));
    let b_doc = b.id_of("Mine");
    succeeded(redline(
        &b.data,
        &["heading", "work", "Where I worked", "--doc", &b_doc],
    ));
    a.sync();
    let b_synced = b.sync();
    assert_eq!(
        b_synced["updated"],
        serde_json::json!(["Mine"]),
        "{b_synced}"
    );
    a.sync();
    let (on_a, on_b) = (a.show("Mine"), b.show("Mine"));
    assert_eq!(on_a, on_b, "both devices converge");
    assert_eq!(on_a["meta"]["language"], "de");
    assert_eq!(on_a["meta"]["headings"]["work"], "Where I worked", "{on_a}");

    // A rename travels too, and a sync with nothing new changes nothing.
    succeeded(redline(
        &b.data,
        &["rename", "Mine, renamed", "--doc", &b_doc],
    ));
    b.sync();
    let again = a.sync();
    assert_eq!(a.titles(), ["Mine, renamed"]);
    let quiet = a.sync();
    assert_eq!(quiet["sent"], 0, "{quiet}");
    assert_eq!(quiet["read"], 0, "only new files are read: {quiet}");
    assert_eq!(again["devices"].as_array().unwrap().len(), 1);
}

#[test]
fn the_same_field_changed_on_two_devices_waits_for_the_user_on_both() {
    let (_root, a, b) = two_synced();

    for (device, name) in [(&a, "Jobs (A)"), (&b, "Jobs (B)")] {
        let id = device.id_of("Mine");
        succeeded(redline(
            &device.data,
            &["heading", "work", name, "--doc", &id],
        ));
    }
    a.sync();
    let on_b = b.sync();
    a.sync();
    let (doc_a, doc_b) = (a.show("Mine"), b.show("Mine"));
    assert_eq!(doc_a, doc_b, "both devices show the same head");
    let kept = doc_a["meta"]["headings"]["work"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(kept == "Jobs (A)" || kept == "Jobs (B)", "{kept}");
    let other = if kept == "Jobs (A)" {
        "Jobs (B)"
    } else {
        "Jobs (A)"
    };

    // The other value waits on each device as a held edit, said to be "changed on … too".
    for device in [&a, &b] {
        let id = device.id_of("Mine");
        let held = device.run(&["held", "--doc", &id]);
        let rows = held["held"].as_array().unwrap();
        let waiting: Vec<&Value> = rows
            .iter()
            .filter(|r| {
                let words = r["description"].as_str().unwrap();
                words.contains("(changed on device ") && words.ends_with(" too)")
            })
            .collect();
        assert_eq!(waiting.len(), 1, "{held}");
        assert!(waiting[0]["op"].to_string().contains(other), "{held}");
    }
    assert!(on_b["held"].as_u64().unwrap() >= 1, "{on_b}");
    // A second sync does not hold it again.
    let again = b.sync();
    assert_eq!(again["held"], 0, "{again}");
}

#[test]
fn a_resume_deleted_on_one_device_and_edited_on_another_is_kept_and_said() {
    let (_root, a, b) = two_synced();

    succeeded(redline(&a.data, &["delete", &a.id_of("Mine")]));
    let id = b.id_of("Mine");
    succeeded(redline(&b.data, &["language", "fr", "--doc", &id]));
    a.sync();
    let on_b = b.sync();
    let on_a = a.sync();
    assert_eq!(a.titles(), ["Mine"], "kept on the device that deleted it");
    assert_eq!(b.titles(), ["Mine"]);
    assert_eq!(a.show("Mine")["meta"]["language"], "fr");
    let said = format!("{on_a}{on_b}");
    assert!(said.contains("it is kept"), "{said}");

    // A delete with no edit against it travels.
    succeeded(redline(&b.data, &["delete", &b.id_of("Mine")]));
    b.sync();
    let gone = a.sync();
    assert_eq!(gone["deleted"], serde_json::json!(["Mine"]), "{gone}");
    // (A data folder with no resume left starts again from the sample, as on a first start.)
    assert!(!a.titles().contains(&"Mine".to_owned()), "{:?}", a.titles());
}

#[test]
fn what_sync_engines_do_to_files_loses_nothing() {
    let (_root, folder, a, b) = one_synced();
    let id = a.id_of("Mine");
    succeeded(redline(&a.data, &["language", "es", "--doc", &id]));
    a.sync();

    // One of A's files: a renamed duplicate beside it, a halfway copy of it, and a stranger's file.
    let device_dir = std::fs::read_dir(folder.join("redline-sync"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    let files: Vec<PathBuf> = std::fs::read_dir(&device_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 2, "one file per change: {files:?}");
    let is_edit = |p: &PathBuf| {
        String::from_utf8(std::fs::read(p).unwrap())
            .unwrap()
            .contains(r#""kind":"edit""#)
    };
    let (edit, create): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(is_edit);
    let bytes = std::fs::read(&create[0]).unwrap();
    std::fs::write(device_dir.join("resume (conflicted copy).json"), &bytes).unwrap();
    let halfway = edit[0].clone();
    let whole = std::fs::read(&halfway).unwrap();
    std::fs::write(&halfway, &whole[..whole.len() / 2]).unwrap();
    std::fs::write(device_dir.join("notes.json"), b"{\"hello\": \"world\"}").unwrap();

    let first = b.run(&["sync", "folder", folder.to_str().unwrap()]);
    let skipped = first["skipped"].to_string();
    assert!(skipped.contains("still being copied"), "{first}");
    assert!(skipped.contains("notes.json"), "{first}");
    assert_eq!(b.titles(), ["Mine"], "the whole file came in: {first}");
    assert_ne!(
        b.show("Mine")["meta"]["language"],
        "es",
        "not the halfway one"
    );

    // The copy finishes: the next sync takes it; the duplicate changed nothing.
    std::fs::write(&halfway, &whole).unwrap();
    let second = b.sync();
    assert_eq!(second["accepted"], 1, "{second}");
    assert_eq!(b.show("Mine"), a.show("Mine"));
}

#[test]
fn a_folder_inside_the_data_folder_or_of_another_library_is_refused_in_words() {
    let root = tempfile::tempdir().unwrap();
    let a = Device::new(root.path(), "a");
    let inside = a.data.join("sync");
    std::fs::create_dir_all(&inside).unwrap();
    let out = redline(&a.data, &["sync", "folder", inside.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("one inside the other"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = redline(&a.data, &["sync"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("sync is off"));

    // Two libraries: a device that synced in one refuses a folder of the other.
    let (one, two) = (root.path().join("one"), root.path().join("two"));
    std::fs::create_dir(&one).unwrap();
    std::fs::create_dir(&two).unwrap();
    let b = Device::new(root.path(), "b");
    a.run(&["sync", "folder", one.to_str().unwrap()]);
    b.run(&["sync", "folder", two.to_str().unwrap()]);
    let out = redline(&a.data, &["sync", "folder", two.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("another Redline library"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_devices_sync_through_a_bare_git_repository() {
    let root = tempfile::tempdir().unwrap();
    let bare = root.path().join("resumes.git");
    // The remote is made by the git program, as a user makes one; Redline itself runs no git program.
    let made = std::process::Command::new("git")
        .args(["init", "--bare", "-q"])
        .arg(&bare)
        .status()
        .expect("git is installed");
    assert!(made.success());
    let url = format!("file://{}", bare.display());
    let (a, b) = (Device::new(root.path(), "a"), Device::new(root.path(), "b"));
    import_mine(&a);
    let pushed = a.run(&["sync", "git", &url]);
    assert_eq!(pushed["written"], 1, "{pushed}");
    let pulled = b.run(&["sync", "git", &url]);
    assert_eq!(pulled["broughtIn"], serde_json::json!(["Mine"]), "{pulled}");

    let id = b.id_of("Mine");
    succeeded(redline(&b.data, &["language", "pt", "--doc", &id]));
    b.sync();
    a.sync();
    assert_eq!(a.show("Mine")["meta"]["language"], "pt");
    let status = a.run(&["sync", "status"]);
    assert_eq!(status["place"]["kind"], "git", "{status}");
    assert_eq!(status["devices"].as_array().unwrap().len(), 1, "{status}");
}

/// A git server over HTTPS on 127.0.0.1 asking for `alice` and `token` (the sync crate's test server:
/// `git http-backend` behind TLS, as a forge serves it), with a certificate `openssl` made for it; killed
/// when dropped.
struct HttpsRemote {
    server: std::process::Child,
    url: String,
    certificate: PathBuf,
}

impl Drop for HttpsRemote {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

fn https_remote(root: &Path, token: &str) -> HttpsRemote {
    use std::process::{Command, Stdio};
    let made = Command::new("git")
        .args(["init", "--bare", "-q"])
        .arg(root.join("resumes.git"))
        .status()
        .expect("git is installed");
    assert!(made.success());
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/sync/tests/support/git_https_server.py");
    let mut server = Command::new("python3")
        .arg(script)
        .arg(root)
        .args(["server", "alice", token])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is installed");
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    let (port, certificate) = first.trim().split_once(' ').expect("openssl is installed");
    HttpsRemote {
        url: format!("127.0.0.1:{port}/resumes.git"),
        certificate: certificate.into(),
        server,
    }
}

/// `redline sync git https://alice:TOKEN@…` through a real Secret Service (`scripts/test.sh` runs this
/// inside `dbus-run-session` with gnome-keyring): the token is kept in the keychain and given when the
/// remote asks, the address is kept without it, and its bytes are nowhere in the data folder or in what
/// the command printed; `sync off` forgets it.
#[test]
#[ignore = "needs a Secret Service: run scripts/test.sh"]
fn a_git_remote_over_https_keeps_its_token_in_the_os_keychain_and_nowhere_else() {
    let root = tempfile::tempdir().unwrap();
    let token = format!("ghp_{}", std::process::id());
    let remote = https_remote(root.path(), &token);
    // The test's certificate stands for a forge's, which the system's authorities vouch for.
    let trust = [("SSL_CERT_FILE", remote.certificate.as_os_str())];
    let (a, b) = (Device::new(root.path(), "a"), Device::new(root.path(), "b"));
    let mut printed = Vec::new();
    let mut run = |device: &Device, args: &[&str]| -> Value {
        let out = common::redline_with(&device.data, &[args, &["--json"]].concat(), &trust);
        printed.extend_from_slice(&out.stdout);
        printed.extend_from_slice(&out.stderr);
        serde_json::from_slice(&succeeded(out).stdout).unwrap()
    };
    import_mine(&a);
    let with_token = format!("https://alice:{token}@{}", remote.url);
    let pushed = run(&a, &["sync", "git", &with_token]);
    assert_eq!(pushed["written"], 1, "{pushed}");
    let kept = format!("https://alice@{}", remote.url);
    assert_eq!(pushed["place"]["url"], kept.as_str(), "{pushed}");
    let pulled = run(&b, &["sync", "git", &with_token]);
    assert_eq!(pulled["broughtIn"], serde_json::json!(["Mine"]), "{pulled}");
    // Later syncs take the token from the keychain.
    let id = b.id_of("Mine");
    succeeded(redline(&b.data, &["language", "pt", "--doc", &id]));
    run(&b, &["sync"]);
    run(&a, &["sync"]);
    assert_eq!(a.show("Mine")["meta"]["language"], "pt");

    for device in [&a, &b] {
        for file in redline_testkit::files_under(&device.data) {
            let bytes = std::fs::read(&file).unwrap();
            let held = bytes.windows(token.len()).any(|w| w == token.as_bytes());
            assert!(!held, "{} holds the token", file.display());
        }
    }
    // Sync off forgets the token: choosing the remote again without one is answered in words.
    run(&a, &["sync", "off"]);
    let out = common::redline_with(&a.data, &["sync", "git", &kept], &trust);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("asks for a user name and a token"), "{err}");
    printed.extend_from_slice(&out.stderr);
    let said = String::from_utf8_lossy(&printed);
    assert!(!said.contains(&token), "the token was printed: {said}");
}
