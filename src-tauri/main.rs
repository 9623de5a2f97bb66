// No console window beside the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// The same counted allocator as the `redline` binary's (cli.rs), never capped here: with it, the two
/// binaries' machine code stays alike wherever they allocate, and the installers' xz finds it twice (with
/// the system's allocator here, the .deb was 20.3 MB, over its 20 MB budget; with this one, 19.7 MB).
#[global_allocator]
static ALLOCATOR: redline_memory::Bounded = redline_memory::Bounded;

// The command line is the `redline` binary (cli.rs), a binary of the engine's crates without the GUI.
fn main() -> std::process::ExitCode {
    redline_app::run();
    std::process::ExitCode::SUCCESS
}
