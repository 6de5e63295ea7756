//! The training run's yardstick: the network (greedy) against `ddzlib` over fixed duplicate
//! deals, each played twice with the sides swapped, as `ddz arena` does.

use ddz_bots::ddzlib::DdzlibBot;
use ddz_bots::net::Scorer;
use ddz_core::Rules;
use ddz_game::{Deal, derive_seed};

use crate::table::{LANDLORD, Table};

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
            let landlord_won = play_out(&deal, rules, scorer, &mut ddzlib, net_lands);
            won += u64::from(landlord_won == net_lands);
        }
    }
    won as f64 / (2 * deals).max(1) as f64
}

/// Plays `deal` with seat 0 the landlord, the network on the landlord's side when
/// `net_lands` and on the farmers' otherwise; true when the landlord wins.
fn play_out(
    deal: &Deal,
    rules: &Rules,
    scorer: &mut Scorer,
    ddzlib: &mut DdzlibBot,
    net_lands: bool,
) -> bool {
    let mut table = Table::start(deal, rules);
    let (mut moves, mut buf) = (Vec::new(), Vec::new());
    while !table.state.is_over() {
        let seat = table.state.turn();
        let play = if (seat == LANDLORD) == net_lands {
            table.state.legal_moves_into(&table.rules, &mut moves);
            match ddz_bots::obvious_play(table.state.hand(seat), &moves) {
                Some(m) => m,
                None => moves[scorer.best(&table.position(), &table.rules, &moves).0],
            }
        } else {
            ddzlib.choose_legal(&table.state.turn_view(&table.rules, LANDLORD), &mut buf)
        };
        table.apply(play);
    }
    table.landlord_won()
}
