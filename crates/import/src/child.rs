//! A PDF read in another process, bounded in memory and time: a file built to inflate to gigabytes, or to
//! keep a reader busy, stops there, and the process that asked — with the database open in it — is never
//! at its mercy. The command line and the window both read a user's PDF this way, by starting the
//! `redline` program in a hidden reading mode (`read-pdf-lines`, `read-pdf-text`).
//!
//! The memory bound holds on every system: the `redline` program's allocator (`redline_memory::Bounded`)
//! counts what it holds, and a reading mode caps it (`redline_memory::cap`, with [`memory_limit`]); an
//! allocation past the cap fails, and the reader stops.
//! On Linux the kernel holds the child to the same bound as well (its data segment), whatever allocates.
//!
//! The child starts with an empty environment and only the variables named in [`PASSED`]: what the
//! parent's environment holds (an `OPENAI_API_KEY`, a token) is not in the process that parses hostile
//! bytes.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The memory the reading of one PDF may take: a resume's PDF needs a few MB (31 pages: under 20 MB above
/// the program's own).
pub const MEMORY: u64 = 1 << 30;

/// How long the reading of one PDF may take: a 31-page resume takes under half a second.
pub const TIME: Duration = Duration::from_secs(60);

/// The most the reader may print: a resume's lines as JSON are well under 1 MB.
const MAX_OUTPUT: u64 = 64 << 20;

/// Why a bounded reading gave nothing.
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    /// It ran past its time and was stopped.
    #[error("reading its text took longer than {} s", .0.as_secs())]
    TooSlow(Duration),
    /// It ran out of memory or stopped without saying why.
    #[error("reading its text needed more than {} MB of memory or stopped the reader", memory_limit() >> 20)]
    Stopped,
    /// It refused the file and said why (its exit code, and its words without the program's name).
    #[error("{message}")]
    Said { code: i32, message: String },
    /// It could not be started.
    #[error("the reader could not be started: {0}")]
    Start(#[from] std::io::Error),
}

/// [`TIME`], or less when `REDLINE_PDF_READ_SECONDS` says so (the tests' way to see the bound act without
/// waiting a minute; it can only shorten it).
fn time_limit() -> Duration {
    std::env::var("REDLINE_PDF_READ_SECONDS")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(TIME, |s| Duration::from_secs(s).min(TIME))
}

/// [`MEMORY`], or less when `REDLINE_PDF_READ_MB` says so (the tests' way to see the allocator's cap act
/// below the kernel's; it can only lower it).
pub fn memory_limit() -> u64 {
    std::env::var("REDLINE_PDF_READ_MB")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(MEMORY, |mb| (mb << 20).min(MEMORY))
}

/// The variables the child is given from this process's environment, each for what it needs and nothing
/// else: the tests' lower memory bound, which the reading mode caps itself with ([`memory_limit`]); where
/// the fonts a theme is set in are, when they were named (`REDLINE_FONTS`); on Windows, where the system's own libraries are found (without it, a program cannot even seed a hash).
#[cfg(not(windows))]
pub const PASSED: &[&str] = &["REDLINE_PDF_READ_MB", "REDLINE_FONTS"];
#[cfg(windows)]
pub const PASSED: &[&str] = &["REDLINE_PDF_READ_MB", "REDLINE_FONTS", "SYSTEMROOT"];

fn command(program: &Path, mode: &str, path: &Path) -> Command {
    let mut command = Command::new(program);
    command.env_clear();
    for name in PASSED {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command
        .arg(mode)
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt as _;
        // SAFETY: between fork and exec the closure calls only setrlimit, which is async-signal-safe, and
        // allocates nothing.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: MEMORY,
                    rlim_max: MEMORY,
                };
                if libc::setrlimit(libc::RLIMIT_DATA, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    command
}

/// What `program mode path` prints, the child bounded in memory ([`memory_limit`]) and time
/// ([`TIME`]).
pub fn run(program: &Path, mode: &str, path: &Path) -> Result<Vec<u8>, ChildError> {
    run_within(program, mode, path, time_limit())
}

/// What `program mode path` prints, the child bounded in memory ([`memory_limit`]) and stopped after
/// `limit`.
pub fn run_within(
    program: &Path,
    mode: &str,
    path: &Path,
    limit: Duration,
) -> Result<Vec<u8>, ChildError> {
    let mut child = command(program, mode, path).spawn()?;
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    // The child's output read on a thread of its own, which says when the child closed it: most children
    // end as they close it, so the wait below starts then, instead of waking every few milliseconds from
    // the start (a 20 ms poll added 10 ms to a theme's 25 ms PDF on average).
    let (closed, output_closed) = std::sync::mpsc::channel();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(MAX_OUTPUT).read_to_end(&mut bytes);
        }
        let _ = closed.send(());
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.take(64 << 10).read_to_string(&mut text);
        }
        text
    });
    let deadline = Instant::now() + limit;
    let _ = output_closed.recv_timeout(limit);
    let mut nap = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ChildError::TooSlow(limit));
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    };
    let (out, err) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    if status.success() {
        return Ok(out);
    }
    // An allocation past the cap: Rust says so and stops the program (by a signal on Unix, an exit code on
    // Windows).
    if err.contains("memory allocation of") {
        return Err(ChildError::Stopped);
    }
    // The child said what was wrong ("redline: …" and its exit code): pass it on. 101 is a panic.
    match status.code().filter(|&c| c != 101) {
        Some(code) => Err(ChildError::Said {
            code,
            message: err.trim().trim_start_matches("redline: ").to_owned(),
        }),
        None => Err(ChildError::Stopped),
    }
}

/// The `redline` program beside this one (the installed app's, a build's), which reads a PDF in its
/// hidden modes; `None` where there is none (a test binary), and the caller reads in its own process.
pub fn reader() -> Option<std::path::PathBuf> {
    let here = std::env::current_exe().ok()?;
    let name = format!("redline{}", std::env::consts::EXE_SUFFIX);
    if here.file_name().is_some_and(|n| n == name.as_str()) {
        return Some(here);
    }
    let beside = here.parent()?.join(name);
    beside.is_file().then_some(beside)
}

/// The lines of the PDF at `path`, read by `program read-pdf-lines path` as [`run`] bounds it.
pub fn pdf_lines(program: &Path, path: &Path) -> Result<Vec<crate::Line>, ChildError> {
    let out = run(program, "read-pdf-lines", path)?;
    serde_json::from_slice(&out).map_err(|e| ChildError::Said {
        code: 1,
        message: format!("its lines came back unreadable: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child that closes its output and goes on running is still stopped at its time, not waited on.
    #[cfg(unix)]
    #[test]
    fn a_child_that_closes_its_output_and_runs_on_is_stopped_in_time() {
        let ended = run_within(
            Path::new("/bin/sh"),
            "-c",
            Path::new("exec >&- 2>&-; exec /bin/sleep 30"),
            Duration::from_secs(1),
        );
        // `TooSlow` comes only once the child was killed and reaped.
        assert!(matches!(ended, Err(ChildError::TooSlow(_))), "{ended:?}");
    }

    /// The child's own environment, as the kernel shows it (`cat /proc/self/environ` run as the child):
    /// none of this process's variables but those passed by name.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_child_sees_none_of_the_parent_s_environment() {
        // This process has variables (cargo and the shell give it PATH, HOME, CARGO_…): none goes on.
        let parent: Vec<String> = std::env::vars_os()
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        assert!(parent.iter().any(|n| !PASSED.contains(&n.as_str())));
        let environ = run(
            Path::new("/bin/cat"),
            "/proc/self/environ",
            Path::new("/dev/null"),
        )
        .unwrap();
        let seen: Vec<String> = environ
            .split(|&b| b == 0)
            .filter(|v| !v.is_empty())
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .collect();
        let names: Vec<&str> = seen
            .iter()
            .map(|v| v.split_once('=').map_or(v.as_str(), |(name, _)| name))
            .collect();
        assert!(names.iter().all(|n| PASSED.contains(n)), "{seen:?}");
    }
}
