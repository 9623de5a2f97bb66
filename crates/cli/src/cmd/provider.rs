//! `redline provider show|set|test`: the model server, saved for the app and the CLI alike, and the test
//! of the connection to it.

use std::io::Write;

use anyhow::Result;
use redline_agent::{Keychain, OsKeychain, Preset, ProviderSettings};
use redline_store::Store;
use serde_json::json;

use crate::{Exit, ProviderAction, fail};

/// `redline provider …`.
pub fn run(store: &mut Store, action: ProviderAction, out: &mut impl Write) -> Result<()> {
    match action {
        ProviderAction::Show { json } => {
            let (settings, saved) = ProviderSettings::load(store)?;
            show_provider(store, &settings, saved, json, out)
        }
        ProviderAction::Set {
            preset,
            base_url,
            model,
            patch_model,
            first_token_timeout,
            idle_timeout,
        } => {
            let (mut settings, _) = ProviderSettings::load(store)?;
            if let Some(secs) = first_token_timeout {
                settings.first_token_timeout_secs = secs;
            }
            if let Some(secs) = idle_timeout {
                settings.idle_timeout_secs = secs;
            }
            if let Some(name) = preset {
                settings.preset =
                    Preset::parse(&name).map_err(|e| fail(Exit::Refused, e.to_string()))?;
                if let Some(url) = settings.preset.base_url() {
                    settings.base_url = url.to_owned();
                }
            }
            settings.choose(base_url, model, patch_model);
            if let Err(problem) = settings.check() {
                return Err(fail(
                    Exit::Refused,
                    format!("{problem}; nothing was changed"),
                ));
            }
            settings.save(store)?;
            show_provider(store, &settings, true, false, out)
        }
        ProviderAction::Test { json } => test(store, json, out),
    }
}

fn show_provider(
    store: &Store,
    settings: &ProviderSettings,
    saved: bool,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let account = settings.key_account();
    use redline_agent::settings::{env_key_is_for, env_var};
    let (key, problem) =
        if env_var("OPENAI_API_KEY").is_some() && env_key_is_for(env_var, &settings.base_url) {
            ("set (OPENAI_API_KEY)", None)
        } else {
            match OsKeychain.get(&account) {
                Ok(Some(_)) => ("set", None),
                Ok(None) => ("not set", None),
                Err(e) => ("unknown", Some(e.to_string())),
            }
        };
    let learned = redline_agent::settings::learned(store, &settings.base_url)?;
    if json {
        let mut value = serde_json::to_value(settings)?;
        value["saved"] = json!(saved);
        value["keySet"] = json!(key.starts_with("set"));
        value["keyFor"] = json!(account.user());
        if let Some(problem) = &problem {
            value["keychainProblem"] = json!(problem);
        }
        value["learned"] = serde_json::to_value(&learned)?;
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "preset       {}{}",
        settings.preset.name(),
        if saved {
            ""
        } else {
            " (default: nothing saved yet)"
        }
    )?;
    writeln!(out, "base URL     {}", settings.base_url)?;
    writeln!(out, "chat model   {}", settings.chat_model)?;
    writeln!(out, "patch model  {}", settings.patch_model)?;
    writeln!(out, "key          {key} (for {})", account.user())?;
    if let Some(problem) = problem {
        writeln!(out, "             {problem}")?;
    }
    writeln!(
        out,
        "timeouts     {} s for the first token, {} s of silence",
        settings.first_token_timeout_secs, settings.idle_timeout_secs
    )?;
    match learned {
        Some(learned) => writeln!(
            out,
            "server takes JSON by {}; rounds with tools {}; edits planned {}",
            learned.patch_format,
            if learned.streams_tools {
                "streamed"
            } else {
                "asked without streaming"
            },
            if learned.calls_tools {
                "by the chat model (tools)"
            } else {
                "on this computer (the one-model path)"
            }
        )?,
        None => writeln!(
            out,
            "server takes (not learned yet: `redline provider test` finds out)"
        )?,
    }
    Ok(())
}

/// `redline provider test`: exits 1 unless both models answer.
fn test(store: &mut Store, json: bool, out: &mut impl Write) -> Result<()> {
    let config = redline_agent::settings::resolve(store, &OsKeychain, |_| {})?;
    let provider = redline_agent::Provider::new(config.clone());
    let report = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(redline_agent::probe::test_connection(&provider));
    redline_agent::settings::remember(store, &provider, true)?;
    if json {
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        let line = |check: &redline_agent::probe::Check| match &check.problem {
            None => "answers".to_owned(),
            Some(problem) => format!("FAILED: {problem}"),
        };
        let listed = match &report.listing.problem {
            None => format!("answers; {} model(s) listed", report.models.len()),
            Some(problem) => format!("no model list ({problem})"),
        };
        writeln!(out, "server       {}: {listed}", report.base_url)?;
        writeln!(
            out,
            "chat model   {}: {}",
            config.chat_model,
            line(&report.chat)
        )?;
        writeln!(
            out,
            "patch model  {}: {}{}",
            config.patch_model,
            line(&report.patch),
            if report.patch.ok {
                format!(" (JSON by {})", report.patch_format)
            } else {
                String::new()
            }
        )?;
    }
    if !report.works() {
        out.flush()?;
        std::process::exit(1);
    }
    Ok(())
}
