//! What the command-line tests share (`tests/cli.rs`, `tests/updater.rs`, `tests/parity.rs`, …): a child
//! process that must have succeeded.
#![allow(dead_code)] // each includer uses its own part

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// `redline ARGS` on the data folder `data_dir` (never the one `REDLINE_DATA_DIR` names), as a user runs it.
pub fn redline(data_dir: &Path, args: &[&str]) -> Output {
    redline_with::<&OsStr>(data_dir, args, &[])
}

/// [`redline`] with the environment variables `vars` set.
pub fn redline_with<V: AsRef<OsStr>>(data_dir: &Path, args: &[&str], vars: &[(&str, V)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .env_remove("REDLINE_DATA_DIR")
        .envs(vars.iter().map(|(name, value)| (name, value.as_ref())))
        .output()
        .expect("the redline binary runs")
}

/// `redline export --format pdf --template TEMPLATE -o OUT` on the data folder `data_dir` (`-` for standard
/// output).
pub fn export_pdf(data_dir: &Path, template: &str, out: &str) -> Output {
    export_pdf_with(data_dir, template, out, &[])
}

/// [`export_pdf`] with the environment variables `vars` set.
pub fn export_pdf_with(
    data_dir: &Path,
    template: &str,
    out: &str,
    vars: &[(&str, &OsStr)],
) -> Output {
    let args = [
        "export",
        "--format",
        "pdf",
        "--template",
        template,
        "-o",
        out,
    ];
    redline_with(data_dir, &args, vars)
}

/// `out`, once it is known to have succeeded; otherwise the test fails with what the process said on its
/// standard error.
#[track_caller]
pub fn succeeded(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
