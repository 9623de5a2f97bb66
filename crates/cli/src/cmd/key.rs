//! `redline key set|clear`: the saved provider's API key, in the OS keychain (never in the database).

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::on_engine;
use crate::{KeyAction, fail};
use redline_engine::ErrorKind;

pub fn run(data_dir: &Path, action: KeyAction, out: &mut impl Write) -> Result<()> {
    match action {
        KeyAction::Set => {
            let whose = on_engine(data_dir, async |engine| engine.provider().await)
                .map(|view| whose(&view))?;
            let key = read_key(&whose)?;
            on_engine(data_dir, async |engine| engine.set_key(key).await)?;
            writeln!(out, "Saved the key for {whose} in the keychain.")?;
        }
        KeyAction::Clear => {
            let (had, view) = on_engine(data_dir, async |engine| {
                let had = engine.provider().await?.key_set;
                Ok((had, engine.clear_key().await?))
            })?;
            let whose = whose(&view);
            if had {
                writeln!(out, "Removed the key for {whose} from the keychain.")?;
            } else {
                writeln!(out, "There was no key for {whose} in the keychain.")?;
            }
        }
    }
    Ok(())
}

/// The provider a key is for, in words: its preset and host (`openai at api.openai.com`).
fn whose(view: &redline_engine::ipc::ProviderView) -> String {
    let host = view
        .key_for
        .split_once('@')
        .map_or(view.key_for.as_str(), |(_, host)| host);
    format!("{} at {host}", view.settings.preset.name())
}

/// The key, typed without echo on a terminal or read from standard input; refused when empty.
fn read_key(whose: &str) -> Result<String> {
    use std::io::{IsTerminal, Read};
    let key = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("API key for {whose}: "))?
    } else {
        let mut text = String::new();
        std::io::stdin().take(64 * 1024).read_to_string(&mut text)?;
        text
    };
    let key = key.trim();
    if key.is_empty() {
        return Err(fail(
            ErrorKind::Refused,
            "no key was given on standard input; nothing was saved",
        ));
    }
    Ok(key.to_owned())
}
