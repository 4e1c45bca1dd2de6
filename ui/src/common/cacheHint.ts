// Words for a result's caching hints (MCP 2026-07-28: `ttlMs`, `cacheScope`). The engine reads
// the hints and says when it answered from its cache; this only phrases them.
import type { CacheHint } from "../bindings/CacheHint";

/** Milliseconds in the largest whole unit that reads well: "60 s", "5 min", "24 h". */
export function formatTtl(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  return `${Math.round(min / 60)} h`;
}

/** "cacheable 60 s · shared", "cacheable 5 s · private", "not cacheable". */
export function describeCacheHint(hint: CacheHint): string {
  if (hint.ttl_ms === 0) return "not cacheable";
  const scope =
    hint.scope === "public" ? "shared" : hint.scope === "private" ? "private" : "private (the server named no scope)";
  return `cacheable ${formatTtl(hint.ttl_ms)} · ${scope}`;
}

/** "from cache, 12 s left", when the result did not come from the server just now. */
export function describeReuse(hint: CacheHint): string | null {
  if (hint.reused === null) return null;
  return `from cache, ${formatTtl(hint.reused.left_ms)} left`;
}
