// No console window beside the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

// The command line is the `redline` binary (cli.rs), a binary of the engine's crates without the GUI.
fn main() -> std::process::ExitCode {
    redline_app::run();
    std::process::ExitCode::SUCCESS
}
