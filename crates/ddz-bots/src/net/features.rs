//! What the `net` robot's network reads: one seat's view of a play-phase position and one
//! candidate move, as binary features. A feature vector is the list of its active indices
//! (every value is 0 or 1), so the network's first layer is a sum of weight rows.
//!
//! The state ([`STATE_LEN`] values, seats taken by role so that any landlord seat reads the
//! same): the seat's hand, the cards it cannot see (the other two hands together), the cards
//! each role has played, the seat's role, the play to beat and who made it, the previous two
//! turns (each a play or a pass), the cards each role holds, the bombs played so far and the
//! wild rank. A card multiset is 54 values: for each rank 3..2 four, the first `count` set (a
//! thermometer), then one for each joker.
//!
//! The action ([`ACTION_LEN`] values, after the state's): the move's cards and the ranks they
//! are read as (different only with wild cards), whether it is the pass, its kind, the cards
//! left after it, and the hand count (手数, [`crate::ddzlib::hand_count`]) of what is left.

use ddz_core::{Cards, Kind, Move, Rank, RankSet, Rules};
use ddz_game::{BySeat, Seat, SeatView};

use crate::ddzlib;

/// The name of this feature layout; a weights file names the layout it was trained on.
pub const LAYOUT: &str = "ddz-net-features/1";

/// Values of one card multiset.
const CARDS: usize = 54;
/// Values of a count of cards held, one-hot over 0..=20.
const HELD: usize = 21;
/// Values of the bombs played, one-hot over 0, 1, 2, 3, 4 or more.
const BOMBS: usize = 5;
/// Values of a hand count, one-hot over 0..=9 and 10 or more.
const HAND_COUNT: usize = 11;

const HAND: usize = 0;
const UNSEEN: usize = HAND + CARDS;
const PLAYED: usize = UNSEEN + CARDS;
const ROLE: usize = PLAYED + 3 * CARDS;
const TO_BEAT: usize = ROLE + 3;
const TO_BEAT_BY: usize = TO_BEAT + CARDS;
const PREVIOUS: usize = TO_BEAT_BY + 3;
const LEFT: usize = PREVIOUS + 2 * (CARDS + 1);
const BOMBS_PLAYED: usize = LEFT + 3 * HELD;
const WILD: usize = BOMBS_PLAYED + BOMBS;

/// Number of state values.
pub const STATE_LEN: usize = WILD + 13;

const MOVE_CARDS: usize = STATE_LEN;
const MOVE_READING: usize = MOVE_CARDS + CARDS;
const MOVE_PASS: usize = MOVE_READING + CARDS;
const MOVE_KIND: usize = MOVE_PASS + 1;
const MOVE_LEFT: usize = MOVE_KIND + ONE_DECK_KINDS;
/// The kinds of one deck, the network's one-hot (the three-seat table; the two-deck four
/// jokers come after them and are never encoded).
const ONE_DECK_KINDS: usize = Kind::FourJokers as usize;
const MOVE_HAND_COUNT: usize = MOVE_LEFT + HELD;

/// Number of action values.
pub const ACTION_LEN: usize = MOVE_HAND_COUNT + HAND_COUNT - STATE_LEN;

/// Number of values the network reads: the state's, then the action's.
pub const INPUT_LEN: usize = STATE_LEN + ACTION_LEN;

/// A play-phase position as one seat sees it: what the features are made of.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The seat to play.
    pub seat: Seat,
    /// The landlord.
    pub landlord: Seat,
    /// The seat's cards.
    pub hand: Cards,
    /// Cards left in each hand.
    pub cards_left: BySeat<u32>,
    /// Cards each seat has played.
    pub played: BySeat<Cards>,
    /// Every play so far, passes included, in order.
    pub history: &'a [(Seat, Move)],
    /// The play to beat and who made it; `None` when the seat leads.
    pub last: Option<(Seat, Move)>,
    /// The wild ranks in force.
    pub laizi: RankSet,
}

impl<'a> Position<'a> {
    /// The position of a seat's view in the play phase; `None` before the landlord is known.
    pub fn of_view(view: &'a SeatView) -> Option<Position<'a>> {
        Some(Position {
            seat: view.seat(),
            landlord: view.landlord()?,
            hand: view.hand(),
            cards_left: view.cards_left(),
            played: view.played(),
            history: view.history(),
            last: view.last(),
            laizi: view.laizi(),
        })
    }
}

/// Sets the thermometer of `cards` at `offset` in `out`.
fn push_cards(cards: Cards, offset: usize, out: &mut Vec<u16>) {
    let counts = cards.counts();
    for (rank, &count) in counts.iter().take(13).enumerate() {
        for k in 0..usize::from(count.min(4)) {
            out.push((offset + 4 * rank + k) as u16);
        }
    }
    if counts[Rank::SmallJoker.index()] > 0 {
        out.push((offset + 52) as u16);
    }
    if counts[Rank::BigJoker.index()] > 0 {
        out.push((offset + 53) as u16);
    }
}

/// The role index of `seat`: 0 landlord, 1 the farmer after it, 2 the farmer before it.
fn role_index(seat: Seat, landlord: Seat) -> usize {
    seat.after::<3>(landlord)
}

/// Appends the active state values of `pos` to `out`.
pub fn state_features(pos: &Position, out: &mut Vec<u16>) {
    let seats_by_role = [pos.landlord, pos.landlord.next(), pos.landlord.prev()];
    push_cards(pos.hand, HAND, out);
    let seen = Seat::ALL
        .into_iter()
        .fold(pos.hand, |seen, s| seen.union(pos.played[s]));
    push_cards(Cards::FULL_DECK.saturating_minus(seen), UNSEEN, out);
    for (k, &s) in seats_by_role.iter().enumerate() {
        push_cards(pos.played[s], PLAYED + k * CARDS, out);
    }
    out.push((ROLE + role_index(pos.seat, pos.landlord)) as u16);
    match pos.last {
        None => out.push(TO_BEAT_BY as u16),
        Some((by, play)) => {
            push_cards(play.cards(), TO_BEAT, out);
            let relative = if by == pos.seat.next() { 1 } else { 2 };
            out.push((TO_BEAT_BY + relative) as u16);
        }
    }
    // The previous turn (the seat before this one), then the one before it.
    for (k, (_, play)) in pos.history.iter().rev().take(2).enumerate() {
        let offset = PREVIOUS + k * (CARDS + 1);
        if play.is_pass() {
            out.push((offset + CARDS) as u16);
        } else {
            push_cards(play.cards(), offset, out);
        }
    }
    for (k, &s) in seats_by_role.iter().enumerate() {
        let held = (pos.cards_left[s] as usize).min(HELD - 1);
        out.push((LEFT + k * HELD + held) as u16);
    }
    let bombs = pos
        .history
        .iter()
        .filter(|(_, m)| matches!(m.kind(), Kind::Bomb | Kind::Rocket))
        .count();
    out.push((BOMBS_PLAYED + bombs.min(BOMBS - 1)) as u16);
    for rank in pos.laizi.iter() {
        if rank.index() < 13 {
            out.push((WILD + rank.index()) as u16);
        }
    }
}

/// Appends the active action values of `play` for the seat of `pos` to `out` (indices from
/// [`STATE_LEN`] on). `rules` must hold the wild ranks in force.
pub fn action_features(pos: &Position, play: &Move, rules: &Rules, out: &mut Vec<u16>) {
    push_cards(play.cards(), MOVE_CARDS, out);
    push_cards(play.reading(), MOVE_READING, out);
    if play.is_pass() {
        out.push(MOVE_PASS as u16);
    }
    out.push((MOVE_KIND + play.kind() as usize) as u16);
    let rest = pos.hand.saturating_minus(play.cards());
    out.push((MOVE_LEFT + (rest.len() as usize).min(HELD - 1)) as u16);
    let count = if rest.is_empty() {
        0
    } else {
        ddzlib::hand_count(rest, rules)
    };
    out.push((MOVE_HAND_COUNT + count.min(HAND_COUNT - 1)) as u16);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_core::legal_moves;

    #[test]
    fn lengths_and_ranges() {
        assert_eq!(STATE_LEN, 521);
        assert_eq!(ACTION_LEN, 54 + 54 + 1 + ONE_DECK_KINDS + 21 + 11);
        let rules = Rules::classic();
        let hand: Cards = "33344455JJQKAA22X".parse().unwrap();
        let [s0, s1, s2] = Seat::ALL;
        let history = [(s0, legal_moves(hand, None, &rules)[0]), (s1, Move::PASS)];
        let pos = Position {
            seat: s2,
            landlord: s0,
            hand,
            cards_left: BySeat([19, 17, 17]),
            played: BySeat([history[0].1.cards(), Cards::EMPTY, Cards::EMPTY]),
            history: &history,
            last: Some(history[0]),
            laizi: RankSet::EMPTY,
        };
        let mut state = Vec::new();
        state_features(&pos, &mut state);
        assert!(state.iter().all(|&i| usize::from(i) < STATE_LEN));
        // Hand (17) + unseen (54 - 17 - 1) + played (1) + role + to beat (1) + by + previous
        // two (pass flag, 1 card) + three counts + bombs.
        assert_eq!(state.len(), 17 + 36 + 1 + 1 + 1 + 1 + 1 + 1 + 3 + 1);
        for play in legal_moves(hand, Some(&history[0].1), &rules) {
            let mut action = Vec::new();
            action_features(&pos, &play, &rules, &mut action);
            assert!(
                action
                    .iter()
                    .all(|&i| (STATE_LEN..INPUT_LEN).contains(&usize::from(i)))
            );
            let mut sorted = action.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), action.len(), "{play:?}: an index set twice");
        }
    }
}
