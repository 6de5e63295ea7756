//! The search's estimate of a seat's chance of winning after each of several plays, for game
//! analysis (`ddz analyse`): every play scored on the same samples (no halving), so that the
//! difference between two plays is not noise from two sample sets.

use super::playout::*;
use super::robot::SearchBot;
use super::sample::*;
use super::schedule::*;
use super::tempering::*;
use super::tuning::*;
use crate::net::features::Position;
use ddz_core::Move;
use ddz_game::{Budget, SeatView};
use std::time::Instant;

/// The search's estimates at one play decision: the plays scored and the chance of winning
/// after each, for the seat's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimates {
    /// The plays scored: the search's candidates, then any play asked for that is not one.
    pub moves: Vec<Move>,
    /// The chance of winning after each of `moves` (0 to 1), by the weighted playouts.
    pub chances: Vec<f64>,
    /// The samples every play was scored on.
    pub samples: u32,
}

impl Estimates {
    /// The index of the best play (the highest chance; the first of equals).
    pub fn best(&self) -> usize {
        let mut best = 0;
        for (i, &c) in self.chances.iter().enumerate() {
            if c > self.chances[best] {
                best = i;
            }
        }
        best
    }

    /// The chance after `play`, when it was scored.
    pub fn chance_of(&self, play: &Move) -> Option<f64> {
        let i = self.moves.iter().position(|m| m == play)?;
        Some(self.chances[i])
    }
}

impl SearchBot {
    /// The chance of winning after each of the search's candidates and each play of `also`
    /// (the play made, in analysis), for the seat of `view` with the plays `allowed`: every
    /// play scored on the same samples of the hidden hands, drawn from `seed` and weighted by
    /// the inference from the public history (as the robot's own decision weighs them), played
    /// out by the `ddzlib` policy or solved when small. `budget`: samples per play (`Count`)
    /// or a time for the whole estimate (`Time`, at least one batch of samples). `None`
    /// before the landlord is known or when no sample fits the view.
    pub fn estimate(
        &mut self,
        view: &SeatView,
        allowed: &[Move],
        also: &[Move],
        budget: Budget,
        seed: u64,
    ) -> Option<Estimates> {
        let landlord = view.landlord()?;
        let mut net_scores = Vec::new();
        if let (Some(ensemble), Some(pos)) = (self.net.as_mut(), Position::of_view(view)) {
            ensemble.scores(&pos, view.rules(), allowed, &mut net_scores);
        }
        let mut moves = self.candidates(view, allowed, &net_scores);
        for m in also {
            if !moves.contains(m) {
                moves.push(*m);
            }
        }
        let p = Decision::of(view, landlord, self.config.infer_bids);
        let config = self.config;
        let mut players: Vec<Players> = (0..config.threads.clamp(1, BATCH as usize))
            .map(|_| Players::new(None))
            .collect();
        let tempering = Tempering::of(&p, config, seed, &mut players[0]);
        let alive: Vec<usize> = (0..moves.len()).collect();
        let mut totals = vec![0f64; moves.len()];
        let mut weight = 0f64;
        let start = Instant::now();
        let mut sample = 0u32;
        loop {
            let batch = Batch {
                alive: &alive,
                from: sample,
                tempering,
                by_net: false,
            };
            let (rows, _) = run_batch(&p, &moves, &batch, config, seed, &mut players);
            for row in rows {
                weight += row.weight;
                for (total, worth) in totals.iter_mut().zip(&row.worth) {
                    *total += row.weight * worth;
                }
            }
            sample += BATCH;
            let done = match budget {
                Budget::Count(n) => u64::from(sample) >= n,
                Budget::Time(limit) => start.elapsed() >= limit,
            };
            if done {
                break;
            }
        }
        if weight <= 0.0 {
            return None;
        }
        let chances = totals
            .iter()
            .map(|t| ((t / weight + 1.0) / 2.0).clamp(0.0, 1.0))
            .collect();
        Some(Estimates {
            moves,
            chances,
            samples: sample,
        })
    }
}
