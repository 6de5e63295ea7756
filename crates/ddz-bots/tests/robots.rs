//! Every robot against every other, under every profile and bidding form: legal, complete,
//! deterministic games.

use crate::common;

use common::configs;

use ddz_bots::{BOT_NAMES, Bot, bot_seed, make_bot, play_game};
use ddz_game::Seat;

#[test]
fn every_robot_plays_every_other_legally() {
    // The search robot on a small budget: the test is about legality, not strength.
    let names = BOT_NAMES.map(|n| if n == "search" { "search:iters=12" } else { n });
    for rules in &configs() {
        for a in names {
            for b in names {
                if a == b {
                    continue;
                }
                // The search robot's games cost far more than the others' (its readings of
                // the players and its network playouts take no less for a small budget): one
                // game with it in each seat arrangement.
                let games = if a.starts_with("search") || b.starts_with("search") {
                    2
                } else {
                    6
                };
                for seed in 0..games {
                    // Each robot in every seat across the seeds: a, b, b then b, a, a.
                    let names = if seed % 2 == 0 { [a, b, b] } else { [b, a, a] };
                    let mut bots: [Box<dyn Bot>; 3] =
                        Seat::ALL.map(|s| make_bot(names[s.index()], bot_seed(seed, s)).unwrap());
                    let game = play_game(rules, seed, &mut bots)
                        .unwrap_or_else(|e| panic!("{} {names:?} seed {seed}: {e}", rules.profile));
                    assert!(game.result().is_some());
                }
            }
        }
    }
}
