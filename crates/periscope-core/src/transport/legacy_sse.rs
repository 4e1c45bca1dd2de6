//! The 2024-11-05 HTTP+SSE transport: GET the URL for an event stream whose first `endpoint`
//! event names where to POST; every server message then arrives as a `message` event.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use sse_stream::SseStream;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::exchange::{HttpConnection, headers_of};
use super::{CloseCause, CloseReport, SendError};
use crate::wire::Frame;

/// How long to wait for the `endpoint` event.
const ENDPOINT_WAIT: Duration = Duration::from_secs(15);

pub(super) struct LegacySse {
    endpoint: String,
    reader: JoinHandle<()>,
}

impl LegacySse {
    /// Opens the event stream and waits for the endpoint to POST to.
    pub(super) async fn open(shared: Arc<HttpConnection>) -> Result<LegacySse, SendError> {
        let extra = headers_of(&[(ACCEPT, "text/event-stream")]);
        let (seq, result) = shared.exchange(Method::GET, extra, None, None, None).await;
        let response = result.map_err(|e| {
            SendError::Http(format!(
                "GET {} failed: {e}",
                crate::redact::url(&shared.target.url)
            ))
        })?;
        if !response.status().is_success() {
            return Err(SendError::Http(format!(
                "the legacy HTTP+SSE stream got HTTP {}",
                response.status()
            )));
        }
        let base = response.url().clone();
        let (endpoint_tx, mut endpoint_rx) = watch::channel(None::<Result<String, String>>);
        let reader_shared = shared.clone();
        let reader = tokio::spawn(async move {
            let mut events = SseStream::from_bytes_stream(response.bytes_stream());
            let mut have_endpoint = false;
            while let Some(event) = events.next().await {
                let Ok(event) = event else { break };
                let data = event.data.unwrap_or_default();
                if !have_endpoint && event.event.as_deref() == Some("endpoint") {
                    have_endpoint = true;
                    let resolved = base.join(data.trim()).map(|u| u.to_string()).map_err(|e| {
                        format!("the endpoint event's URL {data:?} is not valid: {e}")
                    });
                    let _ = endpoint_tx.send(Some(resolved));
                    continue;
                }
                // `message` events (or unnamed ones) carry frames; anything is recorded.
                if !data.is_empty() {
                    reader_shared.deliver(data.into_bytes(), seq).await;
                }
            }
            if !have_endpoint {
                let _ = endpoint_tx.send(Some(Err(
                    "the event stream ended before its endpoint event".into(),
                )));
            }
        });
        let endpoint = tokio::time::timeout(ENDPOINT_WAIT, endpoint_rx.wait_for(Option::is_some))
            .await
            .map_err(|_| {
                SendError::Http(format!(
                    "no endpoint event within {} s on the legacy HTTP+SSE stream",
                    ENDPOINT_WAIT.as_secs()
                ))
            })?
            .map_err(|_| SendError::Http("the legacy event stream closed".into()))?
            .clone()
            .expect("waited for Some")
            .map_err(SendError::Http)?;
        Ok(LegacySse { endpoint, reader })
    }

    pub(super) async fn send(
        &self,
        connection: &HttpConnection,
        frame: &Frame,
    ) -> Result<(), SendError> {
        let extra = headers_of(&[(CONTENT_TYPE, "application/json")]);
        let (_, result) = connection
            .exchange(
                Method::POST,
                extra,
                Some(frame.bytes.to_vec()),
                Some(frame.seq),
                Some(&self.endpoint),
            )
            .await;
        let response =
            result.map_err(|e| SendError::Http(format!("POST {} failed: {e}", self.endpoint)))?;
        if !response.status().is_success() {
            return Err(SendError::Http(format!(
                "the server answered the POST to {} with HTTP {}",
                self.endpoint,
                response.status()
            )));
        }
        Ok(())
    }

    pub(super) fn shutdown(&self) -> CloseReport {
        self.reader.abort();
        CloseReport::new(CloseCause::LegacyStreamClosed, Vec::new())
    }
}

impl Drop for LegacySse {
    fn drop(&mut self) {
        self.reader.abort();
    }
}
