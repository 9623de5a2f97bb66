//! The model server and its key: the provider as the settings show it (never the key), changed, tested;
//! the key kept in the OS keychain for the saved provider and its host. Both front doors come here: the
//! settings panel and `redline provider` / `redline key`.

use redline_agent::{Preset, Provider, ProviderConfig, ProviderSettings};

use super::Engine;
use crate::error::{Error, ErrorKind};
use crate::ipc::ProviderView;

/// The provider as `redline provider show` tells it: what the settings show, whether the key comes from
/// the environment, and what the server was found to take.
#[derive(Debug, Clone)]
pub struct ProviderReport {
    pub view: ProviderView,
    /// `OPENAI_API_KEY` is set and would be sent to this provider's server.
    pub env_key: bool,
    /// What the server takes, as learned by a test or a first turn.
    pub learned: Option<redline_agent::Learned>,
}

/// A connection test and the models it asked.
#[derive(Debug, Clone)]
pub struct Tested {
    pub report: redline_agent::probe::ConnectionReport,
    pub chat_model: String,
    pub patch_model: String,
}

/// A change to the saved provider, as `redline provider set` gives it: what is not given stays.
#[derive(Debug, Clone, Default)]
pub struct ProviderChange {
    pub preset: Option<String>,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub patch_model: Option<String>,
    pub first_token_timeout: Option<u64>,
    pub idle_timeout: Option<u64>,
}

impl Engine {
    /// The configuration to run with (see [`redline_agent::settings::resolve`]); what is missing in words,
    /// with the demo as the way on.
    pub(crate) async fn configured(&self) -> Result<ProviderConfig, Error> {
        let open = self.open()?.lock().await;
        redline_agent::settings::resolve_in(self.env, &open.store, self.keychain.as_ref(), |_| {})
            .map_err(
            |e| match e {
                redline_agent::SetupError::Store(e) => Error::from(e),
                other => Error::new(
                    ErrorKind::NotConfigured,
                    format!(
                        "{other} (or `redline provider set` and `redline key set`). Or press “Try the demo” to see Redline edit without a model."
                    ),
                ),
            },
        )
    }

    /// The saved provider as the settings show it: never the key, only whether one is set.
    pub async fn provider(&self) -> Result<ProviderView, Error> {
        let open = self.open()?.lock().await;
        let (settings, saved) = redline_agent::ProviderSettings::load(&open.store)?;
        Ok(self.view(settings, saved))
    }

    fn view(&self, settings: redline_agent::ProviderSettings, saved: bool) -> ProviderView {
        let account = settings.key_account();
        let (key_set, keychain_problem) = match self.keychain.get(&account) {
            Ok(key) => (key.is_some(), None),
            Err(e) => (false, Some(e.to_string())),
        };
        let env = self.env;
        // The environment's key counts only where it would be sent (settings::env_key_is_for).
        let base_url = settings.clone().with_env(env).base_url;
        let from_env = ["REDLINE_BASE_URL", "OPENAI_BASE_URL"]
            .into_iter()
            .any(|name| env(name).is_some())
            || (env("OPENAI_API_KEY").is_some()
                && redline_agent::settings::env_key_is_for(env, &base_url));
        ProviderView {
            settings,
            saved,
            key_set,
            key_for: account.user(),
            keychain_problem,
            from_env,
        }
    }

    /// Saves the provider settings (checked first: a URL, and no key sent unencrypted to another host).
    pub async fn save_provider(
        &self,
        settings: redline_agent::ProviderSettings,
    ) -> Result<ProviderView, Error> {
        settings.check().map_err(|problem| {
            Error::new(ErrorKind::Invalid, format!("{problem}; nothing was saved"))
        })?;
        let mut open = self.open()?.lock().await;
        let (before, _) = ProviderSettings::load(&open.store)?;
        settings.save(&mut open.store)?;
        relearn(&mut open.store, &before, &settings)?;
        Ok(self.view(settings, true))
    }

    /// Keeps `key` in the keychain for the saved provider and its host. The key is not returned, logged
    /// or kept anywhere else.
    pub async fn set_key(&self, key: String) -> Result<ProviderView, Error> {
        let key = key.trim();
        if key.is_empty() {
            return Err(Error::new(
                ErrorKind::Invalid,
                "the key is empty; nothing was saved",
            ));
        }
        let open = self.open()?.lock().await;
        let (settings, saved) = redline_agent::ProviderSettings::load(&open.store)?;
        self.keychain
            .set(&settings.key_account(), key)
            .map_err(|e| Error::new(ErrorKind::NotConfigured, e.to_string()))?;
        Ok(self.view(settings, saved))
    }

    /// Removes the saved provider's key from the keychain.
    pub async fn clear_key(&self) -> Result<ProviderView, Error> {
        let open = self.open()?.lock().await;
        let (settings, saved) = redline_agent::ProviderSettings::load(&open.store)?;
        self.keychain
            .remove(&settings.key_account())
            .map_err(|e| Error::new(ErrorKind::NotConfigured, e.to_string()))?;
        Ok(self.view(settings, saved))
    }

    /// The connection test against the saved provider (the environment on top).
    pub async fn test_connection(&self) -> Result<redline_agent::probe::ConnectionReport, Error> {
        let config = self.configured().await?;
        // Tested from scratch, so that a server that changed is learned again; then remembered.
        let provider = Provider::new(config);
        let report = redline_agent::probe::test_connection(&provider).await;
        let mut open = self.open()?.lock().await;
        redline_agent::settings::remember(&mut open.store, &provider, true)?;
        Ok(report)
    }

    /// The connection test as `redline provider test` reports it: the report, with the models asked.
    pub async fn test_provider(&self) -> Result<Tested, Error> {
        let config = self.configured().await?;
        let (chat_model, patch_model) = (config.chat_model.clone(), config.patch_model.clone());
        let report = self.test_connection().await?;
        Ok(Tested {
            report,
            chat_model,
            patch_model,
        })
    }

    /// The saved provider as `redline provider show` tells it.
    pub async fn provider_report(&self) -> Result<ProviderReport, Error> {
        let view = self.provider().await?;
        let env = self.env;
        let env_key = env("OPENAI_API_KEY").is_some()
            && redline_agent::settings::env_key_is_for(env, &view.settings.base_url);
        let open = self.open()?.lock().await;
        let learned = redline_agent::settings::learned_for(&open.store, &view.settings)?;
        Ok(ProviderReport {
            view,
            env_key,
            learned,
        })
    }

    /// Changes the saved provider as `change` says (a preset brings its usual base URL), checked first;
    /// nothing changes when the result would not work.
    pub async fn change_provider(&self, change: ProviderChange) -> Result<ProviderView, Error> {
        let mut open = self.open()?.lock().await;
        let (mut settings, _) = ProviderSettings::load(&open.store)?;
        let before = settings.clone();
        if let Some(secs) = change.first_token_timeout {
            settings.first_token_timeout_secs = secs;
        }
        if let Some(secs) = change.idle_timeout {
            settings.idle_timeout_secs = secs;
        }
        if let Some(name) = change.preset {
            settings.preset =
                Preset::parse(&name).map_err(|e| Error::new(ErrorKind::Refused, e.to_string()))?;
            if let Some(url) = settings.preset.base_url() {
                settings.base_url = url.to_owned();
            }
        }
        settings.choose(change.base_url, change.model, change.patch_model);
        settings.check().map_err(|problem| {
            Error::new(
                ErrorKind::Refused,
                format!("{problem}; nothing was changed"),
            )
        })?;
        settings.save(&mut open.store)?;
        relearn(&mut open.store, &before, &settings)?;
        Ok(self.view(settings, true))
    }
}

/// Settings changed from `before` to `now`: when they name another server or other models, what was
/// learned about those is forgotten, so that the next turn learns them again (the server at an address
/// may have changed since they were last used). A change of timeouts alone learns nothing again.
fn relearn(
    store: &mut redline_store::Store,
    before: &ProviderSettings,
    now: &ProviderSettings,
) -> Result<(), Error> {
    let served = |s: &ProviderSettings| {
        (
            s.base_url.trim_end_matches('/').to_owned(),
            s.chat_model.clone(),
            s.patch_model.clone(),
        )
    };
    if served(before) != served(now) {
        redline_agent::settings::forget(store, now)?;
    }
    Ok(())
}
