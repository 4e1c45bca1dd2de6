//! The sign-in retry around a send: an HTTP server that answers 401/403 gets the authorizer's
//! token (signing in or stepping up first), at most three times per request.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Shared;
use crate::event::Event;
use crate::transport::SendError;
use crate::wire::Frame;

/// Sign-ins one request may trigger before Periscope gives up on it.
const MAX_SIGN_INS: u32 = 3;

impl Shared {
    /// Sends a request frame; when the server refuses it with 401/403 and an authorizer is
    /// set, signs in (or steps up) and sends it again: at most three sign-ins per request. The
    /// record keeps every attempt.
    pub(super) async fn send_authorized(&self, bytes: Vec<u8>) -> Result<Arc<Frame>, SendError> {
        if let Some(auth) = &self.options.authorizer
            && !self.bearer_set.swap(true, Ordering::SeqCst)
        {
            // The first request: a stored (or refreshed) token, if there is one.
            self.transport.set_bearer(auth.current().await);
        }
        let mut attempts = 0;
        loop {
            match self.send_frame(bytes.clone(), false).await {
                Err(SendError::Unauthorized {
                    challenge,
                    exchange,
                }) => {
                    let Some(auth) = &self.options.authorizer else {
                        return Err(SendError::Unauthorized {
                            challenge,
                            exchange,
                        });
                    };
                    if attempts == MAX_SIGN_INS {
                        let _ = self.events.send(Event::Warning(format!(
                            "gave up after {attempts} sign-ins: the server still refuses (HTTP {})",
                            challenge.status
                        )));
                        return Err(SendError::Unauthorized {
                            challenge,
                            exchange,
                        });
                    }
                    attempts += 1;
                    match auth.authorize(&challenge).await {
                        Ok(token) => self.transport.set_bearer(Some(token)),
                        Err(why) => {
                            return Err(SendError::Http(format!("sign-in failed: {why}")));
                        }
                    }
                }
                other => return other,
            }
        }
    }
}
