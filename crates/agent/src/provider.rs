//! Model providers: any OpenAI-compatible endpoint.
//!
//! Requests and chunks are our own JSON, so that what real servers send is read leniently: a tool-call
//! delta without `index`, `finish_reason: ""`, `"stop"` where `"tool_calls"` was meant, unknown fields. A
//! streamed request goes through async-openai's retry layer (429 and 5xx with backoff, honouring
//! `retry-after`, before the stream starts; once tokens flow nothing is retried); its events are read by
//! Redline's own bounded reader ([`crate::wire`]), not the client's, which holds a line without bound and
//! takes time that grows with its square. Errors are put in the user's words.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use async_openai::middleware::retry::{OpenAIRetry, OpenAIRetryLayer};
use redline_error_kind::ErrorKind;
use serde_json::Value;
use tower::ServiceExt;

use crate::wire::{BodyError, Events, JsonError, Transport, WireError};

/// The most tool calls read from one answer (the conversation uses one or two; a tool-call `index` at or
/// past this number is refused before anything is allocated for it).
pub const MAX_TOOL_CALLS: usize = 8;
pub use crate::limits::{MAX_ANSWER_BYTES, MAX_ARGUMENTS_BYTES, MAX_REPLY_BYTES};
/// The most bytes of a server's model list (a long one is a few KB).
pub const MAX_MODEL_LIST_BYTES: usize = 4 << 20;
/// `max_tokens` of every chat request: a reply and its tool calls.
pub const CHAT_MAX_TOKENS: u32 = 4_096;
/// `max_tokens` of every patch request: 100 operations of a typical size fit well within it.
pub const PATCH_MAX_TOKENS: u32 = 16_384;

/// Where the models are and which to use.
#[derive(Clone)]
pub struct ProviderConfig {
    /// The OpenAI-compatible base URL (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`, …).
    pub base_url: String,
    /// The API key; local servers need none.
    pub api_key: Option<String>,
    /// The chat model, the user's choice.
    pub chat_model: String,
    /// The patch model, which writes the operations (asked at a low temperature).
    pub patch_model: String,
    /// How long to wait for the first token (retries included).
    pub first_token_timeout: Duration,
    /// How long a started stream may go quiet before it counts as lost.
    pub idle_timeout: Duration,
}

/// Why a configuration cannot work (its kind: `not_configured`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unusable {
    /// The base URL does not parse.
    #[error("the base URL “{url}” is not a URL: {detail}")]
    NotAUrl { url: String, detail: String },
    /// The base URL is not `http(s)`.
    #[error(
        "the base URL “{0}” must start with https:// (or http:// for a server on this computer)"
    )]
    NotHttp(String),
    /// A server on another computer, and no key.
    #[error(
        "no API key for {0}: set OPENAI_API_KEY, or REDLINE_BASE_URL to a local server (Ollama, llama.cpp, LM Studio)"
    )]
    NoKey(String),
    /// The key would cross the network unencrypted.
    #[error(
        "your API key would travel unencrypted to {0} over http://; use an https:// address (plain http:// is only for servers on this computer)"
    )]
    KeyInTheClear(String),
}

impl Unusable {
    /// What kind of failure it is: no model server or key that can work.
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::NotConfigured
    }
}

/// OpenAI's API, where no other base URL is given.
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// Everything but the key, which is only said to be set or not.
impl std::fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .field("chat_model", &self.chat_model)
            .field("patch_model", &self.patch_model)
            .field("first_token_timeout", &self.first_token_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .finish()
    }
}

impl ProviderConfig {
    /// OpenAI with its usual models.
    pub fn new(base_url: Option<String>, api_key: Option<String>) -> ProviderConfig {
        ProviderConfig {
            base_url: base_url.unwrap_or_else(|| OPENAI_BASE_URL.to_owned()),
            api_key,
            chat_model: "gpt-4.1-mini".to_owned(),
            patch_model: "gpt-4.1-mini".to_owned(),
            first_token_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(30),
        }
    }
}

impl ProviderConfig {
    /// How long an answer that is not streamed may take as a whole: nothing shows progress until it is
    /// all there, so it gets the first token's wait and eight idle periods (5 minutes by default). Stop
    /// ends it sooner.
    pub fn answer_timeout(&self) -> Duration {
        self.first_token_timeout + 8 * self.idle_timeout
    }

    /// Refuses a remote server without a key, and a key that would travel unencrypted, in plain words.
    pub fn check(&self) -> Result<(), Unusable> {
        let url = reqwest::Url::parse(&self.base_url).map_err(|e| Unusable::NotAUrl {
            url: self.base_url.clone(),
            detail: e.to_string(),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Unusable::NotHttp(self.base_url.clone()));
        }
        if self.api_key.is_none() && !is_loopback(&self.base_url) {
            return Err(Unusable::NoKey(host(&self.base_url)));
        }
        if self.api_key.is_some() && !self.key_may_travel() {
            return Err(Unusable::KeyInTheClear(host(&self.base_url)));
        }
        Ok(())
    }

    /// True when the key may be sent to the base URL: over https, or to this computer.
    fn key_may_travel(&self) -> bool {
        reqwest::Url::parse(&self.base_url)
            .is_ok_and(|url| url.scheme() == "https" || is_loopback(&self.base_url))
    }
}

/// True for a base URL on this machine (a local server needs no key), decided on the parsed host:
/// `localhost`, `127.0.0.0/8` or `::1` — not `localhost.example.com` nor `127.0.0.1.example.com`.
pub fn is_loopback(base_url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(base_url) else {
        return false;
    };
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// What went wrong with a model call, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error("the API key was refused by {0} (401); check the key and try again")]
    Unauthorized(String),
    #[error("{0} is limiting requests right now (429){hint}; wait a moment and try again", hint = retry_hint(*.1))]
    RateLimited(String, Option<u64>),
    #[error("the account at {0} has no quota left; check its plan and billing")]
    Quota(String),
    #[error("the model “{0}” was not found at {1}; check the model name in the settings")]
    ModelNotFound(String, String),
    #[error(
        "the conversation is too long for the model's context; start a new chat or shorten the resume"
    )]
    ContextTooLong,
    #[error("cannot reach {0}: is the server running, and is the address right?")]
    Unreachable(String),
    #[error("the model did not answer within {0} seconds")]
    Timeout(u64),
    #[error("{0} had a server error ({1}); try again in a moment")]
    Server(String, u16),
    #[error("the connection to the model was lost in the middle of its answer")]
    Lost,
    #[error("the server's answer could not be read: {0}")]
    BadResponse(String),
    #[error("{0}")]
    Refused(String),
    /// The stream ended cleanly but unfinished: no finish reason, no end marker.
    #[error(
        "{0} stopped its answer before finishing it (no end marker): the server failed mid-answer, and its log says why — often a prompt longer than the model's context; `redline provider test` checks the basics"
    )]
    Unfinished(String),
    /// The answer went past one of the limits every answer is held to.
    #[error("the model's answer was refused: {0}")]
    TooLong(String),
    #[error("stopped")]
    Cancelled,
}

impl ProviderError {
    /// What kind of failure it is, for the window's action and the CLI's exit status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ProviderError::Unauthorized(_) => ErrorKind::Unauthorized,
            ProviderError::RateLimited(..) | ProviderError::Quota(_) => ErrorKind::RateLimited,
            ProviderError::ModelNotFound(..) => ErrorKind::ModelNotFound,
            ProviderError::Unreachable(_) | ProviderError::Timeout(_) | ProviderError::Lost => {
                ErrorKind::Unreachable
            }
            ProviderError::Server(..) => ErrorKind::Unreachable,
            ProviderError::ContextTooLong
            | ProviderError::BadResponse(_)
            | ProviderError::Refused(_)
            | ProviderError::TooLong(_)
            | ProviderError::Unfinished(_) => ErrorKind::Refused,
            ProviderError::Cancelled => ErrorKind::Stopped,
        }
    }
}

fn retry_hint(seconds: Option<u64>) -> String {
    seconds
        .map(|s| format!(", it asks to wait {s} s"))
        .unwrap_or_default()
}

/// One piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// Text (the chat reply, or the patch model's output).
    Text(String),
    /// Part of a tool call: its arguments arrive in pieces.
    ToolCall {
        index: usize,
        id: Option<String>,
        name: Option<String>,
        arguments: String,
    },
    /// Why the answer ended (`stop`, `tool_calls`, `length`, …).
    Finish(String),
}

/// How the patch model is asked for JSON: by schema, by JSON mode, by a forced tool call (servers that only
/// do tools), or by instructions alone. A server that refuses one is asked the next way, and the provider
/// remembers.
const FORMAT_SCHEMA: u8 = 0;
const FORMAT_JSON_MODE: u8 = 1;
const FORMAT_TOOL: u8 = 2;
const FORMAT_NONE: u8 = 3;
/// The names of the formats, in the order they are tried.
const FORMAT_NAMES: [&str; 4] = ["json_schema", "json_object", "tool", "prompt"];

/// What a server was found to take: how its patch model gives JSON, whether it streams a round that
/// offers tools, and whether its chat model plans by calling them. Learned before the first turn on a
/// server and its models (or by the connection test) and kept per base URL and models (see
/// [`crate::settings::learned`]), so that a server is asked the way that works from the first request, not
/// after a refusal or a stall.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Learned {
    /// `json_schema`, `json_object`, `tool` or `prompt`.
    pub patch_format: String,
    /// False for a server that cuts a streamed round with tools (llama.cpp's).
    pub streams_tools: bool,
    /// False when the chat model could not call `patch_resume` with targets that are in the resume: a
    /// turn then plans on this computer and goes to the patch model at once (the one-model path,
    /// [`crate::local_plan`]).
    #[serde(default = "yes")]
    pub calls_tools: bool,
}

fn yes() -> bool {
    true
}

impl Default for Learned {
    fn default() -> Self {
        Learned {
            patch_format: FORMAT_NAMES[0].to_owned(),
            streams_tools: true,
            calls_tools: true,
        }
    }
}

/// The tool the patch model writes its operations through when the server does tools but no JSON
/// output; its arguments are the same `{"operations": […]}` object.
pub const OPERATIONS_TOOL: &str = "write_operations";

/// The header the requests of a first-use learning carry ([`crate::probe::learn`], run before the first
/// turn on a server and models): servers ignore it; the replay server answers such requests as a server
/// that takes everything, unless its script has replies for them, so that a test's script is its turns'
/// requests only.
pub const LEARNING_HEADER: &str = "x-redline-learning";

/// A configured provider.
pub struct Provider {
    /// Streamed requests go through async-openai's retry layer (429 and 5xx, with backoff and
    /// `retry-after`, before the stream starts) over [`Transport`].
    transport: OpenAIRetry<Transport>,
    /// The HTTP client, for every request (bounded reads).
    http: reqwest::Client,
    config: ProviderConfig,
    patch_format: AtomicU8,
    /// Whether rounds that offer tools are streamed: a server that cuts them (llama.cpp's cannot stream
    /// automatic tool choice) is asked without streaming from then on.
    streams_tools: AtomicBool,
    /// Whether the chat model plans edits by calling tools (see [`Learned::calls_tools`]).
    calls_tools: AtomicBool,
    /// Tokens the server reported using, in and out, over every answer so far.
    usage: Arc<[AtomicU64; 2]>,
    /// Its requests are a first-use learning's ([`LEARNING_HEADER`]).
    learning: bool,
}

impl Provider {
    /// A provider for `config`.
    pub fn new(config: ProviderConfig) -> Provider {
        // No idle connection is reused: a server that cut a stream (llama.cpp does, after answering 200)
        // leaves a connection the next request would fail on. A model call takes seconds; a connection,
        // milliseconds.
        crate::install_tls();
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .connect_timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Provider {
            transport: tower::Layer::layer(
                &OpenAIRetryLayer::default(),
                Transport::new(http.clone()),
            ),
            http,
            config,
            patch_format: AtomicU8::new(FORMAT_SCHEMA),
            streams_tools: AtomicBool::new(true),
            calls_tools: AtomicBool::new(true),
            usage: Arc::default(),
            learning: false,
        }
    }

    /// The provider, its requests marked as a first-use learning's ([`LEARNING_HEADER`]).
    pub fn for_learning(mut self) -> Provider {
        self.learning = true;
        self
    }

    /// The provider, asking its server the way it was `learned` to take (an unknown format name is
    /// ignored: the formats are tried from the first again).
    pub fn with_learned(self, learned: &Learned) -> Provider {
        if let Some(format) = FORMAT_NAMES.iter().position(|f| *f == learned.patch_format) {
            self.patch_format.store(format as u8, Ordering::Relaxed);
        }
        self.streams_tools
            .store(learned.streams_tools, Ordering::Relaxed);
        self.calls_tools
            .store(learned.calls_tools, Ordering::Relaxed);
        self
    }

    /// What this provider has found its server to take so far.
    pub fn learned(&self) -> Learned {
        Learned {
            patch_format: self.patch_format().to_owned(),
            streams_tools: self.streams_tools(),
            calls_tools: self.calls_tools(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ProviderConfig {
        &self.config
    }

    /// Opens a streamed chat completion for `body` (`stream: true` is set here).
    pub async fn stream(&self, mut body: Value) -> Result<DeltaStream, ProviderError> {
        body["stream"] = Value::Bool(true);
        let model = body["model"].as_str().unwrap_or_default();
        let response = tokio::time::timeout(
            self.config.first_token_timeout,
            self.send(body.to_string(), model),
        )
        .await
        .map_err(|_| ProviderError::Timeout(self.config.first_token_timeout.as_secs()))??;
        let now = Instant::now();
        Ok(DeltaStream {
            events: Events::of(response),
            done: false,
            idle: self.config.idle_timeout,
            first: self.config.first_token_timeout,
            quiet_until: now + self.config.first_token_timeout,
            ends_by: now + MAX_ANSWER,
            started: false,
            chunks: ChunkReader::default(),
            host: host(&self.config.base_url),
            usage: self.usage.clone(),
        })
    }

    /// Opens the patch model's stream, asking for JSON the way the server accepts.
    pub async fn stream_patch(
        &self,
        mut body: Value,
        schema: &Value,
    ) -> Result<DeltaStream, ProviderError> {
        loop {
            let format = self.patch_format.load(Ordering::Relaxed);
            if let Some(o) = body.as_object_mut() {
                o.remove("response_format");
                o.remove("tools");
                o.remove("tool_choice");
            }
            match format {
                FORMAT_SCHEMA => {
                    body["response_format"] = serde_json::json!({
                        "type": "json_schema",
                        "json_schema": {"name": "resume_operations", "schema": schema, "strict": false}
                    })
                }
                // JSON mode with the schema beside it: llama.cpp's server takes this where it refuses
                // `json_schema`; others ignore the schema and still give JSON.
                FORMAT_JSON_MODE => {
                    body["response_format"] =
                        serde_json::json!({"type": "json_object", "schema": schema})
                }
                FORMAT_TOOL => {
                    body["tools"] = serde_json::json!([{"type": "function", "function": {
                        "name": OPERATIONS_TOOL,
                        "description": "Write the operations that make the requested changes.",
                        "parameters": schema,
                    }}]);
                    body["tool_choice"] = serde_json::json!({"type": "function", "function": {"name": OPERATIONS_TOOL}});
                }
                _ => {}
            }
            match self.stream(body.clone()).await {
                Err(ProviderError::BadResponse(detail) | ProviderError::Refused(detail))
                    if format < FORMAT_NONE
                        && (refuses_format(&detail)
                            || (format == FORMAT_TOOL && detail.contains("tool"))) =>
                {
                    self.patch_format.store(format + 1, Ordering::Relaxed);
                }
                other => return other,
            }
        }
    }

    /// Whether rounds that offer tools are streamed on this server (see [`Provider::complete`]).
    pub fn streams_tools(&self) -> bool {
        self.streams_tools.load(Ordering::Relaxed)
    }

    /// The tokens the server reported using so far, in and out (zero for a server that reports none, as
    /// llama.cpp's does not on a stream).
    pub fn usage(&self) -> (u64, u64) {
        (
            self.usage[0].load(Ordering::Relaxed),
            self.usage[1].load(Ordering::Relaxed),
        )
    }

    /// How many tokens `text` is for this server's model, by its tokenizer endpoint where it has one
    /// (llama-cpp-python's `/extras/tokenize/count`, llama.cpp's `/tokenize`); `None` elsewhere.
    pub async fn count_tokens(&self, text: &str) -> Option<u64> {
        let base = self.config.base_url.trim_end_matches('/');
        let root = base.strip_suffix("/v1").unwrap_or(base);
        let asks = [
            (
                format!("{root}/extras/tokenize/count"),
                serde_json::json!({"input": text}),
            ),
            (
                format!("{root}/tokenize"),
                serde_json::json!({"content": text}),
            ),
        ];
        for (url, body) in asks {
            let request = self
                .http
                .post(url)
                .header("content-type", "application/json")
                .body(body.to_string());
            let Ok(bytes) = self
                .send_capped(request, "", 16 << 20, Duration::from_secs(30))
                .await
            else {
                continue;
            };
            let Ok(answer) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            if let Some(count) = answer["count"].as_u64() {
                return Some(count);
            }
            if let Some(tokens) = answer["tokens"].as_array() {
                return Some(tokens.len() as u64);
            }
        }
        None
    }

    /// Adds an answer's `usage` to [`Provider::usage`].
    fn count_usage(usage: &[AtomicU64; 2], answer: &Value) {
        for (i, key) in ["prompt_tokens", "completion_tokens"]
            .into_iter()
            .enumerate()
        {
            if let Some(n) = answer["usage"][key].as_u64() {
                usage[i].fetch_add(n, Ordering::Relaxed);
            }
        }
    }

    /// Whether the chat model plans edits by calling `patch_resume` (else the one-model path).
    pub fn calls_tools(&self) -> bool {
        self.calls_tools.load(Ordering::Relaxed)
    }

    /// Sets whether the chat model plans edits by calling tools (the connection test finds out; a turn
    /// whose tool round stalls falls back and says so).
    pub fn set_calls_tools(&self, calls: bool) {
        self.calls_tools.store(calls, Ordering::Relaxed);
    }

    /// This server cut a streamed round that offered tools: ask such rounds without streaming from now on.
    pub fn stop_streaming_tools(&self) {
        self.streams_tools.store(false, Ordering::Relaxed);
    }

    /// One chat completion for `body`, not streamed, read as the deltas a stream would have given (its text,
    /// its tool calls, its finish reason): for servers that cannot stream a round with tools. The same
    /// limits hold once it is read; the whole answer must arrive within [`ProviderConfig::answer_timeout`].
    pub async fn complete(&self, mut body: Value) -> Result<Vec<Delta>, ProviderError> {
        body["stream"] = Value::Bool(false);
        if let Some(o) = body.as_object_mut() {
            o.remove("stream_options");
        }
        let model = body["model"].as_str().unwrap_or_default().to_owned();
        let url = format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        );
        let request = self
            .http
            .post(url)
            .header("content-type", "application/json")
            .body(body.to_string());
        let bytes = self
            .send_capped(
                request,
                &model,
                MAX_ANSWER_BYTES,
                self.config.answer_timeout(),
            )
            .await?;
        let answer = crate::wire::json(&bytes).map_err(|e| match e {
            JsonError::NotJson(e) => {
                ProviderError::BadResponse(format!("the answer is not JSON: {e}"))
            }
            too_many => ProviderError::TooLong(too_many.to_string()),
        })?;
        Provider::count_usage(&self.usage, &answer);
        // The answer's message as the one chunk of a stream: the same lenient reading, the same limits.
        let choices: Vec<Value> = answer["choices"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|choice| {
                let message = &choice["message"];
                let calls: Vec<Value> = message["tool_calls"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                    .map(|(i, call)| {
                        let mut call = call.clone();
                        if call.get("index").is_none() {
                            call["index"] = Value::from(i);
                        }
                        call
                    })
                    .collect();
                serde_json::json!({
                    "delta": {"content": message["content"], "tool_calls": calls},
                    "finish_reason": choice["finish_reason"].as_str().unwrap_or("stop"),
                })
            })
            .collect();
        ChunkReader::default().read(&serde_json::json!({"choices": choices}))
    }

    /// How the patch model is asked for JSON now (what the server took): `json_schema`, `json_object`,
    /// `tool` or `prompt`.
    pub fn patch_format(&self) -> &'static str {
        let format = self.patch_format.load(Ordering::Relaxed);
        FORMAT_NAMES[usize::from(format.min(FORMAT_NONE))]
    }

    /// The server's model list (`GET {base}/models`), in the user's words when it fails.
    pub async fn models(&self) -> Result<Vec<String>, ProviderError> {
        let url = format!("{}/models", self.config.base_url.trim_end_matches('/'));
        // A model list is small; one that is not is not one.
        let bytes = self
            .send_capped(
                self.http.get(url),
                "",
                MAX_MODEL_LIST_BYTES,
                self.config.first_token_timeout,
            )
            .await
            .map_err(|e| match e {
                ProviderError::ModelNotFound(..) => ProviderError::Refused(format!(
                    "{} has no model list (404)",
                    host(&self.config.base_url)
                )),
                other => other,
            })?;
        let list = crate::wire::json(&bytes).map_err(|e| match e {
            JsonError::NotJson(e) => {
                ProviderError::BadResponse(format!("the model list is not JSON: {e}"))
            }
            too_many => ProviderError::TooLong(too_many.to_string()),
        })?;
        Ok(list["data"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(|m| m["id"].as_str().map(str::to_owned))
            .take(1000)
            .collect())
    }

    /// A server's refusal (its status, error code and message) in the user's words.
    fn status_words(&self, status: u16, code: &str, message: &str, model: &str) -> ProviderError {
        let at = host(&self.config.base_url);
        let lower = message.to_lowercase();
        match status {
            401 | 403 => ProviderError::Unauthorized(at),
            429 if code == "insufficient_quota" => ProviderError::Quota(at),
            429 => ProviderError::RateLimited(at, None),
            404 => ProviderError::ModelNotFound(model.to_owned(), at),
            _ if code == "model_not_found" => ProviderError::ModelNotFound(model.to_owned(), at),
            _ if code == "context_length_exceeded" || lower.contains("context length") => {
                ProviderError::ContextTooLong
            }
            // A server that refuses an output format (some answer 500 for that) is refused, not broken:
            // the patch model is asked again another way.
            _ if refuses_format(&lower) => ProviderError::Refused(format!(
                "{at} refused the request ({status}): {}",
                brief(message)
            )),
            500..=599 => ProviderError::Server(at, status),
            _ => ProviderError::Refused(format!(
                "{at} refused the request ({status}): {}",
                brief(message)
            )),
        }
    }

    /// Sends `request` (with the key, where it may travel) and reads its body, at most `limit` bytes:
    /// an answer that is larger is refused as it arrives, never held whole. A refusal is put in words.
    async fn send_capped(
        &self,
        request: reqwest::RequestBuilder,
        model: &str,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<u8>, ProviderError> {
        let at = host(&self.config.base_url);
        let mut request = request.timeout(timeout);
        if self.learning {
            request = request.header(LEARNING_HEADER, "first-use");
        }
        if let Some(key) = self
            .config
            .api_key
            .as_ref()
            .filter(|_| self.config.key_may_travel())
        {
            request = request.bearer_auth(key);
        }
        let mut response = request.send().await.map_err(|e| {
            if e.is_timeout() {
                ProviderError::Timeout(timeout.as_secs())
            } else {
                ProviderError::Unreachable(at.clone())
            }
        })?;
        let status = response.status();
        let body = crate::wire::body_at_most(&mut response, limit)
            .await
            .map_err(|e| match e {
                BodyError::TooLarge => {
                    ProviderError::TooLong(format!("its answer is over {} KB", limit / 1024))
                }
                BodyError::Broken(e) if e.is_timeout() => ProviderError::Timeout(timeout.as_secs()),
                BodyError::Broken(_) => ProviderError::Lost,
            })?;
        if !status.is_success() {
            return Err(self.refusal(status.as_u16(), &body, model));
        }
        Ok(body)
    }

    /// A refusal (its status and body, an OpenAI error object or text) in the user's words.
    fn refusal(&self, status: u16, body: &[u8], model: &str) -> ProviderError {
        let error = crate::wire::json(body).unwrap_or(Value::Null);
        let error = &error["error"];
        let code = error["code"]
            .as_str()
            .or(error["type"].as_str())
            .unwrap_or("");
        let text = String::from_utf8_lossy(body);
        let message = error["message"].as_str().unwrap_or(&text);
        self.status_words(status, code, message, model)
    }

    /// POSTs `body` (JSON) to the server's chat completions, with the key where it may travel, through
    /// async-openai's retries; the response when it is a success, its refusal in words otherwise.
    async fn send(&self, body: String, model: &str) -> Result<reqwest::Response, ProviderError> {
        let url = format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        );
        let key = (self.config.api_key.clone()).filter(|_| self.config.key_may_travel());
        let http = self.http.clone();
        let body = bytes::Bytes::from(body);
        let learning = self.learning;
        let request = HttpRequestFactory::new(move || {
            let mut request = http
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "text/event-stream")
                .body(body.clone());
            if learning {
                request = request.header(LEARNING_HEADER, "first-use");
            }
            if let Some(key) = &key {
                request = request.bearer_auth(key);
            }
            let built = request.build().map_err(OpenAIError::Reqwest);
            async move { built }
        });
        match self.transport.clone().oneshot(request).await {
            Ok(response) if response.status().is_success() => Ok(response),
            Ok(mut response) => {
                let status = response.status().as_u16();
                Err(self.refusal(status, &crate::wire::error_body(&mut response).await, model))
            }
            Err(e) => Err(self.words(e, model)),
        }
    }

    /// An error of async-openai's retry layer in the user's words.
    fn words(&self, error: OpenAIError, model: &str) -> ProviderError {
        let at = host(&self.config.base_url);
        match error {
            OpenAIError::ApiError(api) => {
                let code = api
                    .api_error
                    .code
                    .clone()
                    .or(api.api_error.r#type.clone())
                    .unwrap_or_default();
                self.status_words(
                    api.status_code.as_u16(),
                    &code,
                    &api.api_error.message,
                    model,
                )
            }
            OpenAIError::Reqwest(e) if e.is_connect() => ProviderError::Unreachable(at),
            OpenAIError::Reqwest(e) if e.is_timeout() => {
                ProviderError::Timeout(self.config.first_token_timeout.as_secs())
            }
            OpenAIError::Reqwest(e) => match e.status() {
                Some(s) if s.as_u16() == 429 => ProviderError::RateLimited(at, None),
                Some(s) if s.is_server_error() => ProviderError::Server(at, s.as_u16()),
                _ => ProviderError::Unreachable(at),
            },
            // A 429 whose body is not an OpenAI error object.
            OpenAIError::JSONDeserialize(..) => ProviderError::RateLimited(at, None),
            other => ProviderError::BadResponse(other.to_string()),
        }
    }
}

/// The most characters of a server's own message that a refusal repeats.
const MAX_MESSAGE_CHARS: usize = 300;

/// A server's message as a refusal repeats it: one line, at most [`MAX_MESSAGE_CHARS`] characters.
fn brief(message: &str) -> String {
    let mut words = message.split_whitespace();
    let mut line = words.next().unwrap_or_default().to_owned();
    for word in words {
        if line.len() > 4 * MAX_MESSAGE_CHARS {
            break;
        }
        line.push(' ');
        line.push_str(word);
    }
    match line.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// True when a server's error says it does not take the requested output format.
fn refuses_format(detail: &str) -> bool {
    let detail = detail.to_ascii_lowercase();
    detail.contains("response_format")
        || detail.contains("json_schema")
        || detail.contains("json_object")
}

/// The host part of a base URL, for messages.
fn host(base_url: &str) -> String {
    let rest = base_url.split("://").nth(1).unwrap_or(base_url);
    rest.split('/').next().unwrap_or(rest).to_owned()
}

/// The longest one streamed answer may take, however steadily it comes: a server that sends a word a
/// minute, or empty events forever, is ended here (the first-token and idle timeouts see only content).
pub const MAX_ANSWER: Duration = Duration::from_secs(15 * 60);

/// A streamed answer, read leniently.
pub struct DeltaStream {
    events: Events,
    /// `[DONE]` came: nothing more is read.
    done: bool,
    idle: Duration,
    first: Duration,
    /// When the answer is given up for want of content: the first-token timeout after the request, then
    /// the idle timeout after the last content. Events that carry none (`{"choices":[]}`, keep-alives)
    /// do not move it.
    quiet_until: Instant,
    /// [`MAX_ANSWER`] after the request.
    ends_by: Instant,
    started: bool,
    chunks: ChunkReader,
    /// The server, for messages.
    host: String,
    /// The provider's token counts, which a usage chunk adds to.
    usage: Arc<[AtomicU64; 2]>,
}

impl DeltaStream {
    /// The next deltas; `None` at the end of the answer (`[DONE]`, or the server closing the stream
    /// cleanly: whether the content is complete is for the reader of the content to judge). A connection
    /// that breaks, or a stream that goes quiet for longer than the idle timeout, is [`ProviderError::Lost`].
    pub async fn next(&mut self) -> Option<Result<Vec<Delta>, ProviderError>> {
        loop {
            if self.done {
                return self.end();
            }
            let until = self.quiet_until.min(self.ends_by);
            let item = match tokio::time::timeout_at(until.into(), self.events.next()).await {
                Err(_) if Instant::now() >= self.ends_by => {
                    return Some(Err(ProviderError::TooLong(format!(
                        "it was still coming after {} minutes, the most one answer may take",
                        MAX_ANSWER.as_secs() / 60
                    ))));
                }
                Err(_) if self.started => return Some(Err(ProviderError::Lost)),
                Err(_) => return Some(Err(ProviderError::Timeout(self.first.as_secs()))),
                Ok(item) => item,
            };
            let event = match item {
                None => return self.end(),
                Some(Err(e)) => {
                    self.done = true;
                    self.chunks.finished = true;
                    return Some(Err(match e {
                        WireError::Overrun(overrun) => ProviderError::TooLong(overrun.to_string()),
                        WireError::Broken(_) => ProviderError::Lost,
                    }));
                }
                Some(Ok(event)) => event,
            };
            if event.data == "[DONE]" {
                self.done = true;
                continue;
            }
            if event.kind == "keepalive" {
                continue;
            }
            let chunk = match crate::wire::json(event.data.as_bytes()) {
                Ok(chunk) => chunk,
                Err(JsonError::NotJson(e)) => {
                    return Some(Err(ProviderError::BadResponse(format!(
                        "an event of its stream is not JSON ({e})"
                    ))));
                }
                Err(too_many) => return Some(Err(ProviderError::TooLong(too_many.to_string()))),
            };
            Provider::count_usage(&self.usage, &chunk);
            let read = self.chunks.read(&chunk);
            if read.as_ref().is_ok_and(|d| !d.is_empty()) {
                self.started = true;
                self.quiet_until = Instant::now() + self.idle;
            }
            return Some(read);
        }
    }

    /// The end of the stream. A server that fails after answering 200 may just close the stream (or send
    /// `[DONE]`): an answer without its finish reason is not a complete answer, and the user is told, once.
    fn end(&mut self) -> Option<Result<Vec<Delta>, ProviderError>> {
        self.done = true;
        if self.chunks.finished {
            return None;
        }
        self.chunks.finished = true;
        Some(Err(ProviderError::Unfinished(self.host.clone())))
    }
}

/// Reads `chat.completion.chunk`s leniently, remembering which tool call an index-less delta belongs to.
#[derive(Debug, Default)]
pub struct ChunkReader {
    ids: HashMap<String, usize>,
    last_index: usize,
    /// A finish reason was seen (even an empty one): the answer came to its end.
    pub finished: bool,
}

impl ChunkReader {
    /// The deltas of one chunk.
    pub fn read(&mut self, chunk: &Value) -> Result<Vec<Delta>, ProviderError> {
        if let Some(error) = chunk.get("error") {
            return Err(ProviderError::Refused(format!(
                "the model stopped with an error: {}",
                error["message"].as_str().unwrap_or("unknown")
            )));
        }
        let mut out = Vec::new();
        for choice in chunk["choices"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let delta = &choice["delta"];
            if let Some(text) = delta["content"].as_str()
                && !text.is_empty()
            {
                out.push(Delta::Text(text.to_owned()));
            }
            for call in delta["tool_calls"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                let id = call["id"]
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned);
                let index = match (call["index"].as_u64(), &id) {
                    (Some(i), _) => usize::try_from(i).unwrap_or(usize::MAX),
                    // No index (some servers): a new id is a new call, otherwise the call in progress.
                    (None, Some(id)) => match self.ids.get(id) {
                        Some(&i) => i,
                        None => self.ids.len(),
                    },
                    (None, None) => self.last_index,
                };
                // A hostile index would size the caller's list of calls: refused before anything grows.
                if index >= MAX_TOOL_CALLS {
                    return Err(ProviderError::TooLong(format!(
                        "it sent tool call number {}, and at most {MAX_TOOL_CALLS} are read from one answer",
                        call["index"].as_u64().map_or(index as u64, |i| i) + 1
                    )));
                }
                if let Some(id) = &id {
                    self.ids.entry(id.clone()).or_insert(index);
                }
                self.last_index = index;
                out.push(Delta::ToolCall {
                    index,
                    id,
                    name: call["function"]["name"]
                        .as_str()
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                    arguments: call["function"]["arguments"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                });
            }
            // `finish_reason: ""` (some servers) is no reason at all, but it does end the answer.
            self.finished |= choice["finish_reason"].is_string();
            if let Some(reason) = choice["finish_reason"].as_str().filter(|r| !r.is_empty()) {
                out.push(Delta::Finish(reason.to_owned()));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server on 127.0.0.1 that answers every request `200 OK` as `content_type`, then writes `chunk`
    /// `times` times, `pause` apart — bounded in time, and stopping as soon as the client hangs up.
    async fn raw_server(
        content_type: &'static str,
        chunk: &'static [u8],
        times: usize,
        pause: Duration,
    ) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut request = [0u8; 8192];
                    let _ = socket.read(&mut request).await;
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\nconnection: close\r\n\r\n"
                    );
                    if socket.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    for _ in 0..times {
                        if socket.write_all(chunk).await.is_err() {
                            return;
                        }
                        if !pause.is_zero() {
                            tokio::time::sleep(pause).await;
                        }
                    }
                });
            }
        });
        format!("http://{addr}/v1")
    }

    /// A body that never ends: 64 KB of spaces at a time, 256 MB at most.
    async fn endless_server() -> String {
        static BLOCK: [u8; 64 * 1024] = [b' '; 64 * 1024];
        raw_server("application/json", &BLOCK, 4096, Duration::ZERO).await
    }

    #[tokio::test]
    async fn an_answer_without_end_is_refused_as_it_arrives() {
        let provider = Provider::new(ProviderConfig::new(Some(endless_server().await), None));
        let err = provider.models().await.unwrap_err();
        assert!(matches!(err, ProviderError::TooLong(_)), "{err}");
        let err = provider
            .complete(serde_json::json!({"model": "m", "messages": []}))
            .await
            .unwrap_err();
        assert!(matches!(err, ProviderError::TooLong(_)), "{err}");
        assert!(err.to_string().contains("its answer is over"), "{err}");
    }

    /// Well-formed events that carry nothing (`{"choices":[]}`), one every 20 ms, for as long as the client
    /// listens (ten minutes at most).
    async fn empty_events_server() -> String {
        let event = b"data: {\"choices\":[]}\n\n";
        raw_server(
            "text/event-stream",
            event,
            30_000,
            Duration::from_millis(20),
        )
        .await
    }

    /// Events with no content do not count as an answer: the first-token timeout ends the stream however
    /// many of them come (they once kept it open for as long as the server sent them).
    #[tokio::test]
    async fn empty_events_forever_end_at_the_first_token_timeout() {
        let mut config = ProviderConfig::new(Some(empty_events_server().await), None);
        config.first_token_timeout = Duration::from_secs(2);
        config.idle_timeout = Duration::from_secs(1);
        let provider = Provider::new(config);
        let mut stream = provider
            .stream(serde_json::json!({"model": "m", "messages": []}))
            .await
            .unwrap();
        let mut empty = 0;
        let err = loop {
            match stream.next().await {
                Some(Ok(deltas)) => {
                    assert!(deltas.is_empty(), "{deltas:?}");
                    empty += 1;
                    // Ten times the events of the timeout: the stream would be going still.
                    assert!(empty < 1_000, "{empty} empty events and the stream goes on");
                }
                Some(Err(e)) => break e,
                None => panic!("the stream ended without an error"),
            }
        };
        assert!(empty > 10, "the server sent its events ({empty})");
        assert_eq!(err, ProviderError::Timeout(2), "{err}");
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let config = ProviderConfig::new(None, Some("sk-very-secret-123".into()));
        let shown = format!("{config:?} {config:#?}");
        assert!(!shown.contains("sk-very-secret"), "{shown}");
        assert!(shown.contains("(set)"), "{shown}");
    }

    #[test]
    fn loopback_is_decided_on_the_parsed_host() {
        for local in [
            "http://localhost:11434/v1",
            "http://LOCALHOST/v1",
            "http://127.0.0.1:8080/v1",
            "http://127.10.0.3/v1",
            "http://[::1]:1234/v1",
        ] {
            assert!(is_loopback(local), "{local}");
        }
        for remote in [
            "http://localhost.example.com/v1",
            "http://127.0.0.1.example.com/v1",
            "http://user@evil.example/localhost",
            "https://api.openai.com/v1",
            "http://[::2]/v1",
            "not a url",
        ] {
            assert!(!is_loopback(remote), "{remote}");
        }
    }

    #[test]
    fn a_key_travels_only_over_https_or_to_this_computer() {
        let with_key = |url: &str| ProviderConfig::new(Some(url.into()), Some("sk-x".into()));
        assert!(with_key("https://api.example.com/v1").check().is_ok());
        assert!(with_key("http://127.0.0.1:11434/v1").check().is_ok());
        let err = with_key("http://api.example.com/v1")
            .check()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unencrypted") && err.contains("api.example.com"),
            "{err}"
        );
        let err = with_key("http://localhost.example.com/v1")
            .check()
            .unwrap_err()
            .to_string();
        assert!(err.contains("unencrypted"), "{err}");
        assert!(!with_key("http://api.example.com/v1").key_may_travel());
        // A remote server with no key is refused too; a local one needs none.
        assert!(
            ProviderConfig::new(Some("https://api.example.com/v1".into()), None)
                .check()
                .is_err()
        );
        assert!(
            ProviderConfig::new(Some("http://localhost:1234/v1".into()), None)
                .check()
                .is_ok()
        );
        let err = ProviderConfig::new(Some("ftp://x/v1".into()), None)
            .check()
            .unwrap_err()
            .to_string();
        assert!(err.contains("https://"), "{err}");
    }

    #[test]
    fn a_tool_call_index_past_the_limit_is_refused_before_anything_grows() {
        let mut reader = ChunkReader::default();
        let chunk = serde_json::json!({"choices": [{"delta": {"tool_calls": [
            {"index": 4_000_000_000u64, "id": "c", "function": {"name": "patch_resume", "arguments": "{"}}
        ]}}]});
        let err = reader.read(&chunk).unwrap_err();
        assert!(
            err.to_string().contains("tool call number 4000000001"),
            "{err}"
        );
        // Index-less calls count too: the ninth new id is refused.
        let mut reader = ChunkReader::default();
        for n in 0..9 {
            let chunk = serde_json::json!({"choices": [{"delta": {"tool_calls": [
                {"id": format!("call-{n}"), "function": {"name": "patch_resume", "arguments": ""}}
            ]}}]});
            let read = reader.read(&chunk);
            assert_eq!(read.is_err(), n == 8, "call {n}: {read:?}");
        }
    }
}
