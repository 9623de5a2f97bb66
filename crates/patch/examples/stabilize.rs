//! A command-line probe of the stabilizer.
//!
//! ```text
//! cargo run --release -p redline-patch --example stabilize -- --doc RESUME.json [--chunk N] [--protect PTR]…
//! ```
//!
//! Reads the patch model's output text from stdin, feeds it in N-byte chunks (default 5) through the reader
//! and the stabilizer against the document, prints every surface message as one line of JSON, and ends
//! with one line `{"final": <document>, "committed": true|false, "error": null|"…"}`. Each `--protect` adds
//! a protected pointer to the default `/meta`. Notices (held, duplicate, waiting) go to stderr.

use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

use redline_patch::{Output, Policy, Scope, Stabilizer, Status, Surface};
use serde_json::{Value, json};

fn main() -> ExitCode {
    let mut doc_path = None;
    let mut chunk = 5usize;
    let mut policy = Policy::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--doc" => doc_path = args.next(),
            "--chunk" => match args.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0) {
                Some(n) => chunk = n,
                None => return usage("--chunk takes a whole number above 0"),
            },
            "--protect" => match args.next() {
                Some(pointer) => policy.protected.push(pointer),
                None => return usage("--protect takes a JSON Pointer"),
            },
            other => return usage(&format!("unknown argument {other}")),
        }
    }
    let Some(doc_path) = doc_path else {
        return usage("--doc RESUME.json is required");
    };
    let doc: Value = match std::fs::read(&doc_path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("cannot read {doc_path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }

    let base_revision = 1;
    let mut surface = Surface::new("main");
    let mut stabilizer = Stabilizer::new(
        doc.clone(),
        base_revision,
        policy,
        Scope::Anywhere,
        &mut surface,
        Instant::now(),
    );
    let print = |outputs: Vec<Output>| {
        for output in outputs {
            match output {
                Output::Surface(message) => {
                    println!("{}", serde_json::to_string(&message).unwrap())
                }
                Output::Notice(notice) => eprintln!("{}", serde_json::to_string(&notice).unwrap()),
            }
        }
    };
    for piece in input.chunks(chunk) {
        print(stabilizer.feed(piece, Instant::now()));
    }
    print(stabilizer.finish());
    let mut committed_doc = None;
    if let Status::Complete(bundle) = stabilizer.status() {
        committed_doc = Some(bundle.document.clone());
        print(stabilizer.commit(base_revision + 1));
    }
    let (final_doc, committed, error) = match (stabilizer.status(), committed_doc) {
        (Status::Committed(_), Some(document)) => (document, true, None),
        (Status::Failed(reason), _) => (doc, false, Some(reason.to_string())),
        _ => (doc, false, Some("the stream did not finish".to_owned())),
    };
    println!(
        "{}",
        json!({"final": final_doc, "committed": committed, "error": error})
    );
    if committed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "{problem}\nusage: stabilize --doc RESUME.json [--chunk N] [--protect PTR]... < model-output.json"
    );
    ExitCode::from(2)
}
