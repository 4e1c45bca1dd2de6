//! The caching hints (`ttlMs`, `cacheScope`) on modern list, read and
//! discover results (spec: server/utilities/caching).
//!
//! rmcp fills absent hints with `0` / `private`; the demo sets its own so a
//! client has something to show and reuse: public lists that change only when
//! the bonus items are toggled (a listen stream then says so), public static
//! resources, and one private, short-lived resource. The skills (compiled in) change only
//! with a restart.

use rmcp::model::{
    CacheScope, DiscoverResult, GetSkillResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, ReadResourceResult,
};

use crate::resources;

/// `server/discover`: capabilities and versions change only with a restart.
pub const DISCOVER_TTL_MS: u64 = 60 * 60 * 1000;
/// `tools/list` and `prompts/list`.
pub const LIST_TTL_MS: u64 = 60 * 1000;
/// `resources/list` (every page).
pub const RESOURCE_LIST_TTL_MS: u64 = 30 * 1000;
/// `resources/templates/list`.
pub const TEMPLATE_LIST_TTL_MS: u64 = 60 * 60 * 1000;
/// `skills/list`, `skills/get` and `resources/directory/read` of a skill directory.
pub const SKILLS_TTL_MS: u64 = 60 * 60 * 1000;
/// `resources/read` of a `demo://text/N` resource or a template item.
pub const TEXT_READ_TTL_MS: u64 = 5 * 60 * 1000;
/// `resources/read` of the PNG logo, which never changes.
pub const LOGO_READ_TTL_MS: u64 = 24 * 60 * 60 * 1000;
/// `resources/read` of `demo://bonus`: private and fresh for 5 s.
pub const BONUS_READ_TTL_MS: u64 = 5 * 1000;

pub fn discover(result: DiscoverResult) -> DiscoverResult {
    result
        .with_ttl_ms(DISCOVER_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn tools(result: ListToolsResult) -> ListToolsResult {
    result
        .with_ttl_ms(LIST_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn prompts(result: ListPromptsResult) -> ListPromptsResult {
    result
        .with_ttl_ms(LIST_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn resources(result: ListResourcesResult) -> ListResourcesResult {
    result
        .with_ttl_ms(RESOURCE_LIST_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn templates(result: ListResourceTemplatesResult) -> ListResourceTemplatesResult {
    result
        .with_ttl_ms(TEMPLATE_LIST_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn skills(result: ListSkillsResult) -> ListSkillsResult {
    result
        .with_ttl_ms(SKILLS_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn skill(result: GetSkillResult) -> GetSkillResult {
    result
        .with_ttl_ms(SKILLS_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

/// `resources/directory/read` (its result has the shape of `resources/list`).
pub fn directory(result: ListResourcesResult) -> ListResourcesResult {
    result
        .with_ttl_ms(SKILLS_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

/// The hints for reading `uri`.
pub fn read(uri: &str, result: ReadResourceResult) -> ReadResourceResult {
    let (ttl_ms, scope) = match uri {
        resources::BONUS_URI => (BONUS_READ_TTL_MS, CacheScope::Private),
        resources::LOGO_URI => (LOGO_READ_TTL_MS, CacheScope::Public),
        _ => (TEXT_READ_TTL_MS, CacheScope::Public),
    };
    result.with_ttl_ms(ttl_ms).with_cache_scope(scope)
}
