// The latency plot's pure parts: which bars a method's histogram draws and where its
// percentiles fall.
import type { LatencyBucket } from "../bindings/LatencyBucket";
import type { MethodLatency } from "../bindings/MethodLatency";

/** Bars drawn at most: the engine's fine buckets (40 a decade) are merged down to this. */
export const MAX_BARS = 40;

/**
 * Merges neighbouring buckets so at most `maxBars` remain (each bar sums a run of buckets and
 * covers their range). Counts are kept: the bars sum to the same total.
 */
export function mergeBuckets(buckets: readonly LatencyBucket[], maxBars = MAX_BARS): LatencyBucket[] {
  if (buckets.length <= maxBars) return buckets.map((b) => ({ ...b }));
  const per = Math.ceil(buckets.length / maxBars);
  const bars: LatencyBucket[] = [];
  for (let i = 0; i < buckets.length; i += per) {
    const run = buckets.slice(i, i + per);
    const first = run[0];
    const last = run[run.length - 1];
    if (!first || !last) continue;
    bars.push({ lower_us: first.lower_us, upper_us: last.upper_us, count: run.reduce((n, b) => n + b.count, 0) });
  }
  return bars;
}

/** The x range a plot of `m` needs: its buckets' span, at least a decade wide. */
export function latencyRange(m: MethodLatency): { min: number; max: number } {
  const first = m.buckets[0];
  const last = m.buckets[m.buckets.length - 1];
  let min = Math.max(1, first ? first.lower_us : m.min_us);
  let max = Math.max(min + 1, last ? last.upper_us : m.max_us);
  if (max / min < 10) {
    const middle = Math.sqrt(min * max);
    min = Math.max(1, middle / Math.sqrt(10));
    max = middle * Math.sqrt(10);
  }
  return { min, max };
}

/** The percentile markers a plot draws, in order. */
export function percentiles(m: MethodLatency): Array<{ label: "p50" | "p90" | "p99"; us: number }> {
  return [
    { label: "p50", us: m.p50_us },
    { label: "p90", us: m.p90_us },
    { label: "p99", us: m.p99_us },
  ];
}
