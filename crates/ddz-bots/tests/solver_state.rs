//! The solver's state transitions held equal to the rules of play ([`PlayState`]) on seeded
//! random three-seat positions of every profile: a deal played some random legal moves into
//! the game by `PlayState`, then the solver's [`OpenPosition`] built from the same hands, seat
//! to move and play to beat, and one random line walked in both (`OpenPosition::after` against
//! `PlayState::apply`), comparing at every step the seat to move, the play to beat and who
//! made it, the passes since it, the hands, the legal moves (as a set), and at the end the
//! game over and the winner.
//!
//! Duels are not covered: `PlayState` is three-seat only (its hands are a `BySeat`, its
//! trick ends after two passes), so it has no duel to compare `OpenPosition::duel` with.

use std::collections::HashSet;

use ddz_bots::solver::{After, OpenPosition, PositionError};
use ddz_core::{Bidding, Move, Profile, Rules};
use ddz_game::{Deal, Game, PlayState, Seat, Side, Trick};
use ddz_game::{below, rng};
use rand_chacha::ChaCha8Rng;

/// Deals per profile: six profiles, so 6 × this many positions, each walked to the end.
const DEALS_PER_PROFILE: u64 = 1500;

/// The legal moves of the seat to act, as a set (checked free of duplicates).
fn move_set(moves: &[Move], what: &str) -> HashSet<Move> {
    let set: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(set.len(), moves.len(), "{what}: a legal move listed twice");
    set
}

/// Everything the solver's position and the play state must agree on before a move.
fn compare(p: &OpenPosition, state: &PlayState, rules: &Rules, landlord: Seat, ctx: &str) {
    assert!(
        !state.is_over(),
        "{ctx}: the play state is over, the solver's is not"
    );
    assert_eq!(p.seats(), &Seat::ALL, "{ctx}: seats");
    assert_eq!(p.landlord(), Some(landlord), "{ctx}: landlord");
    assert_eq!(p.turn(), state.turn(), "{ctx}: seat to move");
    assert_eq!(
        p.last(),
        state.last(),
        "{ctx}: play to beat and who made it"
    );
    assert_eq!(p.passes(), state.trick().passes(), "{ctx}: passes");
    for s in Seat::ALL {
        assert_eq!(p.hand(s), state.hand(s), "{ctx}: hand of seat {s}");
    }
    // The trick the solver's position describes, as the rules of play read it.
    assert_eq!(
        Trick::at(p.turn(), p.last()),
        *state.trick(),
        "{ctx}: Trick::at of the solver's turn and play to beat"
    );
    let mut legal = Vec::new();
    state.legal_moves_into(rules, &mut legal);
    assert!(!legal.is_empty(), "{ctx}: no legal move");
    assert_eq!(
        move_set(&p.legal_moves(rules), ctx),
        move_set(&legal, ctx),
        "{ctx}: legal moves"
    );
    // A pass when leading: both refuse it.
    if state.last().is_none() {
        assert_eq!(
            p.after(&Move::PASS, rules),
            Err(PositionError::IllegalMove { play: Move::PASS }),
            "{ctx}: the solver lets the leader pass"
        );
        assert!(
            state.check(state.turn(), &Move::PASS, rules).is_err(),
            "{ctx}: the play state lets the leader pass"
        );
    }
}

/// What the walks covered, so the test sees that every case came up.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    moves: usize,
    /// Positions built with a play to beat, with none and with one pass since it.
    following: [usize; 2],
    /// Positions built with the seat to move leading.
    leading: usize,
    /// Walks won by the landlord, by a farmer.
    wins: [usize; 2],
}

/// One position and one line: `steps` random legal moves into the game of `seed` by the play
/// state alone (stopping short of the end), then the walk in both.
fn walk(profile: Profile, seed: u64, r: &mut ChaCha8Rng, seen: &mut Seen) {
    let mut base = Rules::profile(profile);
    base.bidding = Bidding::Fixed;
    base.landlord_seat = below(r, 3) as u8;
    // Straight to play: no show windows, no doubling (huanle).
    base.show.enabled = false;
    base.doubling.enabled = false;
    let game = Game::with_deal(&base, seed, Deal::from_seed(seed, &base));
    let rules = game.rules(); // the wild ranks revealed
    let landlord = game.landlord().unwrap();
    let mut state = *game.play_state();
    let mut legal = Vec::new();
    let steps = below(r, 60);
    for _ in 0..steps {
        state.legal_moves_into(&rules, &mut legal);
        let m = legal[below(r, legal.len() as u64) as usize];
        let undo = state.apply_legal(m, &rules);
        if state.is_over() {
            state.undo(undo);
            break;
        }
    }
    let ctx0 = format!("{profile} seed {seed}");
    let mut p = OpenPosition::three(
        state.hands().0,
        landlord,
        state.turn(),
        state.last(),
        &rules,
    )
    .unwrap_or_else(|e| panic!("{ctx0}: {e}"));
    // The play state rebuilt from the solver's position alone is the same trick and hands.
    let rebuilt = PlayState::with_trick(*state.hands(), Trick::at(p.turn(), p.last()));
    assert_eq!(rebuilt.trick(), state.trick(), "{ctx0}: with_trick");
    seen.positions += 1;
    match p.last() {
        None => seen.leading += 1,
        Some(_) => seen.following[usize::from(p.passes())] += 1,
    }
    let mut moves = 0;
    loop {
        let ctx = format!("{ctx0}, move {moves} of the walk");
        compare(&p, &state, &rules, landlord, &ctx);
        let list = p.legal_moves(&rules);
        let m = list[below(r, list.len() as u64) as usize];
        let seat = state.turn();
        state
            .apply(seat, m, &rules)
            .unwrap_or_else(|e| panic!("{ctx}: the play state refuses {m}: {e}"));
        moves += 1;
        match p.after(&m, &rules) {
            Ok(After::Next(q)) => {
                assert!(
                    !state.is_over(),
                    "{ctx}: {m} ends the play state's game only"
                );
                p = q;
            }
            Ok(After::Over { winner }) => {
                assert_eq!(state.first_out(), Some(winner), "{ctx}: {m}: winner");
                assert_eq!(winner, seat, "{ctx}: {m}: the winner is not the mover");
                assert!(state.hand(winner).is_empty(), "{ctx}: {m}: winner's hand");
                let result = state.result(landlord, 1, 1, &rules).unwrap();
                let side = if p.same_side(winner, landlord) {
                    Side::Landlord
                } else {
                    Side::Farmers
                };
                assert_eq!(result.winner, side, "{ctx}: {m}: winning side");
                let mut after = Vec::new();
                state.legal_moves_into(&rules, &mut after);
                assert!(after.is_empty(), "{ctx}: moves after the end");
                seen.moves += moves;
                seen.wins[usize::from(side == Side::Farmers)] += 1;
                return;
            }
            Err(e) => panic!("{ctx}: the solver refuses its own legal move {m}: {e}"),
        }
    }
}

#[test]
fn solver_transitions_follow_the_play_state() {
    let mut seen = Seen::default();
    for (i, profile) in Profile::ALL.into_iter().enumerate() {
        let mut r = rng(0x5017_57a7e ^ i as u64);
        for seed in 0..DEALS_PER_PROFILE {
            walk(profile, 1_000_000 * i as u64 + seed, &mut r, &mut seen);
        }
    }
    assert_eq!(
        seen.positions,
        Profile::ALL.len() * DEALS_PER_PROFILE as usize
    );
    eprintln!("{seen:?}");
    // Every case came up many times, and the walks are long.
    let Seen {
        positions,
        moves,
        following,
        leading,
        wins,
    } = seen;
    for n in [following[0], following[1], leading, wins[0], wins[1]] {
        assert!(n > positions / 20, "{seen:?}");
    }
    assert!(moves > 10 * positions, "{seen:?}");
}
