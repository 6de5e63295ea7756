//! Why an action was refused: one type for every surface (the web rooms, the terminal game,
//! Python, the protocols), each refusal with a stable code and its fields, so that a surface
//! shows it in its player's language from the code alone.

use core::fmt;

use ddz_core::{Cards, Move, Rules};

use crate::action::{Bid, Phase};
use crate::seat::Seat;

/// Why an action was refused. The game is unchanged after any error.
///
/// Every refusal has a stable [`ActionError::code`] and serialises as an object of the code,
/// the English message and the refusal's fields (moves and cards in card notation, seats as
/// numbers):
///
/// ```
/// use ddz_game::{ActionError, Seat};
///
/// let e = ActionError::NotYourTurn { seat: Seat::ALL[0], turn: Seat::ALL[2] };
/// assert_eq!(e.code(), "not_your_turn");
/// assert_eq!(
///     serde_json::to_string(&e).unwrap(),
///     r#"{"code":"not_your_turn","message":"not seat 0's turn: seat 2 is to act","seat":0,"turn":2}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The game is over: nothing more can be done in it.
    GameOver,
    /// The action does not fit the phase (a bid while playing, a play while bidding, a show
    /// outside a show window).
    WrongPhase {
        /// The phase the game is in.
        phase: Phase,
    },
    /// It is another seat's turn.
    NotYourTurn {
        /// The seat that acted.
        seat: Seat,
        /// The seat whose turn it is.
        turn: Seat,
    },
    /// A bid that is not allowed now.
    BadBid {
        /// The bid given.
        bid: Bid,
        /// The bids allowed now.
        allowed: Vec<Bid>,
    },
    /// A play of no cards (a pass is written as a pass).
    NoCards,
    /// The cards are not all in the seat's hand.
    NotInHand {
        /// The cards played.
        cards: Cards,
    },
    /// The cards (with what any wild cards stand for) are not a combination of the rules.
    NotACombination {
        /// The cards played.
        cards: Cards,
        /// What they stand for (the cards themselves when no wild card stands for another
        /// rank).
        reading: Cards,
    },
    /// The play does not beat the play on the table.
    DoesNotBeat {
        /// The play.
        play: Move,
        /// The play to beat.
        last: Move,
        /// The seat that made the play to beat.
        by: Seat,
    },
    /// A pass when the seat must lead.
    PassWhenLeading,
    /// A doubling factor that is not allowed.
    BadDouble {
        /// The factor given.
        factor: u32,
        /// The factors allowed (1 included).
        allowed: Vec<u32>,
    },
    /// The seat has already chosen its doubling factor.
    AlreadyDoubled {
        /// The seat.
        seat: Seat,
        /// The factor it chose.
        factor: u32,
    },
    /// Nothing to undo.
    NothingToUndo,
    /// A play written in notation that does not parse or has no reading that fits.
    Notation {
        /// The text given.
        text: String,
        /// What is wrong with it.
        error: String,
    },
}

impl ActionError {
    /// Every code, in the order of the variants: what docs/protocol.md and docs/web.md list.
    pub const CODES: [&'static str; 13] = [
        "game_over",
        "wrong_phase",
        "not_your_turn",
        "bad_bid",
        "no_cards",
        "not_in_hand",
        "not_a_combination",
        "does_not_beat",
        "pass_when_leading",
        "bad_double",
        "already_doubled",
        "nothing_to_undo",
        "bad_notation",
    ];

    /// The refusal's stable code (one of [`ActionError::CODES`]).
    pub const fn code(&self) -> &'static str {
        Self::CODES[match self {
            ActionError::GameOver => 0,
            ActionError::WrongPhase { .. } => 1,
            ActionError::NotYourTurn { .. } => 2,
            ActionError::BadBid { .. } => 3,
            ActionError::NoCards => 4,
            ActionError::NotInHand { .. } => 5,
            ActionError::NotACombination { .. } => 6,
            ActionError::DoesNotBeat { .. } => 7,
            ActionError::PassWhenLeading => 8,
            ActionError::BadDouble { .. } => 9,
            ActionError::AlreadyDoubled { .. } => 10,
            ActionError::NothingToUndo => 11,
            ActionError::Notation { .. } => 12,
        }]
    }

    /// The error for `phase` when an action of another phase is tried: [`ActionError::GameOver`]
    /// once the game is over, else [`ActionError::WrongPhase`].
    pub const fn in_phase(phase: Phase) -> ActionError {
        match phase {
            Phase::Over => ActionError::GameOver,
            phase => ActionError::WrongPhase { phase },
        }
    }

    /// Refuses an action of `seat` in `wanted` unless the game is in that phase (`now`) and
    /// `turn` is `seat`: what every game's turn check is ([`crate::Game::check_turn`],
    /// [`crate::TableGame`]).
    pub(crate) fn check_turn(
        now: Phase,
        turn: Seat,
        seat: Seat,
        wanted: Phase,
    ) -> Result<(), ActionError> {
        if now != wanted {
            return Err(ActionError::in_phase(now));
        }
        if seat != turn {
            return Err(ActionError::NotYourTurn { seat, turn });
        }
        Ok(())
    }

    /// The readings of exactly `cards` among the legal moves `legal` gives (those of the seat
    /// to play, holding `hand`, against `last`, under `rules`), or why there is none: no
    /// cards, cards not in hand, no combination, or none that beats the play on the table:
    /// what every game's readings are ([`crate::Game::readings`],
    /// [`crate::TableGame::readings`]). The moves are generated only for cards in hand.
    pub(crate) fn readings(
        cards: Cards,
        hand: Cards,
        legal: impl FnOnce() -> Vec<Move>,
        last: Option<(Seat, Move)>,
        rules: &Rules,
    ) -> Result<Vec<Move>, ActionError> {
        if cards.is_empty() {
            return Err(ActionError::NoCards);
        }
        if !hand.contains(cards) {
            return Err(ActionError::NotInHand { cards });
        }
        let readings: Vec<Move> = legal()
            .into_iter()
            .filter(|m| !m.is_pass() && m.cards() == cards)
            .collect();
        if !readings.is_empty() {
            return Ok(readings);
        }
        match (ddz_core::classify(cards, rules).first(), last) {
            (Some(&play), Some((by, last))) => Err(ActionError::DoesNotBeat { play, last, by }),
            // No combination, or (every reading of cards in hand is legal when leading) none
            // the game allows.
            _ => Err(ActionError::NotACombination {
                cards,
                reading: cards,
            }),
        }
    }
}

/// A play's cards, with `=reading` when wild cards stand for other ranks (`7779=9999`).
fn play_text(cards: Cards, reading: Cards) -> String {
    if reading == cards {
        cards.to_string()
    } else {
        format!("{cards}={reading}")
    }
}

/// A move as [`play_text`] writes it.
fn move_text(m: &Move) -> String {
    play_text(m.cards(), m.reading())
}

/// A list of numbers, `0, 1, 2`.
fn list<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::GameOver => write!(f, "the game is over"),
            ActionError::WrongPhase { phase } => f.write_str(match phase {
                Phase::Dealing => "the cards are being dealt: decide whether to show first",
                Phase::Bidding => "the bidding is not over: bid first",
                Phase::Doubling => "the doubling is not over: choose a doubling factor first",
                Phase::LandlordShow => "the landlord is deciding whether to show its hand",
                Phase::Playing => "the game is in play: play or pass",
                Phase::Over => "the game is over",
            }),
            ActionError::NotYourTurn { seat, turn } => {
                write!(f, "not seat {seat}'s turn: seat {turn} is to act")
            }
            ActionError::BadBid { bid, allowed } => {
                write!(
                    f,
                    "bid {bid} is not allowed now (allowed: {})",
                    list(allowed)
                )
            }
            ActionError::NoCards => write!(f, "select some cards first (or pass)"),
            ActionError::NotInHand { cards } => {
                write!(f, "{cards}: not all of these cards are in hand")
            }
            ActionError::NotACombination { cards, reading } => write!(
                f,
                "{} is not a combination under these rules",
                play_text(*cards, *reading)
            ),
            ActionError::DoesNotBeat { play, last, by } => write!(
                f,
                "{} does not beat {} (played by seat {by})",
                move_text(play),
                move_text(last)
            ),
            ActionError::PassWhenLeading => write!(f, "you lead this trick: you cannot pass"),
            ActionError::BadDouble { factor, allowed } => write!(
                f,
                "doubling x{factor} is not allowed (allowed: {})",
                list(allowed)
            ),
            ActionError::AlreadyDoubled { seat, factor } => {
                write!(f, "seat {seat} has already chosen doubling x{factor}")
            }
            ActionError::NothingToUndo => write!(f, "nothing to undo"),
            ActionError::Notation { text, error } => write!(f, "\"{text}\": {error}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// `{"code", "message", ...fields}`: the shape every surface sends a refusal in.
impl serde::Serialize for ActionError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("code", self.code())?;
        map.serialize_entry("message", &self.to_string())?;
        match self {
            ActionError::GameOver
            | ActionError::NoCards
            | ActionError::PassWhenLeading
            | ActionError::NothingToUndo => {}
            ActionError::WrongPhase { phase } => map.serialize_entry("phase", phase)?,
            ActionError::NotYourTurn { seat, turn } => {
                map.serialize_entry("seat", seat)?;
                map.serialize_entry("turn", turn)?;
            }
            ActionError::BadBid { bid, allowed } => {
                map.serialize_entry("bid", bid)?;
                map.serialize_entry("allowed", allowed)?;
            }
            ActionError::NotInHand { cards } => {
                map.serialize_entry("cards", &cards.to_string())?;
            }
            ActionError::NotACombination { cards, reading } => {
                map.serialize_entry("cards", &play_text(*cards, *reading))?;
            }
            ActionError::DoesNotBeat { play, last, by } => {
                map.serialize_entry("play", &move_text(play))?;
                map.serialize_entry("last", &move_text(last))?;
                map.serialize_entry("by", by)?;
            }
            ActionError::BadDouble { factor, allowed } => {
                map.serialize_entry("factor", factor)?;
                map.serialize_entry("allowed", allowed)?;
            }
            ActionError::AlreadyDoubled { seat, factor } => {
                map.serialize_entry("seat", seat)?;
                map.serialize_entry("factor", factor)?;
            }
            ActionError::Notation { text, error } => {
                map.serialize_entry("text", text)?;
                map.serialize_entry("error", error)?;
            }
        }
        map.end()
    }
}
