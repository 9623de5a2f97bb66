//! The sync folder: a `redline-sync` folder inside the one the user chose, one sub-folder per device, one
//! file per event (`redline-sync/<device>/<sha256>.json`), and `library.json`, the marker that says whose
//! library the folder carries. Nothing here is ever changed once written: a file appears whole (written
//! beside, then renamed) or not at all.

use std::collections::HashSet;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::SyncError;
use crate::event::{MAX_FILE_BYTES, check_id};
use crate::merge::Known;

/// The folder Redline keeps inside the one the user chose.
pub const DIR: &str = "redline-sync";
/// The marker file naming the library, written once.
pub const MARKER: &str = "library.json";
/// The largest the marker may be.
const MAX_MARKER_BYTES: u64 = 4096;
/// The most files a sync folder may hold: a year of heavy use on several devices is some 100,000; a
/// folder with more is not (only) Redline's, and listing it would cost memory without end.
pub const MAX_FILES: usize = 1_000_000;

/// The most bytes one sync reads from the folder's files, so that memory stays bounded whatever the
/// folder holds ([`MAX_FILES`] files of up to 1 MiB each would be a terabyte). A revision's event is
/// some 400 bytes (a generated year of heavy use, 10,000 revisions, is 4 MB): a real library is read in
/// one sync; what is beyond the bound waits for the next.
pub const MAX_PASS_BYTES: u64 = 256 << 20;

/// What the marker says.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Marker {
    format: u32,
    library: String,
}

/// A sync folder, checked to carry this library.
#[derive(Debug, Clone)]
pub struct Folder {
    root: PathBuf,
    max_files: usize,
    max_pass_bytes: u64,
}

/// A path that does not lie in the sync folder ([`Folder::entry_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotHere;

/// One file found in a device's folder.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The device folder's name.
    pub device: String,
    /// The file's name.
    pub name: String,
    /// False for a link, a pipe, a device or a folder: those are never opened (a link could lead out of
    /// the folder, and opening a pipe waits for ever).
    pub plain: bool,
}

impl Entry {
    /// The file as the folder names it: `device/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.device, self.name)
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SyncError + '_ {
    move |source| SyncError::Folder {
        path: path.to_owned(),
        source,
    }
}

impl Folder {
    /// The library the folder at `path` carries, if it has a marker yet.
    pub fn library(path: &Path) -> Result<Option<String>, SyncError> {
        let marker = path.join(DIR).join(MARKER);
        let bytes = match read_plain(&marker, MAX_MARKER_BYTES) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                return Err(SyncError::Marker {
                    path: marker,
                    reason: "it is not a plain file of Redline's size".to_owned(),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(&marker)(e)),
        };
        let bad = |reason: String| SyncError::Marker {
            path: marker.clone(),
            reason,
        };
        let read: Marker = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
        check_id(&read.library).map_err(bad)?;
        Ok(Some(read.library))
    }

    /// The folder at `path` as it is, if it carries a library yet (its marker), without writing anything:
    /// to look at what it holds before choosing it.
    pub fn existing(path: &Path) -> Result<Option<(Folder, String)>, SyncError> {
        Ok(Folder::library(path)?.map(|library| {
            let folder = Folder {
                root: path.join(DIR),
                max_files: MAX_FILES,
                max_pass_bytes: MAX_PASS_BYTES,
            };
            (folder, library)
        }))
    }

    /// Opens the folder at `path` for library `library`: writes the marker if there is none, refuses a
    /// folder whose marker names another library.
    pub fn open(path: &Path, library: &str) -> Result<Folder, SyncError> {
        check_id(library).map_err(|_| SyncError::BadId {
            what: "the library",
            id: library.to_owned(),
        })?;
        let root = path.join(DIR);
        fs::create_dir_all(&root).map_err(io(&root))?;
        match Folder::library(path)? {
            Some(theirs) if theirs != library => {
                return Err(SyncError::OtherLibrary {
                    path: path.to_owned(),
                    theirs,
                });
            }
            Some(_) => {}
            None => {
                let marker = Marker {
                    format: crate::event::FORMAT,
                    library: library.to_owned(),
                };
                let bytes = serde_json::to_vec_pretty(&marker).expect("a marker serializes");
                write_once(&root, MARKER, &bytes)?;
                // Two devices may have raced to write it: the one that landed decides.
                if let Some(theirs) = Folder::library(path)?
                    && theirs != library
                {
                    return Err(SyncError::OtherLibrary {
                        path: path.to_owned(),
                        theirs,
                    });
                }
            }
        }
        Ok(Folder {
            root,
            max_files: MAX_FILES,
            max_pass_bytes: MAX_PASS_BYTES,
        })
    }

    /// The `redline-sync` folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The same folder, listing at most `max` files (a test's smaller bound).
    pub fn with_max_files(self, max: usize) -> Folder {
        Folder {
            max_files: max,
            ..self
        }
    }

    /// The same folder, reading at most `bytes` of its files in one sync (a test's smaller bound).
    pub fn with_max_pass_bytes(self, bytes: u64) -> Folder {
        Folder {
            max_pass_bytes: bytes,
            ..self
        }
    }

    /// The most bytes one sync reads from the folder's files ([`MAX_PASS_BYTES`]).
    pub fn max_pass_bytes(&self) -> u64 {
        self.max_pass_bytes
    }

    /// Every `.json` file in a device's folder (temporary files, starting with `.`, are not listed); an
    /// error in words when the folder holds more than [`MAX_FILES`].
    pub fn list(&self) -> Result<Vec<Entry>, SyncError> {
        let mut out = Vec::new();
        for dir in fs::read_dir(&self.root).map_err(io(&self.root))? {
            let dir = dir.map_err(io(&self.root))?;
            let Ok(device) = dir.file_name().into_string() else {
                continue;
            };
            if check_id(&device).is_err() || !dir.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            self.list_into(&device, &mut out)?;
        }
        Ok(out)
    }

    /// The `.json` files in the folder of device `device` alone (none when it has no folder here).
    pub fn list_device(&self, device: &str) -> Result<Vec<Entry>, SyncError> {
        let mut out = Vec::new();
        let path = self.root.join(device);
        if check_id(device).is_ok() && path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
            self.list_into(device, &mut out)?;
        }
        Ok(out)
    }

    /// Adds the `.json` files of device `device`'s folder to `out`, bounded by [`MAX_FILES`] in all.
    fn list_into(&self, device: &str, out: &mut Vec<Entry>) -> Result<(), SyncError> {
        let path = self.root.join(device);
        for file in fs::read_dir(&path).map_err(io(&path))? {
            let file = file.map_err(io(&path))?;
            if out.len() >= self.max_files {
                return Err(SyncError::TooLarge {
                    place: format!("the sync folder {}", self.root.display()),
                    limit: format!("{} files", self.max_files),
                    what: "files",
                });
            }
            let Ok(name) = file.file_name().into_string() else {
                continue;
            };
            if name.ends_with(".json") && !name.starts_with('.') {
                // The entry's own type: a link is not followed to learn it.
                let plain = file.file_type().is_ok_and(|t| t.is_file());
                out.push(Entry {
                    device: device.to_owned(),
                    name,
                    plain,
                });
            }
        }
        Ok(())
    }

    /// The entry for the file at `path`, as a watch on the folder names it: `Ok(None)` for a file that is
    /// not an event's (a temporary file, another name, one outside a device's folder); an error when
    /// `path` does not lie in this folder at all (the caller lists the folder instead).
    pub fn entry_at(&self, path: &Path) -> Result<Option<Entry>, NotHere> {
        let inside = path.strip_prefix(&self.root).map_err(|_| NotHere)?;
        let mut parts = inside.components().map(|c| c.as_os_str().to_str());
        let (Some(Some(device)), Some(Some(name)), None) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Ok(None);
        };
        if check_id(device).is_err() || !name.ends_with(".json") || name.starts_with('.') {
            return Ok(None);
        }
        // Gone again (a drive's copy moved aside): nothing to read.
        let Ok(meta) = path.symlink_metadata() else {
            return Ok(None);
        };
        Ok(Some(Entry {
            device: device.to_owned(),
            name: name.to_owned(),
            plain: meta.is_file(),
        }))
    }

    /// A file's bytes, at most [`MAX_FILE_BYTES`] of them (`Ok(None)`: it is larger, gone, or not a plain
    /// file).
    pub fn read(&self, entry: &Entry) -> Result<Option<Vec<u8>>, SyncError> {
        let path = self.root.join(&entry.device).join(&entry.name);
        match read_plain(&path, MAX_FILE_BYTES) {
            Ok(bytes) => Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io(&path)(e)),
        }
    }

    /// Writes an event's file unless it is there; returns the bytes written (0: it was there).
    pub fn write(&self, known: &Known) -> Result<u64, SyncError> {
        let (hash, bytes) = known.event.encode();
        debug_assert_eq!(hash, known.hash);
        let dir = self.root.join(&known.event.device);
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        let written = write_once(&dir, &format!("{hash}.json"), &bytes)?;
        Ok(if written { bytes.len() as u64 } else { 0 })
    }

    /// The hashes of the hash-named files present.
    pub fn present(entries: &[Entry]) -> HashSet<&str> {
        entries
            .iter()
            .filter_map(|e| {
                let stem = e.name.strip_suffix(".json")?;
                crate::event::is_hash(stem).then_some(stem)
            })
            .collect()
    }
}

/// The bytes of the plain file at `path`, if it holds at most `max` of them (`Ok(None)`: it is larger, or
/// not a plain file). A link is not followed and a pipe is not waited on: where the system allows, the
/// file is opened without following a link and without blocking, then checked to be a plain file before
/// a byte is read (a file swapped for something else after it was listed is caught here too).
fn read_plain(path: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        // O_NOFOLLOW on a link: it is there, and it is not a plain file.
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(None),
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// The last part of `path`'s name, when there is one in UTF-8.
fn named(path: Option<&Path>) -> Option<&str> {
    path.and_then(Path::file_name).and_then(|n| n.to_str())
}

/// True for a file another device's events are kept in: `redline-sync/<device>/<name>.json`, not a
/// temporary file (their names start with a dot), not this device's own.
pub fn is_another_devices_file(path: &Path, own: &str) -> bool {
    let Some(name) = named(Some(path)) else {
        return false;
    };
    let device = named(path.parent());
    name.ends_with(".json") && !name.starts_with('.') && device.is_some_and(|d| d != own)
}

/// True for another device's folder: `redline-sync/<device>`, not `own`'s (files written into a new one
/// before a watch reaches it give no event of their own).
pub fn is_another_devices_folder(path: &Path, own: &str) -> bool {
    named(path.parent()) == Some(DIR)
        && named(Some(path)).is_some_and(|d| d != own && check_id(d).is_ok())
}

/// Writes `bytes` to `dir/name` whole or not at all: into a hidden temporary file first, flushed to disk,
/// then renamed without replacing. Returns false when the file was already there.
fn write_once(dir: &Path, name: &str, bytes: &[u8]) -> Result<bool, SyncError> {
    let target = dir.join(name);
    if target.exists() {
        return Ok(false);
    }
    let mut temp = tempfile::Builder::new()
        .prefix(".redline-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io(dir))?;
    temp.write_all(bytes).map_err(io(&target))?;
    temp.as_file().sync_all().map_err(io(&target))?;
    match temp.persist_noclobber(&target) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(io(&target)(e.error)),
    }
}
