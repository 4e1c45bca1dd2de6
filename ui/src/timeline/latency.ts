// The latency plot's pure parts: which bars a method's histogram draws and where its
// percentiles fall.
import type { LatencyBucket } from "../bindings/LatencyBucket";
import type { MethodLatency } from "../bindings/MethodLatency";

/** Bars a plot draws across its range (equal widths on the log axis). */
export const BARS = 30;

/**
 * The engine's fine buckets (40 a decade) summed into `bars` bins of equal width on a log
 * axis from `min` to `max`, each bucket in the bin of its geometric middle. Counts are kept: the
 * bins sum to the same total. Empty bins are left out.
 */
export function binBuckets(buckets: readonly LatencyBucket[], min: number, max: number, bars = BARS): LatencyBucket[] {
  const lo = Math.log10(min);
  const step = (Math.log10(max) - lo) / bars;
  const counts = new Array<number>(bars).fill(0);
  for (const b of buckets) {
    const middle = Math.log10(Math.sqrt(Math.max(1, b.lower_us) * Math.max(1, b.upper_us)));
    const i = Math.min(bars - 1, Math.max(0, Math.floor((middle - lo) / step)));
    counts[i] = (counts[i] ?? 0) + b.count;
  }
  return counts.flatMap((count, i) =>
    count > 0 ? [{ lower_us: Math.round(10 ** (lo + i * step)), upper_us: Math.round(10 ** (lo + (i + 1) * step)), count }] : [],
  );
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
