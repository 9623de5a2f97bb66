// No console window beside the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::ffi::OsString;

fn main() -> std::process::ExitCode {
    // `redline-app --cli …` is the `redline` command line too (the `redline` binary, cli.rs, is the same
    // without the GUI libraries).
    if std::env::args_os().nth(1).is_some_and(|arg| arg == "--cli") {
        let args = std::iter::once(OsString::from("redline")).chain(std::env::args_os().skip(2));
        return redline_cli::main_from(args);
    }
    redline_app::run();
    std::process::ExitCode::SUCCESS
}
