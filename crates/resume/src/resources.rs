//! The files Redline installs beside its programs, found the same way by each of them: the fonts a resume
//! is set in, the spelling dictionaries and the grammar checker's program. They are files, not compiled
//! into the programs, so that the app and the command line share one copy (and each keeps its own
//! licence).
//!
//! A folder of them is looked for, in order: in the variable the caller names (`REDLINE_FONTS`,
//! `REDLINE_DICTIONARIES`); among the installed app's resources (Linux `/usr/lib/Redline/<name>` beside
//! `/usr/bin`, macOS `Contents/Resources/<name>`, Windows `<name>` beside the program); in the source
//! tree's `assets/<name>` (a checkout's builds and tests).

use std::path::{Path, PathBuf};

/// The folder `name` of Redline's installed files, the first of the places above in which `holds` finds
/// what it needs; `None` when there is none. A folder named by `variable` is the only one looked at.
pub fn folder(name: &str, variable: &str, holds: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(variable).map(PathBuf::from) {
        return holds(&dir).then_some(dir);
    }
    let installed = program_folder().into_iter().flat_map(|bin| {
        [
            bin.join("../lib/Redline").join(name),
            bin.join("../Resources").join(name),
            bin.join(name),
        ]
    });
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets")
        .join(name);
    installed.chain([source]).find(|dir| holds(dir))
}

/// The program `name` (with the system's ending, `.exe` on Windows) installed beside this one; in a build
/// tree, a test's program (in `target/<profile>/deps`) finds the build's programs a folder up.
pub fn program(name: &str) -> Option<PathBuf> {
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    let bin = program_folder()?;
    [bin.join(&file), bin.join("..").join(&file)]
        .into_iter()
        .find(|path| path.is_file())
}

/// The folder of the running program.
fn program_folder() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.parent().map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkout's build finds the source tree's assets; a folder that lacks what is needed is passed
    /// over, and a variable naming such a folder finds nothing rather than another folder.
    #[test]
    fn a_folder_is_found_where_it_holds_what_is_needed() {
        let found = folder("fonts", "REDLINE_TEST_NO_SUCH_VARIABLE", |dir| {
            dir.join("DejaVuSans.ttf").is_file()
        })
        .expect("the source tree's fonts");
        assert!(found.join("DejaVuSans.ttf").is_file());
        assert_eq!(
            folder("fonts", "REDLINE_TEST_NO_SUCH_VARIABLE", |_| false),
            None
        );
        assert_eq!(program("redline-no-such-program"), None);
    }
}
