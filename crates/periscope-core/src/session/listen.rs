//! The modern era's listen stream (`subscriptions/listen`, 2026-07-28): one long-lived request
//! with the kinds the host opts in to. Its notifications are tagged with the request's id
//! (`_meta["io.modelcontextprotocol/subscriptionId"]`) and delivered like any other (the
//! dispatcher); this file opens the stream, re-opens it with a new filter (cancelling the old
//! one) or after it broke (bounded, with backoff), tells the host where it is
//! ([`Event::Listen`]), and flags a notification tagged with an id that names no stream of ours.
//!
//! The request is not bound by the request timeout: it is meant to stay open. It does not keep
//! the session alive either: the stream's task holds the session weakly, and the session's end
//! (close, or drop) ends the stream.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot, watch};
use tokio_util::sync::CancellationToken;

use super::{Pending, Reply, RequestError, Session, Shared};
use crate::era::meta_key;
use crate::event::{Event, RequestOutcome};
use crate::record::{Flag, GaveUp};
use crate::subscription::{ListenFilter, ListenState};
use crate::transport::{SendError, TransportKind};
use crate::vocabulary::method::names;
use crate::wire::{self, RequestId};

const METHOD: &str = crate::subscription::LISTEN_METHOD;
const ACKNOWLEDGED: &str = names::SUBSCRIPTIONS_ACKNOWLEDGED;
/// Opens in a row without an acknowledgement before Periscope stops re-opening the stream.
pub const MAX_ATTEMPTS: u32 = 5;
/// The first wait before re-opening; it doubles on each failed attempt, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(8);
/// Listen ids Periscope cancelled and still recognises (an HTTP stream closes only when its
/// reader stops; a server may still send on it briefly). Bounded: the oldest are forgotten.
const RETIRED_KEPT: usize = 64;

/// A session's listen stream: what the host asked for and the stream running it.
pub(super) struct Listen {
    inner: Mutex<Inner>,
    state: watch::Sender<ListenState>,
}

impl Default for Listen {
    fn default() -> Listen {
        Listen {
            inner: Mutex::new(Inner::default()),
            state: watch::Sender::new(ListenState::Off),
        }
    }
}

#[derive(Default)]
struct Inner {
    filter: ListenFilter,
    /// Bumped by every [`Session::listen`]: a stream of an older generation is on its way out
    /// and changes nothing.
    generation: u64,
    /// Cancels the current generation's stream.
    stop: Option<CancellationToken>,
    /// The listen request in flight, if any (the current generation's).
    open: Option<RequestId>,
    /// Opens since the last acknowledgement.
    attempt: u32,
    /// What the server first agreed to in this generation: [`Session::listen`] answers with it
    /// even when the stream ended before the caller saw it open.
    first_ack: Option<ListenFilter>,
    /// The generation whose stream the state last described.
    state_generation: u64,
    retired: VecDeque<RequestId>,
}

impl Listen {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Session {
    /// Modern era: listens with `filter` from now on (an empty filter stops listening). A stream
    /// already open is cancelled and a new one opened with the new filter. Returns once the
    /// server acknowledged it, with the kinds it agreed to honour; an error says why it was not
    /// acknowledged (refused, broken, or no acknowledgement within the request timeout), while
    /// the stream, unless it gave up, keeps trying ([`Session::listen_state`] says where it is).
    pub async fn listen(&self, filter: ListenFilter) -> Result<ListenFilter, RequestError> {
        let s = &self.shared;
        if s.modern_version().is_none() {
            return Err(RequestError::Transport {
                method: METHOD.into(),
                reason: "subscriptions/listen is the 2026-07-28 era's; a legacy server sends list changes unasked, and resources/subscribe subscribes to a resource".into(),
                problem: None,
            });
        }
        let mut state = s.listen.state.subscribe();
        let (generation, stop) = {
            let mut inner = s.listen.lock();
            if let Some(old) = inner.stop.take() {
                old.cancel();
            }
            // The old stream's id is retired now, not when its task gets round to it: an
            // acknowledgement still coming for it must not open the new generation.
            if let Some(old) = inner.open.take() {
                inner.retired.push_back(old);
            }
            inner.generation += 1;
            inner.filter = filter.clone();
            inner.attempt = 0;
            inner.first_ack = None;
            if filter.is_empty() {
                inner.open = None;
                (inner.generation, None)
            } else {
                let stop = CancellationToken::new();
                inner.stop = Some(stop.clone());
                (inner.generation, Some(stop))
            }
        };
        let Some(stop) = stop else {
            s.set_listen_state(generation, ListenState::Off);
            return Ok(ListenFilter::default());
        };
        tokio::spawn(run(Arc::downgrade(s), generation, filter, stop));
        let settled = tokio::time::timeout(
            s.options.request_timeout,
            state.wait_for(|st| {
                !matches!(st, ListenState::Opening { .. } | ListenState::Off)
                    && s.listen.lock().state_generation == generation
            }),
        )
        .await;
        if let Some(acknowledged) = s.listen.lock().first_ack.clone() {
            return Ok(acknowledged);
        }
        let reason = match settled {
            Ok(Ok(st)) => st.describe(),
            Ok(Err(_)) => "the session ended".into(),
            Err(_) => {
                return Err(RequestError::TimedOut {
                    method: METHOD.into(),
                    after: s.options.request_timeout,
                });
            }
        };
        Err(RequestError::Transport {
            method: METHOD.into(),
            reason,
            problem: None,
        })
    }

    /// Stops listening (cancels the stream).
    pub async fn stop_listening(&self) -> Result<(), RequestError> {
        self.listen(ListenFilter::default()).await.map(|_| ())
    }

    /// What the host listens for (what [`Session::listen`] was last given).
    pub fn listen_filter(&self) -> ListenFilter {
        self.shared.listen.lock().filter.clone()
    }

    /// Where the listen stream is.
    pub fn listen_state(&self) -> ListenState {
        self.shared.listen.state.borrow().clone()
    }
}

impl Shared {
    fn set_listen_state(&self, generation: u64, state: ListenState) {
        {
            let mut inner = self.listen.lock();
            if inner.generation != generation {
                return; // an older stream on its way out
            }
            inner.state_generation = generation;
        }
        self.listen.state.send_replace(state.clone());
        let _ = self.events.send(Event::Listen(state));
    }

    /// A notification arrived (frame `seq`): if it is tagged with a subscription id, an
    /// acknowledgement of the current stream opens it, and an id that names no listen request
    /// of ours is flagged. The notification itself is delivered as any other.
    pub(super) fn on_tagged_notification(&self, seq: u64, method: &str, params: Option<&Value>) {
        let Some(tag) = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta_key::SUBSCRIPTION_ID))
        else {
            return;
        };
        let id = RequestId::from_value(tag);
        let mut inner = self.listen.lock();
        let current = id.is_some() && inner.open == id;
        if current && method == ACKNOWLEDGED {
            inner.attempt = 0;
            let (generation, requested) = (inner.generation, inner.filter.clone());
            drop(inner);
            let acknowledged = params
                .and_then(|p| p.get("notifications"))
                .map(ListenFilter::from_wire)
                .unwrap_or_default();
            if let Ok(mut inner) = self.listen.inner.lock()
                && inner.generation == generation
            {
                inner.first_ack.get_or_insert_with(|| acknowledged.clone());
            }
            let id = id.expect("current implies an id");
            self.set_listen_state(
                generation,
                ListenState::Open {
                    id,
                    requested,
                    acknowledged,
                },
            );
            return;
        }
        let known = current || id.as_ref().is_some_and(|id| inner.retired.contains(id));
        drop(inner);
        if !known {
            self.traffic.flag(
                seq,
                Flag::UnknownSubscriptionId {
                    id: tag.to_string(),
                },
            );
        }
    }

    fn retire(&self, id: &RequestId) {
        let mut inner = self.listen.lock();
        if inner.open.as_ref() == Some(id) {
            inner.open = None;
        }
        inner.retired.push_back(id.clone());
        while inner.retired.len() > RETIRED_KEPT {
            inner.retired.pop_front();
        }
    }
}

/// How one listen request ended.
enum End {
    /// The host changed the filter or stopped listening.
    Cancelled,
    /// The session is over: nothing to re-open.
    SessionOver,
    /// The server refused the request (a JSON-RPC error): trying again would not help.
    Refused(String),
    /// Ended without the client asking: re-open.
    Broke(String),
}

/// The stream of one generation: opens, waits, re-opens after a break, until cancelled, given
/// up, or the session is over.
async fn run(shared: Weak<Shared>, generation: u64, filter: ListenFilter, stop: CancellationToken) {
    loop {
        let Some(s) = shared.upgrade() else { return };
        let attempt = {
            let mut inner = s.listen.lock();
            if inner.generation != generation {
                return;
            }
            inner.attempt += 1;
            inner.attempt
        };
        drop(s);
        let end = open_once(&shared, generation, &filter, attempt, &stop).await;
        let Some(s) = shared.upgrade() else { return };
        let reason = match end {
            End::Cancelled => return,
            End::SessionOver => {
                s.set_listen_state(generation, ListenState::Off);
                return;
            }
            End::Refused(reason) => {
                s.set_listen_state(
                    generation,
                    ListenState::GaveUp {
                        reason,
                        attempts: attempt,
                    },
                );
                return;
            }
            End::Broke(reason) => reason,
        };
        let attempt = s.listen.lock().attempt;
        if attempt >= MAX_ATTEMPTS {
            s.set_listen_state(
                generation,
                ListenState::GaveUp {
                    reason,
                    attempts: attempt,
                },
            );
            return;
        }
        // Acknowledged streams reset the count: a stream that broke after working is re-opened
        // at once-ish; one that keeps failing waits longer each time.
        let wait = backoff(attempt);
        s.set_listen_state(
            generation,
            ListenState::Reopening {
                reason,
                retry_in_ms: wait.as_millis() as u64,
                attempt,
            },
        );
        drop(s);
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = stop.cancelled() => return,
        }
    }
}

/// The wait before re-opening after `attempt` opens without an acknowledgement (0: the stream
/// had been acknowledged).
fn backoff(attempt: u32) -> Duration {
    let doublings = attempt.saturating_sub(1).min(8);
    (FIRST_BACKOFF * 2u32.pow(doublings)).min(MAX_BACKOFF)
}

/// Sends one `subscriptions/listen` and waits, without a deadline but holding the session only
/// weakly, for how it ends.
async fn open_once(
    shared: &Weak<Shared>,
    generation: u64,
    filter: &ListenFilter,
    attempt: u32,
    stop: &CancellationToken,
) -> End {
    let Some(s) = shared.upgrade() else {
        return End::SessionOver;
    };
    let id = s.fresh_id();
    let (tx, rx) = oneshot::channel();
    s.lock_calls().pending.insert(
        id.clone(),
        Pending {
            method: METHOD.into(),
            sent_at: Instant::now(),
            reply: tx,
            progress: None,
            progress_seen: Arc::new(Notify::new()),
            progress_token: None,
        },
    );
    {
        let mut inner = s.listen.lock();
        if inner.generation != generation {
            drop(inner);
            s.forget(&id, None);
            return End::Cancelled;
        }
        inner.open = Some(id.clone());
    }
    s.set_listen_state(
        generation,
        ListenState::Opening {
            id: id.clone(),
            requested: filter.clone(),
            attempt,
        },
    );
    let mut params = Some(json!({"notifications": filter.to_wire()}));
    s.stamp(&mut params);
    let message = wire::request(&id, METHOD, params);
    let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
    // The patience bounds the send (over HTTP: until the response headers). The stream itself
    // may be silent for as long as nothing changes: the HTTP transport sets it no idle limit.
    let patience = s.options.request_timeout;
    if let Err(source) = s.send_authorized(bytes, patience).await {
        s.forget(&id, None);
        s.retire(&id);
        return match source {
            SendError::Closed => End::SessionOver,
            source => End::Broke(s.send_failed(METHOD, source).await.to_string()),
        };
    }
    drop(s);
    let reply = tokio::select! {
        reply = rx => reply,
        () = stop.cancelled() => {
            if let Some(s) = shared.upgrade() {
                cancel(&s, &id).await;
            }
            return End::Cancelled;
        }
    };
    let Some(s) = shared.upgrade() else {
        return End::SessionOver;
    };
    s.retire(&id);
    match reply {
        Ok(Reply::Response { message, .. }) => match message.get("error") {
            Some(error) => End::Refused(format!("the server refused it: {error}")),
            None => End::Broke("the server ended the stream".into()),
        },
        Ok(Reply::Undeliverable(why)) => End::Broke(why.to_string()),
        Ok(Reply::Closed(_)) | Err(_) => End::SessionOver,
    }
}

/// Ends a listen request the host no longer wants: over stdio with `notifications/cancelled`
/// (the spec's way there); over HTTP the stream's end is the cancellation.
async fn cancel(s: &Arc<Shared>, id: &RequestId) {
    let waited = s.forget(id, Some(GaveUp::Cancelled));
    s.retire(id);
    // HTTP: closing the stream ends the subscription (and its notifications).
    s.transport.abandon(id);
    if s.transport.name().await == TransportKind::Stdio {
        let message = wire::notification(
            names::CANCELLED,
            Some(json!({"requestId": id.to_value(), "reason": "the listen filter changed"})),
        );
        let bytes = serde_json::to_vec(&message).expect("JSON values serialize");
        s.send_frame_detached(bytes).await;
    }
    let _ = s.events.send(Event::RequestFinished {
        id: id.clone(),
        method: METHOD.into(),
        outcome: RequestOutcome::Cancelled,
        latency_us: waited.as_micros() as u64,
    });
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{sent, sh_session};
    use super::*;

    fn ack(id: u32, extra: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}},"notifications":{{"toolsListChanged":true{extra}}}}}}}"#
        )
    }

    /// A stream the server ends (a result) is re-opened; a notification tagged with an id that
    /// names no listen request is flagged; a new filter cancels the old stream (stdio:
    /// `notifications/cancelled`) and the new one is acknowledged.
    #[tokio::test]
    async fn a_stream_is_reopened_after_it_ends_and_a_new_filter_replaces_it() {
        let script = format!(
            "read line; printf '%s\\n' '{ack1}'; \
             printf '%s\\n' '{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{{\"_meta\":{{\"io.modelcontextprotocol/subscriptionId\":77}}}}}}'; \
             printf '%s\\n' '{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"resultType\":\"complete\"}}}}'; \
             read line; printf '%s\\n' '{ack2}'; \
             read line; read line; printf '%s\\n' '{ack3}'; cat >/dev/null",
            ack1 = ack(1, ""),
            ack2 = ack(2, ""),
            ack3 = ack(3, r#","resourceSubscriptions":["demo://a"]"#),
        );
        let session = sh_session(&script);
        session.shared.speak(Some("2026-07-28"));
        // A pretend modern identity: `listen` needs the era only, which `speak` set.
        let mut events = session.subscribe();
        let acknowledged = session.listen(ListenFilter::list_changes()).await.unwrap();
        assert!(acknowledged.tools_list_changed && !acknowledged.prompts_list_changed);
        // The server ends the first stream: Periscope says so and opens it again.
        let mut states = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !matches!(
            states.last(),
            Some(ListenState::Open {
                id: RequestId::Number(2),
                ..
            })
        ) {
            let event = tokio::time::timeout_at(deadline, events.recv())
                .await
                .unwrap()
                .unwrap();
            if let Event::Listen(state) = event {
                states.push(state);
            }
        }
        assert!(
            states.iter().any(|s| matches!(s, ListenState::Reopening { reason, .. } if reason == "the server ended the stream")),
            "{states:?}"
        );
        let mut filter = ListenFilter::list_changes();
        filter.resource_subscriptions.insert("demo://a".into());
        let acknowledged = session.listen(filter).await.unwrap();
        assert!(acknowledged.resource_subscriptions.contains("demo://a"));
        let frames = sent(&session);
        let methods: Vec<&str> = frames.iter().filter_map(|f| f["method"].as_str()).collect();
        assert_eq!(
            methods,
            [
                "subscriptions/listen",
                "subscriptions/listen",
                "notifications/cancelled",
                "subscriptions/listen"
            ]
        );
        assert_eq!(frames[2]["params"]["requestId"], 2);
        assert_eq!(
            frames[3]["params"]["notifications"]["resourceSubscriptions"],
            serde_json::json!(["demo://a"])
        );
        assert_eq!(
            frames[0]["params"]["_meta"][meta_key::PROTOCOL_VERSION],
            "2026-07-28"
        );
        let flags: Vec<Flag> = session
            .traffic()
            .flags()
            .into_iter()
            .map(|f| f.flag)
            // The scripted server's results are not all on-spec; the protocol checks'
            // findings (which arrive when the worker gets to them) are not the point here.
            .filter(|f| !matches!(f, Flag::SchemaViolation { .. } | Flag::NotChecked { .. }))
            .collect();
        assert_eq!(flags, [Flag::UnknownSubscriptionId { id: "77".into() }]);
        session.close().await;
    }

    #[tokio::test]
    async fn a_refused_stream_gives_up_at_once_and_the_legacy_era_has_no_listen() {
        let session = sh_session(
            r#"read line; printf '%s\n' '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'; cat >/dev/null"#,
        );
        let err = session
            .listen(ListenFilter::list_changes())
            .await
            .unwrap_err();
        assert!(err.to_string().contains("legacy server"), "{err}");
        session.shared.speak(Some("2026-07-28"));
        let err = session
            .listen(ListenFilter::list_changes())
            .await
            .unwrap_err();
        assert!(err.to_string().contains("Method not found"), "{err}");
        assert!(
            matches!(
                session.listen_state(),
                ListenState::GaveUp { attempts: 1, .. }
            ),
            "{:?}",
            session.listen_state()
        );
        session.close().await;
    }

    #[test]
    fn backoff_doubles_from_half_a_second_up_to_eight() {
        let waits: Vec<u64> = (1..=7).map(|a| backoff(a).as_millis() as u64).collect();
        assert_eq!(waits, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
        assert_eq!(backoff(0), FIRST_BACKOFF);
    }
}
