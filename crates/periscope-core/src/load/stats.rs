//! What a load run measured, as it runs: an HDR histogram of latencies per request of the
//! workload (microseconds, three significant digits, up to an hour), failures by kind, and a
//! point a second for the charts. Per-method figures are the requests' histograms added up.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::failure::FailureKind;
use super::workload::LoadRequest;

/// The longest latency a histogram holds (an hour, in microseconds); longer ones count as it.
const HIGHEST_US: u64 = 3_600_000_000;
/// Points of the per-second series kept: a day. A longer run keeps its first day's points and
/// says so in the report (its totals still count everything).
pub const MAX_SERIES_POINTS: usize = 86_400;

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_US, 3).expect("the bounds are valid")
}

/// Latency percentiles, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Percentiles {
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
    pub mean_ms: f64,
}

impl Percentiles {
    fn of(h: &Histogram<u64>) -> Option<Percentiles> {
        if h.is_empty() {
            return None;
        }
        let ms = |us: u64| us as f64 / 1000.0;
        Some(Percentiles {
            p50_ms: ms(h.value_at_quantile(0.50)),
            p90_ms: ms(h.value_at_quantile(0.90)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            p999_ms: ms(h.value_at_quantile(0.999)),
            max_ms: ms(h.max()),
            mean_ms: h.mean() / 1000.0,
        })
    }
}

/// A failure kind and how many requests ended in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FailureCount {
    #[serde(flatten)]
    pub kind: FailureKind,
    pub count: u64,
}

/// The figures of one request of the workload, of one method, or of everything.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct OpStats {
    /// `None` for the totals.
    pub method: Option<String>,
    /// The tool or prompt name or resource URI; `None` for a method's or the totals' figures.
    pub name: Option<String>,
    /// Requests that ended (answered, failed or timed out).
    pub completed: u64,
    pub failed: u64,
    /// Failed over completed, in percent.
    pub error_rate_pct: f64,
    /// Completed requests a second over the measured time.
    pub throughput: f64,
    /// Over the requests that got an answer (a result, a JSON-RPC error or `isError`); none
    /// when nothing was answered.
    pub latency: Option<Percentiles>,
    pub failures: Vec<FailureCount>,
}

/// One second of a run, for the charts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SeriesPoint {
    /// Seconds since the run started (the end of this second).
    pub t_s: u32,
    pub completed: u32,
    pub failed: u32,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
}

/// One key's running figures.
struct Tally {
    latency: Histogram<u64>,
    completed: u64,
    failures: BTreeMap<FailureKind, u64>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            latency: histogram(),
            completed: 0,
            failures: BTreeMap::new(),
        }
    }

    fn record(&mut self, latency: Duration, failure: Option<FailureKind>) {
        self.completed += 1;
        let answered = match failure {
            None | Some(FailureKind::Rpc { .. } | FailureKind::ToolError) => true,
            Some(_) => false,
        };
        if let Some(kind) = failure {
            *self.failures.entry(kind).or_default() += 1;
        }
        if answered {
            let us = (latency.as_micros() as u64).clamp(1, HIGHEST_US);
            self.latency.saturating_record(us);
        }
    }

    fn add(&mut self, other: &Tally) {
        self.completed += other.completed;
        for (kind, n) in &other.failures {
            *self.failures.entry(*kind).or_default() += n;
        }
        let _ = self.latency.add(&other.latency);
    }

    fn stats(&self, method: Option<String>, name: Option<String>, seconds: f64) -> OpStats {
        let failed: u64 = self.failures.values().sum();
        OpStats {
            method,
            name,
            completed: self.completed,
            failed,
            error_rate_pct: if self.completed == 0 {
                0.0
            } else {
                failed as f64 * 100.0 / self.completed as f64
            },
            throughput: if seconds > 0.0 {
                self.completed as f64 / seconds
            } else {
                0.0
            },
            latency: Percentiles::of(&self.latency),
            failures: self
                .failures
                .iter()
                .map(|(kind, count)| FailureCount {
                    kind: *kind,
                    count: *count,
                })
                .collect(),
        }
    }
}

/// The running figures of a run (or of one step of a ramp): one tally per request of the
/// workload, the current second's, and the closed seconds.
pub struct Recorder {
    requests: Vec<(String, Option<String>)>,
    tallies: Vec<Tally>,
    second: Tally,
    second_index: u32,
    series: Vec<SeriesPoint>,
    series_cut: bool,
}

impl Recorder {
    pub fn new(workload: &[LoadRequest]) -> Recorder {
        Recorder {
            requests: workload
                .iter()
                .map(|r| (r.method.clone(), r.name.clone()))
                .collect(),
            tallies: workload.iter().map(|_| Tally::new()).collect(),
            second: Tally::new(),
            second_index: 0,
            series: Vec::new(),
            series_cut: false,
        }
    }

    /// A request of the workload (by index) ended `at` (since the run started) after
    /// `latency`, failed or not.
    pub fn record(
        &mut self,
        request: usize,
        at: Duration,
        latency: Duration,
        failure: Option<FailureKind>,
    ) {
        self.close_seconds_before(at);
        if let Some(t) = self.tallies.get_mut(request) {
            t.record(latency, failure);
        }
        self.second.record(latency, failure);
    }

    /// Closes every second that ended before `now` (one with nothing in it is a point of
    /// zeros: a stalled server shows as a gap in throughput, not as no data).
    pub fn close_seconds_before(&mut self, now: Duration) -> Option<&SeriesPoint> {
        let now_s = now.as_secs() as u32;
        let before = self.series.len();
        while self.second_index < now_s {
            self.second_index += 1;
            let done = std::mem::replace(&mut self.second, Tally::new());
            if self.series.len() >= MAX_SERIES_POINTS {
                self.series_cut = true;
                continue;
            }
            let p = Percentiles::of(&done.latency);
            self.series.push(SeriesPoint {
                t_s: self.second_index,
                completed: done.completed as u32,
                failed: done.failures.values().sum::<u64>() as u32,
                p50_ms: p.map(|p| p.p50_ms),
                p99_ms: p.map(|p| p.p99_ms),
            });
        }
        (self.series.len() > before)
            .then(|| self.series.last())
            .flatten()
    }

    /// Completed requests so far.
    pub fn completed(&self) -> u64 {
        self.tallies.iter().map(|t| t.completed).sum()
    }

    /// Failed requests so far.
    pub fn failed(&self) -> u64 {
        self.tallies
            .iter()
            .map(|t| t.failures.values().sum::<u64>())
            .sum()
    }

    /// The totals over `seconds` of measured time.
    pub fn total(&self, seconds: f64) -> OpStats {
        let mut all = Tally::new();
        for t in &self.tallies {
            all.add(t);
        }
        all.stats(None, None, seconds)
    }

    /// Each request of the workload's figures (requests of the same method and name, as a
    /// recording may hold, are added up).
    pub fn operations(&self, seconds: f64) -> Vec<OpStats> {
        self.grouped(seconds, |(method, name)| (method.clone(), name.clone()))
    }

    /// Each method's figures.
    pub fn methods(&self, seconds: f64) -> Vec<OpStats> {
        self.grouped(seconds, |(method, _)| (method.clone(), None))
    }

    fn grouped(
        &self,
        seconds: f64,
        key: impl Fn(&(String, Option<String>)) -> (String, Option<String>),
    ) -> Vec<OpStats> {
        let mut groups: Vec<((String, Option<String>), Tally)> = Vec::new();
        for (request, tally) in self.requests.iter().zip(&self.tallies) {
            let k = key(request);
            match groups.iter_mut().find(|(g, _)| *g == k) {
                Some((_, t)) => t.add(tally),
                None => {
                    let mut t = Tally::new();
                    t.add(tally);
                    groups.push((k, t));
                }
            }
        }
        groups
            .into_iter()
            .map(|((method, name), t)| t.stats(Some(method), name, seconds))
            .collect()
    }

    /// The closed seconds, and whether some were left out (past a day).
    pub fn series(&self) -> (&[SeriesPoint], bool) {
        (&self.series, self.series_cut)
    }

    /// Adds another recorder's tallies (a ramp's step into the run's totals). Its series is
    /// not taken: the run keeps its own clock.
    pub fn absorb(&mut self, other: &Recorder) {
        for (mine, theirs) in self.tallies.iter_mut().zip(&other.tallies) {
            mine.add(theirs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn percentiles_failures_and_rates_are_kept_per_request_and_method() {
        let workload = vec![
            LoadRequest::tool_call("a", Map::new()),
            LoadRequest::tool_call("b", Map::new()),
        ];
        let mut r = Recorder::new(&workload);
        for i in 1..=100 {
            r.record(0, ms(10), ms(i), None);
        }
        r.record(1, ms(20), ms(5), Some(FailureKind::Rpc { code: -32603 }));
        r.record(1, ms(30), ms(30_000), Some(FailureKind::Timeout));
        let ops = r.operations(2.0);
        assert_eq!(ops[0].name.as_deref(), Some("a"));
        assert_eq!(ops[0].completed, 100);
        let p = ops[0].latency.unwrap();
        assert!((p.p50_ms - 50.0).abs() < 0.1, "{p:?}");
        assert!((p.p99_ms - 99.0).abs() < 0.1, "{p:?}");
        assert!((p.max_ms - 100.0).abs() < 0.1, "{p:?}");
        // The timeout counts as a failure; its 30 s are not a latency (nothing answered).
        assert_eq!(ops[1].failed, 2);
        assert_eq!(ops[1].error_rate_pct, 100.0);
        assert!((ops[1].latency.unwrap().max_ms - 5.0).abs() < 0.01);
        let methods = r.methods(2.0);
        assert_eq!(methods.len(), 1);
        assert_eq!(methods[0].completed, 102);
        assert_eq!(methods[0].name, None);
        let total = r.total(2.0);
        assert_eq!(total.throughput, 51.0);
        assert_eq!(
            total.failures,
            [
                FailureCount {
                    kind: FailureKind::Timeout,
                    count: 1
                },
                FailureCount {
                    kind: FailureKind::Rpc { code: -32603 },
                    count: 1
                },
            ]
        );
    }

    #[test]
    fn a_second_with_nothing_is_a_point_of_zeros() {
        let workload = vec![LoadRequest::tool_call("a", Map::new())];
        let mut r = Recorder::new(&workload);
        r.record(0, ms(100), ms(4), None);
        r.record(0, ms(2_500), ms(8), None);
        r.close_seconds_before(ms(3_000));
        let (series, cut) = r.series();
        assert!(!cut);
        assert_eq!(series.len(), 3);
        assert_eq!((series[0].t_s, series[0].completed), (1, 1));
        assert_eq!((series[1].completed, series[1].p50_ms), (0, None));
        assert_eq!(series[2].completed, 1);
    }
}
