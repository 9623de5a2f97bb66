//! `redline sync`: the resumes on every device the user owns, through a folder their cloud drive carries
//! or a git remote they own. `redline sync folder PATH` and `redline sync git URL` choose where and sync
//! once; `redline sync` syncs again; `status` says where and when; `off` stops.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use redline_engine::sync::{SyncPlace, SyncSummary};

use super::{local, on_engine, plain, print};

/// What `redline sync` does besides syncing.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Sync through this folder from now on (one that Syncthing, Dropbox, iCloud Drive, OneDrive or
    /// Nextcloud carries), and sync once. Redline writes its files in `redline-sync` inside it.
    Folder {
        /// The folder (it must exist; not inside Redline's data folder).
        path: PathBuf,
    },
    /// Sync through this git remote from now on (`https://`, `git://`, `file://`, a bare repository), and
    /// sync once. For a remote that asks for a token, give it once in the address:
    /// `https://USER:TOKEN@host/path`; the token is kept in your keychain, the address without it.
    Git {
        /// The remote's address.
        url: String,
    },
    /// Where this device syncs, when it last did, and the other devices seen; nothing is synced.
    Status,
    /// Stop syncing; what was synced stays, here and in the folder.
    Off,
}

/// `redline sync [ACTION] [--json]`.
pub fn run(
    data_dir: &Path,
    action: Option<Action>,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let summary = match &action {
        None => on_engine(data_dir, async |e| e.sync_now().await)?,
        Some(Action::Folder { path }) => {
            on_engine(data_dir, async |e| e.sync_through_folder(path).await)?
        }
        Some(Action::Git { url }) => on_engine(data_dir, async |e| e.sync_through_git(url).await)?,
        Some(Action::Status) => on_engine(data_dir, async |e| e.sync_status().await)?,
        Some(Action::Off) => on_engine(data_dir, async |e| e.sync_off().await)?,
    };
    print(
        out,
        json,
        &serde_json::to_value(&summary)?,
        |out| match action {
            Some(Action::Status) => status(out, &summary),
            Some(Action::Off) => writeln!(out, "Sync is off."),
            _ => words(out, &summary),
        },
    )
}

fn place(summary: &SyncSummary) -> String {
    match &summary.place {
        Some(SyncPlace::Folder { path }) => format!("the folder {}", plain(path)),
        Some(SyncPlace::Git { url }) => format!("the git remote {}", plain(url)),
        None => "nowhere (sync is off)".to_owned(),
    }
}

fn status(out: &mut dyn Write, summary: &SyncSummary) -> std::io::Result<()> {
    match summary.place {
        Some(_) => writeln!(out, "Syncs through {}.", place(summary))?,
        None => writeln!(out, "Sync is off.")?,
    }
    if !summary.device.is_empty() {
        writeln!(out, "This device: {}", summary.device)?;
    }
    match summary.last_synced_at {
        Some(ms) => writeln!(out, "Last synced: {}", local(ms))?,
        None => writeln!(out, "Not synced yet.")?,
    }
    writeln!(out, "Other devices seen: {}", summary.devices.len())
}

/// What a sync did, in words.
fn words(out: &mut dyn Write, summary: &SyncSummary) -> std::io::Result<()> {
    writeln!(
        out,
        "Synced through {}: {} change(s) sent, {} taken from {} file(s) read, {} file(s) written.",
        place(summary),
        summary.sent,
        summary.accepted,
        summary.read,
        summary.written
    )?;
    for (what, titles) in [
        ("New here", &summary.brought_in),
        ("Changed on another device", &summary.updated),
        ("Deleted on another device", &summary.deleted),
    ] {
        for title in titles {
            writeln!(out, "{what}: {}", plain(title))?;
        }
    }
    if summary.held > 0 {
        writeln!(
            out,
            "{} edit(s) changed on another device too wait for your choice (redline held)",
            summary.held
        )?;
    }
    for notice in &summary.notices {
        writeln!(out, "{}", plain(notice))?;
    }
    for skipped in &summary.skipped {
        writeln!(
            out,
            "Left for now: {} ({})",
            plain(&skipped.file),
            plain(&skipped.reason)
        )?;
    }
    Ok(())
}
