//! `redline`, the command line (its code is in `crates/cli`): the engine's crates with no GUI library, so
//! that a command starts as a command line does — it loads neither WebKitGTK nor GTK. It is built by the
//! app's package so that the installers carry it beside the app.

/// The system's allocator, counted: a hidden reading mode caps what it may hold, on every system
/// (`redline_memory`).
#[global_allocator]
static ALLOCATOR: redline_memory::Bounded = redline_memory::Bounded;

fn main() -> std::process::ExitCode {
    redline_cli::main_from(std::env::args_os())
}
