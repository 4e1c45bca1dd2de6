//! A model in the loop: typed clients for the two chat wire formats that cover the providers
//! people use (any OpenAI-compatible chat-completions endpoint, which local runtimes such as
//! Ollama, LM Studio, vLLM and llama.cpp's server speak, and the Anthropic Messages API),
//! answering a server's sampling requests with a model ([`sampling`]) and the playground's
//! loop where a model calls a server's tools ([`agent`]). See docs/models.md.
//!
//! Why no client crate: both formats are one endpoint each, the engine already has rustls
//! reqwest and a bounded SSE parser, and an inspector wants the exact request and response
//! bytes and usage that the general crates hide (design-13 §4 weighs them).

pub mod agent;
pub mod anthropic;
pub mod chat;
pub mod context;
pub mod conversation;
mod decoder;
pub mod http;
pub mod openai;
pub mod sampling;
pub mod tool_host;

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use chat::{Assembled, Block, ChatRequest, StopReason, StreamEvent, Turn, TurnTiming};
use http::{Deadlines, Opened, scrub_error};

/// Which wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// `POST {base}/chat/completions` (base such as `http://localhost:11434/v1`).
    OpenAiCompatible,
    /// `POST {base}/v1/messages` (base such as `https://api.anthropic.com`).
    Anthropic,
}

/// A configured model: where it is, which one, and how it is asked. The key is not here: it
/// lives in the secret store under [`key_name`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Provider {
    pub id: String,
    pub name: String,
    pub kind: ProviderKind,
    pub base_url: String,
    pub model: String,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// The one used when nothing else picks (sampling without a matching hint).
    #[serde(default)]
    pub default: bool,
}

/// The secret store key of a provider's API key (beside the servers' secret values).
pub fn key_name(provider_id: &str) -> String {
    format!("model:{provider_id}\napi_key")
}

/// An API key. Its `Debug` never shows it, and no error carries it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key as typed or pasted: the whitespace around it (a pasted newline) is not part of it.
    pub fn new(key: impl Into<String>) -> ApiKey {
        let key: String = key.into();
        ApiKey(key.trim().to_string())
    }

    /// The key itself, for the one header that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

pub use crate::vocabulary::model_error::ModelError;

/// What a provider said to the smallest request (the Models setting's Test button).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "ModelProbe"))]
pub struct Probe {
    /// The model that answered, as the provider named it.
    pub model: String,
    pub reply: String,
    pub timing: TurnTiming,
}

/// A client for one provider.
#[derive(Debug, Clone)]
pub struct ModelClient {
    provider: Provider,
    key: Option<ApiKey>,
    http: reqwest::Client,
    deadlines: Deadlines,
}

impl ModelClient {
    /// A client for `provider`, with its key if it has one. Refused when the base URL is not
    /// http(s), or when a key would go over plain http to a host that is not loopback.
    pub fn new(provider: Provider, key: Option<ApiKey>) -> Result<ModelClient, ModelError> {
        let url = url::Url::parse(&provider.base_url).map_err(|e| ModelError::NotAUrl {
            url: crate::redact::url(&provider.base_url),
            detail: e.to_string(),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(ModelError::NotHttp {
                scheme: url.scheme().to_string(),
            });
        }
        let key = key.filter(|k| !k.expose().is_empty());
        if key.is_some() {
            crate::net_guard::check_bearer_target(&provider.base_url).map_err(|_| {
                ModelError::KeyInClear {
                    host: url.host_str().unwrap_or("").to_string(),
                }
            })?;
        }
        let http = reqwest::Client::builder()
            // A redirect could carry the key elsewhere: none are followed.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(std::time::Duration::from_secs(10))
            .build()
            .map_err(|e| ModelError::Transport {
                detail: e.to_string(),
            })?;
        Ok(ModelClient {
            provider,
            key,
            http,
            deadlines: Deadlines::default(),
        })
    }

    /// The same client with other deadlines (tests, and hosts with their own patience).
    pub fn with_deadlines(mut self, deadlines: Deadlines) -> ModelClient {
        self.deadlines = deadlines;
        self
    }

    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// The endpoint and request body for `request`.
    pub fn request_body(&self, request: &ChatRequest) -> (String, serde_json::Value) {
        let p = &self.provider;
        match p.kind {
            ProviderKind::OpenAiCompatible => (
                openai::endpoint(&p.base_url),
                openai::request_body(
                    &p.model,
                    request,
                    p.max_tokens,
                    openai::max_tokens_field(&p.base_url),
                ),
            ),
            ProviderKind::Anthropic => (
                anthropic::endpoint(&p.base_url),
                anthropic::request_body(&p.model, request, p.max_tokens),
            ),
        }
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = Vec::new();
        match self.provider.kind {
            ProviderKind::OpenAiCompatible => {
                if let Some(key) = &self.key {
                    headers.push(("authorization", format!("Bearer {}", key.expose())));
                }
            }
            ProviderKind::Anthropic => {
                headers.push(("anthropic-version", anthropic::API_VERSION.to_string()));
                if let Some(key) = &self.key {
                    headers.push(("x-api-key", key.expose().to_string()));
                }
            }
        }
        headers
    }

    /// One tiny request, to show that the provider answers, which model did and how fast.
    pub async fn probe(&self, cancel: &CancellationToken) -> Result<Probe, ModelError> {
        let request = ChatRequest {
            messages: vec![chat::ChatMessage::user(vec![Block::text(
                "Reply with the word OK.",
            )])],
            max_tokens: Some(16),
            ..ChatRequest::default()
        };
        let (tx, rx) = mpsc::channel(1);
        drop(rx);
        let turn = self.stream(&request, &tx, cancel).await?;
        Ok(Probe {
            reply: chat::text_of(&turn.blocks),
            model: turn.model,
            timing: turn.timing,
        })
    }

    /// Asks the model and hands each piece of its answer to `each` as it arrives, awaiting it
    /// before the next (a host forwarding the pieces to its view needs no channel of its own);
    /// the whole answer is returned when the stream ends.
    pub async fn stream_each<F: Future<Output = ()>>(
        &self,
        request: &ChatRequest,
        cancel: &CancellationToken,
        mut each: impl FnMut(StreamEvent) -> F,
    ) -> Result<Turn, ModelError> {
        let (tx, mut rx) = mpsc::channel(64);
        let ask = async move {
            let turn = self.stream(request, &tx, cancel).await;
            // The forwarder below ends when the sender goes.
            drop(tx);
            turn
        };
        let forward = async {
            while let Some(event) = rx.recv().await {
                each(event).await;
            }
        };
        let (turn, ()) = tokio::join!(ask, forward);
        turn
    }

    /// Asks the model and streams its answer: each piece goes to `tx` as it arrives (a closed
    /// receiver is fine), and the whole answer is returned when the stream ends.
    pub async fn stream(
        &self,
        request: &ChatRequest,
        tx: &mpsc::Sender<StreamEvent>,
        cancel: &CancellationToken,
    ) -> Result<Turn, ModelError> {
        let started = Instant::now();
        let (url, body) = self.request_body(request);
        let raw_request = serde_json::to_vec(&body).unwrap_or_default();
        let secret = self.key.as_ref().map(ApiKey::expose);
        let opened = http::post(
            &self.http,
            &url,
            &self.headers(),
            raw_request.clone(),
            secret,
            self.deadlines,
            cancel,
        )
        .await?;
        let (assembled, raw_response, raw_response_len, first_token_us) = match opened {
            Opened::Json {
                value,
                raw,
                first_byte_us,
            } => {
                let assembled = match self.provider.kind {
                    ProviderKind::OpenAiCompatible => openai::from_json(&value),
                    ProviderKind::Anthropic => anthropic::from_json(&value),
                }
                .map_err(|e| scrub_error(e, secret))?;
                for event in events_of(&assembled) {
                    let _ = tx.send(event).await;
                }
                let len = raw.len() as u64;
                (assembled, raw, len, Some(first_byte_us))
            }
            Opened::Stream(mut body) => {
                let (assembled, first_token_us) = match self.provider.kind {
                    ProviderKind::OpenAiCompatible => {
                        let decoder = openai::Decoder::new();
                        decoder::read_stream(&mut body, decoder, tx, cancel, secret, started).await
                    }
                    ProviderKind::Anthropic => {
                        let decoder = anthropic::Decoder::new();
                        decoder::read_stream(&mut body, decoder, tx, cancel, secret, started).await
                    }
                }?;
                let (raw, len) = body.into_raw();
                (assembled, raw, len, first_token_us)
            }
        };
        let stop = assembled.stop.clone().unwrap_or_else(|| {
            if assembled
                .blocks
                .iter()
                .any(|b| matches!(b, Block::ToolUse { .. }))
            {
                StopReason::ToolUse
            } else {
                StopReason::EndTurn
            }
        });
        Ok(Turn {
            model: assembled
                .model
                .clone()
                .unwrap_or_else(|| self.provider.model.clone()),
            blocks: assembled.blocks,
            stop,
            usage: assembled.usage,
            timing: TurnTiming {
                first_token_us,
                total_us: started.elapsed().as_micros() as u64,
            },
            raw_request,
            raw_response,
            raw_response_len,
        })
    }
}

/// The events a whole (non-streamed) answer stands for, so a host sees the same either way.
fn events_of(assembled: &Assembled) -> Vec<StreamEvent> {
    let mut out = Vec::new();
    for block in &assembled.blocks {
        match block {
            Block::Text { text } => out.push(StreamEvent::TextDelta { text: text.clone() }),
            Block::ToolUse { id, name, input } => {
                out.push(StreamEvent::ToolUseStart {
                    id: id.clone(),
                    name: name.clone(),
                });
                out.push(StreamEvent::ToolInputDelta {
                    id: id.clone(),
                    partial: input.to_string(),
                });
            }
            _ => {}
        }
    }
    out.push(StreamEvent::Usage {
        input: assembled.usage.input,
        output: assembled.usage.output,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(base_url: &str) -> Provider {
        Provider {
            id: "p".into(),
            name: "P".into(),
            kind: ProviderKind::OpenAiCompatible,
            base_url: base_url.into(),
            model: "m".into(),
            max_tokens: None,
            default: true,
        }
    }

    #[test]
    fn a_key_never_goes_over_plain_http_off_loopback() {
        let key = || Some(ApiKey::new("sk-secret-1"));
        assert!(ModelClient::new(provider("http://localhost:11434/v1"), key()).is_ok());
        assert!(ModelClient::new(provider("http://127.0.0.1:1234/v1"), key()).is_ok());
        assert!(ModelClient::new(provider("https://api.example.com/v1"), key()).is_ok());
        // Without a key, a plain http server elsewhere on the network is the user's choice.
        assert!(ModelClient::new(provider("http://10.0.0.5:8000/v1"), None).is_ok());
        let err = ModelClient::new(provider("http://10.0.0.5:8000/v1"), key()).unwrap_err();
        assert!(err.to_string().contains("in clear"), "{err}");
        assert!(!err.to_string().contains("sk-secret-1"));
        let err = ModelClient::new(provider("file:///etc/passwd"), None).unwrap_err();
        assert!(matches!(err, ModelError::NotHttp { .. }), "{err}");
        assert_eq!(
            format!("{:?}", ApiKey::new("sk-secret-1")),
            "ApiKey([redacted])"
        );
    }
}
