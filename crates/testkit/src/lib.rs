//! What Redline's tests and benchmarks make, never shipped: a data folder as years of use leave it
//! ([`year`]), two devices' data folders beside the sync folder they share ([`two_devices`]), and every
//! file under a folder ([`files_under`], to search a data folder for what must not be there). A
//! dev-dependency only; no shipping crate depends on it.

#![forbid(unsafe_code)]

pub mod year;

/// A temporary folder (kept while the first value lives) holding two devices' data folders, `a` and `b`
/// (not made yet), and the sync folder they share, `cloud` (made).
pub fn two_devices() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let root = tempfile::tempdir().unwrap();
    let (a, b, folder) = (
        root.path().join("a"),
        root.path().join("b"),
        root.path().join("cloud"),
    );
    std::fs::create_dir_all(&folder).unwrap();
    (root, a, b, folder)
}

/// Every file under `dir`, in its sub-folders too.
pub fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}
