//! A simulated device for the tests: a replica and what it remembers of the folder.

#![allow(dead_code)]

use std::path::Path;

use redline_patch::Operation;
use redline_sync::{Body, Folder, FolderState, Known, Replica, Report, new_id, sync};
use serde_json::{Value, json};

/// A temporary folder, in memory where the system has one: the tests write thousands of small files, each
/// flushed to disk, which a disk makes slow and a tmpfs makes free.
pub fn temp_folder() -> tempfile::TempDir {
    match tempfile::tempdir_in("/dev/shm") {
        Ok(dir) => dir,
        Err(_) => tempfile::tempdir().unwrap(),
    }
}

/// One device of one person.
pub struct Device {
    pub replica: Replica,
    pub state: FolderState,
    pub folder: Folder,
}

impl Device {
    /// A new device syncing through `path`, for library `library`.
    pub fn new(path: &Path, library: &str) -> Device {
        Device {
            replica: Replica::new(&new_id()).unwrap(),
            state: FolderState::default(),
            folder: Folder::open(path, library).unwrap(),
        }
    }

    pub fn id(&self) -> String {
        self.replica.device().to_owned()
    }

    pub fn sync(&mut self) -> Report {
        sync(&mut self.replica, &self.folder, &mut self.state).unwrap()
    }

    pub fn edit(&mut self, doc: &str, ops: Vec<Operation>) -> Known {
        self.edit_at(doc, ops, 1_700_000_000)
    }

    pub fn edit_at(&mut self, doc: &str, ops: Vec<Operation>, made_at: i64) -> Known {
        let body = Body::Edit {
            source: "user".into(),
            summary: "an edit".into(),
            forward: ops,
        };
        self.replica.record(doc, body, made_at).unwrap()
    }

    pub fn doc(&mut self, doc: &str) -> Value {
        self.replica.merged(doc).unwrap().document.clone()
    }
}

pub fn replace(path: &str, value: Value) -> Operation {
    Operation::Replace {
        path: path.into(),
        value,
    }
}

pub fn add(path: &str, value: Value) -> Operation {
    Operation::Add {
        path: path.into(),
        value,
    }
}

pub fn resume() -> Value {
    json!({
        "basics": {"name": "Ada Lovelace", "label": "Engineer", "summary": "Writes programs."},
        "work": [
            {"name": "Analytical Engines", "position": "Programmer", "summary": "Notes."},
            {"name": "Babbage & Co", "position": "Analyst", "summary": "Tables."}
        ],
        "skills": [{"name": "Mathematics"}]
    })
}
