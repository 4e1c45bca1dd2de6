//! The 2024-11-05 HTTP+SSE transport: GET the URL for an event stream whose first `endpoint`
//! event names where to POST; every server message then arrives as a `message` event. The
//! endpoint must be on the stream's origin: a server cannot send Periscope's requests (and the
//! headers configured for it) anywhere else.

use std::sync::Arc;
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::event_stream::{EventStream, Next};
use super::exchange::{ExchangeError, HttpConnection, headers_of};
use super::failure::content_type_of;
use super::{CloseCause, CloseReport, HttpProblem, SendError, Stall};
use crate::net_guard::{UrlRole, check_same_origin};
use crate::wire::Frame;

/// How long to wait for the `endpoint` event.
const ENDPOINT_WAIT: Duration = Duration::from_secs(15);

pub(super) struct LegacySse {
    endpoint: String,
    reader: JoinHandle<()>,
}

impl LegacySse {
    /// Opens the event stream and waits for the endpoint to POST to.
    pub(super) async fn open(
        shared: Arc<HttpConnection>,
        patience: Duration,
    ) -> Result<LegacySse, SendError> {
        let extra = headers_of(&[(ACCEPT, "text/event-stream")]);
        let (seq, result) = shared
            .exchange(Method::GET, extra, None, None, None, patience)
            .await;
        let response = result.map_err(|e| stalled_or_failed("GET", &shared.target.url, e))?;
        if !response.status().is_success() {
            return Err(SendError::HttpProblem {
                text: format!("the legacy HTTP+SSE stream got HTTP {}", response.status()),
                problem: HttpProblem::Status {
                    method: "GET".into(),
                    url: crate::redact::url(&shared.target.url),
                    status: response.status().as_u16(),
                    content_type: content_type_of(response.headers()),
                },
            });
        }
        let base = response.url().clone();
        let (endpoint_tx, mut endpoint_rx) = watch::channel(None::<Result<String, String>>);
        let reader_shared = shared.clone();
        let reader = tokio::spawn(async move {
            // The one stream of this transport may rightly be silent for hours: no idle limit,
            // but each event must arrive within its time.
            let mut events = EventStream::new(response, &reader_shared.limits, None);
            let mut have_endpoint = false;
            loop {
                let (event, cut) = match events.next().await {
                    Next::Event(event) => (event, None),
                    Next::End {
                        why,
                        partial: Some(event),
                    } => (event, Some(why.cut())),
                    Next::End { partial: None, .. } => break,
                };
                if !have_endpoint && event.event.as_deref() == Some("endpoint") {
                    let data = String::from_utf8_lossy(&event.data);
                    have_endpoint = true;
                    let resolved = match base.join(data.trim()) {
                        Err(e) => Err(format!(
                            "the endpoint event's URL {data:?} is not valid: {e}"
                        )),
                        Ok(url) => match check_same_origin(UrlRole::LegacyEndpoint, &url, &base) {
                            Ok(()) => Ok(url.to_string()),
                            Err(refused) => {
                                let why = refused.to_string();
                                reader_shared.traffic.flag(seq, refused.into());
                                Err(why)
                            }
                        },
                    };
                    let _ = endpoint_tx.send(Some(resolved));
                    continue;
                }
                // `message` events (or unnamed ones) carry frames; anything is recorded.
                if !event.data.is_empty() {
                    reader_shared
                        .deliver(event.data, event.data_truncated_from, cut, seq)
                        .await;
                }
                if cut.is_some() {
                    break;
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
        patience: Duration,
    ) -> Result<(), SendError> {
        let extra = headers_of(&[(CONTENT_TYPE, "application/json")]);
        let (_, result) = connection
            .exchange(
                Method::POST,
                extra,
                Some(frame.bytes.to_vec()),
                Some(frame.seq),
                Some(&self.endpoint),
                patience,
            )
            .await;
        let response = result.map_err(|e| stalled_or_failed("POST", &self.endpoint, e))?;
        if !response.status().is_success() {
            return Err(SendError::HttpProblem {
                text: format!(
                    "the server answered the POST to {} with HTTP {}",
                    self.endpoint,
                    response.status()
                ),
                problem: HttpProblem::Status {
                    method: "POST".into(),
                    url: crate::redact::url(&self.endpoint),
                    status: response.status().as_u16(),
                    content_type: content_type_of(response.headers()),
                },
            });
        }
        Ok(())
    }

    pub(super) fn shutdown(&self) -> CloseReport {
        self.reader.abort();
        CloseReport::new(CloseCause::LegacyStreamClosed, Vec::new())
    }
}

/// The send error for an exchange that got no response (a failed TLS handshake named).
pub(super) fn stalled_or_failed(method: &str, url: &str, error: ExchangeError) -> SendError {
    match error {
        ExchangeError::NoHeaders(waited) => SendError::Stalled(Stall::NoResponseHeaders {
            method: method.into(),
            url: crate::redact::url(url),
            waited,
        }),
        ExchangeError::Failed { text, tls } => {
            let text = format!("{method} {} failed: {text}", crate::redact::url(url));
            match tls {
                Some(tls) => SendError::HttpProblem {
                    text,
                    problem: HttpProblem::Tls(tls),
                },
                None => SendError::Http(text),
            }
        }
    }
}

impl Drop for LegacySse {
    fn drop(&mut self) {
        self.reader.abort();
    }
}
