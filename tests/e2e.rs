//! End to end: the real built app, in a real window under a (virtual) display, driven over WebDriver
//! through tauri-driver and WebKitWebDriver.
//!
//! It needs what `scripts/test.sh` sets up: the app built with its UI embedded (`REDLINE_E2E_APP` names the
//! binary), `tauri-driver` and `WebKitWebDriver` on the PATH, and a display (`xvfb-run`). So it is ignored by
//! a plain `cargo test`; run it with `scripts/test.sh`, or by hand:
//! `REDLINE_E2E_APP=target/debug/redline-app xvfb-run -a cargo test --test e2e -- --ignored`.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// A running tauri-driver, stopped when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // tauri-driver starts WebKitWebDriver, which starts the app: stop the whole process group.
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver() -> Driver {
    start_driver_with(&[])
}

/// A tauri-driver whose app gets `env` on top of this process's environment.
fn start_driver_with(env: &[(&str, &str)]) -> Driver {
    start_driver_logged(env, Stdio::inherit())
}

/// [`start_driver_with`], the app's diagnostics (its standard error) going to `log`.
fn start_driver_logged(env: &[(&str, &str)], log: impl Into<Stdio>) -> Driver {
    let (port, native) = (free_port(), free_port());
    let child = Command::new("tauri-driver")
        .process_group(0)
        .envs(env.iter().copied())
        .args(["--port", &port.to_string(), "--native-port", &native.to_string()])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("tauri-driver is not on the PATH: run scripts/test.sh, or `cargo install tauri-driver --version '^2' --locked`");
    // Both must listen: tauri-driver, and the WebKitWebDriver it starts behind it (a session asked for
    // before the latter listens is cut off).
    for port in [port, native] {
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            assert!(
                Instant::now() < deadline,
                "tauri-driver did not start listening on {addr}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    Driver { child, port }
}

fn app_binary() -> PathBuf {
    let app = std::env::var_os("REDLINE_E2E_APP")
        .map(PathBuf::from)
        .expect("set REDLINE_E2E_APP to the built app (scripts/test.sh does)");
    assert!(
        app.exists(),
        "{} does not exist: build the app first",
        app.display()
    );
    std::fs::canonicalize(app).unwrap()
}

async fn connect(driver: &Driver, data_dir: &std::path::Path) -> Client {
    connect_with(driver, data_dir, &[]).await
}

/// [`connect`], the app started with `files` to open (as a file manager starts it).
async fn connect_with(
    driver: &Driver,
    data_dir: &std::path::Path,
    files: &[&std::path::Path],
) -> Client {
    let mut args = vec![json!("--data-dir"), json!(data_dir)];
    args.extend(files.iter().map(|f| json!(f)));
    let caps = json!({
        "browserName": "wry",
        "tauri:options": {
            "application": app_binary(),
            "args": args,
        }
    });
    let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
    builder.capabilities(caps.as_object().unwrap().clone());
    builder
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("could not start the app through tauri-driver")
}

/// Waits for the element with `testid`.
async fn element(client: &Client, testid: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(&format!("[data-testid='{testid}']")))
        .await
        .unwrap_or_else(|e| panic!("no element {testid} in the window: {e}"))
}

/// Waits for the element with `testid` and returns its text.
async fn text_of(client: &Client, testid: &str) -> String {
    element(client, testid).await.text().await.unwrap()
}

/// Waits for a line of the chat that contains `text`; false if none comes.
async fn chat_says(client: &Client, text: &str) -> bool {
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::XPath(&format!("//li[contains(., '{text}')]")))
        .await
        .is_ok()
}

fn screenshot_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/e2e");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Saves a screenshot of the window as `target/e2e/NAME`. WebKitGTK's WebDriver takes it once the page has
/// drawn its next frame, and a window at rest draws none (with the page's own scrollbars nothing repaints
/// by itself): it waited forever. So the page draws meanwhile: one pixel in its corner flips between two
/// opacities no eye can tell apart, every 16 ms, until the screenshot is taken.
async fn screenshot(client: &Client, name: &str) {
    client
        .execute(
            "const pixel = document.createElement('div'); \
             pixel.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;\
             background:#000;opacity:0.01;z-index:2147483647'; \
             document.body.append(pixel); \
             const timer = setInterval(() => { \
               pixel.style.opacity = pixel.style.opacity === '0.01' ? '0.02' : '0.01'; }, 16); \
             window.__e2eStopDrawing = () => { clearInterval(timer); pixel.remove(); }; \
             return true;",
            vec![],
        )
        .await
        .unwrap();
    let png = client.screenshot().await.unwrap();
    client
        .execute("window.__e2eStopDrawing(); return true;", vec![])
        .await
        .unwrap();
    std::fs::write(screenshot_path(name), png).unwrap();
}

#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn the_window_shows_the_sample_resume_on_first_start() {
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")]);
    let client = connect(&driver, data_dir.path()).await;

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
    let setup = wait_for_text(&client, "first-run", |t| t.contains("Try the demo")).await;
    assert!(setup.contains("Choose a model to start"), "{setup}");
    screenshot(&client, "first-start.png").await;
    // The resume's pane scrolls with the scrollbar the page draws, which takes its 12 px beside the text, not
    // GTK's overlay one (0 px), which repaints the pane's edge many times a second under a resting pointer.
    let scrollbar = client
        .execute(
            "const pane = document.querySelector('.document'); \
             return [document.documentElement.dataset.scrollbars ?? null, \
                     pane.scrollHeight > pane.clientHeight, pane.offsetWidth - pane.clientWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(scrollbar, json!(["page", true, 12]));
    client.close().await.ok();
    drop(driver);

    // The app created its database in the data folder it was given, and nowhere else.
    assert!(data_dir.path().join("redline.db").exists());
}

/// A link in the resume opens in the system's browser, never in the window; and nothing, not even a script
/// setting `location`, takes the window away from the app.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn a_link_in_the_resume_never_takes_the_window_away() {
    let data_dir = tempfile::tempdir().unwrap();
    // The "system browser" of this test does nothing.
    let driver = start_driver_with(&[("BROWSER", "true")]);
    let client = connect(&driver, data_dir.path()).await;
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
    client
        .execute(
            "window.location.href = 'https://evil.example/'; return true;",
            vec![],
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(client.current_url().await.unwrap(), app);
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    client.close().await.ok();
}

/// Polls until the element with `testid` reads `want` (the view updates as events arrive).
async fn wait_for_text(client: &Client, testid: &str, want: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let found = match client
            .find(Locator::Css(&format!("[data-testid='{testid}']")))
            .await
        {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if want(&found) {
            return found;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{testid} never read as expected; last: {found:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn the_demo_edits_the_resume_live_in_the_window() {
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver();
    let client = connect(&driver, data_dir.path()).await;
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
        let said = client
            .execute(
                "return document.querySelector('[data-testid=chat-announcement]').textContent",
                vec![],
            )
            .await
            .unwrap();
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
    client
        .execute(
            "document.querySelector('.document')?.scrollTo(0, 0); window.scrollTo(0, 0)",
            vec![],
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    screenshot(&client, "demo.png").await;
    client.close().await.ok();
    drop(driver);

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
    let fixture = redline_agent::fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("crates/agent/fixtures/16-out-of-scope-held.json"),
    )
    .unwrap();
    // A local OpenAI-compatible server, as Ollama would be: the app needs no key for it.
    let (_server, config) = redline_agent::fixtures::replay(&fixture, Duration::from_millis(5))
        .await
        .unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[
        ("REDLINE_BASE_URL", &config.base_url),
        ("OPENAI_API_KEY", ""),
    ]);
    let client = connect(&driver, data_dir.path()).await;
    let label = text_of(&client, "basics-label").await;
    let input = element(&client, "chat-input").await;
    input.send_keys(&fixture.message).await.unwrap();
    client
        .find(Locator::Css("[data-testid='chat-send']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let apply = element(&client, "held-apply").await;
    let offered = client
        .find(Locator::XPath("//li[contains(., 'Change your title to')]"))
        .await;
    assert!(offered.is_ok(), "the held edit is described in words");
    // The asked-for edit is saved; the other is not applied.
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert_eq!(text_of(&client, "basics-label").await, label);
    screenshot(&client, "held.png").await;
    apply.click().await.unwrap();
    wait_for_text(&client, "basics-label", |t| t == "Pythonista").await;
    assert!(
        chat_says(&client, "Saved as revision 3.").await,
        "the chat says the confirmed edit was saved"
    );
    client.close().await.ok();
    drop(driver);

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
    let fixture = redline_agent::fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("crates/agent/fixtures/01-add-keyword.json"),
    )
    .unwrap();
    let mut replies: Vec<redline_agent::Reply> = serde_json::from_value(json!([
        {"say": "OK"},
        {"patch": {"operations": []}}
    ]))
    .unwrap();
    replies.extend(fixture.replies.clone());
    replies.push(
        serde_json::from_value(
            json!({"fail": {"status": 401, "message": "Incorrect API key provided"}}),
        )
        .unwrap(),
    );
    let server = redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
        .await
        .unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    // Nothing configured: no base URL, no key in the environment.
    let driver = start_driver_with(&[("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")]);
    let client = connect(&driver, data_dir.path()).await;
    element(&client, "open-settings")
        .await
        .click()
        .await
        .unwrap();
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
    element(&client, "settings-test")
        .await
        .click()
        .await
        .unwrap();
    let report = wait_for_text(&client, "settings-report", |t| t.contains("Patch model")).await;
    assert!(
        report.contains("answers, 2 model(s)") && report.contains("Chat model: answers"),
        "{report}"
    );
    screenshot(&client, "settings.png").await;
    // Appearance: dark, at once, from the one set of colour variables; then back to the system's (the choice
    // is kept in the webview's storage, which the next tests share).
    let theme = element(&client, "settings-theme").await;
    theme.select_by_value("dark").await.unwrap();
    let dark = client
        .execute(
            "return [document.documentElement.dataset.theme, getComputedStyle(document.documentElement).backgroundColor]",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        dark,
        json!(["dark", "rgb(18, 20, 24)"]),
        "the dark theme's desk colour"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "settings-dark.png").await;
    theme.select_by_value("system").await.unwrap();
    let system = client
        .execute(
            "return document.documentElement.hasAttribute('data-theme')",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(system, json!(false));
    element(&client, "settings-save")
        .await
        .click()
        .await
        .unwrap();
    client
        .find(Locator::XPath("//button[normalize-space()='Close']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    let send = |text: String| {
        let client = client.clone();
        async move {
            send_chat(&client, &text).await;
        }
    };
    send(fixture.message.clone()).await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    // The server now refuses the key: the chat says so and offers to replace it.
    send("Tighten my summary.".into()).await;
    let action = wait_for_text(&client, "chat-action", |t| !t.is_empty()).await;
    assert_eq!(action.trim(), "Replace key");
    client.close().await.ok();
    drop(driver);
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
    let fixture = redline_agent::fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("crates/agent/fixtures/01-add-keyword.json"),
    )
    .unwrap();
    let mut replies = fixture.replies.clone();
    replies.push(serde_json::from_value(json!({"say": "Hello from the server."})).unwrap());
    let server = redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
        .await
        .unwrap();
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
    assert_eq!(
        client.execute(RECORD_IPC, vec![]).await.unwrap(),
        json!(true)
    );
    let found = wait_for_text(&client, "first-run-server", |t| t.contains("Ollama")).await;
    assert!(found.contains("Ollama"), "{found}");
    screenshot(&client, "first-run.png").await;
    element(&client, "first-run-use")
        .await
        .click()
        .await
        .unwrap();
    assert!(chat_says(&client, "Redline will use replay-chat on Ollama").await);

    let send = |text: String| {
        let client = client.clone();
        async move {
            send_chat(&client, &text).await;
        }
    };
    send(fixture.message.clone()).await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    assert_eq!(
        server.keys()[0],
        None,
        "a local server is sent no key unless one is set"
    );

    // A key, entered in Settings, kept in the keychain.
    const KEY: &str = "sk-redline-e2e-7f3a9c1b5d2e8f40";
    element(&client, "open-settings")
        .await
        .click()
        .await
        .unwrap();
    element(&client, "settings-key")
        .await
        .send_keys(KEY)
        .await
        .unwrap();
    element(&client, "settings-save-key")
        .await
        .click()
        .await
        .unwrap();
    let status = wait_for_text(&client, "settings-status", |t| {
        !t.ends_with('…') && !t.is_empty()
    })
    .await;
    assert_eq!(
        status, "The key is in your keychain.",
        "(is a Secret Service running?)"
    );
    assert!(text_of(&client, "settings-key-state").await.contains("set"));
    client
        .find(Locator::XPath("//button[normalize-space()='Close']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    send("Say hello.".into()).await;
    assert!(chat_says(&client, "Hello from the server.").await);
    assert_eq!(
        server.keys().last().unwrap().as_deref(),
        Some(KEY),
        "the key reached the server"
    );

    let seen = client
        .execute("return window.__redlineSeen", vec![])
        .await
        .unwrap();
    let seen: Vec<String> = serde_json::from_value(seen).unwrap();
    assert!(
        seen.iter().any(|reply| reply.contains("keySet")),
        "the page's replies were not recorded: {seen:?}"
    );
    assert!(
        !seen.iter().any(|reply| reply.contains(KEY)),
        "the key reached the window"
    );
    client.close().await.ok();
    drop(driver);

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

/// Waits until no element with `testid` is in the window.
async fn gone(client: &Client, testid: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while client
        .find(Locator::Css(&format!("[data-testid='{testid}']")))
        .await
        .is_ok()
    {
        assert!(Instant::now() < deadline, "{testid} is still in the window");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A button found by its accessible name, as a screen-reader user finds it.
async fn button(client: &Client, name: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::XPath(&format!(
            "//button[normalize-space()='{name}' or @aria-label='{name}']"
        )))
        .await
        .unwrap_or_else(|e| panic!("no button “{name}”: {e}"))
}

/// The editing loop on the user's own resume: a file opened with Redline is imported and shown; a turn
/// edits it; Undo and Redo (buttons and Ctrl+Z) take the edit back and forth; the history lists every
/// revision and restores the AI's; the documents list holds both resumes; and after a restart the same
/// resume is on screen.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn your_own_resume_with_undo_redo_history_and_documents() {
    let fixture = redline_agent::fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("crates/agent/fixtures/01-add-keyword.json"),
    )
    .unwrap();
    let server =
        redline_agent::ReplayServer::start(fixture.replies.clone(), redline_agent::Pace::default())
            .await
            .unwrap();
    let files = tempfile::tempdir().unwrap();
    let mut ada = redline_resume::sample();
    ada["basics"]["name"] = json!("Ada Lovelace");
    ada["basics"]["label"] = json!("Analyst");
    let file = files.path().join("ada.resume.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&ada).unwrap()).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let url = server.base_url();
    let env = [
        ("OPENAI_API_KEY", ""),
        ("REDLINE_BASE_URL", url.as_str()),
        ("REDLINE_MODEL", "replay-chat"),
        ("REDLINE_PATCH_MODEL", "replay-patch"),
    ];
    let driver = start_driver_with(&env);
    let client = connect_with(&driver, data_dir.path(), &[&file]).await;
    wait_for_text(&client, "basics-name", |t| t == "Ada Lovelace").await;
    wait_for_text(&client, "document-title", |t| t.contains("Ada Lovelace")).await;

    // A turn edits it; Undo takes the edit back, Redo applies it again, Ctrl+Z undoes it again.
    send_chat(&client, &fixture.message).await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    assert!(chat_says(&client, "Saved as revision 2.").await);
    button(&client, "Undo").await.click().await.unwrap();
    gone(&client, "skills-0-keyword-3").await;
    button(&client, "Redo").await.click().await.unwrap();
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;
    // Ctrl+Z, as the page receives it outside a text field.
    client
        .execute(
            "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'z', ctrlKey: true, bubbles: true}))",
            vec![],
        )
        .await
        .unwrap();
    gone(&client, "skills-0-keyword-3").await;

    // The history: newest first, in words; the first revision restored.
    button(&client, "History").await.click().await.unwrap();
    element(&client, "history-row").await;
    let rows = client
        .find_all(Locator::Css("[data-testid='history-row']"))
        .await
        .unwrap();
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
    tokio::time::sleep(Duration::from_millis(500)).await;
    screenshot(&client, "history.png").await;
    rows[4].click().await.unwrap();
    wait_for_text(&client, "history-changes", |t| t.contains("first saved")).await;
    // Revision 2 (the AI's edit, undone since) is made the resume again.
    rows[3].click().await.unwrap();
    wait_for_text(&client, "history-changes", |t| t.contains("Python")).await;
    button(&client, "Restore").await.click().await.unwrap();
    wait_for_text(&client, "history-row", |t| {
        t.contains("Restored revision 2")
    })
    .await;
    button(&client, "Close").await.click().await.unwrap();
    gone(&client, "history-dialog").await;
    wait_for_text(&client, "skills-0-keyword-3", |t| t == "Python").await;

    // A click selects a field: the chat says the next message is about it; ✕ clears it.
    client
        .find(Locator::Css("[data-testid='work-0-summary'] .editable"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let about = wait_for_text(&client, "chat-selection", |t| !t.is_empty()).await;
    assert!(about.contains("About the selected summary"), "{about}");
    button(&client, "Clear the selection")
        .await
        .click()
        .await
        .unwrap();
    gone(&client, "chat-selection").await;

    // A field edited by hand is a revision of the user's own. (The Edit button shows on hover; a script
    // presses it, as the mouse would.)
    client
        .execute(
            "document.querySelector('[aria-label=\"Edit headline\"]').click()",
            vec![],
        )
        .await
        .unwrap();
    // The old text is selected when the box opens: typing replaces it.
    let input = element(&client, "editing").await;
    input.send_keys("Engineer\u{E007}").await.unwrap();
    wait_for_text(&client, "basics-label", |t| t == "Engineer").await;
    button(&client, "History").await.click().await.unwrap();
    let newest = wait_for_text(&client, "history-row", |t| t.contains("Engineer")).await;
    assert!(newest.to_lowercase().contains("you"), "{newest}");
    button(&client, "Close").await.click().await.unwrap();
    gone(&client, "history-dialog").await;

    // Both resumes are in the documents list; the sample is opened and then Ada again.
    button(&client, "Documents").await.click().await.unwrap();
    element(&client, "documents-row").await;
    let rows = client
        .find_all(Locator::Css("[data-testid='documents-row']"))
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    screenshot(&client, "documents.png").await;
    button(&client, "Open Richard Hendriks — Programmer")
        .await
        .click()
        .await
        .unwrap();
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    button(&client, "Open Ada Lovelace — Analyst")
        .await
        .click()
        .await
        .unwrap();
    wait_for_text(&client, "basics-name", |t| t == "Ada Lovelace").await;
    client.close().await.ok();
    drop(driver);

    // A restart opens the same resume.
    let driver = start_driver_with(&env);
    let client = connect(&driver, data_dir.path()).await;
    wait_for_text(&client, "basics-name", |t| t == "Ada Lovelace").await;
    client.close().await.ok();
    drop(driver);
}

/// Tailor to a job in the real window: the pasted posting makes a copy of the resume (the master stays),
/// and the report says which of the posting's terms the copy has.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn tailoring_to_a_job_makes_a_copy_and_reports_its_terms() {
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")]);
    let client = connect(&driver, data_dir.path()).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    button(&client, "Tailor to a job…")
        .await
        .click()
        .await
        .unwrap();
    let posting = element(&client, "tailor-posting").await;
    // Two lines, as a pasted posting has (Enter between them).
    posting.send_keys("Compression Engineer").await.unwrap();
    posting.send_keys("\u{E007}").await.unwrap();
    posting
        .send_keys("We need Javascript, Kubernetes and Kubernetes operators.")
        .await
        .unwrap();
    button(&client, "Make a tailored copy")
        .await
        .click()
        .await
        .unwrap();
    let missing = wait_for_text(&client, "tailor-missing", |t| !t.is_empty()).await;
    assert!(missing.contains("kubernetes"), "{missing}");
    let found = text_of(&client, "tailor-found").await;
    assert!(found.contains("javascript"), "{found}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "tailor.png").await;
    button(&client, "Close").await.click().await.unwrap();
    let title = wait_for_text(&client, "document-title", |t| {
        t.contains("Compression Engineer")
    })
    .await;
    assert!(
        title.starts_with("Richard Hendriks — Programmer — for"),
        "{title}"
    );
    button(&client, "Documents").await.click().await.unwrap();
    element(&client, "documents-row").await;
    let rows = client
        .find_all(Locator::Css("[data-testid='documents-row']"))
        .await
        .unwrap();
    assert_eq!(rows.len(), 2, "the master and its tailored copy");
    client.close().await.ok();
    drop(driver);
}

/// The resume in its own language: German headings and dates from the toolbar's language menu, a heading
/// renamed for this resume, Arabic laid out right to left; the export dialog (a native modal dialog that
/// takes focus and closes with Escape) reads the PDF back as an applicant tracking system would; the Page
/// view shows the pages Typst draws, on either paper.
#[tokio::test]
#[ignore = "needs the built app, tauri-driver and a display: run scripts/test.sh"]
async fn the_resume_in_its_language_and_read_back_as_an_ats_would() {
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")]);
    let client = connect(&driver, data_dir.path()).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
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

    element(&client, "resume-language")
        .await
        .select_by_value("de")
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while script(heading("work")).await != json!("Berufserfahrung") {
        assert!(
            Instant::now() < deadline,
            "the headings never turned German"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
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
    let deadline = Instant::now() + Duration::from_secs(30);
    while script(heading("skills")).await != json!("Werkzeuge") {
        assert!(Instant::now() < deadline, "the heading was never renamed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The export dialog: focus moves in; the PDF reads back whole; Escape closes it.
    button(&client, "Export…").await.click().await.unwrap();
    element(&client, "export-dialog").await;
    assert_eq!(
        script("return !!document.activeElement.closest(\"dialog[open]\");".into()).await,
        json!(true),
        "focus is in the dialog"
    );
    element(&client, "ats-check").await.click().await.unwrap();
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
    element(&client, "resume-language")
        .await
        .select_by_value("ar")
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while script("return document.querySelector(\"[data-testid='resume']\").dir;".into()).await
        != json!("rtl")
    {
        assert!(
            Instant::now() < deadline,
            "the view never turned right to left"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
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
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "arabic.png").await;

    // The pages as they will print: Typst's own drawing of the PDF, with the page count.
    element(&client, "toggle-pages")
        .await
        .click()
        .await
        .unwrap();
    let count = wait_for_text(&client, "page-count", |t| t.contains("page")).await;
    let pages: usize = count.split(' ').next().unwrap().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while script(
        "return document.querySelectorAll(\"[data-testid='page-view'] img\").length;".into(),
    )
    .await
        != json!(pages)
    {
        assert!(
            Instant::now() < deadline,
            "{count}, but not as many pages shown"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while script("const i = document.querySelector(\"[data-testid='page-1']\"); return i ? i.naturalWidth : 0;".into()).await
        != json!(893)
    {
        assert!(Instant::now() < deadline, "the first page was never drawn (893 pixels wide)");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Letter paper: the page is drawn again, 918 pixels wide.
    element(&client, "page-paper")
        .await
        .select_by_value("letter")
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while script("const i = document.querySelector(\"[data-testid='page-1']\"); return i ? i.naturalWidth : 0;".into()).await
        != json!(918)
    {
        assert!(Instant::now() < deadline, "the page was never drawn again on Letter paper");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "pages.png").await;
    client.close().await.ok();
    drop(driver);
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
    let server = redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
        .await
        .unwrap();
    let url = server.base_url();
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[
        ("OPENAI_API_KEY", ""),
        ("REDLINE_BASE_URL", url.as_str()),
        ("REDLINE_MODEL", "replay-chat"),
        ("REDLINE_PATCH_MODEL", "replay-patch"),
    ]);
    let client = connect(&driver, data_dir.path()).await;
    element(&client, "open-settings")
        .await
        .click()
        .await
        .unwrap();
    element(&client, "settings-review")
        .await
        .click()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    button(&client, "Close").await.click().await.unwrap();
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
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "review.png").await;
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
    button(&client, "Accept").await.click().await.unwrap();
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
    client.close().await.ok();
    drop(driver);
    let store = redline_store::Store::open(data_dir.path()).unwrap();
    let doc = store.current().unwrap().id;
    let newest = store.history(doc).unwrap().pop().unwrap();
    assert!(
        newest.summary.starts_with("Confirmed: Add “Python”"),
        "{newest:?}"
    );
}

/// The processes of a driver's process group that are the app's: the app itself and the WebKit processes
/// it starts (not tauri-driver or WebKitWebDriver), with their proportional set size in kB.
fn app_memory(driver: &Driver) -> Vec<(String, u64)> {
    let group = driver.child.id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let dir = entry.path();
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let comm = &stat[stat.find('(').unwrap() + 1..close];
        // Fields after the name: state, ppid, pgrp.
        let pgrp = stat[close + 2..].split_whitespace().nth(2).unwrap_or("");
        let ours = comm == "redline-app"
            || comm.starts_with("WebKitWebProces")
            || comm.starts_with("WebKitNetworkPr");
        if pgrp != group || !ours {
            continue;
        }
        let pss = std::fs::read_to_string(dir.join("smaps_rollup"))
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("Pss:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or(0);
        found.push((comm.to_owned(), pss));
    }
    found.sort();
    found
}

/// What the page holds: its DOM elements and Tauri's IPC callbacks (a leak of either shows here).
async fn print_page(client: &Client, when: &str) {
    let page = client
        .execute(
            "const c = window.__TAURI_INTERNALS__ && window.__TAURI_INTERNALS__.callbacks; \
             return [document.getElementsByTagName('*').length, c ? (c instanceof Map ? c.size : Object.keys(c).length) : -1];",
            vec![],
        )
        .await
        .unwrap();
    println!("memory: the page holds {page} (DOM elements, IPC callbacks) {when}");
}

fn print_memory(when: &str, processes: &[(String, u64)]) -> u64 {
    let total: u64 = processes.iter().map(|(_, kb)| kb).sum();
    let parts: Vec<String> = processes
        .iter()
        .map(|(name, kb)| format!("{name} {:.1}", *kb as f64 / 1024.0))
        .collect();
    println!(
        "memory {when}: {:.1} MB PSS in all ({})",
        total as f64 / 1024.0,
        parts.join(", ")
    );
    total
}

/// Types `message` into the chat and sends it.
async fn send_chat(client: &Client, message: &str) {
    element(client, "chat-input")
        .await
        .send_keys(message)
        .await
        .unwrap();
    element(client, "chat-send").await.click().await.unwrap();
}

/// Sends `message` as turn `turn` of a document that started at revision 1, and waits until the turn has
/// saved its revision and is over (Send is back).
async fn saved_turn(client: &Client, message: &str, turn: usize) {
    send_chat(client, message).await;
    let saved = format!("Saved as revision {}.", turn + 1);
    assert!(chat_says(client, &saved).await, "turn {turn} did not save");
    wait_for_text(client, "chat-send", |t| t == "Send").await;
}

/// The memory budget (README "Budgets"), measured on the build `REDLINE_E2E_APP` names (the release build,
/// by `scripts/bench-budgets.sh`): PSS of the app and its WebKit processes, idle with the sample open, then
/// after 100 AI turns against the replay server. Prints the figures; asserts only that the turns ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: scripts/bench-budgets.sh runs it on the release build"]
async fn budgets_memory_idle_and_after_a_hundred_turns() {
    const TURNS: usize = 100;
    let fixture = redline_agent::fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("crates/agent/fixtures/01-add-keyword.json"),
    )
    .unwrap();
    let replies: Vec<redline_agent::Reply> =
        (0..TURNS).flat_map(|_| fixture.replies.clone()).collect();
    let server = redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
        .await
        .unwrap();
    let url = server.base_url();
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[
        ("REDLINE_BASE_URL", &url),
        ("OPENAI_API_KEY", ""),
        ("REDLINE_MODEL", "replay-chat"),
        ("REDLINE_PATCH_MODEL", "replay-patch"),
    ]);
    let client = connect(&driver, data_dir.path()).await;
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    tokio::time::sleep(Duration::from_secs(5)).await;
    let idle = app_memory(&driver);
    let app_alone = idle
        .iter()
        .find(|(name, _)| name == "redline-app")
        .map(|(_, kb)| *kb)
        .unwrap_or(0);
    let before = print_memory("idle with the sample open", &idle);
    print_page(&client, "idle").await;
    println!(
        "memory of the app process alone, idle: {:.1} MB PSS",
        app_alone as f64 / 1024.0
    );

    for turn in 1..=TURNS {
        saved_turn(&client, &fixture.message, turn).await;
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let after = print_memory(&format!("after {TURNS} turns"), &app_memory(&driver));
    print_page(&client, "after the turns").await;
    if let Some(settle) = std::env::var("REDLINE_BENCH_SETTLE")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        tokio::time::sleep(Duration::from_secs(settle)).await;
        print_memory(
            &format!("after {TURNS} turns and {settle} s more"),
            &app_memory(&driver),
        );
    }
    println!(
        "memory growth over {TURNS} turns: {:+.1} MB",
        (after as f64 - before as f64) / 1024.0
    );
    client.close().await.ok();
}

/// One copy per data folder: a second launch on the same folder hands the file it was asked to open to the
/// running window and exits, instead of opening the same database a second time; the running window shows
/// that file. (On Linux the copies find each other on the session bus: scripts/test.sh runs the window
/// tests on a private one.)
#[tokio::test]
#[ignore = "needs the built app, tauri-driver, a display and a session bus: run scripts/test.sh"]
async fn a_second_launch_hands_its_file_to_the_running_window() {
    let files = tempfile::tempdir().unwrap();
    let mut grace = redline_resume::sample();
    grace["basics"]["name"] = json!("Grace Hopper");
    let file = files.path().join("grace.resume.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&grace).unwrap()).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")]);
    let client = connect(&driver, data_dir.path()).await;
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
    let out = std::process::Command::new(app_binary().with_file_name("redline"))
        .args([
            "--data-dir",
            data_dir.path().to_str().unwrap(),
            "list",
            "--json",
        ])
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let graces = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["name"] == "Grace Hopper")
        .count();
    assert_eq!(graces, 1, "{listed}");
    client.close().await.ok();
}

/// The Page view's speed (a benchmark, not part of the test run: `scripts/bench-budgets.sh` runs it): from a
/// change — the template switched, so that every page is laid out and drawn again — to the new first page
/// decoded and on screen, timed inside the page, 100 times on the sample. Printed as p50, p99 and the worst.
#[tokio::test]
#[ignore = "a benchmark: scripts/bench-budgets.sh"]
async fn bench_page_view_from_a_change_to_the_new_page_on_screen() {
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")]);
    let client = connect(&driver, data_dir.path()).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    element(&client, "toggle-pages")
        .await
        .click()
        .await
        .unwrap();
    element(&client, "page-1").await;
    let times = client
        .execute_async(
            r#"
            const done = arguments[arguments.length - 1];
            const select = document.querySelector("[data-testid='page-template']");
            const page = () => document.querySelector("[data-testid='page-1']");
            const frame = () => new Promise((r) => requestAnimationFrame(r));
            const times = [];
            (async () => {
              for (let k = 0; k < 100; k++) {
                const before = page().src;
                const start = performance.now();
                select.value = select.value === "classic" ? "modern" : "classic";
                select.dispatchEvent(new Event("change", { bubbles: true }));
                for (;;) {
                  await frame();
                  const img = page();
                  // Loaded and decoded, not merely done (a refused image is complete too, 0 pixels wide).
                  if (img && img.src !== before && img.complete && img.naturalWidth > 0) break;
                }
                await frame();
                times.push(performance.now() - start);
                await new Promise((r) => setTimeout(r, 150));
              }
              done(times);
            })();
            "#,
            vec![],
        )
        .await
        .unwrap();
    let mut times: Vec<f64> = times
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    let first = times[0];
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "page view, a change to the new page on screen (sample, {} changes): p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, worst {:.1} ms; \
         the first (the other template laid out for the first time) {first:.1} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        times[times.len() - 1]
    );
    assert_eq!(times.len(), 100);
    client.close().await.ok();
    drop(driver);
}

/// The sample with every list ten times as long (the view's size test in Vitest uses the same shape).
fn ten_times_the_sample() -> serde_json::Value {
    let mut resume = redline_resume::sample();
    for (_, value) in resume.as_object_mut().unwrap().iter_mut() {
        if let Some(items) = value.as_array_mut() {
            *items = items
                .iter()
                .cycle()
                .take(items.len() * 10)
                .cloned()
                .collect();
        }
    }
    resume
}

/// The page's probe (ui/src/lib/probe.ts): each surface message applied gets the time it arrived, the time
/// the next frame began (its animation-frame callback) and the time that frame was painted (a message
/// posted from the callback runs after the frame's paint); and every frame's length while it runs, and its own
/// work: from its start (the animation-frame time) to a message posted then being handled, after its paint —
/// and after whatever ran first: a task queued before the message, or the next frame if it began first. So
/// it is at least the frame's work: small before a late frame, the page was idle when that frame was due.
const PROBE: &str = r#"
const clock = () => performance.timeOrigin + performance.now();
const data = { arrived: [], framed: [], shown: [], frames: [], work: [] };
const batches = [];
const painted = new MessageChannel();
painted.port1.onmessage = () => {
  const t = clock();
  for (const i of batches.shift() ?? []) data.shown[i] = t;
};
let pending = [];
window.__redlineProbe = {
  applied() {
    pending.push(data.arrived.length);
    data.arrived.push(clock());
    if (pending.length === 1) {
      requestAnimationFrame(() => {
        const t = clock();
        for (const i of pending) data.framed[i] = t;
        batches.push(pending);
        pending = [];
        painted.port2.postMessage(0);
      });
    }
  },
};
const worked = new MessageChannel();
const started = [];
worked.port1.onmessage = () => {
  const start = started.shift();
  data.work.push([start, clock() - start]);
};
let last = null;
const frame = (t) => {
  if (last !== null) data.frames.push([performance.timeOrigin + t, t - last, performance.timeOrigin + last]);
  last = t;
  started.push(performance.timeOrigin + t);
  worked.port2.postMessage(0);
  if (!data.stop) requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
window.__redlineProbeData = data;
"#;

/// What one paced turn measured in the page.
struct ChunkToPixel {
    /// From a surface message leaving the engine to the frame showing it painted, ms, in order.
    to_pixel: Vec<f64>,
    /// From leaving the engine to the view's store having applied it, ms.
    to_page: Vec<f64>,
    /// From being applied to the next frame beginning, ms: the wait for a frame.
    to_frame: Vec<f64>,
    /// From that frame beginning to its being painted, ms: style, layout and paint.
    frame_to_pixel: Vec<f64>,
    /// Surface messages a second while the turns streamed, as the engine sent them.
    rate: f64,
    /// Every frame's length while a turn streamed, ms, in order.
    frames: Vec<f64>,
    /// Every frame's own work while a turn streamed, ms: from its start to its being painted.
    work: Vec<f64>,
    /// For each frame of `frames` longer than one refresh by more than the clock's grain, the work of the frame
    /// before it, ms: whether the page was still busy when it should have begun.
    work_before_late: Vec<f64>,
    /// Every frame's length in the two seconds before the turn (the window idle): the baseline.
    idle_frames: Vec<f64>,
}

/// Runs `turns` paced AI turns (a long summary typed in, a work entry filling in, 200 surface messages a
/// second) on `resume` in the real window, the stream going over the turn's channel, and returns what the
/// page's probe measured.
async fn chunk_to_pixel(resume: &serde_json::Value, turns: usize) -> ChunkToPixel {
    let summary =
        "Builds compression systems that run at the scale of the largest media libraries, and the \
        teams that ship them. "
            .repeat(24);
    let entry = json!({
        "name": "Hooli", "position": "Staff Engineer, Nucleus", "url": "https://hooli.example.com",
        "startDate": "2011-01-01", "endDate": "2013-12-01",
        "summary": "Led the Nucleus compression team through its first three releases. ".repeat(8),
        "highlights": (0..6).map(|i| format!("Shipped release {i} of Nucleus to every Hooli data centre, on time and with a smaller footprint")).collect::<Vec<_>>(),
    });
    let replies: Vec<redline_agent::Reply> = (0..turns)
        .flat_map(|_| {
            [
                json!({"say": "On it.", "toolCall": {"name": "patch_resume", "arguments": {
                    "changes": "Rewrite the summary and add the Hooli job",
                    "targets": ["/basics/summary", "/work"]}}}),
                json!({"patch": {"operations": [
                    {"op": "replace", "path": "/basics/summary", "value": summary},
                    {"op": "add", "path": "/work/-", "value": entry},
                ]}}),
                json!({"say": "Done."}),
            ]
        })
        .map(|r| serde_json::from_value(r).unwrap())
        .collect();
    // 7 characters a delta every 3 ms (a timer's 3 ms is nearer 5 here): about 200 surface messages a
    // second while a value streams; the rate printed is the one the engine sent at.
    let pace = redline_agent::Pace {
        chunk: 7,
        delay: Duration::from_millis(3),
    };
    let server = redline_agent::ReplayServer::start(replies, pace)
        .await
        .unwrap();
    let url = server.base_url();
    let files = tempfile::tempdir().unwrap();
    let file = files.path().join("bench.resume.json");
    std::fs::write(&file, serde_json::to_vec(resume).unwrap()).unwrap();
    let sent_log = files.path().join("sent.txt");
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(&[
        ("REDLINE_BASE_URL", &url),
        ("OPENAI_API_KEY", ""),
        ("REDLINE_MODEL", "replay-chat"),
        ("REDLINE_PATCH_MODEL", "replay-patch"),
        ("REDLINE_PROBE_SENT", sent_log.to_str().unwrap()),
    ]);
    let client = connect_with(&driver, data_dir.path(), &[&file]).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    client.execute(PROBE, vec![]).await.unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Each turn's stream, as a range of the sent log's lines. While a turn streams the test keeps out of the
    // page: it watches the sent log. (A WebDriver wait asks the page four times a second, an XPath over every
    // list item on it, run on the page's main thread among the frames measured.)
    let mut streams = Vec::new();
    for turn in 1..=turns {
        let before = sent_lines(&sent_log);
        send_chat(&client, "Rewrite my summary and add my job at Hooli.").await;
        let after = quiet_after_growing(&sent_log, before).await;
        streams.push(before..after);
        let saved = format!("Saved as revision {}.", turn + 1);
        assert!(chat_says(&client, &saved).await, "turn {turn} did not save");
        wait_for_text(&client, "chat-send", |t| t == "Send").await;
    }
    let data = client
        .execute(
            "const d = window.__redlineProbeData; d.stop = true; return d;",
            vec![],
        )
        .await
        .unwrap();
    client.close().await.ok();
    drop(driver);
    let numbers = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap_or(f64::NAN))
            .collect()
    };
    let sent: Vec<f64> = std::fs::read_to_string(&sent_log)
        .unwrap()
        .lines()
        .map(|l| l.parse::<f64>().unwrap() / 1000.0)
        .collect();
    let (arrived, framed, shown) = (
        numbers(&data["arrived"]),
        numbers(&data["framed"]),
        numbers(&data["shown"]),
    );
    assert_eq!(
        sent.len(),
        arrived.len(),
        "every surface message the engine sent reached the view once"
    );
    assert!(sent.len() > 500 * turns, "{} surface messages", sent.len());
    // A turn's frames: from its first surface message leaving to 250 ms after its last (the frames that
    // paint the commit, the reply's last line and the view unlocking).
    let streaming = |t: f64| {
        streams
            .iter()
            .any(|s| (sent[s.start]..=sent[s.end - 1] + 250.0).contains(&t))
    };
    let frames_in = |key: &str, keep: &dyn Fn(f64) -> bool| {
        data[key]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| keep(f[0].as_f64().unwrap()))
            .map(|f| f[1].as_f64().unwrap())
            .collect::<Vec<f64>>()
    };
    let frames = frames_in("frames", &streaming);
    let work = frames_in("work", &streaming);
    let work_at: std::collections::HashMap<u64, f64> = data["work"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w[0].as_f64().unwrap().to_bits(), w[1].as_f64().unwrap()))
        .collect();
    let work_before_late = data["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| streaming(f[0].as_f64().unwrap()) && f[1].as_f64().unwrap() > LATE)
        .map(|f| {
            work_at
                .get(&f[2].as_f64().unwrap().to_bits())
                .copied()
                .unwrap_or(f64::NAN)
        })
        .collect();
    let idle_frames = frames_in("frames", &|t| t < sent[0]);
    ChunkToPixel {
        to_pixel: sent.iter().zip(&shown).map(|(s, p)| p - s).collect(),
        to_page: sent.iter().zip(&arrived).map(|(s, a)| a - s).collect(),
        to_frame: arrived.iter().zip(&framed).map(|(a, f)| f - a).collect(),
        frame_to_pixel: framed.iter().zip(&shown).map(|(f, p)| p - f).collect(),
        rate: sent.len() as f64
            / streams
                .iter()
                .map(|s| (sent[s.end - 1] - sent[s.start]) / 1000.0)
                .sum::<f64>(),
        frames,
        work,
        work_before_late,
        idle_frames,
    }
}

/// How many lines the sent log (`REDLINE_PROBE_SENT`) has: a line for each surface message sent.
fn sent_lines(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |s| s.lines().count())
}

/// Waits for the sent log to grow past `before` and then to stay the same for a second (the turn's stream is
/// over), without asking the page anything; returns its length then.
async fn quiet_after_growing(log: &Path, before: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut seen, mut since) = (before, Instant::now());
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let now = sent_lines(log);
        if now != seen {
            (seen, since) = (now, Instant::now());
        } else if seen > before && since.elapsed() > Duration::from_secs(1) {
            return seen;
        }
    }
    panic!(
        "the turn's stream did not start and end within 60 s ({} lines)",
        seen - before
    );
}

/// A frame longer than this is late: longer than one refresh (16.7 ms) by more than the page clock's grain (it
/// reads whole milliseconds: a frame of one refresh reads 16 or 17).
const LATE: f64 = 16.7 + 1.0;

/// p50, p99 and the worst of `times`.
fn quantiles(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), times[times.len() - 1])
}

/// The view under a fast model (a benchmark: `scripts/bench-budgets.sh` runs it on the release build): from a
/// surface message leaving the engine to the frame that shows it painted, p50 and p99, and every frame's
/// length while the turn runs — for the sample and for a resume ten times its size, with the turn's stream
/// over its `ipc::Channel` and over app-wide events. Printed, never judged on time; it asserts that every
/// message the engine sent was applied once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: scripts/bench-budgets.sh"]
async fn bench_chunk_to_pixel_during_a_fast_turn() {
    for (name, resume) in [
        ("sample", redline_resume::sample()),
        ("ten times the sample", ten_times_the_sample()),
    ] {
        {
            let m = chunk_to_pixel(&resume, 2).await;
            let (p50, p99, worst) = quantiles(m.to_pixel.clone());
            let (page50, page99, _) = quantiles(m.to_page);
            let (wait50, wait99, _) = quantiles(m.to_frame);
            let (draw50, draw99, _) = quantiles(m.frame_to_pixel);
            let (frame50, _, longest) = quantiles(m.frames.clone());
            let over = m.frames.iter().filter(|&&f| f > 16.7).count();
            let late = m.frames.iter().filter(|&&f| f > LATE).count();
            // A late frame whose next one is short enough for the two to fit in two refreshes kept the beat:
            // it began late, and no refresh was missed.
            let kept_beat = m
                .frames
                .windows(2)
                .filter(|w| w[0] > LATE && w[0] + w[1] <= 2.0 * 16.7 + 1.0)
                .count();
            let long = m.frames.iter().filter(|&&f| f > 16.7 * 1.5).count();
            let (idle50, _, idle_longest) = quantiles(m.idle_frames.clone());
            let (work50, work99, work_longest) = quantiles(m.work.clone());
            let work_over = m.work.iter().filter(|&&w| w > 16.0).count();
            let before_late = m.work_before_late.iter().copied().fold(0.0, f64::max);
            println!(
                "chunk to pixel, {name}, over the turn's channel: {n} surface messages at {rate:.0}/s: p50 {p50:.1} ms, \
                 p99 {p99:.1} ms, worst {worst:.1} ms (to the DOM: p50 {page50:.1} ms, p99 {page99:.1} ms; then \
                 waiting for a frame: p50 {wait50:.1}, p99 {wait99:.1} ms; the frame's style, layout and paint: \
                 p50 {draw50:.1}, p99 {draw99:.1} ms); {frames} frames while it streamed (median {frame50:.1} ms), \
                 the longest {longest:.1} ms, {over} over 16.7 ms ({late} by more than \
                 the page clock's 1 ms grain, {kept_beat} of them with the next frame short enough for the two \
                 to fit in two refreshes), {long} over 25 ms; a frame's own work, from its start to its \
                 being painted: p50 {work50:.1}, p99 {work99:.1} ms, the longest {work_longest:.1} ms, \
                 {work_over} over 16 ms; the frame before a late one: at most {before_late:.1} ms; idle before it, frames of \
                 median {idle50:.1} ms, the longest {idle_longest:.1} ms",
                n = m.to_pixel.len(),
                rate = m.rate,
                frames = m.frames.len(),
            );
        }
    }
}
