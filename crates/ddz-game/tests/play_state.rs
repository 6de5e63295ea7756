//! The rules of play live in one place ([`PlayState`], [`Trick`], [`PublicPlay`], [`Sitting`]).
//! These tests hold the single implementation against the copies it replaced, written out
//! again here as they were (the trick re-derived from passes in a row, the stake as a running
//! product, the trick shown to players counted from pairs of passes), on thousands of random
//! games per profile; and check the fast path, undo and forfeits against the checked path.

use ddz_core::{Bidding, Cards, Kind, Move, Profile, Rules, Scoring};
use ddz_game::{
    Action, BySeat, Game, Phase, PlayState, PublicPlay, Seat, Side, Sitting, SittingEvent, Trick,
    below, bomb_factor, rng,
};

const GAMES_PER_PROFILE: u64 = 2_000;

/// The trick as the protocol reader, the Botzone reader and the search playouts derived it
/// before: the play to beat, the passes in a row since it (two give the lead back), whose turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OldTrick {
    turn: Seat,
    last: Option<(Seat, Move)>,
    passes: u8,
    /// The running product of bomb factors (the old stake, uncapped).
    stake: u32,
}

impl OldTrick {
    fn step(&mut self, seat: Seat, m: Move, rules: &Rules) {
        assert_eq!(seat, self.turn);
        if m.is_pass() {
            self.passes += 1;
            if self.passes == 2 {
                self.last = None;
                self.passes = 0;
            }
        } else {
            self.last = Some((seat, m));
            self.passes = 0;
            self.stake = self.stake.saturating_mul(bomb_factor(&m, rules));
        }
        self.turn = seat.next();
    }
}

/// The trick shown to a player as the terminal table and the page counted it before: from
/// the play after the latest pair of passes; when that is the end of the history, the trick
/// before.
fn old_shown_start(history: &[(Seat, Move)]) -> usize {
    let (mut start, mut previous, mut passes) = (0, 0, 0);
    for (i, (_, m)) in history.iter().enumerate() {
        if m.is_pass() {
            passes += 1;
            if passes == 2 {
                previous = start;
                start = i + 1;
                passes = 0;
            }
        } else {
            passes = 0;
        }
    }
    if start == history.len() {
        previous
    } else {
        start
    }
}

/// Bids at random until the play phase (or a game over, which bidding never gives); under
/// `huanle` nobody shows and nobody doubles, so the stake is section 4's.
fn bid_randomly(game: &mut Game, r: &mut rand_chacha::ChaCha8Rng) {
    loop {
        match game.phase() {
            Phase::Bidding => {
                let bids = game.legal_bids();
                let bid = bids[below(r, bids.len() as u64) as usize];
                game.bid(game.turn(), bid).unwrap();
            }
            Phase::Dealing | Phase::LandlordShow => game.show(game.turn(), false).unwrap(),
            Phase::Doubling => game.double(game.turn(), 1).unwrap(),
            Phase::Playing | Phase::Over => return,
        }
    }
}

fn profiles() -> Vec<Rules> {
    Profile::ALL.iter().map(|&p| Rules::profile(p)).collect()
}

#[test]
fn play_state_equals_the_former_trick_copies_on_random_games() {
    for rules in profiles() {
        for seed in 0..GAMES_PER_PROFILE {
            let mut game = Game::new(&rules, seed);
            let mut r = rng(seed ^ 0x5EED);
            bid_randomly(&mut game, &mut r);
            let landlord = game.landlord().unwrap();
            let in_force = game.rules();
            let mut old = OldTrick {
                turn: landlord,
                last: None,
                passes: 0,
                stake: 1,
            };
            let mut public: PublicPlay = PublicPlay::new(landlord);
            let mut fast = *game.play_state();
            let mut history: Vec<(Seat, Move)> = Vec::new();
            let mut buf = Vec::new();
            while game.phase() == Phase::Playing {
                let state = *game.play_state();
                // The seat to act, the play to beat and the passes agree with the old copy.
                assert_eq!(state.turn(), old.turn, "{} seed {seed}", rules.profile);
                assert_eq!(state.last(), old.last);
                assert_eq!(state.trick().passes(), old.passes);
                assert_eq!(state.trick().leading(), old.last.is_none());
                // The moves the state generates are the game's.
                state.legal_moves_into(&in_force, &mut buf);
                let moves = game.legal_moves();
                assert_eq!(buf, moves);
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                let seat = game.turn();
                // The checked path refuses the pass when leading and moves out of turn.
                if state.trick().leading() {
                    assert!(game.clone().play(seat, Move::PASS).is_err());
                }
                let mut probe = state;
                assert!(probe.apply(seat.next(), m, &in_force).is_err());
                assert_eq!(probe, state);
                // Apply then undo restores the state exactly.
                let mut undone = state;
                let undo = undone.apply(seat, m, &in_force).unwrap();
                undone.undo(undo);
                assert_eq!(undone, state);
                game.play(seat, m).unwrap();
                fast.apply_legal(m, &in_force);
                old.step(seat, m, &in_force);
                public.push(seat, m, &in_force).unwrap();
                history.push((seat, m));
                // The fast path reaches the same state as the checked one.
                assert_eq!(fast, *game.play_state());
                // The public replay sees the same trick and stake as the hands-known state.
                assert_eq!(public.trick().last(), game.play_state().last());
                assert_eq!(public.bomb_multiplier(), old.stake);
                assert_eq!(game.play_state().bomb_multiplier(), old.stake);
                assert_eq!(Trick::shown_start(&history), old_shown_start(&history));
            }
            // Scoring through the play state gives the former formula.
            let result = game.result().unwrap();
            let bombs = history
                .iter()
                .filter(|(_, m)| m.kind() == Kind::Bomb)
                .count() as u32;
            assert_eq!(result.bombs, bombs);
            assert_eq!(
                result.rocket,
                history.iter().any(|(_, m)| m.kind() == Kind::Rocket)
            );
            if rules.scoring == Scoring::Standard && !result.spring && !result.anti_spring {
                let expected = game.multiplier();
                let capped = rules.multiplier_cap.map_or(expected, |c| expected.min(c));
                assert_eq!(result.multiplier, capped);
            }
        }
    }
}

#[test]
fn trick_at_reads_positions_like_the_playouts_did() {
    let rules = Rules::classic();
    let [a, b, c] = Seat::ALL;
    let three = ddz_core::parse_move("3", &rules, None).unwrap();
    // The seat before played: no pass yet.
    let t = Trick::at(b, Some((a, three)));
    assert_eq!((t.turn(), t.passes(), t.last()), (b, 0, Some((a, three))));
    // The seat two before played and the one between passed.
    let t = Trick::at(c, Some((a, three)));
    assert_eq!(t.passes(), 1);
    let mut after = t;
    after.advance(Move::PASS);
    assert_eq!((after.turn(), after.last()), (a, None));
    // A play of the seat to act itself: the others passed, it leads.
    assert!(Trick::at(a, Some((a, three))).leading());
}

#[test]
fn forfeits_lose_at_the_stake_reached() {
    for rules in profiles() {
        for seed in 0..200 {
            let mut game = Game::new(&rules, seed);
            let mut r = rng(seed);
            // A forfeit during bidding: the failing seat is a landlord losing at stake 1.
            if game.phase() == Phase::Bidding {
                let seat = game.turn();
                let result = game.forfeit_result(seat);
                assert_eq!(result.winner, Side::Farmers);
                assert_eq!(result.scores[seat], -2);
            }
            bid_randomly(&mut game, &mut r);
            let landlord = game.landlord().unwrap();
            for _ in 0..below(&mut r, 30) {
                if game.phase() != Phase::Playing {
                    break;
                }
                let moves = game.legal_moves();
                let m = moves[below(&mut r, moves.len() as u64) as usize];
                game.play(game.turn(), m).unwrap();
            }
            if game.phase() != Phase::Playing {
                continue;
            }
            let farmer = landlord.next();
            let result = game.forfeit_result(farmer);
            // The former arena formula: base × multiplier (bombs alone under ADP), capped.
            let multiplier = match rules.scoring {
                Scoring::DouzeroAdp => game
                    .history()
                    .fold(1u32, |m, (_, p)| m.saturating_mul(bomb_factor(&p, &rules))),
                Scoring::Standard => game.multiplier(),
            };
            let base = match rules.scoring {
                Scoring::DouzeroAdp => 1,
                Scoring::Standard => game.base(),
            };
            let multiplier = rules
                .multiplier_cap
                .map_or(multiplier, |c| multiplier.min(c));
            let stake = i64::from(base) * i64::from(multiplier);
            assert_eq!(result.winner, Side::Landlord);
            assert_eq!(result.scores[landlord], 2 * stake);
            assert_eq!(result.scores[farmer], -stake);
            assert_eq!(result.scores.0.iter().sum::<i64>(), 0);
        }
    }
}

#[test]
fn a_sitting_keeps_physical_cards_totals_and_events_in_step() {
    for profile in [Profile::Classic, Profile::Laizi, Profile::Tiandi] {
        let mut rules = Rules::profile(profile);
        if profile == Profile::Classic {
            rules.bidding = Bidding::CallRob;
        }
        let mut sitting = Sitting::new(&rules, 40);
        let mut totals = BySeat([0i64; 3]);
        let mut r = rng(9);
        for game_number in 1..=60u32 {
            assert_eq!(sitting.number(), game_number);
            assert_eq!(sitting.seed(), 40 + u64::from(game_number) - 1);
            while !sitting.is_over() {
                let game = sitting.game();
                let seat = game.turn();
                let action = match game.phase() {
                    Phase::Bidding => {
                        let bids = game.legal_bids();
                        Action::Bid(bids[below(&mut r, bids.len() as u64) as usize])
                    }
                    _ => {
                        let moves = game.legal_moves();
                        Action::Play(moves[below(&mut r, moves.len() as u64) as usize])
                    }
                };
                // A forfeit now and then, as a failing robot would.
                let events = if below(&mut r, 400) == 0 {
                    sitting.forfeit(seat, "test")
                } else {
                    sitting.act(seat, action, None).unwrap()
                };
                assert!(!events.is_empty());
                // Every seat's physical cards hold exactly its hand's ranks.
                for s in Seat::ALL {
                    assert_eq!(sitting.physical(s).to_cards(), sitting.game().hand(s));
                }
                // A play's physical cards are its cards.
                for e in &events {
                    if let SittingEvent::Play { play, cards, .. } = e {
                        assert_eq!(cards.to_cards(), play.cards());
                    }
                    if let SittingEvent::Over(result) = e {
                        for s in Seat::ALL {
                            totals[s] += result.scores[s];
                        }
                    }
                }
                // The history's physical cards are the plays' cards.
                for (i, (_, m)) in sitting.game().history().enumerate() {
                    assert_eq!(sitting.played_physical(i).to_cards(), m.cards());
                }
                let history: Vec<(Seat, Move)> = sitting.game().history().collect();
                assert_eq!(sitting.trick_start(), old_shown_start(&history));
            }
            assert_eq!(sitting.totals(), totals);
            assert_eq!(sitting.finished(), game_number);
            // A finished game refuses actions.
            let seat = sitting.game().turn();
            assert!(sitting.act(seat, Action::Play(Move::PASS), None).is_err());
            assert_eq!(
                sitting.next_game(),
                SittingEvent::Start {
                    game: game_number + 1,
                    first_bidder: sitting.game().first_bidder()
                }
            );
        }
        assert_eq!(totals.0.iter().sum::<i64>(), 0);
    }
}

#[test]
fn play_state_positions_start_without_history() {
    let hands: [Cards; 3] = [
        "34".parse().unwrap(),
        "5".parse().unwrap(),
        "".parse().unwrap(),
    ];
    let state = PlayState::new(hands, Seat::ALL[0]);
    // An empty hand: the game is over from the start.
    assert_eq!(state.first_out(), Some(Seat::ALL[2]));
    let mut buf = vec![Move::PASS];
    state.legal_moves_into(&Rules::classic(), &mut buf);
    assert!(buf.is_empty());
}
