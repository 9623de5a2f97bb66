//! Signed updates against a loopback update server: the `latest.json` a release publishes, and artifacts
//! signed by `tauri signer` with a key this test generates (never a committed one).
//!
//! The app's updater is the real tauri-plugin-updater, configured as `tauri.conf.json` configures it
//! (`requireSignedVersion` on), with the test's public key; what the user would read is
//! `redline_app::updates::words`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use redline_app::updates::{self, Found};
use serde_json::{Value, json};
use tauri_plugin_updater::UpdaterExt;

/// The Tauri CLI the project's npm packages install (`scripts/setup.sh`).
fn tauri_cli() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/node_modules/.bin/tauri");
    assert!(
        cli.exists(),
        "{} is missing: run scripts/setup.sh (it installs the UI's npm packages, the Tauri CLI among them)",
        cli.display()
    );
    cli
}

/// A signing key pair made by `tauri signer generate`: the private key's file and the public key.
struct Key {
    private: PathBuf,
    public: String,
}

const PASSWORD: &str = "test-only";

fn generate_key(dir: &Path, name: &str) -> Key {
    let private = dir.join(name);
    common::succeeded(
        Command::new(tauri_cli())
            .args(["signer", "generate", "--ci", "-f", "-p", PASSWORD, "-w"])
            .arg(&private)
            .output()
            .unwrap(),
    );
    let public = std::fs::read_to_string(private.with_extension("key.pub"))
        .or_else(|_| std::fs::read_to_string(format!("{}.pub", private.display())))
        .unwrap();
    Key { private, public }
}

/// Signs `file` for `version` with `key`; the signature as `latest.json` carries it.
fn sign(key: &Key, file: &Path, version: &str) -> String {
    common::succeeded(
        Command::new(tauri_cli())
            .args([
                "signer",
                "sign",
                "-p",
                PASSWORD,
                "--app-version",
                version,
                "-f",
            ])
            .arg(&key.private)
            .arg(file)
            .env_remove("TAURI_SIGNING_PRIVATE_KEY")
            .output()
            .unwrap(),
    );
    std::fs::read_to_string(format!("{}.sig", file.display())).unwrap()
}

/// What the loopback server serves: `/latest.json` and `/artifact`.
#[derive(Clone, Default)]
struct Served {
    manifest: Arc<Mutex<Value>>,
    artifact: Arc<Mutex<Vec<u8>>>,
}

async fn serve(served: Served) -> String {
    use axum::routing::get;
    let manifest = served.manifest.clone();
    let artifact = served.artifact.clone();
    let app = axum::Router::new()
        .route(
            "/latest.json",
            get(move || {
                let manifest = manifest.lock().unwrap().clone();
                async move { axum::Json(manifest) }
            }),
        )
        .route(
            "/artifact",
            get(move || {
                let bytes = artifact.lock().unwrap().clone();
                async move { bytes }
            }),
        );
    listen(app).await
}

/// Serves `app` on a loopback port; its base URL.
async fn listen(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}")
}

/// A body of `byte`s that never ends.
fn endless_body(byte: u8) -> axum::body::Body {
    let chunk = axum::body::Bytes::from(vec![byte; 64 << 10]);
    axum::body::Body::from_stream(futures_util::stream::repeat_with(move || {
        Ok::<_, std::io::Error>(chunk.clone())
    }))
}

/// `latest.json` as the release workflow writes it, announcing `version` for this platform.
fn manifest(base: &str, version: &str, signature: &str) -> Value {
    let target = tauri_plugin_updater::target().expect("a platform the updater knows");
    let entry = json!({ "signature": signature, "url": format!("{base}/artifact") });
    let mut platforms = serde_json::Map::new();
    for bundle in ["", "-deb", "-rpm", "-appimage", "-app", "-msi", "-nsis"] {
        platforms.insert(format!("{target}{bundle}"), entry.clone());
    }
    json!({
        "version": version,
        "notes": "Faster exports.",
        "pub_date": "2026-11-23T12:00:00Z",
        "platforms": platforms,
    })
}

/// The app's updater, configured as `tauri.conf.json` does, with `public_key` and the loopback endpoint.
fn updater(
    public_key: &str,
    base: &str,
) -> (
    tauri::App<tauri::test::MockRuntime>,
    tauri_plugin_updater::Updater,
) {
    let shipped: Value =
        serde_json::from_str(include_str!("../tauri.conf.json")).expect("tauri.conf.json");
    let mut config = shipped["plugins"]["updater"].clone();
    assert_eq!(
        config["requireSignedVersion"], true,
        "releases require signed versions"
    );
    config["pubkey"] = json!(public_key);
    config["endpoints"] = json!([format!("{base}/latest.json")]);
    // Plain http on loopback, for the test only: the shipped endpoints are https.
    config["dangerousInsecureTransportProtocol"] = json!(true);
    let mut context = tauri::test::mock_context(tauri::test::noop_assets());
    context
        .config_mut()
        .plugins
        .0
        .insert("updater".into(), config);
    let app = tauri::test::mock_builder()
        .plugin(tauri_plugin_updater::Builder::new().build())
        .build(context)
        .unwrap();
    let updater = app.updater().unwrap();
    (app, updater)
}

struct Release {
    _dir: tempfile::TempDir,
    key: Key,
    artifact: PathBuf,
    bytes: Vec<u8>,
}

/// A newer release's artifact, and the key pair that signs releases.
fn release() -> Release {
    let dir = tempfile::tempdir().unwrap();
    let key = generate_key(dir.path(), "release.key");
    let bytes: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
    let artifact = dir.path().join("Redline_0.2.0_amd64.AppImage");
    std::fs::write(&artifact, &bytes).unwrap();
    Release {
        _dir: dir,
        key,
        artifact,
        bytes,
    }
}

/// The update the app is offered when the server announces `announced`, with `signature`, and serves
/// `artifact`; the app trusts `trusted` (a public key). The app is returned too: the update lives with it.
async fn offered(
    trusted: &str,
    announced: &str,
    signature: &str,
    artifact: Vec<u8>,
) -> (
    tauri::App<tauri::test::MockRuntime>,
    tauri_plugin_updater::Update,
) {
    let served = Served::default();
    let base = serve(served.clone()).await;
    *served.manifest.lock().unwrap() = manifest(&base, announced, signature);
    *served.artifact.lock().unwrap() = artifact;
    let (app, updater) = updater(trusted, &base);
    let Found::Newer(update) = updates::check(app.handle(), &updater).await.unwrap() else {
        panic!("{announced} is newer than 0.1.0 and was not offered");
    };
    (app, *update)
}

/// `release`'s artifact, whole, signed as 0.2.0 by `signer` and announced as `announced`, to an app that
/// trusts the release key.
async fn offered_release(
    release: &Release,
    signer: &Key,
    announced: &str,
) -> (
    tauri::App<tauri::test::MockRuntime>,
    tauri_plugin_updater::Update,
) {
    let signature = sign(signer, &release.artifact, "0.2.0");
    offered(
        &release.key.public,
        announced,
        &signature,
        release.bytes.clone(),
    )
    .await
}

#[tokio::test]
async fn a_correctly_signed_newer_release_is_offered_and_verifies() {
    let release = release();
    let (_app, update) = offered_release(&release, &release.key, "0.2.0").await;
    assert_eq!(update.version, "0.2.0");
    assert_eq!(update.body.as_deref(), Some("Faster exports."));
    let bytes = updates::fetch(&update)
        .await
        .expect("a correctly signed artifact verifies");
    assert_eq!(bytes, release.bytes);
}

#[tokio::test]
async fn a_tampered_artifact_is_refused() {
    let release = release();
    let signature = sign(&release.key, &release.artifact, "0.2.0");
    let mut tampered = release.bytes.clone();
    tampered[123_456] ^= 1;
    let (_app, update) = offered(&release.key.public, "0.2.0", &signature, tampered).await;
    let refused = updates::fetch(&update).await.unwrap_err();
    assert!(
        refused.contains("does not carry Redline's signature")
            && refused.contains("Nothing was installed"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_signature_by_another_key_is_refused() {
    let release = release();
    let stranger = generate_key(release._dir.path(), "stranger.key");
    // The app trusts the release key only.
    let (_app, update) = offered_release(&release, &stranger, "0.2.0").await;
    let refused = updates::fetch(&update).await.unwrap_err();
    assert!(
        refused.contains("does not carry Redline's signature"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_manifest_that_renames_an_older_release_is_refused() {
    // The artifact was signed as 0.2.0; a tampered latest.json announces it as 0.3.0.
    let release = release();
    let (_app, update) = offered_release(&release, &release.key, "0.3.0").await;
    let refused = updates::fetch(&update).await.unwrap_err();
    assert!(
        refused.contains("announced version 0.3.0") && refused.contains("signed as version 0.2.0"),
        "{refused}"
    );
}

/// A server that sends more than any update (or never stops) is cut off at the limit, in words, before
/// anything is held whole or verified.
#[tokio::test]
async fn an_update_larger_than_the_limit_is_refused_while_it_downloads() {
    let release = release();
    // Announced by its length: 800 KB, over a 256 KB limit.
    let (_app, update) = offered_release(&release, &release.key, "0.2.0").await;
    let refused = updates::fetch_at_most(&update, 256 << 10)
        .await
        .unwrap_err();
    assert!(
        refused.contains("more than") && refused.contains("Nothing was installed"),
        "{refused}"
    );

    // No length, and no end: the stream is cut at the limit.
    use axum::routing::get;
    let endless = axum::Router::new().route("/artifact", get(|| async { endless_body(0) }));
    let base = listen(endless).await;
    let mut endless_update = update;
    endless_update.download_url = format!("{base}/artifact").parse().unwrap();
    let refused = updates::fetch_at_most(&endless_update, 1 << 20)
        .await
        .unwrap_err();
    assert!(refused.contains("more than 1 MB"), "{refused}");
}

/// A manifest that never ends (or is far larger than one) is refused at its bound, as it arrives; one of
/// a million values is refused before it is read into memory.
#[tokio::test]
async fn a_manifest_is_read_with_a_bound() {
    use axum::routing::get;
    let release = release();
    let hostile = axum::Router::new()
        .route("/endless/latest.json", get(|| async { endless_body(b' ') }))
        .route(
            "/values/latest.json",
            get(|| async { format!("[{}0]", "[],".repeat(300_000)) }),
        );
    let base = listen(hostile).await;
    let (app, endless) = updater(&release.key.public, &format!("{base}/endless"));
    let Err(said) = updates::check(app.handle(), &endless).await else {
        panic!("an endless manifest offered something");
    };
    assert!(said.contains("more than 1 MB"), "{said}");
    let (app, values) = updater(&release.key.public, &format!("{base}/values"));
    let Err(said) = updates::check(app.handle(), &values).await else {
        panic!("a manifest of a million values offered something");
    };
    assert!(said.contains("over 100000 values"), "{said}");
}

#[tokio::test]
async fn an_older_or_equal_version_is_not_offered() {
    let release = release();
    let served = Served::default();
    let base = serve(served.clone()).await;
    *served.artifact.lock().unwrap() = release.bytes.clone();
    let (app, updater) = updater(&release.key.public, &base);
    for version in ["0.0.9", "0.1.0"] {
        let signature = sign(&release.key, &release.artifact, version);
        *served.manifest.lock().unwrap() = manifest(&base, version, &signature);
        assert!(
            matches!(
                updates::check(app.handle(), &updater).await.unwrap(),
                Found::UpToDate
            ),
            "{version} was offered to 0.1.0"
        );
    }
}

#[tokio::test]
async fn an_unreachable_server_is_said_in_words() {
    let release = release();
    // A port nothing listens on.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let (app, updater) = updater(&release.key.public, &base);
    let Err(said) = updates::check(app.handle(), &updater).await else {
        panic!("a server that does not answer offered something");
    };
    assert!(
        said.starts_with("Could not reach the update server"),
        "{said}"
    );
}

#[test]
fn the_shipped_configuration_is_signed_and_over_https() {
    let shipped: Value = serde_json::from_str(include_str!("../tauri.conf.json")).unwrap();
    assert_eq!(shipped["bundle"]["createUpdaterArtifacts"], true);
    let updater = &shipped["plugins"]["updater"];
    assert!(updater["pubkey"].as_str().is_some_and(|k| k.len() > 40));
    for endpoint in updater["endpoints"].as_array().unwrap() {
        assert!(
            endpoint.as_str().unwrap().starts_with("https://"),
            "{endpoint}"
        );
    }
    assert!(updater.get("dangerousInsecureTransportProtocol").is_none());
    // The version is Cargo's, kept in one place: tauri.conf.json has none.
    assert!(shipped.get("version").is_none());
}
