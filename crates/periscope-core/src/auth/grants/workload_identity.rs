//! Workload identity federation (SEP-1933): the workload's platform issues it a JWT (a
//! Kubernetes service account token, a CI job's OIDC token, …) whose audience is the
//! authorization server; Periscope presents it in an RFC 7523 JWT bearer grant and gets an
//! access token, no browser and no client secret. A refused grant is reported as the server
//! worded it and not retried, nor answered by another grant: the same assertion would be refused
//! again, and switching grants behind the user's back hides what the server said. The same token
//! is not sent again after a refusal; a rotated one is.

use serde_json::Value;

use super::JWT_BEARER;
use crate::auth::StepOutcome;
use crate::auth::client::{OAuthClient, State};
use crate::auth::config::WorkloadAssertion;
use crate::auth::metadata::AsMeta;
use crate::auth::store::StoredCredentials;
use crate::net_guard::UrlRole;

impl OAuthClient {
    /// The JWT bearer grant with the workload's token as the assertion.
    pub(in crate::auth) async fn workload_identity(
        &self,
        state: &mut State,
        meta: &AsMeta,
        scope: Option<String>,
        source: &WorkloadAssertion,
    ) -> Result<String, String> {
        let title = "Token (workload identity, JWT bearer grant)";
        if let Some(offered) = &meta.grant_types
            && !offered.iter().any(|g| g == JWT_BEARER)
        {
            self.step(
                StepOutcome::Warning,
                title,
                format!(
                    "the authorization server's grant_types_supported ({}) does not list the JWT bearer grant; trying it anyway, as configured",
                    offered.join(", ")
                ),
                None,
            );
        }
        let assertion = source.read().map_err(|e| self.fail(title, e))?;
        let fingerprint = super::super::dpop::token_hash(&assertion);
        if state.refused_assertion.as_deref() == Some(fingerprint.as_str()) {
            return Err(self.fail(
                title,
                format!(
                    "{} was refused before and has not changed: not sent again (replace the token, then sign in again)",
                    source.describe()
                ),
            ));
        }
        let resource = self.resource(state);
        let mut form = vec![
            ("grant_type", JWT_BEARER),
            ("assertion", assertion.as_str()),
            ("resource", resource.as_str()),
        ];
        if let Some(id) = &self.config.client_id {
            form.push(("client_id", id.as_str()));
        }
        if let Some(s) = &scope {
            form.push(("scope", s.as_str()));
        }
        self.checked(title, UrlRole::TokenEndpoint, &meta.token_endpoint)
            .await?;
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&form)
            .finish();
        let make = || {
            self.http
                .post(&meta.token_endpoint)
                .header("content-type", "application/x-www-form-urlencoded")
                .header("accept", "application/json")
                .body(body.clone())
        };
        let sent = self.send_token_request(&meta.token_endpoint, make).await;
        // Only a refusal the server worded marks the token as refused (not a lost connection).
        let mut refused = false;
        let answer = self
            .post_for_json(
                title,
                UrlRole::TokenEndpoint,
                &meta.token_endpoint,
                sent,
                |status, why| {
                    refused = true;
                    format!(
                        "the authorization server refused the JWT bearer grant with {} (HTTP {status}): {why}; not retried",
                        source.describe()
                    )
                },
            )
            .await;
        let (doc, line) = match answer {
            Ok(answer) => answer,
            Err(why) => {
                if refused {
                    state.refused_assertion = Some(fingerprint);
                }
                return Err(why);
            }
        };
        state.refused_assertion = None;
        let token: oauth2::basic::BasicTokenResponse = serde_json::from_value(doc.clone())
            .map_err(|e| self.fail(title, format!("the answer is not a token response: {e}")))?;
        self.step(
            StepOutcome::Ok,
            title,
            format!(
                "access token received for {}",
                doc.get("scope")
                    .and_then(Value::as_str)
                    .map(|s| format!("scope {s:?}"))
                    .unwrap_or_else(|| "the scopes the server chose".into())
            ),
            line,
        );
        state.client_source = "workload identity".into();
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.client_id = self.config.client_id.clone();
        creds.client_secret = None;
        state.meta = Some(meta.clone());
        self.store_tokens(state, meta, &token, scope.as_deref())
            .await?;
        Ok(oauth2::TokenResponse::access_token(&token).secret().clone())
    }
}
