//! Exact running sums of per-deal measurements, and estimates with 95% confidence intervals.
//!
//! Each deal contributes one paired observation: `x`, the sum of a quantity over the deal's
//! games (points, or wins), and `g`, the number of those games. The per-game mean is the ratio
//! `Σx / Σg`; its standard error comes from the spread of the deals (the ratio estimator,
//! linearised: `√(Σ(x − m·g)² / (n(n − 1))) / ḡ`), so the games of one deal, which share their
//! cards, are never counted as independent. With the same number of games in every deal this is
//! the usual standard error of the per-deal means. The interval is the normal one, ±1.96
//! standard errors.
//!
//! Every sum is an integer, so tallies of shards add up to exactly the tally of the whole run.

use serde::{Deserialize, Serialize};

/// Sums over deals of one quantity: enough to merge and to estimate a mean with its interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Deals counted (`n`).
    pub deals: u64,
    /// Σg: games counted.
    pub games: u64,
    /// Σx.
    pub sum: i64,
    /// Σx².
    pub sum_sq: i64,
    /// Σg².
    pub games_sq: u64,
    /// Σx·g.
    pub cross: i64,
}

/// A per-game mean and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The mean per game (0 when no game was counted).
    pub mean: f64,
    /// The interval's lower and upper ends (the mean itself with fewer than two deals).
    pub ci: [f64; 2],
}

impl Tally {
    /// Counts one deal: `x` summed over its `games` games. A deal with no game is not counted.
    pub fn add(&mut self, x: i64, games: u64) {
        if games == 0 {
            return;
        }
        let g = games as i64;
        self.deals += 1;
        self.games += games;
        self.sum += x;
        self.sum_sq += x * x;
        self.games_sq += games * games;
        self.cross += x * g;
    }

    /// Adds another tally's deals (shards of one run merge exactly).
    pub fn merge(&mut self, other: &Tally) {
        self.deals += other.deals;
        self.games += other.games;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.games_sq += other.games_sq;
        self.cross += other.cross;
    }

    /// The per-game mean and its 95% confidence interval over deals.
    pub fn estimate(&self) -> Estimate {
        if self.games == 0 {
            return Estimate {
                mean: 0.0,
                ci: [0.0, 0.0],
            };
        }
        let n = self.deals as f64;
        let mean = self.sum as f64 / self.games as f64;
        if self.deals < 2 {
            return Estimate {
                mean,
                ci: [mean, mean],
            };
        }
        // Σ(x − m·g)², expanded so that only the sums are needed.
        let spread = self.sum_sq as f64 - 2.0 * mean * self.cross as f64
            + mean * mean * self.games_sq as f64;
        let games_per_deal = self.games as f64 / n;
        let se = (spread.max(0.0) / (n * (n - 1.0))).sqrt() / games_per_deal;
        let half = 1.96 * se;
        Estimate {
            mean,
            ci: [mean - half, mean + half],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_games_give_the_usual_interval() {
        let mut t = Tally::default();
        // Per-deal means 1, 2, 3 over two games each: mean 2, sd 1, se 1/√3.
        for x in [2, 4, 6] {
            t.add(x, 2);
        }
        let e = t.estimate();
        assert_eq!(e.mean, 2.0);
        let half = 1.96 / 3f64.sqrt();
        assert!((e.ci[0] - (2.0 - half)).abs() < 1e-12 && (e.ci[1] - (2.0 + half)).abs() < 1e-12);
    }

    #[test]
    fn shards_merge_exactly() {
        let mut whole = Tally::default();
        let mut parts = [Tally::default(), Tally::default()];
        for (i, (x, g)) in [(3, 2), (-1, 1), (0, 2), (7, 3), (-4, 2)]
            .into_iter()
            .enumerate()
        {
            whole.add(x, g);
            parts[i % 2].add(x, g);
        }
        let mut merged = parts[0];
        merged.merge(&parts[1]);
        assert_eq!(merged, whole);
        assert_eq!(merged.estimate(), whole.estimate());
    }

    #[test]
    fn few_deals_and_no_games() {
        assert_eq!(Tally::default().estimate().mean, 0.0);
        let mut t = Tally::default();
        t.add(5, 0);
        assert_eq!(t.deals, 0);
        t.add(1, 2);
        assert_eq!(t.estimate().ci, [0.5, 0.5]);
    }
}
