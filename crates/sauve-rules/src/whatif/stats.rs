//! Confidence intervals for the rates a batch and a forecast report.

/// The Wilson score interval at 95% (z = 1.96) for `k` successes in `n`
/// trials, as `(low, high)` fractions; `(0, 1)` when there are no trials.
/// Unlike the plain normal interval it stays inside 0..1 and is honest
/// for rates near 0 or 1 and for small `n`.
pub fn wilson95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of `xs` with its 95% interval (the normal one, z = 1.96, from
/// the sample's standard deviation), as `(mean, low, high)`; `(0, 0, 0)`
/// for no values. For scores and paired differences over hundreds of
/// seeds, where the normal approximation holds.
pub fn mean95(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() < 2 { 0.0 } else { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) };
    let half = 1.96 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_intervals_match_worked_values() {
        // 1, 0, 1, 0: mean 0.5, sd 0.5774, half-width 1.96 * 0.5774 / 2.
        let (m, lo, hi) = mean95(&[1.0, 0.0, 1.0, 0.0]);
        assert!((m - 0.5).abs() < 1e-12 && (hi - m - 0.5658).abs() < 1e-3 && (m - lo - 0.5658).abs() < 1e-3);
        assert_eq!(mean95(&[0.5; 10]), (0.5, 0.5, 0.5), "no spread, no width");
        assert_eq!(mean95(&[]), (0.0, 0.0, 0.0));
    }

    #[test]
    fn wilson_intervals_match_worked_values() {
        // 50 of 100: 0.4038..0.5962 (the textbook value).
        let (lo, hi) = wilson95(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        // 0 of 10: 0..0.2775, never below zero.
        let (lo, hi) = wilson95(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson95(10, 10);
        assert!((lo - 0.7225).abs() < 1e-3 && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson95(5000, 10_000);
        assert!(hi - lo < 0.02, "10,000 games pin a rate to within 1%");
    }
}
