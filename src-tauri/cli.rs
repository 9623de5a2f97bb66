//! `redline`, the command line (its code is in `crates/cli`).
//!
//! This binary is only a launcher: it runs the app's own binary, which carries the engine (Typst and its
//! fonts, SQLite, the model client), in command-line mode (`redline-app --cli …`), so that the installers
//! carry that engine once rather than twice. On Unix the app replaces this process (`exec`), so Ctrl-C
//! and the exit status are the command's own; elsewhere this process waits for it and passes its exit
//! status on.

use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The first argument that puts `redline-app` in command-line mode (`src-tauri/main.rs`).
const CLI_FLAG: &str = "--cli";

fn main() -> ExitCode {
    let app = match app_binary() {
        Ok(app) => app,
        Err(problem) => {
            eprintln!("redline: {problem}");
            return ExitCode::FAILURE;
        }
    };
    let mut command = Command::new(&app);
    command.arg(CLI_FLAG).args(std::env::args_os().skip(1));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = command.exec();
        eprintln!("redline: cannot start {}: {error}", app.display());
        ExitCode::FAILURE
    }
    #[cfg(not(unix))]
    {
        ignore_ctrl_c();
        match command.status() {
            Ok(status) => ExitCode::from(status.code().unwrap_or(1).clamp(0, 255) as u8),
            Err(error) => {
                eprintln!("redline: cannot start {}: {error}", app.display());
                ExitCode::FAILURE
            }
        }
    }
}

/// `redline-app` beside this binary (symbolic links followed: `/usr/bin`, `Redline.app/Contents/MacOS`,
/// the Windows install folder, or `target/<profile>`).
fn app_binary() -> Result<PathBuf, String> {
    let me =
        std::env::current_exe().map_err(|e| format!("cannot tell where this program is: {e}"))?;
    let me = me.canonicalize().unwrap_or(me);
    let app = me.with_file_name(format!("redline-app{}", std::env::consts::EXE_SUFFIX));
    if app.is_file() {
        Ok(app)
    } else {
        Err(format!(
            "the Redline app is not installed beside this command ({} is missing); reinstall Redline",
            app.display()
        ))
    }
}

/// On a Windows console Ctrl-C reaches both processes: the app stops (exit 130) and this one waits for it.
#[cfg(windows)]
fn ignore_ctrl_c() {
    unsafe extern "system" {
        fn SetConsoleCtrlHandler(
            handler: Option<unsafe extern "system" fn(u32) -> i32>,
            add: i32,
        ) -> i32;
    }
    // SAFETY: a null handler with `add` true only sets the process's flag to ignore Ctrl-C.
    unsafe {
        SetConsoleCtrlHandler(None, 1);
    }
}

#[cfg(all(not(unix), not(windows)))]
fn ignore_ctrl_c() {}
