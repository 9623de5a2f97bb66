//! Every fixture end to end: the replay server on 127.0.0.1, the real transport (async-openai's retries over
//! reqwest) and Redline's SSE reader, the stabilizer and a real store in a temporary folder. Each asserts the
//! final document (byte for byte, so every untouched field is as it was), the revisions written, the
//! refusals, warnings and notices, and that the surface messages sent, applied in order to the sample as the
//! view applies them, land on the committed document.

// A test (or benchmark) may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

use std::path::PathBuf;
use std::time::Duration;

use redline_agent::fixtures::{self, Fixture};
use redline_agent::{
    Pace, Provider, ProviderConfig, ReplayServer, Turn, TurnError, TurnEvent, TurnOutcome,
};
use redline_patch::{Policy, Surface, SurfaceUpdate};
use redline_store::Store;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

fn fixture_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Applies the surface messages to a document the way the resume view does.
fn view(mut doc: Value, events: &[TurnEvent]) -> Value {
    for event in events {
        let TurnEvent::Surface { update } = event else {
            continue;
        };
        match update {
            SurfaceUpdate::Create(c) => doc = c.document.clone(),
            SurfaceUpdate::Patch(p) => redline_patch::apply(&mut doc, &p.ops).unwrap(),
            SurfaceUpdate::Text(t) => {
                let slot = doc.pointer_mut(&t.path).unwrap();
                let text = format!("{}{}", slot.as_str().unwrap(), t.append);
                *slot = Value::String(text);
            }
        }
    }
    doc
}

/// A turn on `document_id` of `store` (the default policy; no selection, job or review mode) until it ends:
/// what it returned and every event it sent.
async fn run_turn(
    store: &mut Store,
    document_id: Option<i64>,
    provider: &Provider,
    cancel: CancellationToken,
    stall: Duration,
    message: &str,
) -> (Result<TurnOutcome, TurnError>, Vec<TurnEvent>) {
    let mut surface = Surface::new("main");
    let mut events = Vec::new();
    let result = Turn {
        store,
        document_id,
        provider,
        surface: &mut surface,
        policy: Policy::default(),
        selected: None,
        cancel,
        stall,
        job: None,
        review: false,
        quotes_file: false,
        checks: None,
    }
    .run(message, &mut |e| events.push(e))
    .await;
    (result, events)
}

/// A turn on `store` with no document yet (the user has no resume), stalled after 5 s at most, until it
/// ends: what it did and every event it sent.
async fn first_turn(
    store: &mut Store,
    provider: &Provider,
    message: &str,
) -> (TurnOutcome, Vec<TurnEvent>) {
    let (result, events) = run_turn(
        store,
        None,
        provider,
        CancellationToken::new(),
        Duration::from_secs(5),
        message,
    )
    .await;
    (result.unwrap(), events)
}

/// What was said in document `id`'s chat, in order.
fn said(store: &Store, id: i64) -> Vec<String> {
    store
        .messages(id)
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect()
}

/// A replay server of `replies` at `pace`, and a provider (no key) pointed at it.
async fn serve(replies: Vec<redline_agent::Reply>, pace: Pace) -> (ReplayServer, Provider) {
    let server = ReplayServer::start(replies, pace).await.unwrap();
    let provider = Provider::new(ProviderConfig::new(Some(server.base_url()), None));
    (server, provider)
}

/// The fixture `fixtures/NAME`.
fn load(name: &str) -> Fixture {
    fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name),
    )
    .unwrap()
}

async fn play(
    fixture: &Fixture,
) -> (
    Result<TurnOutcome, String>,
    Vec<TurnEvent>,
    Store,
    i64,
    ReplayServer,
) {
    let dir = tempfile::tempdir().unwrap().keep();
    let mut store = Store::open(&dir).unwrap();
    let id = store.import("Sample", &redline_resume::sample()).unwrap();
    let pace = Pace {
        chunk: fixture.chunk.unwrap_or(7),
        delay: Duration::ZERO,
    };
    let server = ReplayServer::start(fixture.replies.clone(), pace)
        .await
        .unwrap();
    let mut config = ProviderConfig::new(Some(server.base_url()), Some("sk-test".into()));
    config.first_token_timeout = Duration::from_secs(20);
    config.idle_timeout = Duration::from_secs(10);
    let provider = Provider::new(config);
    let (result, events) = run_turn(
        &mut store,
        Some(id),
        &provider,
        CancellationToken::new(),
        Duration::from_millis(fixture.stall_ms.unwrap_or(2000)),
        &fixture.message,
    )
    .await;
    let result = result.map_err(|e| e.to_string());
    (result, events, store, id, server)
}

#[tokio::test]
async fn every_fixture_end_to_end() {
    let files = fixture_files();
    assert!(files.len() >= 14, "{files:?}");
    for file in files {
        let fixture = fixtures::load(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let (result, events, store, id, server) = play(&fixture).await;
        let expect = &fixture.expect;

        match (&expect.error, &result) {
            (Some(part), Err(e)) => assert!(
                e.contains(part.as_str()),
                "{name}: error {e:?} lacks {part:?}"
            ),
            (Some(part), Ok(_)) => panic!("{name}: expected an error with {part:?}"),
            (None, Err(e)) => panic!("{name}: the turn failed: {e}"),
            (None, Ok(_)) => {}
        }
        let mut expected = redline_resume::sample();
        let changes: json_patch::Patch =
            serde_json::from_value(Value::Array(expect.changes.clone())).unwrap();
        json_patch::patch(&mut expected, &changes).unwrap();
        let head = store.head(id).unwrap();
        assert_eq!(
            serde_json::to_string(&head.document).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{name}: the final document"
        );
        assert_eq!(
            store.history(id).unwrap().len(),
            1 + expect.revisions,
            "{name}: revisions"
        );
        assert_eq!(
            view(redline_resume::sample(), &events),
            head.document,
            "{name}: what the view shows"
        );

        let refusals = events
            .iter()
            .filter(|e| matches!(e, TurnEvent::Refused { .. }))
            .count();
        assert_eq!(refusals, expect.refusals, "{name}: refusals {events:#?}");
        let appends = events.iter().any(|e| {
            matches!(
                e,
                TurnEvent::Surface {
                    update: SurfaceUpdate::Text(_)
                }
            )
        });
        if expect.text_appends {
            assert!(appends, "{name}: no text appends");
        }
        if let Some(part) = &expect.warning {
            assert!(
                events.iter().any(
                    |e| matches!(e, TurnEvent::Warning { text } if text.contains(part.as_str()))
                ),
                "{name}: no warning about {part}"
            );
        }
        for notice in &expect.notices {
            assert!(
                events
                    .iter()
                    .any(|e| matches!(e, TurnEvent::Notice { notice: n }
                    if serde_json::to_value(n).unwrap()["notice"] == notice.as_str())),
                "{name}: no {notice} notice"
            );
        }
        // The surface numbering never skips: the view would ask for a fresh copy at a gap.
        let seqs: Vec<u64> = events
            .iter()
            .filter_map(|e| match e {
                TurnEvent::Surface { update } => Some(update.seq()),
                _ => None,
            })
            .collect();
        assert!(
            seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "{name}: seq {seqs:?}"
        );
        // The audit log has every patch-model call.
        let calls = store.model_calls(id).unwrap();
        assert_eq!(
            calls.len(),
            expect.revisions
                + expect.refusals
                + usize::from(
                    expect.error.is_some() && expect.revisions == 0 && name.contains("cut")
                ),
            "{name}: audit {calls:#?}"
        );
        if expect.error.is_none() {
            assert_eq!(server.remaining(), 0, "{name}: replies left unused");
        }
        // Edits outside the named targets are held, not applied; confirmed, they become one more revision.
        let held: Vec<Value> = result
            .as_ref()
            .map(|o| o.held.iter().flat_map(|h| h.ops.iter()))
            .into_iter()
            .flatten()
            .map(|op| serde_json::to_value(op).unwrap())
            .collect();
        assert_eq!(held, expect.held, "{name}: held");
        if let Ok(outcome) = &result
            && !outcome.held.is_empty()
        {
            let mut store = store;
            for h in &outcome.held {
                redline_agent::confirm(&mut store, h, &Policy::default()).unwrap();
            }
            let confirmed: json_patch::Patch =
                serde_json::from_value(Value::Array(expect.held.clone())).unwrap();
            json_patch::patch(&mut expected, &confirmed).unwrap();
            assert_eq!(
                store.head(id).unwrap().document,
                expected,
                "{name}: confirmed"
            );
            assert_eq!(
                store.history(id).unwrap().len(),
                1 + expect.revisions + outcome.held.len(),
                "{name}: a revision for the confirmation"
            );
        }
    }
}

#[tokio::test]
async fn the_patch_model_gets_the_document_and_the_chat_gets_the_result() {
    let fixture = load("01-add-keyword.json");
    let (result, _, store, id, server) = play(&fixture).await;
    assert!(result.is_ok());
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0]["tools"][0]["function"]["name"], "patch_resume");
    assert_eq!(requests[1]["response_format"]["type"], "json_schema");
    // Every request bounds what the model may answer.
    assert_eq!(
        requests[0]["max_tokens"],
        redline_agent::provider::CHAT_MAX_TOKENS
    );
    assert_eq!(
        requests[1]["max_tokens"],
        redline_agent::provider::PATCH_MAX_TOKENS
    );
    assert_eq!(
        requests[2]["max_tokens"],
        redline_agent::provider::CHAT_MAX_TOKENS
    );
    let rules = requests[1]["messages"][0]["content"].as_str().unwrap();
    // The planner named its target: the patch model sees that part only, one field a line, and the
    // rules for it (neither the whole resume nor the schema's shape).
    assert!(
        rules.contains("JSON Patch") && !rules.contains(redline_resume::shape()),
        "{rules}"
    );
    let patch_prompt = requests[1]["messages"][1]["content"].as_str().unwrap();
    assert!(
        patch_prompt.contains("/skills/0/keywords/0: HTML")
            && patch_prompt.contains("/skills/0/keywords/- (a new item at the end)")
            && patch_prompt.contains("Add Python")
            && !patch_prompt.contains("Richard Hendriks"),
        "{patch_prompt}"
    );
    // Its answer is held to the places inside the target.
    let schema = &requests[1]["response_format"]["json_schema"]["schema"];
    let paths: Vec<&str> = schema["properties"]["operations"]["items"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|kind| kind["properties"]["path"]["enum"].as_array().unwrap())
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(paths.contains(&"/skills/0/keywords/-"), "{paths:?}");
    assert!(
        paths.iter().all(|p| p.starts_with("/skills/0/keywords")),
        "{paths:?}"
    );
    let tool_result = requests[2]["messages"].as_array().unwrap().last().unwrap();
    assert_eq!(tool_result["role"], "tool");
    assert!(
        tool_result["content"]
            .as_str()
            .unwrap()
            .starts_with("Committed as revision 2")
    );
    assert_eq!(
        said(&store, id),
        ["Add Python to my web development skills.", "On it.Done."]
    );
    // The audit keeps the request with the rules by reference to this version of Redline; the part of the
    // resume it showed is a few fields, kept as sent.
    let calls = store.model_calls(id).unwrap();
    let kept: Value = serde_json::from_str(&calls[0].call.request).unwrap();
    assert_eq!(
        kept["messages"][0]["content"],
        format!("[the patch rules of Redline {}]", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(kept["messages"][1]["content"], patch_prompt);
    assert_eq!(kept["model"], requests[1]["model"]);
}

/// A planner that names no target: the patch model sees the whole resume and the schema's shape, and the
/// audit keeps the resume by reference to the revision it showed, not a copy.
#[tokio::test]
async fn without_targets_the_patch_model_gets_the_whole_resume_and_the_audit_a_reference() {
    let fixture = fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/20-identity-held-without-targets.json"),
    )
    .unwrap();
    let (result, _, store, id, server) = play(&fixture).await;
    assert!(result.is_ok());
    let requests = server.requests();
    let rules = requests[1]["messages"][0]["content"].as_str().unwrap();
    // The rules, and the schema's shape (the schema itself would not fit a small model's context).
    assert!(
        rules.contains("RFC 6902")
            && rules.contains(redline_resume::shape())
            && !rules.contains("\"definitions\""),
        "the rules and the schema's shape"
    );
    assert_eq!(
        requests[1]["response_format"]["json_schema"]["schema"],
        redline_agent::turn::operations_schema()
    );
    let patch_prompt = requests[1]["messages"][1]["content"].as_str().unwrap();
    assert!(patch_prompt.contains("Richard Hendriks") && patch_prompt.contains("Add Python"));
    let calls = store.model_calls(id).unwrap();
    let kept: Value = serde_json::from_str(&calls[0].call.request).unwrap();
    let kept_prompt = kept["messages"][1]["content"].as_str().unwrap();
    assert!(
        !kept_prompt.contains("Richard Hendriks")
            && kept_prompt.contains("[revision 1 of this resume, in its history]")
            && kept_prompt.contains("Add Python"),
        "{kept_prompt}"
    );
    assert_eq!(
        kept["messages"][0]["content"],
        format!("[the patch rules of Redline {}]", env!("CARGO_PKG_VERSION"))
    );
    assert!(
        rules.len() > 1000,
        "the rules are long: {} bytes",
        rules.len()
    );
    assert!(
        kept_prompt.replace(
            "[revision 1 of this resume, in its history]",
            &store.checkout(id, 1).unwrap().document.to_string()
        ) == patch_prompt,
        "the reference stands for exactly the resume sent"
    );
}

#[tokio::test]
async fn stop_cancels_at_once_and_rolls_every_preview_back() {
    let mut fixture = load("02-rewrite-summary.json");
    fixture.replies[1].stall_after = Some(20);
    fixture.replies[1].stall_ms = Some(60_000);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let id = store.import("Sample", &redline_resume::sample()).unwrap();
    let (_server, provider) = serve(fixture.replies.clone(), Pace::default()).await;
    let cancel = CancellationToken::new();
    let stopper = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        stopper.cancel();
    });
    let started = std::time::Instant::now();
    let (result, events) = run_turn(
        &mut store,
        Some(id),
        &provider,
        cancel,
        Duration::from_secs(30),
        &fixture.message,
    )
    .await;
    assert!(
        matches!(result, Err(redline_agent::TurnError::Cancelled)),
        "{result:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "Stop did not cut the stalled stream"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        TurnEvent::Surface {
            update: SurfaceUpdate::Text(_)
        }
    )));
    assert_eq!(
        view(redline_resume::sample(), &events),
        redline_resume::sample()
    );
    assert_eq!(store.head(id).unwrap().number, 1);
    assert_eq!(
        store.model_calls(id).unwrap()[0].call.outcome,
        redline_store::Outcome::Cancelled
    );
}

/// A server that refuses `response_format: json_schema` is asked again in JSON mode; one that refuses that
/// too, by a forced tool call whose arguments carry the operations; and the provider remembers.
#[tokio::test]
async fn structured_output_falls_back_to_json_mode_then_to_a_tool_call() {
    let mut fixture = load("01-add-keyword.json");
    let refuse = |what: &str| redline_agent::Reply {
        fail: Some(redline_agent::replay::Failure {
            status: 400,
            message: format!(
                "Invalid parameter: response_format of type '{what}' is not supported with this model."
            ),
            code: Some("invalid_request_error".into()),
            retry_after: None,
        }),
        ..Default::default()
    };
    let operations = fixture.replies[1].patch.take().unwrap();
    fixture.replies[1].tool_call =
        Some(serde_json::json!({"name": "write_operations", "arguments": operations}));
    fixture.replies.insert(1, refuse("json_schema"));
    fixture.replies.insert(2, refuse("json_object"));
    let (result, events, store, id, server) = play(&fixture).await;
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(
        store.head(id).unwrap().document["skills"][0]["keywords"][3],
        "Python"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, TurnEvent::Surface { .. })),
        "previews from the tool call's arguments"
    );
    let requests = server.requests();
    let formats: Vec<Value> = requests
        .iter()
        .map(|r| r["response_format"]["type"].clone())
        .collect();
    assert_eq!(
        formats,
        [
            Value::Null,
            "json_schema".into(),
            "json_object".into(),
            Value::Null,
            Value::Null
        ]
    );
    assert_eq!(
        requests[3]["tool_choice"]["function"]["name"],
        "write_operations"
    );
}

/// With no resume yet, only `create_resume` is offered: a valid resume becomes a new document (shown at
/// once, revision 1), and later rounds of the turn may change it; an invalid one is refused with its problems.
#[tokio::test]
async fn create_resume_makes_the_first_document_and_refuses_an_invalid_one() {
    let grace = serde_json::json!({"basics": {"name": "Grace Hopper", "label": "Rear Admiral"}});
    let replies: Vec<redline_agent::Reply> = serde_json::from_value(serde_json::json!([
        {"toolCall": {"name": "create_resume", "arguments": {"resume": {"basics": {"name": 7}}}}},
        {"toolCall": {"name": "create_resume", "arguments": {"resume": grace}}},
        {"say": "Created your resume."}
    ]))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let (server, provider) = serve(replies, Pace::default()).await;
    let (outcome, events) =
        first_turn(&mut store, &provider, "I'm Grace Hopper, a Rear Admiral.").await;
    let id = outcome.document_id.expect("a document was created");
    assert_eq!(store.head(id).unwrap().document, grace);
    assert_eq!(outcome.revisions, [1]);
    assert!(
        matches!(&events.iter().find(|e| matches!(e, TurnEvent::Refused { .. })),
        Some(TurnEvent::Refused { reason, .. }) if reason.contains("/basics/name"))
    );
    assert!(events.iter().any(|e| matches!(e, TurnEvent::Surface { update: SurfaceUpdate::Create(c) } if c.document == grace)));
    let requests = server.requests();
    assert_eq!(requests[0]["tools"][0]["function"]["name"], "create_resume");
    assert_eq!(
        requests[2]["tools"][0]["function"]["name"], "patch_resume",
        "once it exists, it is patched"
    );
    assert_eq!(
        said(&store, id),
        ["I'm Grace Hopper, a Rear Admiral.", "Created your resume."]
    );
}

/// Fixture 23's requests: the cut round was asked again without streaming, the patch model streamed, and
/// the provider remembered for the last round.
#[tokio::test]
async fn a_server_that_cannot_stream_tool_rounds_is_asked_without_streaming() {
    let fixture = load("23-tools-without-streaming.json");
    let (result, _, store, id, server) = play(&fixture).await;
    assert!(result.is_ok(), "{result:?}");
    let streamed: Vec<bool> = server
        .requests()
        .iter()
        .map(|r| r["stream"] == Value::Bool(true))
        .collect();
    assert_eq!(streamed, [true, false, true, false]);
    assert_eq!(store.head(id).unwrap().number, 2);
}

/// `create_resume` passes the limits a patch does: a resume nested past the depth limit, or with a string
/// past the length limit, is refused in words and no document is made.
#[tokio::test]
async fn create_resume_is_held_to_the_limits_of_a_patch() {
    let mut deep = serde_json::json!("x");
    for _ in 0..100 {
        deep = serde_json::json!([deep]);
    }
    let replies: Vec<redline_agent::Reply> = serde_json::from_value(serde_json::json!([
        {"toolCall": {"name": "create_resume", "arguments": {"resume": {"basics": {"name": "Grace", "x": deep}}}}},
        {"toolCall": {"name": "create_resume", "arguments": {"resume": {"basics": {"name": "Grace", "summary": "y".repeat(9000)}}}}},
        {"say": "I could not."}
    ]))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let (_server, provider) = serve(
        replies,
        Pace {
            chunk: 4096,
            delay: Duration::ZERO,
        },
    )
    .await;
    let (outcome, events) = first_turn(&mut store, &provider, "I'm Grace.").await;
    assert_eq!(outcome.document_id, None);
    assert!(store.list().unwrap().is_empty(), "no document was made");
    let reasons: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::Refused { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].contains("levels deep"), "{}", reasons[0]);
    assert!(reasons[1].contains("characters long"), "{}", reasons[1]);
}

/// The answers that once crashed the process — a value nested 200 levels deep, thirty copies of a part of
/// the resume into itself, copies that double a part in two steps, a tool call numbered 4,000,000,000, an
/// endless string — each end in a refusal with the resume untouched, under a 1 GB address-space limit. The
/// test runs itself again in a child process under `ulimit -v`, so that running out of memory would show
/// as a signal rather than take the test runner down.
#[tokio::test]
async fn hostile_answers_end_in_refusals_under_a_one_gigabyte_limit() {
    if std::env::var_os("REDLINE_UNDER_LIMIT").is_none() {
        if cfg!(not(unix)) {
            return;
        }
        let exe = std::env::current_exe().unwrap();
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"ulimit -v 1048576 && exec "$0" --exact hostile_answers_end_in_refusals_under_a_one_gigabyte_limit --nocapture"#)
            .arg(exe)
            .env("REDLINE_UNDER_LIMIT", "1")
            .env("MALLOC_ARENA_MAX", "2")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&status.stdout);
        assert!(
            status.status.success() && said.contains("1 passed"),
            "the child ended with {:?}: {said}{}",
            status.status,
            String::from_utf8_lossy(&status.stderr)
        );
        return;
    }
    let mut deep = String::new();
    for _ in 0..200 {
        deep.push('[');
    }
    let deep = format!(r#"{{"operations":[{{"op":"add","path":"/basics/x","value":{deep}"#);
    let into_itself: Vec<Value> = (0..30)
        .map(
            |i| serde_json::json!({"op": "copy", "from": "/work", "path": format!("/work/0/c{i}")}),
        )
        .collect();
    let mut doubling =
        vec![serde_json::json!({"op": "copy", "from": "/work", "path": "/basics/a"})];
    for i in 0..30 {
        doubling.push(
            serde_json::json!({"op": "copy", "from": "/basics/a", "path": format!("/basics/b{i}")}),
        );
        doubling.push(serde_json::json!({"op": "copy", "from": format!("/basics/b{i}"), "path": "/basics/a/-"}));
    }
    let endless = format!(
        r#"{{"operations":[{{"op":"replace","path":"/basics/summary","value":"{}"#,
        "a".repeat(8 << 20)
    );
    let patch = |reply: Value| {
        serde_json::json!([
            {"toolCall": {"name": "patch_resume", "arguments": {"changes": "x"}}},
            reply, reply,
            {"say": "Done."}
        ])
    };
    let cases = [
        patch(serde_json::json!({"raw": deep})),
        patch(serde_json::json!({"patch": {"operations": into_itself}})),
        patch(serde_json::json!({"patch": {"operations": doubling}})),
        patch(serde_json::json!({"raw": endless})),
        serde_json::json!([{"toolIndex": 4_000_000_000u64, "toolCall": {"name": "patch_resume", "arguments": {"changes": "x"}}}]),
    ];
    for (n, replies) in cases.into_iter().enumerate() {
        let replies: Vec<redline_agent::Reply> = serde_json::from_value(replies).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let id = store.import("Sample", &redline_resume::sample()).unwrap();
        let (_server, provider) = serve(
            replies,
            Pace {
                chunk: 64 << 10,
                delay: Duration::ZERO,
            },
        )
        .await;
        let (result, events) = run_turn(
            &mut store,
            Some(id),
            &provider,
            CancellationToken::new(),
            Duration::from_secs(30),
            "Change it.",
        )
        .await;
        let refused = events
            .iter()
            .any(|e| matches!(e, TurnEvent::Refused { .. }));
        assert!(
            refused || result.is_err(),
            "case {n}: neither refused nor an error"
        );
        assert_eq!(
            store.head(id).unwrap().number,
            1,
            "case {n}: nothing was committed"
        );
        assert_eq!(
            store.head(id).unwrap().document,
            redline_resume::sample(),
            "case {n}"
        );
    }
}

/// A refusal is told briefly, whatever the model sent: pointers of 100,000 characters, one written at (a
/// limit refuses it and quotes its start) and one tested (the failed test quoted it whole). Before, the
/// refusal quoted each whole: 100 KB in the chat, in the audit log and in the patch model's next request.
#[tokio::test]
async fn a_refusal_is_told_briefly_whatever_the_model_sent() {
    let mut fixture = load("08-protected-meta.json");
    let long = |root: &str, c: &str| format!("{root}/{}", c.repeat(100_000));
    fixture.replies[1].patch = Some(serde_json::json!({"operations": [
        {"op": "replace", "path": long("/basics", "b"), "value": "v2"}]}));
    fixture.replies[2].patch = Some(serde_json::json!({"operations": [
        {"op": "test", "path": long("/work", "9"), "value": 1},
        {"op": "replace", "path": "/basics/label", "value": "v2"}]}));
    let (result, events, store, id, server) = play(&fixture).await;
    assert!(result.is_ok(), "{result:?}");
    let reasons: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::Refused { reason, .. } => Some(reason),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 2, "{events:#?}");
    for reason in &reasons {
        let chars = reason.chars().count();
        assert!(
            chars <= redline_agent::turn::MAX_REASON_CHARS + 1,
            "{chars} characters"
        );
    }
    assert!(
        reasons[0].contains("100008 characters long"),
        "{}",
        reasons[0]
    );
    // The patch model's second request tells it why, briefly; no request carries the pointers back.
    let requests = server.requests();
    assert!(
        requests[2]
            .to_string()
            .contains("Your previous operations were refused"),
        "{}",
        &requests[2].to_string()[..500]
    );
    for request in &requests {
        assert!(
            request.to_string().len() < 100_000,
            "a request of {} bytes",
            request.to_string().len()
        );
    }
    assert_eq!(store.history(id).unwrap().len(), 1, "nothing was written");
}

/// What the planner asks for is a request, not a document: a description of 100,000 characters (or a
/// thousand targets) is refused back to the chat model, never shown in the chat ("Editing: …") nor sent to
/// the patch model. Before, it was both.
#[tokio::test]
async fn a_planner_s_request_too_long_to_be_one_is_refused_to_the_chat_model() {
    for arguments in [
        serde_json::json!({"changes": "x".repeat(100_000)}),
        serde_json::json!({"changes": "Add Python", "targets": vec!["/skills"; 1_000]}),
    ] {
        let mut fixture = load("01-add-keyword.json");
        fixture.replies[0].tool_call.as_mut().unwrap()["arguments"] = arguments;
        fixture.replies.remove(1);
        let (result, events, store, id, server) = play(&fixture).await;
        assert!(result.is_ok(), "{result:?}");
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, TurnEvent::Planning { .. })),
            "shown in the chat"
        );
        let requests = server.requests();
        assert_eq!(
            requests.len(),
            2,
            "the chat model twice, the patch model never"
        );
        let told = requests[1].to_string();
        assert!(
            told.contains("Refused: \\\"changes\\\" is 100000 characters")
                || told.contains("Refused: \\\"targets\\\" names at most 100"),
            "{}",
            &told[told.len().saturating_sub(600)..]
        );
        assert_eq!(store.history(id).unwrap().len(), 1, "nothing was written");
    }
}

/// The job the model adds in [`link_turn`], with a site no resume or user message has had.
fn evil_corp() -> Value {
    serde_json::json!({"name": "Evil Corp", "url": "https://evil.example/x", "startDate": "2011-01-01"})
}

/// A turn of `message` on document `id` (quoting a file or not; review mode off) in which the model adds
/// [`evil_corp`] to the work entries: what it did.
async fn link_turn(store: &mut Store, id: i64, message: &str, quotes_file: bool) -> TurnOutcome {
    let replies = serde_json::from_value(serde_json::json!([
        {"toolCall": {"name": "patch_resume", "arguments": {"changes": "Add the job at Evil Corp with its site", "targets": ["/work"]}}},
        {"patch": {"operations": [{"op": "add", "path": "/work/-", "value": evil_corp()}]}},
        {"say": "Done."}
    ]))
    .unwrap();
    let (_server, provider) = serve(replies, Pace::default()).await;
    let mut surface = Surface::new("main");
    Turn {
        store,
        document_id: Some(id),
        provider: &provider,
        surface: &mut surface,
        policy: Policy::default(),
        selected: None,
        cancel: CancellationToken::new(),
        stall: Duration::from_secs(5),
        job: None,
        review: false,
        quotes_file,
        checks: None,
    }
    .run(message, &mut |_| {})
    .await
    .unwrap()
}

/// A link in a file's text (the ask that tidies an import quotes it) is never one the user gave: an edit
/// that writes it waits for the user, in that turn and in later ones. The same link in the user's own
/// message is theirs, and the edit is applied.
#[tokio::test]
async fn a_link_planted_in_a_quoted_file_waits_for_the_user() {
    let ask = "Tidy the resume I just imported from cv.pdf (PDF). Use only what the file says.\n\n\
               The file's text:\nEvil Corp, https://evil.example/x, 2011";
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let id = store.import("Sample", &redline_resume::sample()).unwrap();
    let tidied = link_turn(&mut store, id, ask, true).await;
    assert!(tidied.revisions.is_empty(), "nothing applied");
    assert_eq!(tidied.held.len(), 1);
    assert_eq!(tidied.held[0].why, [redline_patch::Hold::NewLink]);
    // The ask stays in the conversation, marked as quoting the file, and is not what the user said.
    let kept = &store.messages(id).unwrap()[0];
    assert!(kept.quotes_file && kept.content == ask);
    assert!(!store.said_by_user(id).unwrap().contains("evil.example"));
    // A later message of the user's own does not make the file's link theirs.
    let later = link_turn(&mut store, id, "Add my job at Evil Corp", false).await;
    assert!(later.revisions.is_empty(), "nothing applied");
    assert_eq!(later.held[0].why, [redline_patch::Hold::NewLink]);
    assert_eq!(store.head(id).unwrap().number, 1);

    // The same words as the user's own message: the link is one they gave.
    let other = store.import("Sample", &redline_resume::sample()).unwrap();
    let given = link_turn(&mut store, other, ask, false).await;
    assert_eq!(given.revisions, [2]);
    assert!(given.held.is_empty());
    assert_eq!(
        store.head(other).unwrap().document["work"]
            .as_array()
            .unwrap()
            .last(),
        Some(&evil_corp())
    );
}

/// A provider of the replay server `server` whose first token may take `secs` seconds.
fn impatient(server: &ReplayServer, secs: u64) -> Provider {
    let mut config = ProviderConfig::new(Some(server.base_url()), None);
    config.first_token_timeout = Duration::from_secs(secs);
    config.idle_timeout = Duration::from_secs(secs);
    Provider::new(config)
}

/// The patch model adding `word` to the sample's first skill.
fn adds_keyword(word: &str) -> Value {
    serde_json::json!({"patch": {"operations": [{"op": "add", "path": "/skills/0/keywords/-", "value": word}]}})
}

/// A round with tools that gives nothing before the first-token timeout (as a small model on llama.cpp's
/// server does when offered tools): the same ask goes on by the one-model path, said in a status line, and
/// commits; the provider keeps the finding, so the next turn starts on that path and is not offered tools.
#[tokio::test]
async fn a_tool_round_that_stalls_goes_on_by_the_one_model_path_and_stays_on_it() {
    let replies: Vec<redline_agent::Reply> = serde_json::from_value(serde_json::json!([
        {"say": "Let me see", "stallAfter": 0, "stallMs": 5000},
        adds_keyword("Python"),
        adds_keyword("Rust"),
    ]))
    .unwrap();
    let server = ReplayServer::start(replies, Pace::default()).await.unwrap();
    let provider = impatient(&server, 1);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let id = store.import("Sample", &redline_resume::sample()).unwrap();
    let stall = Duration::from_secs(2);
    let message = "Add Python to my skills.";
    let (result, events) = run_turn(
        &mut store,
        Some(id),
        &provider,
        CancellationToken::new(),
        stall,
        message,
    )
    .await;
    let outcome = result.unwrap();
    assert_eq!(outcome.revisions, [2], "{events:?}");
    assert!(
        events.iter().any(|e| matches!(e, TurnEvent::Status { text }
            if text.contains("nothing in 1 s") && text.contains("without them"))),
        "{events:?}"
    );
    assert!(!provider.calls_tools(), "the finding is kept");
    let asked = server.requests();
    assert!(asked[0]["tools"].is_array(), "first offered tools");
    assert!(asked[1].get("tools").is_none() && asked[1]["response_format"].is_object());
    let keywords =
        |store: &Store| store.head(id).unwrap().document["skills"][0]["keywords"].clone();
    assert_eq!(keywords(&store)[3], "Python");

    // The next turn starts on the one-model path: its one request goes to the patch model.
    let (result, _) = run_turn(
        &mut store,
        Some(id),
        &provider,
        CancellationToken::new(),
        stall,
        "Add Rust to my skills.",
    )
    .await;
    assert_eq!(result.unwrap().revisions, [3]);
    let asked = server.requests();
    assert_eq!(asked.len(), 3, "{asked:#?}");
    assert!(asked[2].get("tools").is_none());
    assert_eq!(keywords(&store)[4], "Rust");
}

/// A server that answers neither with tools nor without them: the server is what failed. The turn ends in
/// the timeout's words with the resume unchanged, and nothing is kept: the next turn is offered tools again.
#[tokio::test]
async fn a_server_that_stalls_either_way_ends_in_words_and_keeps_the_tool_path() {
    let stalls = serde_json::json!({"say": "…", "stallAfter": 0, "stallMs": 5000});
    let replies: Vec<redline_agent::Reply> =
        serde_json::from_value(serde_json::json!([stalls, stalls])).unwrap();
    let server = ReplayServer::start(replies, Pace::default()).await.unwrap();
    let provider = impatient(&server, 1);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let id = store.import("Sample", &redline_resume::sample()).unwrap();
    let (result, _) = run_turn(
        &mut store,
        Some(id),
        &provider,
        CancellationToken::new(),
        Duration::from_secs(2),
        "Add Python to my skills.",
    )
    .await;
    let Err(error) = result else {
        panic!("the turn ended well against a server that never answers");
    };
    assert_eq!(
        error.to_string(),
        "the model did not answer within 1 seconds"
    );
    assert_eq!(store.head(id).unwrap().number, 1);
    assert!(
        provider.calls_tools(),
        "nothing was learned from a dead server"
    );
}
