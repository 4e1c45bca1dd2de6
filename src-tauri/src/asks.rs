//! How the app answers the server's requests: roots from the user's list, sampling by a reply
//! rule when the user set one, and everything else by asking the user (a panel in the UI) and
//! waiting for the answer. Every decision goes into the session's record.

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use async_trait::async_trait;
use periscope_core::answering::{
    Answer, Ask, HostSettings, PendingAsk, analyze_url, browser_url, roots_result,
};
use periscope_core::record::{Decision, DecisionKind};
use periscope_core::session::{HostHandler, RpcError, ServerRequest, ServerRequestKind};
use periscope_core::traffic::{Traffic, wall_now_us};
use periscope_core::view::{AppEvent, AskOutcome};
use periscope_core::views::{ElicitationView, SamplingView};
use serde_json::Value;
use tokio::sync::oneshot;

use crate::browser::Opener;
use crate::events::EventHub;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

struct Waiting {
    ask: PendingAsk,
    answer: oneshot::Sender<Answer>,
}

/// The requests waiting for the user, across servers, and the per-server host settings.
#[derive(Default)]
pub struct Asks {
    next: AtomicU64,
    waiting: Mutex<HashMap<u64, Waiting>>,
    settings: Mutex<HashMap<String, HostSettings>>,
    opener: OnceLock<Opener>,
    /// The configured model providers, for sampling drafts and the auto-approve rule.
    models: OnceLock<Arc<crate::models::Models>>,
    /// Asks the user approved with a model's draft: which model drafted it (for the decision).
    drafted: Mutex<HashMap<u64, String>>,
}

impl Asks {
    pub fn set_opener(&self, opener: Opener) {
        let _ = self.opener.set(opener);
    }

    pub fn set_models(&self, models: Arc<crate::models::Models>) {
        let _ = self.models.set(models);
    }

    pub fn models(&self) -> Result<&Arc<crate::models::Models>, Problem> {
        self.models.get().ok_or(Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::ModelSettings,
            detail: None,
        })
    }

    /// The pending ask `ask_id`, if it still waits.
    pub fn pending_ask(&self, ask_id: u64) -> Option<PendingAsk> {
        lock(&self.waiting).get(&ask_id).map(|w| w.ask.clone())
    }

    /// Notes that a model (`model`, with its provider) drafted the answer to `ask_id`.
    pub fn note_draft(&self, ask_id: u64, model: String) {
        lock(&self.drafted).insert(ask_id, model);
    }

    fn take_draft(&self, ask_id: u64) -> Option<String> {
        lock(&self.drafted).remove(&ask_id)
    }

    /// Opens `url` after the user's click: http(s) only, as the URL parser writes it back out.
    pub fn open(&self, url: &str) -> Result<(), Problem> {
        let url = browser_url(url).map_err(|_| Problem::UrlRefused {
            url: url.into(),
            reason: periscope_core::vocabulary::problem::UrlRefusal::NotOpenable,
        })?;
        let opener = self.opener.get().ok_or(Problem::Unavailable {
            what: periscope_core::vocabulary::problem::Facility::BrowserOpener,
            detail: None,
        })?;
        opener(&url)
    }

    pub fn pending(&self) -> Vec<PendingAsk> {
        let mut asks: Vec<PendingAsk> = lock(&self.waiting)
            .values()
            .map(|w| w.ask.clone())
            .collect();
        asks.sort_by_key(|a| a.ask_id);
        asks
    }

    /// Hands the user's answer to the waiting request.
    pub fn answer(&self, ask_id: u64, answer: Answer) -> Result<(), Problem> {
        let waiting = lock(&self.waiting)
            .remove(&ask_id)
            .ok_or(Problem::NoLongerWaiting {
                what: periscope_core::vocabulary::problem::Waiting::ServerRequest,
            })?;
        waiting
            .answer
            .send(answer)
            .map_err(|_| Problem::NoLongerWaiting {
                what: periscope_core::vocabulary::problem::Waiting::ServerRequest,
            })
    }

    /// Drops what a server's closing connection leaves waiting; each wait ends at once.
    pub fn forget_server(&self, server_id: &str) {
        lock(&self.waiting).retain(|_, w| w.ask.server_id != server_id);
    }

    pub fn settings(&self, server_id: &str) -> HostSettings {
        lock(&self.settings)
            .get(server_id)
            .cloned()
            .unwrap_or_default()
    }

    pub fn set_settings(&self, server_id: &str, settings: HostSettings) {
        lock(&self.settings).insert(server_id.into(), settings);
    }

    pub fn all_settings(&self) -> HashMap<String, HostSettings> {
        lock(&self.settings).clone()
    }

    pub fn set_all_settings(&self, all: HashMap<String, HostSettings>) {
        *lock(&self.settings) = all;
    }
}

/// Answers one connection's server requests (its session's handler).
pub struct AppAnswerer {
    pub asks: Arc<Asks>,
    pub hub: EventHub,
    pub server_id: String,
    pub server_name: String,
    /// The MCP server's host, for remote servers (a URL elsewhere is worth a warning).
    pub server_host: Option<String>,
    /// Set once the session exists; decisions are recorded in its traffic.
    pub traffic: OnceLock<Arc<Traffic>>,
}

impl AppAnswerer {
    fn decide(&self, request: &ServerRequest, decision: DecisionKind, detail: Option<String>) {
        let decision = Decision {
            wall_us: wall_now_us(),
            request_id: Some(request.id.clone()),
            method: request.method.clone(),
            decision,
            detail,
            elicitation_id: request
                .param_str("elicitationId")
                .filter(|_| request.kind() == ServerRequestKind::Elicitation { url: true })
                .map(str::to_string),
        };
        if let Some(traffic) = self.traffic.get() {
            traffic.decide(decision.clone());
        }
        self.hub.send(AppEvent::Decision {
            server_id: self.server_id.clone(),
            decision,
        });
    }

    async fn ask_user(&self, request: &ServerRequest, ask: Ask) -> (u64, Option<Answer>) {
        self.asks
            .ask_numbered(
                &self.hub,
                &self.server_id,
                &self.server_name,
                Some(request.id.clone()),
                ask,
            )
            .await
    }
}

impl AppAnswerer {
    /// With the server's "approve automatically" model rule, the model's answer, sent without
    /// asking and recorded as such; None (the user is asked) without the rule, or when the
    /// model could not answer (said in a warning).
    async fn answer_by_model(&self, request: &ServerRequest, params: &Value) -> Option<Value> {
        let rule = self.asks.settings(&self.server_id).sampling_model?;
        if !rule.auto_approve {
            return None;
        }
        let models = self.asks.models().ok()?;
        let cancel = tokio_util::sync::CancellationToken::new();
        match crate::models::draft::draft(models, Some(&rule), params, |_| {}, &cancel).await {
            Ok(draft) => {
                self.decide(
                    request,
                    DecisionKind::AutoModelReply,
                    Some(format!(
                        "answered by {} ({}) without asking: \"approve automatically for this server\" is on",
                        draft.model, draft.provider.name
                    )),
                );
                Some(draft.result)
            }
            Err(e) => {
                self.hub.send(AppEvent::Warning {
                    server_id: self.server_id.clone(),
                    problem: Problem::AutoAnswerFailed { cause: Box::new(e) },
                });
                None
            }
        }
    }
}

impl Asks {
    /// Shows `ask` to the user and waits for the answer; None when the wait ends without one
    /// (the connection closed).
    pub async fn ask(
        &self,
        hub: &EventHub,
        server_id: &str,
        server_name: &str,
        request_id: Option<periscope_core::wire::RequestId>,
        ask: Ask,
    ) -> Option<Answer> {
        self.ask_numbered(hub, server_id, server_name, request_id, ask)
            .await
            .1
    }

    /// Like [`Asks::ask`], with the ask's id (to find what was noted about it meanwhile).
    pub async fn ask_numbered(
        &self,
        hub: &EventHub,
        server_id: &str,
        server_name: &str,
        request_id: Option<periscope_core::wire::RequestId>,
        ask: Ask,
    ) -> (u64, Option<Answer>) {
        let ask_id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let pending = PendingAsk {
            ask_id,
            server_id: server_id.into(),
            server_name: server_name.into(),
            request_id,
            received_wall_us: wall_now_us(),
            ask,
        };
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(
            ask_id,
            Waiting {
                ask: pending.clone(),
                answer: tx,
            },
        );
        hub.send(AppEvent::Ask { ask: pending });
        // Dropped with the connection: the ask must not outlive it.
        let mut guard = AskGuard {
            asks: self,
            hub,
            server_id,
            ask_id,
            outcome: AskOutcome::Gone,
        };
        let answer = rx.await.ok();
        if answer.is_some() {
            guard.outcome = AskOutcome::Answered;
        }
        (ask_id, answer)
    }
}

/// Removes an ask from the waiting list however its wait ends (answered, or the request
/// future dropped when the connection closed) and tells the UI.
struct AskGuard<'a> {
    asks: &'a Asks,
    hub: &'a EventHub,
    server_id: &'a str,
    ask_id: u64,
    outcome: AskOutcome,
}

impl Drop for AskGuard<'_> {
    fn drop(&mut self) {
        lock(&self.asks.waiting).remove(&self.ask_id);
        // An answered ask's draft note is taken by its handler (for the decision).
        if matches!(self.outcome, AskOutcome::Gone) {
            lock(&self.asks.drafted).remove(&self.ask_id);
        }
        self.hub.send(AppEvent::AskClosed {
            server_id: self.server_id.into(),
            ask_id: self.ask_id,
            outcome: self.outcome,
        });
    }
}

#[async_trait]
impl HostHandler for AppAnswerer {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        let params = request.params.clone().unwrap_or(Value::Null);
        let text = |key: &str| {
            params
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let ask = match request.kind() {
            ServerRequestKind::Roots => {
                let roots = self.asks.settings(&self.server_id).roots;
                return Ok(roots_result(&roots));
            }
            ServerRequestKind::Other => {
                return Err(RpcError::method_not_found(&request.method));
            }
            ServerRequestKind::Sampling => {
                if let Some(rule) = self.asks.settings(&self.server_id).sampling_rule {
                    self.decide(
                        &request,
                        DecisionKind::AutoReply,
                        Some(format!("reply rule: always answer {:?}", rule.text)),
                    );
                    return Ok(rule.result());
                }
                if let Some(result) = self.answer_by_model(&request, &params).await {
                    return Ok(result);
                }
                Ask::Sampling {
                    view: Box::new(SamplingView::read(&params)),
                    params,
                }
            }
            ServerRequestKind::Elicitation { url: false } => Ask::ElicitForm {
                message: text("message"),
                view: Box::new(ElicitationView::read(&params)),
                schema: params
                    .get("requestedSchema")
                    .cloned()
                    .unwrap_or(Value::Null),
            },
            ServerRequestKind::Elicitation { url: true } => {
                let url = text("url");
                Ask::ElicitUrl {
                    message: text("message"),
                    elicitation_id: text("elicitationId"),
                    analysis: analyze_url(&url, self.server_host.as_deref()),
                    url,
                }
            }
        };
        let url = match &ask {
            Ask::ElicitUrl { url, .. } => Some(url.clone()),
            _ => None,
        };
        let (ask_id, answer) = self.ask_user(&request, ask).await;
        let Some(answer) = answer else {
            // The app is closing the connection; nobody will answer.
            return Err(RpcError::new(
                periscope_core::wire::error_code::INTERNAL_ERROR,
                "the client closed before the user answered",
            ));
        };
        let (response, word) = answer.to_response();
        if let Answer::UrlConsent {
            decision: periscope_core::answering::UrlDecision::Open,
        } = answer
        {
            let url = url.clone().unwrap_or_default();
            if let Err(e) = self.asks.open(&url) {
                self.decide(
                    &request,
                    DecisionKind::OpenFailed,
                    Some(format!("{url}: {e}")),
                );
                self.hub.send(AppEvent::Warning {
                    server_id: self.server_id.clone(),
                    problem: e.clone(),
                });
                return response;
            }
        }
        match (&answer, self.asks.take_draft(ask_id)) {
            (Answer::SamplingReply { result }, Some(drafted_by)) => {
                let sent = result.get("model").and_then(Value::as_str).unwrap_or("");
                self.decide(
                    &request,
                    DecisionKind::ModelReply,
                    Some(format!(
                        "drafted by {drafted_by}, approved by the user (sent as model {sent:?})"
                    )),
                );
            }
            _ => self.decide(&request, word, url),
        }
        response
    }
}
