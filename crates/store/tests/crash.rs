//! Nothing acknowledged is lost: a child process commits revisions in a loop and is killed with SIGKILL at
//! random moments, 200 times. After every kill the database opens (which runs `integrity_check`), every
//! revision the child reported as committed is there with the content it wrote, and the head equals the
//! replay of every revision's forward patch from the first.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use redline_store::{Change, Source, Store};
use serde_json::{Value, json};

const CHILD_DIR: &str = "REDLINE_CRASH_CHILD_DIR";
const ROUNDS: usize = 200;

/// The child: commits until it is killed, printing `committed N` once revision N is acknowledged.
#[test]
#[ignore = "the child process of `killed_at_random_moments`; does nothing on its own"]
fn crash_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let mut store = Store::open(Path::new(&dir)).unwrap();
    let id = store.current().unwrap().id;
    let mut out = std::io::stdout().lock();
    loop {
        let head = store.document(id).unwrap().head_revision;
        let next = head + 1;
        let mut ops = vec![
            json!({"op": "replace", "path": "/basics/name", "value": format!("Revision {next}")}),
        ];
        if next.is_multiple_of(3) {
            ops.push(
                json!({"op": "add", "path": "/skills/0/keywords/-", "value": format!("k{next}")}),
            );
        }
        let ops = serde_json::from_value(Value::Array(ops)).unwrap();
        let committed = store
            .commit(
                id,
                Change::new(head, Source::User, ops).summary(format!("edit {next}")),
            )
            .unwrap();
        writeln!(out, "committed {}", committed.info.number).unwrap();
        out.flush().unwrap();
    }
}

fn check_acknowledged(store: &Store, id: i64, numbers: &[u64], round: usize) {
    for &n in numbers {
        let revision = store
            .checkout(id, n)
            .unwrap_or_else(|e| panic!("round {round}: acknowledged revision {n} is lost: {e}"));
        assert_eq!(revision.document["basics"]["name"], format!("Revision {n}"));
    }
}

/// A small xorshift generator: the test needs random moments, not a dependency.
struct Moments(u64);

impl Moments {
    fn next_ms(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

#[test]
fn killed_at_random_moments_nothing_acknowledged_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let mut store = Store::open(dir.path()).unwrap();
        store.import("Sample", &redline_resume::sample()).unwrap()
    };
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    println!("seed {seed}");
    let mut moments = Moments(seed);
    let exe = std::env::current_exe().unwrap();
    let mut acknowledged = Vec::new();
    for round in 0..ROUNDS {
        let mut child = Command::new(&exe)
            .args([
                "crash_child",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_DIR, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(5 + moments.next_ms(60)));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let mut printed = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut printed)
            .unwrap();
        // Only whole lines count: the kill may cut one short.
        let complete = &printed[..printed.rfind('\n').map_or(0, |i| i + 1)];
        let before = acknowledged.len();
        acknowledged.extend(
            complete
                .lines()
                .filter_map(|l| l.strip_prefix("committed "))
                .map(|n| n.parse::<u64>().unwrap()),
        );
        // After every kill: the database opens and what this child acknowledged is there.
        let store = Store::open(dir.path())
            .unwrap_or_else(|e| panic!("round {round}: the database does not open: {e}"));
        check_acknowledged(&store, id, &acknowledged[before..], round);
        let head = store.head(id).unwrap();
        assert!(head.number >= acknowledged.last().copied().unwrap_or(1));
    }
    // Afterwards: every acknowledged revision, and the head is the replay of the whole history.
    let store = Store::open(dir.path()).unwrap();
    check_acknowledged(&store, id, &acknowledged, ROUNDS);
    let export = store.export_document(id).unwrap();
    let mut replay = Value::Null;
    for revision in export["revisions"].as_array().unwrap() {
        let forward: json_patch::Patch =
            serde_json::from_value(revision["forward"].clone()).unwrap();
        json_patch::patch(&mut replay, &forward).unwrap();
    }
    assert_eq!(
        replay,
        store.head(id).unwrap().document,
        "the head is not the replay of its history"
    );
    println!(
        "{ROUNDS} kills, {} revisions acknowledged, all present",
        acknowledged.len()
    );
    assert!(
        acknowledged.len() > ROUNDS / 2,
        "the children committed too little for the test to mean anything"
    );
}
