//! The stdio transport, with a graceful end-of-input policy.
//!
//! rmcp's own stdio transport stops the session as soon as stdin reaches EOF
//! and then waits up to 5 s for in-flight handlers, during which they cannot
//! send notifications. That loses the output of e.g. `slow_task` when requests
//! are piped in, and it delays exit. [`GracefulTransport`] instead:
//!
//! 1. on EOF, cancels the server's "client gone" token, so tools waiting for a
//!    client reply (elicitation, sampling, roots) give up at once;
//! 2. keeps the session running until every request it has received has been
//!    answered, so progress notifications and results still reach stdout;
//! 3. after [`EOF_GRACE`], cancels whatever is still running and ends the
//!    session anyway.
//!
//! So with nothing in flight the process exits immediately on EOF, and it
//! never lingers for more than [`EOF_GRACE`].

use std::{
    collections::HashSet,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use rmcp::{
    RoleServer,
    model::{
        ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
    },
    transport::{Transport, async_rw::AsyncRwTransport},
};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    sync::Notify,
    time::Instant,
};
use tokio_util::sync::CancellationToken;

/// How long requests still in flight at stdin EOF may take to finish.
pub const EOF_GRACE: Duration = Duration::from_secs(3);

/// The demo server's transport over `read`/`write` (stdin/stdout in
/// production, an in-memory pipe in tests).
pub fn transport<R, W>(
    read: R,
    write: W,
    client_gone: CancellationToken,
    abort: CancellationToken,
) -> GracefulTransport<impl Transport<RoleServer, Error = std::io::Error>>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    GracefulTransport::new(
        AsyncRwTransport::<RoleServer, _, _>::new_server(read, write),
        client_gone,
        abort,
    )
}

/// Request ids received but not yet answered.
#[derive(Debug, Default)]
struct InFlight {
    ids: Mutex<HashSet<RequestId>>,
    changed: Notify,
}

impl InFlight {
    fn start(&self, id: RequestId) {
        self.ids
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id);
    }

    fn finish(&self, id: &RequestId) {
        let removed = self
            .ids
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        if removed {
            self.changed.notify_waiters();
        }
    }

    fn len(&self) -> usize {
        self.ids
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// Wraps a server transport to delay end-of-input until in-flight requests
/// are answered (see the module docs).
pub struct GracefulTransport<T> {
    inner: T,
    in_flight: Arc<InFlight>,
    client_gone: CancellationToken,
    abort: CancellationToken,
    eof_deadline: Option<Instant>,
}

impl<T> GracefulTransport<T> {
    /// `client_gone` is cancelled at EOF; `abort` (the service's cancellation
    /// token) is cancelled when the grace period runs out.
    pub fn new(inner: T, client_gone: CancellationToken, abort: CancellationToken) -> Self {
        Self {
            inner,
            in_flight: Arc::default(),
            client_gone,
            abort,
            eof_deadline: None,
        }
    }

    fn track_incoming(&self, message: &ClientJsonRpcMessage) {
        match message {
            JsonRpcMessage::Request(request) => self.in_flight.start(request.id.clone()),
            // rmcp sends no response to a request the client cancelled.
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.in_flight.finish(id);
                }
            }
            _ => {}
        }
    }

    fn track_outgoing(&self, message: &ServerJsonRpcMessage) {
        match message {
            JsonRpcMessage::Response(response) => self.in_flight.finish(&response.id),
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    self.in_flight.finish(id);
                }
            }
            _ => {}
        }
    }
}

impl<T> Transport<RoleServer> for GracefulTransport<T>
where
    T: Transport<RoleServer>,
{
    type Error = T::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.track_outgoing(&item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        // rmcp polls this inside `select!`, so all waiting state lives in
        // `self` and every await below is cancel-safe.
        let deadline = match self.eof_deadline {
            Some(deadline) => deadline,
            None => match self.inner.receive().await {
                Some(message) => {
                    self.track_incoming(&message);
                    return Some(message);
                }
                None => {
                    let deadline = Instant::now() + EOF_GRACE;
                    self.eof_deadline = Some(deadline);
                    self.client_gone.cancel();
                    let pending = self.in_flight.len();
                    if pending > 0 {
                        tracing::info!(pending, "stdin closed; finishing in-flight requests");
                    } else {
                        tracing::info!("stdin closed");
                    }
                    deadline
                }
            },
        };
        loop {
            let changed = self.in_flight.changed.notified();
            let pending = self.in_flight.len();
            if pending == 0 {
                return None;
            }
            tokio::select! {
                () = changed => {}
                () = tokio::time::sleep_until(deadline) => {
                    tracing::warn!(pending, "requests still running after stdin closed; cancelling them");
                    self.abort.cancel();
                    return None;
                }
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
