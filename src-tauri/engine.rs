//! What the app holds while it runs.

use std::path::PathBuf;
use std::sync::Mutex;

use redline_patch::{Surface, SurfaceUpdate};
use redline_store::{Store, StoreError};

/// The surface id of the main window's resume view.
pub const MAIN_SURFACE: &str = "main";

/// The engine as the app runs it: the open store and the resume view it feeds.
pub struct Engine {
    data_dir: Option<PathBuf>,
    state: Result<Mutex<Open>, String>,
}

struct Open {
    store: Store,
    document_id: i64,
    surface: Surface,
}

impl Engine {
    /// Opens the store in `data_dir`, creating it with the bundled sample resume on first start. A failure
    /// does not stop the app: the window opens and says what is wrong.
    pub fn start(data_dir: Option<PathBuf>) -> Engine {
        let state = match &data_dir {
            None => Err("cannot tell where your data folder is: start Redline with --data-dir DIR or set REDLINE_DATA_DIR".to_owned()),
            Some(dir) => open(dir).map(Mutex::new).map_err(|e| e.to_string()),
        };
        Engine { data_dir, state }
    }

    /// Why the engine could not start, if it could not.
    pub fn problem(&self) -> Option<&str> {
        self.state.as_ref().err().map(String::as_str)
    }

    /// The data folder in use.
    pub fn data_dir(&self) -> Option<&PathBuf> {
        self.data_dir.as_ref()
    }

    /// A `create` message with the current document at its head revision.
    pub fn open_surface(&self) -> Result<SurfaceUpdate, String> {
        let open = self.state.as_ref().map_err(Clone::clone)?;
        let mut open = open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let head = open
            .store
            .head(open.document_id)
            .map_err(|e| e.to_string())?;
        Ok(open.surface.create(head.number, head.document))
    }
}

fn open(dir: &std::path::Path) -> Result<Open, StoreError> {
    let mut store = Store::open(dir)?;
    let current = store.current_or_import(redline_resume::first_resume)?;
    // A backup a day (by default), made on start; failing to make one must not keep the app from opening.
    if let Err(e) = store.backup_if_due() {
        eprintln!("redline: no backup was made: {e}");
    }
    Ok(Open {
        store,
        document_id: current.id,
        surface: Surface::new(MAIN_SURFACE),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_start_shows_the_sample() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        assert_eq!(engine.problem(), None);
        let SurfaceUpdate::Create(create) = engine.open_surface().unwrap() else {
            panic!("the first message is a create");
        };
        assert_eq!(create.document, redline_resume::sample());
        assert_eq!(create.revision, 1);
        assert!(
            redline_store::backup::latest(&dir.path().join(redline_store::DATABASE_FILE)).is_some(),
            "the first start makes the first backup"
        );
    }

    #[test]
    fn a_damaged_database_is_reported_to_the_window() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("redline.db"), b"garbage ".repeat(1000)).unwrap();
        let engine = Engine::start(Some(dir.path().to_owned()));
        assert!(engine.problem().unwrap().contains("damaged"));
        assert!(engine.open_surface().unwrap_err().contains("damaged"));
    }
}
