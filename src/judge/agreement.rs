//! How well a judge agrees with people: for each dimension, Spearman's rank correlation between
//! the judge's scores and a researcher's own, and Cohen's weighted kappa (quadratic weights) on
//! the dimension's integer scale, so a lab can validate its judge before trusting a tournament.

/// Ranks from 1, ties given the mean of the ranks they span.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    crate::text::sort_stable(&mut order, |&a, &b| values[a].total_cmp(&values[b]).is_lt());
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rho: the Pearson correlation of the ranks; `None` with fewer than two pairs or
/// when either side does not vary.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 {
        return None;
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mx, my) = (mean(&rx), mean(&ry));
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx) * (a - mx)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my) * (b - my)).sum();
    (vx > 0.0 && vy > 0.0).then(|| cov / (vx * vy).sqrt())
}

/// Cohen's kappa with quadratic weights for scores on the scale `min` to `max`; `None` with no
/// pairs, a scale of one point, a score off the scale, or when chance alone explains every pair.
pub fn weighted_kappa(x: &[u32], y: &[u32], min: u32, max: u32) -> Option<f64> {
    if x.len() != y.len() || x.is_empty() || max <= min {
        return None;
    }
    let k = (max - min + 1) as usize;
    let at = |v: u32| (v >= min && v <= max).then(|| (v - min) as usize);
    let mut observed = vec![vec![0.0; k]; k];
    for (&a, &b) in x.iter().zip(y) {
        observed[at(a)?][at(b)?] += 1.0;
    }
    let n = x.len() as f64;
    let rows: Vec<f64> = observed.iter().map(|r| r.iter().sum::<f64>() / n).collect();
    let cols: Vec<f64> = (0..k).map(|j| observed.iter().map(|r| r[j]).sum::<f64>() / n).collect();
    let weight = |i: usize, j: usize| ((i as f64 - j as f64) / (k - 1) as f64).powi(2);
    let (mut seen, mut chance) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            seen += weight(i, j) * observed[i][j] / n;
            chance += weight(i, j) * rows[i] * cols[j];
        }
    }
    (chance > 0.0).then(|| 1.0 - seen / chance)
}

/// Bootstrap resamples for the intervals of rho and kappa.
pub const RESAMPLES: usize = 1000;

/// A dimension's agreement: pairs compared, rho and kappa, each with its 95 % bootstrap interval
/// (the pairs resampled with replacement, the 2.5th and 97.5th percentiles of the resamples where
/// the figure is defined; none when fewer than half of them define it).
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    pub dimension: String,
    pub pairs: usize,
    pub spearman: Option<f64>,
    pub kappa: Option<f64>,
    pub spearman_ci: Option<(f64, f64)>,
    pub kappa_ci: Option<(f64, f64)>,
}

/// The 95 % percentile interval of `figure` over resamples of `pairs` (seeded: the same pairs
/// give the same interval).
fn interval(pairs: &[(u32, u32)], figure: impl Fn(&[(u32, u32)]) -> Option<f64>) -> Option<(f64, f64)> {
    use rand::{Rng, SeedableRng};
    if pairs.len() < 2 {
        return None;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let mut values: Vec<f64> = (0..RESAMPLES)
        .filter_map(|_| {
            let sample: Vec<(u32, u32)> =
                (0..pairs.len()).map(|_| pairs[rng.random_range(0..pairs.len())]).collect();
            figure(&sample)
        })
        .collect();
    if values.len() < RESAMPLES / 2 {
        return None;
    }
    crate::text::sort_stable(&mut values, |x, y| x.total_cmp(y).is_lt());
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Some((at(0.025), at(0.975)))
}

impl Agreement {
    /// `pairs` of (judge's score, person's score) on the scale `min` to `max`.
    pub fn of(dimension: &str, pairs: &[(u32, u32)], min: u32, max: u32) -> Agreement {
        let rho = |p: &[(u32, u32)]| {
            let (x, y): (Vec<f64>, Vec<f64>) = p.iter().map(|&(a, b)| (f64::from(a), f64::from(b))).unzip();
            // Both figures lie in [-1, 1]; rounding can put a perfect one a hair outside.
            spearman(&x, &y).map(|v| v.clamp(-1.0, 1.0))
        };
        let kappa = |p: &[(u32, u32)]| {
            let (x, y): (Vec<u32>, Vec<u32>) = p.iter().copied().unzip();
            weighted_kappa(&x, &y, min, max).map(|v| v.clamp(-1.0, 1.0))
        };
        Agreement {
            dimension: dimension.into(),
            pairs: pairs.len(),
            spearman: rho(pairs),
            kappa: kappa(pairs),
            spearman_ci: interval(pairs, rho),
            kappa_ci: interval(pairs, kappa),
        }
    }

    /// The row `agora judge-check` prints: figures to three places, intervals to two.
    pub fn line(&self, width: usize) -> String {
        let show = |v: Option<f64>| v.map_or("–".to_string(), |v| crate::text::fixed(v, 3));
        let range = |v: Option<(f64, f64)>| {
            v.map_or("–".to_string(), |(a, b)| {
                format!("[{}, {}]", crate::text::fixed(a, 2), crate::text::fixed(b, 2))
            })
        };
        format!(
            "  {:<width$}  {:>5}  {:>8}  {:>14}  {:>8}  {:>14}",
            self.dimension,
            self.pairs,
            show(self.spearman),
            range(self.spearman_ci),
            show(self.kappa),
            range(self.kappa_ci)
        )
    }

    /// Why a figure shows "–", when one does.
    pub fn undefined(&self) -> Option<String> {
        (self.spearman.is_none() || self.kappa.is_none()).then(|| {
            format!(
                "{}: \u{2013} where a figure is not defined: fewer than two pairs, or one side gave the same score every time.",
                self.dimension
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figures_match_a_hand_computed_example() {
        // Judge 1 2 3 4 5 against people 1 2 3 5 4: rho = 1 - 6*2/(5*24) = 0.9; quadratic kappa:
        // observed weighted disagreement 2/80, expected (uniform margins) 100/400, so 1 - 0.1.
        let a = Agreement::of("argument", &[(1, 1), (2, 2), (3, 3), (4, 5), (5, 4)], 1, 5);
        assert!((a.spearman.unwrap() - 0.9).abs() < 1e-12);
        assert!((a.kappa.unwrap() - 0.9).abs() < 1e-12);
        // Ties take the mean rank: judge 1 1 2 3 (ranks 1.5 1.5 3 4) against 1 2 2 3 (1 2.5 2.5 4):
        // covariance 3.75 over variances 4.5 and 4.5.
        assert!((spearman(&[1.0, 1.0, 2.0, 3.0], &[1.0, 2.0, 2.0, 3.0]).unwrap() - 3.75 / 4.5).abs() < 1e-12);
        // Perfect agreement, and none to measure.
        assert_eq!(weighted_kappa(&[1, 3, 5], &[1, 3, 5], 1, 5), Some(1.0));
        assert_eq!(spearman(&[2.0, 2.0], &[1.0, 3.0]), None);
        assert_eq!(weighted_kappa(&[6], &[1], 1, 5), None);
    }
}
