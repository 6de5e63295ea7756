//! What is wrong with Botzone's input or with a robot's answer: [`BotzoneError`], the
//! [`Place`] it names and the [`Problem`] there.

use core::fmt;

use ddz_core::{CardSet, Cards, Move, ParseCardsError};
use ddz_game::{ActionError, Bid, Seat};

use super::id_array;

/// What is wrong with Botzone's input (where and what), or with a robot's answer to it.
/// Displayed as the place, then what (`requests[2].history[0]: seat 1 cannot hold the cards
/// [3] (in another hand or played)`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BotzoneError {
    /// No input line at all.
    NoInput,
    /// The input line is not JSON (the parser's message).
    NotJson(String),
    /// A later request line (keep-running mode) is not JSON (the parser's message).
    RequestNotJson(String),
    /// The input is JSON but not an object.
    NotObject,
    /// The input has no `requests`.
    NoRequests,
    /// Something is wrong at a place of the input.
    Invalid {
        /// Where.
        place: Place,
        /// What is wrong.
        problem: Box<Problem>,
    },
    /// The robot chose a bid it was not allowed.
    RobotBid(Bid),
    /// The robot chose a move it was not allowed.
    RobotPlay(Move),
    /// The robot chose a move whose cards are not in the hand.
    RobotPlayNotInHand(Move),
}

impl fmt::Display for BotzoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotzoneError::NoInput => f.write_str("no input: expected one JSON line"),
            BotzoneError::NotJson(e) => write!(f, "input is not JSON: {e}"),
            BotzoneError::RequestNotJson(e) => write!(f, "request is not JSON: {e}"),
            BotzoneError::NotObject => f.write_str("input is not a JSON object"),
            BotzoneError::NoRequests => f.write_str("missing \"requests\""),
            BotzoneError::Invalid { place, problem } => write!(f, "{place}: {problem}"),
            BotzoneError::RobotBid(b) => {
                write!(f, "the robot chose bid {b}, which is not allowed")
            }
            BotzoneError::RobotPlay(m) => write!(f, "the robot chose {m}, which is not allowed"),
            BotzoneError::RobotPlayNotInHand(m) => {
                write!(f, "the robot's play {m} is not in the hand")
            }
        }
    }
}

impl std::error::Error for BotzoneError {}

/// Where in Botzone's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The `requests` field, written `"requests"`.
    Requests,
    /// The `responses` field, written `"responses"`.
    Responses,
    /// A request, written `requests[2]`.
    Request(usize),
    /// A field of a request, written `requests[0].own`.
    RequestField(usize, &'static str),
    /// An entry of a request's field, written `requests[2].history[1]` (for `bid`, the index
    /// is the seat).
    RequestEntry(usize, &'static str, usize),
    /// One of this bot's earlier responses, written `responses[1]`.
    Response(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Requests => f.write_str("\"requests\""),
            Place::Responses => f.write_str("\"responses\""),
            Place::Request(i) => write!(f, "requests[{i}]"),
            Place::RequestField(i, key) => write!(f, "requests[{i}].{key}"),
            Place::RequestEntry(i, key, k) => write!(f, "requests[{i}].{key}[{k}]"),
            Place::Response(i) => write!(f, "responses[{i}]"),
        }
    }
}

/// What is wrong at a place of Botzone's input. A value sent is kept as its JSON text, to be
/// quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// An empty array.
    Empty,
    /// Not an array (the value sent, as JSON).
    NotArray(String),
    /// Not one response fewer than the requests.
    ResponseCount {
        /// The responses.
        responses: usize,
        /// The requests.
        requests: usize,
    },
    /// A request that is not an object (the value sent, as JSON).
    NotObject(String),
    /// A field that is not there.
    Missing(&'static str),
    /// Neither `publiccard` nor `public` is there.
    MissingPublic,
    /// No `landlord` in the first play request after bidding.
    MissingLandlord,
    /// Not an array of card ids (the value sent, as JSON).
    NotIdArray(String),
    /// Card ids that do not read.
    Ids(ParseCardsError),
    /// Not a whole number in the range.
    NotNumber {
        /// The value sent, as JSON.
        sent: String,
        /// The lowest allowed.
        low: u8,
        /// The highest allowed.
        high: u8,
    },
    /// A number that is not a seat.
    NotSeat(u8),
    /// A play after a seat has emptied its hand.
    GameOver {
        /// The seat with no cards left.
        seat: Seat,
    },
    /// A pass by the seat leading a trick.
    PassWhenLeading {
        /// The seat.
        seat: Seat,
    },
    /// Cards the seat cannot hold: in another hand or played.
    CannotHold {
        /// The seat.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// A play of more cards than the seat has left.
    TooManyCards {
        /// The seat.
        seat: Seat,
        /// The cards played.
        played: u32,
        /// The cards it had left.
        left: u32,
    },
    /// Cards that are no combination (leading).
    NotCombination(CardSet),
    /// Cards with no reading that beats the play to beat.
    DoesNotBeat {
        /// The cards played.
        cards: CardSet,
        /// The play to beat.
        beat: Cards,
    },
    /// A play the trick refuses.
    Refused(ActionError),
    /// Not an array of bids (the value sent, as JSON).
    NotBidArray(String),
    /// More than 2 earlier bids.
    TooManyBids(usize),
    /// A bid after a bid of 3.
    BiddingEnded,
    /// A bid not above the highest before it.
    BidNotAbove {
        /// The bid.
        bid: Bid,
        /// The highest bid before it.
        high: Bid,
    },
    /// A bidding seat without 17 cards.
    BiddingHand(u32),
    /// `history` is not 2 arrays (the value sent, as JSON).
    NotHistory(String),
    /// A bidding request after the first request.
    LateBidding,
    /// Cards of a seat that has not played yet this game.
    NotYetPlayed {
        /// The seat.
        seat: Seat,
        /// The landlord, who leads.
        landlord: Seat,
    },
    /// No play request among the requests.
    NoPlayRequest,
    /// Public cards other than 3.
    PublicCount(u32),
    /// `pos` is not the seat this bot bid as.
    PosMismatch {
        /// The seat `pos` gives.
        pos: Seat,
        /// The seat this bot bid as.
        bid_as: Seat,
    },
    /// A farmer holding a public card.
    FarmerHoldsPublic {
        /// The farmer's seat.
        seat: Seat,
    },
    /// A hand of the wrong size.
    HandSize {
        /// The seat.
        seat: Seat,
        /// The cards it holds (the public cards included for the landlord).
        held: u32,
        /// The cards it was dealt.
        dealt: u32,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Empty => f.write_str("empty"),
            Problem::NotArray(sent) => write!(f, "expected an array, not {sent}"),
            Problem::ResponseCount {
                responses,
                requests,
            } => write!(
                f,
                "{responses} responses for {requests} requests (expected one fewer)"
            ),
            Problem::NotObject(sent) => write!(f, "expected an object, not {sent}"),
            Problem::Missing(key) => write!(f, "missing \"{key}\""),
            Problem::MissingPublic => f.write_str("missing \"publiccard\" (or \"public\")"),
            Problem::MissingLandlord => {
                f.write_str("missing \"landlord\" (FightTheLandlord2's first play after bidding)")
            }
            Problem::NotIdArray(sent) => write!(f, "expected an array of card ids, not {sent}"),
            Problem::Ids(e) => e.fmt(f),
            Problem::NotNumber { sent, low, high } => {
                write!(f, "{sent} is not a whole number {low}-{high}")
            }
            Problem::NotSeat(i) => write!(f, "{i} is not a seat"),
            Problem::GameOver { seat } => write!(
                f,
                "the game is already over (seat {seat} has no cards left)"
            ),
            Problem::PassWhenLeading { seat } => {
                write!(f, "seat {seat} passes while leading a trick")
            }
            Problem::CannotHold { seat, cards } => write!(
                f,
                "seat {seat} cannot hold the cards {} (in another hand or played)",
                id_array(*cards)
            ),
            Problem::TooManyCards { seat, played, left } => {
                write!(f, "seat {seat} plays {played} cards but has {left} left")
            }
            Problem::NotCombination(cards) => write!(
                f,
                "{} ({}) is not a combination",
                id_array(*cards),
                cards.to_cards()
            ),
            Problem::DoesNotBeat { cards, beat } => write!(
                f,
                "{} ({}) does not beat {beat}",
                id_array(*cards),
                cards.to_cards()
            ),
            Problem::Refused(e) => e.fmt(f),
            Problem::NotBidArray(sent) => write!(f, "expected an array of bids, not {sent}"),
            Problem::TooManyBids(n) => {
                write!(f, "{n} earlier bids; at most 2 come before a seat's bid")
            }
            Problem::BiddingEnded => f.write_str("the bidding ended with a bid of 3"),
            Problem::BidNotAbove { bid, high } => {
                write!(f, "bid {bid} is not above the bid {high}")
            }
            Problem::BiddingHand(n) => write!(f, "{n} cards; a bidding seat holds 17"),
            Problem::NotHistory(sent) => {
                write!(f, "expected 2 arrays of card ids, not {sent}")
            }
            Problem::LateBidding => f.write_str("a bidding request after the first request"),
            Problem::NotYetPlayed { seat, landlord } => write!(
                f,
                "seat {seat} has not played yet (the landlord, seat {landlord}, leads)"
            ),
            Problem::NoPlayRequest => f.write_str("no play request"),
            Problem::PublicCount(n) => write!(f, "{n} cards, not 3"),
            Problem::PosMismatch { pos, bid_as } => {
                write!(f, "{pos}, but this bot bid as seat {bid_as}")
            }
            Problem::FarmerHoldsPublic { seat } => {
                write!(f, "a farmer (seat {seat}) holds a public card")
            }
            Problem::HandSize { seat, held, dealt } => write!(
                f,
                "seat {seat} holds {held} cards (with the public cards if landlord), not {dealt}"
            ),
        }
    }
}

/// The error of something wrong at `place`.
pub(super) fn invalid<T>(place: Place, problem: Problem) -> Result<T, BotzoneError> {
    Err(BotzoneError::Invalid {
        place,
        problem: Box::new(problem),
    })
}
