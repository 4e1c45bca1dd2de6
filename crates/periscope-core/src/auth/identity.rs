//! Who the client is to an authorization server, in the spec's order: a pre-registered client
//! the user entered, the registration stored from before, a Client ID Metadata Document, and
//! last dynamic client registration. Also how a confidential client authenticates at the
//! token endpoint (a secret, or a `private_key_jwt` assertion).

use oauth2::CsrfToken;
use serde_json::json;

use super::StepOutcome;
use super::client::{OAuthClient, State, now_s};
use super::metadata::AsMeta;
use super::store::StoredCredentials;

impl OAuthClient {
    /// Who we are to this authorization server.
    pub(super) async fn identify(
        &self,
        state: &mut State,
        meta: &AsMeta,
        redirect_uri: &str,
    ) -> Result<(), String> {
        if let Some(id) = &self.config.client_id {
            state.client_source = "pre-registered".into();
            let creds = state.creds.get_or_insert_with(StoredCredentials::default);
            creds.client_id = Some(id.clone());
            creds.client_secret = self.config.client_secret.clone();
            state.token_auth = Some(if self.config.client_secret.is_some() {
                pick_secret_method(meta)
            } else {
                "none".into()
            });
            self.step(
                StepOutcome::Ok,
                "Client",
                format!("pre-registered client ID {id}"),
                None,
            );
            return Ok(());
        }
        if let Some(creds) = &state.creds
            && creds.client_id.is_some()
            && creds.issuer == meta.issuer
            && state.redirect_uris.iter().any(|u| u == redirect_uri)
        {
            self.step(
                StepOutcome::Ok,
                "Client",
                "the registration from before",
                None,
            );
            return Ok(());
        }
        if meta.cimd_supported
            && let Some(url) = &self.config.client_metadata_url
        {
            state.client_source = "client ID metadata document".into();
            let creds = state.creds.get_or_insert_with(StoredCredentials::default);
            creds.client_id = Some(url.clone());
            creds.client_secret = None;
            state.token_auth = Some("none".into());
            self.step(
                StepOutcome::Ok,
                "Client",
                format!("the server supports client ID metadata documents → client_id is {url}"),
                None,
            );
            return Ok(());
        }
        self.register(state, meta, redirect_uri).await
    }

    /// A signed client assertion (RFC 7523 §2.2): iss = sub = the client ID, aud = the
    /// authorization server, five minutes of validity, a fresh jti.
    pub(super) fn client_assertion(&self, meta: &AsMeta, pem: &str) -> Result<String, String> {
        let alg = self.config.signing_algorithm.as_deref().unwrap_or("ES256");
        let algorithm: jsonwebtoken::Algorithm = alg.parse().map_err(|_| {
            self.fail(
                "Client assertion",
                format!("unknown signing algorithm {alg:?}"),
            )
        })?;
        let key = match algorithm {
            jsonwebtoken::Algorithm::ES256 | jsonwebtoken::Algorithm::ES384 => {
                jsonwebtoken::EncodingKey::from_ec_pem(pem.as_bytes())
            }
            jsonwebtoken::Algorithm::EdDSA => {
                jsonwebtoken::EncodingKey::from_ed_pem(pem.as_bytes())
            }
            _ => jsonwebtoken::EncodingKey::from_rsa_pem(pem.as_bytes()),
        }
        .map_err(|e| {
            self.fail(
                "Client assertion",
                format!("the private key is not usable: {e}"),
            )
        })?;
        let now = now_s();
        let claims = json!({
            "iss": self.config.client_id,
            "sub": self.config.client_id,
            "aud": meta.issuer,
            "iat": now,
            "exp": now + 300,
            "jti": CsrfToken::new_random().secret(),
        });
        let jwt = jsonwebtoken::encode(&jsonwebtoken::Header::new(algorithm), &claims, &key)
            .map_err(|e| self.fail("Client assertion", format!("could not sign: {e}")))?;
        self.step(
            StepOutcome::Ok,
            "Client assertion",
            format!(
                "private_key_jwt signed with {alg} for audience {}",
                meta.issuer
            ),
            None,
        );
        Ok(jwt)
    }
}

/// With a secret: `client_secret_basic` unless the server offers only `client_secret_post`.
pub(super) fn pick_secret_method(meta: &AsMeta) -> String {
    match &meta.token_auth_methods {
        Some(list)
            if !list.iter().any(|m| m == "client_secret_basic")
                && list.iter().any(|m| m == "client_secret_post") =>
        {
            "client_secret_post".into()
        }
        _ => "client_secret_basic".into(),
    }
}
