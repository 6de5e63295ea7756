//! Baseline robots: `random` and `greedy`.

use ddz_core::Move;
use ddz_game::{Bid, SeatView};
use ddz_game::{below, rng};
use rand_chacha::ChaCha8Rng;

use crate::Bot;

/// Chooses a uniformly random allowed bid, play and doubling factor, and shows its hand at a
/// window one time in four, from its own seeded generator.
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

    /// A uniformly random allowed factor.
    fn double(&mut self, _view: &SeatView, allowed: &[u32]) -> u32 {
        match allowed {
            [] => 1,
            _ => allowed[below(&mut self.rng, allowed.len() as u64) as usize],
        }
    }

    /// Shows with a chance of one in four at each window it is asked.
    fn show(&mut self, _view: &SeatView, _factor: u32) -> bool {
        below(&mut self.rng, 4) == 0
    }
}

/// Plays the smallest allowed play: the lowest main rank, then the fewest cards (a pass only
/// when nothing else is allowed). Bids the lowest allowed non-zero bid (so it calls and robs
/// whenever it may); doubles and shows as `ddzlib` does ([`crate::stakes`]); deterministic,
/// no randomness.
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

    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        crate::stakes::ddzlib_double(view, allowed)
    }

    fn show(&mut self, view: &SeatView, _factor: u32) -> bool {
        crate::stakes::ddzlib_show(view)
    }
}
