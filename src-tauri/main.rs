// No console window beside the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::ffi::OsString;

fn main() -> std::process::ExitCode {
    // `redline-app --cli …` is the `redline` command line (started by the `redline` launcher, cli.rs): the
    // packages carry the engine once, in this binary.
    if std::env::args_os().nth(1).is_some_and(|arg| arg == "--cli") {
        let args = std::iter::once(OsString::from("redline")).chain(std::env::args_os().skip(2));
        return redline_cli::main_from(args);
    }
    redline_app::run();
    std::process::ExitCode::SUCCESS
}
