//! Baseline robots: `random` and `greedy`.

use ddz_core::Move;
use ddz_game::shuffle::{below, rng};
use ddz_game::{Bid, SeatView};
use rand_chacha::ChaCha8Rng;

use crate::Bot;

/// Chooses a uniformly random allowed bid and play, from its own seeded generator.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random robot seeded by `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: rng(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn bid(&mut self, _view: &SeatView, allowed: &[Bid]) -> Bid {
        allowed[below(&mut self.rng, allowed.len() as u64) as usize]
    }

    fn play(&mut self, _view: &SeatView, allowed: &[Move]) -> Move {
        allowed[below(&mut self.rng, allowed.len() as u64) as usize]
    }
}

/// Plays the smallest allowed play: the lowest main rank, then the fewest cards (a pass only
/// when nothing else is allowed). Bids the lowest allowed non-zero bid (so it calls and robs
/// whenever it may); deterministic, no randomness.
pub struct Greedy;

impl Bot for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn bid(&mut self, _view: &SeatView, allowed: &[Bid]) -> Bid {
        allowed
            .iter()
            .copied()
            .filter(|&b| b > 0)
            .min()
            .unwrap_or(0)
    }

    fn play(&mut self, _view: &SeatView, allowed: &[Move]) -> Move {
        allowed
            .iter()
            .filter(|m| !m.is_pass())
            .min_by_key(|m| (m.main(), m.card_count()))
            .or_else(|| allowed.first())
            .copied()
            .unwrap_or(Move::PASS)
    }
}
