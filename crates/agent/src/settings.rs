//! The provider settings: which server and models to use, kept in the store's settings table (shared by
//! the app and the CLI), with the environment and command-line flags on top for scripts. Keys are not
//! settings: they live in the keychain ([`crate::keychain`]).

use std::time::Duration;

use redline_store::{Store, StoreError};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::keychain::{KeyAccount, Keychain, KeychainError};
use crate::provider::{Learned, OPENAI_BASE_URL, Provider, ProviderConfig};

/// A kind of server, with its usual address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// OpenAI's API.
    OpenAi,
    /// Ollama on this computer.
    Ollama,
    /// LM Studio's server on this computer.
    LmStudio,
    /// llama.cpp's server on this computer.
    LlamaCpp,
    /// Any other OpenAI-compatible base URL.
    Custom,
}

impl Preset {
    /// Every preset, in the order menus list them.
    pub const ALL: [Preset; 5] = [
        Preset::OpenAi,
        Preset::Ollama,
        Preset::LmStudio,
        Preset::LlamaCpp,
        Preset::Custom,
    ];

    /// Its name in settings and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::OpenAi => "openai",
            Preset::Ollama => "ollama",
            Preset::LmStudio => "lmstudio",
            Preset::LlamaCpp => "llamacpp",
            Preset::Custom => "custom",
        }
    }

    /// The preset called `name`.
    pub fn parse(name: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name.to_ascii_lowercase())
            .ok_or_else(|| UnknownPreset(name.chars().take(40).collect()))
    }

    /// The server's usual base URL (`None` for a custom one).
    pub fn base_url(self) -> Option<&'static str> {
        match self {
            Preset::OpenAi => Some(OPENAI_BASE_URL),
            Preset::Ollama => Some("http://127.0.0.1:11434/v1"),
            Preset::LmStudio => Some("http://127.0.0.1:1234/v1"),
            Preset::LlamaCpp => Some("http://127.0.0.1:8080/v1"),
            Preset::Custom => None,
        }
    }
}

/// What is saved about the provider (never its key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderSettings {
    /// The kind of server.
    pub preset: Preset,
    /// Its base URL.
    pub base_url: String,
    /// The chat model.
    pub chat_model: String,
    /// The patch model.
    pub patch_model: String,
    /// Seconds to wait for the first token.
    #[ts(type = "number")]
    pub first_token_timeout_secs: u64,
    /// Seconds a started answer may go quiet.
    #[ts(type = "number")]
    pub idle_timeout_secs: u64,
}

/// The longest timeout the settings take (an hour: a slow model on a slow computer, not forever).
pub const MAX_TIMEOUT_SECS: u64 = 3600;

const PRESET: &str = "provider.preset";
const BASE_URL: &str = "provider.base_url";
const CHAT_MODEL: &str = "provider.chat_model";
const PATCH_MODEL: &str = "provider.patch_model";
const FIRST_TOKEN: &str = "provider.first_token_timeout_secs";
const IDLE: &str = "provider.idle_timeout_secs";

impl Default for ProviderSettings {
    fn default() -> Self {
        let config = ProviderConfig::new(None, None);
        ProviderSettings {
            preset: Preset::OpenAi,
            base_url: config.base_url,
            chat_model: config.chat_model,
            patch_model: config.patch_model,
            first_token_timeout_secs: config.first_token_timeout.as_secs(),
            idle_timeout_secs: config.idle_timeout.as_secs(),
        }
    }
}

impl ProviderSettings {
    /// The saved settings (the defaults for whatever was never set), and whether any were saved.
    pub fn load(store: &Store) -> Result<(ProviderSettings, bool), StoreError> {
        let mut settings = ProviderSettings::default();
        let preset = store.setting(PRESET)?;
        let saved = preset.is_some();
        if let Some(preset) = preset.and_then(|p| Preset::parse(&p).ok()) {
            settings.preset = preset;
            if let Some(url) = preset.base_url() {
                settings.base_url = url.to_owned();
            }
        }
        if let Some(url) = store.setting(BASE_URL)? {
            settings.base_url = url;
        }
        if let Some(model) = store.setting(CHAT_MODEL)? {
            settings.chat_model = model;
        }
        if let Some(model) = store.setting(PATCH_MODEL)? {
            settings.patch_model = model;
        }
        if let Some(secs) = store.setting(FIRST_TOKEN)?.and_then(|s| s.parse().ok()) {
            settings.first_token_timeout_secs = secs;
        }
        if let Some(secs) = store.setting(IDLE)?.and_then(|s| s.parse().ok()) {
            settings.idle_timeout_secs = secs;
        }
        Ok((settings, saved))
    }

    /// Saves these settings.
    pub fn save(&self, store: &mut Store) -> Result<(), StoreError> {
        store.set_setting(PRESET, self.preset.name())?;
        store.set_setting(BASE_URL, &self.base_url)?;
        store.set_setting(CHAT_MODEL, &self.chat_model)?;
        store.set_setting(PATCH_MODEL, &self.patch_model)?;
        store.set_setting(FIRST_TOKEN, &self.first_token_timeout_secs.to_string())?;
        store.set_setting(IDLE, &self.idle_timeout_secs.to_string())
    }

    /// Refuses settings that cannot work, in words: a base URL that is not an `http(s)` URL, a model
    /// with no name, a timeout out of range.
    pub fn check(&self) -> Result<(), BadSettings> {
        match reqwest::Url::parse(&self.base_url) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {}
            _ => return Err(BadSettings::NotAWebAddress(self.base_url.clone())),
        }
        if self.chat_model.trim().is_empty() || self.patch_model.trim().is_empty() {
            return Err(BadSettings::UnnamedModel);
        }
        for secs in [self.first_token_timeout_secs, self.idle_timeout_secs] {
            if !(1..=MAX_TIMEOUT_SECS).contains(&secs) {
                return Err(BadSettings::Timeout(secs));
            }
        }
        Ok(())
    }

    /// These settings with a server or models chosen for one run or saved by the user (a command's
    /// flags): what is not given, or given empty (`REDLINE_BASE_URL=` in a script's environment), stays as
    /// it is.
    pub fn choose(
        &mut self,
        base_url: Option<String>,
        chat_model: Option<String>,
        patch_model: Option<String>,
    ) {
        let given = |v: Option<String>| v.filter(|v| !v.trim().is_empty());
        if let Some(url) = given(base_url) {
            self.base_url = url;
        }
        if let Some(m) = given(chat_model) {
            self.chat_model = m;
        }
        if let Some(m) = given(patch_model) {
            self.patch_model = m;
        }
    }

    /// The keychain account of this provider's key.
    pub fn key_account(&self) -> KeyAccount {
        KeyAccount::new(self.preset.name(), &self.base_url)
    }

    /// The settings with the environment on top, as scripts set it: `REDLINE_BASE_URL` (or
    /// `OPENAI_BASE_URL`, the variable the OpenAI ecosystem uses), `REDLINE_MODEL`, `REDLINE_PATCH_MODEL`.
    pub fn with_env(mut self, var: impl Fn(&str) -> Option<String>) -> ProviderSettings {
        if let Some(url) = var("REDLINE_BASE_URL").or_else(|| var("OPENAI_BASE_URL")) {
            if url != self.base_url {
                self.preset = Preset::Custom;
            }
            self.base_url = url;
        }
        if let Some(model) = var("REDLINE_MODEL") {
            self.chat_model = model;
        }
        if let Some(model) = var("REDLINE_PATCH_MODEL") {
            self.patch_model = model;
        }
        self
    }

    /// The configuration to run with: these settings, and `env_key` (the environment's, where it is for
    /// this server: [`env_key_is_for`]) if there is one, else the key from the keychain for this provider
    /// and host. A keychain that cannot be reached counts as no key when
    /// the server needs none (a local one); otherwise its error is returned.
    pub fn config(
        &self,
        env_key: Option<String>,
        keychain: &dyn Keychain,
    ) -> Result<ProviderConfig, KeychainError> {
        let api_key = match env_key {
            Some(key) => Some(key),
            None => match keychain.get(&self.key_account()) {
                Ok(key) => key,
                Err(_) if crate::provider::is_loopback(&self.base_url) => None,
                Err(e) => return Err(e),
            },
        };
        let mut config = ProviderConfig::new(Some(self.base_url.clone()), api_key);
        config.chat_model = self.chat_model.clone();
        config.patch_model = self.patch_model.clone();
        config.first_token_timeout = Duration::from_secs(self.first_token_timeout_secs.max(1));
        config.idle_timeout = Duration::from_secs(self.idle_timeout_secs.max(1));
        Ok(config)
    }
}

/// Why no configuration to run with could be made.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The settings could not be read.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The key could not be read from the keychain.
    #[error("{0}")]
    Keychain(#[from] KeychainError),
    /// The configuration cannot work (no key for a remote server, a key that would travel unencrypted).
    #[error("{0}")]
    Unusable(#[from] crate::provider::Unusable),
}

impl SetupError {
    /// What kind of failure it is: the store's, or no model server or key that can work.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        match self {
            SetupError::Store(e) => e.kind(),
            SetupError::Keychain(_) | SetupError::Unusable(_) => {
                redline_error_kind::ErrorKind::NotConfigured
            }
        }
    }
}

impl UnknownPreset {
    /// What kind of failure it is: a request that was wrong.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::Invalid
    }
}

impl BadSettings {
    /// What kind of failure it is: settings that were wrong (nothing is saved).
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::Invalid
    }
}

/// A name that is no preset (its kind: `invalid`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no preset “{0}”; choose openai, ollama, lmstudio, llamacpp or custom")]
pub struct UnknownPreset(pub String);

/// Provider settings that cannot work (their kind: `invalid`; nothing is saved).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadSettings {
    /// The base URL is not an `http(s)` URL with a host.
    #[error(
        "the base URL “{0}” is not a web address (https://…, or http:// for a server on this computer)"
    )]
    NotAWebAddress(String),
    /// A model with no name.
    #[error("both models need a name")]
    UnnamedModel,
    /// A timeout outside 1 s to the longest.
    #[error("a timeout of {0} s cannot work: choose between 1 s and {MAX_TIMEOUT_SECS} s")]
    Timeout(u64),
}

/// The configuration to run with, for the app and the CLI alike: the saved settings, the environment on
/// top, then `adjust` (a command's flags), with the key from `OPENAI_API_KEY` where it is for that server
/// ([`env_key_is_for`]), else from the keychain — checked.
pub fn resolve(
    store: &Store,
    keychain: &dyn Keychain,
    adjust: impl FnOnce(&mut ProviderSettings),
) -> Result<ProviderConfig, SetupError> {
    resolve_in(env_var, store, keychain, adjust)
}

/// [`resolve`] with the environment read through `env` (tests pass one of their own, so that a developer's
/// `OPENAI_API_KEY` cannot change what they see).
pub fn resolve_in(
    env: Environment,
    store: &Store,
    keychain: &dyn Keychain,
    adjust: impl FnOnce(&mut ProviderSettings),
) -> Result<ProviderConfig, SetupError> {
    let (saved, _) = ProviderSettings::load(store)?;
    let mut settings = saved.with_env(env);
    adjust(&mut settings);
    let env_key = env("OPENAI_API_KEY").filter(|_| env_key_is_for(env, &settings.base_url));
    let config = settings.config(env_key, keychain)?;
    config.check()?;
    Ok(config)
}

/// Whether the environment's `OPENAI_API_KEY` may go to the server at `base_url`: only to the server the
/// environment names beside it (`OPENAI_BASE_URL`) or, when it names none, to OpenAI's own. A key set for
/// OpenAI in a shell's profile never reaches a custom or local server saved in Redline; that server's key
/// is its own keychain entry.
pub fn env_key_is_for(env: Environment, base_url: &str) -> bool {
    let home = env("OPENAI_BASE_URL").unwrap_or_else(|| OPENAI_BASE_URL.to_owned());
    same_server(&home, base_url)
}

/// Two base URLs of one server: the same scheme, host and port.
fn same_server(a: &str, b: &str) -> bool {
    match (reqwest::Url::parse(a), reqwest::Url::parse(b)) {
        (Ok(a), Ok(b)) => {
            a.scheme() == b.scheme()
                && a.host().is_some()
                && a.host() == b.host()
                && a.port_or_known_default() == b.port_or_known_default()
        }
        _ => false,
    }
}

/// The setting that keeps what was learned about the server at `base_url` with these models: what a server
/// takes depends on its models too (whether the chat model plans by calling tools is the chat model's
/// doing), so each base URL and pair of models is learned on its own:
/// `server.learned:["<base URL>","<chat model>","<patch model>"]`. A record of an older Redline, kept under
/// the base URL alone (`server.learned:<base URL>`), counts as nothing learned: the first turn learns the
/// server again, once, with its models.
fn learned_key(base_url: &str, chat_model: &str, patch_model: &str) -> String {
    let key = serde_json::json!([base_url.trim_end_matches('/'), chat_model, patch_model]);
    format!("server.learned:{key}")
}

/// What was learned about the server and models of `config`, in an earlier turn, run or connection test, if
/// anything. A value that cannot be read counts as nothing learned: it is learned again.
pub fn learned(store: &Store, config: &ProviderConfig) -> Result<Option<Learned>, StoreError> {
    read_learned(
        store,
        &learned_key(&config.base_url, &config.chat_model, &config.patch_model),
    )
}

/// What was learned about the server and models `settings` name, if anything (see [`learned`]).
pub fn learned_for(
    store: &Store,
    settings: &ProviderSettings,
) -> Result<Option<Learned>, StoreError> {
    read_learned(
        store,
        &learned_key(
            &settings.base_url,
            &settings.chat_model,
            &settings.patch_model,
        ),
    )
}

fn read_learned(store: &Store, key: &str) -> Result<Option<Learned>, StoreError> {
    Ok(store
        .setting(key)?
        .and_then(|saved| serde_json::from_str(&saved).ok()))
}

/// Forgets what was learned about the server and models `settings` name, so that the next turn learns
/// them again: the provider settings were changed to them (the server at an address may have changed
/// since it was last used).
pub fn forget(store: &mut Store, settings: &ProviderSettings) -> Result<(), StoreError> {
    let key = learned_key(
        &settings.base_url,
        &settings.chat_model,
        &settings.patch_model,
    );
    if store.setting(&key)?.is_some() {
        // An empty value is read as nothing learned.
        store.set_setting(&key, "")?;
    }
    Ok(())
}

/// A provider for `config` that asks its server the way an earlier turn, run or test found it takes.
pub fn provider(store: &Store, config: ProviderConfig) -> Result<Provider, StoreError> {
    let learned = learned(store, &config)?.unwrap_or_default();
    Ok(Provider::new(config).with_learned(&learned))
}

/// Keeps what `provider` learned about its server and models. After a turn it is written only when it
/// differs from what the next turn would assume (so the demo's throwaway servers leave nothing behind);
/// after a connection test or a first-use learning (`tested`), always, so that the next turn knows the
/// server was learned and the settings can say what it takes.
pub fn remember(store: &mut Store, provider: &Provider, tested: bool) -> Result<(), StoreError> {
    let config = provider.config();
    let now = provider.learned();
    let before = learned(store, config)?;
    if before.as_ref() != Some(&now) && (tested || before.unwrap_or_default() != now) {
        let value = serde_json::to_string(&now).unwrap_or_default();
        let key = learned_key(&config.base_url, &config.chat_model, &config.patch_model);
        store.set_setting(&key, &value)?;
    }
    Ok(())
}

/// How the environment is read: [`env_var`], or a stand-in in tests.
pub type Environment = fn(&str) -> Option<String>;

/// The environment variable, if set and not empty.
pub fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keychain::MemoryKeychain;

    #[test]
    fn the_environments_key_is_only_for_the_server_it_names() {
        let none: Environment = |_| None;
        assert!(env_key_is_for(none, OPENAI_BASE_URL));
        assert!(env_key_is_for(none, "https://api.openai.com/v1/"));
        for elsewhere in [
            "http://127.0.0.1:11434/v1",
            "https://openrouter.ai/api/v1",
            "https://api.openai.com.evil.example/v1",
            "https://api.openai.com:8443/v1",
            "http://api.openai.com/v1",
        ] {
            assert!(!env_key_is_for(none, elsewhere), "{elsewhere}");
        }
        let named: Environment =
            |n| (n == "OPENAI_BASE_URL").then(|| "https://llm.corp.example/v1".to_owned());
        assert!(env_key_is_for(named, "https://llm.corp.example/v1"));
        assert!(!env_key_is_for(named, OPENAI_BASE_URL));
        assert!(!env_key_is_for(named, "http://llm.corp.example/v1"));
    }

    #[test]
    fn settings_are_saved_in_the_store_and_the_environment_overrides_them() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let (fresh, saved) = ProviderSettings::load(&store).unwrap();
        assert!(!saved);
        assert_eq!(fresh.preset, Preset::OpenAi);
        let settings = ProviderSettings {
            preset: Preset::Ollama,
            base_url: Preset::Ollama.base_url().unwrap().to_owned(),
            chat_model: "llama3.1".into(),
            patch_model: "qwen2.5".into(),
            ..ProviderSettings::default()
        };
        settings.save(&mut store).unwrap();
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        let (loaded, saved) = ProviderSettings::load(&store).unwrap();
        assert!(saved);
        assert_eq!(loaded, settings);
        let env = |name: &str| match name {
            "OPENAI_BASE_URL" => Some("http://127.0.0.1:9999/v1".to_owned()),
            "REDLINE_MODEL" => Some("phi".to_owned()),
            _ => None,
        };
        let overridden = loaded.with_env(env);
        assert_eq!(overridden.base_url, "http://127.0.0.1:9999/v1");
        assert_eq!(overridden.preset, Preset::Custom);
        assert_eq!(
            (
                overridden.chat_model.as_str(),
                overridden.patch_model.as_str()
            ),
            ("phi", "qwen2.5")
        );
    }

    #[test]
    fn what_a_server_takes_is_remembered_per_server_and_models_across_runs() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let local = ProviderConfig::new(Some("http://127.0.0.1:8080/v1".into()), None);
        let fresh = provider(&store, local.clone()).unwrap();
        assert_eq!(fresh.learned(), Learned::default());
        // A turn that learned nothing new leaves nothing behind; a connection test says what it found.
        remember(&mut store, &fresh, false).unwrap();
        assert_eq!(learned(&store, &local).unwrap(), None);
        remember(&mut store, &fresh, true).unwrap();
        assert_eq!(learned(&store, &local).unwrap(), Some(Learned::default()));
        let llama = Learned {
            patch_format: "json_object".into(),
            streams_tools: false,
            calls_tools: false,
        };
        remember(
            &mut store,
            &Provider::new(local.clone()).with_learned(&llama),
            false,
        )
        .unwrap();
        drop(store);
        let mut store = Store::open(dir.path()).unwrap();
        // The same server, even written with a trailing slash, is asked the learned way from the start …
        let mut slashed = local.clone();
        slashed.base_url.push('/');
        let again = provider(&store, slashed).unwrap();
        assert_eq!(again.learned(), llama);
        assert_eq!(again.patch_format(), "json_object");
        assert!(!again.streams_tools());
        assert!(!again.calls_tools());
        // … another server is not, nor the same server with another chat or patch model.
        let other = ProviderConfig::new(Some("http://127.0.0.1:11434/v1".into()), None);
        assert_eq!(
            provider(&store, other).unwrap().learned(),
            Learned::default()
        );
        for models in [("other", "gpt-4.1-mini"), ("gpt-4.1-mini", "other")] {
            let mut moved = local.clone();
            (moved.chat_model, moved.patch_model) = (models.0.into(), models.1.into());
            assert_eq!(learned(&store, &moved).unwrap(), None, "{models:?}");
        }
        // The settings name the same server and models: what was learned is theirs, until forgotten.
        let settings = ProviderSettings {
            base_url: local.base_url.clone(),
            ..ProviderSettings::default()
        };
        assert_eq!(learned_for(&store, &settings).unwrap(), Some(llama.clone()));
        forget(&mut store, &settings).unwrap();
        assert_eq!(learned(&store, &local).unwrap(), None);
        // A record of an older Redline, kept under the base URL alone, is nothing learned.
        let old = serde_json::to_string(&llama).unwrap();
        store
            .set_setting(&format!("server.learned:{}", local.base_url), &old)
            .unwrap();
        assert_eq!(learned(&store, &local).unwrap(), None);
        // A value that cannot be read is learned again, not an error.
        let key = learned_key(&local.base_url, &local.chat_model, &local.patch_model);
        store.set_setting(&key, "{not json").unwrap();
        assert_eq!(
            provider(&store, local).unwrap().learned(),
            Learned::default()
        );
    }

    #[test]
    fn the_key_comes_from_the_environment_or_the_keychain_for_that_host() {
        let keys = MemoryKeychain::default();
        let openai = ProviderSettings::default();
        keys.set(&openai.key_account(), "sk-keychain").unwrap();
        let config = openai.config(None, &keys).unwrap();
        assert_eq!(config.api_key.as_deref(), Some("sk-keychain"));
        let config = openai.config(Some("sk-env".into()), &keys).unwrap();
        assert_eq!(config.api_key.as_deref(), Some("sk-env"));
        // Pointed elsewhere, the key entered for api.openai.com is not sent.
        let moved = ProviderSettings {
            base_url: "https://api.evil.example/v1".into(),
            ..openai
        };
        assert_eq!(moved.config(None, &keys).unwrap().api_key, None);
    }
}
