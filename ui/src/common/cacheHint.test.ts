import { describe, expect, it } from "vitest";
import type { CacheHint } from "../bindings/CacheHint";
import { describeCacheHint, describeReuse, formatTtl } from "./cacheHint";

const hint = (extra: Partial<CacheHint> = {}): CacheHint => ({ ttl_ms: 60_000, scope: "public", reused: null, ...extra });

describe("cache hints", () => {
  it("say how long a result stays fresh and who may reuse it", () => {
    expect(describeCacheHint(hint())).toBe("cacheable 60 s · shared");
    expect(describeCacheHint(hint({ ttl_ms: 5_000, scope: "private" }))).toBe("cacheable 5 s · private");
    expect(describeCacheHint(hint({ scope: null }))).toBe("cacheable 60 s · private (the server named no scope)");
    expect(describeCacheHint(hint({ ttl_ms: 0 }))).toBe("not cacheable");
  });

  it("say when the result came from the cache and how long it has left", () => {
    expect(describeReuse(hint())).toBeNull();
    expect(describeReuse(hint({ reused: { age_ms: 48_200, left_ms: 11_800 } }))).toBe("from cache, 12 s left");
  });

  it("read long lifetimes in minutes and hours", () => {
    expect(formatTtl(300_000)).toBe("5 min");
    expect(formatTtl(86_400_000)).toBe("24 h");
    expect(formatTtl(1)).toBe("1 s");
  });
});
