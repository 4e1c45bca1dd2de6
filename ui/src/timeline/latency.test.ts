import { describe, expect, it } from "vitest";
import type { MethodLatency } from "../bindings/MethodLatency";
import { latencyRange, mergeBuckets, percentiles } from "./latency";

function method(buckets: Array<[number, number, number]>): MethodLatency {
  return {
    method: "tools/call",
    direction: "out",
    count: buckets.reduce((n, [, , c]) => n + c, 0),
    errors: 0,
    min_us: buckets[0]?.[0] ?? 0,
    max_us: buckets[buckets.length - 1]?.[1] ?? 0,
    p50_us: 1_000,
    p90_us: 5_000,
    p99_us: 9_000,
    approximate: false,
    buckets: buckets.map(([lower_us, upper_us, count]) => ({ lower_us, upper_us, count })),
  };
}

describe("the latency plot", () => {
  it("merges fine buckets down to a few bars, keeping the total and the range", () => {
    const fine = Array.from({ length: 100 }, (_, i): [number, number, number] => [i * 10 + 1, (i + 1) * 10 + 1, 1]);
    const bars = mergeBuckets(method(fine).buckets, 40);
    expect(bars.length).toBeLessThanOrEqual(40);
    expect(bars.reduce((n, b) => n + b.count, 0)).toBe(100);
    expect(bars[0]!.lower_us).toBe(1);
    expect(bars[bars.length - 1]!.upper_us).toBe(1_001);
    expect(bars.every((b, i) => i === 0 || bars[i - 1]!.upper_us <= b.lower_us)).toBe(true);
  });

  it("keeps few buckets as they are", () => {
    const m = method([[100, 110, 3], [500, 530, 1]]);
    expect(mergeBuckets(m.buckets)).toEqual(m.buckets);
  });

  it("spans at least a decade, so one bucket is not the whole plot", () => {
    const { min, max } = latencyRange(method([[1_000, 1_060, 5]]));
    expect(max / min).toBeGreaterThanOrEqual(10 - 1e-9);
    expect(min).toBeLessThanOrEqual(1_000);
    expect(max).toBeGreaterThanOrEqual(1_060);
  });

  it("marks p50, p90 and p99 in order", () => {
    expect(percentiles(method([[1, 2, 1]])).map((p) => [p.label, p.us])).toEqual([
      ["p50", 1_000],
      ["p90", 5_000],
      ["p99", 9_000],
    ]);
  });
});
