//! The programs the export tests read their files back with (poppler's `pdftotext`, `pdffonts` and
//! `pdfinfo`, pandoc, LibreOffice), shared by `tests/pdf.rs` and `tests/docx.rs`. `scripts/setup.sh --test`
//! installs them.

use std::process::Command;

/// What the program `name` writes on its standard output, run with `args`. The test fails if it is not
/// installed, or if it fails (with what it said on its standard error).
pub fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} is needed: {e}; scripts/setup.sh --test installs it"));
    assert!(
        out.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
