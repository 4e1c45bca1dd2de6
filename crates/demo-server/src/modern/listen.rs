//! `subscriptions/listen`: the open listen streams of modern requests and the
//! change notifications sent on them.
//!
//! rmcp acknowledges a listen request (`notifications/subscriptions/
//! acknowledged`, tagged with the subscription id) before handing it to
//! [`Listeners::hold`], and its [`SubscriptionSink`] tags every notification
//! with `io.modelcontextprotocol/subscriptionId` and drops kinds the
//! subscription did not accept. The registry is shared by every request of
//! the process, so a `tools/call` in one HTTP POST reaches a listen stream
//! opened by another.
//!
//! rmcp sends the acknowledgement before [`Listeners::hold`] registers the
//! stream, so a client that acts on the acknowledgement at once (as it may)
//! could otherwise trigger a change that reaches no stream: a listen accepted
//! by [`Listeners::accepting`] counts as pending, and a change waits (briefly)
//! for pending streams to register before it is sent.

use std::{
    collections::BTreeMap,
    future::Future,
    sync::{Mutex, PoisonError},
    time::Duration,
};

use rmcp::{
    model::SubscriptionFilter,
    service::{SubscriptionContext, SubscriptionSendError, SubscriptionSink},
};

use crate::resources;

/// The listen streams currently open, by a registry-local number.
#[derive(Debug, Default)]
pub struct Listeners {
    open: Mutex<BTreeMap<u64, SubscriptionSink>>,
    next: Mutex<u64>,
    /// Listens accepted but not yet registered by [`Listeners::hold`].
    pending: tokio::sync::watch::Sender<usize>,
}

/// How long a change waits for accepted listens to register: far longer than
/// the acknowledgement-to-registration gap, short enough that a listen which
/// failed after acceptance delays nothing noticeably.
const REGISTRATION_GRACE: Duration = Duration::from_secs(2);

/// What a change reached: how many open streams were sent a notification.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    pub notified: usize,
}

/// The part of `requested` the demo honours: every list-changed kind, and
/// resource updates for URIs that exist (unknown URIs are left out of the
/// acknowledgement, as the spec asks for unsupported parts).
pub fn accepted_filter(requested: &SubscriptionFilter, bonus: bool) -> SubscriptionFilter {
    let mut accepted = requested.clone();
    if let Some(uris) = accepted.resource_subscriptions.as_mut() {
        uris.retain(|uri| resources::exists(uri, bonus));
    }
    accepted
}

impl Listeners {
    /// Notes that a listen request was accepted; [`Listeners::hold`] will
    /// register it.
    pub fn accepting(&self) {
        self.pending.send_modify(|pending| *pending += 1);
    }

    /// Keeps `subscription` registered until the client cancels it or
    /// `ended` resolves (the server is going away); rmcp then answers the
    /// listen request with its closing result.
    pub async fn hold(&self, subscription: SubscriptionContext, ended: impl Future<Output = ()>) {
        let number = {
            let mut next = lock(&self.next);
            *next += 1;
            *next
        };
        lock(&self.open).insert(number, subscription.sink().clone());
        self.pending
            .send_modify(|pending| *pending = pending.saturating_sub(1));
        tracing::info!(
            subscription_id = ?subscription.sink().id(),
            accepted = ?subscription.accepted(),
            "listen stream opened"
        );
        tokio::select! {
            () = subscription.cancelled() => {}
            () = ended => {}
        }
        lock(&self.open).remove(&number);
        tracing::info!(subscription_id = ?subscription.sink().id(), "listen stream closed");
    }

    /// Sends the tools, resources and prompts list_changed notifications to
    /// every stream that opted in to each.
    pub async fn lists_changed(&self) -> Reach {
        let mut reach = Reach::default();
        for sink in self.sinks().await {
            let sent = [
                sink.notify_tool_list_changed().await,
                sink.notify_resource_list_changed().await,
                sink.notify_prompt_list_changed().await,
            ];
            if count_sent(&sent) > 0 {
                reach.notified += 1;
            }
        }
        reach
    }

    /// Sends `notifications/resources/updated` for `uri` to every stream
    /// subscribed to it.
    pub async fn resource_updated(&self, uri: &str) -> Reach {
        let mut reach = Reach::default();
        for sink in self.sinks().await {
            if count_sent(&[sink.notify_resource_updated(uri).await]) > 0 {
                reach.notified += 1;
            }
        }
        reach
    }

    /// The registered streams, once no accepted listen is still on its way
    /// (or the grace is over).
    async fn sinks(&self) -> Vec<SubscriptionSink> {
        let mut pending = self.pending.subscribe();
        let registered = pending.wait_for(|pending| *pending == 0);
        if tokio::time::timeout(REGISTRATION_GRACE, registered)
            .await
            .is_err()
        {
            tracing::warn!("an accepted listen stream did not register in time");
            self.pending.send_replace(0);
        }
        lock(&self.open).values().cloned().collect()
    }
}

/// How many sends went out; a kind the stream did not opt in to is not a
/// failure, a closed or broken stream is logged.
fn count_sent(results: &[Result<(), SubscriptionSendError>]) -> usize {
    results
        .iter()
        .filter(|result| match result {
            Ok(()) => true,
            Err(SubscriptionSendError::NotificationNotAccepted(_)) => false,
            Err(error) => {
                tracing::warn!(%error, "cannot notify a listen stream");
                false
            }
        })
        .count()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
