//! What can stop a sync, in words a user can act on. A file in the folder that cannot be read is not an
//! error: it is skipped and said so (see [`crate::Skipped`]), and the sync goes on.

use std::path::PathBuf;

use redline_error_kind::ErrorKind;

/// Why a sync could not run.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The sync folder cannot be created, listed or written.
    #[error("cannot use the sync folder {path}: {source}")]
    Folder {
        /// The folder or file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The folder already carries another person's Redline library.
    #[error(
        "the sync folder {path} already holds the resumes of another Redline library ({theirs}); \
         choose an empty folder, or the one your own devices share"
    )]
    OtherLibrary {
        /// The folder.
        path: PathBuf,
        /// The library id its marker names.
        theirs: String,
    },
    /// The folder's marker file is there but cannot be read yet (a sync engine may still be copying it).
    #[error(
        "the sync folder's marker {path} cannot be read ({reason}); if your drive is still copying, \
         try again in a moment"
    )]
    Marker {
        /// The marker file.
        path: PathBuf,
        /// Why it could not be read.
        reason: String,
    },
    /// A device or document id that is not one Redline makes.
    #[error("{what} “{id}” is not a valid sync id")]
    BadId {
        /// What the id names (a device, a document).
        what: &'static str,
        /// The id as given.
        id: String,
    },
    /// A document the device knows nothing of.
    #[error("no synced document has the id {0}")]
    NoDocument(String),
    /// An edit made here could not be recorded (it does not apply to the document as this device has it).
    #[error("this edit cannot be recorded for sync: {0}")]
    Refused(String),
    /// The folder, or what a git remote sent, holds more files or bytes than a Redline library can.
    #[error(
        "{place} holds more than {limit} {what}, more than a Redline library ever does; nothing was \
         read from it. Choose a folder (or a remote) that holds only Redline's files"
    )]
    TooLarge {
        /// The folder or remote.
        place: String,
        /// The bound.
        limit: String,
        /// What was counted ("files", "of data").
        what: &'static str,
    },
    /// The git remote asked for a user name and a token, and had none, or refused the ones kept for it.
    #[error("{}", credentials_words(url, *refused))]
    GitCredentials {
        /// The remote's address (without any token).
        url: String,
        /// True when credentials were given and refused; false when there were none.
        refused: bool,
    },
    /// The git remote could not be reached, read or written.
    #[error("the git remote {url} could not be synced: {message}")]
    Git {
        /// The remote's address.
        url: String,
        /// What libgit2 said.
        message: String,
    },
}

impl SyncError {
    /// What kind of failure it is, for the window's action and the command line's exit status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            SyncError::Folder { .. } => ErrorKind::ReadOnly,
            SyncError::OtherLibrary { .. } => ErrorKind::Conflict,
            SyncError::Marker { .. } => ErrorKind::Busy,
            SyncError::BadId { .. } | SyncError::Refused(_) | SyncError::TooLarge { .. } => {
                ErrorKind::Invalid
            }
            SyncError::NoDocument(_) => ErrorKind::NotFound,
            SyncError::Git { .. } => ErrorKind::Unreachable,
            SyncError::GitCredentials { .. } => ErrorKind::NotConfigured,
        }
    }
}

fn credentials_words(url: &str, refused: bool) -> String {
    let what = if refused {
        "refused the user name and token kept for it"
    } else {
        "asks for a user name and a token"
    };
    format!(
        "the git remote {url} {what}: give them once in its address, as https://USER:TOKEN@host/path \
         (a personal access token with read and write access to the repository); the token is kept in \
         your keychain, never in Redline's files"
    )
}
