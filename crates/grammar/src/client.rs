//! The caller's side: the `redline-grammar` program started on first use and asked over its standard input
//! and output, one JSON line each way.
//!
//! - **Found where the caller is**: `REDLINE_GRAMMAR` (a path; a path that is no file turns grammar off),
//!   else beside the running program ([`redline_resume::resources::program`]). Without it, grammar finds
//!   nothing and [`available`] says so.
//! - **Bounded**: the first reply may take [`FIRST_REPLY`] (the program reads Harper's dictionary as it
//!   starts), each later one [`REPLY`]; a reply is one line of at most [`MAX_LINE_BYTES`], read as JSON and
//!   each finding checked against its text ([`Found::fits`]). A program that is late, stops or answers
//!   otherwise is stopped; it is started again for the next check, and after [`MAX_FAILURES`] failures in
//!   a row it is not started again in this process.
//! - **Asked once per text**: what was found in each text is kept ([`MAX_SEEN_CHARS`] of text at most), so
//!   that a check after a keystroke asks about the one field that changed; a text whose request failed is
//!   kept as having nothing, and never sent again.
//! - **Let go when idle**: Harper's dictionary holds some 150 MB, so the program is stopped once no check
//!   has asked it anything for [`IDLE`]; the next check starts it again (under a second), and what it
//!   found before is still kept.
//! - **Given nothing of the caller's**: it starts with an empty environment (on Windows, the system's
//!   folder only), no window, and its errors go nowhere.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

use crate::{Found, MAX_LINE_BYTES, MAX_TEXT_CHARS, MAX_TEXTS, PROGRAM, Reply, Request};

/// How long the program's first reply may take: it reads Harper's dictionary as it starts (under a
/// second in a release build, some seconds in a test build).
pub const FIRST_REPLY: Duration = Duration::from_secs(60);

/// How long a later reply may take: a resume's fields take Harper some milliseconds.
pub const REPLY: Duration = Duration::from_secs(10);

/// Failures in a row (not started, late, stopped, answered otherwise) after which the program is not
/// started again in this process.
pub const MAX_FAILURES: u32 = 3;

/// How long the program is kept running after its last reply: typing keeps it, a pause lets it go.
pub const IDLE: Duration = Duration::from_secs(30);

/// The most characters of text whose findings are kept before the memory of them starts again.
pub const MAX_SEEN_CHARS: usize = 1_000_000;

/// What was found in each text of `texts`, in order; nothing where grammar is not available or the
/// program failed.
pub fn check(texts: &[&str]) -> Vec<Arc<Vec<Found>>> {
    let mut client = client().lock().unwrap_or_else(|e| e.into_inner());
    let found = client.check(texts);
    if client.helper.is_some() {
        watch_idle();
    }
    found
}

/// Starts, once, the thread that stops the program after [`IDLE`] without a check.
fn watch_idle() {
    static WATCH: OnceLock<()> = OnceLock::new();
    WATCH.get_or_init(|| {
        let spawned = std::thread::Builder::new()
            .name("grammar-idle".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(IDLE / 6);
                    let mut client = client().lock().unwrap_or_else(|e| e.into_inner());
                    client.let_go_if_idle(Instant::now());
                }
            });
        // Without the thread, the program runs until this one ends.
        drop(spawned);
    });
}

/// Whether grammar is checked in this process: the program is there and has not failed
/// [`MAX_FAILURES`] times in a row.
pub fn available() -> bool {
    let client = client().lock().unwrap_or_else(|e| e.into_inner());
    client.program.is_some() && client.failures < MAX_FAILURES
}

/// Forgets what was found in earlier checks (for a benchmark of a first check); the program keeps running.
pub fn forget() {
    let mut client = client().lock().unwrap_or_else(|e| e.into_inner());
    client.seen.clear();
    client.seen_chars = 0;
}

fn client() -> &'static Mutex<Client> {
    static CLIENT: OnceLock<Mutex<Client>> = OnceLock::new();
    CLIENT.get_or_init(|| Mutex::new(Client::new(program(), [FIRST_REPLY, REPLY])))
}

/// Where the program is: `REDLINE_GRAMMAR`, else beside the running program.
fn program() -> Option<PathBuf> {
    match std::env::var_os("REDLINE_GRAMMAR") {
        Some(path) => Some(PathBuf::from(path)).filter(|p| p.is_file()),
        None => redline_resume::resources::program(PROGRAM),
    }
}

struct Client {
    program: Option<PathBuf>,
    /// How long the first reply and each later one may take.
    waits: [Duration; 2],
    helper: Option<Helper>,
    /// When the program last replied.
    used: Instant,
    failures: u32,
    /// What was found in each text already asked about.
    seen: HashMap<String, Arc<Vec<Found>>>,
    /// The characters of the texts in `seen`.
    seen_chars: usize,
}

impl Client {
    fn new(program: Option<PathBuf>, waits: [Duration; 2]) -> Client {
        Client {
            program,
            waits,
            helper: None,
            used: Instant::now(),
            failures: 0,
            seen: HashMap::new(),
            seen_chars: 0,
        }
    }

    fn check(&mut self, texts: &[&str]) -> Vec<Arc<Vec<Found>>> {
        let mut asked: Vec<&str> = texts
            .iter()
            .copied()
            .filter(|text| !self.seen.contains_key(*text))
            .collect();
        asked.sort_unstable();
        asked.dedup();
        for chunk in asked.chunks(MAX_TEXTS) {
            let found = self.ask(chunk);
            for (i, text) in chunk.iter().enumerate() {
                let kept = found
                    .as_ref()
                    .and_then(|f| f.get(i).cloned())
                    .unwrap_or_default();
                self.keep(text, kept);
            }
        }
        texts
            .iter()
            .map(|text| self.seen.get(*text).cloned().unwrap_or_default())
            .collect()
    }

    /// Stops the program if it has not been asked anything for [`IDLE`] at `now`.
    fn let_go_if_idle(&mut self, now: Instant) {
        if now.duration_since(self.used) >= IDLE {
            self.helper = None;
        }
    }

    fn keep(&mut self, text: &str, found: Vec<Found>) {
        let length = text.chars().count();
        if self.seen_chars + length > MAX_SEEN_CHARS {
            self.seen.clear();
            self.seen_chars = 0;
        }
        self.seen_chars += length;
        self.seen.insert(text.to_owned(), Arc::new(found));
    }

    /// What the program found in each of `texts`; `None` when it is not there or failed (then it is
    /// stopped, and started again next time).
    fn ask(&mut self, texts: &[&str]) -> Option<Vec<Vec<Found>>> {
        if self.failures >= MAX_FAILURES {
            return None;
        }
        let program = self.program.as_deref()?;
        if self.helper.is_none() {
            self.helper = Helper::start(program).ok();
        }
        let waits = self.waits;
        let replied = self
            .helper
            .as_mut()
            .and_then(|helper| helper.ask(texts, waits));
        if replied.is_some() {
            self.failures = 0;
            self.used = Instant::now();
        } else {
            self.helper = None;
            self.failures += 1;
        }
        replied
    }
}

/// The running program: its input, and its replies' lines as a thread reads them (`None`: it closed its
/// output, or wrote a line over the bound).
struct Helper {
    child: Child,
    input: ChildStdin,
    replies: mpsc::Receiver<Option<Vec<u8>>>,
    answered: bool,
}

impl Helper {
    fn start(program: &Path) -> std::io::Result<Helper> {
        let mut command = Command::new(program);
        command.env_clear();
        #[cfg(windows)]
        {
            use std::os::windows::process::CommandExt as _;
            if let Some(root) = std::env::var_os("SYSTEMROOT") {
                command.env("SYSTEMROOT", root);
            }
            // No console window behind the app's.
            command.creation_flags(0x0800_0000);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (input, output) = match (child.stdin.take(), child.stdout.take()) {
            (Some(input), Some(output)) => (input, output),
            _ => return Err(std::io::Error::other("the grammar checker's pipes")),
        };
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let mut line = Vec::new();
                let read = (&mut output)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut line);
                let whole = matches!(read, Ok(n) if n > 0) && line.ends_with(b"\n");
                if send.send(whole.then_some(line)).is_err() || !whole {
                    return;
                }
            }
        });
        Ok(Helper {
            child,
            input,
            replies,
            answered: false,
        })
    }

    fn ask(&mut self, texts: &[&str], [first, later]: [Duration; 2]) -> Option<Vec<Vec<Found>>> {
        let request = Request {
            texts: texts
                .iter()
                .map(|t| t.chars().take(MAX_TEXT_CHARS).collect())
                .collect(),
        };
        let mut line = serde_json::to_vec(&request).ok()?;
        line.push(b'\n');
        self.input.write_all(&line).ok()?;
        self.input.flush().ok()?;
        let wait = if self.answered { later } else { first };
        let reply = self.replies.recv_timeout(wait).ok()??;
        let reply: Reply = serde_json::from_slice(&reply).ok()?;
        if reply.found.len() != texts.len() {
            return None;
        }
        self.answered = true;
        Some(
            reply
                .found
                .into_iter()
                .zip(texts)
                .map(|(found, text)| {
                    let length = crate::checked_length(text);
                    found.into_iter().filter(|f| f.fits(length)).collect()
                })
                .collect(),
        )
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::Rule;

    const QUICK: [Duration; 2] = [Duration::from_secs(2), Duration::from_secs(2)];

    /// A program that is the shell script `script`, in `dir`.
    fn script(dir: &Path, script: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt as _;
        let path = dir.join("grammar.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// A program that notes each start in a file, then runs `then`: the program and the file.
    fn counting(dir: &Path, then: &str) -> (PathBuf, PathBuf) {
        let started = dir.join("started");
        let program = script(dir, &format!("echo x >> '{}'; {then}", started.display()));
        (program, started)
    }

    /// How many times a [`counting`] program started.
    fn starts(started: &Path) -> usize {
        std::fs::read_to_string(started).unwrap().lines().count()
    }

    const ONE: &str =
        r#"{"found":[[{"rule":"agreement","start":0,"end":2,"message":"Agree.","fix":"Has"}]]}"#;

    /// What the program found is kept: the same text is not asked about again (the program here answers
    /// once, then stops).
    #[test]
    fn a_text_is_asked_about_once() {
        let dir = tempfile::tempdir().unwrap();
        let program = script(dir.path(), &format!("read line; echo '{ONE}'; sleep 5"));
        let mut client = Client::new(Some(program), QUICK);
        for _ in 0..2 {
            let found = client.check(&["He have"]);
            assert_eq!(found[0].len(), 1);
            assert_eq!(found[0][0].rule, Rule::Agreement);
            assert_eq!(found[0][0].fix.as_deref(), Some("Has"));
        }
        assert_eq!(client.failures, 0);
    }

    /// A program that does not answer in time is stopped, its text kept as having nothing; after
    /// [`MAX_FAILURES`] failures in a row it is not started again.
    #[test]
    fn a_silent_program_is_stopped_and_then_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (program, started) = counting(dir.path(), "sleep 30");
        let mut client = Client::new(Some(program), [Duration::from_millis(300); 2]);
        for k in 0..5 {
            let text = format!("text {k}");
            assert!(client.check(&[&text])[0].is_empty());
        }
        assert_eq!(client.failures, MAX_FAILURES);
        assert_eq!(starts(&started), MAX_FAILURES as usize);
        assert!(client.check(&["text 0"])[0].is_empty(), "kept as nothing");
    }

    /// What does not fit its text (a span past its end, a reply for other texts, a line that never
    /// ends) is not shown.
    #[test]
    fn a_reply_that_does_not_fit_is_not_shown() {
        let dir = tempfile::tempdir().unwrap();
        let past = ONE.replace(r#""end":2"#, r#""end":99"#);
        for answer in [
            format!("echo '{past}'"),
            r#"echo '{"found":[]}'"#.to_owned(),
            "head -c 20000000 /dev/zero".to_owned(),
            "echo 'not json'".to_owned(),
        ] {
            let program = script(dir.path(), &format!("read line; {answer}; sleep 5"));
            let mut client = Client::new(Some(program), QUICK);
            assert!(client.check(&["He have"])[0].is_empty(), "{answer}");
        }
    }

    /// A program left idle for [`IDLE`] is stopped, and started again for the next text.
    #[test]
    fn an_idle_program_is_let_go_and_started_again() {
        let dir = tempfile::tempdir().unwrap();
        let (program, started) = counting(
            dir.path(),
            &format!("while read line; do echo '{ONE}'; done"),
        );
        let mut client = Client::new(Some(program), QUICK);
        assert_eq!(client.check(&["He have"])[0].len(), 1);
        client.let_go_if_idle(Instant::now());
        assert!(client.helper.is_some(), "not idle yet");
        client.let_go_if_idle(Instant::now() + IDLE);
        assert!(client.helper.is_none(), "let go");
        assert_eq!(client.check(&["He has"])[0].len(), 1);
        assert_eq!(starts(&started), 2);
        assert_eq!(client.failures, 0);
    }

    /// Without the program, grammar finds nothing.
    #[test]
    fn without_the_program_nothing_is_found() {
        let mut client = Client::new(None, QUICK);
        assert!(client.check(&["He have went"])[0].is_empty());
    }
}
