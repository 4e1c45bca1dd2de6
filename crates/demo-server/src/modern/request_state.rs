//! The opaque `requestState` of multi round-trip requests, signed.
//!
//! The client echoes `requestState` back unchanged, so the server must treat
//! it as attacker-controlled (spec: basic/patterns/mrtr, "Server
//! Requirements"). The demo keeps what earlier rounds learned in it, so it
//! is integrity-protected: `base64url(JSON payload) "." base64url(HMAC-SHA256)`
//! under a key that lives as long as the process, with the tool's name and an
//! expiry inside the signed payload.

use std::{
    fmt,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// How long a `requestState` stays valid.
pub const STATE_LIFETIME: Duration = Duration::from_secs(10 * 60);
/// A `requestState` longer than this is refused unread.
const MAX_STATE_LEN: usize = 8 * 1024;
const BLOCK: usize = 64;

/// The per-process signing key.
pub struct StateKey([u8; 32]);

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StateKey(..)")
    }
}

impl Default for StateKey {
    fn default() -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the OS random number generator failed");
        Self(key)
    }
}

/// Why a `requestState` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateRefusal {
    /// Not two base64url parts, or not a JSON object.
    Malformed,
    /// The signature does not match: the state was altered or forged.
    BadSignature,
    /// Issued for another tool.
    OtherTool,
    /// Older than [`STATE_LIFETIME`].
    Expired,
}

impl fmt::Display for StateRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Malformed => "requestState is malformed",
            Self::BadSignature => "requestState failed verification (altered or forged)",
            Self::OtherTool => "requestState was issued for another request",
            Self::Expired => "requestState has expired",
        })
    }
}

impl StateKey {
    /// Seals `fields` (a JSON object) for `tool`, adding the expiry.
    pub fn seal(&self, tool: &str, fields: Value) -> String {
        let mut payload = json!({ "tool": tool, "exp": now_secs() + STATE_LIFETIME.as_secs() });
        if let (Some(payload), Value::Object(fields)) = (payload.as_object_mut(), fields) {
            payload.extend(fields);
        }
        let body = URL_SAFE_NO_PAD.encode(payload.to_string());
        let tag = URL_SAFE_NO_PAD.encode(self.mac(body.as_bytes()));
        format!("{body}.{tag}")
    }

    /// The payload of `state` if it is intact, issued for `tool` and fresh.
    pub fn open(&self, tool: &str, state: &str) -> Result<Value, StateRefusal> {
        if state.len() > MAX_STATE_LEN {
            return Err(StateRefusal::Malformed);
        }
        let (body, tag) = state.split_once('.').ok_or(StateRefusal::Malformed)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| StateRefusal::Malformed)?;
        if !constant_time_eq(&tag, &self.mac(body.as_bytes())) {
            return Err(StateRefusal::BadSignature);
        }
        let payload: Value = URL_SAFE_NO_PAD
            .decode(body)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .filter(Value::is_object)
            .ok_or(StateRefusal::Malformed)?;
        if payload["tool"] != tool {
            return Err(StateRefusal::OtherTool);
        }
        if payload["exp"].as_u64().is_none_or(|exp| exp < now_secs()) {
            return Err(StateRefusal::Expired);
        }
        Ok(payload)
    }

    /// HMAC-SHA256 (RFC 2104) of `message`.
    fn mac(&self, message: &[u8]) -> [u8; 32] {
        let mut inner_pad = [0x36u8; BLOCK];
        let mut outer_pad = [0x5cu8; BLOCK];
        for (index, byte) in self.0.iter().enumerate() {
            inner_pad[index] ^= byte;
            outer_pad[index] ^= byte;
        }
        let inner = Sha256::new()
            .chain_update(inner_pad)
            .chain_update(message)
            .finalize();
        Sha256::new()
            .chain_update(outer_pad)
            .chain_update(inner)
            .finalize()
            .into()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_state_opens_for_its_tool_only() {
        let key = StateKey::default();
        let state = key.seal("t", json!({ "round": 2, "city": "Paris" }));
        let payload = key.open("t", &state).unwrap();
        assert_eq!(payload["city"], "Paris");
        assert_eq!(payload["round"], 2);
        assert_eq!(key.open("other", &state), Err(StateRefusal::OtherTool));
        assert_eq!(
            StateKey::default().open("t", &state),
            Err(StateRefusal::BadSignature)
        );
    }

    #[test]
    fn altered_state_is_refused() {
        let key = StateKey::default();
        let state = key.seal("t", json!({ "city": "Paris" }));
        let (_, tag) = state.split_once('.').unwrap();
        let forged_body = URL_SAFE_NO_PAD
            .encode(json!({ "tool": "t", "exp": u64::MAX, "city": "Rome" }).to_string());
        assert_eq!(
            key.open("t", &format!("{forged_body}.{tag}")),
            Err(StateRefusal::BadSignature)
        );
        assert_eq!(key.open("t", "no-dot"), Err(StateRefusal::Malformed));
    }

    #[test]
    fn hmac_matches_rfc_4231_case_2() {
        // RFC 4231 test case 2 uses a 4-byte key; pad it into our 32-byte key
        // slot (HMAC pads short keys with zeros, so the result is the same).
        let mut key = [0u8; 32];
        key[..4].copy_from_slice(b"Jefe");
        let mac = StateKey(key).mac(b"what do ya want for nothing?");
        let hex: String = mac.iter().map(|byte| format!("{byte:02x}")).collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
