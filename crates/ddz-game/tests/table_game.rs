//! The game at two and four seats (`TableGame`, docs/variants.md): random games from the
//! bidding to the result, their scores computed again by hand, their records replayed, and
//! every refusal.

use ddz_core::{Kind, Move, Rules};
use ddz_game::{
    ActionError, Phase, Role, Seat, Side, TableGame, TableRecord, below, derive_seed,
    handicap_cards, rng,
};

/// Plays the game of `seed` with uniformly random bids and moves; returns the game over.
fn random_game<const N: usize>(rules: &Rules, seed: u64) -> TableGame<N> {
    let mut game = TableGame::<N>::new(rules, seed).unwrap();
    let mut draw = rng(derive_seed(seed, 99));
    while game.phase() == Phase::Bidding {
        let bids = game.legal_bids();
        let bid = bids[below(&mut draw, bids.len() as u64) as usize];
        game.bid(game.turn(), bid).unwrap();
    }
    while game.phase() == Phase::Playing {
        let moves = game.legal_moves();
        let m = moves[below(&mut draw, moves.len() as u64) as usize];
        game.play(game.turn(), m).unwrap();
    }
    game
}

/// The scores as docs/variants.md gives them, from the game's plays alone: the stake is base
/// x 2^robs x 2 a bomb or top (rocket or four jokers) x 2 for spring; each farmer wins or
/// loses the stake, the landlord the sum.
fn scores_by_hand<const N: usize>(game: &TableGame<N>, rules: &Rules) -> [i64; N] {
    let landlord = game.landlord().unwrap();
    let plays: Vec<&(Seat, Move)> = game.history().iter().filter(|p| !p.1.is_pass()).collect();
    let bombs = plays
        .iter()
        .filter(|(_, m)| matches!(m.kind(), Kind::Bomb | Kind::Rocket | Kind::FourJokers))
        .count() as u32;
    let landlord_won = game.result().unwrap().first_out == landlord;
    let farmers_played = plays.iter().any(|(s, _)| *s != landlord);
    let landlord_plays = plays.iter().filter(|(s, _)| *s == landlord).count();
    let spring = if landlord_won {
        !farmers_played
    } else {
        landlord_plays == 1
    };
    let mut stake = (i64::from(game.base()) * i64::from(game.rob_multiplier())) << bombs;
    if spring && rules.spring {
        stake *= 2;
    }
    let sign = if landlord_won { 1 } else { -1 };
    let mut scores = [-sign * stake; N];
    scores[landlord.index()] = sign * stake * (N as i64 - 1);
    scores
}

fn check_games<const N: usize>(rules: &Rules, games: u64) {
    let mut landlord_wins = 0;
    for seed in 0..games {
        let game = random_game::<N>(rules, seed);
        let result = game.result().expect("over");
        let landlord = game.landlord().unwrap();
        assert_eq!(result.scores.0.iter().sum::<i64>(), 0, "seed {seed}");
        if result.multiplier < 1 << 20 {
            assert_eq!(result.scores.0, scores_by_hand(&game, rules), "seed {seed}");
        }
        // The game ended as the rules say: a hand emptied, or the two-seat farmer reached its
        // handicap of 1 + robs cards.
        let out = result.first_out;
        match game.handicap() {
            Some((farmer, cards)) => {
                assert_eq!(farmer, landlord.next_of::<N>());
                assert_eq!(
                    cards,
                    handicap_cards(game.rob_multiplier().trailing_zeros())
                );
                assert!(game.hand(out).len() <= if out == farmer { cards } else { 0 });
            }
            None => assert!(game.hand(out).is_empty(), "seed {seed}"),
        }
        landlord_wins += u32::from(result.winner == Side::Landlord);
        // The record replays to the same game, through JSON.
        let record = TableRecord::from_game(&game);
        let parsed = TableRecord::<N>::parse(&record.to_json()).unwrap();
        assert_eq!(parsed, record);
        let replayed = parsed
            .replay()
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed.history(), game.history());
        assert_eq!(replayed.result(), game.result());
    }
    assert!(
        landlord_wins > 0 && landlord_wins < games as u32,
        "{landlord_wins}"
    );
}

#[test]
fn two_seat_games_end_by_the_handicap_score_zero_sum_and_replay() {
    check_games::<2>(&Rules::two(), 200);
}

#[test]
fn four_seat_games_score_zero_sum_and_replay() {
    check_games::<4>(&Rules::four(), 60);
}

#[test]
fn the_landlord_takes_the_kitty_and_nobody_bidding_deals_again() {
    let rules = Rules::four();
    let mut game = TableGame::<4>::new(&rules, 3).unwrap();
    let first_deal = *game.deal();
    for _ in 0..4 {
        game.bid(game.turn(), 0).unwrap();
    }
    assert_eq!(game.redeals(), 1);
    assert_ne!(*game.deal(), first_deal);
    assert_eq!(game.phase(), Phase::Bidding);
    let bidder = game.turn();
    game.bid(bidder, 3).unwrap();
    assert_eq!(game.landlord(), Some(bidder));
    assert_eq!(game.base(), 3);
    assert_eq!(game.hand(bidder).len(), 33);
    assert_eq!(game.turn(), bidder, "the landlord leads");
    // A record of the redealt game replays its all-pass round.
    let record = TableRecord::from_game(&game);
    assert_eq!(record.redeals, 1);
    assert_eq!(record.replay().unwrap().hand(bidder), game.hand(bidder));
}

#[test]
fn refusals_name_what_is_wrong() {
    let rules = Rules::two();
    let mut game = TableGame::<2>::new(&rules, 5).unwrap();
    let other = game.turn().next_of::<2>();
    assert!(matches!(
        game.bid(other, 1),
        Err(ActionError::NotYourTurn { .. })
    ));
    assert!(matches!(
        game.bid(game.turn(), 3),
        Err(ActionError::BadBid { .. })
    ));
    assert!(game.play(game.turn(), Move::PASS).is_err());
    assert!(game.undo().is_err());
    // The seats come from the rules; three-seat features are refused.
    let e = TableGame::<3>::new(&rules, 1).unwrap_err();
    assert!(e.to_string().contains("seat 2 players"), "{e}");
    let mut laizi = Rules::laizi();
    laizi.seats = 2;
    assert!(TableGame::<2>::new(&laizi, 1).is_err());
    // A tampered record says where it goes wrong.
    let mut record = TableRecord::from_game(&random_game::<2>(&rules, 9));
    record.plays[0].1 = "33".into();
    let e = record.replay().unwrap_err();
    assert!(e.to_string().starts_with("play 1"), "{e}");
    let e = TableRecord::<4>::parse(&TableRecord::from_game(&game).to_json()).unwrap_err();
    assert!(e.to_string().contains("not 4"), "{e}");
    let e = TableRecord::<2>::parse("{\"format\": \"ddz-record/1\"}").unwrap_err();
    assert!(e.to_string().starts_with("format"), "{e}");
}

/// Checks every seat's view of `game` against the game: its own hand only, the public
/// record, the roles at `N` seats, and (for the seat to play) the same turn view as the game's.
fn check_views<const N: usize>(game: &TableGame<N>) {
    for seat in Seat::all::<N>() {
        let view = game.view(seat);
        assert_eq!(view.seat(), seat);
        assert_eq!(view.hand(), game.hand(seat));
        assert_eq!(view.phase(), game.phase());
        assert_eq!(view.turn(), game.turn());
        assert_eq!(view.bids(), game.bids());
        assert_eq!(view.landlord(), game.landlord());
        assert_eq!(view.history(), game.history());
        assert_eq!(view.handicap(), game.handicap());
        assert_eq!(view.cards_left(), game.cards_left());
        assert_eq!(view.kitty(), game.landlord().map(|_| game.deal().kitty));
        let roles: Vec<Role> = Seat::all::<N>()
            .iter()
            .filter_map(|s| game.view(*s).role())
            .collect();
        if game.landlord().is_some() {
            // One landlord; at four seats one farmer on each side of it and one across.
            assert_eq!(roles.iter().filter(|r| !r.is_farmer()).count(), 1);
            assert_eq!(roles.contains(&Role::LandlordAcross), N == 4, "{roles:?}");
        } else {
            assert!(roles.is_empty());
        }
    }
    if let Some(turn) = game.turn_view() {
        let view = game.view(game.turn());
        let projected = view.turn_view();
        assert_eq!(projected.hand(), turn.hand());
        assert_eq!(projected.last(), turn.last());
        assert_eq!(projected.played(), turn.played());
        assert_eq!(projected.cards_left(), turn.cards_left());
        assert_eq!(projected.handicap(), turn.handicap());
        assert_eq!(projected.history(), turn.history());
    }
}

#[test]
fn every_seat_sees_its_hand_and_the_public_record_at_two_and_four_seats() {
    fn walk<const N: usize>(rules: &Rules, seed: u64) {
        let mut game = TableGame::<N>::new(rules, seed).unwrap();
        let mut draw = rng(derive_seed(seed, 7));
        check_views(&game);
        while game.phase() == Phase::Bidding {
            let bids = game.legal_bids();
            assert_eq!(game.view(game.turn()).legal_bids(), bids);
            let bid = bids[below(&mut draw, bids.len() as u64) as usize];
            game.bid(game.turn(), bid).unwrap();
            check_views(&game);
        }
        while game.phase() == Phase::Playing {
            let moves = game.legal_moves();
            let m = moves[below(&mut draw, moves.len() as u64) as usize];
            game.play(game.turn(), m).unwrap();
            check_views(&game);
        }
    }
    for seed in 0..20 {
        walk::<2>(&Rules::two(), seed);
        walk::<4>(&Rules::four(), seed);
    }
}

#[test]
fn a_forfeit_loses_for_the_failing_side_at_the_stake_so_far() {
    for seed in 0..30 {
        let mut game = TableGame::<4>::new(&Rules::four(), seed).unwrap();
        // Before the bidding ends the failing seat loses as a landlord at stake 1.
        let r = game.forfeit_result(game.turn());
        assert_eq!(r.winner, Side::Farmers);
        assert_eq!(r.scores[game.turn()], -3);
        assert_eq!(r.scores.0.iter().sum::<i64>(), 0);
        let mut draw = rng(seed);
        while game.phase() == Phase::Bidding {
            let bids = game.legal_bids();
            game.bid(
                game.turn(),
                bids[below(&mut draw, bids.len() as u64) as usize],
            )
            .unwrap();
        }
        let landlord = game.landlord().unwrap();
        for _ in 0..seed % 7 {
            let moves = game.legal_moves();
            let m = moves[below(&mut draw, moves.len() as u64) as usize];
            game.play(game.turn(), m).unwrap();
        }
        for failing in Seat::all::<4>() {
            let r = game.forfeit_result(failing);
            let lost = if failing == landlord {
                Side::Farmers
            } else {
                Side::Landlord
            };
            assert_eq!(r.winner, lost, "seed {seed}");
            assert_eq!(r.first_out, failing);
            assert!(!r.spring && !r.anti_spring);
            assert_eq!(r.scores.0.iter().sum::<i64>(), 0);
            let stake = i64::from(game.base() * game.play_state().bomb_multiplier());
            assert_eq!(r.scores[landlord].abs(), 3 * stake, "seed {seed}");
        }
        // The game itself goes on.
        assert_eq!(game.phase(), Phase::Playing);
    }
}
