//! One rating scale for every robot: a Bradley-Terry fit of a round robin's games, on the Elo
//! scale, with 95% intervals from a bootstrap over the deals.
//!
//! Every pair of robots plays the same duplicate deals ([`crate::Arena::run`]); robot `i`
//! beats robot `j` in a game with the chance `p_i / (p_i + p_j)`. The strengths `p` are the
//! maximum-likelihood fit of every pair's wins (Hunter's minorise-maximise iteration, 2004),
//! each pair given half a win and half a loss more than it played, so that a robot that won
//! or lost every game still has a finite rating. A rating is `400 log10 p`, shifted so that
//! the anchor robot has the anchor's rating: 200 points apart, the stronger robot wins about
//! 76% of the games. The intervals are the 2.5% and 97.5% quantiles of the ratings refitted
//! on deals drawn with replacement (the same draw for every pair, since the pairs share
//! their deals), from a seeded generator: a fit is the same whatever the thread count.
//!
//! ```
//! use ddz_arena::ratings::{PairWins, fit};
//!
//! // A beats B on 30 of 40 games, over 20 deals of 2 games.
//! let wins: Vec<u32> = (0..20).map(|d| if d < 10 { 2 } else { 1 }).collect();
//! let pairs = [PairWins { a: 0, b: 1, wins, games_per_deal: 2 }];
//! let ratings = fit(&["A".into(), "B".into()], &pairs, 1, 0.0, 200, 7).unwrap();
//! assert_eq!(ratings.robots[1].rating, 0.0); // the anchor
//! assert!(ratings.robots[0].rating > 150.0); // 30 of 40 (with the half-win prior: 30.5/41)
//! ```

use core::fmt;

use ddz_game::{below, rng};

use crate::Report;

/// The wins of robot `a` against robot `b`, deal by deal (indices into the robots' list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairWins {
    /// Robot A's index.
    pub a: usize,
    /// Robot B's index.
    pub b: usize,
    /// A's wins on each deal, the deals in the same order for every pair.
    pub wins: Vec<u32>,
    /// Games a deal.
    pub games_per_deal: u32,
}

/// One robot on the scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The robot's spec.
    pub name: String,
    /// Its rating (Elo scale).
    pub rating: f64,
    /// The 95% interval's ends.
    pub ci: [f64; 2],
    /// Games it played.
    pub games: u64,
    /// Games it won.
    pub wins: u64,
}

/// A fit: every robot with its rating, in the order given.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// The robots.
    pub robots: Vec<Rated>,
    /// Deals every pair played.
    pub deals: usize,
    /// Bootstrap resamples behind the intervals.
    pub resamples: usize,
    /// The anchor robot's index and rating.
    pub anchor: (usize, f64),
}

/// Why a fit cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatingsError {
    /// Fewer than two robots.
    TooFewRobots,
    /// A pair names a robot past the list.
    NoSuchRobot(usize),
    /// A pair of a robot with itself.
    SelfPair(usize),
    /// The pairs did not all play the same number of deals (or played none).
    UnevenDeals,
    /// A deal with more wins than games.
    TooManyWins {
        /// The pair's robots.
        pair: (usize, usize),
        /// The deal's position.
        deal: usize,
    },
    /// The anchor is none of the robots.
    NoAnchor(String),
    /// Some robots never play the others (directly or through a chain of pairs).
    Disconnected,
}

impl fmt::Display for RatingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingsError::TooFewRobots => f.write_str("ratings need two robots or more"),
            RatingsError::NoSuchRobot(i) => write!(f, "a pair names robot {i}, past the list"),
            RatingsError::SelfPair(i) => write!(f, "robot {i} is paired with itself"),
            RatingsError::UnevenDeals => {
                f.write_str("every pair must play the same deals, one deal at least")
            }
            RatingsError::TooManyWins { pair, deal } => write!(
                f,
                "pair {} against {}, deal {deal}: more wins than games",
                pair.0, pair.1
            ),
            RatingsError::NoAnchor(name) => {
                write!(f, "the anchor \"{name}\" is not one of the robots")
            }
            RatingsError::Disconnected => {
                f.write_str("some robots never meet the others: no common scale")
            }
        }
    }
}

impl std::error::Error for RatingsError {}

/// Wins (with the half-win prior) and games of each pair, summed over the deals `deals`.
fn totals(pairs: &[PairWins], deals: &[usize]) -> Vec<(usize, usize, f64, f64)> {
    pairs
        .iter()
        .map(|p| {
            let wins: u64 = deals.iter().map(|&d| u64::from(p.wins[d])).sum();
            let games = deals.len() as f64 * f64::from(p.games_per_deal);
            (p.a, p.b, wins as f64 + 0.5, games + 1.0)
        })
        .collect()
}

/// The Bradley-Terry log-strengths (base 10) of `n` robots from each pair's (a, b, a's wins,
/// games), the anchor at 0.
fn strengths(n: usize, pairs: &[(usize, usize, f64, f64)], anchor: usize) -> Vec<f64> {
    let mut p = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        let mut wins = vec![0.0; n];
        let mut denominators = vec![0.0; n];
        for &(a, b, w, games) in pairs {
            wins[a] += w;
            wins[b] += games - w;
            let d = games / (p[a] + p[b]);
            denominators[a] += d;
            denominators[b] += d;
        }
        let mut change: f64 = 0.0;
        for i in 0..n {
            next[i] = wins[i] / denominators[i];
        }
        let scale = next[anchor];
        for i in 0..n {
            next[i] /= scale;
            change = change.max((next[i].ln() - p[i].ln()).abs());
        }
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    p.iter().map(|x| x.log10()).collect()
}

/// Fits the ratings of `names` from the pairs' games (see the module docs): `anchor`'s
/// rating is `anchor_rating`; the intervals come from `resamples` bootstrap draws seeded by
/// `seed`.
pub fn fit(
    names: &[String],
    pairs: &[PairWins],
    anchor: usize,
    anchor_rating: f64,
    resamples: usize,
    seed: u64,
) -> Result<Ratings, RatingsError> {
    let n = names.len();
    if n < 2 {
        return Err(RatingsError::TooFewRobots);
    }
    if let Some(bad) = pairs.iter().flat_map(|p| [p.a, p.b]).find(|&i| i >= n) {
        return Err(RatingsError::NoSuchRobot(bad));
    }
    if anchor >= n {
        return Err(RatingsError::NoSuchRobot(anchor));
    }
    if let Some(p) = pairs.iter().find(|p| p.a == p.b) {
        return Err(RatingsError::SelfPair(p.a));
    }
    let deals = pairs.first().map_or(0, |p| p.wins.len());
    if deals == 0 || pairs.iter().any(|p| p.wins.len() != deals) {
        return Err(RatingsError::UnevenDeals);
    }
    for p in pairs {
        if let Some(deal) = p.wins.iter().position(|&w| w > p.games_per_deal) {
            return Err(RatingsError::TooManyWins {
                pair: (p.a, p.b),
                deal,
            });
        }
    }
    if !connected(n, pairs) {
        return Err(RatingsError::Disconnected);
    }
    let scale = |logs: Vec<f64>| -> Vec<f64> {
        logs.iter()
            .map(|l| 400.0 * (l - logs[anchor]) + anchor_rating)
            .collect()
    };
    let every: Vec<usize> = (0..deals).collect();
    let ratings = scale(strengths(n, &totals(pairs, &every), anchor));
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); n];
    let mut generator = rng(seed);
    for _ in 0..resamples {
        let sample: Vec<usize> = (0..deals)
            .map(|_| below(&mut generator, deals as u64) as usize)
            .collect();
        let refit = scale(strengths(n, &totals(pairs, &sample), anchor));
        for (d, r) in draws.iter_mut().zip(refit) {
            d.push(r);
        }
    }
    let robots = (0..n)
        .map(|i| {
            let (mut games, mut wins) = (0u64, 0u64);
            for p in pairs {
                let played = deals as u64 * u64::from(p.games_per_deal);
                let a_wins: u64 = p.wins.iter().map(|&w| u64::from(w)).sum();
                if p.a == i {
                    games += played;
                    wins += a_wins;
                } else if p.b == i {
                    games += played;
                    wins += played - a_wins;
                }
            }
            Rated {
                name: names[i].clone(),
                rating: ratings[i],
                ci: quantiles(&mut draws[i], ratings[i]),
                games,
                wins,
            }
        })
        .collect();
    Ok(Ratings {
        robots,
        deals,
        resamples,
        anchor: (anchor, anchor_rating),
    })
}

impl Report {
    /// The ratings of this report's robots ([`fit`]): `anchor` (a robot's spec) at
    /// `anchor_rating`. Every pair must hold its deals' wins (a report of this run, or merged
    /// from shard files written since ratings) on the same deals.
    pub fn ratings(
        &self,
        anchor: &str,
        anchor_rating: f64,
        resamples: usize,
        seed: u64,
    ) -> Result<Ratings, RatingsError> {
        let names = self.robots();
        let index = |name: &str| names.iter().position(|n| n == name);
        let anchor = index(anchor).ok_or_else(|| RatingsError::NoAnchor(anchor.to_string()))?;
        let deals: Option<Vec<u64>> = self
            .pairs
            .first()
            .map(|p| p.per_deal.iter().map(|d| d.deal).collect());
        let mut pairs = Vec::with_capacity(self.pairs.len());
        for p in &self.pairs {
            let (Some(a), Some(b)) = (index(&p.a), index(&p.b)) else {
                return Err(RatingsError::UnevenDeals);
            };
            let same = deals
                .as_ref()
                .is_some_and(|d| p.per_deal.iter().map(|x| x.deal).eq(d.iter().copied()));
            if !same {
                return Err(RatingsError::UnevenDeals);
            }
            pairs.push(PairWins {
                a,
                b,
                wins: p.per_deal.iter().map(|d| d.wins).collect(),
                games_per_deal: self.format.games_per_deal() as u32,
            });
        }
        fit(&names, &pairs, anchor, anchor_rating, resamples, seed)
    }
}

/// The 2.5% and 97.5% quantiles of `draws` (`point` twice without draws).
fn quantiles(draws: &mut [f64], point: f64) -> [f64; 2] {
    if draws.is_empty() {
        return [point, point];
    }
    draws.sort_by(f64::total_cmp);
    let at = |q: f64| draws[((draws.len() - 1) as f64 * q).round() as usize];
    [at(0.025), at(0.975)]
}

/// Whether the pairs join every robot into one component.
fn connected(n: usize, pairs: &[PairWins]) -> bool {
    let mut reached = vec![false; n];
    reached[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for p in pairs {
            if reached[p.a] != reached[p.b] {
                reached[p.a] = true;
                reached[p.b] = true;
                grew = true;
            }
        }
    }
    reached.iter().all(|&r| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("r{i}")).collect()
    }

    /// Deals whose wins follow known strengths exactly: the fit gets the ratings back.
    #[test]
    fn the_fit_recovers_known_ratings() {
        // Ratings 0, 200, 400: expected shares 1/(1 + 10^(-d/400)).
        let truth = [0.0, 200.0, 400.0];
        let mut pairs = Vec::new();
        for a in 0..3 {
            for b in a + 1..3 {
                let share = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
                // 10,000 deals of 1 game, the first share of them won by A.
                let won = (share * 10_000.0).round() as usize;
                let wins = (0..10_000).map(|d| u32::from(d < won)).collect();
                pairs.push(PairWins {
                    a,
                    b,
                    wins,
                    games_per_deal: 1,
                });
            }
        }
        let r = fit(&names(3), &pairs, 0, 0.0, 20, 1).unwrap();
        for (rated, want) in r.robots.iter().zip(truth) {
            assert!(
                (rated.rating - want).abs() < 3.0,
                "{rated:?} against {want}"
            );
            assert!(
                rated.ci[0] <= rated.rating && rated.rating <= rated.ci[1],
                "{rated:?}"
            );
        }
        assert_eq!(r.robots[0].ci, [0.0, 0.0], "the anchor is fixed");
    }

    #[test]
    fn a_perfect_record_has_a_finite_rating_and_the_anchor_moves_the_scale() {
        let pairs = [PairWins {
            a: 0,
            b: 1,
            wins: vec![2; 50],
            games_per_deal: 2,
        }];
        let r = fit(&names(2), &pairs, 1, 1000.0, 50, 3).unwrap();
        assert!(r.robots[0].rating.is_finite() && r.robots[0].rating > 1500.0);
        assert_eq!(r.robots[1].rating, 1000.0);
        assert_eq!((r.robots[0].games, r.robots[0].wins), (100, 100));
        assert_eq!((r.robots[1].games, r.robots[1].wins), (100, 0));
    }

    #[test]
    fn the_same_seed_gives_the_same_intervals() {
        let wins: Vec<u32> = (0..40).map(|d| (d * 7 % 3) as u32).collect();
        let pairs = [PairWins {
            a: 0,
            b: 1,
            wins,
            games_per_deal: 2,
        }];
        let one = fit(&names(2), &pairs, 0, 0.0, 100, 9).unwrap();
        assert_eq!(one, fit(&names(2), &pairs, 0, 0.0, 100, 9).unwrap());
        assert_ne!(one, fit(&names(2), &pairs, 0, 0.0, 100, 10).unwrap());
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let pair = |a, b, wins: Vec<u32>| PairWins {
            a,
            b,
            wins,
            games_per_deal: 2,
        };
        assert_eq!(
            fit(&names(1), &[], 0, 0.0, 0, 1),
            Err(RatingsError::TooFewRobots)
        );
        assert_eq!(
            fit(&names(2), &[pair(0, 2, vec![1])], 0, 0.0, 0, 1),
            Err(RatingsError::NoSuchRobot(2))
        );
        assert_eq!(
            fit(
                &names(3),
                &[pair(0, 1, vec![1]), pair(1, 2, vec![1, 1])],
                0,
                0.0,
                0,
                1
            ),
            Err(RatingsError::UnevenDeals)
        );
        assert_eq!(
            fit(&names(2), &[pair(1, 1, vec![1])], 0, 0.0, 0, 1),
            Err(RatingsError::SelfPair(1))
        );
        assert_eq!(
            fit(&names(2), &[pair(0, 1, vec![3])], 0, 0.0, 0, 1),
            Err(RatingsError::TooManyWins {
                pair: (0, 1),
                deal: 0
            })
        );
        assert_eq!(
            fit(&names(3), &[pair(0, 1, vec![1])], 0, 0.0, 0, 1),
            Err(RatingsError::Disconnected)
        );
        for e in [RatingsError::TooFewRobots, RatingsError::Disconnected] {
            assert!(!e.to_string().is_empty());
        }
    }
}
