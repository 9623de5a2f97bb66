//! `redline list`: the resumes, the current one marked, each with its name and last change in local time.

use std::io::Write;

use anyhow::Result;
use redline_store::Store;
use serde_json::{Value, json};

use super::{local, plain};

/// `redline list`.
pub fn run(store: &mut Store, json: bool, deleted: bool, out: &mut impl Write) -> Result<()> {
    let documents = if deleted {
        store.list_deleted()?
    } else {
        store.current_or_import(redline_resume::first_resume)?;
        store.list()?
    };
    let mut rows = Vec::new();
    for d in &documents {
        // One document that cannot be read says so in its row; the others list as usual.
        let (name, problem) = match d.deleted_at {
            None => match store.head_name(d.id) {
                Ok(name) => (name, None),
                Err(e) => (String::new(), Some(e.to_string())),
            },
            Some(_) => (String::new(), None),
        };
        rows.push((d, name, problem));
    }
    if json {
        let array: Vec<Value> = rows
            .iter()
            .map(|(d, name, problem)| {
                let mut v = serde_json::to_value(d).unwrap_or_default();
                v["name"] = json!(name);
                if let Some(problem) = problem {
                    v["problem"] = json!(problem);
                }
                v
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &array)?;
        writeln!(out)?;
    } else {
        for (i, (d, name, problem)) in rows.iter().enumerate() {
            let mark = if i == 0 && !deleted { "*" } else { " " };
            writeln!(
                out,
                "{mark} {:>4}  {}  —  {}  (revision {}, {})",
                d.id,
                plain(&d.title),
                if name.is_empty() {
                    "no name".to_owned()
                } else {
                    plain(name)
                },
                d.head_revision,
                local(d.deleted_at.unwrap_or(d.updated_at))
            )?;
            if let Some(problem) = problem {
                writeln!(out, "        cannot be opened: {problem}")?;
            }
        }
    }
    Ok(())
}
