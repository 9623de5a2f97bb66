//! Both front doors drive one engine: every public operation of `redline_engine::Engine` is reachable from
//! the app (a Tauri command) and from the `redline` command line, or the table in `docs/architecture.md`
//! says why only one of them offers it. A new operation with no row, a row naming a command that does not
//! exist, or an operation neither door reaches fails this test. And the command line reaches nothing but
//! the engine: its dependencies, as Cargo resolves them, name no other crate of Redline's.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The public methods of `impl Engine` blocks in the engine's sources (a file per group of operations).
fn engine_operations() -> BTreeSet<String> {
    let mut ops = BTreeSet::new();
    let sources =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src"));
    for entry in sources.unwrap() {
        let file = entry.unwrap().path();
        if file.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let mut inside = false;
        for line in read(&file).lines() {
            if line.starts_with("impl Engine {") {
                inside = true;
            } else if line == "}" {
                inside = false;
            } else if inside {
                let rest = line
                    .strip_prefix("    pub async fn ")
                    .or_else(|| line.strip_prefix("    pub fn "));
                if let Some(rest) = rest {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    ops.insert(name);
                }
            }
        }
    }
    ops
}

/// The commands the app's window may invoke (`generate_handler!` in `src-tauri/lib.rs`).
fn app_commands() -> BTreeSet<String> {
    let lib = read("src-tauri/lib.rs");
    let handlers = lib.split("generate_handler![").nth(1).unwrap();
    handlers[..handlers.find(']').unwrap()]
        .split("commands::")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Every handler has a permission (`src-tauri/build.rs`'s `COMMANDS`), the main window is granted each
/// of them (`src-tauri/capabilities/default.json`), and nothing else is listed: a command added in one
/// place only is either refused in the window or granted without being one.
#[test]
fn every_app_command_has_a_permission_and_the_window_is_granted_it() {
    let handlers = app_commands();
    let build = read("src-tauri/build.rs");
    let listed = &build[build.find("const COMMANDS: &[&str] = &[").unwrap()..];
    let manifest: BTreeSet<String> = listed[..listed.find("];").unwrap()]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    assert_eq!(
        manifest, handlers,
        "build.rs's app manifest and the handlers differ"
    );
    let capability: serde_json::Value =
        serde_json::from_str(&read("src-tauri/capabilities/default.json")).unwrap();
    let granted: BTreeSet<String> = capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str()?.strip_prefix("allow-"))
        .map(|p| p.replace('-', "_"))
        .collect();
    assert_eq!(
        granted, handlers,
        "the main window's capability and the handlers differ"
    );
}

/// The `redline` subcommands, as its help lists them.
fn cli_commands() -> BTreeSet<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_redline"))
        .arg("help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// The architecture page's table: (engine operation, app command, CLI command, why only one).
fn table() -> Vec<[String; 4]> {
    let page = read("docs/architecture.md");
    let section = page
        .split("### One engine, two front doors")
        .nth(1)
        .expect("docs/architecture.md has a section “One engine, two front doors”");
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            let cells: Vec<String> = row
                .trim_matches('|')
                .split('|')
                .map(|c| c.replace('`', "").trim().to_owned())
                .collect();
            assert_eq!(cells.len(), 4, "a row of four cells: {row}");
            [
                cells[0].clone(),
                cells[1].clone(),
                cells[2].clone(),
                cells[3].clone(),
            ]
        })
        .collect()
}

#[test]
fn every_engine_operation_is_reachable_from_both_front_doors_or_the_table_says_why() {
    let operations = engine_operations();
    assert!(
        operations.len() > 30,
        "the engine's operations were read: {operations:?}"
    );
    let (app, cli) = (app_commands(), cli_commands());
    assert!(
        app.contains("send_message") && cli.contains("chat"),
        "{app:?} {cli:?}"
    );
    let rows = table();
    let listed: BTreeSet<String> = rows.iter().map(|r| r[0].clone()).collect();
    let missing: Vec<_> = operations.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "engine operations with no row in docs/architecture.md's table: {missing:?}"
    );
    let stale: Vec<_> = listed.difference(&operations).collect();
    assert!(
        stale.is_empty(),
        "rows for operations the engine no longer has: {stale:?}"
    );
    for [op, by_app, by_cli, why] in &rows {
        let none = |cell: &str| cell == "—";
        assert!(
            !(none(by_app) && none(by_cli)),
            "{op} is reachable from neither front door"
        );
        if !none(by_app) {
            assert!(
                app.contains(by_app.as_str()),
                "{op}: the app has no command {by_app}"
            );
        }
        if !none(by_cli) {
            let first = by_cli.split_whitespace().next().unwrap_or_default();
            assert!(
                cli.contains(first),
                "{op}: `redline` has no command {first}"
            );
        }
        if none(by_app) || none(by_cli) {
            assert!(
                why.len() > 10,
                "{op} is offered by one front door only: docs/architecture.md must say why"
            );
        }
    }
}

/// A Tauri command as `src-tauri/commands.rs` declares it: the arguments the window passes (camelCase, as
/// Tauri takes them), and what it returns, in TypeScript's words.
#[derive(Debug, PartialEq)]
struct Signature {
    arguments: BTreeSet<String>,
    returns: String,
}

/// `snake_case` as Tauri names a command's argument on the JavaScript side.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        match (c, upper) {
            ('_', _) => upper = true,
            (c, true) => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            (c, false) => out.push(c),
        }
    }
    out
}

/// A Rust type as the window receives it: the generated bindings' names, `T[]`, `T | null`.
fn typescript(rust: &str) -> String {
    let rust = rust.trim();
    if let Some(inner) = rust
        .strip_prefix("Result<")
        .and_then(|r| r.strip_suffix(", Error>"))
    {
        return typescript(inner);
    }
    if let Some(inner) = rust.strip_prefix("Vec<").and_then(|r| r.strip_suffix('>')) {
        return format!("{}[]", typescript(inner));
    }
    if let Some(inner) = rust
        .strip_prefix("Option<")
        .and_then(|r| r.strip_suffix('>'))
    {
        return format!("{} | null", typescript(inner));
    }
    match rust.rsplit("::").next().unwrap() {
        "" | "()" => "void".to_owned(),
        "bool" => "boolean".to_owned(),
        "u64" | "i64" | "u32" | "usize" => "number".to_owned(),
        "String" => "string".to_owned(),
        // The Page view's bytes: an ArrayBuffer (or, from the mocked bridge, a list of numbers).
        "Response" => "ArrayBuffer | number[]".to_owned(),
        // ts-rs renames it (`#[ts(rename = "HeldEdits")]`).
        "Held" => "HeldEdits".to_owned(),
        // (`#[ts(rename = "ApplicationFields")]`: the window's form.)
        "NewApplication" => "ApplicationFields".to_owned(),
        other => other.to_owned(),
    }
}

/// Every command `src-tauri/commands.rs` declares: each function written out with Tauri's attribute, and
/// each line of its `engine_commands!` tables (`fn name(arguments) -> T = method(…);`).
fn handler_signatures() -> std::collections::BTreeMap<String, Signature> {
    let source = read("src-tauri/commands.rs");
    let written =
        (source.split("#[tauri::command]").skip(1)).map(|item| &item[..item.find('{').unwrap()]);
    let tabled = (source.split("engine_commands! {").skip(1))
        .flat_map(|table| table[..table.find("\n}").unwrap()].split(';'))
        .filter_map(|entry| entry.find("\n    fn ").map(|at| &entry[at..]))
        .map(|head| &head[..head.find(" = ").unwrap()]);
    written.chain(tabled).filter_map(signature).collect()
}

/// A command's name and signature, from its head: `… fn name<…>(arguments) -> T`; `None` for the
/// template in `engine_commands!` itself (`fn $name`).
fn signature(head: &str) -> Option<(String, Signature)> {
    let name_at = head.find("fn ").unwrap() + 3;
    let name: String = head[name_at..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return None;
    }
    let open = head.find('(').unwrap();
    // The parenthesis that closes the arguments (a type among them, or the one returned, may have its own).
    let mut depth = 0;
    let close = open
        + head[open..]
            .find(|c| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .unwrap();
    let arguments = head[open + 1..close]
        .split(',')
        .filter_map(|p| p.split_once(':'))
        .filter(|(_, ty)| !ty.contains("State<") && !ty.contains("AppHandle<"))
        .map(|(name, _)| camel(name.trim()))
        .collect();
    let returns = head[close + 1..].trim().strip_prefix("->").unwrap_or("()");
    let returns = typescript(returns);
    Some((name, Signature { arguments, returns }))
}

/// Every `invoke<T>("name", { … })` in `ui/src/lib/backend.ts`.
fn invoked() -> std::collections::BTreeMap<String, Signature> {
    let source = read("ui/src/lib/backend.ts");
    let mut found = std::collections::BTreeMap::new();
    for call in source.split("invoke").skip(1) {
        let (returns, rest) = match call.strip_prefix('<') {
            Some(typed) => {
                let end = typed.find(">(").unwrap();
                (typed[..end].trim().to_owned(), &typed[end + 1..])
            }
            None => ("void".to_owned(), call),
        };
        let Some(rest) = rest.strip_prefix("(\"") else {
            continue;
        };
        let name = rest[..rest.find('"').unwrap()].to_owned();
        let after = &rest[name.len() + 1..];
        let arguments = match after.trim_start().strip_prefix(", {") {
            Some(object) => object[..object.find('}').unwrap()]
                .split(',')
                .map(|field| field.split(':').next().unwrap().trim().to_owned())
                .filter(|field| !field.is_empty())
                .collect(),
            None => BTreeSet::new(),
        };
        found.insert(name, Signature { arguments, returns });
    }
    found
}

/// The window calls each command by its name, with exactly the arguments it takes, expecting what it
/// returns: a renamed command, an argument added or renamed on one side, or a return type changed in Rust
/// fails here rather than in the window at run time.
#[test]
fn every_command_the_window_calls_matches_its_handler() {
    let handlers = handler_signatures();
    let calls = invoked();
    assert!(
        handlers.len() > 40 && calls.len() > 40,
        "{} handlers, {} calls read",
        handlers.len(),
        calls.len()
    );
    let registered = app_commands();
    assert_eq!(
        handlers.keys().cloned().collect::<BTreeSet<_>>(),
        registered,
        "handlers declared and registered differ"
    );
    for (name, call) in &calls {
        let handler = handlers
            .get(name)
            .unwrap_or_else(|| panic!("backend.ts calls {name}, which is no command"));
        assert_eq!(
            call, handler,
            "backend.ts's call of {name} and its handler disagree"
        );
    }
    let uncalled: Vec<_> = handlers
        .keys()
        .filter(|name| !calls.contains_key(*name))
        .collect();
    assert!(
        uncalled.is_empty(),
        "commands the window never calls (grant them to no window, or remove them): {uncalled:?}"
    );
}

/// The command line is a front door and nothing more: of Redline's own crates it depends on the engine
/// alone (no store, agent, patch, PDF or import crate), and on no database driver. Read from what Cargo
/// resolves, not from the source text.
#[test]
fn the_command_line_depends_on_the_engine_alone() {
    let out = common::succeeded(
        Command::new(env!("CARGO"))
            .args([
                "metadata",
                "--format-version",
                "1",
                "--offline",
                "--no-deps",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap(),
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let ours: BTreeSet<&str> = packages
        .iter()
        .filter_map(|p| p["name"].as_str())
        .filter(|name| name.starts_with("redline-"))
        .collect();
    assert!(ours.len() > 8, "Redline's crates were read: {ours:?}");
    let cli = packages
        .iter()
        .find(|p| p["name"] == "redline-cli")
        .expect("the command line's crate");
    let depends_on: BTreeSet<&str> = cli["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"].is_null())
        .filter_map(|d| d["name"].as_str())
        .collect();
    let of_ours: BTreeSet<&str> = depends_on.intersection(&ours).copied().collect();
    assert_eq!(
        of_ours,
        BTreeSet::from(["redline-engine"]),
        "the command line reaches past the engine"
    );
    for driver in [
        "rusqlite",
        "libsqlite3-sys",
        "reqwest",
        "typst",
        "async-openai",
    ] {
        assert!(
            !depends_on.contains(driver),
            "the command line depends on {driver} itself"
        );
    }
}
