/// Every command the window may call: each gets a permission of its own (`allow-open-surface`, …), and only
/// what a capability grants a window is allowed, so a command missing here cannot be called at all.
/// `tests/parity.rs` checks this list against the handlers (`src-tauri/lib.rs`) and the capability.
const COMMANDS: &[&str] = &[
    "painted",
    "open_link",
    "provider_settings",
    "save_provider",
    "set_key",
    "clear_key",
    "test_connection",
    "find_local_servers",
    "open_surface",
    "app_info",
    "send_message",
    "turn_stream",
    "end_turn_stream",
    "start_demo",
    "write_letter",
    "apply_for",
    "tidy_import",
    "apply_held",
    "stop_turn",
    "chat_history",
    "export_preview",
    "export_document",
    "designs",
    "theme_stamp",
    "design_thumbnail",
    "set_design",
    "fit_pages",
    "remove_photo",
    "choose_photo",
    "export_sent",
    "list_documents",
    "document_state",
    "open_document",
    "new_document",
    "import_document",
    "preview_import",
    "import_reviewed",
    "take_reviews",
    "duplicate_document",
    "rename_document",
    "delete_document",
    "undelete_document",
    "undo",
    "redo",
    "history",
    "revision",
    "restore",
    "take_notices",
    "edit_document",
    "set_words",
    "ats_check",
    "page_images",
    "tailor_document",
    "tailoring",
    "held_edits",
    "held_findings",
    "discard_held",
    "review_mode",
    "set_review_mode",
    "list_applications",
    "add_application",
    "move_application",
    "export_applications_csv",
    "import_applications_csv",
    "lint_document",
    "set_rule_enabled",
    "fix_finding",
    "add_word",
    "sync_status",
    "sync_now",
    "sync_through_git",
    "sync_off",
    "choose_sync_folder",
    "sync_through_folder",
];

fn main() {
    // Release binaries on x86-64 Linux are linked by LLD (Rust's default there): fold the functions whose
    // machine code is identical. The app and `redline` both carry the engine, Typst and the TLS stack, and
    // generic code is emitted many times over; the `.deb` has a budget of 20 MB (README "Budgets").
    let target = std::env::var("TARGET").unwrap_or_default();
    if target == "x86_64-unknown-linux-gnu" && std::env::var("PROFILE").as_deref() == Ok("release")
    {
        println!("cargo:rustc-link-arg-bins=-Wl,--icf=all");
    }
    // The capabilities live beside the app's sources, not in the default `capabilities/` at the root.
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    // The window's commands, each with its permission ([`COMMANDS`]).
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .capabilities_path_pattern("./src-tauri/capabilities/**/*")
            .app_manifest(manifest),
    )
    .expect("failed to run tauri-build");
}
