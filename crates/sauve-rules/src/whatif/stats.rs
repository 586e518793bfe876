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

#[cfg(test)]
mod tests {
    use super::*;

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
