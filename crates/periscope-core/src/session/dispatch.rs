//! Acting on what the server sent, after the transport recorded it: pairing responses,
//! delivering notifications, and answering the server's requests.

use std::sync::{Arc, Weak};

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::handler::{ServerRequest, ServerRequestKind};
use super::{Finished, Reply, RpcError, Shared};
use crate::answering::form_schema::check_schema;
use crate::event::{Event, RequestOutcome, ServerNotification};
use crate::record::Flag;
use crate::transport::Inbound;
use crate::vocabulary::Problem;
use crate::vocabulary::method::names;
use crate::vocabulary::refusal::ServerRequestRefusal;
use crate::wire::{self, Arrived, Envelope, Frame, ParamsAt, RequestId, Verdict, error_code};

pub(super) async fn run(shared: Weak<Shared>, mut inbound: mpsc::Receiver<Inbound>) {
    while let Some(item) = inbound.recv().await {
        // The session was dropped: the record is complete, nobody is listening.
        let Some(s) = shared.upgrade() else { return };
        match item {
            Inbound::Frame(frame) => on_frame(&s, &frame, ParamsAt::Unread),
            Inbound::Frames(frames) => {
                for Arrived { frame, params } in frames {
                    on_frame(&s, &frame, params);
                }
            }
            Inbound::Undeliverable { ids, why } => {
                for id in ids {
                    let pending = s.lock_calls().pending.remove(&id);
                    if let Some(p) = pending {
                        p.end_unanswered(id, &s.events, Reply::Undeliverable(why.clone()));
                    }
                }
            }
            Inbound::Closed(report) => {
                s.on_closed(report);
                return;
            }
        }
    }
}

/// Acts on one recorded frame of the server's (`params`: where classifying found them).
fn on_frame(s: &Arc<Shared>, frame: &Arc<Frame>, params: ParamsAt) {
    match &frame.verdict {
        // A notification, the bulk of a flood: acted on from its raw params.
        Verdict::Notification { .. } => s.on_notification_frame(frame, params),
        // Malformed: recorded, classified and flagged; a client does not act on it.
        Verdict::NotUtf8 { .. } | Verdict::NotJson { .. } | Verdict::NotJsonRpc { .. } => {}
        // A lane's answer, told by its id alone: the lane reads what it needs (lane.rs).
        Verdict::Response {
            id: Some(RequestId::Number(n)),
            ..
        } if *n >= super::LANE_FIRST_ID => s.lane.take(*n, frame, &s.traffic),
        verdict => {
            // The bytes parsed when the frame was classified; read again, whole, here.
            let Ok(value) = serde_json::from_slice::<Value>(&frame.bytes) else {
                return;
            };
            match (verdict, value) {
                (Verdict::Batch { items }, Value::Array(values)) => {
                    let mut requests = Vec::new();
                    for (verdict, value) in items.iter().zip(values) {
                        if let Some(req) = s.on_message(frame.seq, verdict, value) {
                            requests.push(req);
                        }
                    }
                    if !requests.is_empty() {
                        // Requests that came in a batch are answered in one batch.
                        let s2 = s.clone();
                        let seq = frame.seq;
                        tokio::spawn(async move {
                            let mut answers = Vec::new();
                            for req in requests {
                                if let Some(refused) = s2.refuse_over_limit(&req, seq) {
                                    answers.push(refused);
                                } else if let Some(answer) = s2.clone().answer(req, seq).await {
                                    answers.push(answer);
                                }
                            }
                            if !answers.is_empty() {
                                s2.send_answer(Value::Array(answers)).await;
                            }
                        });
                    }
                }
                (verdict, value) => {
                    if let Some(req) = s.on_message(frame.seq, verdict, value) {
                        let s2 = s.clone();
                        if let Some(refused) = s.refuse_over_limit(&req, frame.seq) {
                            tokio::spawn(async move { s2.send_answer(refused).await });
                            return;
                        }
                        let id = req.id.clone();
                        let seq = frame.seq;
                        let task = tokio::spawn(async move {
                            if let Some(answer) = s2.clone().answer(req, seq).await {
                                s2.send_answer(answer).await;
                            }
                        });
                        s.lock_calls().serving.insert(id, task.abort_handle());
                    }
                }
            }
        }
    }
}

impl Shared {
    /// Handles one message; returns a server request that needs answering.
    fn on_message(&self, seq: u64, verdict: &Verdict, value: Value) -> Option<ServerRequest> {
        match verdict {
            Verdict::Response { id, .. } => {
                self.on_response(seq, id.as_ref(), value);
                None
            }
            Verdict::Notification { method } => {
                // Modern era: a listen stream's acknowledgement, or a tag naming no stream.
                self.on_tagged_notification(seq, method, value.get("params"));
                self.on_notification(ServerNotification::from_message(
                    method,
                    value.get("params"),
                ));
                None
            }
            Verdict::Request { id, method } => {
                let params = value.get("params").cloned();
                Some(ServerRequest {
                    id: id.clone(),
                    method: method.clone(),
                    params,
                })
            }
            // Malformed: flagged by its verdict; a client does not answer it.
            _ => None,
        }
    }

    fn on_response(&self, seq: u64, id: Option<&RequestId>, message: Value) {
        let mut calls = self.lock_calls();
        let Some(id) = id else {
            drop(calls);
            self.traffic.flag(seq, Flag::UnknownResponseId { id: None });
            return;
        };
        match calls.pending.remove(id) {
            Some(p) => {
                if let Some(token) = &p.progress_token {
                    calls.progress_routes.remove(token);
                }
                calls.finished.insert(id.clone(), Finished::Answered);
                drop(calls);
                let outcome = if message.get("error").is_some() {
                    RequestOutcome::Error
                } else {
                    RequestOutcome::Result
                };
                let _ = self.events.send(Event::RequestFinished {
                    id: id.clone(),
                    method: p.method,
                    outcome,
                    latency_us: p.sent_at.elapsed().as_micros() as u64,
                });
                let _ = p.reply.send(Reply::Response { message, seq });
            }
            None => {
                let flag = match calls.finished.get(id) {
                    Some(Finished::Answered) => Flag::DuplicateResponse { id: id.clone() },
                    Some(Finished::GaveUp(g)) => Flag::LateResponse {
                        id: id.clone(),
                        gave_up: *g,
                    },
                    None => Flag::UnknownResponseId {
                        id: Some(id.clone()),
                    },
                };
                drop(calls);
                self.traffic.flag(seq, flag);
            }
        }
    }

    /// A frame that is one notification, acted on from its params' raw text: no JSON tree is
    /// built for a log message (the bulk of a flood), nor for params that cannot hold a
    /// subscription tag.
    fn on_notification_frame(&self, frame: &Frame, params: ParamsAt) {
        let Verdict::Notification { method } = &frame.verdict else {
            return;
        };
        // Read where classifying found them; a frame recorded on its own is read again here.
        let params = params.text(&frame.bytes).or_else(|| {
            std::str::from_utf8(&frame.bytes)
                .ok()
                .and_then(Envelope::read)
                .map(|envelope| envelope.params())
        });
        let Some(params) = params else {
            // A member given twice, say: the parsed JSON decides, as it did the verdict.
            if let Ok(value) = serde_json::from_slice::<Value>(&frame.bytes) {
                self.on_message(frame.seq, &frame.verdict, value);
            }
            return;
        };
        // A `_meta` key is written `"_meta"`, or with an escape: params with neither hold none.
        if let Some(raw) = params
            && (raw.contains("_meta") || raw.contains('\\'))
            && let Ok(params) = serde_json::from_str::<Value>(raw)
        {
            self.on_tagged_notification(frame.seq, method, Some(&params));
        }
        // A log message is only there to be shown: with no one to show it to, it is not read.
        if !self.options.notification_events && method == names::MESSAGE {
            return;
        }
        self.on_notification(ServerNotification::from_raw_params(method, params));
    }

    fn on_notification(&self, typed: ServerNotification) {
        match &typed {
            ServerNotification::Progress(progress) => {
                let calls = self.lock_calls();
                let route = calls.progress_routes.get(&progress.token.to_string());
                if let Some(p) = route.and_then(|id| calls.pending.get(id)) {
                    p.progress_seen.notify_one();
                    if let Some(tx) = &p.progress {
                        // Full: the caller is behind; it sees the next one (the record has all).
                        let _ = tx.try_send(progress.clone());
                    }
                }
            }
            ServerNotification::Cancelled {
                request_id: Some(id),
                ..
            } => {
                // The server withdrew a request of its own: stop answering it.
                if let Some(task) = self.lock_calls().serving.remove(id) {
                    task.abort();
                }
            }
            // A change makes cached results stale before anyone hears of it (a host that
            // re-lists on the notification must get the new list).
            ServerNotification::ToolsListChanged => {
                self.lock_cache().list_changed(names::TOOLS_LIST)
            }
            ServerNotification::PromptsListChanged => {
                self.lock_cache().list_changed(names::PROMPTS_LIST)
            }
            ServerNotification::ResourcesListChanged => {
                let mut cache = self.lock_cache();
                cache.list_changed(names::RESOURCES_LIST);
                cache.list_changed(names::RESOURCE_TEMPLATES_LIST);
            }
            ServerNotification::ResourceUpdated { uri } => self.lock_cache().resource_updated(uri),
            _ => {}
        }
        if self.options.notification_events {
            let _ = self.events.send(Event::Notification(Arc::new(typed)));
        }
    }

    /// The error response for a server request over the limit of requests being answered at
    /// once (a flood of elicitations must not pile up dialogs or memory), flagged on its frame;
    /// `None` when there is room.
    fn refuse_over_limit(&self, req: &ServerRequest, seq: u64) -> Option<Value> {
        let limit = self.options.limits.max_server_requests_in_flight;
        if self.lock_calls().serving.len() < limit {
            return None;
        }
        self.traffic.flag(
            seq,
            Flag::TooManyServerRequests {
                limit: limit as u64,
            },
        );
        let error = RpcError::new(
            error_code::INTERNAL_ERROR,
            format!(
                "too many requests in flight: Periscope is already answering {limit} requests from this server"
            ),
        );
        let _ = self
            .events
            .send(Event::Warning(Problem::ServerRequestRefused {
                method: req.method.clone(),
                id: req.id.to_string(),
                why: ServerRequestRefusal::OverLimit {
                    limit: limit as u64,
                },
            }));
        Some(wire::error_response(&req.id, error))
    }

    /// Produces the response message for a server request (carried by frame `seq`), or `None`
    /// if it was withdrawn.
    async fn answer(self: Arc<Self>, req: ServerRequest, seq: u64) -> Option<Value> {
        let id = req.id.clone();
        let result = self.clone().result_for(req, seq).await;
        self.lock_calls().serving.remove(&id);
        Some(match result {
            Ok(result) => wire::result_response(&id, result),
            Err(error) => wire::error_response(&id, error),
        })
    }

    /// What the host answers to a server request (a legacy-era request frame `seq`, or a
    /// modern `input_required` result's input request): refused as the spec says, or handed
    /// to the host, with the capability checks either way.
    pub(super) async fn result_for(
        self: Arc<Self>,
        req: ServerRequest,
        seq: u64,
    ) -> Result<Value, RpcError> {
        match req.kind() {
            _ if req.method == names::PING => Ok(json!({})),
            ServerRequestKind::Other => Err(RpcError::method_not_found(&req.method)),
            kind => {
                let capability = match kind {
                    ServerRequestKind::Sampling => "sampling",
                    ServerRequestKind::Roots => "roots",
                    _ => "elicitation",
                };
                let caps = &self.options.capabilities;
                let declared = match kind {
                    ServerRequestKind::Elicitation { url: true } => {
                        caps.pointer("/elicitation/url").is_some()
                    }
                    _ => caps.get(capability).is_some(),
                };
                if !declared {
                    self.traffic.flag(
                        seq,
                        Flag::UndeclaredCapability {
                            method: req.method.clone(),
                        },
                    );
                }
                match refusal(kind, declared, &req) {
                    // The spec's answer (INVALID_PARAMS), and the user is told why.
                    Some(why) => {
                        let error = RpcError::new(error_code::INVALID_PARAMS, why.to_string());
                        let _ = self
                            .events
                            .send(Event::Warning(Problem::ServerRequestRefused {
                                method: req.method.clone(),
                                id: req.id.to_string(),
                                why,
                            }));
                        Err(error)
                    }
                    // Undeclared sampling or roots is shown (flag), and still handed to the
                    // host: an inspector lets the user decide.
                    None => {
                        let _ = self.events.send(Event::HostInputNeeded {
                            id: req.id.clone(),
                            method: req.method.clone(),
                            params: req.params.clone(),
                        });
                        self.options.handler.handle(req).await
                    }
                }
            }
        }
    }

    async fn send_answer(&self, message: Value) {
        let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
        // If the server is gone there is nobody to answer; the record shows what happened.
        // Nobody waits on an answer (this task is its own), so it may wait for a server that
        // reads its input late, e.g. only after it has sent all its requests; as long as the
        // longest request may take.
        let _ = self
            .send_frame(bytes, false, self.options.max_request_time)
            .await;
    }
}

/// Elicitation the spec says to refuse with INVALID_PARAMS: a mode the client did not declare,
/// or a form schema outside the restricted subset. Its English is the error's message.
fn refusal(
    kind: ServerRequestKind,
    declared: bool,
    req: &ServerRequest,
) -> Option<ServerRequestRefusal> {
    let ServerRequestKind::Elicitation { url } = kind else {
        return None;
    };
    let mode = if url { "url" } else { "form" };
    if !declared {
        return Some(ServerRequestRefusal::ModeNotDeclared { mode: mode.into() });
    }
    if let Some(other) = req
        .param_str("mode")
        .filter(|m| *m != "form" && *m != "url")
    {
        return Some(ServerRequestRefusal::UnknownMode { mode: other.into() });
    }
    if url {
        let missing: Vec<String> = ["url", "elicitationId", "message"]
            .into_iter()
            .filter(|k| req.param_str(k).is_none())
            .map(String::from)
            .collect();
        return (!missing.is_empty())
            .then_some(ServerRequestRefusal::UrlElicitationWithout { missing });
    }
    match req.params.as_ref().and_then(|p| p.get("requestedSchema")) {
        None => Some(ServerRequestRefusal::NoRequestedSchema),
        Some(schema) => check_schema(schema)
            .err()
            .map(|detail| ServerRequestRefusal::SchemaOutsideFormSubset { detail }),
    }
}
