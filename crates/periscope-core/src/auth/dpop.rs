//! DPoP (RFC 9449, SEP-1932): sender-constrained tokens. The sign-in holds one P-256 key per
//! server; a token request carries a proof of it (`DPoP` header, §5) and the authorization
//! server binds the token to the key's thumbprint; every request that presents such a token
//! says `Authorization: DPoP …` and carries a fresh proof naming the method, the URL and the
//! token's hash (§7). A server may demand a nonce of its choosing (`use_dpop_nonce` with a
//! `DPoP-Nonce` header, §8 at the token endpoint, §9 at the resource): the last nonce each
//! origin gave is put in the next proof to it.
//!
//! Keys, proofs and hashes come from `jsonwebtoken` (already the signer of `private_key_jwt`
//! assertions) over its aws-lc backend; only the key generation is aws-lc's own call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{Jwk, ThumbprintHash};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use oauth2::CsrfToken;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::config::DpopMode;

/// The one proof algorithm Periscope signs with (ES256 on P-256: RFC 9449 §11.6's baseline).
pub(super) const DPOP_ALG: &str = "ES256";

/// The `error` of a nonce demand (RFC 9449 §8, §9).
pub(super) const USE_DPOP_NONCE: &str = "use_dpop_nonce";

/// Origins whose nonce is remembered at once; a server naming endless origins cannot grow it.
const MAX_NONCES: usize = 32;

/// A nonce is a server's opaque string; one longer than this is not kept (nor sent back).
const MAX_NONCE_LEN: usize = 1024;

/// A P-256 key pair for proofs. The private half never leaves this type except as the PKCS#8
/// document the secret store keeps (so a stored DPoP-bound token stays usable).
pub(super) struct DpopKey {
    pkcs8: Vec<u8>,
    encoding: EncodingKey,
    jwk: Jwk,
    thumbprint: String,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey")
            .field("thumbprint", &self.thumbprint)
            .finish_non_exhaustive()
    }
}

impl DpopKey {
    /// A new key pair.
    pub(super) fn generate() -> Result<DpopKey, String> {
        let document = aws_lc_rs::signature::EcdsaKeyPair::generate_pkcs8(
            &aws_lc_rs::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            &aws_lc_rs::rand::SystemRandom::new(),
        )
        .map_err(|_| "could not generate a DPoP key".to_string())?;
        DpopKey::from_pkcs8(document.as_ref())
    }

    /// The key of a PKCS#8 document (as [`DpopKey::to_stored`] wrote it, base64url-decoded).
    pub(super) fn from_pkcs8(pkcs8: &[u8]) -> Result<DpopKey, String> {
        let encoding = EncodingKey::from_ec_der(pkcs8);
        let jwk = Jwk::from_encoding_key(&encoding, Algorithm::ES256)
            .map_err(|e| format!("the DPoP key is not a P-256 key: {e}"))?;
        let thumbprint = jwk.thumbprint(ThumbprintHash::SHA256);
        Ok(DpopKey {
            pkcs8: pkcs8.to_vec(),
            encoding,
            jwk,
            thumbprint,
        })
    }

    /// The key as the secret store keeps it (base64url of the PKCS#8 document).
    pub(super) fn to_stored(&self) -> String {
        URL_SAFE_NO_PAD.encode(&self.pkcs8)
    }

    pub(super) fn from_stored(stored: &str) -> Result<DpopKey, String> {
        let der = URL_SAFE_NO_PAD
            .decode(stored)
            .map_err(|_| "the stored DPoP key is not base64url".to_string())?;
        DpopKey::from_pkcs8(&der)
    }

    /// RFC 7638 thumbprint of the public key: what a bound token's `cnf.jkt` names.
    pub(super) fn thumbprint(&self) -> &str {
        &self.thumbprint
    }

    /// A proof for one request (RFC 9449 §4.2): a fresh `jti`, `htm`, `htu` (the URL without
    /// query and fragment), `iat`, and when given the access token's hash (`ath`) and the
    /// server's nonce.
    pub(super) fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, String> {
        let mut header = Header::new(Algorithm::ES256);
        header.typ = Some("dpop+jwt".into());
        header.jwk = Some(self.jwk.clone());
        let mut claims = json!({
            "jti": CsrfToken::new_random().secret(),
            "htm": method.to_ascii_uppercase(),
            "htu": htu(url)?,
            "iat": now_s(),
        });
        if let Some(token) = access_token {
            claims["ath"] = json!(token_hash(token));
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = json!(nonce);
        }
        jsonwebtoken::encode(&header, &claims, &self.encoding)
            .map_err(|e| format!("could not sign a DPoP proof: {e}"))
    }
}

/// `htu`: the request URL without its query and fragment (RFC 9449 §4.2).
fn htu(url: &str) -> Result<String, String> {
    let mut u = url::Url::parse(url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    u.set_query(None);
    u.set_fragment(None);
    Ok(u.to_string())
}

/// `ath`: base64url of the SHA-256 of the token's ASCII bytes (RFC 9449 §4.2).
pub(super) fn token_hash(token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()))
}

/// Unix seconds, for `iat`.
fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

fn origin_of(url: &str) -> Option<String> {
    url::Url::parse(url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

/// Is this the `token_type` of a DPoP-bound token (RFC 9449 §5: "DPoP", case-insensitively)?
pub(super) fn is_dpop_token_type(token_type: &str) -> bool {
    token_type.eq_ignore_ascii_case("dpop")
}

/// One server's DPoP state, shared by the sign-in (token requests) and the transport (each
/// request that presents a token): the key, which token is bound to it, and the nonces.
#[derive(Default)]
pub(super) struct Dpop {
    key: Mutex<Option<Arc<DpopKey>>>,
    /// Whether token requests carry proofs (this sign-in chose DPoP).
    active: Mutex<bool>,
    /// The hash (`ath`) of the access token bound to the key; None: the token is a bearer one.
    bound: Mutex<Option<String>>,
    nonces: Mutex<HashMap<String, String>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Dpop {
    /// The key, made on first use. The same key serves every sign-in of the server, so a
    /// refresh token bound to it keeps working (RFC 9449 §5).
    pub(super) fn key(&self) -> Result<Arc<DpopKey>, String> {
        let mut key = lock(&self.key);
        if let Some(k) = key.as_ref() {
            return Ok(k.clone());
        }
        let made = Arc::new(DpopKey::generate()?);
        *key = Some(made.clone());
        Ok(made)
    }

    /// The key the store kept with a DPoP-bound token, taken up again.
    pub(super) fn restore(&self, key: DpopKey) {
        *lock(&self.key) = Some(Arc::new(key));
    }

    /// Whether token requests from now on carry proofs.
    pub(super) fn set_active(&self, on: bool) {
        *lock(&self.active) = on;
    }

    pub(super) fn active(&self) -> bool {
        *lock(&self.active)
    }

    /// The token now held: bound to the key (its hash kept), or a bearer one.
    pub(super) fn hold(&self, access_token: Option<&str>, bound: bool) {
        *lock(&self.bound) = access_token.filter(|_| bound).map(token_hash);
    }

    /// Whether `token` is the DPoP-bound one.
    pub(super) fn is_bound(&self, token: &str) -> bool {
        lock(&self.bound).as_deref() == Some(token_hash(token).as_str())
    }

    /// Remembers the nonce a server at `url` handed out (in a `DPoP-Nonce` header).
    pub(super) fn remember_nonce(&self, url: &str, nonce: &str) {
        let (Some(origin), false) = (origin_of(url), nonce.len() > MAX_NONCE_LEN) else {
            return;
        };
        let mut nonces = lock(&self.nonces);
        if nonces.len() >= MAX_NONCES && !nonces.contains_key(&origin) {
            nonces.clear();
        }
        nonces.insert(origin, nonce.to_string());
    }

    pub(super) fn nonce_for(&self, url: &str) -> Option<String> {
        lock(&self.nonces).get(&origin_of(url)?).cloned()
    }

    /// A proof for a token request to `url` (no `ath`), with the server's nonce if it gave one.
    pub(super) fn token_request_proof(&self, url: &str) -> Result<String, String> {
        let nonce = self.nonce_for(url);
        self.key()?.proof("POST", url, None, nonce.as_deref())
    }

    /// The headers that present the bound `token` on a request (RFC 9449 §7.1), or None when
    /// `token` is not the DPoP-bound one (it then goes as a bearer token).
    pub(super) fn present(
        &self,
        token: &str,
        method: &str,
        url: &str,
    ) -> Option<Vec<(String, String)>> {
        if !self.is_bound(token) {
            return None;
        }
        let mut headers = vec![("authorization".to_string(), format!("DPoP {token}"))];
        let key = lock(&self.key).clone();
        let nonce = self.nonce_for(url);
        match key.map(|k| k.proof(method, url, Some(token), nonce.as_deref())) {
            Some(Ok(proof)) => headers.push(("dpop".into(), proof)),
            // Sent without a proof, the server refuses it with a 401 the record shows.
            Some(Err(e)) => tracing::warn!("DPoP proof not made: {e}"),
            None => tracing::warn!("DPoP proof not made: no key"),
        }
        Some(headers)
    }
}

/// Whether the authorization server signs DPoP-bound tokens with a proof Periscope can make
/// (`dpop_signing_alg_values_supported` lists ES256, RFC 9449 §5.1).
pub(super) fn server_accepts(algs: Option<&[String]>) -> bool {
    algs.is_some_and(|a| a.iter().any(|x| x == DPOP_ALG))
}

/// What the sign-in does about DPoP with this authorization server, or why it cannot go on.
pub(super) fn decide(mode: DpopMode, algs: Option<&[String]>) -> Result<bool, String> {
    match mode {
        DpopMode::Off => Ok(false),
        DpopMode::Auto => Ok(server_accepts(algs)),
        DpopMode::Required if server_accepts(algs) => Ok(true),
        DpopMode::Required => Err(match algs {
            None => "DPoP is required for this server, but its authorization server does not advertise dpop_signing_alg_values_supported".into(),
            Some(list) => format!(
                "DPoP is required for this server, but its authorization server's dpop_signing_alg_values_supported ({}) does not list {DPOP_ALG}, the algorithm Periscope signs proofs with",
                list.join(", ")
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use jsonwebtoken::{DecodingKey, Validation};

    use super::*;

    fn decode(proof: &str) -> (Header, serde_json::Value) {
        let header = jsonwebtoken::decode_header(proof).unwrap();
        let jwk = header.jwk.clone().expect("the public key is in the header");
        let key = DecodingKey::from_jwk(&jwk).unwrap();
        let mut validation = Validation::new(Algorithm::ES256);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        let claims = jsonwebtoken::decode::<serde_json::Value>(proof, &key, &validation)
            .expect("the proof verifies with the key it carries")
            .claims;
        (header, claims)
    }

    #[test]
    fn a_proof_is_a_signed_dpop_jwt_naming_the_request_and_the_token() {
        let key = DpopKey::generate().unwrap();
        let proof = key
            .proof(
                "post",
                "http://localhost:3000/mcp?x=1#f",
                Some("tok"),
                Some("n-1"),
            )
            .unwrap();
        let (header, claims) = decode(&proof);
        assert_eq!(header.typ.as_deref(), Some("dpop+jwt"));
        assert_eq!(header.alg, Algorithm::ES256);
        let jwk = serde_json::to_value(header.jwk.as_ref().unwrap()).unwrap();
        assert!(jwk.get("d").is_none(), "never the private key: {jwk}");
        assert_eq!(
            header.jwk.unwrap().thumbprint(ThumbprintHash::SHA256),
            key.thumbprint()
        );
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "http://localhost:3000/mcp");
        assert_eq!(claims["ath"], token_hash("tok"));
        assert_eq!(claims["nonce"], "n-1");
        assert!(claims["iat"].as_u64().unwrap() >= now_s() - 5);
        let again = decode(
            &key.proof("POST", "http://localhost:3000/mcp", None, None)
                .unwrap(),
        )
        .1;
        assert_ne!(claims["jti"], again["jti"], "a fresh jti each time");
        assert!(again.get("ath").is_none() && again.get("nonce").is_none());
    }

    #[test]
    fn the_access_token_hash_is_rfc_9449s_example() {
        // RFC 9449 §7.1: the access token and the ath of the example request.
        assert_eq!(
            token_hash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"),
            "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        );
    }

    #[test]
    fn a_stored_key_comes_back_as_the_same_key() {
        let key = DpopKey::generate().unwrap();
        let back = DpopKey::from_stored(&key.to_stored()).unwrap();
        assert_eq!(back.thumbprint(), key.thumbprint());
        assert!(DpopKey::from_stored("not base64!").is_err());
        assert!(!format!("{key:?}").contains(&key.to_stored()));
    }

    #[test]
    fn only_the_bound_token_is_presented_with_a_proof_and_the_origins_nonce() {
        let dpop = Dpop::default();
        dpop.key().unwrap();
        assert!(dpop.present("tok", "POST", "http://h:1/mcp").is_none());
        dpop.hold(Some("tok"), true);
        dpop.remember_nonce("http://h:1/other", "rs-nonce");
        dpop.remember_nonce("http://elsewhere:2/token", "as-nonce");
        let headers = dpop.present("tok", "POST", "http://h:1/mcp").unwrap();
        assert_eq!(headers[0], ("authorization".into(), "DPoP tok".into()));
        assert_eq!(headers[1].0, "dpop");
        assert_eq!(decode(&headers[1].1).1["nonce"], "rs-nonce");
        assert!(dpop.present("another", "POST", "http://h:1/mcp").is_none());
        dpop.hold(Some("tok"), false);
        assert!(dpop.present("tok", "POST", "http://h:1/mcp").is_none());
        dpop.remember_nonce("http://h:1/", &"n".repeat(MAX_NONCE_LEN + 1));
        assert_eq!(dpop.nonce_for("http://h:1/").as_deref(), Some("rs-nonce"));
    }

    #[test]
    fn the_mode_decides_with_what_the_server_advertises() {
        let es256 = vec!["ES256".to_string(), "RS256".to_string()];
        let rs_only = vec!["RS256".to_string()];
        assert_eq!(decide(DpopMode::Auto, Some(&es256)), Ok(true));
        assert_eq!(decide(DpopMode::Auto, Some(&rs_only)), Ok(false));
        assert_eq!(decide(DpopMode::Auto, None), Ok(false));
        assert_eq!(decide(DpopMode::Off, Some(&es256)), Ok(false));
        assert_eq!(decide(DpopMode::Required, Some(&es256)), Ok(true));
        assert!(
            decide(DpopMode::Required, Some(&rs_only))
                .unwrap_err()
                .contains("RS256")
        );
        assert!(decide(DpopMode::Required, None).is_err());
    }
}
