//! API keys in the operating system's keychain: the one place engine code touches it.
//!
//! One entry per provider, bound to the host the key was entered for (`openai@api.openai.com`), under the
//! service `app.redline.desktop`: Keychain on macOS, Credential Manager on Windows, the Secret Service on
//! Linux, through the `keyring` crate. A key never goes anywhere else: not SQLite, not a backup, a log, an
//! audit row, an export, an IPC reply or an error's words. Where no keychain service is reachable, the
//! error says so and names the environment variable instead; nothing falls back to a file.

use std::collections::HashMap;
use std::sync::Mutex;

/// The keychain service every Redline key is stored under.
pub const SERVICE: &str = "app.redline.desktop";

/// Whose key: a provider preset and the host it was entered for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeyAccount {
    /// The preset (`openai`, `custom`, …).
    pub preset: String,
    /// The host of the base URL the key is for (`api.openai.com`).
    pub host: String,
}

impl KeyAccount {
    /// The account for `preset` at `base_url`'s host.
    pub fn new(preset: &str, base_url: &str) -> KeyAccount {
        let host = reqwest::Url::parse(base_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
            .unwrap_or_default();
        KeyAccount {
            preset: preset.to_owned(),
            host,
        }
    }

    /// The keychain's user name for it.
    pub fn user(&self) -> String {
        format!("{}@{}", self.preset, self.host)
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
}
