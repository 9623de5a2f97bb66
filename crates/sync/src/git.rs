//! A git remote: the sync folder's files committed to a repository and pushed to a remote the user owns,
//! the remote's files pulled back. Files are never changed once written, so merging two histories is the
//! union of their files, and git never has a conflict to report.
//!
//! libgit2 is built in (`git2`, vendored): the product never runs a `git` program. Local paths, `file://`,
//! `git://` and `https://` remotes work; HTTPS goes through the system's TLS (OpenSSL's shared library on
//! Linux, Secure Transport on macOS, WinHTTP on Windows) and checks the server's certificate against the
//! system's authorities. A remote that asks for a user name and a token gets the [`Credentials`] the
//! engine keeps in the OS keychain, once: refused, they are not sent again, and the user is told.

use std::cell::Cell;
use std::path::{Component, Path, PathBuf};

use git2::{
    Commit, Cred, CredentialType, ErrorCode, FetchOptions, FileMode, IndexAddOption, ObjectType,
    Oid, PushOptions, RemoteCallbacks, Repository, Signature, TreeWalkMode, TreeWalkResult,
};

use crate::error::SyncError;
use crate::event::MAX_FILE_BYTES;
use crate::folder::{DIR, MAX_FILES};

/// The branch Redline keeps its files on.
pub const BRANCH: &str = "redline-sync";
const LOCAL: &str = "refs/heads/redline-sync";
const TRACKING: &str = "refs/remotes/origin/redline-sync";
/// How many times a push refused because the remote moved is tried again after a pull.
const PUSH_TRIES: usize = 3;
/// The most a fetch may bring: a library's files are small and compress well (a year of heavy use is a
/// few megabytes); a remote that sends more is not a Redline library, or means harm.
pub const MAX_FETCH_BYTES: usize = 512 << 20;
/// The most objects a fetch may bring: a file, its folders' trees and the commits that carry them.
const MAX_FETCH_OBJECTS: usize = 4 * MAX_FILES;

/// Starts libgit2 so that HTTPS remotes find the system's certificate authorities. On Linux, git2 does that
/// the first time it is used by setting `SSL_CERT_FILE` and `SSL_CERT_DIR` for OpenSSL (openssl-probe),
/// and writing the environment while another thread reads it is unsound: each program calls this first
/// thing in `main`, before any thread starts, so that the write happens there. Elsewhere, and when the
/// variables are set already, it only starts libgit2.
pub fn start_before_threads() {
    // Caching is on by default: this changes nothing but that libgit2 has started.
    git2::opts::enable_caching(true);
}

/// The user name and token (or password) an HTTPS remote asks for. The engine keeps the token in the OS
/// keychain; it is never written to the repository's configuration, a file, or an error's words.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The user name.
    pub user: String,
    /// The token or password.
    pub token: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// A local repository whose work tree is a sync folder, with the user's remote as `origin`.
pub struct GitRemote {
    repo: Repository,
    url: String,
    max_fetch_bytes: usize,
    credentials: Option<Credentials>,
}

/// What a remote's asks for credentials came to during one fetch or push.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Asked {
    /// It did not ask (or has not yet).
    #[default]
    Not,
    /// It asked and was given the credentials.
    Given,
    /// It asked and there were none to give, or it asked again after refusing them.
    Refused,
}

impl std::fmt::Debug for GitRemote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitRemote").field("url", &self.url).finish()
    }
}

impl GitRemote {
    /// Opens the repository at `dir` (made if there is none) with `url` as its remote.
    pub fn open(dir: &Path, url: &str) -> Result<GitRemote, SyncError> {
        let fail = |e: git2::Error| SyncError::Git {
            url: url.to_owned(),
            message: e.message().to_owned(),
        };
        std::fs::create_dir_all(dir).map_err(|source| SyncError::Folder {
            path: dir.to_owned(),
            source,
        })?;
        let repo = match Repository::open(dir) {
            Ok(repo) => repo,
            Err(e) if e.code() == ErrorCode::NotFound => Repository::init(dir).map_err(fail)?,
            Err(e) => return Err(fail(e)),
        };
        match repo.find_remote("origin") {
            Ok(remote) if remote.url() == Some(url) => {}
            Ok(_) => repo.remote_set_url("origin", url).map_err(fail)?,
            Err(_) => {
                repo.remote("origin", url).map_err(fail)?;
            }
        }
        Ok(GitRemote {
            repo,
            url: url.to_owned(),
            max_fetch_bytes: MAX_FETCH_BYTES,
            credentials: None,
        })
    }

    /// The same remote, giving `credentials` when it asks for a user name and a token.
    pub fn with_credentials(self, credentials: Option<Credentials>) -> GitRemote {
        GitRemote {
            credentials,
            ..self
        }
    }

    /// The same remote, fetching at most `bytes` (a test's smaller bound).
    pub fn with_max_fetch_bytes(self, bytes: usize) -> GitRemote {
        GitRemote {
            max_fetch_bytes: bytes,
            ..self
        }
    }

    /// The folder the files are in (the sync folder to open with [`crate::Folder::open`]).
    pub fn folder(&self) -> PathBuf {
        self.repo
            .workdir()
            .map_or_else(|| self.repo.path().to_owned(), Path::to_owned)
    }

    /// The callbacks every fetch and push starts from: the credentials, given once.
    fn callbacks<'a>(&'a self, asked: &'a Cell<Asked>) -> RemoteCallbacks<'a> {
        let mut callbacks = RemoteCallbacks::new();
        callbacks.credentials(move |_url, _user, allowed| match &self.credentials {
            Some(given)
                if asked.get() == Asked::Not
                    && allowed.contains(CredentialType::USER_PASS_PLAINTEXT) =>
            {
                asked.set(Asked::Given);
                Cred::userpass_plaintext(&given.user, &given.token)
            }
            _ => {
                asked.set(Asked::Refused);
                Err(git2::Error::from_str("no credentials to give"))
            }
        });
        callbacks
    }

    /// The error for a fetch or push that failed: in words about credentials when the remote asked for
    /// them and did not take what it was given (or there was nothing to give).
    fn failed(&self, asked: Asked, error: git2::Error) -> SyncError {
        if asked == Asked::Refused || error.code() == ErrorCode::Auth {
            return SyncError::GitCredentials {
                url: self.url.clone(),
                refused: self.credentials.is_some(),
            };
        }
        self.fail()(error)
    }

    fn fail(&self) -> impl Fn(git2::Error) -> SyncError + '_ {
        move |e| SyncError::Git {
            url: self.url.clone(),
            message: e.message().to_owned(),
        }
    }

    /// One sync through the remote: pull, sync the folder (for library `library`), push.
    pub fn sync(
        &self,
        replica: &mut crate::Replica,
        library: &str,
        state: &mut crate::FolderState,
    ) -> Result<crate::Report, SyncError> {
        self.pull()?;
        let folder = crate::Folder::open(&self.folder(), library)?;
        let report = crate::sync(replica, &folder, state)?;
        self.push()?;
        Ok(report)
    }

    /// Fetches the remote and brings every file it has that the folder lacks; returns how many. Only plain
    /// files under the sync folder are brought (no link, no hidden path, nothing larger than a sync file
    /// can be), and a remote that sends more than a library ever holds is stopped, in words.
    pub fn pull(&self) -> Result<usize, SyncError> {
        self.fetch()?;
        let Some(theirs) = self.tip(TRACKING)? else {
            return Ok(0); // an empty remote
        };
        let tree = theirs.tree().map_err(self.fail())?;
        let root = self.folder();
        let (mut brought, mut seen) = (0, 0);
        let mut failure = None;
        tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
            seen += 1;
            if seen > MAX_FILES {
                failure = Some(self.too_large(format!("{MAX_FILES} files"), "files"));
                return TreeWalkResult::Abort;
            }
            let plain = [FileMode::Blob, FileMode::BlobExecutable]
                .iter()
                .any(|mode| entry.filemode() == i32::from(*mode));
            if entry.kind() != Some(ObjectType::Blob) || !plain {
                return TreeWalkResult::Ok;
            }
            let Some(relative) = safe_path(dir, entry.name()) else {
                return TreeWalkResult::Ok;
            };
            let target = root.join(&relative);
            if target.symlink_metadata().is_ok() {
                return TreeWalkResult::Ok;
            }
            match self.bring(entry.id(), &target) {
                Ok(true) => brought += 1,
                Ok(false) => {}
                Err(e) => {
                    failure = Some(e);
                    return TreeWalkResult::Abort;
                }
            }
            TreeWalkResult::Ok
        })
        .ok();
        failure.map_or(Ok(brought), Err)
    }

    /// Fetches the remote's branch, stopped once it brings more than a library ever holds.
    fn fetch(&self) -> Result<(), SyncError> {
        let mut remote = self.repo.find_remote("origin").map_err(self.fail())?;
        let refspec = format!("+{LOCAL}:{TRACKING}");
        let over = Cell::new(false);
        let asked = Cell::new(Asked::Not);
        let mut callbacks = self.callbacks(&asked);
        callbacks.transfer_progress(|progress| {
            let too_much = progress.received_bytes() > self.max_fetch_bytes
                || progress.total_objects() > MAX_FETCH_OBJECTS;
            over.set(too_much);
            !too_much
        });
        let mut options = FetchOptions::new();
        options.remote_callbacks(callbacks);
        let fetched = remote.fetch(&[refspec.as_str()], Some(&mut options), None);
        drop(options);
        match fetched {
            Ok(()) => Ok(()),
            Err(_) if over.get() => Err(self.too_large(
                format!("{} MiB", self.max_fetch_bytes.div_ceil(1 << 20)),
                "of data",
            )),
            Err(e) => Err(self.failed(asked.get(), e)),
        }
    }

    fn too_large(&self, limit: String, what: &'static str) -> SyncError {
        SyncError::TooLarge {
            place: format!("the git remote {}", self.url),
            limit,
            what,
        }
    }

    /// Writes one blob to `target`, whole or not at all; false when it is too large to be Redline's.
    fn bring(&self, id: Oid, target: &Path) -> Result<bool, SyncError> {
        let blob = self.repo.find_blob(id).map_err(self.fail())?;
        if blob.size() as u64 > MAX_FILE_BYTES {
            return Ok(false);
        }
        let dir = target.parent().unwrap_or(target);
        let io = |source| SyncError::Folder {
            path: target.to_owned(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let temp = tempfile::Builder::new()
            .prefix(".redline-")
            .tempfile_in(dir)
            .map_err(io)?;
        std::fs::write(temp.path(), blob.content()).map_err(io)?;
        temp.persist(target).map_err(|e| io(e.error))?;
        Ok(true)
    }

    fn tip(&self, reference: &str) -> Result<Option<Commit<'_>>, SyncError> {
        match self.repo.find_reference(reference) {
            Ok(r) => Ok(Some(r.peel_to_commit().map_err(self.fail())?)),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
            Err(e) => Err(self.fail()(e)),
        }
    }

    /// Commits the folder's files (with the remote's tip as a second parent: the union) and pushes them;
    /// when the remote moved meanwhile, pulls and tries again. Returns true when the remote was updated.
    pub fn push(&self) -> Result<bool, SyncError> {
        for _ in 0..PUSH_TRIES {
            let tip = self.commit()?;
            let remote_tip = self.tip(TRACKING)?.map(|c| c.id());
            if remote_tip == Some(tip) {
                return Ok(false);
            }
            if self.try_push()? {
                return Ok(true);
            }
            self.pull()?;
        }
        Err(SyncError::Git {
            url: self.url.clone(),
            message: "the remote kept changing while this device pushed; sync again".to_owned(),
        })
    }

    /// Commits what the folder holds on top of the local tip and the remote's; returns the new tip.
    fn commit(&self) -> Result<Oid, SyncError> {
        let fail = self.fail();
        let mut index = self.repo.index().map_err(&fail)?;
        index
            .add_all([DIR], IndexAddOption::DEFAULT, None)
            .map_err(&fail)?;
        index.write().map_err(&fail)?;
        let tree_id = index.write_tree().map_err(&fail)?;
        let tree = self.repo.find_tree(tree_id).map_err(&fail)?;
        let ours = self.tip(LOCAL)?;
        let theirs = self.tip(TRACKING)?;
        let mut parents: Vec<&Commit<'_>> = ours.iter().collect();
        if let Some(theirs) = &theirs {
            let known = match &ours {
                Some(ours) => {
                    ours.id() == theirs.id()
                        || self
                            .repo
                            .graph_descendant_of(ours.id(), theirs.id())
                            .map_err(&fail)?
                }
                None => false,
            };
            if !known {
                parents.push(theirs);
            }
        }
        if let [only] = parents.as_slice()
            && only.tree_id() == tree_id
        {
            return Ok(only.id());
        }
        let who = Signature::now("Redline", "redline@localhost").map_err(&fail)?;
        let id = self
            .repo
            .commit(Some(LOCAL), &who, &who, "Redline sync", &tree, &parents)
            .map_err(&fail)?;
        Ok(id)
    }

    /// Pushes the local tip; false when the remote refused it because it moved.
    fn try_push(&self) -> Result<bool, SyncError> {
        let mut remote = self.repo.find_remote("origin").map_err(self.fail())?;
        let mut refused = None;
        let asked = Cell::new(Asked::Not);
        let mut callbacks = self.callbacks(&asked);
        callbacks.push_update_reference(|_, status| {
            refused = status.map(str::to_owned);
            Ok(())
        });
        let mut options = PushOptions::new();
        options.remote_callbacks(callbacks);
        let refspec = format!("{LOCAL}:{LOCAL}");
        match remote.push(&[refspec.as_str()], Some(&mut options)) {
            Ok(()) => {}
            Err(e) if e.code() == ErrorCode::NotFastForward => return Ok(false),
            Err(e) => return Err(self.failed(asked.get(), e)),
        }
        drop(options);
        if refused.is_some() {
            return Ok(false);
        }
        // The remote has our tip now: remember it as theirs.
        let tip = self.tip(LOCAL)?.map(|c| c.id());
        if let Some(tip) = tip {
            self.repo
                .reference(TRACKING, tip, true, "pushed")
                .map_err(self.fail())?;
        }
        Ok(true)
    }
}

/// `dir` + `name` from a tree, as a relative path under [`DIR`], or `None` if it would leave it or is
/// hidden (a `.git` inside it, say: nothing of Redline's starts with a dot).
fn safe_path(dir: &str, name: Option<&str>) -> Option<PathBuf> {
    let path = Path::new(dir).join(name?);
    let normal = path.components().all(|c| match c {
        Component::Normal(part) => !part.to_string_lossy().starts_with('.'),
        _ => false,
    });
    (normal && path.starts_with(DIR)).then_some(path)
}
