//! Dynamic client registration (RFC 7591): the last way to get a client identity, when no
//! client was entered, none is stored and the server does not take metadata documents.

use serde_json::{Value, json};

use super::StepOutcome;
use super::client::{OAuthClient, State};
use super::metadata::AsMeta;
use super::store::StoredCredentials;
use crate::net_guard::UrlRole;

impl OAuthClient {
    /// Registers a native public client (or whatever the server grants) for `redirect_uri`.
    pub(super) async fn register(
        &self,
        state: &mut State,
        meta: &AsMeta,
        redirect_uri: &str,
    ) -> Result<(), String> {
        let Some(endpoint) = meta.registration_endpoint.clone() else {
            return Err(self.fail(
                "Client",
                "the authorization server offers no dynamic registration and no client ID was entered: enter a pre-registered client ID (and secret) for this server".into(),
            ));
        };
        self.checked(
            "Dynamic client registration",
            UrlRole::RegistrationEndpoint,
            &endpoint,
        )
        .await?;
        let method = match &meta.token_auth_methods {
            Some(list) if list.iter().any(|m| m == "none") => "none".to_string(),
            Some(list) => list
                .iter()
                .find(|m| *m == "client_secret_basic" || *m == "client_secret_post")
                .cloned()
                .unwrap_or_else(|| "client_secret_basic".into()),
            None => "none".into(),
        };
        let body = json!({
            "client_name": self.config.client_name,
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": "native",
        });
        let sent = self
            .http
            .post(&endpoint)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&body).expect("JSON serializes"))
            .send()
            .await;
        let (doc, line) = self
            .post_for_json(
                "Dynamic client registration",
                UrlRole::RegistrationEndpoint,
                &endpoint,
                sent,
                |status, why| {
                    format!("dynamic client registration was refused (HTTP {status}) {why}")
                },
            )
            .await?;
        let client_id = doc
            .get("client_id")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                self.fail(
                    "Dynamic client registration",
                    "the answer has no client_id".into(),
                )
            })?
            .to_string();
        let secret = doc
            .get("client_secret")
            .and_then(Value::as_str)
            .map(str::to_string);
        let granted_method = doc
            .get("token_endpoint_auth_method")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| {
                if secret.is_some() {
                    "client_secret_basic".into()
                } else {
                    "none".into()
                }
            });
        self.step(
            StepOutcome::Ok,
            "Dynamic client registration",
            format!("registered as {client_id}, token endpoint authentication {granted_method}"),
            line,
        );
        state.client_source = "dynamic registration".into();
        state.redirect_uris = vec![redirect_uri.to_string()];
        state.token_auth = Some(granted_method);
        let creds = state.creds.get_or_insert_with(StoredCredentials::default);
        creds.client_id = Some(client_id);
        creds.client_secret = secret;
        Ok(())
    }
}
