//! The part of a seat's turn a play policy reads ([`TurnView`]), borrowed from a view or a
//! play state.

use ddz_core::{Cards, Move, Rules};

use crate::seat::{BySeat, Seat};

/// What a robot's play policy reads of a seat's turn, borrowed and `Copy`: projected from a
/// [`crate::SeatView`] ([`crate::SeatView::turn_view`]) or, without building a view, from a
/// [`crate::PlayState`] ([`crate::PlayState::turn_view`]) in search playouts, which add their
/// own history when a policy reads it ([`TurnView::with_history`]). At a table of two or
/// four seats (`N`), from a [`crate::TableGame`] ([`crate::TableGame::turn_view`]).
#[derive(Clone, Copy, Debug)]
pub struct TurnView<'a, const N: usize = 3> {
    pub(crate) rules: &'a Rules,
    pub(crate) seat: Seat,
    pub(crate) hand: Cards,
    pub(crate) landlord: Option<Seat>,
    pub(crate) cards_left: BySeat<u32, N>,
    pub(crate) last: Option<(Seat, Move)>,
    pub(crate) played: BySeat<Cards, N>,
    pub(crate) history: &'a [(Seat, Move)],
    pub(crate) handicap: Option<(Seat, u32)>,
}

impl<'a, const N: usize> TurnView<'a, N> {
    /// The turn of `seat`, holding `hand`, to act against `last` (`None`: it leads), the
    /// seats holding `cards_left`, under `rules` with `landlord` the landlord; no history.
    /// For turns that exist only as a hypothesis (the search's inference asks what another
    /// seat would have done at a past turn with a sampled hand); a real turn is projected
    /// from its view or play state.
    pub fn hypothetical(
        rules: &'a Rules,
        seat: Seat,
        hand: Cards,
        landlord: Seat,
        cards_left: BySeat<u32, N>,
        last: Option<(Seat, Move)>,
    ) -> TurnView<'a, N> {
        TurnView {
            rules,
            seat,
            hand,
            landlord: Some(landlord),
            cards_left,
            last,
            played: BySeat::default(),
            history: &[],
            handicap: None,
        }
    }

    /// The same turn with the plays that led to it: every play so far, passes included, and
    /// each seat's plays.
    pub fn with_history(self, history: &'a [(Seat, Move)], played: BySeat<Cards, N>) -> Self {
        TurnView {
            history,
            played,
            ..self
        }
    }

    /// The rules in force, with the wild ranks revealed.
    pub const fn rules(&self) -> &'a Rules {
        self.rules
    }

    /// The seat to play.
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// Its cards.
    pub const fn hand(&self) -> Cards {
        self.hand
    }

    /// The landlord, once decided.
    pub const fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// Cards left in each hand.
    pub const fn cards_left(&self) -> BySeat<u32, N> {
        self.cards_left
    }

    /// The play to beat and who made it; `None` when the seat leads.
    pub const fn last(&self) -> Option<(Seat, Move)> {
        self.last
    }

    /// Cards each seat has played (none when the turn was projected without its history).
    pub const fn played(&self) -> BySeat<Cards, N> {
        self.played
    }

    /// The two-seat handicap (让牌) in force: the farmer and the cards it goes out at
    /// ([`crate::PlayStateOf::handicap`]); `None` at three and four seats.
    pub const fn handicap(&self) -> Option<(Seat, u32)> {
        self.handicap
    }

    /// Every play before the turn, passes included (empty when the turn was projected without
    /// its history).
    pub const fn history(&self) -> &'a [(Seat, Move)] {
        self.history
    }
}
