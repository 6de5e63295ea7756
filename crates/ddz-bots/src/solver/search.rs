//! The AND/OR search: move generation and ordering, the table key, the search itself and the
//! principal line.

use core::ops::ControlFlow;

use ddz_core::{Cards, Kind, Move, Rank, for_each_legal_move};
use ddz_game::Seat;

use super::position::{OpenPosition, State, same_side, seat};
use super::{Outcome, Solver};

impl Solver {
    pub(super) fn solve_inner(&mut self, position: &OpenPosition) -> Result<Outcome, Stop> {
        let root = State::of(position);
        let moves = position.legal_moves(&self.rules);
        // Search the first moves in the search's order, report them in generation order.
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let hand = root.hands[root.turn as usize];
        order.sort_by_key(|&i| order_key(&moves[i], hand));
        let mut wins = vec![false; moves.len()];
        for &i in &order {
            wins[i] = self.move_value(&root, &moves[i])?;
        }
        let winning_moves: Vec<Move> = moves
            .iter()
            .zip(&wins)
            .filter(|(_, w)| **w)
            .map(|(m, _)| *m)
            .collect();
        let line = self.principal_line(root)?;
        Ok(Outcome {
            to_move_wins: !winning_moves.is_empty(),
            winning_moves,
            line,
            nodes: self.nodes,
        })
    }

    /// The principal line from `state`: the winner's first winning move at each of its turns,
    /// the loser's first move in the search order.
    fn principal_line(&mut self, mut state: State) -> Result<Vec<(Seat, Move)>, Stop> {
        let mut line = Vec::new();
        let mut moves = Vec::new();
        loop {
            let mover_wins = self.search(&state)?;
            let hand = state.hands[state.turn as usize];
            ddz_core::legal_moves_into(hand, Some(&state.last), &self.rules, &mut moves);
            moves.sort_by_key(|m| order_key(m, hand));
            let Some(&first) = moves.first() else {
                return Ok(line);
            };
            let mut chosen = first;
            if mover_wins {
                for m in &moves {
                    if self.move_value(&state, m)? {
                        chosen = *m;
                        break;
                    }
                }
            }
            line.push((seat(state.turn), chosen));
            if chosen.cards() == hand {
                return Ok(line);
            }
            state = state.child(&chosen, self.seats);
        }
    }

    pub(super) fn start(&mut self, position: &OpenPosition) {
        self.nodes = 0;
        self.seats = position.seats;
        self.landlord = position.landlord;
        self.moves.clear();
    }

    /// Does move `m` (legal in `st`) win for the side to move?
    pub(super) fn move_value(&mut self, st: &State, m: &Move) -> Result<bool, Stop> {
        if m.cards() == st.hands[st.turn as usize] {
            return Ok(true);
        }
        let child = st.child(m, self.seats);
        let v = self.search(&child)?;
        Ok(
            if same_side(self.seats, self.landlord, child.turn, st.turn) {
                v
            } else {
                !v
            },
        )
    }

    /// The table key of a state: the three hands, and the rest packed in one word.
    #[inline]
    fn key(&self, st: &State) -> [u64; 4] {
        let mut word = 0u64;
        let last = &st.last;
        if !last.is_pass() {
            let kind = last.kind();
            let main = if self.douzero && kind == Kind::AirplaneSingles {
                // DouZero compares airplanes with singles by their top trio.
                last.cards().top_trio().unwrap_or(Rank::Three)
            } else {
                last.main()
            };
            let class = last.class().map_or(0, |c| c as u64 + 1);
            word = kind as u64
                | (main as u64) << 8
                | (last.length() as u64) << 16
                | class << 24
                | (last.card_count() as u64) << 32;
        }
        word |= (st.turn as u64) << 40
            | (st.passes as u64) << 42
            | (self.landlord as u64) << 44
            | ((self.seats == 3) as u64) << 46;
        [
            st.hands[0].bits(),
            st.hands[1].bits(),
            st.hands[2].bits(),
            word,
        ]
    }

    /// Does the side to move win from `st`?
    pub(super) fn search(&mut self, st: &State) -> Result<bool, Stop> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Stop);
        }
        let key = self.key(st);
        if let Some(v) = self.table.probe(&key) {
            return Ok(v);
        }
        let before = self.nodes;
        let start = self.moves.len();
        let out = if self.generate(st) {
            true
        } else {
            let result = self.search_moves(st, start);
            if result.is_err() {
                self.moves.truncate(start);
            }
            result?
        };
        self.moves.truncate(start);
        self.table.store(&key, out, self.nodes - before + 1);
        Ok(out)
    }

    /// Pushes the moves of the seat to move in `st`, ordered, onto the move stack; true
    /// instead (with nothing pushed) if one of them empties the hand.
    fn generate(&mut self, st: &State) -> bool {
        let hand = st.hands[st.turn as usize];
        let start = self.moves.len();
        let Solver { rules, moves, .. } = self;
        let found = for_each_legal_move(hand, Some(&st.last), rules, |m| {
            if m.cards() == hand {
                return ControlFlow::Break(());
            }
            moves.push((order_key(&m, hand), m));
            ControlFlow::Continue(())
        });
        if found.is_break() {
            moves.truncate(start);
            return true;
        }
        moves[start..].sort_unstable_by_key(|(k, _)| *k);
        false
    }

    /// Searches the moves `self.moves[start..]` of `st` in order: does one win?
    fn search_moves(&mut self, st: &State, start: usize) -> Result<bool, Stop> {
        let end = self.moves.len();
        // A child already proven won ends the node before any search.
        for i in start..end {
            let m = self.moves[i].1;
            let child = st.child(&m, self.seats);
            if let Some(v) = self.table.probe(&self.key(&child))
                && v == same_side(self.seats, self.landlord, child.turn, st.turn)
            {
                return Ok(true);
            }
        }
        for i in start..end {
            let m = self.moves[i].1;
            let child = st.child(&m, self.seats);
            let v = self.search(&child)?;
            if v == same_side(self.seats, self.landlord, child.turn, st.turn) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The budget ran out (inside the search).
#[derive(Debug)]
pub(super) struct Stop;

/// The search order of a move of `hand` (lower first): the pass last; then by the plays the
/// rest of the hand would need ([`plays_estimate`]), fewer first; bombs and the rocket after
/// the other moves; more cards first; then the lower main rank.
#[inline]
fn order_key(m: &Move, hand: Cards) -> u64 {
    if m.is_pass() {
        return u64::MAX;
    }
    let rest = plays_estimate(hand.minus(m.cards())) as u64;
    let bomb = m.kind().is_bomb_like() as u64;
    rest << 44 | bomb << 40 | (32 - m.card_count() as u64) << 12 | m.main() as u64
}

/// A quick estimate of the plays needed to empty `hand`, for the move order only: one per
/// rank held, less one per trio that can carry a single or a pair, less one for the rocket.
#[inline]
fn plays_estimate(hand: Cards) -> u32 {
    let ranks = hand.rank_mask();
    let at3 = hand.mask_at_least(3);
    let at4 = hand.mask_at_least(4);
    let trios = (at3 & !at4).count_ones();
    let small = (ranks & !at3).count_ones();
    let rocket = (ranks & 0x6000 == 0x6000) as u32;
    ranks.count_ones() - trios.min(small) - rocket
}
