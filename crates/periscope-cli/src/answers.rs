//! How the CLI answers the server's requests (elicitation, sampling, roots): by its flags,
//! never silently.

use std::path::PathBuf;

use async_trait::async_trait;
use periscope_core::answering::{Root, SamplingRule, analyze_url, roots_result};
use periscope_core::model::chat::text_of;
use periscope_core::model::{ApiKey, ModelClient, Provider, ProviderKind, sampling};
use periscope_core::session::handler::decline;
use periscope_core::session::{HostHandler, RpcError, ServerRequest, ServerRequestKind};
use serde_json::{Value, json};

use crate::args::{Cli, SamplingKind};
use crate::browser::open_url;

pub struct AnswersByFlags {
    elicit_accept: Option<Value>,
    elicit_accept_error: Option<String>,
    elicit_decline: bool,
    open_urls: bool,
    sampling_reply: Option<String>,
    /// --sampling-provider-url: the model that answers sampling, or why it cannot.
    sampling_model: Option<Result<ModelClient, String>>,
    roots: Vec<PathBuf>,
    /// The MCP server's host (remote servers), for the URL analysis.
    server_host: Option<String>,
}

impl AnswersByFlags {
    pub fn from_cli(cli: &Cli) -> AnswersByFlags {
        let (elicit_accept, elicit_accept_error) = match cli.elicit_accept.as_deref() {
            None => (None, None),
            Some(text) => match serde_json::from_str::<Value>(text) {
                Ok(v) if v.is_object() => (Some(v), None),
                Ok(_) => (
                    None,
                    Some("--elicit-accept must be a JSON object".to_string()),
                ),
                Err(e) => (
                    None,
                    Some(format!("--elicit-accept is not valid JSON: {e}")),
                ),
            },
        };
        AnswersByFlags {
            elicit_accept,
            elicit_accept_error,
            elicit_decline: cli.elicit_decline,
            open_urls: cli.open_urls,
            sampling_reply: cli.sampling_reply.clone(),
            sampling_model: sampling_model(cli),
            roots: cli.root.clone(),
            server_host: cli
                .url
                .first()
                .and_then(|u| url::Url::parse(u).ok())
                .and_then(|u| u.host_str().map(str::to_string)),
        }
    }
}

/// The model client the --sampling-* flags describe, if any.
fn sampling_model(cli: &Cli) -> Option<Result<ModelClient, String>> {
    let url = cli.sampling_provider_url.as_ref()?;
    let key = match &cli.sampling_key_env {
        None => None,
        Some(var) => match std::env::var(var) {
            Ok(key) => Some(ApiKey::new(key)),
            Err(_) => {
                return Some(Err(format!(
                    "--sampling-key-env {var}: the environment variable is not set"
                )));
            }
        },
    };
    let model = cli.sampling_model.clone().unwrap_or_default();
    let provider = Provider {
        id: "cli".into(),
        name: model.clone(),
        kind: match cli.sampling_kind {
            SamplingKind::Openai => ProviderKind::OpenAiCompatible,
            SamplingKind::Anthropic => ProviderKind::Anthropic,
        },
        base_url: url.clone(),
        model,
        max_tokens: None,
        default: true,
    };
    Some(ModelClient::new(provider, key).map_err(|e| e.to_string()))
}

impl AnswersByFlags {
    /// Sampling answered by the --sampling-provider-url model, sent as it comes: there is no
    /// one to review it, so the answer is printed for the record.
    async fn sample_with_model(&self, request: &ServerRequest) -> Result<Value, RpcError> {
        let client = match &self.sampling_model {
            Some(Ok(client)) => client,
            Some(Err(reason)) => {
                tell!("periscope: cannot answer sampling with a model: {reason}; declined");
                return decline(request);
            }
            None => return decline(request),
        };
        let provider = client.provider();
        tell!(
            "periscope: asking {} at {} to answer the sampling request (no human in the loop: its answer is sent as is)",
            provider.model,
            periscope_core::redact::url(&provider.base_url)
        );
        let params = request.params.clone().unwrap_or(Value::Null);
        let cancel = tokio_util::sync::CancellationToken::new();
        match sampling::answer(client, &params, &cancel).await {
            Ok((result, turn)) => {
                let text = text_of(&turn.blocks);
                tell!("periscope: model {} replied: {text}", turn.model);
                for (_, name, input) in turn.tool_uses() {
                    tell!(
                        "periscope: model {} asks for tool {name} {input}",
                        turn.model
                    );
                }
                Ok(result)
            }
            Err(e) => {
                tell!("periscope: the model could not answer the sampling request: {e}");
                Err(RpcError::new(
                    periscope_core::wire::error_code::INTERNAL_ERROR,
                    format!("the model could not answer: {e}"),
                ))
            }
        }
    }
}

#[async_trait]
impl HostHandler for AnswersByFlags {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        let message = request.param_str("message").unwrap_or("").to_string();
        match request.kind() {
            ServerRequestKind::Elicitation { url: false } => match &self.elicit_accept {
                Some(content) => {
                    tell!("periscope: accepted elicitation \"{message}\" with --elicit-accept");
                    Ok(json!({"action": "accept", "content": content}))
                }
                None => {
                    if let Some(e) = &self.elicit_accept_error {
                        tell!("periscope: {e}");
                    }
                    if self.elicit_decline {
                        tell!("periscope: declined elicitation \"{message}\" (--elicit-decline)");
                    } else {
                        tell!(
                            "periscope: declined elicitation \"{message}\" (answer with --elicit-accept '<json>')"
                        );
                    }
                    decline(&request)
                }
            },
            ServerRequestKind::Elicitation { url: true } => {
                let url = request.param_str("url").unwrap_or("");
                let analysis = analyze_url(url, self.server_host.as_deref());
                tell!(
                    "periscope: URL elicitation: the server asks you to open a web page: \"{message}\""
                );
                tell!("  url:  {url}");
                if analysis.host_unicode != analysis.host_ascii {
                    tell!(
                        "  host: {} (reads as {})",
                        analysis.host_ascii,
                        analysis.host_unicode
                    );
                } else if !analysis.host_ascii.is_empty() {
                    tell!("  host: {}", analysis.host_ascii);
                }
                for warning in &analysis.warnings {
                    tell!("  warning: {}", warning.message);
                }
                if analysis.warnings.is_empty() {
                    tell!("  no warnings found; check the host before you go there");
                }
                if self.open_urls && analysis.openable {
                    match open_url(url) {
                        Ok(()) => {
                            tell!("periscope: accepted and opened it (--open-urls)");
                            return Ok(json!({"action": "accept"}));
                        }
                        Err(e) => {
                            tell!("periscope: could not open the browser ({e}); declined");
                            return decline(&request);
                        }
                    }
                }
                if self.open_urls {
                    tell!("periscope: not opened: only http(s) URLs open; declined");
                    decline(&request)
                } else if self.elicit_accept.is_some() {
                    // Accepting tells the server the user will go; the CLI opens nothing.
                    tell!("periscope: accepted (--elicit-accept); open it yourself");
                    Ok(json!({"action": "accept"}))
                } else {
                    if !self.elicit_decline {
                        tell!(
                            "periscope: declined URL elicitation (accept with --open-urls, or --elicit-accept '{{}}' to accept without opening)"
                        );
                    }
                    decline(&request)
                }
            }
            ServerRequestKind::Sampling if self.sampling_model.is_some() => {
                self.sample_with_model(&request).await
            }
            ServerRequestKind::Sampling => match &self.sampling_reply {
                Some(text) => {
                    tell!("periscope: answered sampling request with --sampling-reply");
                    let rule = SamplingRule {
                        text: text.clone(),
                        model: "periscope-cli".into(),
                    };
                    Ok(rule.result())
                }
                None => {
                    tell!(
                        "periscope: declined sampling request (answer with --sampling-reply TEXT)"
                    );
                    decline(&request)
                }
            },
            ServerRequestKind::Roots => {
                let roots: Vec<Root> = self.roots.iter().map(|p| Root::of_path(p)).collect();
                Ok(roots_result(&roots))
            }
            ServerRequestKind::Other => decline(&request),
        }
    }
}
