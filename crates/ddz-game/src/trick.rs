//! The trick: whose turn it is, the play to beat and the passes since it, the part of the
//! rules of play every reader of a game needs, hands known or not.

use ddz_core::{Move, Rules};

use crate::error::ActionError;
use crate::seat::Seat;

/// The trick in progress at the three-seat table ([`TrickOf`] of 3 seats).
pub type Trick = TrickOf<3>;

/// The trick in progress at an `N`-seat table: the seat to act, the play to beat and who made
/// it, and the passes since that play. `N - 1` passes in a row (two at the classic table)
/// give the lead back to the seat that made the play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrickOf<const N: usize> {
    turn: Seat,
    last: Option<(Seat, Move)>,
    passes: u8,
}

impl<const N: usize> TrickOf<N> {
    /// A new trick led by `leader`.
    pub const fn lead(leader: Seat) -> TrickOf<N> {
        TrickOf {
            turn: leader,
            last: None,
            passes: 0,
        }
    }

    /// A trick in progress: `turn` is to act against `last` (a play and who made it; `None`
    /// when `turn` leads). The passes since `last` follow from the seats: one for each seat
    /// between the one that made `last` and `turn` (at the classic table none when `last` was
    /// made by the seat before `turn`, one otherwise); a `last` made by `turn` itself means
    /// the others passed, so `turn` leads.
    pub fn at(turn: Seat, last: Option<(Seat, Move)>) -> TrickOf<N> {
        match last {
            Some((by, m)) if by != turn && !m.is_pass() => TrickOf {
                turn,
                last,
                passes: (turn.after::<N>(by) - 1) as u8,
            },
            _ => TrickOf::lead(turn),
        }
    }

    /// The seat to act.
    pub const fn turn(&self) -> Seat {
        self.turn
    }

    /// The play to beat and the seat that made it; `None` when the seat to act leads.
    pub const fn last(&self) -> Option<(Seat, Move)> {
        self.last
    }

    /// The play to beat, if any.
    pub fn to_beat(&self) -> Option<&Move> {
        self.last.as_ref().map(|(_, m)| m)
    }

    /// Passes since the play to beat (0 to `N - 2`).
    pub const fn passes(&self) -> u8 {
        self.passes
    }

    /// True when the seat to act leads (nothing to beat).
    pub const fn leading(&self) -> bool {
        self.last.is_none()
    }

    /// Checks what the trick alone decides about `play` by `seat`: its turn, no pass when
    /// leading, and a play that beats the play to beat. Whether the cards are in the seat's
    /// hand and whether the reading is one its cards have are the caller's (see
    /// [`crate::PlayState::apply`]).
    pub fn check(&self, seat: Seat, play: &Move, rules: &Rules) -> Result<(), ActionError> {
        if seat != self.turn {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.turn,
            });
        }
        match self.last {
            None if play.is_pass() => Err(ActionError::PassWhenLeading),
            Some((by, last)) if !play.is_pass() && !play.beats(&last, rules) => {
                Err(ActionError::DoesNotBeat {
                    play: *play,
                    last,
                    by,
                })
            }
            _ => Ok(()),
        }
    }

    /// The trick after the seat to act makes `play` (not checked): a pass counts towards the
    /// `N - 1` that end the trick, a play becomes the play to beat; the turn moves on.
    pub fn advance(&mut self, play: Move) {
        if play.is_pass() {
            self.passes += 1;
            if self.passes as usize == N - 1 {
                self.last = None;
                self.passes = 0;
            }
        } else {
            self.last = Some((self.turn, play));
            self.passes = 0;
        }
        self.turn = self.turn.next_of::<N>();
    }

    /// The seat to act goes out with `play` (the last of its cards): the play stays the one
    /// on the table and the turn stays with the seat, the game being over.
    pub(crate) fn go_out(&mut self, play: Move) {
        self.last = Some((self.turn, play));
        self.passes = 0;
    }

    /// Where the trick shown to a player starts in `history` (every play of the play phase,
    /// passes included, from the landlord's lead): the plays of the trick in progress, or,
    /// when a trick has just ended (the seat to act leads), the plays of that trick.
    pub fn shown_start(history: &[(Seat, Move)]) -> usize {
        let mut start = 0;
        let mut previous_start = 0;
        let mut trick = TrickOf::<N>::lead(history.first().map_or(Seat::ALL[0], |(s, _)| *s));
        for (i, &(_, m)) in history.iter().enumerate() {
            let before = trick.last;
            trick.advance(m);
            if m.is_pass() && before.is_some() && trick.last.is_none() {
                previous_start = start;
                start = i + 1;
            }
        }
        if start == history.len() {
            previous_start
        } else {
            start
        }
    }
}
