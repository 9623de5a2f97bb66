//! `redline provider show|set|test`: the model server, saved for the app and the CLI alike, and the test
//! of the connection to it.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use redline_engine::provider::{ProviderChange, ProviderReport};
use serde_json::json;

use super::on_engine;
use crate::ProviderAction;

pub fn run(data_dir: &Path, action: ProviderAction, out: &mut impl Write) -> Result<()> {
    match action {
        ProviderAction::Show { json } => {
            let report = on_engine(data_dir, async |engine| engine.provider_report().await)?;
            show_provider(&report, json, out)
        }
        ProviderAction::Set(flags) => {
            let change = ProviderChange::from(flags);
            let report = on_engine(data_dir, async |engine| {
                engine.change_provider(change).await?;
                engine.provider_report().await
            })?;
            show_provider(&report, false, out)
        }
        ProviderAction::Test { json } => test(data_dir, json, out),
    }
}

fn show_provider(report: &ProviderReport, json: bool, out: &mut impl Write) -> Result<()> {
    let ProviderReport {
        view,
        env_key,
        learned,
    } = report;
    let settings = &view.settings;
    let (key, problem) = match (env_key, view.key_set, &view.keychain_problem) {
        (true, _, _) => ("set (OPENAI_API_KEY)", None),
        (false, _, Some(problem)) => ("unknown", Some(problem.clone())),
        (false, true, None) => ("set", None),
        (false, false, None) => ("not set", None),
    };
    if json {
        let mut value = serde_json::to_value(settings)?;
        value["saved"] = json!(view.saved);
        value["keySet"] = json!(key.starts_with("set"));
        value["keyFor"] = json!(view.key_for);
        if let Some(problem) = &problem {
            value["keychainProblem"] = json!(problem);
        }
        value["learned"] = serde_json::to_value(learned)?;
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    let saved = view.saved;
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
    writeln!(out, "key          {key} (for {})", view.key_for)?;
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
fn test(data_dir: &Path, json: bool, out: &mut impl Write) -> Result<()> {
    let tested = on_engine(data_dir, async |engine| engine.test_provider().await)?;
    let report = &tested.report;
    if json {
        serde_json::to_writer_pretty(&mut *out, report)?;
        writeln!(out)?;
    } else {
        let line = |check: &redline_engine::Check| match &check.problem {
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
            tested.chat_model,
            line(&report.chat)
        )?;
        writeln!(
            out,
            "patch model  {}: {}{}",
            tested.patch_model,
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
