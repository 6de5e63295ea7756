//! Every built-in robot decides doubling (加倍) and showing (明牌) under `huanle`: games end,
//! scores are zero-sum, and the threshold robots do double and show on strong hands.

use ddz_bots::{BOT_NAMES, make_bot, play_game};
use ddz_core::Rules;
use ddz_game::Seat;

/// Plays `games` huanle games with `name` in every seat; returns (doublings above 1, shows).
fn tally(name: &str, games: u64) -> (usize, usize) {
    let rules = Rules::huanle();
    let (mut doubled, mut shown) = (0, 0);
    for seed in 0..games {
        let mut bots = [
            make_bot(name, seed * 3).unwrap(),
            make_bot(name, seed * 3 + 1).unwrap(),
            make_bot(name, seed * 3 + 2).unwrap(),
        ];
        let game = play_game(&rules, seed, &mut bots).unwrap();
        let result = game.result().expect("the game ended");
        assert_eq!(result.scores.0.iter().sum::<i64>(), 0, "{name} seed {seed}");
        doubled += Seat::ALL
            .into_iter()
            .filter(|&s| game.doubling(s).is_some_and(|d| d > 1))
            .count();
        shown += game.shows().len();
    }
    (doubled, shown)
}

#[test]
fn every_robot_finishes_huanle_games() {
    for name in BOT_NAMES {
        let spec = if name == "search" {
            "search:iters=40"
        } else {
            name
        };
        tally(spec, 6);
    }
}

#[test]
fn threshold_robots_double_and_show_on_strong_hands() {
    for name in ["ddzlib", "value", "random"] {
        let (doubled, shown) = tally(name, 60);
        assert!(doubled > 0, "{name} never doubled in 60 games");
        assert!(doubled < 180, "{name} always doubled in 60 games");
        assert!(shown > 0, "{name} never showed in 60 games");
        println!("{name}: {doubled} doublings, {shown} shows in 60 games");
    }
}

#[test]
fn search_doubles_by_its_estimate() {
    let (doubled, _) = tally("search:iters=60", 10);
    assert!(doubled > 0, "search never doubled in 10 games");
}
