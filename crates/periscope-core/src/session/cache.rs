//! Cacheable results (2026-07-28, "Caching"): a modern server says how long a discover, list or
//! read result stays fresh (`ttlMs`) and who may reuse it (`cacheScope`). Periscope reuses a
//! fresh result instead of asking again, and says so; a list-changed or resource-updated
//! notification makes the matching entries stale at once; a `private` result is never reused
//! after the sign-in changed (another token may be another user).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::vocabulary::method::names;
use serde_json::Value;

/// The methods whose results carry caching hints.
const CACHEABLE: &[&str] = &[
    names::SERVER_DISCOVER,
    names::TOOLS_LIST,
    names::PROMPTS_LIST,
    names::RESOURCES_LIST,
    names::RESOURCE_TEMPLATES_LIST,
    names::RESOURCES_READ,
];

/// Entries kept at most (the oldest goes first): a server cannot make the cache grow by
/// handing out endless cursors or URIs.
const MAX_ENTRIES: usize = 256;

/// A reused result: how old it is, how long it stays fresh, and whether it was private.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheHit {
    pub result: Value,
    pub age: Duration,
    pub left: Duration,
    pub private: bool,
}

struct Entry {
    method: String,
    uri: Option<String>,
    result: Value,
    received: Instant,
    ttl: Duration,
    /// For a private result: the sign-in it was fetched under.
    private_to: Option<u64>,
}

#[derive(Default)]
pub(super) struct ResultCache {
    entries: HashMap<String, Entry>,
}

/// The cache key: the method and the params that shape the result (everything but `_meta`),
/// or None when the request may not be answered from (or stored in) the cache: a method
/// without hints, or a retry carrying input (`inputResponses`, `requestState`).
fn key(method: &str, params: Option<&Value>) -> Option<String> {
    if !CACHEABLE.contains(&method) {
        return None;
    }
    let mut params = params.cloned().unwrap_or(Value::Null);
    if let Value::Object(map) = &mut params {
        if map.contains_key("inputResponses") || map.contains_key("requestState") {
            return None;
        }
        map.remove("_meta");
    }
    Some(format!("{method} {params}"))
}

impl ResultCache {
    /// A fresh result for this request, if there is one (`generation`: the current sign-in).
    pub(super) fn get(
        &mut self,
        method: &str,
        params: Option<&Value>,
        generation: u64,
    ) -> Option<CacheHit> {
        let key = key(method, params)?;
        let entry = self.entries.get(&key)?;
        let age = entry.received.elapsed();
        let fresh = age < entry.ttl && entry.private_to.is_none_or(|g| g == generation);
        if !fresh {
            self.entries.remove(&key);
            return None;
        }
        Some(CacheHit {
            result: entry.result.clone(),
            age,
            left: entry.ttl - age,
            private: entry.private_to.is_some(),
        })
    }

    /// Keeps a complete result whose `ttlMs` is positive (0, absent or negative: stale at once).
    pub(super) fn put(
        &mut self,
        method: &str,
        params: Option<&Value>,
        result: &Value,
        generation: u64,
    ) {
        let Some(key) = key(method, params) else {
            return;
        };
        let complete = matches!(
            result.get("resultType").and_then(Value::as_str),
            None | Some("complete")
        );
        let ttl_ms = result.get("ttlMs").and_then(Value::as_i64).unwrap_or(0);
        if !complete || ttl_ms <= 0 {
            self.entries.remove(&key);
            return;
        }
        if self.entries.len() >= MAX_ENTRIES
            && !self.entries.contains_key(&key)
            && let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, e)| e.received)
                .map(|(k, _)| k.clone())
        {
            self.entries.remove(&oldest);
        }
        let private = result.get("cacheScope").and_then(Value::as_str) != Some("public");
        self.entries.insert(
            key,
            Entry {
                method: method.to_string(),
                uri: params
                    .and_then(|p| p.get("uri"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                result: result.clone(),
                received: Instant::now(),
                ttl: Duration::from_millis(ttl_ms as u64),
                // Anything not marked public is treated as private (the safe reading).
                private_to: private.then_some(generation),
            },
        );
    }

    /// A list changed: its pages are stale.
    pub(super) fn list_changed(&mut self, list: &str) {
        self.entries.retain(|_, e| e.method != list);
    }

    /// A resource changed: its reads are stale.
    pub(super) fn resource_updated(&mut self, uri: &str) {
        self.entries
            .retain(|_, e| !(e.method == names::RESOURCES_READ && e.uri.as_deref() == Some(uri)));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_fresh_result_is_reused_for_the_same_request_only() {
        let mut cache = ResultCache::default();
        let read = json!({"uri": "demo://a", "_meta": {"x": 1}});
        let result = json!({"contents": [], "ttlMs": 60_000, "cacheScope": "public"});
        cache.put("resources/read", Some(&read), &result, 0);
        // `_meta` is not part of the key; the uri is.
        let again = json!({"uri": "demo://a", "_meta": {"x": 2}});
        let hit = cache.get("resources/read", Some(&again), 7).unwrap();
        assert_eq!(hit.result, result);
        assert!(!hit.private);
        assert!(hit.left <= Duration::from_secs(60));
        assert!(
            cache
                .get("resources/read", Some(&json!({"uri": "demo://b"})), 0)
                .is_none()
        );
        // A retry carrying input is never answered from the cache.
        let retry = json!({"uri": "demo://a", "requestState": "s"});
        assert!(cache.get("resources/read", Some(&retry), 0).is_none());
        // Nor is a method without hints.
        cache.put("tools/call", None, &result, 0);
        assert!(cache.get("tools/call", None, 0).is_none());
    }

    #[test]
    fn zero_absent_or_negative_ttl_and_interim_results_are_not_kept() {
        let mut cache = ResultCache::default();
        for result in [
            json!({"tools": [], "ttlMs": 0}),
            json!({"tools": []}),
            json!({"tools": [], "ttlMs": -5}),
            json!({"resultType": "input_required", "ttlMs": 60_000}),
        ] {
            cache.put("tools/list", None, &result, 0);
            assert!(cache.get("tools/list", None, 0).is_none(), "{result}");
        }
    }

    #[test]
    fn private_results_do_not_survive_a_new_sign_in() {
        let mut cache = ResultCache::default();
        let result = json!({"contents": [], "ttlMs": 60_000, "cacheScope": "private"});
        let read = json!({"uri": "demo://me"});
        cache.put("resources/read", Some(&read), &result, 1);
        assert!(cache.get("resources/read", Some(&read), 1).unwrap().private);
        assert!(cache.get("resources/read", Some(&read), 2).is_none());
    }

    #[test]
    fn notifications_make_entries_stale() {
        let mut cache = ResultCache::default();
        let list = json!({"tools": [], "ttlMs": 60_000, "cacheScope": "public"});
        cache.put("tools/list", None, &list, 0);
        cache.put("tools/list", Some(&json!({"cursor": "2"})), &list, 0);
        let read = json!({"contents": [], "ttlMs": 60_000, "cacheScope": "public"});
        cache.put("resources/read", Some(&json!({"uri": "u"})), &read, 0);
        cache.list_changed("tools/list");
        assert!(cache.get("tools/list", None, 0).is_none());
        assert!(
            cache
                .get("tools/list", Some(&json!({"cursor": "2"})), 0)
                .is_none()
        );
        assert!(
            cache
                .get("resources/read", Some(&json!({"uri": "u"})), 0)
                .is_some()
        );
        cache.resource_updated("u");
        assert!(
            cache
                .get("resources/read", Some(&json!({"uri": "u"})), 0)
                .is_none()
        );
    }

    #[test]
    fn the_cache_is_bounded() {
        let mut cache = ResultCache::default();
        let read = json!({"contents": [], "ttlMs": 60_000, "cacheScope": "public"});
        for i in 0..(MAX_ENTRIES + 10) {
            cache.put(
                "resources/read",
                Some(&json!({"uri": i.to_string()})),
                &read,
                0,
            );
        }
        assert_eq!(cache.entries.len(), MAX_ENTRIES);
    }
}
