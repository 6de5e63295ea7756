//! Thousands of seeded games per profile with random legal actions: every game ends with one
//! winning side, the 54 cards are conserved, scores sum to zero, the game's record replays to
//! the same result, every view shows only its own hand, and undo restores the state.

use ddz_core::{Bidding, Cards, Profile, Rules};
use ddz_game::{Game, GameRecord, Phase, Seat, Side, shuffle};

const GAMES_PER_PROFILE: u64 = 10_000;

/// Plays one game with random actions drawn from `seed`; returns it finished.
fn random_game(rules: &Rules, seed: u64) -> Game {
    let mut game = Game::new(rules, seed);
    let mut r = shuffle::rng(seed ^ 0xA5A5);
    let mut steps = 0;
    while game.phase() != Phase::Over {
        steps += 1;
        assert!(steps < 500, "game {seed} does not end");
        let seat = game.turn();
        match game.phase() {
            Phase::Bidding => {
                let most = if rules.bidding == Bidding::Points {
                    4
                } else {
                    2
                };
                // Try bids until one is accepted (0 always is).
                let first = shuffle::below(&mut r, most) as u8;
                if game.bid(seat, first).is_err() {
                    game.bid(seat, 0).expect("a pass is always a legal bid");
                }
            }
            Phase::Playing => {
                let moves = game.legal_moves();
                assert!(!moves.is_empty());
                let m = moves[shuffle::below(&mut r, moves.len() as u64) as usize];
                let before = game.clone().view(seat);
                game.play(seat, m).expect("a generated move is legal");
                // Undo restores the view exactly, then redo.
                let mut undone = game.clone();
                undone.undo().unwrap();
                assert_eq!(undone.view(seat), before);
            }
            Phase::Over => unreachable!(),
        }
        check_invariants(&game);
    }
    game
}

fn check_invariants(game: &Game) {
    // Hands plus played cards plus the unclaimed kitty are the 54 cards.
    let mut total = Cards::EMPTY;
    for s in Seat::ALL {
        total = total.union(game.hand(s));
    }
    for (_, m) in game.history() {
        total = total.union(m.cards());
    }
    if game.landlord().is_none() {
        total = total.union(game.deal().kitty.to_cards());
    }
    assert_eq!(total, Cards::FULL_DECK);
    for s in Seat::ALL {
        let v = game.view(s);
        assert_eq!(v.hand, game.hand(s), "a view shows its own hand");
        assert_eq!(
            v.cards_left.0.iter().sum::<u32>(),
            Seat::ALL.iter().map(|&t| game.hand(t).len()).sum::<u32>()
        );
    }
}

fn check_profile(rules: Rules, seed: u64) {
    let mut landlord_wins = 0;
    for i in 0..GAMES_PER_PROFILE {
        let game = random_game(&rules, seed * 1_000_000 + i);
        let result = game.result().expect("a finished game has a result");
        let record = GameRecord::from_game(&game);
        let replayed = GameRecord::parse(&record.to_json())
            .and_then(|r| r.replay())
            .unwrap_or_else(|e| panic!("game {i}: the record does not replay: {e}"));
        assert_eq!(replayed.result(), Some(result), "game {i}: replayed result");
        assert_eq!(result.scores.0.iter().sum::<i64>(), 0, "zero-sum");
        let landlord = game.landlord().unwrap();
        assert_eq!(game.hand(result.first_out).len(), 0);
        let landlord_won = result.winner == Side::Landlord;
        assert_eq!(landlord_won, result.first_out == landlord);
        assert_eq!(result.scores[landlord] > 0, landlord_won);
        landlord_wins += usize::from(landlord_won);
    }
    assert!(landlord_wins > 0 && landlord_wins < GAMES_PER_PROFILE as usize);
}

#[test]
fn classic_games() {
    check_profile(Rules::classic(), 1);
}

#[test]
fn call_rob_games() {
    let mut rules = Rules::classic();
    rules.bidding = Bidding::CallRob;
    check_profile(rules, 2);
}

#[test]
fn engine_profiles_games() {
    for (i, p) in [Profile::Douzero, Profile::Rlcard, Profile::Botzone]
        .into_iter()
        .enumerate()
    {
        check_profile(Rules::profile(p), 3 + i as u64);
    }
}

#[test]
fn wild_games() {
    check_profile(Rules::laizi(), 7);
    let mut tiandi = Rules::tiandi();
    tiandi.bidding = Bidding::CallRob;
    check_profile(tiandi, 8);
}
