//! How much work a run may do: a count of units of work, or wall-clock time.
//!
//! One type for every loop that runs "until the budget is spent": [`crate::bench_games`]
//! (units: games) and the search robot (units: playouts).
//!
//! ```
//! use std::time::Duration;
//!
//! use ddz_game::Budget;
//!
//! let games = Budget::Count(100);
//! assert!(!games.is_spent(99, Duration::from_secs(3600)));
//! assert!(games.is_spent(100, Duration::ZERO));
//!
//! let time = Budget::Time(Duration::from_secs(2));
//! assert!(!time.is_spent(1_000_000, Duration::from_millis(1999)));
//! assert!(time.is_spent(0, Duration::from_secs(2)));
//!
//! // A quarter of each, for one of four rounds.
//! assert_eq!(games.share(1, 4), Budget::Count(25));
//! assert_eq!(time.share(1, 4), Budget::Time(Duration::from_millis(500)));
//! ```

use std::time::Duration;

/// How much work a run may do.
///
/// A [`Budget::Count`] is deterministic: the same run does the same work on any machine and
/// under any load. A [`Budget::Time`] adapts to the machine, so what it does varies from run
/// to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// This many units of work (games, playouts: each user says which): deterministic.
    Count(u64),
    /// Wall-clock time: work goes on until this much time has passed.
    Time(Duration),
}

impl Budget {
    /// True when a run that has done `done` units of work in `elapsed` time has spent the
    /// budget: `done >= n` for [`Budget::Count`]`(n)`, `elapsed >= t` for
    /// [`Budget::Time`]`(t)` (the other argument is ignored).
    pub fn is_spent(&self, done: u64, elapsed: Duration) -> bool {
        match *self {
            Budget::Count(n) => done >= n,
            Budget::Time(limit) => elapsed >= limit,
        }
    }

    /// The budget with a count capped at `most` units (a time budget is unchanged).
    pub fn capped(self, most: u64) -> Budget {
        match self {
            Budget::Count(n) => Budget::Count(n.min(most)),
            time => time,
        }
    }

    /// The share `num / den` of the budget (rounded down), to split it between the stages of
    /// a run. `den` must not be 0.
    pub fn share(&self, num: u64, den: u64) -> Budget {
        assert!(den > 0, "Budget::share: a share of 0 parts");
        match *self {
            Budget::Count(n) => {
                let n = u128::from(n) * u128::from(num) / u128::from(den);
                Budget::Count(n.min(u128::from(u64::MAX)) as u64)
            }
            Budget::Time(limit) => {
                let nanos = limit.as_nanos().saturating_mul(u128::from(num)) / u128::from(den);
                Budget::Time(Duration::from_nanos(nanos.min(u128::from(u64::MAX)) as u64))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_times_are_spent_at_their_limit() {
        let b = Budget::Count(3);
        assert!(!b.is_spent(2, Duration::MAX));
        assert!(b.is_spent(3, Duration::ZERO));
        assert!(Budget::Count(0).is_spent(0, Duration::ZERO));
        let t = Budget::Time(Duration::from_millis(10));
        assert!(!t.is_spent(u64::MAX, Duration::from_millis(9)));
        assert!(t.is_spent(0, Duration::from_millis(10)));
        assert_eq!(Budget::Count(5000).capped(1000), Budget::Count(1000));
        assert_eq!(Budget::Count(10).capped(1000), Budget::Count(10));
        assert_eq!(t.capped(1), t);
    }

    #[test]
    fn shares_round_down_and_do_not_overflow() {
        assert_eq!(Budget::Count(10).share(1, 3), Budget::Count(3));
        assert_eq!(Budget::Count(10).share(3, 3), Budget::Count(10));
        assert_eq!(Budget::Count(u64::MAX).share(2, 2), Budget::Count(u64::MAX));
        let t = Budget::Time(Duration::from_secs(3));
        assert_eq!(t.share(2, 3), Budget::Time(Duration::from_secs(2)));
    }
}
