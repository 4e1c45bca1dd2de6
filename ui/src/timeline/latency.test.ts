import { describe, expect, it } from "vitest";
import type { MethodLatency } from "../bindings/MethodLatency";
import { binBuckets, latencyRange, percentiles } from "./latency";

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
  it("sums fine buckets into equal bins across the range, keeping the total", () => {
    const fine = Array.from({ length: 100 }, (_, i): [number, number, number] => [i * 10 + 1, (i + 1) * 10 + 1, 1]);
    const bars = binBuckets(method(fine).buckets, 1, 1_001, 30);
    expect(bars.length).toBeLessThanOrEqual(30);
    expect(bars.reduce((n, b) => n + b.count, 0)).toBe(100);
    expect(bars[0]!.lower_us).toBeGreaterThanOrEqual(1);
    expect(bars[bars.length - 1]!.upper_us).toBeLessThanOrEqual(1_001);
    expect(bars.every((b, i) => i === 0 || bars[i - 1]!.upper_us <= b.lower_us)).toBe(true);
  });

  it("puts a bucket in the bin of its middle and leaves empty bins out", () => {
    const m = method([[100, 110, 3], [10_000, 10_600, 1]]);
    const bars = binBuckets(m.buckets, 10, 100_000, 4);
    // Four bins a decade wide each: 10..100, 100..1000, 1000..10000, 10000..100000.
    expect(bars.map((b) => [b.lower_us, b.upper_us, b.count])).toEqual([
      [100, 1_000, 3],
      [10_000, 100_000, 1],
    ]);
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
