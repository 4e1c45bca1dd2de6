//! The sign-in retry around a send: an HTTP server that answers 401/403 gets the authorizer's
//! token (signing in or stepping up first), at most three times per request.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::Shared;
use crate::event::Event;
use crate::transport::{HttpProblem, SendError};
use crate::vocabulary::Problem;

/// Sign-ins one request may trigger before Periscope gives up on it.
const MAX_SIGN_INS: u32 = 3;

/// A request frame the server took.
#[derive(Debug)]
pub(super) struct Sent {
    /// Whether a sign-in came first (the user's time, not the server's).
    pub after_sign_in: bool,
}

impl Shared {
    /// Sends a request frame; when the server refuses it with 401/403 and an authorizer is
    /// set, signs in (or steps up) and sends it again: at most three sign-ins per request. The
    /// record keeps every attempt.
    pub(super) async fn send_authorized(
        &self,
        bytes: Vec<u8>,
        patience: Duration,
    ) -> Result<Sent, SendError> {
        if let Some(auth) = &self.options.authorizer
            && !self.bearer_set.swap(true, Ordering::SeqCst)
        {
            // The first request: a stored (or refreshed) token, if there is one.
            self.transport.set_presenter(auth.clone());
            self.transport.set_bearer(auth.current().await);
        }
        let mut attempts = 0;
        loop {
            match self.send_frame(bytes.clone(), false, patience).await {
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
                        let _ = self.events.send(Event::Warning(Problem::SignInGaveUp {
                            attempts: attempts as u64,
                            status: challenge.status,
                        }));
                        return Err(SendError::Unauthorized {
                            challenge,
                            exchange,
                        });
                    }
                    attempts += 1;
                    let signed_in = auth.authorize(&challenge).await;
                    // The sign-in's steps go into the record (redacted there), whatever its end.
                    for step in auth.steps() {
                        self.traffic.auth_step(&step);
                    }
                    match signed_in {
                        Ok(token) => {
                            // Perhaps another user now: private cached results are not theirs.
                            self.sign_ins.fetch_add(1, Ordering::SeqCst);
                            self.transport.set_bearer(Some(token));
                        }
                        Err(why) => {
                            if let Some(refused) = why.refused {
                                self.traffic.flag(exchange, refused.into());
                            }
                            return Err(SendError::HttpProblem {
                                text: format!("sign-in failed: {}", why.message),
                                problem: HttpProblem::Unauthorized { challenge },
                            });
                        }
                    }
                }
                other => {
                    return other.map(|_| Sent {
                        after_sign_in: attempts > 0,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;
    use std::sync::{Arc, Mutex};

    use async_trait::async_trait;
    use serde_json::Value;

    use super::*;
    use crate::auth::{Authorizer, Challenge, SignInError};
    use crate::session::{Session, SessionOptions};
    use crate::transport::{CloseReport, Delivery, Transport};
    use crate::wire::Frame;

    /// An HTTP-like transport that refuses the first `refusals` sends with 401 and keeps the
    /// bearer tokens it was given.
    #[derive(Default)]
    struct Refusing {
        refusals: AtomicU32,
        bearers: Mutex<Vec<Option<String>>>,
    }

    struct Shared401(Arc<Refusing>);

    #[async_trait]
    impl Transport for Shared401 {
        fn send(&self, _frame: Arc<Frame>, _patience: Duration) -> Delivery {
            let left = self.0.refusals.load(Ordering::SeqCst);
            if left == 0 {
                return Box::pin(async { Ok(()) });
            }
            self.0.refusals.store(left - 1, Ordering::SeqCst);
            Box::pin(async {
                Err(SendError::Unauthorized {
                    challenge: Challenge {
                        status: 401,
                        ..Challenge::default()
                    },
                    exchange: 0,
                })
            })
        }
        fn set_bearer(&self, token: Option<String>) {
            self.0.bearers.lock().unwrap().push(token);
        }
        async fn shutdown(&self) -> CloseReport {
            CloseReport::default()
        }
    }

    /// Hands out "t1", "t2", … (or fails when `fail` is set), counting sign-ins.
    #[derive(Default)]
    struct Tokens {
        sign_ins: AtomicU32,
        fail: bool,
    }

    #[async_trait]
    impl Authorizer for Tokens {
        async fn current(&self) -> Option<String> {
            Some("stored".into())
        }
        async fn authorize(&self, _challenge: &Challenge) -> Result<String, SignInError> {
            let n = self.sign_ins.fetch_add(1, Ordering::SeqCst) + 1;
            if self.fail {
                return Err("the user closed the browser".into());
            }
            Ok(format!("t{n}"))
        }
        fn steps(&self) -> Vec<crate::auth::AuthStep> {
            vec![crate::auth::AuthStep {
                wall_us: 7,
                title: "Authorization code".into(),
                detail: "the browser came back to http://127.0.0.1:9/cb?code=THE-CODE&state=st"
                    .into(),
                http: Some("POST https://as.example/token?client_secret=THE-SECRET → 200".into()),
                outcome: crate::auth::StepOutcome::Ok,
            }]
        }
    }

    fn session(refusals: u32, authorizer: Option<Arc<Tokens>>) -> (Session, Arc<Refusing>) {
        let transport = Arc::new(Refusing::default());
        transport.refusals.store(refusals, Ordering::SeqCst);
        let options = SessionOptions {
            authorizer: authorizer.map(|a| a as Arc<dyn Authorizer>),
            ..SessionOptions::default()
        };
        let (events, traffic, _inbound_tx, inbound_rx) =
            Session::record(None, Value::Null).unwrap();
        let session = Session::start(
            Box::new(Shared401(transport.clone())),
            traffic,
            events,
            options,
            inbound_rx,
        );
        (session, transport)
    }

    #[tokio::test]
    async fn a_refused_send_signs_in_and_goes_again_with_the_new_token() {
        let tokens = Arc::new(Tokens::default());
        let (session, transport) = session(2, Some(tokens.clone()));
        session
            .shared
            .send_authorized(b"{}".to_vec(), Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(tokens.sign_ins.load(Ordering::SeqCst), 2);
        assert_eq!(
            *transport.bearers.lock().unwrap(),
            [Some("stored".into()), Some("t1".into()), Some("t2".into())]
        );
        // Every attempt is in the record.
        assert_eq!(session.traffic().frames().len(), 3);
    }

    #[tokio::test]
    async fn a_sign_in_s_steps_reach_the_record_file_without_codes_or_secrets() {
        let dir = std::env::temp_dir().join(format!("periscope-steps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.jsonl");
        let transport = Arc::new(Refusing::default());
        transport.refusals.store(1, Ordering::SeqCst);
        let options = SessionOptions {
            authorizer: Some(Arc::new(Tokens::default()) as Arc<dyn Authorizer>),
            ..SessionOptions::default()
        };
        let (events, traffic, _inbound_tx, inbound_rx) =
            Session::record(Some(&path), Value::Null).unwrap();
        let session = Session::start(
            Box::new(Shared401(transport)),
            traffic,
            events,
            options,
            inbound_rx,
        );
        session
            .shared
            .send_authorized(b"{}".to_vec(), Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(session.traffic().auth_steps().len(), 1);
        session.traffic().flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let step = text
            .lines()
            .find(|l| l.contains(r#""type":"auth_step""#))
            .expect("an auth_step line");
        assert!(step.contains("Authorization code"), "{step}");
        for secret in ["THE-CODE", "THE-SECRET"] {
            assert!(!text.contains(secret), "{secret} in the record: {text}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn three_sign_ins_is_the_limit_and_the_user_is_told() {
        let tokens = Arc::new(Tokens::default());
        let (session, _) = session(u32::MAX, Some(tokens.clone()));
        let mut events = session.subscribe();
        let err = session
            .shared
            .send_authorized(b"{}".to_vec(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(matches!(err, SendError::Unauthorized { .. }), "{err}");
        assert_eq!(tokens.sign_ins.load(Ordering::SeqCst), MAX_SIGN_INS);
        assert_eq!(session.traffic().frames().len(), 4);
        let warning = loop {
            if let Event::Warning(w) = events.recv().await.unwrap() {
                break w;
            }
        };
        assert_eq!(
            warning,
            Problem::SignInGaveUp {
                attempts: 3,
                status: 401
            }
        );
        assert_eq!(
            warning.to_string(),
            "gave up after 3 sign-ins: the server still refuses (HTTP 401)"
        );
    }

    #[tokio::test]
    async fn without_an_authorizer_a_refusal_is_the_answer() {
        let (session, transport) = session(1, None);
        let err = session
            .shared
            .send_authorized(b"{}".to_vec(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(matches!(err, SendError::Unauthorized { .. }), "{err}");
        assert!(transport.bearers.lock().unwrap().is_empty());
        assert_eq!(session.traffic().frames().len(), 1);
    }

    #[tokio::test]
    async fn a_failed_sign_in_ends_the_send_saying_why() {
        let tokens = Arc::new(Tokens {
            fail: true,
            ..Tokens::default()
        });
        let (session, _) = session(1, Some(tokens));
        let err = session
            .shared
            .send_authorized(b"{}".to_vec(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, SendError::HttpProblem { text, .. } if text == "sign-in failed: the user closed the browser"),
            "{err}"
        );
    }
}
