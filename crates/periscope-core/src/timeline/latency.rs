//! Latency per method: count, errors, p50/p90/p99 and a histogram, in bounded memory whatever
//! the session's length. Each method keeps a log-scale histogram (40 buckets a decade, so a
//! bucket is 6 % wide) and, up to [`EXACT_VALUES`] samples, the samples themselves: percentiles
//! are exact until then and read from the histogram (to within a bucket) after.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::store::timeline::LatencyRow;
use crate::wire::Direction;

/// Samples a method keeps for exact percentiles.
const EXACT_VALUES: usize = 10_000;
/// Histogram buckets per power of ten.
const PER_DECADE: u32 = 40;
/// Decades from 1 µs: up to 10^10 µs (almost three hours); longer lands in the last bucket.
const DECADES: u32 = 10;
const BUCKETS: usize = (PER_DECADE * DECADES) as usize;
/// Methods tracked apart; the names of a server's requests are the server's choice, so past
/// this many the rest are only counted.
const MAX_METHODS: usize = 256;

/// One bar of a method's histogram: responses whose latency is in `lower_us..upper_us`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LatencyBucket {
    pub lower_us: u64,
    pub upper_us: u64,
    pub count: u64,
}

/// The latencies of one method's requests in one direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct MethodLatency {
    pub method: String,
    /// Which way its requests travelled (out: client→server).
    pub direction: Direction,
    pub count: u64,
    /// Answers that were JSON-RPC errors (counted in the latencies too).
    pub errors: u64,
    pub min_us: u64,
    pub max_us: u64,
    pub p50_us: u64,
    pub p90_us: u64,
    pub p99_us: u64,
    /// True when the percentiles come from the histogram (more than 10 000 samples).
    pub approximate: bool,
    /// The non-empty buckets, in order.
    pub buckets: Vec<LatencyBucket>,
}

/// Latency per method, the busiest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LatencyReport {
    pub methods: Vec<MethodLatency>,
    /// Answered requests of methods beyond the first 256 (counted, not broken down).
    pub other_methods_count: u64,
}

#[derive(Default)]
pub(crate) struct Collector {
    methods: HashMap<(String, Direction), Samples>,
    other: u64,
}

struct Samples {
    count: u64,
    errors: u64,
    min: u64,
    max: u64,
    exact: Vec<u64>,
    histogram: Box<[u64; BUCKETS]>,
}

/// The bucket of a latency: `floor(log10(us) * PER_DECADE)`, 0 for under 1 µs.
fn bucket_of(us: u64) -> usize {
    if us <= 1 {
        return 0;
    }
    ((us as f64).log10() * PER_DECADE as f64).floor() as usize
}

fn lower_of(bucket: usize) -> u64 {
    10f64.powf(bucket as f64 / PER_DECADE as f64).ceil() as u64
}

impl Collector {
    pub fn add(&mut self, row: LatencyRow) {
        let key = (row.method, row.direction);
        if !self.methods.contains_key(&key) && self.methods.len() >= MAX_METHODS {
            self.other += 1;
            return;
        }
        let s = self.methods.entry(key).or_insert_with(|| Samples {
            count: 0,
            errors: 0,
            min: u64::MAX,
            max: 0,
            exact: Vec::new(),
            histogram: Box::new([0; BUCKETS]),
        });
        let us = row.latency_us;
        s.count += 1;
        s.errors += u64::from(row.error);
        s.min = s.min.min(us);
        s.max = s.max.max(us);
        if s.exact.len() < EXACT_VALUES {
            s.exact.push(us);
        }
        s.histogram[bucket_of(us).min(BUCKETS - 1)] += 1;
    }

    pub fn report(&self) -> LatencyReport {
        let mut methods: Vec<MethodLatency> = self
            .methods
            .iter()
            .map(|((method, direction), s)| s.summary(method.clone(), *direction))
            .collect();
        methods.sort_by(|a, b| b.count.cmp(&a.count).then(a.method.cmp(&b.method)));
        LatencyReport {
            methods,
            other_methods_count: self.other,
        }
    }
}

impl Samples {
    fn summary(&self, method: String, direction: Direction) -> MethodLatency {
        let approximate = self.count as usize > self.exact.len();
        let [p50, p90, p99] = if approximate {
            [0.50, 0.90, 0.99].map(|q| self.histogram_percentile(q))
        } else {
            let mut sorted = self.exact.clone();
            sorted.sort_unstable();
            [0.50, 0.90, 0.99].map(|q| nearest_rank(&sorted, q))
        };
        let buckets = self
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| LatencyBucket {
                lower_us: lower_of(i),
                upper_us: lower_of(i + 1),
                count: *n,
            })
            .collect();
        MethodLatency {
            method,
            direction,
            count: self.count,
            errors: self.errors,
            min_us: self.min,
            max_us: self.max,
            p50_us: p50,
            p90_us: p90,
            p99_us: p99,
            approximate,
            buckets,
        }
    }

    /// The percentile `q` read from the histogram: the middle of the bucket it falls in,
    /// kept within the seen minimum and maximum.
    fn histogram_percentile(&self, q: f64) -> u64 {
        let rank = ((q * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, n) in self.histogram.iter().enumerate() {
            seen += n;
            if seen >= rank {
                let middle = (lower_of(i) + lower_of(i + 1)) / 2;
                return middle.clamp(self.min, self.max);
            }
        }
        self.max
    }
}

/// The nearest-rank percentile of sorted, non-empty `values`.
fn nearest_rank(values: &[u64], q: f64) -> u64 {
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(method: &str, us: u64, error: bool) -> LatencyRow {
        LatencyRow {
            method: method.into(),
            direction: Direction::Out,
            latency_us: us,
            error,
        }
    }

    #[test]
    fn percentiles_are_exact_for_a_small_sample_and_methods_are_apart() {
        let mut c = Collector::default();
        for us in 1..=100 {
            c.add(row("tools/call", us * 1000, us == 7));
        }
        c.add(row("ping", 250, false));
        let report = c.report();
        assert_eq!(report.methods.len(), 2);
        let call = &report.methods[0];
        assert_eq!(call.method, "tools/call");
        assert_eq!((call.count, call.errors), (100, 1));
        assert_eq!(
            (call.p50_us, call.p90_us, call.p99_us),
            (50_000, 90_000, 99_000)
        );
        assert_eq!((call.min_us, call.max_us), (1_000, 100_000));
        assert!(!call.approximate);
        assert_eq!(call.buckets.iter().map(|b| b.count).sum::<u64>(), 100);
        // Buckets are in order, and each latency falls in its bucket.
        assert!(
            call.buckets
                .windows(2)
                .all(|w| w[0].upper_us <= w[1].lower_us)
        );
        let ping = &report.methods[1];
        assert_eq!((ping.count, ping.p50_us, ping.p99_us), (1, 250, 250));
        let b = &ping.buckets[0];
        assert!(b.lower_us <= 250 && 250 < b.upper_us, "{b:?}");
    }

    #[test]
    fn past_the_exact_samples_percentiles_come_from_the_histogram_within_a_bucket() {
        let mut c = Collector::default();
        // 1..=50 000 ms, uniform: p50 = 25 s, p90 = 45 s, p99 = 49.5 s.
        for ms in 1..=50_000u64 {
            c.add(row("slow", ms * 1000, false));
        }
        let m = &c.report().methods[0];
        assert!(m.approximate);
        for (got, want) in [(m.p50_us, 25e6), (m.p90_us, 45e6), (m.p99_us, 49.5e6)] {
            let error = (got as f64 - want).abs() / want;
            assert!(error < 0.06, "{got} vs {want}");
        }
        assert_eq!(m.buckets.iter().map(|b| b.count).sum::<u64>(), 50_000);
    }

    #[test]
    fn methods_past_the_bound_are_counted_not_kept() {
        let mut c = Collector::default();
        for i in 0..MAX_METHODS + 5 {
            c.add(row(&format!("m{i}"), 10, false));
        }
        let report = c.report();
        assert_eq!(report.methods.len(), MAX_METHODS);
        assert_eq!(report.other_methods_count, 5);
    }
}
