//! The numbers a run reports: a pass rate's 95 % interval (Wilson's score interval, right at
//! the small counts evals have), whether two pass rates differ beyond noise (Newcombe's
//! interval for a difference, built from the two Wilson intervals), and percentiles.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A proportion's interval, both ends in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalInterval"))]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Wilson's 95 % score interval for `passes` of `n`; `0..1` when `n` is 0.
pub fn wilson(passes: u32, n: u32) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = f64::from(n);
    let p = f64::from(passes) / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The difference of two pass rates (`b − a`) and its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalDifference")
)]
pub struct Difference {
    pub delta: f64,
    pub interval: Interval,
    /// The interval leaves out 0: more than noise at these counts.
    pub beyond_noise: bool,
}

/// Newcombe's hybrid score interval (his method 10) for `pb − pa`.
pub fn difference(passes_a: u32, n_a: u32, passes_b: u32, n_b: u32) -> Difference {
    let rate = |k: u32, n: u32| {
        if n == 0 {
            0.0
        } else {
            f64::from(k) / f64::from(n)
        }
    };
    let (pa, pb) = (rate(passes_a, n_a), rate(passes_b, n_b));
    let (wa, wb) = (wilson(passes_a, n_a), wilson(passes_b, n_b));
    let delta = pb - pa;
    let low = delta - ((pb - wb.low).powi(2) + (wa.high - pa).powi(2)).sqrt();
    let high = delta + ((wb.high - pb).powi(2) + (pa - wa.low).powi(2)).sqrt();
    Difference {
        delta,
        interval: Interval { low, high },
        beyond_noise: n_a > 0 && n_b > 0 && (low > 0.0 || high < 0.0),
    }
}

/// The `pct` percentile of `values` (nearest rank); `None` for none.
pub fn percentile(values: &[u64], pct: f64) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank = ((pct / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605.
        let a = wilson(81, 263);
        assert!(
            (a.low - 0.2553).abs() < 5e-4 && (a.high - 0.3662).abs() < 5e-4,
            "{a:?}"
        );
        let b = wilson(15, 148);
        assert!(
            (b.low - 0.0624).abs() < 5e-4 && (b.high - 0.1605).abs() < 5e-4,
            "{b:?}"
        );
        let all = wilson(3, 3);
        assert!(
            all.high == 1.0 && (all.low - 0.4385).abs() < 5e-4,
            "{all:?}"
        );
    }

    #[test]
    fn newcombe_difference_matches_published_values() {
        // Newcombe (1998) example: 56/70 against 48/80, method 10: 0.0524 to 0.3339.
        let d = difference(48, 80, 56, 70);
        assert!((d.delta - 0.2).abs() < 1e-9);
        assert!((d.interval.low - 0.0524).abs() < 5e-4, "{d:?}");
        assert!((d.interval.high - 0.3339).abs() < 5e-4, "{d:?}");
        assert!(d.beyond_noise);
        // Two out of three against three out of three: within noise.
        assert!(!difference(2, 3, 3, 3).beyond_noise);
        // None of six against all of six: beyond it.
        assert!(difference(0, 6, 6, 6).beyond_noise);
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 95.0), Some(100));
        assert_eq!(percentile(&[7], 95.0), Some(7));
        assert_eq!(percentile(&[], 50.0), None);
    }
}
