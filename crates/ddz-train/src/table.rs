//! A game's play phase as the actors and the evaluation drive it: the play state and what the
//! features read (every play so far, each seat's played cards).

use ddz_bots::net::features::Position;
use ddz_core::{Cards, Move, Rules};
use ddz_game::{BySeat, Deal, PlayState, Seat};

/// A deal being played with seat 0 the landlord (the kitty in its hand), no bidding.
#[derive(Clone)]
pub struct Table {
    /// The rules with the deal's wild ranks.
    pub rules: Rules,
    /// The play state.
    pub state: PlayState,
    history: Vec<(Seat, Move)>,
    played: BySeat<Cards>,
}

/// The landlord of every table.
pub const LANDLORD: Seat = Seat::ALL[0];

impl Table {
    /// The start of play of `deal` under `rules`.
    pub fn start(deal: &Deal, rules: &Rules) -> Table {
        let rules = ddz_game::perft::deal_rules(deal, rules).unwrap_or_else(|_| rules.clone());
        let [_, down, up] = Seat::ALL;
        let state = PlayState::new(
            [
                deal.landlord_cards().to_cards(),
                deal.hands[down].to_cards(),
                deal.hands[up].to_cards(),
            ],
            LANDLORD,
        );
        Table {
            rules,
            state,
            history: Vec::with_capacity(64),
            played: BySeat::default(),
        }
    }

    /// The position of the seat to act, as the network reads it.
    pub fn position(&self) -> Position<'_> {
        let seat = self.state.turn();
        Position {
            seat,
            landlord: LANDLORD,
            hand: self.state.hand(seat),
            cards_left: self.state.cards_left(),
            played: self.played,
            history: &self.history,
            last: self.state.last(),
            laizi: self.rules.laizi,
        }
    }

    /// Applies `play`, a legal move of the seat to act.
    pub fn apply(&mut self, play: Move) {
        let seat = self.state.turn();
        self.state.apply_legal(play, &self.rules);
        self.history.push((seat, play));
        self.played[seat] = self.played[seat].union(play.cards());
    }

    /// Whether the landlord has won (once the game is over).
    pub fn landlord_won(&self) -> bool {
        self.state.first_out() == Some(LANDLORD)
    }
}
