//! The codebase keeps its shape: within each crate, no two modules lean on each other, directly or around a
//! longer loop (a cycle makes each half unreadable without the other, and is how a crate's layout stops
//! saying what depends on what). Read from the sources: a module's `crate::other` and `super::other` paths,
//! outside its tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each crate's source folder, the app's shell included.
fn source_folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    folders.push(root.join("src-tauri"));
    folders.sort();
    folders
}

/// The text of `path` without its tests (what follows `#[cfg(test)]`), and without comments.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names that follow each `prefix` in `code`: `crate::ipc::X` gives `ipc`, and `crate::{ipc, kept}`
/// gives both.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => {
                        names.insert(word(item.trim()));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    names.insert(word(item.trim()));
                    break;
                }
                if depth == 1 {
                    item.push(c);
                }
            }
        } else {
            names.insert(word(rest));
        }
    }
    names.remove("");
    names
}

/// The crate's modules below its root (a file `x.rs`, or a folder `x/` with its files), each with the
/// sibling modules its code names.
fn module_uses(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let inner = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"));
            files.entry(name).or_default().extend(inner);
        } else if path.extension().is_some_and(|e| e == "rs")
            && !["lib", "main", "build", "cli"].contains(&name.as_str())
        {
            files.entry(name).or_default().push(path);
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(module, paths)| {
            let mut uses = BTreeSet::new();
            for path in paths {
                let code = code_of(path);
                uses.extend(names_after(&code, "crate::"));
                // `super::` from a top-level module is the crate's root; from inside a folder, the module.
                if path.parent() == Some(src) {
                    uses.extend(names_after(&code, "super::"));
                }
            }
            let siblings = uses
                .into_iter()
                .filter(|used| used != module && modules.contains(used))
                .collect();
            (module.clone(), siblings)
        })
        .collect()
}

/// A loop among `uses`, if there is one: the modules around it, in order.
fn a_cycle(uses: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in uses.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, uses, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    uses.keys()
        .find_map(|module| visit(module, uses, &mut Vec::new(), &mut done))
}

#[test]
fn no_two_modules_of_a_crate_lean_on_each_other() {
    let mut read = 0;
    for src in source_folders() {
        let uses = module_uses(&src);
        read += uses.len();
        if let Some(cycle) = a_cycle(&uses) {
            panic!(
                "{}: the modules {} depend on each other in a loop",
                src.display(),
                cycle.join(" -> ")
            );
        }
    }
    assert!(read > 40, "the crates' modules were read: {read}");
}

/// The reading itself finds what it should: a loop where there is one, the names in a `use` group.
#[test]
fn the_reading_finds_a_loop_and_the_names_in_a_group() {
    assert_eq!(
        names_after("use crate::{ipc::{A, B}, kept, x::y};", "crate::"),
        BTreeSet::from(["ipc".to_owned(), "kept".to_owned(), "x".to_owned()])
    );
    assert_eq!(
        names_after("let a = my_crate::ipc::A; crate::streams::B", "crate::"),
        BTreeSet::from(["streams".to_owned()])
    );
    let uses = BTreeMap::from([
        ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
        ("b".to_owned(), BTreeSet::from(["c".to_owned()])),
        ("c".to_owned(), BTreeSet::from(["a".to_owned()])),
    ]);
    assert_eq!(a_cycle(&uses).unwrap().len(), 4);
    let uses = BTreeMap::from([
        ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
        ("b".to_owned(), BTreeSet::new()),
    ]);
    assert_eq!(a_cycle(&uses), None);
}
