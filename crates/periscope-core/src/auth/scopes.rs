//! Which scopes to ask for: the challenge's, else the resource's, plus `offline_access` when
//! the authorization server offers it; on `insufficient_scope`, what was granted and more.

use super::client::{OAuthClient, State};
use super::metadata::AsMeta;
use super::{Challenge, StepOutcome};

/// Both scope lists in one, each scope once, in first-seen order.
pub(super) fn union_scopes(a: Option<&str>, b: Option<&str>) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for s in a.into_iter().chain(b).flat_map(|s| s.split_whitespace()) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

impl OAuthClient {
    /// The scopes of a sign-in, from the challenge and the metadata `discover` found.
    pub(super) fn choose_scopes(
        &self,
        challenge: &Challenge,
        prm_scopes: Option<&[String]>,
        meta: &AsMeta,
    ) -> Option<String> {
        // Scopes: the challenge's, else the resource's scopes_supported, else none.
        let mut scope = match (&challenge.scope, prm_scopes) {
            (Some(s), _) if !s.trim().is_empty() => {
                self.step(
                    StepOutcome::Ok,
                    "Scopes",
                    format!("from the challenge: {s}"),
                    None,
                );
                Some(s.clone())
            }
            (_, Some(list)) if !list.is_empty() => {
                let s = list.join(" ");
                self.step(
                    StepOutcome::Ok,
                    "Scopes",
                    format!("no scope in the challenge → the resource's scopes_supported: {s}"),
                    None,
                );
                Some(s)
            }
            _ => {
                self.step(
                    StepOutcome::Ok,
                    "Scopes",
                    "none in the challenge or the metadata → asking for no scope",
                    None,
                );
                None
            }
        };
        if scope.is_some()
            && meta
                .scopes_supported
                .as_ref()
                .is_some_and(|s| s.iter().any(|x| x == "offline_access"))
            && !scope
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .any(|s| s == "offline_access")
        {
            scope = union_scopes(scope.as_deref(), Some("offline_access"));
            self.step(StepOutcome::Ok, "Scopes", "the authorization server offers offline_access → asking for it too (a refresh token)", None);
        }
        scope
    }

    /// Step-up (`insufficient_scope`): the scopes already granted together with the new ones,
    /// so the new token does not lose what the old one could do.
    pub(super) fn step_up(&self, state: &State, scope: Option<String>) -> Option<String> {
        let granted = state.creds.as_ref().and_then(|c| c.scope.clone());
        let scope = union_scopes(granted.as_deref(), scope.as_deref());
        self.step(
            StepOutcome::Ok,
            "Step-up",
            format!(
                "the token lacks scope → asking again for {}",
                scope.as_deref().unwrap_or("")
            ),
            None,
        );
        scope
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_unite_without_repeats() {
        assert_eq!(
            union_scopes(Some("a b"), Some("b c")).as_deref(),
            Some("a b c")
        );
        assert_eq!(union_scopes(None, None), None);
    }
}
