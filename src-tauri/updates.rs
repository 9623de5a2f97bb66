//! Signed updates: "Check for Updates…" reads the release server's `latest.json` (at most
//! [`MAX_MANIFEST_BYTES`]) and asks tauri-plugin-updater whether it is a newer Redline; an update is installed only when its signature verifies against the
//! public key compiled into the app (`plugins.updater.pubkey` in `tauri.conf.json`) and was made for the
//! version the server announces.
//!
//! Where Redline was not installed from one of its own packages (built from source, or packaged by a
//! distribution), it cannot replace itself: the user is told to update through their package manager.

use redline_bounded::{BodyError, body_at_most};
use tauri::{AppHandle, Runtime};
use tauri_plugin_updater::{Error, Update, Updater};

/// What a check found.
pub enum Found {
    /// This is the newest version.
    UpToDate,
    /// A newer version is offered.
    Newer(Box<Update>),
}

/// How this copy of Redline can be updated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Redline replaces itself (macOS's app, Windows' installers, Linux's AppImage, .deb and .rpm — the last
    /// two asking for the administrator's password, as the package manager would).
    InPlace,
    /// Not one of Redline's own packages: the package manager (or a new download) updates it.
    PackageManager,
}

/// This copy's route, from the bundle type the packager wrote into the binary.
pub fn route() -> Route {
    match tauri::utils::platform::bundle_type() {
        Some(_) => Route::InPlace,
        None if cfg!(target_os = "linux") => Route::PackageManager,
        None => Route::InPlace,
    }
}

/// The most bytes of a release manifest: `latest.json` is a few KB (a version, notes, and a signature and
/// an address per platform). The plugin's own check reads whatever the server sends, so Redline reads it.
pub const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// Asks the update servers (`plugins.updater.endpoints`, in order) for their manifest, read with a bound;
/// a release that is not newer than this one is not offered. The manifest becomes an update as the plugin's
/// own check makes one (`Updater::restore_update`: its target, its version rule, and a signature that
/// must name the version).
pub async fn check<R: Runtime>(app: &AppHandle<R>, updater: &Updater) -> Result<Found, String> {
    redline_agent::install_tls();
    let config = (app.config().plugins.0.get("updater").cloned()).unwrap_or_default();
    let insecure_allowed = config["dangerousInsecureTransportProtocol"] == true;
    let client = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(30))
        .timeout(std::time::Duration::from_secs(60))
        .user_agent(concat!("Redline/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(unreachable)?;
    let version = app.package_info().version.to_string();
    let endpoints = config["endpoints"].as_array().cloned().unwrap_or_default();
    let mut failed = "No update server is configured in this copy of Redline.".to_owned();
    for endpoint in endpoints.iter().filter_map(serde_json::Value::as_str) {
        let Ok(url) = reqwest::Url::parse(&endpoint_url(endpoint, &version)) else {
            continue;
        };
        if url.scheme() != "https" && !insecure_allowed {
            failed = words(&Error::InsecureTransportProtocol);
            continue;
        }
        match manifest(&client, url).await {
            Ok(None) => return Ok(Found::UpToDate),
            Ok(Some(manifest)) => {
                return match updater.restore_update(manifest) {
                    Ok(Some(update)) => Ok(Found::Newer(Box::new(update))),
                    Ok(None) => Ok(Found::UpToDate),
                    Err(e) => Err(words(&e)),
                };
            }
            Err(said) => failed = said,
        }
    }
    Err(failed)
}

/// An endpoint's address with the plugin's variables filled in: `{{current_version}}`, `{{target}}`,
/// `{{arch}}` and `{{bundle_type}}`.
fn endpoint_url(endpoint: &str, version: &str) -> String {
    let target = tauri_plugin_updater::target().unwrap_or_default();
    let (os, arch) = target.split_once('-').unwrap_or_default();
    let bundle = match tauri::utils::platform::bundle_type() {
        Some(bundle) => format!("{bundle:?}").to_lowercase(),
        None => "unknown".to_owned(),
    };
    let version = version.replace('+', "%2B");
    let mut url = endpoint.to_owned();
    for (name, value) in [
        ("current_version", version.as_str()),
        ("target", os),
        ("arch", arch),
        ("bundle_type", bundle.as_str()),
    ] {
        url = url
            .replace(&format!("{{{{{name}}}}}"), value)
            .replace(&format!("%7B%7B{name}%7D%7D"), value);
    }
    url
}

/// The manifest at `url`, at most [`MAX_MANIFEST_BYTES`], as JSON (its values counted before they are
/// built); `None` when the server says there is nothing new (204).
async fn manifest(
    client: &reqwest::Client,
    url: reqwest::Url,
) -> Result<Option<serde_json::Value>, String> {
    let request = client
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json");
    let mut response = send(request).await?;
    if response.status() == reqwest::StatusCode::NO_CONTENT {
        return Ok(None);
    }
    let bytes = body(&mut response, MAX_MANIFEST_BYTES, || {
        format!(
            "The update server's answer was refused: it sent more than {} MB where a few KB were \
             expected. Nothing was installed; this version keeps running.",
            MAX_MANIFEST_BYTES >> 20
        )
    })
    .await?;
    redline_bounded::json(&bytes).map(Some).map_err(|e| {
        format!(
            "The update server's answer could not be read ({e}). Nothing was installed; this version \
             keeps running."
        )
    })
}

/// `request` sent: its answer, or (no answer, or an error status) the update server unreachable, in words.
async fn send(request: reqwest::RequestBuilder) -> Result<reqwest::Response, String> {
    request
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(unreachable)
}

/// The body of `response`, at most `limit` bytes: a longer one is refused in `too_large`'s words, a broken
/// one is the update server unreachable.
async fn body(
    response: &mut reqwest::Response,
    limit: usize,
    too_large: impl FnOnce() -> String,
) -> Result<Vec<u8>, String> {
    body_at_most(response, limit).await.map_err(|e| match e {
        BodyError::TooLarge => too_large(),
        BodyError::Broken(e) => unreachable(e),
    })
}

/// The update server could not be reached, in words.
fn unreachable(e: impl std::fmt::Display) -> String {
    format!("Could not reach the update server ({e}). Check your connection and try again later.")
}

/// The largest update Redline downloads: several times any installer it has shipped (16 MB today). The
/// updater plugin's own download holds whatever the server sends; a server that never ends must not
/// exhaust memory before the signature is checked.
pub const MAX_UPDATE_BYTES: usize = 256 << 20;

/// How long the download may go without a byte before it is given up: a server that stops sending (or
/// sends a byte a minute) must not hold the update open for ever.
pub const DOWNLOAD_QUIET: std::time::Duration = std::time::Duration::from_secs(60);

/// How long the whole download may take: a 16 MB installer over a slow line (20 KB/s) takes under 15
/// minutes.
pub const DOWNLOAD_TIME: std::time::Duration = std::time::Duration::from_secs(20 * 60);

/// Downloads `update` (at most [`MAX_UPDATE_BYTES`], within [`DOWNLOAD_TIME`], never quiet longer than
/// [`DOWNLOAD_QUIET`]) and verifies its signature; the bytes are returned only when it verifies.
pub async fn fetch(update: &Update) -> Result<Vec<u8>, String> {
    fetch_at_most(update, MAX_UPDATE_BYTES).await
}

/// [`fetch`] with another limit (tests use a small one).
pub async fn fetch_at_most(update: &Update, limit: usize) -> Result<Vec<u8>, String> {
    redline_agent::install_tls();
    let client = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(30))
        .read_timeout(DOWNLOAD_QUIET)
        .timeout(DOWNLOAD_TIME)
        .build()
        .map_err(unreachable)?;
    let request = client
        .get(update.download_url.clone())
        .headers(update.headers.clone())
        .header(reqwest::header::ACCEPT, "application/octet-stream");
    let mut response = send(request).await?;
    let bytes = body(&mut response, limit, || {
        format!(
            "The update was refused: the server sent more than {} MB, far more than any Redline. Nothing \
             was installed; this version keeps running.",
            limit >> 20
        )
    })
    .await?;
    update.verify(&bytes).map_err(|e| words(&e))?;
    Ok(bytes)
}

/// An updater error in plain words, with what happened to the app (nothing, in every case).
pub fn words(error: &Error) -> String {
    match error {
        Error::Minisign(_) | Error::Base64(_) | Error::SignatureUtf8(_) => {
            "The update was refused: it does not carry Redline's signature (it may have been damaged or \
             tampered with on the way). Nothing was installed; this version keeps running."
                .to_owned()
        }
        Error::SignedVersionMismatch { signed, announced } => format!(
            "The update was refused: the server announced version {announced} but the file it offered was \
             signed as version {signed}. Nothing was installed."
        ),
        Error::MissingSignedVersion => {
            "The update was refused: its signature does not say which version it is. Nothing was installed."
                .to_owned()
        }
        Error::Reqwest(_) | Error::Network(_) | Error::ReleaseNotFound => format!(
            "Could not reach the update server ({error}). Check your connection and try again later."
        ),
        Error::TargetNotFound(_) | Error::TargetsNotFound(_) => {
            "There is no update for this system yet.".to_owned()
        }
        Error::InsecureTransportProtocol => {
            "The update server's address is not https, so it was not asked.".to_owned()
        }
        Error::AuthenticationFailed => {
            "The update was not installed: the administrator's password was not given.".to_owned()
        }
        other => format!("The update could not be installed: {other}."),
    }
}

/// "Check for Updates…": checks, offers a newer version in a dialog, and installs it when asked.
pub fn check_from_menu<R: Runtime>(app: AppHandle<R>) {
    tauri::async_runtime::spawn(async move {
        let said = run_from_menu(&app).await;
        if let Err(text) = said {
            tell(
                &app,
                "Check for Updates",
                &text,
                tauri_plugin_dialog::MessageDialogKind::Warning,
            )
            .await;
        }
    });
}

async fn run_from_menu<R: Runtime>(app: &AppHandle<R>) -> Result<(), String> {
    use tauri_plugin_dialog::MessageDialogKind;
    use tauri_plugin_updater::UpdaterExt;
    let current = app.package_info().version.to_string();
    redline_agent::install_tls();
    let updater = app.updater_builder().build().map_err(|e| words(&e))?;
    let update = match check(app, &updater).await? {
        Found::UpToDate => {
            let text = format!("Redline {current} is the newest version.");
            tell(app, "Check for Updates", &text, MessageDialogKind::Info).await;
            return Ok(());
        }
        Found::Newer(update) => update,
    };
    if route() == Route::PackageManager {
        let text = format!(
            "Redline {} is out (this is {current}). This copy was not installed from one of Redline's own \
             packages: update it through your package manager.",
            update.version
        );
        tell(app, "Update available", &text, MessageDialogKind::Info).await;
        return Ok(());
    }
    let notes = update.body.clone().unwrap_or_default();
    let text = format!(
        "Redline {} is out (this is {current}).\n\n{}\n\nYour resumes stay as they are.",
        update.version,
        notes.trim()
    );
    if !ask(app, "Update available", &text, "Install and Restart").await {
        return Ok(());
    }
    let bytes = fetch(&update).await?;
    log::info!("update {} downloaded and verified", update.version);
    update.install(bytes).map_err(|e| words(&e))?;
    app.restart();
}

async fn tell<R: Runtime>(
    app: &AppHandle<R>,
    title: &str,
    text: &str,
    kind: tauri_plugin_dialog::MessageDialogKind,
) {
    use tauri_plugin_dialog::DialogExt;
    let (done, wait) = tokio::sync::oneshot::channel();
    app.dialog()
        .message(text)
        .title(title)
        .kind(kind)
        .show(move |_| {
            let _ = done.send(());
        });
    let _ = wait.await;
}

async fn ask<R: Runtime>(app: &AppHandle<R>, title: &str, text: &str, yes: &str) -> bool {
    use tauri_plugin_dialog::{DialogExt, MessageDialogButtons};
    let (done, wait) = tokio::sync::oneshot::channel();
    app.dialog()
        .message(text)
        .title(title)
        .buttons(MessageDialogButtons::OkCancelCustom(
            yes.to_owned(),
            "Later".to_owned(),
        ))
        .show(move |yes| {
            let _ = done.send(yes);
        });
    wait.await.unwrap_or(false)
}
