//! The OAuth HTTP glue: the one way a POST's JSON answer is read and a refusal named (dynamic
//! registration, and the grants the `oauth2` crate does not know), `oauth2`'s HTTP hook for the
//! grants it does, and how every answer's body is read: in chunks, up to a limit. Every request
//! goes through the sign-in's one client (a deadline, no redirects, the guard's resolver).

use serde_json::Value;

use super::StepOutcome;
use super::client::OAuthClient;
use crate::limits::{OAUTH_BODY_LIMIT, OAUTH_REQUEST_DEADLINE};
use crate::net_guard::UrlRole;

/// Why an answer's body could not be read.
#[derive(Debug)]
pub(super) enum BodyError {
    /// More than [`OAUTH_BODY_LIMIT`] bytes (announced, or sent).
    TooBig {
        announced: Option<u64>,
    },
    Read(reqwest::Error),
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyError::TooBig { announced } => write!(
                f,
                "the answer is bigger than {} KiB{} (the limit for OAuth and metadata documents): not read further",
                OAUTH_BODY_LIMIT / 1024,
                announced
                    .map(|n| format!(" (it announced {n} bytes)"))
                    .unwrap_or_default()
            ),
            BodyError::Read(e) if e.is_timeout() => write!(
                f,
                "the answer did not finish within {} s",
                OAUTH_REQUEST_DEADLINE.as_secs()
            ),
            BodyError::Read(e) => write!(f, "reading the answer failed: {}", describe(e)),
        }
    }
}

/// Reads a body chunk by chunk, failing as soon as it passes [`OAUTH_BODY_LIMIT`].
pub(super) async fn read_capped(mut response: reqwest::Response) -> Result<Vec<u8>, BodyError> {
    if let Some(announced) = response.content_length()
        && announced > OAUTH_BODY_LIMIT as u64
    {
        return Err(BodyError::TooBig {
            announced: Some(announced),
        });
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Read)? {
        if body.len() + chunk.len() > OAUTH_BODY_LIMIT {
            return Err(BodyError::TooBig { announced: None });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A failed send in words: the deadline by name, otherwise the error and its causes.
pub(super) fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        return format!(
            "no complete answer within {} s",
            OAUTH_REQUEST_DEADLINE.as_secs()
        );
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

impl OAuthClient {
    /// Reads the answer to a POST to `url` (the `role` it plays; `sent`: what sending it gave)
    /// as JSON. A
    /// failed send is a failed `title` step; a refusal (not 2xx) is a failed step naming the
    /// OAuth error, and `Err` with the message `refused` makes of it. Ok: the body and the step
    /// log's HTTP line.
    pub(super) async fn post_for_json(
        &self,
        title: &str,
        role: UrlRole,
        url: &str,
        sent: Result<reqwest::Response, reqwest::Error>,
        refused: impl FnOnce(reqwest::StatusCode, &str) -> String,
    ) -> Result<(Value, Option<String>), String> {
        let response = match sent {
            Ok(r) => r,
            Err(e) => {
                return Err(self.refused_by_dns(title, role, url).unwrap_or_else(|| {
                    self.fail(title, format!("POST {url} failed: {}", describe(&e)))
                }));
            }
        };
        let status = response.status();
        let line = Some(format!("POST {url} → {}", status.as_u16()));
        let doc = match read_capped(response).await {
            Ok(body) => serde_json::from_slice(&body).unwrap_or(Value::Null),
            Err(e) => {
                self.step(StepOutcome::Failed, title, e.to_string(), line);
                return Err(format!("{title}: POST {url}: {e}"));
            }
        };
        if !status.is_success() {
            let why = error_text(&doc);
            self.step(StepOutcome::Failed, title, format!("refused: {why}"), line);
            return Err(refused(status, why));
        }
        Ok((doc, line))
    }

    /// POSTs a form and reads a JSON answer; the step log gets the exchange, never the values.
    pub(super) async fn post_form(
        &self,
        title: &str,
        role: UrlRole,
        url: &str,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> Result<Value, String> {
        self.checked(title, role, url).await?;
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let make = || {
            let mut request = self
                .http
                .post(url)
                .header("content-type", "application/x-www-form-urlencoded")
                .header("accept", "application/json")
                .body(body.clone());
            if let Some((id, secret)) = basic {
                request = request.basic_auth(id, Some(secret));
            }
            request
        };
        let sent = if role == UrlRole::TokenEndpoint {
            self.send_token_request(url, make).await
        } else {
            make().send().await
        };
        let (doc, line) = self
            .post_for_json(title, role, url, sent, |status, why| {
                format!("{title}: HTTP {status} {why}")
            })
            .await?;
        self.step(StepOutcome::Ok, title, "answered", line);
        Ok(doc)
    }

    /// Sends a request to a token endpoint. When the sign-in uses DPoP it carries a proof
    /// (RFC 9449 §5); when the server answers `use_dpop_nonce` with a `DPoP-Nonce` (§8) it
    /// goes once more, with a fresh proof carrying that nonce. `make` builds the request anew
    /// for each attempt.
    pub(super) async fn send_token_request(
        &self,
        url: &str,
        make: impl Fn() -> reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, reqwest::Error> {
        if !self.dpop.active() {
            return make().send().await;
        }
        let with_proof = || match self.dpop.token_request_proof(url) {
            Ok(proof) => make().header("dpop", proof),
            Err(e) => {
                self.step(
                    StepOutcome::Warning,
                    "DPoP",
                    format!("{e}: the request goes without a proof"),
                    None,
                );
                make()
            }
        };
        let sent_nonce = self.dpop.nonce_for(url);
        let response = with_proof().send().await?;
        let Some(nonce) = response
            .headers()
            .get("dpop-nonce")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
        else {
            return Ok(response);
        };
        self.dpop.remember_nonce(url, &nonce);
        if response.status() != reqwest::StatusCode::BAD_REQUEST
            || sent_nonce.as_deref() == Some(nonce.as_str())
        {
            return Ok(response);
        }
        // Only a `use_dpop_nonce` refusal is answered with a retry; any other goes back as it
        // came (rebuilt from what was read of it).
        let status = response.status();
        let headers = response.headers().clone();
        let body = read_capped(response).await.unwrap_or_default();
        let demanded = serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|d| d.get("error").and_then(Value::as_str).map(str::to_string))
            .is_some_and(|e| e == super::dpop::USE_DPOP_NONCE);
        if demanded {
            self.step(
                StepOutcome::Ok,
                "DPoP",
                "the token endpoint asks for a nonce of its own (use_dpop_nonce): sending the request again with a proof that carries it",
                Some(format!("POST {url} → 400")),
            );
            return with_proof().send().await;
        }
        let mut rebuilt = oauth2::http::Response::builder().status(status);
        for (k, v) in &headers {
            rebuilt = rebuilt.header(k, v);
        }
        Ok(reqwest::Response::from(
            rebuilt
                .body(body)
                .expect("a response rebuilt from a valid one"),
        ))
    }

    /// `oauth2`'s HTTP hook over this sign-in's client (its token endpoint requests).
    pub(super) fn oauth_http(&self) -> OauthHttp<'_> {
        OauthHttp(self)
    }
}

/// oauth2's HTTP hook over our reqwest (0.13) client, with a `Send` future: the same deadline,
/// guard and body limit as every other request of the sign-in.
pub(super) struct OauthHttp<'a>(&'a OAuthClient);

impl<'c> oauth2::AsyncHttpClient<'c> for OauthHttp<'_> {
    type Error = oauth2::HttpClientError<reqwest::Error>;
    type Future = std::pin::Pin<
        Box<
            dyn std::future::Future<Output = Result<oauth2::HttpResponse, Self::Error>> + Send + 'c,
        >,
    >;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let url = parts.uri.to_string();
            let make = || {
                self.0
                    .http
                    .request(parts.method.clone(), &url)
                    .headers(parts.headers.clone())
                    .body(body.clone())
            };
            let response = self.0.send_token_request(&url, make).await.map_err(|e| {
                // The step is logged by the grant that asked; the refusal is kept here.
                let why = match self.0.guard.take_dns_refusal(UrlRole::TokenEndpoint, &url) {
                    Some(refused) => {
                        let why = refused.to_string();
                        self.0.keep_refused(refused);
                        why
                    }
                    None => format!("POST {url}: {}", describe(&e)),
                };
                oauth2::HttpClientError::Other(why)
            })?;
            let mut builder = oauth2::http::Response::builder().status(response.status());
            for (k, v) in response.headers() {
                builder = builder.header(k, v);
            }
            let bytes = read_capped(response)
                .await
                .map_err(|e| oauth2::HttpClientError::Other(format!("POST {url}: {e}")))?;
            Ok(builder.body(bytes)?)
        })
    }
}

/// The OAuth error of an error body (RFC 6749 §5.2): its description, else its code.
fn error_text(doc: &Value) -> &str {
    doc.get("error_description")
        .or(doc.get("error"))
        .and_then(Value::as_str)
        .unwrap_or("")
}
