//! End to end: the real built app, in a real window under a (virtual) display, driven over WebDriver
//! through tauri-driver and WebKitWebDriver.
//!
//! It needs what `scripts/test.sh` sets up: the app built with its UI embedded (`REDLINE_E2E_APP` names the
//! binary), `tauri-driver` and `WebKitWebDriver` on the PATH, and a display (`xvfb-run`). So it is ignored by
//! a plain `cargo test`; run it with `scripts/test.sh`, or by hand:
//! `REDLINE_E2E_APP=target/debug/redline-app xvfb-run -a cargo test --test e2e -- --ignored`.

// A test (or benchmark) may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

//! The window's benchmarks (memory, the Page view, chunk to pixel) are in `benches/window.rs`.

#[path = "../crates/import/tests/hostile/files.rs"]
mod hostile_files;
mod window;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::json;
use window::*;

/// Ends the window's session, then stops tauri-driver and with it the app: what a test does last with its
/// window (or before it starts the app again on the same data folder).
async fn quit(client: Client, driver: Driver) {
    client.close().await.ok();
    drop(driver);
}

#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn the_window_shows_the_sample_resume_on_first_start() {
    let (data_dir, driver, client) = open_window(&UNCONFIGURED).await;

    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    assert_eq!(text_of(&client, "work-0-title").await, "CEO/President");
    assert_eq!(text_of(&client, "work-0-subtitle").await, "Pied Piper");
    // The chat pane is there, ready for a message.
    client
        .find(Locator::Css("[data-testid='chat-input']"))
        .await
        .expect("the chat input is shown");
    let send = client
        .find(Locator::Css("[data-testid='chat-send']"))
        .await
        .unwrap();
    assert_eq!(send.text().await.unwrap(), "Send");
    // Nothing is configured: the chat offers the ways on (a local server, a service, the demo).
    // The first start starts: the user's own resume is one click away, the model a step for later.
    let setup = wait_for_text(&client, "first-run", |t| t.contains("Try the demo")).await;
    assert!(setup.contains("Start with your resume"), "{setup}");
    for choice in ["first-run-import", "first-run-blank", "first-run-sample"] {
        element(&client, choice).await;
    }
    screenshot(&client, "first-start.png").await;
    // The frame as the real window draws it: the toolbar one row, no control over another or out of the
    // window (the audit's check, run here in WebKitGTK).
    let frame = run_js(
        &client,
        // In parentheses: the script opens with comments, and a `return` alone on its line returns nothing.
        &format!(
            "return (\n{}\n);",
            include_str!("../ui/audit/frame-problems.js")
        ),
    )
    .await;
    assert_eq!(frame["problems"], json!([]), "{frame}");
    assert!(frame["checked"].as_u64().unwrap() > 10, "{frame}");
    frame_at_sizes(&client, "first-start").await;
    // The command palette: Ctrl+K, every action of the toolbar and its menu, Escape closes it.
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys(&format!("{}k", fantoccini::key::Key::Control))
        .await
        .unwrap();
    let actions = all(&client, "command-palette-item").await;
    assert!(actions.len() >= 10, "{} actions", actions.len());
    screenshot(&client, "command-palette.png").await;
    frame_at_sizes(&client, "command-palette").await;
    client
        .find(Locator::Css("[data-testid='command-palette-input']"))
        .await
        .unwrap()
        .send_keys(&fantoccini::key::Key::Escape.to_string())
        .await
        .unwrap();
    gone(&client, "command-palette").await;
    // The resume's pane scrolls with the scrollbar the page draws, which takes its 12 px beside the text, not
    // GTK's overlay one (0 px), which repaints the pane's edge many times a second under a resting pointer.
    let scrollbar = run_js(
        &client,
        "const pane = document.querySelector('.document'); \
             return [document.documentElement.dataset.scrollbars ?? null, \
                     pane.scrollHeight > pane.clientHeight, pane.offsetWidth - pane.clientWidth];",
    )
    .await;
    assert_eq!(scrollbar, json!(["page", true, 12]));
    quit(client, driver).await;

    // The app created its database in the data folder it was given, and nowhere else.
    assert!(data_dir.path().join("redline.db").exists());
}

/// A link in the resume opens in the system's browser, never in the window; and nothing, not even a script
/// setting `location`, takes the window away from the app.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_link_in_the_resume_never_takes_the_window_away() {
    // The "system browser" of this test does nothing.
    let (_data_dir, _driver, client) = open_window(&[("BROWSER", "true")]).await;
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    let app = client.current_url().await.unwrap();
    let link = element(&client, "basics-url")
        .await
        .find(Locator::Css("a"))
        .await
        .expect("the web site is a link");
    link.click().await.unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(client.current_url().await.unwrap(), app);
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    run_js(
        &client,
        "window.location.href = 'https://evil.example/'; return true;",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(client.current_url().await.unwrap(), app);
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    client.close().await.ok();
}

#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn the_demo_edits_the_resume_live_in_the_window() {
    let (data_dir, driver, client) = open_window(&[]).await;
    let before = text_of(&client, "basics-summary").await;
    assert!(before.starts_with("Richard hails from Tulsa. He has earned degrees"));
    client
        .find(Locator::Css("[data-testid='chat-demo']"))
        .await
        .expect("the demo button is shown")
        .click()
        .await
        .unwrap();
    // The summary types itself: seen part-way, then whole.
    let partial = wait_for_text(&client, "basics-summary", |t| {
        t.starts_with("Richard hails from Tulsa and")
            || t.starts_with("R") && t.len() < before.len() / 2
    })
    .await;
    let whole = wait_for_text(&client, "basics-summary", |t| {
        t.ends_with("building it into a company.")
    })
    .await;
    assert!(partial.len() <= whole.len());
    assert_eq!(text_of(&client, "skills-0-keyword-3").await, "Rust");
    assert!(
        chat_says(&client, "Saved as revision 2.").await,
        "the chat says the change was saved"
    );
    // Screen readers hear the finished reply once (the conversation is not a live region).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let said = run_js(
            &client,
            "return document.querySelector('[data-testid=chat-announcement]').textContent",
        )
        .await;
        if said
            .as_str()
            .is_some_and(|t| t.contains("Saved as revision 2.") && t.contains("Done"))
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the finished turn was not announced: {said}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // For the picture: back to the top, where the new summary is still highlighted.
    run_js(
        &client,
        "document.querySelector('.document')?.scrollTo(0, 0); window.scrollTo(0, 0)",
    )
    .await;
    screenshot_after(&client, 600, "demo.png").await;
    frame_at_sizes(&client, "demo").await;
    quit(client, driver).await;

    // What the window showed is what the store holds — in the demo's own copy, which is not the resume the
    // next start opens.
    let store = redline_store::Store::open(data_dir.path()).unwrap();
    let demo = store
        .list()
        .unwrap()
        .into_iter()
        .find(|d| d.title == "Redline demo")
        .unwrap();
    assert_ne!(store.current().unwrap().id, demo.id);
    assert_eq!(
        store.head(demo.id).unwrap().document["skills"][0]["keywords"][3],
        "Rust"
    );
}

/// A model's answer that also changes something the user did not ask for: the window shows it, applies
/// nothing until the user says so, and then saves it as a revision of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn an_edit_outside_the_request_waits_for_the_user_in_the_window() {
    let fixture = fixture("16-out-of-scope-held.json");
    // A local OpenAI-compatible server, as Ollama would be: the app needs no key for it.
    let (_server, config) = redline_agent::fixtures::replay(&fixture, Duration::from_millis(5))
        .await
        .unwrap();
    let (data_dir, driver, client) = open_window(&[
        ("REDLINE_BASE_URL", &config.base_url),
        ("OPENAI_API_KEY", ""),
    ])
    .await;
    let label = text_of(&client, "basics-label").await;
    let input = element(&client, "chat-input").await;
    input.send_keys(&fixture.message).await.unwrap();
    click_now(&client, Locator::Css("[data-testid='chat-send']")).await;
    let apply = element(&client, "held-apply").await;
    let offered = client
        .find(Locator::XPath("//li[contains(., 'Change your title to')]"))
        .await;
    assert!(offered.is_ok(), "the held edit is described in words");
    // The asked-for edit is saved; the other is not applied.
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert_eq!(text_of(&client, "basics-label").await, label);
    // Before it is accepted, the card says what the writing checks would find in it.
    wait_for_text(&client, "held-findings-0", |t| {
        t.contains("“Pythonista”") && t.contains("not in the English dictionary")
    })
    .await;
    screenshot(&client, "held.png").await;
    frame_at_sizes(&client, "held").await;
    apply.click().await.unwrap();
    wait_for_text(&client, "basics-label", |t| t == "Pythonista").await;
    assert!(
        chat_says(&client, "Saved as revision 3.").await,
        "the chat says the confirmed edit was saved"
    );
    quit(client, driver).await;

    let store = redline_store::Store::open(data_dir.path()).unwrap();
    let doc = store.current().unwrap();
    let history = store.history(doc.id).unwrap();
    assert_eq!(history.len(), 3);
    assert!(history[2].summary.starts_with("Confirmed"), "{history:?}");
    assert_eq!(
        store.head(doc.id).unwrap().document["basics"]["label"],
        "Pythonista"
    );
}

/// Settings in the real window: pointed at a server on this computer (the replay server standing in for
/// Ollama), the connection test lists its models and both answer; saved, a turn then works with no key
/// and no environment variable; and a key the server refuses shows "Replace key" in the chat.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn settings_point_the_app_at_a_model_server() {
    let fixture = fixture("01-add-keyword.json");
    // The connection test: the chat model, the patch model, and whether the chat model plans an edit with
    // tools (it names a target in the test's resume: it does).
    let mut replies: Vec<redline_agent::Reply> = serde_json::from_value(json!([
        {"say": "OK"},
        {"patch": {"operations": []}},
        {"toolCall": {"name": "patch_resume", "arguments": {"changes": "Add Python", "targets": ["/skills/0/keywords"]}}}
    ]))
    .unwrap();
    replies.extend(fixture.replies.clone());
    replies.push(
        serde_json::from_value(
            json!({"fail": {"status": 401, "message": "Incorrect API key provided"}}),
        )
        .unwrap(),
    );
    let server = replay(replies).await;
    let data_dir = tempfile::tempdir().unwrap();
    // Nothing configured: no base URL, no key in the environment.
    let driver = start_unconfigured();
    let client = connect(&driver, data_dir.path()).await;
    click(&client, "open-settings").await;
    element(&client, "settings-dialog").await;
    let preset = element(&client, "settings-preset").await;
    preset.select_by_value("custom").await.unwrap();
    let fill = |testid: &'static str, text: String| {
        let client = client.clone();
        async move {
            let input = element(&client, testid).await;
            input.clear().await.unwrap();
            input.send_keys(&text).await.unwrap();
        }
    };
    fill("settings-base-url", server.base_url()).await;
    fill("settings-chat-model", "replay-chat".into()).await;
    fill("settings-patch-model", "replay-patch".into()).await;
    click(&client, "settings-test").await;
    let report = wait_for_text(&client, "settings-report", |t| t.contains("Patch model")).await;
    assert!(
        report.contains("answers, 2 model(s)")
            && report.contains("Chat model: answers")
            && !report.contains("cannot plan"),
        "{report}"
    );
    screenshot(&client, "settings.png").await;
    frame_at_sizes(&client, "settings").await;
    // Appearance: dark, at once, from the one set of colour variables; then back to the system's (the choice
    // is kept in the webview's storage, which the next tests share).
    let theme = element(&client, "settings-theme").await;
    theme.select_by_value("dark").await.unwrap();
    let dark = run_js(&client, "return [document.documentElement.dataset.theme, getComputedStyle(document.documentElement).backgroundColor]").await;
    assert_eq!(
        dark,
        json!(["dark", "rgb(18, 20, 24)"]),
        "the dark theme's desk colour"
    );
    screenshot_after(&client, 300, "settings-dark.png").await;
    frame_at_sizes(&client, "settings-dark").await;
    theme.select_by_value("system").await.unwrap();
    let system = run_js(
        &client,
        "return document.documentElement.hasAttribute('data-theme')",
    )
    .await;
    assert_eq!(system, json!(false));
    click(&client, "settings-save").await;
    close_now(&client).await;

    send_chat(&client, &fixture.message).await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    // The server now refuses the key: the chat says so and offers to replace it.
    send_chat(&client, "Tighten my summary.").await;
    let action = wait_for_text(&client, "chat-action", |t| !t.is_empty()).await;
    assert_eq!(action.trim(), "Replace key");
    quit(client, driver).await;
    let models: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r["model"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(&models[..3], ["replay-chat", "replay-patch", "replay-chat"]);
}

/// Records every reply the page receives from the app (command results and errors, events) from now on,
/// into `window.__redlineSeen`: Tauri hands each to a callback kept in `__TAURI_INTERNALS__.callbacks`.
const RECORD_IPC: &str = r#"
    const callbacks = window.__TAURI_INTERNALS__.callbacks;
    window.__redlineSeen = [];
    const get = Map.prototype.get;
    callbacks.get = function (id) {
        const callback = get.call(callbacks, id);
        return callback && ((data) => {
            try { window.__redlineSeen.push(JSON.stringify(data)); } catch (e) { window.__redlineSeen.push(String(data)); }
            return callback(data);
        });
    };
    return true;
"#;

/// Every file under `dir`, read whole.
fn files_under(dir: &std::path::Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    found
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The first run in the real window: with nothing configured, the chat pane offers the setup and finds the
/// model server on this computer (the replay server standing in for Ollama, where `OLLAMA_HOST` says); one
/// click chooses it and a turn works. Then a key entered in Settings goes to the OS keychain and reaches the
/// server — and appears nowhere else: not in the data folder (database, journal, backups), not in the app's
/// log, not in any reply the window received.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver, a display and a Secret Service: run scripts/test.sh"]
async fn first_run_finds_a_local_server_and_the_key_stays_in_the_keychain() {
    let fixture = fixture("01-add-keyword.json");
    let mut replies = fixture.replies.clone();
    replies.push(serde_json::from_value(json!({"say": "Hello from the server."})).unwrap());
    let server = replay(replies).await;
    let port = server
        .base_url()
        .split(':')
        .nth(2)
        .unwrap()
        .trim_end_matches("/v1")
        .to_owned();
    let data_dir = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("app.log");
    // Nothing configured; Ollama (the replay server) where OLLAMA_HOST says.
    let driver = start_driver_logged(
        &[
            ("OPENAI_API_KEY", ""),
            ("REDLINE_BASE_URL", ""),
            ("OPENAI_BASE_URL", ""),
            ("OLLAMA_HOST", &format!("127.0.0.1:{port}")),
        ],
        std::fs::File::create(&log).unwrap(),
    );
    let client = connect(&driver, data_dir.path()).await;
    element(&client, "first-run").await;
    assert_eq!(run_js(&client, RECORD_IPC).await, json!(true));
    let found = wait_for_text(&client, "first-run-server", |t| t.contains("Ollama")).await;
    assert!(found.contains("Ollama"), "{found}");
    screenshot(&client, "first-run.png").await;
    frame_at_sizes(&client, "first-run").await;
    click(&client, "first-run-use").await;
    assert!(chat_says(&client, "Redline will use replay-chat on Ollama").await);

    send_chat(&client, &fixture.message).await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    assert_eq!(
        server.keys()[0],
        None,
        "a local server is sent no key unless one is set"
    );

    // A key, entered in Settings, kept in the keychain.
    const KEY: &str = "sk-redline-e2e-7f3a9c1b5d2e8f40";
    click(&client, "open-settings").await;
    element(&client, "settings-key")
        .await
        .send_keys(KEY)
        .await
        .unwrap();
    click(&client, "settings-save-key").await;
    let status = wait_for_text(&client, "settings-status", |t| {
        !t.ends_with('…') && !t.is_empty()
    })
    .await;
    assert_eq!(
        status, "The key is in your keychain.",
        "(is a Secret Service running?)"
    );
    assert!(text_of(&client, "settings-key-state").await.contains("set"));
    close_now(&client).await;
    send_chat(&client, "Say hello.").await;
    assert!(chat_says(&client, "Hello from the server.").await);
    assert_eq!(
        server.keys().last().unwrap().as_deref(),
        Some(KEY),
        "the key reached the server"
    );

    let seen = run_js(&client, "return window.__redlineSeen").await;
    let seen: Vec<String> = serde_json::from_value(seen).unwrap();
    assert!(
        seen.iter().any(|reply| reply.contains("keySet")),
        "the page's replies were not recorded: {seen:?}"
    );
    assert!(
        !seen.iter().any(|reply| reply.contains(KEY)),
        "the key reached the window"
    );
    quit(client, driver).await;

    for (path, bytes) in files_under(data_dir.path())
        .into_iter()
        .chain(files_under(logs.path()))
    {
        assert!(
            !contains(&bytes, KEY.as_bytes()),
            "the key is in {}",
            path.display()
        );
    }
    assert!(
        files_under(data_dir.path())
            .iter()
            .any(|(p, _)| p.ends_with("redline.db")),
        "the search looked in the wrong folder"
    );
    // The log file in the OS's log folder (Help → Open Log Folder) holds no key, prompt, reply or resume.
    let os_logs = PathBuf::from(
        std::env::var_os("XDG_DATA_HOME").expect("scripts/test.sh sets XDG_DATA_HOME"),
    )
    .join("app.redline.desktop/logs");
    let logged = files_under(&os_logs);
    assert!(
        logged.iter().any(|(p, _)| p.ends_with("redline.log")),
        "no log file in {}",
        os_logs.display()
    );
    for (path, bytes) in logged {
        for secret in [
            KEY,
            "Say hello.",
            "Hello from the server.",
            "Richard Hendriks",
            "Pied Piper",
        ] {
            assert!(
                !contains(&bytes, secret.as_bytes()),
                "{secret:?} is in the log {}",
                path.display()
            );
        }
    }
}

/// The editing loop on the user's own resume: a file opened with Redline is imported and shown; a turn
/// edits it; Undo and Redo (buttons and Ctrl+Z) take the edit back and forth; the history lists every
/// revision and restores the AI's; the documents list holds both resumes; and after a restart the same
/// resume is on screen.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn your_own_resume_with_undo_redo_history_and_documents() {
    let fixture = fixture("01-add-keyword.json");
    let server = replay(fixture.replies.clone()).await;
    let files = tempfile::tempdir().unwrap();
    let mut ada = sample_as("Ada Lovelace");
    ada["basics"]["label"] = json!("Analyst");
    let file = write_resume(files.path(), "ada.resume.json", &ada);
    let data_dir = tempfile::tempdir().unwrap();
    let url = server.base_url();
    let env = replay_env(&url);
    let driver = start_driver_with(&env);
    let client = connect_with(&driver, data_dir.path(), &[&file]).await;
    wait_for_text(&client, "basics-name", |t| t == "Ada Lovelace").await;
    wait_for_text(&client, "document-title", |t| t.contains("Ada Lovelace")).await;

    // A turn edits it; Undo takes the edit back, Redo applies it again, Ctrl+Z undoes it again.
    send_chat(&client, &fixture.message).await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    press(&client, "Undo").await;
    gone(&client, "skills-0-keyword-3").await;
    press(&client, "Redo").await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    // Ctrl+Z, as the page receives it outside a text field.
    run_js(&client, "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'z', ctrlKey: true, bubbles: true}))").await;
    gone(&client, "skills-0-keyword-3").await;

    // The history: newest first, in words; the first revision restored.
    press(&client, "History").await;
    let rows = all(&client, "history-row").await;
    assert_eq!(rows.len(), 5, "import, AI, undo, redo, undo");
    // (The source is shown in capitals.)
    let newest = rows[0].text().await.unwrap().to_lowercase();
    assert!(
        newest.contains("undo") && newest.contains("undid revision 2"),
        "{newest}"
    );
    let ai = rows[3].text().await.unwrap().to_lowercase();
    assert!(ai.contains("ai") && ai.contains("python"), "{ai}");
    rows[3].click().await.unwrap();
    wait_for_text(&client, "history-changes", |t| t.contains("Python")).await;
    // (For the picture only: WebKit paints the selection a moment after the DOM has it.)
    screenshot_after(&client, 500, "history.png").await;
    frame_at_sizes(&client, "history").await;
    rows[4].click().await.unwrap();
    wait_for_text(&client, "history-changes", |t| t.contains("first saved")).await;
    // Revision 2 (the AI's edit, undone since) is made the resume again.
    rows[3].click().await.unwrap();
    wait_for_text(&client, "history-changes", |t| t.contains("Python")).await;
    press(&client, "Restore").await;
    wait_for_text(&client, "history-row", |t| {
        t.contains("Restored revision 2")
    })
    .await;
    // A search finds revisions by their words, in any case: the AI's edit alone.
    element(&client, "history-search")
        .await
        .send_keys("PYTHON")
        .await
        .unwrap();
    let mut found = Vec::new();
    for _ in 0..100 {
        found = client
            .find_all(Locator::Css("[data-testid='history-row']"))
            .await
            .unwrap();
        if found.len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(found.len(), 1, "one revision has “python” in its words");
    let only = found[0].text().await.unwrap().to_lowercase();
    assert!(only.contains("python"), "{only}");
    press(&client, "Close").await;
    gone(&client, "history-dialog").await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;

    // A click selects a field: the chat says the next message is about it; ✕ clears it.
    click_now(
        &client,
        Locator::Css("[data-testid='work-0-summary'] .editable"),
    )
    .await;
    let about = wait_for_text(&client, "chat-selection", |t| !t.is_empty()).await;
    assert!(about.contains("About the selected summary"), "{about}");
    press(&client, "Clear the selection").await;
    gone(&client, "chat-selection").await;

    // A field edited by hand is a revision of the user's own. (The Edit button shows on hover; a script
    // presses it, as the mouse would.)
    run_js(
        &client,
        "document.querySelector('[aria-label=\"Edit headline\"]').click()",
    )
    .await;
    // The old text is selected when the box opens: typing replaces it.
    let input = element(&client, "editing").await;
    input.send_keys("Engineer\u{E007}").await.unwrap();
    wait_for_text(&client, "basics-label", |t| t == "Engineer").await;
    press(&client, "History").await;
    let newest = wait_for_text(&client, "history-row", |t| t.contains("Engineer")).await;
    assert!(newest.to_lowercase().contains("you"), "{newest}");
    press(&client, "Close").await;
    gone(&client, "history-dialog").await;

    // Both resumes are in the documents list; the sample is opened and then Ada again.
    press(&client, "Documents").await;
    let rows = all(&client, "documents-row").await;
    assert_eq!(rows.len(), 2);
    screenshot(&client, "documents.png").await;
    frame_at_sizes(&client, "documents").await;
    press(&client, "Open Richard Hendriks — Programmer").await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    press(&client, "Open Ada Lovelace — Analyst").await;
    wait_for_text(&client, "basics-name", |t| t == "Ada Lovelace").await;
    quit(client, driver).await;

    // A restart opens the same resume.
    let driver = start_driver_with(&env);
    let client = connect(&driver, data_dir.path()).await;
    wait_for_text(&client, "basics-name", |t| t == "Ada Lovelace").await;
    quit(client, driver).await;
}

/// Tailor to a job in the real window: the pasted posting makes a copy of the resume (the master stays),
/// and the report says which of the posting's terms the copy has.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn tailoring_to_a_job_makes_a_copy_and_reports_its_terms() {
    let (_data_dir, driver, client) = open_on_the_sample().await;
    press(&client, "Tailor to a job…").await;
    let posting = element(&client, "tailor-posting").await;
    // Two lines, as a pasted posting has (Enter between them).
    posting.send_keys("Compression Engineer").await.unwrap();
    posting.send_keys("\u{E007}").await.unwrap();
    posting
        .send_keys("We need Javascript, Kubernetes and Kubernetes operators.")
        .await
        .unwrap();
    press(&client, "Make a tailored copy").await;
    let missing = wait_for_text(&client, "tailor-missing", |t| !t.is_empty()).await;
    assert!(missing.contains("kubernetes"), "{missing}");
    let found = text_of(&client, "tailor-found").await;
    assert!(found.contains("javascript"), "{found}");
    screenshot_after(&client, 300, "tailor.png").await;
    frame_at_sizes(&client, "tailor").await;
    press(&client, "Close").await;
    let title = wait_for_text(&client, "document-title", |t| {
        t.contains("Compression Engineer")
    })
    .await;
    assert!(
        title.starts_with("Richard Hendriks — Programmer — for"),
        "{title}"
    );
    press(&client, "Documents").await;
    let rows = all(&client, "documents-row").await;
    assert_eq!(rows.len(), 2, "the master and its tailored copy");
    quit(client, driver).await;
}

/// A cover letter in the real window: "Write a cover letter…" under More takes a pasted posting; the letter
/// opens and the model's draft streams into it (the replay server standing in for the model), and it is
/// saved as a revision of the letter, titled for the job.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_cover_letter_is_written_into_the_window() {
    let written = fixture("letters/01-letter-written.json");
    let server = replay(written.replies.clone()).await;
    let url = server.base_url();
    let (_data_dir, driver, client) = open_window(&replay_env(&url)).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    click(&client, "more-menu").await;
    click(&client, "menu-letter").await;
    let posting = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/agent/fixtures/letters/posting.txt"),
    )
    .unwrap();
    // Pasted: the text set at once, as a paste does, then the input event Svelte listens for.
    element(&client, "letter-posting").await;
    run_js(
        &client,
        &format!(
            "const t = document.querySelector(\"[data-testid='letter-posting']\"); t.value = {}; \
             t.dispatchEvent(new Event('input', {{bubbles: true}}));",
            serde_json::to_string(&posting).unwrap()
        ),
    )
    .await;
    click(&client, "letter-write").await;
    wait_for_text(&client, "letter-company", |t| t == "Hooli").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    assert_eq!(all(&client, "letter-paragraph").await.len(), 4);
    let title = wait_for_text(&client, "document-title", |t| t.starts_with("Letter — ")).await;
    assert!(
        title.contains("Hooli") || title.contains("Compression"),
        "{title}"
    );
    screenshot_after(&client, 300, "letter.png").await;
    frame_at_sizes(&client, "letter").await;
    quit(client, driver).await;
}

/// From a posting in one step, in the window: "Tailor to a job", then "Copy, letter and application": the
/// tailored copy, its letter drafted into the window, and the application on the board pinning both. The
/// card's "PDF again" makes the letter sent into Downloads: the same bytes as `redline apply sent` makes
/// from the same data folder.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_posting_becomes_a_copy_a_letter_and_an_application_in_the_window() {
    let written = fixture("letters/01-letter-written.json");
    let server = replay(written.replies.clone()).await;
    let url = server.base_url();
    let (data_dir, driver, client) = open_window(&replay_env(&url)).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    click(&client, "open-tailor").await;
    let posting = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/agent/fixtures/letters/posting.txt"),
    )
    .unwrap();
    element(&client, "tailor-posting").await;
    run_js(
        &client,
        &format!(
            "const t = document.querySelector(\"[data-testid='tailor-posting']\"); t.value = {}; \
             t.dispatchEvent(new Event('input', {{bubbles: true}}));",
            serde_json::to_string(&posting).unwrap()
        ),
    )
    .await;
    click(&client, "tailor-apply").await;
    wait_for_text(&client, "letter-company", |t| t == "Hooli").await;
    assert!(chat_says(&client, "Recorded your application to Hooli").await);
    assert_eq!(all(&client, "letter-paragraph").await.len(), 4);

    run_js(
        &client,
        "document.querySelector(\"[data-testid='place-applications'] [data-testid='place-item']\").click();",
    )
    .await;
    let card = wait_for_text(&client, "application-card", |t| t.contains("Hooli")).await;
    assert!(card.contains("Letter sent: revision 2"), "{card}");
    assert!(card.contains("Resume sent: revision 1"), "{card}");
    click(&client, "remake-letter").await;
    let saved = wait_for_text(&client, "applications-saved", |t| {
        t.starts_with("Saved to ")
    })
    .await;
    let window_pdf = PathBuf::from(saved.trim_start_matches("Saved to "));
    let made = std::fs::read(&window_pdf).unwrap();
    let _ = std::fs::remove_file(&window_pdf);
    screenshot_after(&client, 300, "applications.png").await;
    frame_at_sizes(&client, "applications").await;
    quit(client, driver).await;

    let cli_pdf = data_dir.path().join("sent.pdf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("--data-dir")
        .arg(data_dir.path())
        .args(["apply", "sent", "1", "letter", "--format", "pdf", "-o"])
        .arg(&cli_pdf)
        .env_remove("REDLINE_DATA_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(made.starts_with(b"%PDF"));
    assert_eq!(
        made,
        std::fs::read(&cli_pdf).unwrap(),
        "the window's PDF is the command line's"
    );
}

/// The resume in its own language: German headings and dates from the toolbar's language menu, a heading
/// renamed for this resume, Arabic laid out right to left; the export dialog (a native modal dialog that
/// takes focus and closes with Escape) reads the PDF back as an applicant tracking system would; the Page
/// view shows the pages Typst draws, on either paper.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn the_resume_in_its_language_and_read_back_as_an_ats_would() {
    let (_data_dir, driver, client) = open_on_the_sample().await;
    let heading = |section: &'static str| {
        // The heading's own text (its rename control is inside it).
        format!(
            "return Array.from(document.querySelector(\"[data-testid='section-{section}'] h2\").childNodes)\
             .filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();"
        )
    };
    let script = |js: String| {
        let client = client.clone();
        async move { client.execute(&js, vec![]).await.unwrap() }
    };

    choose(&client, "resume-language", "de").await;
    until_script(
        &client,
        &heading("work"),
        json!("Berufserfahrung"),
        "the headings never turned German",
    )
    .await;
    let job = text_of(&client, "work-0").await;
    assert!(job.contains("Dez. 2013"), "{job}");
    assert_eq!(
        script("return document.querySelector(\"[data-testid='resume']\").lang;".into()).await,
        json!("de")
    );

    // Renamed for this resume (the control shows on hover or focus: clicked as a keyboard user would).
    script(
        "document.querySelector(\"[data-testid='rename-skills']\").click(); return true;".into(),
    )
    .await;
    let input = element(&client, "rename-heading-skills").await;
    // Ctrl+A, the new name, Enter (WebDriver's clear would blur the field, which saves it as it is).
    input
        .send_keys("\u{E009}a\u{E009}Werkzeuge\u{E007}")
        .await
        .unwrap();
    until_script(
        &client,
        &heading("skills"),
        json!("Werkzeuge"),
        "the heading was never renamed",
    )
    .await;
    // German's long words: the frame still holds at both sizes (nothing overlaps, wraps alone or leaves).
    frame_at_sizes(&client, "german").await;

    // The export dialog: focus moves in; the PDF reads back whole; Escape closes it.
    press(&client, "Export…").await;
    element(&client, "export-dialog").await;
    assert_eq!(
        script("return !!document.activeElement.closest(\"dialog[open]\");".into()).await,
        json!(true),
        "focus is in the dialog"
    );
    click(&client, "ats-check").await;
    let said = wait_for_text(&client, "ats-status", |t| {
        t.contains("reads back") || t.contains("not read") || t.contains("failed")
    })
    .await;
    assert!(said.contains("Every field reads back, in order"), "{said}");
    let read =
        script("return document.querySelector(\"[data-testid='ats-read']\").textContent;".into())
            .await;
    assert!(read.as_str().unwrap().contains("Werkzeuge"), "{read}");
    client
        .active_element()
        .await
        .unwrap()
        .send_keys("\u{E00C}")
        .await
        .unwrap();
    gone(&client, "export-dialog").await;

    // Arabic: right to left.
    choose(&client, "resume-language", "ar").await;
    until_script(
        &client,
        "return document.querySelector(\"[data-testid='resume']\").dir;",
        json!("rtl"),
        "the view never turned right to left",
    )
    .await;
    assert_eq!(script(heading("work")).await, json!("الخبرة العملية"));
    // Each field in its own direction, as WebKit resolves it: the English summary and bullet left to right
    // (the summary's "!" at its end), the phone number too; the headings in the resume's. A short bullet's
    // text starts at its left (WebKit aligns a list item by its list's direction unless told), and it is
    // indented from the left, where its "•" is drawn (the list's own indent is on the right).
    assert_eq!(
        script(
            "const d = (s) => getComputedStyle(document.querySelector(s)).direction; const bullet = document.querySelector(\"[data-testid='work-0-highlight-1']\"); const text = document.createRange(); text.selectNodeContents(bullet); return [d(\"[data-testid='section-work'] h2\"), d(\"[data-testid='section-basics'] .summary\"), d(\"[data-testid='basics-phone']\"), d(\"[data-testid='work-0-highlight-1']\"), Math.round(text.getBoundingClientRect().left - bullet.getBoundingClientRect().left), Math.round(bullet.getBoundingClientRect().left - bullet.parentElement.getBoundingClientRect().left)];"
                .into()
        )
        .await,
        json!(["rtl", "ltr", "ltr", "ltr", 0, 20])
    );
    screenshot_after(&client, 300, "arabic.png").await;
    // A right-to-left resume in the frame, at both sizes.
    frame_at_sizes(&client, "arabic").await;

    // The pages as they will print: Typst's own drawing of the PDF, with the page count.
    click(&client, "toggle-pages").await;
    let count = wait_for_text(&client, "page-count", |t| t.contains("page")).await;
    let pages: usize = count.split(' ').next().unwrap().parse().unwrap();
    until_script(
        &client,
        "return document.querySelectorAll(\"[data-testid='page-view'] img\").length;",
        json!(pages),
        &format!("{count}, but not as many pages shown"),
    )
    .await;
    // The first page drawn as wide as it is shown (at most 1.5 pixels a point), in A4's proportions.
    until_script(
        &client,
        &first_page_drawn_as_shown(595.28, 841.89),
        json!(true),
        "the first page was never drawn as wide as it is shown, in A4's proportions",
    )
    .await;
    // Letter paper: the page is drawn again, in Letter's.
    choose(&client, "page-paper", "letter").await;
    until_script(
        &client,
        &first_page_drawn_as_shown(612.0, 792.0),
        json!(true),
        "the page was never drawn again on Letter paper",
    )
    .await;
    screenshot_after(&client, 300, "pages.png").await;
    // The frame with the Page view open, at the smallest and the largest size it is drawn for.
    frame_at_sizes(&client, "pages").await;
    quit(client, driver).await;
}

/// A script: whether the Page view's first page is drawn as wide as it is shown in device pixels (within a
/// pixel; never finer than 1.5 pixels a point, 893 pixels for A4), with the proportions of a page `width`
/// by `height` points.
fn first_page_drawn_as_shown(width: f64, height: f64) -> String {
    let finest = (width * 1.5).round();
    format!(
        "const i = document.querySelector(\"[data-testid='page-1']\");
         if (!i || !i.naturalWidth) return false;
         const shown = Math.round(i.getBoundingClientRect().width * devicePixelRatio);
         return Math.abs(i.naturalWidth - Math.min(shown, {finest})) <= 1
           && Math.abs(i.naturalHeight / i.naturalWidth - {height} / {width}) < 0.01;"
    )
}

/// The design panel in the real window: every design a thumbnail of the user's own resume; choosing one, an
/// option and Fit to one page are each a revision of the user's own, said in words in the history, and
/// Undo takes one back; the frame holds with the panel open.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn designs_are_chosen_from_thumbnails_as_revisions_of_your_own() {
    let (_data_dir, driver, client) = open_on_the_sample().await;
    click(&client, "open-design").await;
    element(&client, "design-panel").await;
    // Eight thumbnails, each drawn (an A4 page at a quarter pixel a point is 149 pixels wide).
    until_script(
        &client,
        "return [...document.querySelectorAll(\"[data-testid='design-panel'] .design img\")].filter((i) => i.naturalWidth === 149).length;",
        json!(8),
        "the eight thumbnails were never drawn",
    )
    .await;
    const PRESSED: &str = "return [...document.querySelectorAll(\"[data-testid='design-panel'] .design[aria-pressed='true']\")].map((b) => b.dataset.testid);";
    assert_eq!(run_js(&client, PRESSED).await, json!(["design-classic"]));

    click(&client, "design-elegant").await;
    until_script(
        &client,
        PRESSED,
        json!(["design-elegant"]),
        "Elegant was never chosen",
    )
    .await;
    // A text size, as a user types it and leaves the field.
    run_js(
        &client,
        "const i = document.querySelector(\"[data-testid='design-size']\"); i.value = '10.5'; i.dispatchEvent(new Event('change', { bubbles: true })); return true;",
    )
    .await;
    until_script(
        &client,
        "return document.querySelector(\"[data-testid='design-size']\").value;",
        json!("10.5"),
        "the text size was never kept",
    )
    .await;
    click(&client, "design-fit").await;
    let said = wait_for_text(&client, "design-said", |t| t.contains("one page")).await;
    assert!(said.contains("one page"), "{said}");
    // A photo, as Choose photo… hands the engine the file the system's dialog picked (a dialog WebDriver
    // cannot drive): shown in the panel, drawn in the thumbnails.
    let picture = redline_pdf::thumbnail(
        &redline_resume::sample(),
        redline_resume::export::Template::Modern,
        redline_resume::export::Page::A4,
        1.0,
    )
    .unwrap();
    let photo = _data_dir.path().join("me.png");
    std::fs::write(&photo, picture).unwrap();
    const CLASSIC_THUMB: &str =
        "return document.querySelector(\"[data-testid='design-classic'] img\")?.src ?? null;";
    let before = run_js(&client, CLASSIC_THUMB).await;
    client
        .execute_async(
            "const [path, done] = arguments; const invoke = window.__TAURI_INTERNALS__.invoke; \
             invoke('document_state').then((s) => invoke('choose_photo', { base: s.revision, path })).then(() => done(true));",
            vec![json!(photo.to_str().unwrap())],
        )
        .await
        .unwrap();
    element(&client, "design-photo-image").await;
    until_script(
        &client,
        &format!(
            "return (document.querySelector(\"[data-testid='design-classic'] img\")?.src ?? null) !== {before};"
        ),
        json!(true),
        "the thumbnails were never drawn again with the photo",
    )
    .await;
    frame_at_sizes(&client, "design").await;

    // In the history, in words; Undo takes the photo, the fit, the size and the design back one at a time.
    click(&client, "open-history").await;
    let rows = wait_for_text(&client, "history-dialog", |t| t.contains("Design: Elegant")).await;
    assert!(rows.contains("Design options: text size 10.5 pt"), "{rows}");
    assert!(rows.contains("Photo: chosen"), "{rows}");
    press(&client, "Close").await;
    gone(&client, "history-dialog").await;
    click(&client, "open-design").await;
    for _ in 0..4 {
        click(&client, "undo").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    until_script(
        &client,
        PRESSED,
        json!(["design-classic"]),
        "Undo never took the design back",
    )
    .await;
    quit(client, driver).await;
}

/// A theme of the user's own in the real window: made with `redline theme new`, listed in the Page view beside
/// the built-in designs, drawn by the bounded child, its Typst error said with file and line as soon as the
/// file is saved with one, and the pages drawn again once it is mended, with no click.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_theme_of_your_own_is_drawn_in_the_page_view_and_redrawn_as_it_changes() {
    let (data_dir, driver, client) = open_on_the_sample().await;
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("--data-dir")
        .arg(data_dir.path())
        .args(["theme", "new", "mine", "--from", "modern"])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let main = data_dir.path().join("themes/mine/main.typ");
    let typst = std::fs::read_to_string(&main).unwrap();

    click(&client, "toggle-pages").await;
    wait_for_text(&client, "page-count", |t| t.contains("page")).await;
    choose(&client, "page-template", "mine").await;
    until_script(
        &client,
        &first_page_drawn_as_shown(595.28, 841.89),
        json!(true),
        "the theme's first page was never drawn",
    )
    .await;

    const FIRST_PAGE: &str =
        "return document.querySelector(\"[data-testid='page-1']\").getAttribute('src');";
    let first = run_js(&client, FIRST_PAGE).await;

    // Saved with an error: said with its file and line, in place of the pages.
    std::fs::write(&main, format!("{typst}\n#no-such-thing\n")).unwrap();
    let line = typst.lines().count() + 2;
    let said = wait_for_text(&client, "page-problem", |t| t.contains("main.typ:")).await;
    assert!(
        said.contains(&format!("main.typ:{line}: unknown variable: no-such-thing")),
        "{said}"
    );
    // Mended, with a line of the user's own: a first page drawn again, other than the first time's.
    std::fs::write(
        &main,
        typst.replace("#cover-letter()", "My own line.\n#cover-letter()"),
    )
    .unwrap();
    gone(&client, "page-problem").await;
    until_script(
        &client,
        &format!("return document.querySelector(\"[data-testid='page-1']\").getAttribute('src') !== {first};"),
        json!(true),
        "the mended theme's first page was never drawn again",
    )
    .await;
    // The export dialog in the theme: its own PDF, laid out by its child, read back as an ATS reads it.
    press(&client, "Export…").await;
    element(&client, "export-dialog").await;
    choose(&client, "export-template", "mine").await;
    click(&client, "ats-check").await;
    let said = wait_for_text(&client, "ats-status", |t| {
        t.contains("reads back") || t.contains("not read") || t.contains("failed")
    })
    .await;
    assert!(said.contains("Every field reads back, in order"), "{said}");
    quit(client, driver).await;
}

/// Review mode in the real window: with it on, an AI bundle is a card, in words, and nothing is saved until
/// Accept; one change of it is rejected on its own and the rest accepted.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn in_review_mode_an_ai_edit_waits_for_accept() {
    let replies: Vec<redline_agent::Reply> = serde_json::from_value(json!([
        {"say": "On it.", "toolCall": {"name": "patch_resume", "arguments": {
            "changes": "Add Python; a new title", "targets": ["/skills/0/keywords", "/basics/label"]}}},
        {"patch": {"operations": [
            {"op": "add", "path": "/skills/0/keywords/-", "value": "Python"},
            {"op": "replace", "path": "/basics/label", "value": "Pythonista"}
        ]}},
        {"say": "Please review."}
    ]))
    .unwrap();
    let server = replay(replies).await;
    let url = server.base_url();
    let (data_dir, driver, client) = open_window(&replay_env(&url)).await;
    click(&client, "open-settings").await;
    click(&client, "settings-review").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    press(&client, "Close").await;
    send_chat(&client, "Add Python to my skills and call me a Pythonista.").await;
    assert!(chat_says(&client, "For your review").await);
    assert!(
        chat_says(
            &client,
            "Add “Python” to the keywords of your skill “Web Development”"
        )
        .await
    );
    // Nothing saved: the keyword is not in the resume; the list it would join is outlined while it waits.
    gone(&client, "skills-0-keyword-3").await;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(
            "[data-testid='skills-0-keyword-0'] .field.pending",
        ))
        .await
        .expect("the list the proposal adds to is outlined");
    screenshot_after(&client, 300, "review.png").await;
    frame_at_sizes(&client, "review").await;
    // The title change is rejected on its own; the rest is accepted.
    assert!(chat_says(&client, "Change your title to “Pythonista”").await);
    let rejects = client
        .find_all(Locator::XPath("//button[normalize-space()='Reject']"))
        .await
        .unwrap();
    assert_eq!(rejects.len(), 2, "one Reject per change");
    rejects[1].click().await.unwrap();
    assert!(
        client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::XPath("//button[normalize-space()='Accept']"))
            .await
            .is_ok()
    );
    press(&client, "Accept").await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert_eq!(text_of(&client, "basics-label").await, "Programmer");
    assert!(chat_says(&client, "Accepted.").await);
    assert!(
        client
            .find(Locator::Css(
                "[data-testid='skills-0-keyword-0'] .field.pending"
            ))
            .await
            .is_err(),
        "no longer outlined once accepted"
    );
    quit(client, driver).await;
    let store = redline_store::Store::open(data_dir.path()).unwrap();
    let doc = store.current().unwrap().id;
    let newest = store.history(doc).unwrap().pop().unwrap();
    assert!(
        newest.summary.starts_with("Confirmed: Add “Python”"),
        "{newest:?}"
    );
}

/// One copy per data folder: a second launch on the same folder hands the file it was asked to open to the
/// running window and exits, instead of opening the same database a second time; the running window shows
/// that file. (On Linux the copies find each other on the session bus: scripts/test.sh runs the window
/// tests on a private one.)
#[tokio::test]
#[ignore = "needs the built app, tauri-driver, a display and a session bus: run scripts/test.sh"]
async fn a_second_launch_hands_its_file_to_the_running_window() {
    let files = tempfile::tempdir().unwrap();
    let file = write_resume(
        files.path(),
        "grace.resume.json",
        &sample_as("Grace Hopper"),
    );
    let (data_dir, _driver, client) = open_window(&UNCONFIGURED).await;
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");

    let second = tokio::process::Command::new(app_binary())
        .arg("--data-dir")
        .arg(data_dir.path())
        .arg(&file)
        .output();
    let second = tokio::time::timeout(Duration::from_secs(30), second)
        .await
        .expect("the second launch kept running: it opened a window of its own")
        .unwrap();
    assert!(second.status.success(), "{second:?}");
    wait_for_text(&client, "basics-name", |t| t == "Grace Hopper").await;
    // Only the first window ever opened the database: no second engine, one imported copy.
    let listed = redline_json(data_dir.path(), &["list", "--json"]);
    let graces = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["name"] == "Grace Hopper")
        .count();
    assert_eq!(graces, 1, "{listed}");
    client.close().await.ok();
}

/// A PDF opened with Redline is not written straight away: the import review shows what was read beside
/// the file's lines, the user fixes a field, and Import writes it as revision 1 (source "import").
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_pdf_opened_with_redline_is_reviewed_fixed_and_imported() {
    let files = tempfile::tempdir().unwrap();
    let mut grace = sample_as("Grace Hopper");
    grace["basics"]["label"] = json!("Programer");
    let pdf = files.path().join("grace.pdf");
    let bytes = redline_pdf::pdf(
        &grace,
        redline_resume::export::Template::Classic,
        redline_resume::export::Page::A4,
    )
    .unwrap();
    std::fs::write(&pdf, bytes).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_unconfigured();
    let client = connect_with(&driver, data_dir.path(), &[&pdf]).await;
    element(&client, "import-review").await;
    let lines = client
        .find_all(Locator::Css("[data-testid='import-line']"))
        .await
        .unwrap();
    assert!(
        lines.len() > 40,
        "the file's lines are shown: {}",
        lines.len()
    );
    // Nothing is written while the review is open: only the first-start sample is there.
    let list = |dir: &std::path::Path| redline_json(dir, &["list", "--json"]);
    assert_eq!(list(data_dir.path()).as_array().unwrap().len(), 1);
    let label = client
        .find(Locator::Css("input[data-pointer='/basics/label']"))
        .await
        .unwrap();
    assert_eq!(
        label.prop("value").await.unwrap().as_deref(),
        Some("Programer")
    );
    label.clear().await.unwrap();
    label.send_keys("Programmer").await.unwrap();
    screenshot(&client, "import-review.png").await;
    frame_at_sizes(&client, "import-review").await;
    click(&client, "import-confirm").await;
    wait_for_text(&client, "basics-name", |t| t == "Grace Hopper").await;
    wait_for_text(&client, "basics-label", |t| t == "Programmer").await;
    gone(&client, "import-review").await;
    assert!(chat_says(&client, "Imported “Grace Hopper — Programmer” (PDF).").await);
    // The model may tidy it, if the user asks: the notice offers it.
    let tidy = element(&client, "chat-tidy").await;
    assert_eq!(tidy.text().await.unwrap(), "Tidy with the model");
    let listed = list(data_dir.path());
    let grace = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "Grace Hopper")
        .expect("imported")
        .clone();
    let history = redline_json(
        data_dir.path(),
        &["history", "--doc", &grace["id"].to_string(), "--json"],
    );
    let rows = history.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{history}");
    assert_eq!(rows[0]["source"], "import");
    client.close().await.ok();
}

/// A file built to hurt, opened with Redline as a file manager opens it — a Word document whose paragraphs
/// nest 200,000 deep, which overflowed the reader's stack and took the whole app down before the importer
/// bounded its depth — ends in words in the chat, and the window lives on: the resume is still shown, the
/// page still answers, and nothing was written.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_hostile_file_opened_with_redline_ends_in_words_and_the_window_lives() {
    let files = tempfile::tempdir().unwrap();
    let deep = files.path().join("deep.docx");
    std::fs::write(&deep, hostile_files::docx_deep(200_000)).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_unconfigured();
    let client = connect_with(&driver, data_dir.path(), &[&deep]).await;
    assert!(
        chat_says(&client, "nests its elements more than 256 deep").await,
        "the chat says why the file was refused"
    );
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    let answer = client.execute("return 6 * 7", vec![]).await.unwrap();
    assert_eq!(answer, json!(42), "the page still runs");
    let listed = redline_json(data_dir.path(), &["list", "--json"]);
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    quit(client, driver).await;
}

/// Sync in the window: a data folder set to sync through a folder brings in, at start, the resume another
/// device put there; then that device's next edit arrives by itself as its file lands (the folder is
/// watched), said in the chat; Settings say when this device last synced and that one other device is seen.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn another_device_s_resume_and_edits_arrive_in_the_window_by_themselves() {
    let (root, laptop, here, folder) = redline_testkit::two_devices();
    let cloud = folder.to_str().unwrap();
    // This device chose the folder first (empty then); the laptop joins it with a resume of its own.
    redline_json(&here, &["sync", "folder", cloud, "--json"]);
    let file = write_resume(root.path(), "grace.resume.json", &sample_as("Grace Hopper"));
    redline_json(&laptop, &["import", file.to_str().unwrap(), "--json"]);
    redline_json(&laptop, &["sync", "folder", cloud, "--json"]);

    let driver = start_unconfigured();
    let client = connect(&driver, &here).await;
    assert!(
        chat_says(&client, "New here: Grace Hopper").await,
        "the sync at start did not bring the laptop's resume"
    );
    // The laptop renames a section (a revision) and syncs: nobody presses anything here.
    redline_json(&laptop, &["heading", "work", "Where I worked", "--json"]);
    redline_json(&laptop, &["sync", "--json"]);
    assert!(
        chat_says(&client, "Changed on another device: Grace Hopper").await,
        "the window did not take the laptop's edit when its file came"
    );
    click(&client, "open-settings").await;
    let place = wait_for_text(&client, "sync-place", |t| t.contains("Last synced")).await;
    assert!(place.contains(cloud), "{place}");
    assert!(place.contains("1 other device(s)"), "{place}");
    quit(client, driver).await;
}
