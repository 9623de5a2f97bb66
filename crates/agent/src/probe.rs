//! The connection test (`redline provider test`, and Test connection in the app's settings): does the
//! server answer, does it know the models, does each model answer, and how does the patch model give JSON?
//! Each failure in words, with its kind.

use serde::Serialize;
use serde_json::json;
use ts_rs::TS;

use crate::provider::{Provider, ProviderError};
use crate::turn::operations_schema;
use redline_error_kind::ErrorKind;

/// One check's result.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    /// It worked.
    pub ok: bool,
    /// What went wrong, in words.
    pub problem: Option<String>,
    /// What kind of failure.
    pub kind: Option<ErrorKind>,
}

impl Check {
    fn passed() -> Check {
        Check {
            ok: true,
            problem: None,
            kind: None,
        }
    }

    fn failed(error: &ProviderError) -> Check {
        Check {
            ok: false,
            problem: Some(error.to_string()),
            kind: Some(error.kind()),
        }
    }

    fn of(answered: Result<(), ProviderError>) -> Check {
        match answered {
            Ok(()) => Check::passed(),
            Err(e) => Check::failed(&e),
        }
    }
}

/// What the connection test found.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionReport {
    /// The server asked.
    pub base_url: String,
    /// The models it lists (empty when it lists none, or the list failed).
    pub models: Vec<String>,
    /// The model list.
    pub listing: Check,
    /// The chat model: answers a tiny request that offers it a tool.
    pub chat: Check,
    /// The patch model: answers a tiny request for the operations' JSON.
    pub patch: Check,
    /// How the patch model gives JSON on this server (`json_schema`, `json_object`, `tool`, `prompt`).
    pub patch_format: String,
    /// Whether the server streams a round that offers tools (else such rounds are asked without streaming).
    pub streams_tools: bool,
    /// Whether the chat model plans an edit by calling `patch_resume` with a target that is in the resume
    /// (else turns plan on this computer and go to the patch model at once: the one-model path).
    pub calls_tools: bool,
}

impl ConnectionReport {
    /// True when both models answer.
    pub fn works(&self) -> bool {
        self.chat.ok && self.patch.ok
    }
}

/// Runs the connection test against `provider`'s server and models.
pub async fn test_connection(provider: &Provider) -> ConnectionReport {
    let config = provider.config();
    let (models, listing) = match provider.models().await {
        Ok(models) => (models, Check::passed()),
        Err(e) => (Vec::new(), Check::failed(&e)),
    };
    let unknown = |model: &str| {
        (!models.is_empty() && !models.iter().any(|m| m == model)).then(|| {
            let shown: Vec<&str> = models.iter().take(12).map(String::as_str).collect();
            ProviderError::ModelNotFound(
                model.to_owned(),
                format!("{} (it lists: {})", config.base_url, shown.join(", ")),
            )
        })
    };
    let chat = match unknown(&config.chat_model) {
        Some(e) => Check::failed(&e),
        None => Check::of(chat_answers(provider).await),
    };
    let patch = match unknown(&config.patch_model) {
        Some(e) => Check::failed(&e),
        None => Check::of(patch_answers(provider).await),
    };
    if chat.ok {
        provider.set_calls_tools(plans(provider).await);
    }
    ConnectionReport {
        base_url: config.base_url.clone(),
        models,
        listing,
        chat,
        patch,
        patch_format: provider.patch_format().to_owned(),
        streams_tools: provider.streams_tools(),
        calls_tools: provider.calls_tools(),
    }
}

/// What the connection test learns, without the model list: how the server takes a round with tools
/// ([`chat_answers`]), how its patch model gives JSON ([`patch_answers`]) and whether its chat model plans
/// ([`plans`]), each found on `provider`. Run before the first turn on a server and its models (its
/// requests then carry [`crate::provider::LEARNING_HEADER`]: see [`Provider::for_learning`]). The first
/// model that does not answer ends it with that error, in the words a turn would give.
pub async fn learn(provider: &Provider) -> Result<(), ProviderError> {
    chat_answers(provider).await?;
    patch_answers(provider).await?;
    provider.set_calls_tools(plans(provider).await);
    Ok(())
}

/// Whether the chat model answers a tiny request that offers it a tool. A server that cuts that stream
/// with no end marker is asked again without streaming, as a turn would, and the provider remembers.
async fn chat_answers(provider: &Provider) -> Result<(), ProviderError> {
    let body = json!({
        "model": provider.config().chat_model,
        "messages": [{"role": "user", "content": "Reply with the single word OK."}],
        "tools": [{"type": "function", "function": {"name": "patch_resume", "description": "Change the resume.",
            "parameters": {"type": "object", "properties": {"changes": {"type": "string"}}, "required": ["changes"]}}}],
        "tool_choice": "auto",
        "max_tokens": 16,
    });
    match answer(provider.stream(body.clone()).await).await {
        Err(ProviderError::Unfinished(_)) => {
            provider.stop_streaming_tools();
            provider.complete(body).await.map(|_| ())
        }
        other => other,
    }
}

/// Whether the patch model answers a tiny request for the operations' JSON, and how (the provider keeps
/// the format the server took).
async fn patch_answers(provider: &Provider) -> Result<(), ProviderError> {
    let body = json!({
        "model": provider.config().patch_model,
        "temperature": 0.1,
        "messages": [{"role": "user", "content": "Answer with the JSON object {\"operations\": []} and nothing else."}],
        "max_tokens": 32,
    });
    answer(provider.stream_patch(body, &operations_schema()).await).await
}

/// The ask the planner check makes, on a resume of two fields.
const PLANNER_ASK: &str = "Add Python to my skills.";

/// Whether the chat model plans an edit: asked [`PLANNER_ASK`] on a tiny resume, it calls `patch_resume`
/// with targets, each a pointer inside `/skills`. A server error says nothing of the model: it counts as
/// yes (the turn's own errors will say what is wrong).
async fn plans(provider: &Provider) -> bool {
    let resume = json!({"basics": {"name": "Ada Lovelace"}, "skills": [{"name": "Programming", "keywords": ["Rust"]}]});
    let body = json!({
        "model": provider.config().chat_model,
        "messages": [
            {"role": "system", "content": format!("You are a resume editor. When the user asks for a change, call patch_resume with the changes and the JSON Pointers of the parts to change.\n\nResume:\n{resume}")},
            {"role": "user", "content": PLANNER_ASK},
        ],
        "tools": [{"type": "function", "function": {"name": "patch_resume", "description": "Change the resume.",
            "parameters": {"type": "object", "properties": {
                "changes": {"type": "string"},
                "targets": {"type": "array", "items": {"type": "string"}, "description": "JSON Pointers, e.g. /skills/0/keywords"}
            }, "required": ["changes", "targets"]}}}],
        "tool_choice": "auto",
        "temperature": 0.1,
        "max_tokens": 200,
    });
    let Ok(deltas) = provider.complete(body).await else {
        return true;
    };
    let mut calls: Vec<(String, String)> = Vec::new();
    for delta in deltas {
        if let crate::provider::Delta::ToolCall {
            index,
            name,
            arguments,
            ..
        } = delta
        {
            while calls.len() <= index {
                calls.push(Default::default());
            }
            calls[index].0.push_str(name.as_deref().unwrap_or_default());
            calls[index].1.push_str(&arguments);
        }
    }
    calls.iter().any(|(name, arguments)| {
        let args: serde_json::Value = serde_json::from_str(arguments).unwrap_or_default();
        let targets: Vec<&str> = args["targets"]
            .as_array()
            .map(|t| t.iter().filter_map(|t| t.as_str()).collect())
            .unwrap_or_default();
        name == "patch_resume"
            && args["changes"].is_string()
            && !targets.is_empty()
            && targets.iter().all(|t| {
                (*t == "/skills" || t.starts_with("/skills/"))
                    && crate::places::Reach::of(&resume, &[(*t).to_owned()]).is_some()
            })
    })
}

/// Reads a whole (tiny) answer: it worked if the stream opened and ended without an error.
async fn answer(
    opened: Result<crate::provider::DeltaStream, ProviderError>,
) -> Result<(), ProviderError> {
    let mut stream = opened?;
    while let Some(next) = stream.next().await {
        next?;
    }
    Ok(())
}

/// A model server found on this computer.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocalServer {
    /// Which kind.
    pub preset: crate::settings::Preset,
    /// Where it answers.
    pub base_url: String,
    /// The models it lists.
    pub models: Vec<String>,
}

/// The servers that answer `GET /models` at their usual addresses on this computer (Ollama, LM Studio,
/// llama.cpp's server), asked at once, each given half a second. Ollama is looked for where `OLLAMA_HOST`
/// puts it, as Ollama itself reads that variable, when it names this computer.
pub async fn find_local_servers() -> Vec<LocalServer> {
    use crate::settings::Preset;
    let ollama_host = crate::settings::env_var("OLLAMA_HOST");
    let candidates: Vec<(Preset, String)> = [Preset::Ollama, Preset::LmStudio, Preset::LlamaCpp]
        .into_iter()
        .filter_map(|p| match (p, ollama_host.as_deref().and_then(ollama_url)) {
            (Preset::Ollama, Some(url)) => Some((p, url)),
            _ => p.base_url().map(|url| (p, url.to_owned())),
        })
        .collect();
    find_servers(&candidates, std::time::Duration::from_millis(500)).await
}

/// The OpenAI-compatible base URL of the Ollama that `OLLAMA_HOST` names (`127.0.0.1:11500`,
/// `http://localhost:11500`, `0.0.0.0`: Ollama's own forms), if it is on this computer.
fn ollama_url(host: &str) -> Option<String> {
    let with_scheme = if host.contains("://") {
        host.to_owned()
    } else {
        format!("http://{host}")
    };
    let mut url = reqwest::Url::parse(&with_scheme).ok()?;
    // Listening on every address includes this computer's loopback.
    if matches!(url.host_str(), Some("0.0.0.0" | "[::]")) {
        url.set_host(Some("127.0.0.1")).ok()?;
    }
    if url.port().is_none() && !host.contains("://") {
        url.set_port(Some(11434)).ok()?;
    }
    url.set_path("/v1");
    let url = url.to_string();
    crate::provider::is_loopback(&url).then_some(url)
}

/// The `candidates` that answer with a model list within `wait`, in the order given.
pub async fn find_servers(
    candidates: &[(crate::settings::Preset, String)],
    wait: std::time::Duration,
) -> Vec<LocalServer> {
    let asks = candidates.iter().map(|(preset, url)| async move {
        let mut config = crate::provider::ProviderConfig::new(Some(url.clone()), None);
        config.first_token_timeout = wait;
        let models = Provider::new(config).models().await.ok()?;
        Some(LocalServer {
            preset: *preset,
            base_url: url.clone(),
            models,
        })
    });
    futures::future::join_all(asks)
        .await
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Preset;

    #[test]
    fn ollama_is_looked_for_where_ollama_host_says_on_this_computer_only() {
        assert_eq!(
            ollama_url("127.0.0.1:11500").as_deref(),
            Some("http://127.0.0.1:11500/v1")
        );
        assert_eq!(
            ollama_url("0.0.0.0").as_deref(),
            Some("http://127.0.0.1:11434/v1")
        );
        assert_eq!(
            ollama_url("http://localhost:8000").as_deref(),
            Some("http://localhost:8000/v1")
        );
        assert_eq!(ollama_url("ollama.example.com:11434"), None);
        assert_eq!(ollama_url("http://10.0.0.5:11434"), None);
        assert_eq!(ollama_url("::not a host::"), None);
    }

    /// The learning a first turn runs asks what the connection test asks, its requests marked (the replay
    /// server answers them itself, as a server that takes everything, and counts them apart), and leaves
    /// what it found on the provider; a server's answers, scripted, are learned as the test learns them.
    #[tokio::test]
    async fn learning_asks_what_the_test_asks_and_leaves_it_on_the_provider() {
        use crate::provider::{Learned, ProviderConfig};
        let server = crate::ReplayServer::start(Vec::new(), crate::Pace::default())
            .await
            .unwrap();
        let provider =
            Provider::new(ProviderConfig::new(Some(server.base_url()), None)).for_learning();
        learn(&provider).await.unwrap();
        assert_eq!(provider.learned(), Learned::default());
        let asked = server.learning_requests();
        assert_eq!(asked.len(), 3, "{asked:#?}");
        assert_eq!(asked[0]["tools"][0]["function"]["name"], "patch_resume");
        assert_eq!(asked[1]["response_format"]["type"], "json_schema");
        assert_eq!(asked[2]["messages"][1]["content"], PLANNER_ASK);
        assert!(server.requests().is_empty(), "the script was not touched");

        // A server that refuses `json_schema` and whose chat model answers the planner in words.
        let replies: Vec<crate::Reply> = serde_json::from_value(json!([
            {"learning": true, "say": "OK"},
            {"learning": true, "fail": {"status": 400, "message": "response_format json_schema is not supported"}},
            {"learning": true, "patch": {"operations": []}},
            {"learning": true, "say": "Python is a fine skill to have."},
            {"say": "a turn's reply"},
        ]))
        .unwrap();
        let server = crate::ReplayServer::start(replies, crate::Pace::default())
            .await
            .unwrap();
        let provider =
            Provider::new(ProviderConfig::new(Some(server.base_url()), None)).for_learning();
        learn(&provider).await.unwrap();
        assert_eq!(
            provider.learned(),
            Learned {
                patch_format: "json_object".into(),
                streams_tools: true,
                calls_tools: false,
            }
        );
        assert_eq!(server.remaining(), 1, "the turn's reply is left");

        // A server that is down: the error a turn's first request gives.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let nobody = format!("http://{}/v1", closed.local_addr().unwrap());
        drop(closed);
        let down = Provider::new(ProviderConfig::new(Some(nobody), None)).for_learning();
        let err = learn(&down).await.unwrap_err();
        assert!(matches!(err, ProviderError::Unreachable(_)), "{err}");
    }

    #[tokio::test]
    async fn local_servers_are_found_by_their_model_list() {
        let server = crate::ReplayServer::start(Vec::new(), crate::Pace::default())
            .await
            .unwrap();
        // A port nothing listens on: taken, then let go.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let nobody = format!("http://{}/v1", closed.local_addr().unwrap());
        drop(closed);
        let found = find_servers(
            &[
                (Preset::Ollama, nobody),
                (Preset::LlamaCpp, server.base_url()),
            ],
            std::time::Duration::from_millis(500),
        )
        .await;
        assert_eq!(
            found,
            [LocalServer {
                preset: Preset::LlamaCpp,
                base_url: server.base_url(),
                models: vec!["replay-chat".into(), "replay-patch".into()],
            }]
        );
    }
}
