//! Medians and percentiles of the app benches' samples (app, app_flood, load_app).

/// The value `p` (0..=1) of the way through the sorted samples, between two samples where it
/// falls between them (so `p = 0.5` of an even count is the mean of the middle two); NaN for none.
pub fn percentile(mut xs: Vec<f64>, p: f64) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    if xs.is_empty() {
        return f64::NAN;
    }
    let rank = (xs.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let (lo, hi) = (rank.floor() as usize, rank.ceil() as usize);
    xs[lo] + (xs[hi] - xs[lo]) * (rank - lo as f64)
}

pub fn median(xs: Vec<f64>) -> f64 {
    percentile(xs, 0.5)
}
