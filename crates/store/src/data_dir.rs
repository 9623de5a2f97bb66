//! Where Redline keeps its data.
//!
//! The desktop app and the `redline` CLI share one folder, so the CLI shows what the app shows. Tests and
//! scripts pick another folder with `--data-dir` or the `REDLINE_DATA_DIR` environment variable and never
//! touch a user's real data.

use std::path::PathBuf;

/// The app's identifier, as in `tauri.conf.json`; it names the data folder.
pub const APP_IDENTIFIER: &str = "app.redline.desktop";

/// The environment variable that overrides the data folder.
pub const DATA_DIR_ENV: &str = "REDLINE_DATA_DIR";

/// The OS's per-user app-data folder for Redline (the same one Tauri's `app_data_dir` names):
/// `~/.local/share/app.redline.desktop` on Linux, `~/Library/Application Support/app.redline.desktop` on
/// macOS, `%APPDATA%\app.redline.desktop` on Windows.
pub fn default_data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join(APP_IDENTIFIER))
}

/// The data folder to use: `explicit` if given, else `REDLINE_DATA_DIR` if set and non-empty, else the
/// default.
pub fn resolve_data_dir(explicit: Option<PathBuf>) -> Option<PathBuf> {
    explicit
        .or_else(|| {
            std::env::var_os(DATA_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .or_else(default_data_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_folder_wins() {
        let explicit = PathBuf::from("/tmp/somewhere");
        assert_eq!(resolve_data_dir(Some(explicit.clone())), Some(explicit));
    }

    #[test]
    fn the_default_folder_is_named_after_the_app() {
        if let Some(dir) = default_data_dir() {
            assert!(dir.ends_with(APP_IDENTIFIER));
        }
    }
}
