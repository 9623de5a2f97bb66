//! `redline list`: the resumes (or the deleted ones), most recently changed first.

use std::io::Write;

use anyhow::Result;
use serde_json::{Value, json};

use super::{local, on_engine, plain};

pub fn run(
    data_dir: &std::path::Path,
    json: bool,
    deleted: bool,
    out: &mut impl Write,
) -> Result<()> {
    let rows = on_engine(data_dir, async |engine| engine.list(deleted).await)?;
    if json {
        let array: Vec<Value> = rows
            .iter()
            .map(|row| {
                let mut v = serde_json::to_value(&row.document).unwrap_or_default();
                v["name"] = json!(row.name);
                if let Some(problem) = &row.problem {
                    v["problem"] = json!(problem);
                }
                v
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &array)?;
        writeln!(out)?;
        return Ok(());
    }
    for (i, row) in rows.iter().enumerate() {
        let d = &row.document;
        let mark = if i == 0 && !deleted { "*" } else { " " };
        writeln!(
            out,
            "{mark} {:>4}  {}  —  {}  (revision {}, {})",
            d.id,
            plain(&d.title),
            if row.name.is_empty() {
                "no name".to_owned()
            } else {
                plain(&row.name)
            },
            d.head_revision,
            local(d.deleted_at.unwrap_or(d.updated_at))
        )?;
        if let Some(problem) = &row.problem {
            writeln!(out, "        cannot be opened: {problem}")?;
        }
    }
    Ok(())
}
