//! A git remote's token: given once in the remote's address (`https://USER:TOKEN@host/path`, as git and
//! every forge write it), kept in the OS keychain under the user and the server, and never anywhere else:
//! not the settings, the working copy's configuration, a summary, or an error's words.

use redline_agent::{KeyAccount, Keychain, KeychainError};
use redline_sync::Credentials;

use crate::error::{Error, ErrorKind};

/// A remote's address with any token taken out of it, and the token.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Address {
    /// The address without the token (the user name stays: it says whose token to use).
    pub url: String,
    /// The token that was in it.
    pub token: Option<String>,
}

/// Takes the token out of `url`. An address that is not a URL (a local path) is kept as it is; a token in
/// an address that is not HTTPS is refused, since it would cross the network in the clear.
pub(super) fn split(url: &str) -> Result<Address, Error> {
    let unchanged = || Address {
        url: url.to_owned(),
        token: None,
    };
    let Ok(mut parsed) = url::Url::parse(url) else {
        return Ok(unchanged());
    };
    let Some(token) = parsed.password().map(decoded) else {
        return Ok(unchanged());
    };
    if parsed.scheme() != "https" {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a token is sent only over HTTPS: give the remote's https:// address",
        ));
    }
    // A URL with a password has a host, so this cannot fail.
    parsed.set_password(None).ok();
    Ok(Address {
        url: parsed.to_string(),
        token: Some(token),
    })
}

fn decoded(part: &str) -> String {
    percent_encoding::percent_decode_str(part)
        .decode_utf8_lossy()
        .into_owned()
}

/// The keychain entry for `url`'s user at its server; `None` for an address that is not HTTPS.
fn account(url: &str) -> Option<(KeyAccount, String)> {
    let parsed = url::Url::parse(url)
        .ok()
        .filter(|u| u.scheme() == "https")?;
    let user = decoded(parsed.username());
    Some((KeyAccount::new(&format!("git:{user}"), url), user))
}

/// Keeps `token` for `url` (an address without one) in the keychain.
pub(super) fn keep(keychain: &dyn Keychain, url: &str, token: &str) -> Result<(), Error> {
    let Some((account, _)) = account(url) else {
        return Ok(());
    };
    keychain.set(&account, token).map_err(|e| {
        let why = match e {
            KeychainError::Unavailable(why) => {
                format!("no keychain is available on this computer ({why})")
            }
            KeychainError::Failed(why) => format!("the keychain refused it ({why})"),
        };
        Error::new(
            ErrorKind::NotConfigured,
            format!("the git remote's token could not be kept: {why}; nothing was synced"),
        )
    })
}

/// Forgets the token kept for `url`, if any.
pub(super) fn forget(keychain: &dyn Keychain, url: &str) {
    if let Some((account, _)) = account(url)
        && let Err(e) = keychain.remove(&account)
    {
        log::warn!("the git remote's token could not be removed from the keychain: {e}");
    }
}

/// What to give `url` when it asks: its user name and the token kept for it. Without a keychain, or
/// without a token, nothing (and the remote's ask is answered in words).
pub(super) fn for_remote(keychain: &dyn Keychain, url: &str) -> Option<Credentials> {
    let (account, user) = account(url)?;
    match keychain.get(&account) {
        Ok(token) => token.map(|token| Credentials { user, token }),
        Err(e) => {
            log::warn!("the git remote's token could not be read from the keychain: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_taken_out_of_the_address_and_the_user_stays() {
        let given = split("https://alice:ghp%2Fx_1@git.example.com/alice/cv.git").unwrap();
        assert_eq!(given.url, "https://alice@git.example.com/alice/cv.git");
        assert_eq!(given.token.as_deref(), Some("ghp/x_1"));
        for kept in [
            "/home/alice/cv.git",
            "git://example.com/cv.git",
            "https://example.com/cv.git",
        ] {
            assert_eq!(split(kept).unwrap().url, kept);
            assert_eq!(split(kept).unwrap().token, None);
        }
        let err = split("http://alice:ghp_x@example.com/cv.git").unwrap_err();
        assert!(err.to_string().contains("only over HTTPS"), "{err}");
    }

    #[test]
    fn a_token_is_kept_for_its_user_and_server_only() {
        let keys = redline_agent::MemoryKeychain::default();
        let url = "https://alice@git.example.com/alice/cv.git";
        keep(&keys, url, "ghp_1").unwrap();
        let given = for_remote(&keys, url).unwrap();
        assert_eq!(
            (given.user.as_str(), given.token.as_str()),
            ("alice", "ghp_1")
        );
        // Another repository of hers on the same server uses it; another user, or server, does not.
        assert!(for_remote(&keys, "https://alice@git.example.com/alice/other.git").is_some());
        assert!(for_remote(&keys, "https://bob@git.example.com/alice/cv.git").is_none());
        assert!(for_remote(&keys, "https://alice@example.org/alice/cv.git").is_none());
        forget(&keys, url);
        assert!(for_remote(&keys, url).is_none());
    }
}
