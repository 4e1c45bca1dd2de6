//! The OAuth HTTP glue: the one way a POST's JSON answer is read and a refusal named (dynamic
//! registration, and the grants the `oauth2` crate does not know), and `oauth2`'s HTTP hook
//! for the grants it does. Every request goes through the sign-in's one client.

use serde_json::Value;

use super::StepOutcome;
use super::client::OAuthClient;
use super::endpoint::check_endpoint;

impl OAuthClient {
    /// Sends `request` (a POST to `url`) and reads the answer as JSON. A failed send is a
    /// failed `title` step; a refusal (not 2xx) is a failed step naming the OAuth error, and
    /// `Err` with the message `refused` makes of it. Ok: the body and the step log's HTTP line.
    pub(super) async fn post_for_json(
        &self,
        title: &str,
        url: &str,
        request: reqwest::RequestBuilder,
        refused: impl FnOnce(reqwest::StatusCode, &str) -> String,
    ) -> Result<(Value, Option<String>), String> {
        let response = request
            .send()
            .await
            .map_err(|e| self.fail(title, format!("POST {url} failed: {e}")))?;
        let status = response.status();
        let line = Some(format!("POST {url} → {}", status.as_u16()));
        let doc = json_body(response).await;
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
        url: &str,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> Result<Value, String> {
        check_endpoint("token endpoint", url).map_err(|e| self.fail(title, e))?;
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let mut request = self
            .http
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(body);
        if let Some((id, secret)) = basic {
            request = request.basic_auth(id, Some(secret));
        }
        let (doc, line) = self
            .post_for_json(title, url, request, |status, why| {
                format!("{title}: HTTP {status} {why}")
            })
            .await?;
        self.step(StepOutcome::Ok, title, "answered", line);
        Ok(doc)
    }

    /// `oauth2`'s HTTP hook over this sign-in's client.
    pub(super) fn oauth_http(&self) -> OauthHttp {
        OauthHttp(self.http.clone())
    }
}

/// oauth2's HTTP hook over our reqwest (0.13) client, with a `Send` future.
pub(super) struct OauthHttp(reqwest::Client);

impl<'c> oauth2::AsyncHttpClient<'c> for OauthHttp {
    type Error = oauth2::HttpClientError<reqwest::Error>;
    type Future = std::pin::Pin<
        Box<
            dyn std::future::Future<Output = Result<oauth2::HttpResponse, Self::Error>> + Send + 'c,
        >,
    >;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let response = self
                .0
                .request(parts.method, parts.uri.to_string())
                .headers(parts.headers)
                .body(body)
                .send()
                .await
                .map_err(Box::new)?;
            let mut builder = oauth2::http::Response::builder().status(response.status());
            for (k, v) in response.headers() {
                builder = builder.header(k, v);
            }
            let bytes = response.bytes().await.map_err(Box::new)?;
            Ok(builder.body(bytes.to_vec())?)
        })
    }
}

/// A response body as JSON; `null` when it is not JSON (the caller says what was expected).
async fn json_body(response: reqwest::Response) -> Value {
    response
        .bytes()
        .await
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null)
}

/// The OAuth error of an error body (RFC 6749 §5.2): its description, else its code.
fn error_text(doc: &Value) -> &str {
    doc.get("error_description")
        .or(doc.get("error"))
        .and_then(Value::as_str)
        .unwrap_or("")
}
