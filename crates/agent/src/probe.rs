//! The connection test (`redline provider test`, and Test connection in the app's settings): does the
//! server answer, does it know the models, does each model answer, and how does the patch model give JSON?
//! Each failure in words, with its kind.

use serde::Serialize;
use serde_json::json;
use ts_rs::TS;

use crate::kind::ErrorKind;
use crate::provider::{Provider, ProviderError};
use crate::turn::operations_schema;

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
        None => {
            let body = json!({
                "model": config.chat_model,
                "messages": [{"role": "user", "content": "Reply with the single word OK."}],
                "tools": [{"type": "function", "function": {"name": "patch_resume", "description": "Change the resume.",
                    "parameters": {"type": "object", "properties": {"changes": {"type": "string"}}, "required": ["changes"]}}}],
                "tool_choice": "auto",
                "max_tokens": 16,
            });
            answer(provider.stream(body).await).await
        }
    };
    let patch = match unknown(&config.patch_model) {
        Some(e) => Check::failed(&e),
        None => {
            let body = json!({
                "model": config.patch_model,
                "temperature": 0.1,
                "messages": [{"role": "user", "content": "Answer with the JSON object {\"operations\": []} and nothing else."}],
                "max_tokens": 32,
            });
            answer(provider.stream_patch(body, &operations_schema()).await).await
        }
    };
    ConnectionReport {
        base_url: config.base_url.clone(),
        models,
        listing,
        chat,
        patch,
        patch_format: provider.patch_format().to_owned(),
    }
}

/// Reads a whole (tiny) answer: it worked if the stream opened and ended without an error.
async fn answer(opened: Result<crate::provider::DeltaStream, ProviderError>) -> Check {
    let mut stream = match opened {
        Ok(stream) => stream,
        Err(e) => return Check::failed(&e),
    };
    while let Some(next) = stream.next().await {
        if let Err(e) = next {
            return Check::failed(&e);
        }
    }
    Check::passed()
}
