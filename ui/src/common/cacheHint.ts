// Words for a result's caching hints (MCP 2026-07-28: `ttlMs`, `cacheScope`). The engine reads
// the hints and says when it answered from its cache; this only phrases them.
import type { CacheHint } from "../bindings/CacheHint";
import i18n from "../i18n";

/** Milliseconds in the largest whole unit that reads well: "60 s", "5 min", "24 h". */
export function formatTtl(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return i18n.t("common:duration.seconds", { n: s });
  const min = Math.round(s / 60);
  if (min < 120) return i18n.t("common:duration.minutes", { n: min });
  return i18n.t("common:duration.hours", { n: Math.round(min / 60) });
}

/** "cacheable 60 s · shared", "cacheable 5 s · private", "not cacheable". */
export function describeCacheHint(hint: CacheHint): string {
  if (hint.ttl_ms === 0) return i18n.t("common:cache.notCacheable");
  const scope =
    hint.scope === "public"
      ? i18n.t("common:cache.shared")
      : hint.scope === "private"
        ? i18n.t("common:cache.private")
        : i18n.t("common:cache.privateUnnamed");
  return i18n.t("common:cache.cacheable", { ttl: formatTtl(hint.ttl_ms), scope });
}

/** "from cache, 12 s left", when the result did not come from the server just now. */
export function describeReuse(hint: CacheHint): string | null {
  if (hint.reused === null) return null;
  return i18n.t("common:cache.fromCache", { left: formatTtl(hint.reused.left_ms) });
}
