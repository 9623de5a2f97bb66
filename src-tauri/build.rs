fn main() {
    // The capabilities live beside the app's sources, not in the default `capabilities/` at the root.
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    tauri_build::try_build(
        tauri_build::Attributes::new().capabilities_path_pattern("./src-tauri/capabilities/**/*"),
    )
    .expect("failed to run tauri-build");
}
