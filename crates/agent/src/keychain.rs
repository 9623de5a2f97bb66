//! API keys in the operating system's keychain: the one place engine code touches it.
//!
//! One entry per provider, bound to the server the key was entered for — its scheme, host and port: the host
//! alone names an `https` server on its usual port (`openai@api.openai.com`), any other is named whole
//! (`custom@http://192.0.2.7:8080`), so that a key entered for one is never sent to the other — under the
//! service `app.redline.desktop`: Keychain on macOS, Credential Manager on Windows, the Secret Service on
//! Linux, through the `keyring` crate. A key never goes anywhere else: not SQLite, not a backup, a log, an
//! audit row, an export, an IPC reply or an error's words. Where no keychain service is reachable, the
//! error says so and names the environment variable instead; nothing falls back to a file.

use std::collections::HashMap;
use std::sync::Mutex;

/// The keychain service every Redline key is stored under.
pub const SERVICE: &str = "app.redline.desktop";

/// Whose key: a provider preset and the server it was entered for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeyAccount {
    /// The preset (`openai`, `custom`, …).
    pub preset: String,
    /// The server the key may be sent to: its host for `https` on port 443 (`api.openai.com`, as keys
    /// were always named), else its scheme, host and port (`http://localhost:11434`).
    pub server: String,
}

impl KeyAccount {
    /// The account for `preset` at `base_url`'s server.
    pub fn new(preset: &str, base_url: &str) -> KeyAccount {
        let server = reqwest::Url::parse(base_url)
            .ok()
            .and_then(|url| {
                let host = url.host_str()?.to_ascii_lowercase();
                let port = url.port_or_known_default()?;
                Some(match (url.scheme(), port) {
                    ("https", 443) => host,
                    (scheme, port) => format!("{scheme}://{host}:{port}"),
                })
            })
            .unwrap_or_default();
        KeyAccount {
            preset: preset.to_owned(),
            server,
        }
    }

    /// The keychain's user name for it.
    pub fn user(&self) -> String {
        format!("{}@{}", self.preset, self.server)
    }
}

/// Why the keychain could not be used. The words never contain a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeychainError {
    /// There is no keychain service to talk to (a bare Linux session without a Secret Service, say).
    #[error(
        "no keychain is available on this computer ({0}); set the key in the OPENAI_API_KEY environment variable instead"
    )]
    Unavailable(String),
    /// The keychain refused or failed.
    #[error("the keychain could not be used: {0}")]
    Failed(String),
}

impl KeychainError {
    /// What kind of failure it is: without a keychain, no key can be had (OPENAI_API_KEY aside).
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::NotConfigured
    }
}

/// Where keys are kept. [`OsKeychain`] in the app and the CLI; [`MemoryKeychain`] in tests.
pub trait Keychain: Send + Sync {
    /// The key for `account`, if one is set.
    fn get(&self, account: &KeyAccount) -> Result<Option<String>, KeychainError>;
    /// Sets (or replaces) the key for `account`.
    fn set(&self, account: &KeyAccount, key: &str) -> Result<(), KeychainError>;
    /// Removes the key for `account`; false if there was none.
    fn remove(&self, account: &KeyAccount) -> Result<bool, KeychainError>;
}

/// The operating system's keychain, through the `keyring` crate.
#[derive(Debug, Default, Clone, Copy)]
pub struct OsKeychain;

fn words(error: keyring::Error) -> KeychainError {
    match error {
        keyring::Error::NoStorageAccess(e) | keyring::Error::PlatformFailure(e) => {
            KeychainError::Unavailable(e.to_string())
        }
        // The platform's store could not be started (on Linux: no Secret Service on the session bus).
        keyring::Error::NoDefaultStore => {
            KeychainError::Unavailable(match keyring::Entry::store_status() {
                Err(e) => e.to_string(),
                Ok(()) => "it could not be started".to_owned(),
            })
        }
        other => KeychainError::Failed(other.to_string()),
    }
}

impl Keychain for OsKeychain {
    fn get(&self, account: &KeyAccount) -> Result<Option<String>, KeychainError> {
        let entry = keyring::Entry::new(SERVICE, &account.user()).map_err(words)?;
        match entry.get_password() {
            Ok(key) => Ok(Some(key)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(words(e)),
        }
    }

    fn set(&self, account: &KeyAccount, key: &str) -> Result<(), KeychainError> {
        keyring::Entry::new(SERVICE, &account.user())
            .and_then(|entry| entry.set_password(key))
            .map_err(words)
    }

    fn remove(&self, account: &KeyAccount) -> Result<bool, KeychainError> {
        let entry = keyring::Entry::new(SERVICE, &account.user()).map_err(words)?;
        match entry.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(words(e)),
        }
    }
}

/// Keys in memory, for tests.
#[derive(Debug, Default)]
pub struct MemoryKeychain(Mutex<HashMap<String, String>>);

impl Keychain for MemoryKeychain {
    fn get(&self, account: &KeyAccount) -> Result<Option<String>, KeychainError> {
        Ok(self.lock().get(&account.user()).cloned())
    }

    fn set(&self, account: &KeyAccount, key: &str) -> Result<(), KeychainError> {
        self.lock().insert(account.user(), key.to_owned());
        Ok(())
    }

    fn remove(&self, account: &KeyAccount) -> Result<bool, KeychainError> {
        Ok(self.lock().remove(&account.user()).is_some())
    }
}

impl MemoryKeychain {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_bound_to_its_provider_and_host() {
        let keys = MemoryKeychain::default();
        let openai = KeyAccount::new("openai", "https://API.openai.com/v1");
        assert_eq!(openai.user(), "openai@api.openai.com");
        keys.set(&openai, "sk-1").unwrap();
        assert_eq!(keys.get(&openai).unwrap().as_deref(), Some("sk-1"));
        // The same preset at another host (a base URL changed) has no key.
        let elsewhere = KeyAccount::new("openai", "https://api.evil.example/v1");
        assert_eq!(keys.get(&elsewhere).unwrap(), None);
        keys.set(&openai, "sk-2").unwrap();
        assert_eq!(keys.get(&openai).unwrap().as_deref(), Some("sk-2"));
        assert!(keys.remove(&openai).unwrap());
        assert!(!keys.remove(&openai).unwrap());
        assert_eq!(keys.get(&openai).unwrap(), None);
    }

    /// A key entered for a server over `https` is not the key of the same host over `http`, or on
    /// another port: each is its own entry, named by scheme, host and port.
    #[test]
    fn a_key_is_bound_to_its_scheme_and_port_too() {
        let keys = MemoryKeychain::default();
        let secure = KeyAccount::new("custom", "https://models.example/v1");
        keys.set(&secure, "sk-1").unwrap();
        for other in [
            "http://models.example/v1",
            "https://models.example:8443/v1",
            "http://models.example:443/v1",
        ] {
            let account = KeyAccount::new("custom", other);
            assert_ne!(account.user(), secure.user(), "{other}");
            assert_eq!(keys.get(&account).unwrap(), None, "{other}");
        }
        assert_eq!(
            KeyAccount::new("custom", "https://models.example:443/v1").user(),
            "custom@models.example"
        );
        assert_eq!(
            KeyAccount::new("ollama", "http://LocalHost:11434/v1").user(),
            "ollama@http://localhost:11434"
        );
    }
}
