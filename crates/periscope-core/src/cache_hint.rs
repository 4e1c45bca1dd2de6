//! What a modern result says about caching (`ttlMs`, `cacheScope`, 2026-07-28 "Caching"), and
//! whether Periscope answered it from its cache: read here once, so a host shows typed fields
//! and never parses the result itself.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who may reuse a result, as the server said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum CacheScope {
    /// No user-specific data: any client or shared cache may reuse it.
    Public,
    /// Reusable only under the same authorization (sign-in).
    Private,
}

/// A result that came from Periscope's cache, not from the server just now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CacheReuse {
    /// How long ago the server sent it.
    pub age_ms: u64,
    /// How long it stays fresh from now.
    pub left_ms: u64,
}

/// A result's caching hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CacheHint {
    /// How long the result stays fresh; 0: not to be reused.
    pub ttl_ms: u64,
    /// None when the server did not say (Periscope then treats it as private).
    pub scope: Option<CacheScope>,
    pub reused: Option<CacheReuse>,
}

impl CacheHint {
    /// The hints `result` carries, if it carries `ttlMs` (a negative one reads as 0: the spec
    /// says such a result is stale at once). A legacy result has none.
    pub fn of(result: &Value, reused: Option<CacheReuse>) -> Option<CacheHint> {
        let ttl = result.get("ttlMs")?;
        let ttl_ms = ttl
            .as_u64()
            .or_else(|| ttl.as_i64().map(|_| 0))
            .or_else(|| ttl.as_f64().map(|f| f.max(0.0) as u64))?;
        let scope = match result.get("cacheScope").and_then(Value::as_str) {
            Some("public") => Some(CacheScope::Public),
            Some("private") => Some(CacheScope::Private),
            _ => None,
        };
        Some(CacheHint {
            ttl_ms,
            scope,
            reused,
        })
    }

    /// The hints of a list read page by page, as one: fresh as long as its shortest-lived
    /// page, private if any page is, reused only if every page was. None when a page had none.
    pub fn of_pages(pages: &[Option<CacheHint>]) -> Option<CacheHint> {
        let mut pages = pages.iter();
        let mut all = (*pages.next()?)?;
        for page in pages {
            let page = (*page)?;
            all.ttl_ms = all.ttl_ms.min(page.ttl_ms);
            all.scope = match (all.scope, page.scope) {
                (Some(CacheScope::Public), Some(CacheScope::Public)) => Some(CacheScope::Public),
                (Some(CacheScope::Private), _) | (_, Some(CacheScope::Private)) => {
                    Some(CacheScope::Private)
                }
                _ => None,
            };
            all.reused = match (all.reused, page.reused) {
                (Some(a), Some(b)) => Some(CacheReuse {
                    age_ms: a.age_ms.max(b.age_ms),
                    left_ms: a.left_ms.min(b.left_ms),
                }),
                _ => None,
            };
        }
        Some(all)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn hints_are_read_from_the_result_and_absent_on_a_legacy_one() {
        let hint = CacheHint::of(
            &json!({"tools": [], "ttlMs": 60000, "cacheScope": "public"}),
            None,
        );
        assert_eq!(
            hint,
            Some(CacheHint {
                ttl_ms: 60_000,
                scope: Some(CacheScope::Public),
                reused: None
            })
        );
        assert_eq!(CacheHint::of(&json!({"tools": []}), None), None);
        let odd = CacheHint::of(&json!({"ttlMs": -5, "cacheScope": "shared"}), None).unwrap();
        assert_eq!((odd.ttl_ms, odd.scope), (0, None));
    }

    #[test]
    fn pages_combine_to_the_shortest_and_most_private() {
        let page = |ttl_ms, scope, left: Option<u64>| {
            Some(CacheHint {
                ttl_ms,
                scope: Some(scope),
                reused: left.map(|left_ms| CacheReuse { age_ms: 1, left_ms }),
            })
        };
        let all = CacheHint::of_pages(&[
            page(30_000, CacheScope::Public, Some(9_000)),
            page(5_000, CacheScope::Private, Some(4_000)),
        ])
        .unwrap();
        assert_eq!(all.ttl_ms, 5_000);
        assert_eq!(all.scope, Some(CacheScope::Private));
        assert_eq!(all.reused.map(|r| r.left_ms), Some(4_000));
        let fresh = CacheHint::of_pages(&[
            page(1, CacheScope::Public, Some(1)),
            page(1, CacheScope::Public, None),
        ]);
        assert_eq!(fresh.unwrap().reused, None);
        assert_eq!(
            CacheHint::of_pages(&[page(1, CacheScope::Public, None), None]),
            None
        );
        assert_eq!(CacheHint::of_pages(&[]), None);
    }
}
