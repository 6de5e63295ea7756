//! The robots at two and four seats (ddz_bots::table): every robot plays whole games with
//! bidding, legally, to a zero-sum result that replays; ddzlib reads the other side by the
//! table's size; the search's options are checked.

use ddz_bots::table::{TABLE_ROBOTS, TableBot};
use ddz_core::{Cards, Rules, legal_moves};
use ddz_game::{BySeat, Phase, Seat, TableGame, TableRecord, TurnView};

fn play<const N: usize>(rules: &Rules, specs: [&str; N], seed: u64) -> TableGame<N> {
    let mut bots: Vec<TableBot> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| TableBot::from_spec(s, seed + i as u64).unwrap())
        .collect();
    let mut game = TableGame::<N>::new(rules, seed).unwrap();
    while game.phase() == Phase::Bidding {
        let allowed = game.legal_bids();
        let bid = bots[game.turn().index()].bid(&game, &allowed);
        assert!(allowed.contains(&bid));
        game.bid(game.turn(), bid).unwrap();
    }
    while game.phase() == Phase::Playing {
        let turn = game.turn_view().unwrap();
        let allowed = game.legal_moves();
        let m = bots[game.turn().index()].play(&turn, &allowed);
        assert!(allowed.contains(&m), "{m} is not allowed");
        game.play(game.turn(), m).unwrap();
    }
    game
}

#[test]
fn every_robot_plays_whole_games_at_two_and_four_seats() {
    for (i, name) in TABLE_ROBOTS.iter().enumerate() {
        let spec = if *name == "search" {
            "search:worlds=4:moves=3"
        } else {
            name
        };
        for seed in 0..6u64 {
            let two = play::<2>(&Rules::two(), [spec, "ddzlib"], seed * 7 + i as u64);
            let four = play::<4>(&Rules::four(), [spec, "greedy", spec, "ddzlib"], seed);
            for scores in [
                two.result().unwrap().scores.0.to_vec(),
                four.result().unwrap().scores.0.to_vec(),
            ] {
                assert_eq!(scores.iter().sum::<i64>(), 0);
            }
            TableRecord::from_game(&two).replay().unwrap();
            TableRecord::from_game(&four).replay().unwrap();
        }
    }
}

#[test]
fn ddzlib_reads_the_other_side_by_the_table() {
    // A farmer whose next seat is its teammate on one card leads its smallest card: at four
    // seats seat 1 (landlord 0) has teammate 2 next; at two seats it has none, and leads its
    // smallest group, the pair.
    let hand: Cards = "55K".parse().unwrap();
    let rules = Rules::four();
    let turn = TurnView::<4>::hypothetical(
        &rules,
        Seat::ALL[1],
        hand,
        Seat::ALL[0],
        BySeat([20, 3, 1, 20]),
        None,
    );
    let allowed = legal_moves(hand, None, &rules);
    let mut bot = TableBot::from_spec("ddzlib", 0).unwrap();
    assert_eq!(bot.play(&turn, &allowed).to_string(), "5:single:5");
    let rules = Rules::two();
    let turn = TurnView::<2>::hypothetical(
        &rules,
        Seat::ALL[1],
        hand,
        Seat::ALL[0],
        BySeat([20, 3]),
        None,
    );
    let lead = bot.play(&turn, &legal_moves(hand, None, &rules));
    assert_eq!(lead.to_string(), "55:pair:5");
}

#[test]
fn robot_specs_are_checked() {
    for (spec, needle) in [
        ("value", "value"),
        ("ddzlib:x=1", "x=1"),
        ("search:worlds", "worlds"),
        ("search:worlds=0", "worlds"),
        ("search:depth=3", "depth"),
    ] {
        let e = TableBot::from_spec(spec, 0).err().expect(spec);
        assert!(e.to_string().contains(needle), "{spec}: {e}");
    }
    assert_eq!(
        TableBot::from_spec("search:moves=2:worlds=9", 0)
            .unwrap()
            .name(),
        "search"
    );
}
