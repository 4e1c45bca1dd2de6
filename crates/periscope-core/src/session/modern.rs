//! The modern era (2026-07-28) in a session: finding which era a server speaks
//! (`server/discover`, and for auto the fallback to `initialize`), the metadata and headers
//! every modern request carries, and multi round-trip requests (`input_required`).

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::handler::ServerRequest;
use super::{CallOptions, RequestError, ServerIdentity, Session, Shared};
use crate::era::{
    self, Era, EraChoice, EraReason, ResultKind, meta_key, pick_legacy_version,
    pick_modern_version, result_kind,
};
use crate::era::{ModernRefusal, ProbeAnswer};
use crate::event::{Event, SessionState};
use crate::record::{Decision, DecisionKind};
use crate::request_headers::{self, HeaderAnnotationError};
use crate::revision;
use crate::transport::{MirrorHeaders, TransportKind};
use crate::vocabulary::Problem;
use crate::vocabulary::method::names;
use crate::wire::{Frame, RequestId, Verdict, error_code};

/// Rounds of `input_required` one call may go through before Periscope stops answering: a
/// server that keeps asking must not keep a call (and its user) forever.
pub const MAX_INPUT_ROUNDS: usize = 16;

impl Session {
    /// Opens the protocol the way the options say ([`SessionOptions::era`]): for a modern
    /// server `server/discover` (no handshake), for a legacy one the `initialize` handshake;
    /// auto probes with `server/discover` and falls back to `initialize` when the answer says
    /// the server is legacy (any error that is not a modern one, or no answer in time).
    ///
    /// [`SessionOptions::era`]: super::SessionOptions::era
    pub async fn handshake(&self) -> Result<ServerIdentity, RequestError> {
        match self.shared.options.era {
            EraChoice::Legacy => self.initialize_because(EraReason::Pinned).await,
            EraChoice::Modern => self.discover(EraReason::Pinned).await.map_err(Into::into),
            EraChoice::Auto => match self.discover(EraReason::Discovered).await {
                Ok(identity) => Ok(identity),
                Err(Probe::Legacy(answer)) => {
                    self.shared.speak(None);
                    self.fell_back(&answer);
                    self.initialize_because(EraReason::ProbeFailed { answer })
                        .await
                }
                Err(Probe::Failed(e)) => Err(e),
            },
        }
    }

    /// Auto found a legacy server: normal, so an info line (never a warning), and a decision in
    /// the record, since the frames alone do not say why `initialize` followed.
    fn fell_back(&self, answer: &crate::era::ProbeAnswer) {
        let s = &self.shared;
        let _ = s.events.send(Event::Info(format!(
            "server/discover: {answer}; the server speaks the legacy era, so Periscope falls back to initialize"
        )));
        s.traffic.decide(Decision {
            wall_us: crate::traffic::wall_now_us(),
            request_id: None,
            method: names::SERVER_DISCOVER.into(),
            decision: DecisionKind::EraFallback,
            detail: Some(answer.to_string()),
            elicitation_id: None,
        });
    }

    /// `server/discover`, retried once with a version the server names when it refuses ours.
    async fn discover(&self, reason: EraReason) -> Result<ServerIdentity, Probe> {
        let s = &self.shared;
        let auto = reason == EraReason::Discovered;
        s.set_state(SessionState::Initializing);
        s.speak(Some(revision::LATEST_MODERN));
        let timeout = if auto {
            s.options.discover_timeout.min(s.options.request_timeout)
        } else {
            s.options.request_timeout
        };
        // Auto watches its probe: hosts hear what they wait for, and a server that talks but
        // does not answer is not waited for in full (probe_wait.rs).
        let watch =
            auto.then(|| super::probe_wait::ProbeWatch::start(s.traffic.clone(), s.events.clone()));
        let options = CallOptions {
            timeout: Some(timeout),
            cancel: watch.as_ref().map(|w| w.cancel.clone()),
            ..CallOptions::default()
        };
        let started = Instant::now();
        let mut answer = self
            .request_with_seq(names::SERVER_DISCOVER, None, options.clone())
            .await;
        if let Err(RequestError::Rpc { error, .. }) = &answer
            && error.code == error_code::UNSUPPORTED_PROTOCOL_VERSION
        {
            let supported = error
                .data
                .as_ref()
                .and_then(|d| d.get("supported"))
                .cloned()
                .unwrap_or(Value::Null);
            match pick_modern_version(&supported) {
                // Once, even with the version just refused: the server named it, and one more
                // request is the cheapest way to find out whether it meant it.
                Some(version) => {
                    let _ = s.events.send(Event::Warning(Problem::VersionRetried {
                        method: names::SERVER_DISCOVER.into(),
                        refused: s.modern_version().unwrap_or_default(),
                        version: version.clone(),
                    }));
                    s.speak(Some(&version));
                    answer = self
                        .request_with_seq(names::SERVER_DISCOVER, None, options)
                        .await;
                }
                _ if auto && pick_legacy_version(&supported).is_some() => {
                    return Err(Probe::Legacy(ProbeAnswer::OnlyLegacyVersions {
                        versions: supported
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect(),
                    }));
                }
                _ => {}
            }
        }
        let latency_us = started.elapsed().as_micros() as u64;
        if watch.as_ref().is_some_and(|w| w.cut_short()) && answer.is_err() {
            return Err(Probe::Legacy(ProbeAnswer::SilentWhileTalking {
                after_s: super::probe_wait::AFTER_LIFE.as_secs(),
            }));
        }
        drop(watch);
        let (result, _seq) = answer.map_err(|e| match e {
            // Without the method: the fallback's words name `server/discover` once.
            e if auto && is_legacy_answer(&e) => Probe::Legacy(ProbeAnswer::from(&e)),
            e => Probe::Failed(e),
        })?;
        // A result without `supportedVersions` is not a DiscoverResult: some legacy servers
        // answer any method they do not know with an empty result.
        if auto && !result.get("supportedVersions").is_some_and(Value::is_array) {
            return Err(Probe::Legacy(ProbeAnswer::NotDiscoverResult));
        }
        let supported: Vec<String> = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let mut warnings = Vec::new();
        let current = s.modern_version().unwrap_or_default();
        let version = if supported.contains(&current) {
            current
        } else if let Some(v) = pick_modern_version(&json!(supported)) {
            s.speak(Some(&v));
            v
        } else if auto && pick_legacy_version(&json!(supported)).is_some() {
            return Err(Probe::Legacy(ProbeAnswer::OnlyLegacyVersions {
                versions: supported.clone(),
            }));
        } else {
            let warning = Problem::NoVersionInCommon {
                offered: supported.clone(),
                using: current.clone(),
            };
            let _ = s.events.send(Event::Warning(warning.clone()));
            warnings.push(warning);
            current
        };
        // The spec puts serverInfo in the result's `_meta`; early servers put it beside.
        let server_info = result
            .pointer(&format!(
                "/_meta/{}",
                meta_key::SERVER_INFO.replace('/', "~1")
            ))
            .or_else(|| result.get("serverInfo"))
            .cloned()
            .unwrap_or(Value::Null);
        let capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
        let identity = ServerIdentity {
            era: Era::Modern,
            era_reason: reason,
            supported_versions: supported,
            protocol_version: version.clone(),
            info: crate::vocabulary::views::server::ServerInfoView::read(&server_info),
            offers: crate::vocabulary::views::server::CapabilitiesView::read(&capabilities),
            capabilities,
            server_info,
            instructions: result
                .get("instructions")
                .and_then(Value::as_str)
                .map(str::to_string),
            warnings,
            latency_us,
            transport: s.transport.name().await,
        };
        *s.lock_identity() = Some(identity.clone());
        s.set_state(SessionState::Ready {
            protocol_version: version,
        });
        Ok(identity)
    }

    /// Modern era: adds the request metadata every request carries to `params`, for a request
    /// built by hand (a raw send: `check` asks its questions this way). Nothing in the legacy
    /// era.
    pub fn stamp_meta(&self, params: &mut Option<Value>) {
        self.shared.stamp(params);
    }

    /// The era the session speaks, once known.
    pub fn era(&self) -> Option<Era> {
        self.identity().map(|i| i.era)
    }

    /// Modern era: the log level every request asks for from now on (None: no log messages,
    /// the spec's default).
    pub fn set_request_log_level(&self, level: Option<&str>) {
        self.shared.set_request_log_level(level);
    }

    /// Modern era: the tools Periscope refuses to call (over HTTP, broken `x-mcp-header`
    /// annotations), with the reason, as of the last `tools/list`.
    pub fn refused_tools(&self) -> Vec<(String, HeaderAnnotationError)> {
        let mut refused: Vec<_> = self
            .shared
            .lock_tool_headers()
            .iter()
            .filter_map(|(name, h)| h.as_ref().err().map(|e| (name.clone(), e.clone())))
            .collect();
        refused.sort_by(|a, b| a.0.cmp(&b.0));
        refused
    }

    /// Answers an `input_required` result's `inputRequests` through the host (the same panels
    /// and flags as the legacy era's server requests) and returns the params for the retry:
    /// the original ones, the answers, and the server's `requestState` unchanged.
    pub(crate) async fn answer_inputs(
        &self,
        original: Option<&Value>,
        result: &Value,
        seq: u64,
    ) -> Option<Value> {
        let mut params = match original {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        params.remove("inputResponses");
        params.remove("requestState");
        if let Some(Value::Object(requests)) = result.get("inputRequests") {
            let mut responses = Map::new();
            for (key, request) in requests {
                let req = ServerRequest {
                    id: RequestId::String(format!("input-{seq}-{key}")),
                    method: request
                        .get("method")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    params: request.get("params").cloned(),
                };
                let method = req.method.clone();
                match self.shared.clone().result_for(req, seq).await {
                    Ok(answer) => {
                        responses.insert(key.clone(), answer);
                    }
                    // No way to say "refused" in inputResponses: the key is left out, and the
                    // server decides (it may ask again).
                    Err(error) => {
                        let _ = self
                            .shared
                            .events
                            .send(Event::Warning(Problem::InputNotGiven {
                                key: key.clone(),
                                method: method.clone(),
                                code: error.code,
                                code_name: crate::vocabulary::problem::code_name(error.code),
                            }));
                    }
                }
            }
            params.insert("inputResponses".into(), Value::Object(responses));
        }
        if let Some(state) = result.get("requestState") {
            params.insert("requestState".into(), state.clone());
        }
        Some(Value::Object(params))
    }
}

/// What the auto probe learned besides a discover result.
#[derive(Debug)]
enum Probe {
    /// The server is legacy: fall back to `initialize`. The text is what `server/discover` got.
    Legacy(ProbeAnswer),
    Failed(RequestError),
}

impl From<Probe> for RequestError {
    fn from(p: Probe) -> RequestError {
        match p {
            Probe::Failed(e) => e,
            Probe::Legacy(answer) => RequestError::Protocol {
                method: names::SERVER_DISCOVER.into(),
                breach: crate::vocabulary::breach::Breach::Other {
                    detail: format!("{answer}: the server does not speak the modern era"),
                },
            },
        }
    }
}

/// Whether a failed `server/discover` says the server is legacy: any error that is not a
/// modern one, a refusal over HTTP without one, or no answer in time. A server that went away
/// or a send that failed says nothing about the era.
fn is_legacy_answer(e: &RequestError) -> bool {
    match e {
        RequestError::Rpc { error, .. } => !era::is_modern_error(error.code),
        RequestError::TimedOut { .. }
        | RequestError::Transport { .. }
        | RequestError::StreamBroke { .. }
        | RequestError::Protocol { .. } => true,
        _ => false,
    }
}

impl Shared {
    /// Switches the wire to the modern era with `version`, or back to legacy (`None`).
    pub(super) fn speak(&self, version: Option<&str>) {
        *self.modern.lock().unwrap_or_else(|p| p.into_inner()) = version.map(str::to_string);
        self.transport.speak_modern(version);
    }

    pub(super) fn modern_version(&self) -> Option<String> {
        self.modern
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub(super) fn lock_cache(&self) -> std::sync::MutexGuard<'_, super::cache::ResultCache> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_tool_headers(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, super::ToolHeaders>> {
        self.tool_headers.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Modern era: adds the request metadata to a request's params.
    pub(super) fn stamp(&self, params: &mut Option<Value>) {
        if let Some(version) = self.modern_version() {
            let level = self
                .log_level
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone();
            era::stamp_request_meta(
                params,
                &version,
                &self.options.capabilities,
                &self.options.client_info,
                level.as_deref(),
            );
        }
    }

    fn set_request_log_level(&self, level: Option<&str>) {
        *self.log_level.lock().unwrap_or_else(|p| p.into_inner()) = level.map(str::to_string);
    }

    /// Modern era over HTTP (other transports have no headers to mirror): keeps each listed
    /// tool's `x-mcp-header` bindings, or why it is refused.
    pub(super) async fn learn_tools(&self, result: &Value) {
        let Some(tools) = result.get("tools").and_then(Value::as_array) else {
            return;
        };
        if self.transport.name().await == TransportKind::Stdio {
            return;
        }
        let mut known = self.lock_tool_headers();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
            let bindings = request_headers::header_bindings(schema);
            if let Err(reason) = &bindings {
                let _ = self.events.send(Event::Warning(Problem::ToolRefused {
                    tool: name.to_string(),
                    why: reason.clone(),
                }));
            }
            known.insert(name.to_string(), bindings);
        }
    }

    /// [`Shared::refusal`] as the error a request that may not go ends with.
    pub(super) async fn refuse(
        &self,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(), super::RequestError> {
        match self.refusal(method, params).await {
            Some(refusal) => Err(super::RequestError::Refused {
                method: method.into(),
                refusal,
            }),
            None => Ok(()),
        }
    }

    /// Why a request may not go to this server as built, if it may not: a removed method, or
    /// (over HTTP) a tool with broken header annotations.
    pub(super) async fn refusal(
        &self,
        method: &str,
        params: Option<&Value>,
    ) -> Option<ModernRefusal> {
        self.modern_version()?;
        if let Some(replaced_by) = crate::vocabulary::refusal::ModernReplacement::of(method) {
            return Some(ModernRefusal::RemovedInModern { replaced_by });
        }
        if method != names::TOOLS_CALL || self.transport.name().await == TransportKind::Stdio {
            return None;
        }
        let tool = params?.get("name")?.as_str()?;
        match self.lock_tool_headers().get(tool) {
            Some(Err(reason)) => Some(ModernRefusal::HeaderRule {
                tool: tool.to_string(),
                why: reason.clone(),
            }),
            _ => None,
        }
    }

    /// Modern era: the headers that mirror an outgoing frame's body (none in the legacy era,
    /// and none for a frame that is not a JSON-RPC request or notification).
    pub(super) fn mirror_headers(&self, frame: &Frame) -> MirrorHeaders {
        if self.modern_version().is_none() {
            return Vec::new();
        }
        let method = match &frame.verdict {
            Verdict::Request { method, .. } | Verdict::Notification { method } => method.clone(),
            _ => return Vec::new(),
        };
        let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
            return Vec::new();
        };
        let params = message.get("params");
        let mut headers = request_headers::standard_headers(&method, params);
        if method == names::TOOLS_CALL
            && let Some(tool) = params.and_then(|p| p.get("name")).and_then(Value::as_str)
            && let Some(Ok(bindings)) = self.lock_tool_headers().get(tool)
        {
            let arguments = params
                .and_then(|p| p.get("arguments"))
                .unwrap_or(&Value::Null);
            headers.extend(request_headers::param_headers(bindings, arguments));
        }
        headers
    }
}

/// What the request path does with a modern result: give it to the caller, or answer the
/// server's questions and ask again.
pub(super) fn needs_input(method: &str, result: &Value) -> bool {
    era::may_require_input(method) && result_kind(result) == ResultKind::InputRequired
}
