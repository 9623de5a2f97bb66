//! `redline key set|clear`: the saved provider's API key, in the OS keychain (never in the database).

use std::io::Write;

use anyhow::Result;
use redline_agent::{Keychain, OsKeychain, ProviderSettings};
use redline_store::Store;

use crate::{Exit, KeyAction, fail};

/// `redline key …`.
pub fn run(store: &mut Store, action: KeyAction, out: &mut impl Write) -> Result<()> {
    let (settings, _) = ProviderSettings::load(store)?;
    let account = settings.key_account();
    let whose = format!("{} at {}", settings.preset.name(), account.host);
    match action {
        KeyAction::Set => {
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
                    Exit::Refused,
                    "no key was given on standard input; nothing was saved",
                ));
            }
            OsKeychain.set(&account, key)?;
            writeln!(out, "Saved the key for {whose} in the keychain.")?;
        }
        KeyAction::Clear => {
            if OsKeychain.remove(&account)? {
                writeln!(out, "Removed the key for {whose} from the keychain.")?;
            } else {
                writeln!(out, "There was no key for {whose} in the keychain.")?;
            }
        }
    }
    Ok(())
}
