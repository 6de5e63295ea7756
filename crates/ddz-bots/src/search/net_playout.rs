//! The network inside the playouts: the search's last rounds play whole playouts by the `net`
//! robot's network, every seat its best-scored play.
//!
//! Each playout seat reads the network as the `net` robot would from its own seat: its own
//! hand of the sample, the cards every seat has played (before the decision and in the
//! playout), every seat's count, the play to beat and the turns so far. A lead chooses among
//! the `ddzlib` ladder's first [`LEAD_CHOICES`] plays rather than every legal one (a lead may
//! have hundreds, each a pass through the network's layers), a follow among every legal play;
//! a turn costs a few microseconds to tens of them, against about one for `ddzlib` (a whole
//! playout about seven `ddzlib` ones at the median, BENCHMARKS.md).

use std::sync::Arc;

use ddz_core::{Cards, Move, Rules};
use ddz_game::{BySeat, PlayState, Seat};

use super::bidding::Seats;
use crate::net::features::Position;
use crate::net::{Net, Scorer};

/// Plays a playout's lead chooses from: the `ddzlib` ladder's first ones.
pub(super) const LEAD_CHOICES: usize = 16;

/// What a decision's playouts share: the landlord, the cards played before
/// the decision, and the turns so far.
pub(super) struct Root<'a> {
    /// The landlord.
    pub(super) landlord: Seat,
    /// The cards each seat had played when the decision was made.
    pub(super) played: BySeat<Cards>,
    /// Every turn before the decision, passes included.
    pub(super) history: &'a [(Seat, Move)],
}

/// One thread's network player: its scorer and buffers.
pub(super) struct NetPlayer {
    scorer: Scorer,
    /// The turns of the playout being played: the decision's history, then the playout's.
    history: Vec<(Seat, Move)>,
    moves: Vec<Move>,
}

impl NetPlayer {
    /// A player reading `net`.
    pub(super) fn new(net: Arc<Net>) -> NetPlayer {
        NetPlayer {
            scorer: Scorer::new(net),
            history: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Readies a playout of `root` whose first turns (the candidate, and a reply searched
    /// below it) were `moves`.
    pub(super) fn start(&mut self, root: &Root, moves: &[(Seat, Move)]) {
        self.history.clear();
        self.history.extend_from_slice(root.history);
        self.history.extend_from_slice(moves);
    }

    /// The position of the seat to act in `state`, the playout having started from `dealt`.
    fn position<'a>(
        history: &'a [(Seat, Move)],
        state: &PlayState,
        root: &Root,
        dealt: &BySeat<Cards>,
        rules: &Rules,
    ) -> Position<'a> {
        let seat = state.turn();
        Position {
            seat,
            landlord: root.landlord,
            hand: state.hand(seat),
            cards_left: state.cards_left(),
            played: BySeat::from_fn(|s| root.played[s].union(dealt[s].minus(state.hand(s)))),
            history,
            last: state.trick().last(),
            laizi: rules.laizi,
        }
    }

    /// Plays `state` to the end by the network, each seat taking its best-scored play (a
    /// forced one without scoring) among the `ddzlib` ladder's first [`LEAD_CHOICES`] when it
    /// leads (`seats` holds the ladders), among every legal play when it follows. `dealt` is
    /// every hand when the playout started.
    pub(super) fn play(
        &mut self,
        state: &mut PlayState,
        root: &Root,
        dealt: &BySeat<Cards>,
        rules: &Rules,
        seats: &mut Seats,
    ) {
        while !state.is_over() {
            let seat = state.turn();
            if state.trick().leading() {
                let turn = state.turn_view(rules, root.landlord);
                let Seats { bots, buf } = seats;
                let options = bots[seat.index()].options(&turn, buf, LEAD_CHOICES);
                self.moves.clear();
                self.moves.extend_from_slice(options);
            } else {
                state.legal_moves_into(rules, &mut self.moves);
            }
            let play = match crate::obvious_play(state.hand(seat), &self.moves) {
                Some(play) => play,
                None => {
                    let pos = Self::position(&self.history, state, root, dealt, rules);
                    let (best, _) = self.scorer.best(&pos, rules, &self.moves);
                    self.moves[best]
                }
            };
            state.apply_legal(play, rules);
            self.history.push((seat, play));
        }
    }
}
