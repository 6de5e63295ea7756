//! Thousands of seeded games per profile with random legal actions: every game ends with one
//! winning side, the 54 cards are conserved, scores sum to zero, the game's record replays to
//! the same result, every view shows only its own hand and the hands shown (明牌), each from
//! the moment it is shown, and undo restores the state (shows and doublings included).

use ddz_core::{Bidding, Cards, DealMethod, Profile, Rules};
use ddz_game::{Action, Actions, Game, GameRecord, Phase, Seat, Side, below, rng};

const GAMES_PER_PROFILE: u64 = 10_000;

/// Plays one game with random actions drawn from `seed`; returns it finished.
fn random_game(rules: &Rules, seed: u64) -> Game {
    let mut game = Game::new(rules, seed);
    let mut r = rng(seed ^ 0xA5A5);
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
                let first = below(&mut r, most) as u8;
                if game.bid(seat, first).is_err() {
                    game.bid(seat, 0).expect("a pass is always a legal bid");
                }
            }
            Phase::Playing => {
                let moves = game.legal_moves();
                assert!(!moves.is_empty());
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                let before = game.clone().view(seat);
                game.play(seat, m).expect("a generated move is legal");
                // Undo restores the view exactly, then redo.
                let mut undone = game.clone();
                undone.undo().unwrap();
                assert_eq!(undone.view(seat), before);
            }
            Phase::Dealing | Phase::LandlordShow => {
                let show = below(&mut r, 5) == 0;
                decide_and_undo(&mut game, seat, Action::Show(show));
            }
            Phase::Doubling => {
                let Actions::Double(factors) = game.legal_actions() else {
                    panic!("game {seed}: no doubling factors while doubling");
                };
                // Any seat that has not chosen may act (simultaneous doubling).
                let may = game.to_act();
                let seat = may[below(&mut r, may.len() as u64) as usize];
                let f = factors[below(&mut r, factors.len() as u64) as usize];
                decide_and_undo(&mut game, seat, Action::Double(f));
            }
            Phase::Over => unreachable!(),
        }
        check_invariants(&game);
    }
    game
}

/// A show decision or a doubling by `seat`; undone on a copy, every view is back as it was.
fn decide_and_undo(game: &mut Game, seat: Seat, action: Action) {
    let before: Vec<_> = Seat::ALL.iter().map(|&s| game.view(s)).collect();
    game.act(seat, action).expect("a listed decision is legal");
    let mut undone = game.clone();
    undone.undo().expect("a show or doubling can be undone");
    for s in Seat::ALL {
        assert_eq!(undone.view(s), before[s.index()], "undo of {action:?}");
    }
}

fn check_invariants(game: &Game) {
    // Hands plus played cards plus the unclaimed kitty are the 54 cards (while dealing, plus
    // the cards not dealt yet).
    let mut total = Cards::EMPTY;
    for s in Seat::ALL {
        let hand = game.hand(s);
        if game.phase() == Phase::Dealing {
            assert_eq!(hand.len(), game.dealt_so_far());
            let dealt = game.deal().hands[s].to_cards();
            assert_eq!(
                dealt.difference(hand).map(|rest| rest.len()),
                Some(17 - hand.len())
            );
            total = total.union(dealt);
        } else {
            total = total.union(hand);
        }
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
        assert_eq!(v.hand(), game.hand(s), "a view shows its own hand");
        // Another seat's hand only once shown, and then as it is now.
        for t in Seat::ALL {
            let shown = game.shows().iter().any(|x| x.seat == t);
            let want = shown.then(|| game.hand(t));
            assert_eq!(v.shown()[t], want, "seat {s}'s view of seat {t}");
        }
        assert_eq!(v.shows().len(), game.shows().len());
        for t in Seat::ALL {
            assert_eq!(v.doublings()[t], game.doubling(t));
        }
        assert_eq!(
            v.cards_left().0.iter().sum::<u32>(),
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
        check_settlement(&game, &rules);
    }
    assert!(landlord_wins > 0 && landlord_wins < GAMES_PER_PROFILE as usize);
}

/// The scores are the hand-computed ones of RULES.md section 7: P = show × 2^robs × the bomb
/// factors × spring, m_i = P × d_L × d_Fi capped per pair, the landlord the sum.
fn check_settlement(game: &Game, rules: &Rules) {
    let result = game.result().unwrap();
    let landlord = game.landlord().unwrap();
    let robs = match rules.bidding {
        Bidding::CallRob => {
            let calls = game.bids().iter().filter(|b| b.1 == 1).count() as u32;
            calls.saturating_sub(1)
        }
        _ => 0,
    };
    let bombs: u32 = game
        .history()
        .map(|(_, m)| ddz_game::bomb_factor(&m, &game.rules()))
        .product();
    let spring = if result.spring || result.anti_spring {
        2
    } else {
        1
    };
    let show = game.show_factor();
    let p = u64::from(show) * (1 << robs) * u64::from(bombs) * spring;
    let d = game.doubling_factors();
    let cap = rules.pair_cap().map_or(u64::MAX, u64::from);
    let base = i64::from(result.base);
    let sign = if result.winner == Side::Landlord {
        1
    } else {
        -1
    };
    let mut landlord_score = 0;
    for f in Seat::ALL.into_iter().filter(|&s| s != landlord) {
        let m = (p * u64::from(d[landlord]) * u64::from(d[f])).min(cap);
        assert_eq!(result.scores[f], -sign * base * m as i64, "farmer {f}");
        landlord_score += sign * base * m as i64;
        if let Some(ms) = result.multipliers {
            assert_eq!(u64::from(ms[f]), m);
            assert_eq!(game.seat_multiplier(f), ms[f]);
        }
    }
    assert_eq!(result.scores[landlord], landlord_score);
    assert_eq!(u64::from(result.multiplier), p.min(cap));
    assert_eq!(result.show, show);
}

#[test]
fn huanle_games() {
    check_profile(Rules::huanle(), 9);
}

#[test]
fn huanle_no_shuffle_games() {
    let mut rules = Rules::huanle();
    rules.deal = DealMethod::NoShuffle;
    check_profile(rules, 10);
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
