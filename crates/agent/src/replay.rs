//! The replay server: an OpenAI-compatible chat-completions endpoint on 127.0.0.1 that answers from a
//! script instead of a model. Tests point the real client at it, and `redline demo` plays a session through
//! it so that a newcomer sees live edits without a key.
//!
//! It speaks the wire format of real servers: `data: {chat.completion.chunk}` lines, text deltas,
//! `tool_calls` argument deltas, a usage chunk, `data: [DONE]`; and, on request, the quirks real servers
//! have (a tool-call delta without `index`, `finish_reason: ""`, `"stop"` where `"tool_calls"` was meant,
//! SSE comment lines and keep-alives, CRLF line ends). Each request takes the next [`Reply`] of the
//! script; failures (401, 429 with `retry-after`, 500, a disconnect mid-stream, a stall) are replies too.
//! The requests of a first-use learning (the few a turn sends first to a server and models it does not
//! know yet) are answered by the server itself, as a server that takes everything, unless the script has
//! replies marked for them; they are counted apart ([`ReplayServer::learning_requests`]).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, Response, StatusCode};
use axum::routing::{get, post};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};

/// One scripted answer to one request.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Reply {
    /// Text the model says (streamed as content deltas).
    pub say: Option<String>,
    /// A tool call: `{"name": …, "arguments": {…}}` (the arguments streamed as a JSON string).
    pub tool_call: Option<Value>,
    /// More tool calls in the same answer, after `tool_call`, each with the next index.
    pub tool_calls: Vec<Value>,
    /// The `index` the first tool call is sent with (default 0), as a hostile server might choose it.
    pub tool_index: Option<u64>,
    /// Content the patch model writes: the final value, streamed as the encoder chunks it.
    pub patch: Option<Value>,
    /// Content as raw text (for output that is not valid or not complete JSON).
    pub raw: Option<String>,
    /// An HTTP error instead of a stream.
    pub fail: Option<Failure>,
    /// Close the connection after this many content or argument chunks.
    pub disconnect_after: Option<usize>,
    /// Stop sending (without closing) after this many chunks, for `stall_ms`.
    pub stall_after: Option<usize>,
    /// How long a stall lasts.
    pub stall_ms: Option<u64>,
    /// This reply answers a request of a first-use learning ([`crate::provider::LEARNING_HEADER`]): such a
    /// request takes the script's next reply only when it is marked so, and the server's own answers
    /// otherwise ([`learning_answer`]); a turn's request takes the next reply whatever it is.
    pub learning: bool,
    /// Quirks of real servers to reproduce: `noIndex`, `emptyFinishReason`, `stopForToolCalls`, `crlf`,
    /// `comments`, `unfinished` (the stream ends cleanly with no finish reason, no usage and no `[DONE]`, as
    /// llama.cpp's server does when it fails after answering 200).
    pub quirks: Vec<String>,
}

/// A scripted HTTP error.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// The status code.
    pub status: u16,
    /// The error body's message.
    #[serde(default)]
    pub message: String,
    /// The error body's `type` / `code` (`insufficient_quota`, `model_not_found`, …).
    #[serde(default)]
    pub code: Option<String>,
    /// A `retry-after` header, in seconds.
    #[serde(default)]
    pub retry_after: Option<u64>,
}

/// How the server chunks and paces its answers.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// Characters per content or argument delta.
    pub chunk: usize,
    /// Pause between deltas.
    pub delay: Duration,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            chunk: 7,
            delay: Duration::ZERO,
        }
    }
}

#[derive(Default)]
struct Shared {
    replies: VecDeque<Reply>,
    /// The request bodies of the script's requests (a first-use learning's aside).
    requests: Vec<Value>,
    /// The request bodies of first-use learnings.
    learning: Vec<Value>,
    /// Each chat request's bearer token, if it had one (a learning's included).
    keys: Vec<Option<String>>,
}

/// A running replay server; it stops when dropped.
pub struct ReplayServer {
    addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl ReplayServer {
    /// Starts a server on an ephemeral port of 127.0.0.1 that answers with `replies`, in order.
    pub async fn start(replies: Vec<Reply>, pace: Pace) -> std::io::Result<ReplayServer> {
        let shared = Arc::new(Mutex::new(Shared {
            replies: replies.into(),
            ..Shared::default()
        }));
        let app = Router::new()
            .route("/v1/chat/completions", post(answer))
            .route("/chat/completions", post(answer))
            .route("/v1/models", get(models))
            .route("/models", get(models))
            .with_state((shared.clone(), pace));
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
        });
        Ok(ReplayServer {
            addr,
            shared,
            stop: Some(stop),
        })
    }

    /// The base URL to give a client (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The request bodies received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.shared
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .requests
            .clone()
    }

    /// The request bodies of first-use learnings received so far ([`crate::probe::learn`]: they are not
    /// in [`ReplayServer::requests`]).
    pub fn learning_requests(&self) -> Vec<Value> {
        self.shared
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .learning
            .clone()
    }

    /// The bearer token each chat request carried (`None` for a request without one), in order.
    pub fn keys(&self) -> Vec<Option<String>> {
        self.shared
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .keys
            .clone()
    }

    /// How many scripted replies are left.
    pub fn remaining(&self) -> usize {
        self.shared
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .replies
            .len()
    }
}

impl Drop for ReplayServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// What the server answers a first-use learning's request when its script has no reply for it: as a
/// server that takes everything would. The patch model's JSON (asked by a response format or a forced
/// tool) is an empty list of operations; the planner's question (a round with tools, not streamed) is a
/// call of `patch_resume` with a target in the skills; any other request, "OK".
pub fn learning_answer(request: &Value) -> Reply {
    let patch = request.get("response_format").is_some() || request["tool_choice"].is_object();
    let plan = request.get("tools").is_some() && request["stream"] != Value::Bool(true);
    let mut reply = Reply::default();
    match (patch, plan) {
        (true, _) => reply.patch = Some(json!({"operations": []})),
        (false, true) => {
            reply.tool_call = Some(json!({"name": "patch_resume", "arguments": {
                "changes": "Add Python to the skills.", "targets": ["/skills/0/keywords"]}}))
        }
        (false, false) => reply.say = Some("OK".to_owned()),
    }
    reply
}

/// A reply as one `chat.completion` (not streamed): its text, its tool calls, its finish reason.
fn whole(reply: &Reply, model: &str) -> Response<Body> {
    let mut content = reply.say.clone().unwrap_or_default();
    if let Some(value) = &reply.patch {
        content.push_str(&value.to_string());
    }
    if let Some(raw) = &reply.raw {
        content.push_str(raw);
    }
    let calls: Vec<Value> = reply
        .tool_call
        .iter()
        .chain(&reply.tool_calls)
        .enumerate()
        .map(|(n, call)| {
            json!({"id": format!("call_replay_{}", n + 1), "type": "function",
                   "function": {"name": call["name"], "arguments": call["arguments"].to_string()}})
        })
        .collect();
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    let message = if calls.is_empty() {
        json!({"role": "assistant", "content": content})
    } else {
        json!({"role": "assistant", "content": content, "tool_calls": calls})
    };
    let body = json!({
        "id": "chatcmpl-replay", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    });
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap_or_default()
}

/// The models the replay server lists (it answers for any model it is asked for).
pub const MODELS: &[&str] = &["replay-chat", "replay-patch"];

async fn models() -> Response<Body> {
    let data: Vec<Value> = MODELS
        .iter()
        .map(|id| json!({"id": id, "object": "model", "created": 0, "owned_by": "redline-replay"}))
        .collect();
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"object": "list", "data": data}).to_string(),
        ))
        .unwrap_or_default()
}

async fn answer(
    State((shared, pace)): State<(Arc<Mutex<Shared>>, Pace)>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response<Body> {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let model = request["model"].as_str().unwrap_or("replay").to_owned();
    let key = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    let learning = headers.contains_key(crate::provider::LEARNING_HEADER);
    let stream_off = request["stream"] != Value::Bool(true);
    let reply = {
        let mut shared = shared.lock().unwrap_or_else(|p| p.into_inner());
        shared.keys.push(key);
        if learning {
            let scripted = shared.replies.front().is_some_and(|r| r.learning);
            let reply = match scripted {
                true => shared.replies.pop_front(),
                false => Some(learning_answer(&request)),
            };
            shared.learning.push(request);
            reply
        } else {
            shared.requests.push(request);
            shared.replies.pop_front()
        }
    };
    let Some(reply) = reply else {
        return error(500, "the replay script has no more replies", None, None);
    };
    if let Some(f) = &reply.fail {
        return error(f.status, &f.message, f.code.as_deref(), f.retry_after);
    }
    if stream_off {
        return whole(&reply, &model);
    }
    let frames = frames(&reply, &model, pace.chunk);
    let crlf = reply.quirks.iter().any(|q| q == "crlf");
    let comments = reply.quirks.iter().any(|q| q == "comments");
    let (disconnect, stall) = (reply.disconnect_after, reply.stall_after);
    let stall_for = Duration::from_millis(reply.stall_ms.unwrap_or(60_000));
    let delay = pace.delay;
    let stream =
        futures::stream::iter(frames.into_iter().enumerate()).then(move |(i, frame)| async move {
            if stall == Some(i) {
                tokio::time::sleep(stall_for).await;
            }
            if !delay.is_zero() && i > 0 {
                tokio::time::sleep(delay).await;
            }
            (i, frame)
        });
    let stream = stream
        .take_while(move |(i, _)| futures::future::ready(disconnect.is_none_or(|d| *i <= d)))
        .map(move |(i, frame)| {
            if disconnect == Some(i) {
                // An error from the body makes the server drop the connection, as a crash would.
                return Err(std::io::Error::other("the replay script disconnects here"));
            }
            let end = if crlf { "\r\n" } else { "\n" };
            let mut text = String::new();
            if comments && i % 3 == 0 {
                text.push_str(&format!(": keep-alive{end}{end}"));
            }
            text.push_str(&format!("data: {frame}{end}{end}"));
            Ok(Bytes::from(text))
        });
    let mut response = Response::new(Body::from_stream(stream));
    response.headers_mut().insert(
        "content-type",
        HeaderValue::from_static("text/event-stream"),
    );
    response
}

fn error(
    status: u16,
    message: &str,
    code: Option<&str>,
    retry_after: Option<u64>,
) -> Response<Body> {
    let body = json!({"error": {"message": message, "type": code, "code": code, "param": null}});
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    response
        .headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    if let Some(seconds) = retry_after
        && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
    {
        response.headers_mut().insert("retry-after", value);
    }
    response
}

/// The SSE data frames of one reply (without the `data: ` prefix), ending with `[DONE]`.
fn frames(reply: &Reply, model: &str, chunk: usize) -> Vec<String> {
    let quirk = |q: &str| reply.quirks.iter().any(|x| x == q);
    let chunk_of = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-replay",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "system_fingerprint": null,
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
            "x_replay_extra": {"unknown": "fields are tolerated"},
        })
        .to_string()
    };
    let mut out = vec![chunk_of(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    let mut content = String::new();
    if let Some(text) = &reply.say {
        content.push_str(text);
    }
    let mut content_chunks: Vec<String> = split(&content, chunk);
    if let Some(value) = &reply.patch {
        content_chunks.extend(
            redline_stream::encode(std::slice::from_ref(value), chunk)
                .unwrap_or_else(|_| split(&value.to_string(), chunk)),
        );
    }
    if let Some(raw) = &reply.raw {
        content_chunks.extend(split(raw, chunk));
    }
    for piece in content_chunks {
        out.push(chunk_of(json!({"content": piece}), Value::Null));
    }
    let mut finish = json!("stop");
    let calls = reply.tool_call.iter().chain(&reply.tool_calls);
    let first_index = reply.tool_index.unwrap_or(0);
    for (n, call) in calls.enumerate() {
        let index = first_index + n as u64;
        let arguments = call["arguments"].to_string();
        let mut first = json!({"index": index, "id": format!("call_replay_{}", n + 1), "type": "function",
                               "function": {"name": call["name"], "arguments": ""}});
        if quirk("noIndex") {
            first.as_object_mut().map(|o| o.remove("index"));
        }
        out.push(chunk_of(json!({"tool_calls": [first]}), Value::Null));
        for piece in split(&arguments, chunk) {
            let mut delta = json!({"index": index, "function": {"arguments": piece}});
            if quirk("noIndex") {
                delta.as_object_mut().map(|o| o.remove("index"));
            }
            out.push(chunk_of(json!({"tool_calls": [delta]}), Value::Null));
        }
        finish = json!(if quirk("stopForToolCalls") {
            "stop"
        } else {
            "tool_calls"
        });
    }
    if quirk("emptyFinishReason") {
        finish = json!("");
    }
    if quirk("unfinished") {
        return out;
    }
    out.push(chunk_of(json!({}), finish));
    out.push(
        json!({"id": "chatcmpl-replay", "object": "chat.completion.chunk", "created": 0, "model": model,
               "choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": out.len(), "total_tokens": 100 + out.len()}})
        .to_string(),
    );
    out.push("[DONE]".to_owned());
    out
}

/// `text` in pieces of at most `chunk` characters (never splitting a character).
fn split(text: &str, chunk: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(chunk.max(1))
        .map(|c| c.iter().collect())
        .collect()
}
