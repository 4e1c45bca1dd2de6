//! How the CLI answers the server's requests: by its flags, never silently.

use std::path::PathBuf;

use async_trait::async_trait;
use periscope_core::session::handler::decline;
use periscope_core::session::{HostHandler, RpcError, ServerRequest, ServerRequestKind};
use serde_json::{Value, json};

use crate::args::Cli;

pub struct CliHost {
    elicit_accept: Option<Value>,
    elicit_accept_error: Option<String>,
    sampling_reply: Option<String>,
    roots: Vec<PathBuf>,
}

impl CliHost {
    pub fn from_cli(cli: &Cli) -> CliHost {
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
        CliHost {
            elicit_accept,
            elicit_accept_error,
            sampling_reply: cli.sampling_reply.clone(),
            roots: cli.root.clone(),
        }
    }
}

#[async_trait]
impl HostHandler for CliHost {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        let message = request.param_str("message").unwrap_or("").to_string();
        match request.kind() {
            ServerRequestKind::Elicitation { url: false } => match &self.elicit_accept {
                Some(content) => {
                    eprintln!("periscope: accepted elicitation \"{message}\" with --elicit-accept");
                    Ok(json!({"action": "accept", "content": content}))
                }
                None => {
                    if let Some(e) = &self.elicit_accept_error {
                        eprintln!("periscope: {e}");
                    }
                    eprintln!(
                        "periscope: declined elicitation \"{message}\" (answer with --elicit-accept '<json>')"
                    );
                    decline(&request)
                }
            },
            ServerRequestKind::Elicitation { url: true } => {
                let url = request.param_str("url").unwrap_or("");
                if self.elicit_accept.is_some() {
                    // The CLI never opens a browser; accepting tells the server the user will go.
                    eprintln!(
                        "periscope: accepted URL elicitation \"{message}\"; open it yourself: {url}"
                    );
                    Ok(json!({"action": "accept"}))
                } else {
                    eprintln!(
                        "periscope: declined URL elicitation \"{message}\" for {url} (accept with --elicit-accept '{{}}')"
                    );
                    decline(&request)
                }
            }
            ServerRequestKind::Sampling => match &self.sampling_reply {
                Some(text) => {
                    eprintln!("periscope: answered sampling request with --sampling-reply");
                    Ok(json!({
                        "role": "assistant",
                        "content": {"type": "text", "text": text},
                        "model": "periscope-cli",
                        "stopReason": "endTurn",
                    }))
                }
                None => {
                    eprintln!(
                        "periscope: declined sampling request (answer with --sampling-reply TEXT)"
                    );
                    decline(&request)
                }
            },
            ServerRequestKind::Roots => {
                let roots: Vec<Value> = self
                    .roots
                    .iter()
                    .map(|p| {
                        let abs = std::path::absolute(p).unwrap_or_else(|_| p.clone());
                        let name = abs.file_name().map(|n| n.to_string_lossy().into_owned());
                        json!({"uri": file_uri(&abs), "name": name})
                    })
                    .collect();
                Ok(json!({"roots": roots}))
            }
            ServerRequestKind::Other => decline(&request),
        }
    }
}

/// `file://` URI of an absolute path, percent-encoding what a URI path may not hold.
fn file_uri(path: &std::path::Path) -> String {
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_uris_escape_spaces_and_non_ascii() {
        assert_eq!(
            super::file_uri(std::path::Path::new("/home/a b/café")),
            "file:///home/a%20b/caf%C3%A9"
        );
    }
}
