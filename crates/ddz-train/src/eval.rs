//! The training run's yardstick: the network (greedy) against `ddzlib` over fixed duplicate
//! deals, each played twice with the sides swapped, as `ddz arena` does.

use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::net::Scorer;
use ddz_core::Rules;
use ddz_game::{Deal, derive_seed};

use crate::train_game::TrainGame;

/// Seed of the evaluation deals (fixed, so every evaluation of every run plays the same).
const EVAL_SEED: u64 = 0xE7A1;

/// The network's share of games won against `ddzlib` over `deals` deals (2 × `deals` games):
/// on each deal once as the landlord against two `ddzlib` farmers, once as the two farmers.
pub fn wp_vs_ddzlib(scorer: &mut Scorer, rules: &Rules, deals: u64) -> f64 {
    let mut ddzlib = DdzlibBot::new();
    let mut won = 0u64;
    for n in 0..deals {
        let deal = Deal::from_seed(derive_seed(EVAL_SEED, n), rules);
        for net_lands in [true, false] {
            let mut table = TrainGame::start(&deal, rules);
            let landlord_won = table.play_out(scorer, &mut ddzlib, Some(net_lands));
            won += u64::from(landlord_won == net_lands);
        }
    }
    won as f64 / (2 * deals).max(1) as f64
}
