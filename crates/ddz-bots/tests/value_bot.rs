//! The value robot plays legal games under every profile and bidding form, deterministically,
//! chooses only among the moves it is allowed, and beats the random robot by a wide margin.

use crate::common;

use common::{bots, configs};

use ddz_bots::{ValueBot, play_game};
use ddz_core::{Bidding, Cards, Move, Rules, legal_moves};
use ddz_game::{Game, Phase, Side};

/// Plays `games` seeded games per profile and pairing; `play_game` fails on any illegal
/// action.
fn play_many(games: u64) {
    for rules in &configs() {
        for names in [
            ["value"; 3],
            ["value", "random", "random"],
            ["random", "value", "greedy"],
            ["greedy", "greedy", "value"],
        ] {
            for seed in 0..games {
                let game = play_game(rules, seed, &mut bots(names, seed))
                    .unwrap_or_else(|e| panic!("{} {names:?} seed {seed}: {e}", rules.profile));
                assert!(game.result().is_some());
            }
        }
    }
}

#[test]
fn plays_legal_games_under_every_profile() {
    play_many(80);
}

/// The long run before resolving the issue: `cargo test -p ddz-bots --release -- --ignored`.
#[test]
#[ignore]
fn plays_ten_thousand_legal_games_per_pairing() {
    play_many(10_000);
}

#[test]
fn games_are_deterministic() {
    let rules = Rules::laizi();
    for seed in 0..10 {
        let a = play_game(&rules, seed, &mut bots(["value"; 3], seed)).unwrap();
        let b = play_game(&rules, seed, &mut bots(["value"; 3], seed)).unwrap();
        assert_eq!(
            a.history().collect::<Vec<_>>(),
            b.history().collect::<Vec<_>>()
        );
    }
}

#[test]
fn chooses_only_allowed_moves() {
    // A controller allowing only singles and passes: the robot keeps to them.
    let rules = Rules::classic();
    for seed in 0..30 {
        let mut game = Game::new(&rules, seed);
        let mut bots = bots(["value"; 3], seed);
        while game.phase() != Phase::Over {
            let seat = game.turn();
            let view = game.view(seat);
            if game.phase() == Phase::Bidding {
                let bid = bots[seat.index()].bid(&view, &view.legal_bids());
                game.bid(seat, bid).unwrap();
                continue;
            }
            let all = game.legal_moves();
            let narrow: Vec<Move> = all
                .iter()
                .copied()
                .filter(|m| m.card_count() <= 1)
                .collect();
            let allowed = if narrow.is_empty() { all } else { narrow };
            let m = bots[seat.index()].play(&view, &allowed);
            assert!(allowed.contains(&m), "seed {seed}: {m:?} not allowed");
            game.play(seat, m).unwrap();
        }
    }
}

#[test]
fn follows_the_blog_where_the_rules_allow() {
    let rules = Rules::classic();
    let mut bot = ValueBot::new();
    let hand: Cards = "22AAKQJ9987776654".parse().unwrap();
    let lead = bot.blog_choice(hand, None, &rules).unwrap();
    assert_eq!(lead.cards(), "7774".parse().unwrap());
    assert!(legal_moves(hand, None, &rules).contains(&lead));
}

#[test]
fn beats_random_by_a_wide_margin() {
    let mut rules = Rules::classic();
    rules.bidding = Bidding::Fixed;
    let games = 200;
    let mut landlord_wins = 0;
    let mut farmer_wins = 0;
    for seed in 0..games {
        let g = play_game(&rules, seed, &mut bots(["value", "random", "random"], seed)).unwrap();
        landlord_wins += u32::from(g.result().unwrap().winner == Side::Landlord);
        let g = play_game(&rules, seed, &mut bots(["random", "value", "value"], seed)).unwrap();
        farmer_wins += u32::from(g.result().unwrap().winner == Side::Farmers);
    }
    assert!(
        landlord_wins > 150,
        "value landlord won {landlord_wins} of {games}"
    );
    assert!(
        farmer_wins > 150,
        "value farmers won {farmer_wins} of {games}"
    );
}
