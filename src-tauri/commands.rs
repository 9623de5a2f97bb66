//! The commands the web UI calls.

use tauri::{AppHandle, Emitter, Runtime, State};

use crate::engine::{Emit, Engine};
use crate::ipc::{
    AppInfo, CHAT_EVENT, ChatLine, ExportDone, ExportRequest, IpcError, SURFACE_EVENT,
    SurfaceUpdate, TurnSummary,
};

/// The resume view's first message: the current document as a `create`. The UI calls it on start and
/// again whenever it sees a gap in `seq`.
#[tauri::command]
pub async fn open_surface(engine: State<'_, Engine>) -> Result<SurfaceUpdate, IpcError> {
    engine
        .open_surface()
        .await
        .map_err(|message| IpcError { message })
}

/// Sends surface messages and chat events to the window as a turn produces them.
fn emitter<R: Runtime>(app: AppHandle<R>) -> impl FnMut(Emit) + Send {
    move |emit| {
        let _ = match emit {
            Emit::Surface(update) => app.emit(SURFACE_EVENT, update),
            Emit::Chat(event) => app.emit(CHAT_EVENT, event),
        };
    }
}

/// Runs an AI turn for the user's message; the reply and the edits stream as events.
#[tauri::command]
pub async fn send_message<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
    text: String,
    selected: Option<String>,
) -> Result<TurnSummary, IpcError> {
    let mut emit = emitter(app);
    engine
        .send(&text, selected, &mut emit)
        .await
        .map_err(|message| IpcError { message })
}

/// Plays the scripted demo (no model, no key) on a fresh copy of the sample resume.
#[tauri::command]
pub async fn start_demo<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
) -> Result<TurnSummary, IpcError> {
    let mut emit = emitter(app);
    engine
        .demo(&mut emit)
        .await
        .map_err(|message| IpcError { message })
}

/// Applies edits a turn held for confirmation; returns the new revision. The view hears the change as a
/// committed `patch`.
#[tauri::command]
pub async fn apply_held<R: Runtime>(
    app: AppHandle<R>,
    engine: State<'_, Engine>,
    edits: redline_agent::Held,
) -> Result<u64, IpcError> {
    let mut emit = emitter(app);
    engine
        .apply_held(edits, &mut emit)
        .await
        .map_err(|message| IpcError { message })
}

/// The HTML export of the document on screen, for the export dialog's preview.
#[tauri::command]
pub async fn export_preview(
    engine: State<'_, Engine>,
    request: ExportRequest,
) -> Result<String, IpcError> {
    let html = ExportRequest {
        format: "html".into(),
        ..request
    };
    engine
        .render(&html)
        .await
        .map(|(bytes, ..)| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|message| IpcError { message })
}

/// Exports the document on screen into the Downloads folder.
#[tauri::command]
pub async fn export_document(
    engine: State<'_, Engine>,
    request: ExportRequest,
) -> Result<ExportDone, IpcError> {
    let folder = dirs::download_dir()
        .or_else(dirs::home_dir)
        .ok_or_else(|| IpcError {
            message: "cannot tell where your Downloads folder is".into(),
        })?;
    engine
        .export(&request, &folder)
        .await
        .map_err(|message| IpcError { message })
}

/// The conversation about the document on screen, oldest first.
#[tauri::command]
pub async fn chat_history(engine: State<'_, Engine>) -> Result<Vec<ChatLine>, IpcError> {
    engine
        .chat_history()
        .await
        .map_err(|message| IpcError { message })
}

/// Stops the turn in progress: the HTTP stream is cancelled and every preview rolled back.
#[tauri::command]
pub fn stop_turn(engine: State<'_, Engine>) -> bool {
    engine.stop()
}

/// The app's version and data folder.
#[tauri::command]
pub fn app_info(engine: State<'_, Engine>) -> AppInfo {
    AppInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        data_dir: engine
            .data_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder, mock_context, noop_assets};
    use tauri::webview::InvokeRequest;

    use crate::engine::Engine;

    fn invoke(engine: Engine, cmd: &str) -> Result<Value, Value> {
        let app = crate::with_redline(mock_builder(), engine)
            .build(mock_context(noop_assets()))
            .unwrap();
        let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap();
        get_ipc_response(
            &webview,
            InvokeRequest {
                cmd: cmd.into(),
                callback: tauri::ipc::CallbackFn(0),
                error: tauri::ipc::CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: tauri::ipc::InvokeBody::default(),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_string(),
            },
        )
        .map(|body| body.deserialize::<Value>().unwrap())
    }

    #[test]
    fn open_surface_answers_with_a_create_message_over_ipc() {
        let dir = tempfile::tempdir().unwrap();
        let reply = invoke(Engine::start(Some(dir.path().to_owned())), "open_surface").unwrap();
        assert_eq!(reply["kind"], "create");
        assert_eq!(reply["surfaceId"], "main");
        assert_eq!(reply["seq"], 0);
        assert_eq!(reply["document"]["basics"]["name"], "Richard Hendriks");
    }

    #[test]
    fn open_surface_reports_a_broken_store_in_plain_words() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("redline.db"), b"garbage ".repeat(1000)).unwrap();
        let reply = invoke(Engine::start(Some(dir.path().to_owned())), "open_surface").unwrap_err();
        assert!(
            reply["message"].as_str().unwrap().contains("damaged"),
            "{reply}"
        );
    }
}
