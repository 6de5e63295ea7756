//! The solver's position ([`OpenPosition`]): every hand known, checked when built.

use core::fmt;

use ddz_core::{Cards, Move, Rank, Rules, is_legal};
use ddz_game::{Game, Phase, Seat};

/// What is wrong with a position: the error of [`OpenPosition::three`], [`OpenPosition::duel`],
/// [`OpenPosition::from_game`] and [`OpenPosition::after`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// A seat given is not a seat of the position (a duel has seats 0 and 1 only).
    NoSuchSeat {
        /// What the seat was given for: `turn`, `last play` or `landlord`.
        what: &'static str,
        /// The seat.
        seat: Seat,
    },
    /// A hand holds no cards: the game is already over.
    EmptyHand {
        /// The seat with no cards.
        seat: Seat,
    },
    /// The hands and the table's play together hold more cards of a rank than one deck.
    TooManyCards {
        /// The rank.
        rank: Rank,
        /// How many cards of it the hands and the table's play hold.
        count: u8,
    },
    /// The table's play is a pass: give the last play that is not a pass, or none.
    LastIsPass,
    /// The table's play is not a combination (a reading its cards have) under the rules.
    NotACombination {
        /// The play.
        play: Move,
    },
    /// The table's play was made by the seat to move: that seat would lead a new trick
    /// instead (give no last play).
    LastBySeatToMove {
        /// The seat.
        seat: Seat,
    },
    /// The game is not in its play phase (bidding, or over).
    NotPlaying,
    /// [`OpenPosition::after`]: the move is not legal for the seat to move.
    IllegalMove {
        /// The move.
        play: Move,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NoSuchSeat { what, seat } => {
                write!(
                    f,
                    "{what}: seat {seat} is not a seat here (a duel has seats 0 and 1)"
                )
            }
            PositionError::EmptyHand { seat } => {
                write!(f, "seat {seat} holds no cards: the game is already over")
            }
            PositionError::TooManyCards { rank, count } => write!(
                f,
                "the hands and the last play hold {count} cards of {rank}; one deck has {}",
                rank.deck_count()
            ),
            PositionError::LastIsPass => {
                f.write_str("the last play is a pass: give the last play that is not a pass")
            }
            PositionError::NotACombination { play } => {
                write!(
                    f,
                    "the last play {play} is not a combination under these rules"
                )
            }
            PositionError::LastBySeatToMove { seat } => write!(
                f,
                "the last play was made by seat {seat}, the seat to move: it would lead instead"
            ),
            PositionError::NotPlaying => f.write_str("the game is not in its play phase"),
            PositionError::IllegalMove { play } => {
                write!(f, "{play} is not a legal move for the seat to move")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// An open-hand position: every hand, the teams, the seat to move and the play on the table.
///
/// Built by [`OpenPosition::three`], [`OpenPosition::duel`] or [`OpenPosition::from_game`], which check
/// it (see [`PositionError`]); an `OpenPosition` is always playable: every hand holds cards and
/// the table's play can be beaten or passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpenPosition {
    /// The hands by seat index (seat 2 empty in a duel).
    pub(super) hands: [Cards; 3],
    /// 2 (a duel) or 3.
    pub(super) seats: u8,
    /// The landlord's seat index (three seats only; 0 in a duel, unused).
    pub(super) landlord: u8,
    /// The seat to move.
    pub(super) turn: u8,
    /// The table's play and who made it.
    pub(super) last: Option<(u8, Move)>,
}

/// What a move leads to: the next position, or the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The game goes on.
    Next(OpenPosition),
    /// The seat that moved emptied its hand: its side wins.
    Over {
        /// The seat that went out.
        winner: Seat,
    },
}

impl OpenPosition {
    /// A three-seat position: `hands` by seat, the `landlord`'s seat, the seat to move and
    /// the table's play with the seat that made it (`None` when `turn` leads). The passes
    /// since the table's play follow from the seats: none when it was made by the seat just
    /// before `turn`, one when by the seat after `turn`.
    ///
    /// Checks that every hand holds cards, that the hands and the table's play fit in one
    /// deck, and that the table's play is a combination under `rules` made by another seat.
    pub fn three(
        hands: [Cards; 3],
        landlord: Seat,
        turn: Seat,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<OpenPosition, PositionError> {
        OpenPosition::build(hands, 3, landlord.index() as u8, turn, last, rules)
    }

    /// A duel (two seats, seats 0 and 1): `hands` by seat, the seat to move, and the table's
    /// play with the seat that made it (the other seat; `None` when `turn` leads). One pass
    /// ends a trick.
    ///
    /// Checks as [`OpenPosition::three`] does, and that every seat given is 0 or 1.
    pub fn duel(
        hands: [Cards; 2],
        turn: Seat,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<OpenPosition, PositionError> {
        let hands = [hands[0], hands[1], Cards::EMPTY];
        OpenPosition::build(hands, 2, 0, turn, last, rules)
    }

    /// The position of a game in its play phase (three seats, the game's landlord, hands, seat
    /// to move and play to beat). Check it under the game's rules ([`Game::rules`]).
    pub fn from_game(game: &Game) -> Result<OpenPosition, PositionError> {
        let (Phase::Playing, Some(landlord)) = (game.phase(), game.landlord()) else {
            return Err(PositionError::NotPlaying);
        };
        let hands = Seat::ALL.map(|s| game.hand(s));
        OpenPosition::three(hands, landlord, game.turn(), game.last(), &game.rules())
    }

    fn build(
        hands: [Cards; 3],
        seats: u8,
        landlord: u8,
        turn: Seat,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<OpenPosition, PositionError> {
        let seat_ok = |s: Seat| s.index() < seats as usize;
        if !seat_ok(turn) {
            return Err(PositionError::NoSuchSeat {
                what: "turn",
                seat: turn,
            });
        }
        if let Some((seat, _)) = last
            && !seat_ok(seat)
        {
            return Err(PositionError::NoSuchSeat {
                what: "last play",
                seat,
            });
        }
        for seat in &Seat::ALL[..seats as usize] {
            if hands[seat.index()].is_empty() {
                return Err(PositionError::EmptyHand { seat: *seat });
            }
        }
        // Count in plain integers: packed counts would wrap past 15.
        let mut counts = [0u8; 15];
        let table = last.map_or(Cards::EMPTY, |(_, m)| m.cards());
        for c in hands.iter().chain([&table]) {
            for (total, n) in counts.iter_mut().zip(c.counts()) {
                *total = total.saturating_add(n);
            }
        }
        for rank in Rank::ALL {
            let count = counts[rank.index()];
            if count > rank.deck_count() {
                return Err(PositionError::TooManyCards { rank, count });
            }
        }
        if let Some((seat, play)) = last {
            if play.is_pass() {
                return Err(PositionError::LastIsPass);
            }
            if !is_legal(play.cards(), None, &play, rules) {
                return Err(PositionError::NotACombination { play });
            }
            if seat == turn {
                return Err(PositionError::LastBySeatToMove { seat });
            }
        }
        Ok(OpenPosition {
            hands,
            seats,
            landlord,
            turn: turn.index() as u8,
            last: last.map(|(s, m)| (s.index() as u8, m)),
        })
    }

    /// True for a duel (two seats), false for three seats.
    pub fn is_duel(&self) -> bool {
        self.seats == 2
    }

    /// The seats in play: 0 and 1 in a duel, 0, 1 and 2 otherwise.
    pub fn seats(&self) -> &'static [Seat] {
        &Seat::ALL[..self.seats as usize]
    }

    /// The hand of `seat` (empty for seat 2 of a duel).
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands[seat.index()]
    }

    /// The landlord's seat; `None` in a duel.
    pub fn landlord(&self) -> Option<Seat> {
        (self.seats == 3).then(|| seat(self.landlord))
    }

    /// The seat to move.
    pub fn turn(&self) -> Seat {
        seat(self.turn)
    }

    /// The play to beat and the seat that made it; `None` when the seat to move leads.
    pub fn last(&self) -> Option<(Seat, Move)> {
        self.last.map(|(s, m)| (seat(s), m))
    }

    /// Passes since the table's play (0 in a duel, 0 or 1 with three seats).
    pub fn passes(&self) -> u8 {
        match self.last {
            None => 0,
            Some((s, _)) => (self.turn + self.seats - s - 1) % self.seats,
        }
    }

    /// True if `a` and `b` play on the same side (the same seat in a duel; both farmers, or
    /// both the landlord, with three seats).
    pub fn same_side(&self, a: Seat, b: Seat) -> bool {
        same_side(self.seats, self.landlord, a.index() as u8, b.index() as u8)
    }

    /// The legal moves of the seat to move, in [`for_each_legal_move`]'s order (the pass last
    /// when following).
    ///
    /// [`for_each_legal_move`]: ddz_core::for_each_legal_move
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        ddz_core::legal_moves(
            self.hands[self.turn as usize],
            self.last.map(|(_, m)| m).as_ref(),
            rules,
        )
    }

    /// The position after the seat to move plays `play` (a pass included), or the end of the
    /// game if it empties its hand; an error if `play` is not legal there.
    pub fn after(&self, play: &Move, rules: &Rules) -> Result<After, PositionError> {
        let hand = self.hands[self.turn as usize];
        let table = self.last.map(|(_, m)| m);
        if !is_legal(hand, table.as_ref(), play, rules) {
            return Err(PositionError::IllegalMove { play: *play });
        }
        if play.cards() == hand {
            return Ok(After::Over {
                winner: self.turn(),
            });
        }
        let state = State::of(self).child(play, self.seats);
        Ok(After::Next(OpenPosition {
            hands: state.hands,
            seats: self.seats,
            landlord: self.landlord,
            turn: state.turn,
            last: (!state.last.is_pass()).then(|| {
                let by = (state.turn + 2 * self.seats - 1 - state.passes) % self.seats;
                (by, state.last)
            }),
        }))
    }
}

/// The seat of index `i` (0..=2).
pub(super) fn seat(i: u8) -> Seat {
    Seat::ALL[i as usize % 3]
}

/// Same side: the same seat in a duel, the same role with three seats.
#[inline]
pub(super) fn same_side(seats: u8, landlord: u8, a: u8, b: u8) -> bool {
    if seats == 2 {
        a == b
    } else {
        (a == landlord) == (b == landlord)
    }
}

/// The search state of a node: hands, seat to move, table's play (the pass when leading)
/// and passes since it.
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    pub(super) hands: [Cards; 3],
    pub(super) turn: u8,
    pub(super) last: Move,
    pub(super) passes: u8,
}

impl State {
    pub(super) fn of(p: &OpenPosition) -> State {
        State {
            hands: p.hands,
            turn: p.turn,
            last: p.last.map_or(Move::PASS, |(_, m)| m),
            passes: p.passes(),
        }
    }

    /// The state after the seat to move plays `m` (which must not empty its hand).
    #[inline]
    pub(super) fn child(&self, m: &Move, seats: u8) -> State {
        let next = if self.turn + 1 == seats {
            0
        } else {
            self.turn + 1
        };
        if m.is_pass() {
            if self.passes + 2 == seats {
                // Every other seat passed: the table's player leads.
                State {
                    turn: next,
                    last: Move::PASS,
                    passes: 0,
                    ..*self
                }
            } else {
                State {
                    turn: next,
                    passes: self.passes + 1,
                    ..*self
                }
            }
        } else {
            let mut hands = self.hands;
            hands[self.turn as usize] = hands[self.turn as usize].minus(m.cards());
            State {
                hands,
                turn: next,
                last: *m,
                passes: 0,
            }
        }
    }
}
