//! The baseline robots play complete legal games under every profile and bidding form,
//! deterministically, and a smallest-play robot beats a random one.

use crate::common;

use common::{bots, configs};

use ddz_bots::{make_bot, play_game};
use ddz_core::{Bidding, Rules};
use ddz_game::Side;

#[test]
fn every_pairing_plays_legal_games_under_every_profile() {
    for rules in &configs() {
        for names in [
            ["random"; 3],
            ["greedy"; 3],
            ["greedy", "random", "random"],
            ["random", "greedy", "greedy"],
        ] {
            for seed in 0..40 {
                // play_game returns an error on any illegal action; every game must finish.
                let game = play_game(rules, seed, &mut bots(names, seed))
                    .unwrap_or_else(|e| panic!("{} {names:?} seed {seed}: {e}", rules.profile));
                assert!(game.result().is_some());
            }
        }
    }
}

#[test]
fn games_are_deterministic() {
    let rules = Rules::classic();
    for seed in 0..20 {
        let a = play_game(&rules, seed, &mut bots(["random"; 3], seed)).unwrap();
        let b = play_game(&rules, seed, &mut bots(["random"; 3], seed)).unwrap();
        assert_eq!(
            a.history().collect::<Vec<_>>(),
            b.history().collect::<Vec<_>>()
        );
    }
}

#[test]
fn unknown_robots_and_options_are_errors() {
    let e = make_bot("nosuch", 1).err().unwrap().to_string();
    assert!(
        e.contains("unknown robot \"nosuch\"") && e.contains("random, greedy"),
        "{e}"
    );
    assert!(make_bot("random:time=5", 1).is_err());
}

#[test]
fn greedy_beats_random_as_landlord() {
    let mut rules = Rules::classic();
    rules.bidding = Bidding::Fixed;
    let mut wins = 0;
    let games = 400;
    for seed in 0..games {
        let game = play_game(
            &rules,
            seed,
            &mut bots(["greedy", "random", "random"], seed),
        )
        .unwrap();
        wins += usize::from(game.result().unwrap().winner == Side::Landlord);
    }
    // A landlord playing its smallest cards first against two random farmers wins most games.
    assert!(
        wins * 2 > games as usize,
        "greedy landlord won {wins} of {games}"
    );
}
