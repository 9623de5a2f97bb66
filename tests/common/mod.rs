//! What the command-line tests share (`tests/cli.rs`, `tests/updater.rs`, `tests/parity.rs`, …): a child
//! process that must have succeeded.
#![allow(dead_code)] // each includer uses its own part

use std::process::Output;

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
