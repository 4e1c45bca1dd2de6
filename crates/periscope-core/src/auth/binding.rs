//! Authorization server binding (SEP-2352, 2026-07-28 client registration): a client identity
//! and its tokens belong to the authorization server that issued them. When the resource
//! metadata names another issuer than the one the sign-in holds credentials for, those are set
//! aside (still stored under their issuer) and the new issuer's own, stored ones or none, are
//! taken up; a registration then happens anew. A pre-registered client ID is one server's: when
//! the issuer it was used with changes, the sign-in stops and says so rather than present it
//! elsewhere. Client ID metadata document URLs are portable and need nothing of this.

use super::StepOutcome;
use super::client::{OAuthClient, State};
use super::store::StoredCredentials;

/// What the sign-in does with the credentials it holds for the issuer just discovered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Binding {
    /// Nothing held yet, or held for this very issuer: go on.
    Same,
    /// Held for another issuer: set aside; the new issuer's stored credentials, if any, or none.
    Migrated { from: String },
    /// A pre-registered client ID used with another issuer: not presented to this one.
    PreRegisteredElsewhere { registered_with: String },
}

/// How `held` (credentials of an earlier sign-in, or stored) relates to `issuer`. Issuers are
/// compared as plain strings, as everywhere an issuer is compared.
pub(super) fn binding(
    held: Option<&StoredCredentials>,
    issuer: &str,
    pre_registered: bool,
) -> Binding {
    match held {
        Some(creds) if !creds.issuer.is_empty() && creds.issuer != issuer => {
            if pre_registered && creds.client_id.is_some() {
                Binding::PreRegisteredElsewhere {
                    registered_with: creds.issuer.clone(),
                }
            } else {
                Binding::Migrated {
                    from: creds.issuer.clone(),
                }
            }
        }
        _ => Binding::Same,
    }
}

impl OAuthClient {
    /// Makes the sign-in's credentials those of `issuer` (see the module's note); Err when a
    /// pre-registered client would be presented to an authorization server it was not
    /// registered with.
    pub(super) fn bind_issuer(&self, state: &mut State, issuer: &str) -> Result<(), String> {
        let pre_registered = self.config.client_id.is_some();
        match binding(state.creds.as_ref(), issuer, pre_registered) {
            Binding::Same => Ok(()),
            Binding::PreRegisteredElsewhere { registered_with } => Err(self.fail(
                "Authorization server",
                format!(
                    "the server now names the authorization server {issuer}, but the pre-registered client ID was used with {registered_with}: client IDs belong to the server that issued them, so it is not presented to the new one; enter the client registered with {issuer} (or clear the client ID to register anew)"
                ),
            )),
            Binding::Migrated { from } => {
                let stored = self.store.as_ref().and_then(|store| {
                    store
                        .load(&self.config.server_url, issuer)
                        .ok()
                        .flatten()
                });
                let found = stored.is_some();
                state.creds = Some(stored.unwrap_or_else(|| StoredCredentials {
                    issuer: issuer.to_string(),
                    server_url: self.config.server_url.clone(),
                    ..StoredCredentials::default()
                }));
                state.meta = None;
                state.token_auth = None;
                state.redirect_uris.clear();
                state.client_source = if found {
                    "stored registration".into()
                } else {
                    String::new()
                };
                self.step(
                    StepOutcome::Warning,
                    "Authorization server changed",
                    format!(
                        "the resource metadata now names {issuer} instead of {from}: credentials belong to the server that issued them, so {from}'s client and tokens are set aside (kept for it) and {}",
                        if found {
                            format!("the ones stored for {issuer} are used")
                        } else {
                            format!("the client registers with {issuer} anew")
                        }
                    ),
                    None,
                );
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(issuer: &str) -> StoredCredentials {
        StoredCredentials {
            issuer: issuer.into(),
            client_id: Some("as1-client".into()),
            ..StoredCredentials::default()
        }
    }

    #[test]
    fn credentials_of_another_issuer_are_set_aside_and_a_pre_registered_client_stops() {
        let as1 = held("http://localhost:4001");
        assert_eq!(binding(None, "http://localhost:4002", false), Binding::Same);
        assert_eq!(
            binding(Some(&as1), "http://localhost:4001", false),
            Binding::Same
        );
        assert_eq!(
            binding(Some(&as1), "http://localhost:4002", false),
            Binding::Migrated {
                from: "http://localhost:4001".into()
            }
        );
        // Not even a trailing slash makes it the same issuer.
        assert!(matches!(
            binding(Some(&as1), "http://localhost:4001/", false),
            Binding::Migrated { .. }
        ));
        assert_eq!(
            binding(Some(&as1), "http://localhost:4002", true),
            Binding::PreRegisteredElsewhere {
                registered_with: "http://localhost:4001".into()
            }
        );
        // Credentials never bound to an issuer (a client entered, nothing signed in yet).
        assert_eq!(
            binding(Some(&held("")), "http://localhost:4002", true),
            Binding::Same
        );
    }
}
