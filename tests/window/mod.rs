//! What the window tests and the window benchmarks share: a tauri-driver and the built app behind it, and
//! the waits a user's eye does (an element, a text, a chat line, a button by its name).
#![allow(dead_code)] // each includer uses its own part

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// A running tauri-driver, stopped when dropped.
pub struct Driver {
    pub child: Child,
    pub port: u16,
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

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn start_driver() -> Driver {
    start_driver_with(&[])
}

/// A tauri-driver whose app gets `env` on top of this process's environment.
pub fn start_driver_with(env: &[(&str, &str)]) -> Driver {
    start_driver_logged(env, Stdio::inherit())
}

/// [`start_driver_with`], the app's diagnostics (its standard error) going to `log`.
pub fn start_driver_logged(env: &[(&str, &str)], log: impl Into<Stdio>) -> Driver {
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

pub fn app_binary() -> PathBuf {
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

pub async fn connect(driver: &Driver, data_dir: &std::path::Path) -> Client {
    connect_with(driver, data_dir, &[]).await
}

/// [`connect`], the app started with `files` to open (as a file manager starts it).
pub async fn connect_with(
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
pub async fn element(client: &Client, testid: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(&format!("[data-testid='{testid}']")))
        .await
        .unwrap_or_else(|e| panic!("no element {testid} in the window: {e}"))
}

/// Waits for an element with `testid`, then returns every one in the window.
pub async fn all(client: &Client, testid: &str) -> Vec<fantoccini::elements::Element> {
    element(client, testid).await;
    client
        .find_all(Locator::Css(&format!("[data-testid='{testid}']")))
        .await
        .unwrap()
}

/// Waits for the element with `testid` and returns its text.
pub async fn text_of(client: &Client, testid: &str) -> String {
    element(client, testid).await.text().await.unwrap()
}

/// Waits for a line of the chat that contains `text`; false if none comes.
pub async fn chat_says(client: &Client, text: &str) -> bool {
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::XPath(&format!("//li[contains(., '{text}')]")))
        .await
        .is_ok()
}

pub fn screenshot_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/e2e");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Saves a screenshot of the window as `target/e2e/NAME`. WebKitGTK's WebDriver takes it once the page has
/// drawn its next frame, and a window at rest draws none (with the page's own scrollbars nothing repaints
/// by itself): it waited forever. So the page draws meanwhile: one pixel in its corner flips between two
/// opacities no eye can tell apart, every 16 ms, until the screenshot is taken.
pub async fn screenshot(client: &Client, name: &str) {
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

/// The frame's check (the audit's, `ui/audit/frame-problems.js`) at 1024×700 and 1920×1080: the toolbar one
/// row, no control over another or out of the window; a screenshot of each as `target/e2e/NAME-WxH.png`.
/// The window is left at its first size (1280×820) after.
pub async fn frame_at_sizes(client: &Client, name: &str) {
    for (width, height) in [(1024, 700), (1920, 1080), (1280, 820)] {
        client.set_window_size(width, height).await.unwrap();
        // The page has its new width once it has laid out for it (its height is the window's less the menu
        // bar's).
        until_script(
            client,
            "return innerWidth;",
            serde_json::json!(width),
            &format!("the window never became {width} pixels wide"),
        )
        .await;
        if width == 1280 {
            break;
        }
        let frame = run_js(
            client,
            // In parentheses: the script opens with comments, and a `return` alone returns nothing.
            &format!(
                "return (\n{}\n);",
                include_str!("../../ui/audit/frame-problems.js")
            ),
        )
        .await;
        assert_eq!(
            frame["problems"],
            serde_json::json!([]),
            "{width}×{height}: {frame}"
        );
        screenshot_after(client, 300, &format!("{name}-{width}x{height}.png")).await;
    }
}

/// [`screenshot`], `ms` milliseconds from now (once the window has painted what it was just asked to).
pub async fn screenshot_after(client: &Client, ms: u64, name: &str) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    screenshot(client, name).await;
}

/// Polls until the element with `testid` reads `want` (the view updates as events arrive).
pub async fn wait_for_text(client: &Client, testid: &str, want: impl Fn(&str) -> bool) -> String {
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

/// Waits until no element with `testid` is in the window.
pub async fn gone(client: &Client, testid: &str) {
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
pub async fn button(client: &Client, name: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::XPath(&format!(
            "//button[normalize-space()='{name}' or @aria-label='{name}']"
        )))
        .await
        .unwrap_or_else(|e| panic!("no button “{name}”: {e}"))
}

/// Types `message` into the chat and sends it.
pub async fn send_chat(client: &Client, message: &str) {
    element(client, "chat-input")
        .await
        .send_keys(message)
        .await
        .unwrap();
    element(client, "chat-send").await.click().await.unwrap();
}

/// Sends `message` as turn `turn` of a document that started at revision 1, and waits until the turn has
/// saved its revision and is over (Send is back).
pub async fn saved_turn(client: &Client, message: &str, turn: usize) {
    send_chat(client, message).await;
    let saved = format!("Saved as revision {}.", turn + 1);
    assert!(chat_says(client, &saved).await, "turn {turn} did not save");
    wait_for_text(client, "chat-send", |t| t == "Send").await;
}

/// [`open_window`] with nothing configured, once the first-start sample is on screen.
pub async fn open_on_the_sample() -> (tempfile::TempDir, Driver, Client) {
    let (data_dir, driver, client) = open_window(&UNCONFIGURED).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    (data_dir, driver, client)
}

/// A fixture of `crates/agent/fixtures`, by its file name.
pub fn fixture(name: &str) -> redline_agent::fixtures::Fixture {
    redline_agent::fixtures::load(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("crates/agent/fixtures")
            .join(name),
    )
    .unwrap()
}

/// A replay server of `replies`, at the default pace.
pub async fn replay(replies: Vec<redline_agent::Reply>) -> redline_agent::ReplayServer {
    redline_agent::ReplayServer::start(replies, redline_agent::Pace::default())
        .await
        .unwrap()
}

/// An environment in which the app has nothing configured: no base URL, no key.
pub const UNCONFIGURED: [(&str, &str); 2] = [("OPENAI_API_KEY", ""), ("REDLINE_BASE_URL", "")];

/// A tauri-driver whose app has nothing configured ([`UNCONFIGURED`]).
pub fn start_unconfigured() -> Driver {
    start_driver_with(&UNCONFIGURED)
}

/// The app in a window, with `env` on top of this process's environment and a data folder of its own:
/// the folder, the driver and the WebDriver client.
pub async fn open_window(env: &[(&str, &str)]) -> (tempfile::TempDir, Driver, Client) {
    let data_dir = tempfile::tempdir().unwrap();
    let driver = start_driver_with(env);
    let client = connect(&driver, data_dir.path()).await;
    (data_dir, driver, client)
}

/// The environment that points the app at the replay server at `url` (no key, its two models).
pub fn replay_env(url: &str) -> [(&'static str, &str); 4] {
    [
        ("OPENAI_API_KEY", ""),
        ("REDLINE_BASE_URL", url),
        ("REDLINE_MODEL", "replay-chat"),
        ("REDLINE_PATCH_MODEL", "replay-patch"),
    ]
}

/// Waits for the element with `testid` and clicks it.
pub async fn click(client: &Client, testid: &str) {
    element(client, testid).await.click().await.unwrap();
}

/// Waits for the select with `testid` and chooses its option `value`.
pub async fn choose(client: &Client, testid: &str, value: &str) {
    element(client, testid)
        .await
        .select_by_value(value)
        .await
        .unwrap();
}

/// Waits for the button named `name` (see [`button`]) and presses it.
pub async fn press(client: &Client, name: &str) {
    button(client, name).await.click().await.unwrap();
}

/// Clicks what `locator` finds in the window now (without waiting for it).
pub async fn click_now(client: &Client, locator: Locator<'_>) {
    client.find(locator).await.unwrap().click().await.unwrap();
}

/// Presses the Close button that is in the window now (without waiting for one).
pub async fn close_now(client: &Client) {
    click_now(
        client,
        Locator::XPath("//button[normalize-space()='Close']"),
    )
    .await;
}

/// What `script` returns, run in the page.
pub async fn run_js(client: &Client, script: &str) -> serde_json::Value {
    client.execute(script, vec![]).await.unwrap()
}

/// Runs `script` in the page until it returns `want`; fails with `never` after 30 s.
pub async fn until_script(client: &Client, script: &str, want: serde_json::Value, never: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while run_js(client, script).await != want {
        assert!(Instant::now() < deadline, "{never}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The sample resume with `name` in place of Richard's.
pub fn sample_as(name: &str) -> serde_json::Value {
    let mut resume = redline_resume::sample();
    resume["basics"]["name"] = json!(name);
    resume
}

/// `resume`, written (pretty) to `dir/file`.
pub fn write_resume(dir: &std::path::Path, file: &str, resume: &serde_json::Value) -> PathBuf {
    let path = dir.join(file);
    std::fs::write(&path, serde_json::to_vec_pretty(resume).unwrap()).unwrap();
    path
}

/// What the `redline` command line beside the app prints with `--data-dir DATA_DIR ARGS`, as JSON.
pub fn redline_json(data_dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let out = Command::new(app_binary().with_file_name("redline"))
        .args(["--data-dir", data_dir.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}
