//! What is wrong with a `ddz-jsonl/1` request: [`ProtocolError`], the [`Field`] it names and
//! the [`Problem`] with it.

use core::fmt;

use ddz_core::{Cards, LaiziError, MoveError, ParseCardsError, UnknownProfile};
use ddz_game::{ActionError, Bid, Role, Seat};

use super::limits::PROTOCOL;

/// What is wrong with a request: the field and what is wrong with it. Displayed as the
/// field, then what (`"history"[3]: seat 1 plays out of turn (seat 2 was to play)`); a value
/// sent is quoted as the JSON it was (`"bid": "2"`, `"seat": 7`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The line is not JSON (the parser's message).
    NotJson(String),
    /// The line is JSON but not an object.
    NotObject,
    /// A field that must be there is not (`missing "hand"`, `"last": missing "seat"`).
    Missing(Field),
    /// A `type` other than `hello`, `act`, `bid`, `double`, `show` and `result`.
    UnknownType(String),
    /// A field that is there is wrong.
    Invalid {
        /// Where.
        field: Field,
        /// What is wrong.
        problem: Box<Problem>,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::NotJson(e) => write!(f, "not JSON: {e}"),
            ProtocolError::NotObject => f.write_str("not a JSON object"),
            ProtocolError::Missing(Field::Last(key)) => write!(f, "\"last\": missing \"{key}\""),
            ProtocolError::Missing(Field::Key(key) | Field::Entry(key, _)) => {
                write!(f, "missing \"{key}\"")
            }
            ProtocolError::UnknownType(kind) => write!(
                f,
                "unknown type \"{kind}\" (types: hello, act, bid, double, show, result)"
            ),
            ProtocolError::Invalid { field, problem } => write!(f, "{field}: {problem}"),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl ProtocolError {
    /// Every code a `ddz-jsonl/1` error reply carries, the request's errors first, then the
    /// robot side's own ([`ErrorCode`]): what docs/protocol.md lists.
    pub const CODES: [&'static str; 12] = [
        "not_json",
        "not_object",
        "missing_field",
        "unknown_type",
        "invalid_field",
        "line_too_long",
        "body_not_read",
        "bad_query",
        "wrong_endpoint",
        "unknown_robot",
        "robot_not_allowed",
        "internal_error",
    ];

    /// The error's stable code: `not_json`, `not_object`, `missing_field`, `unknown_type` or
    /// `invalid_field`.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::NotJson(_) => "not_json",
            ProtocolError::NotObject => "not_object",
            ProtocolError::Missing(_) => "missing_field",
            ProtocolError::UnknownType(_) => "unknown_type",
            ProtocolError::Invalid { .. } => "invalid_field",
        }
    }

    /// The field the error is about, when it is about one.
    pub const fn field(&self) -> Option<Field> {
        match self {
            ProtocolError::Missing(field) | ProtocolError::Invalid { field, .. } => Some(*field),
            _ => None,
        }
    }
}

/// The errors of a `ddz-jsonl/1` session that are not about a request's fields: the codes
/// past [`ProtocolError::code`]'s in [`ProtocolError::CODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// A line not read because it is longer than [`super::MAX_LINE`].
    LineTooLong,
    /// A line that is not UTF-8 (the code of a line that is not JSON).
    NotJson,
    /// An HTTP request body not read (too long, or cut off).
    BodyNotRead,
    /// The HTTP robot API's query is wrong (an unknown parameter, a seed that is not a
    /// number).
    BadQuery,
    /// A request of another type than the HTTP endpoint takes (`/v1/act` and `bid`).
    WrongEndpoint,
    /// The HTTP robot API's `bot` names no robot this server offers.
    UnknownRobot,
    /// The robot chose an action that the request's list did not allow.
    RobotNotAllowed,
    /// The robot failed (panicked) on the request.
    InternalError,
}

impl ErrorCode {
    /// The code on the wire.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorCode::LineTooLong => "line_too_long",
            ErrorCode::NotJson => "not_json",
            ErrorCode::BodyNotRead => "body_not_read",
            ErrorCode::BadQuery => "bad_query",
            ErrorCode::WrongEndpoint => "wrong_endpoint",
            ErrorCode::UnknownRobot => "unknown_robot",
            ErrorCode::RobotNotAllowed => "robot_not_allowed",
            ErrorCode::InternalError => "internal_error",
        }
    }
}

/// Where in a request: a field, an entry of an array field, or a field of `last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// A field of the request, written `"hand"`.
    Key(&'static str),
    /// An entry of an array field, written `"history"[3]` (for `played`, the index is the
    /// seat).
    Entry(&'static str, usize),
    /// A field of `last`, written `"last.seat"`.
    Last(&'static str),
}

impl Field {
    /// The field as a path for machines: `hand`, `history[3]`, `last.seat`.
    pub fn path(self) -> String {
        match self {
            Field::Key(key) => key.to_string(),
            Field::Entry(key, i) => format!("{key}[{i}]"),
            Field::Last(key) => format!("last.{key}"),
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Key(key) => write!(f, "\"{key}\""),
            Field::Entry(key, i) => write!(f, "\"{key}\"[{i}]"),
            Field::Last(key) => write!(f, "\"last.{key}\""),
        }
    }
}

/// What is wrong with a field of a request. A value sent is kept as its JSON text, to be
/// quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// `protocol` is not [`PROTOCOL`] (the value sent, as JSON).
    WrongProtocol(String),
    /// Not a string (the value sent, as JSON).
    NotString(String),
    /// Not a seat of the table: 0, 1 or 2 at three seats (the value sent, as JSON, and the
    /// table's seat count).
    NotSeat(String, usize),
    /// Not cards written as a string (the value sent, as JSON).
    NotCardString(String),
    /// Cards that do not read.
    Cards(ParseCardsError),
    /// Not an array (the value sent, as JSON).
    NotArray(String),
    /// `base` or `multiplier` is not a positive integer (the value sent, as JSON).
    NotPositive(String),
    /// `rules` names no profile.
    UnknownProfile(UnknownProfile),
    /// `rules` is not a profile name (the value sent, as JSON).
    NotProfileName(String),
    /// `laizi` is not an array of ranks (the value sent, as JSON).
    NotRankArray(String),
    /// An entry of `laizi` is not one rank (the value sent, as JSON).
    NotOneRank(String),
    /// Wild ranks the rules do not take.
    Laizi(LaiziError),
    /// Not a handicap (让牌) of 1 to 3 cards (the value sent, as JSON).
    Handicap(String),
    /// A `handicap` under rules without one.
    NoHandicap,
    /// Rules of another table than the requests are read for (`"rules": "two"` sent to a
    /// three-seat robot).
    OtherTable {
        /// The profile sent.
        profile: String,
        /// The players it seats.
        seats: u8,
        /// The seats the requests are read for.
        read: usize,
    },
    /// `role` is none of the table's roles (the value sent, and the seat count).
    UnknownRole(String, usize),
    /// `role` is not the role of `seat` with the landlord in `landlord`.
    WrongRole {
        /// The seat.
        seat: Seat,
        /// The landlord's seat.
        landlord: Seat,
        /// The role given.
        given: Role,
        /// The seat's role at this table.
        actual: Role,
    },
    /// A `history` entry that is not `[seat, move]` (the value sent, as JSON).
    NotSeatMove(String),
    /// A play by a seat whose turn it was not.
    PlaysOutOfTurn {
        /// The seat that played.
        seat: Seat,
        /// The seat that was to play.
        turn: Seat,
    },
    /// A move that does not read (against the play it follows).
    BadMove {
        /// The move as sent.
        text: String,
        /// Why.
        error: MoveError,
    },
    /// A play that makes more cards played than a deck holds.
    MoreThanDeck {
        /// The move as sent.
        text: String,
    },
    /// A pass by the seat leading a trick.
    PassWhenLeading {
        /// The seat.
        seat: Seat,
    },
    /// A play the trick refuses.
    Refused {
        /// The move as sent.
        text: String,
        /// Why.
        error: ActionError,
    },
    /// An empty hand: the game is over.
    EmptyHand,
    /// Not a card count 1-20 at three seats (the value sent, as JSON, and the most a hand
    /// holds: the landlord's with the kitty).
    NotCardCount(String, u32),
    /// Not one count a seat (3 at the classic table).
    NotThreeCounts {
        /// How many were given.
        given: usize,
        /// The table's seat count.
        seats: usize,
    },
    /// The seat's count of cards left is not the size of its hand.
    CountIsNotHand {
        /// The seat.
        seat: Seat,
        /// Its count.
        left: u32,
        /// The cards in `hand`.
        held: u32,
    },
    /// After the history another seat is to play.
    NotToPlay {
        /// The seat to play.
        turn: Seat,
        /// The request's seat.
        seat: Seat,
    },
    /// A seat has more cards left and played than it was dealt.
    MoreThanDealt {
        /// The seat.
        seat: Seat,
        /// Its count of cards left.
        left: u32,
        /// The cards it played.
        played: u32,
        /// The cards it was dealt.
        dealt: u32,
    },
    /// The hand and the cards played hold more cards than a deck.
    HandAndPlayed {
        /// The hand.
        hand: Cards,
        /// Every card played.
        played: Cards,
    },
    /// `played` is not one card string a seat (the value sent, as JSON, and the seat count).
    NotThreeCardStrings(String, usize),
    /// A seat's `played` is not what it played in `history`.
    NotPlayed {
        /// The cards given.
        given: Cards,
        /// The seat.
        seat: Seat,
        /// What it played in `history`.
        played: Cards,
    },
    /// More than the 3 kitty cards.
    KittyTooBig(Cards),
    /// Kitty cards not in the landlord's hand.
    KittyNotInHand(Cards),
    /// `last.seat` is the seat to act.
    LastIsOwn(Seat),
    /// Not a move written as a string (the value sent, as JSON).
    NotMove(String),
    /// A pass as the play to beat.
    PassToBeat,
    /// `last` is neither `{"seat", "cards"}` nor null (the value sent, as JSON).
    NotLast(String),
    /// `last` is not the play to beat that `history` leaves (each a seat and a move in
    /// notation; none when the robot leads).
    LastMismatch {
        /// The play given.
        given: Option<(Seat, String)>,
        /// The play to beat after `history`.
        derived: Option<(Seat, String)>,
    },
    /// `legal_moves` is empty.
    NoLegalMoves,
    /// An entry of `legal_moves` that the seat may not play.
    NotAllowed {
        /// The move as sent.
        text: String,
        /// Why.
        why: Disallowed,
    },
    /// `form` is neither `points` nor `call_rob` (the value sent, as JSON).
    UnknownForm(String),
    /// A bidding hand of other than 1 to 20 cards at three seats (the cards, and the most a
    /// hand holds).
    BidHandSize(u32, u32),
    /// A `bids` entry that is not `[seat, bid]` (the value sent, as JSON).
    NotSeatBid(String),
    /// A bid out of the form's range.
    BidRange {
        /// The value sent.
        sent: String,
        /// The highest bid of the form.
        top: Bid,
    },
    /// A bid by a seat whose turn it was not.
    BidsOutOfTurn {
        /// The seat that bid.
        seat: Seat,
        /// The seat that was to bid.
        turn: Seat,
    },
    /// A points bid not above the highest before it.
    BidNotAbove {
        /// The bid.
        bid: Bid,
        /// The highest bid before it.
        high: Bid,
    },
    /// Bids after the bidding ended.
    BiddingOver,
    /// The request's seat is not the one to bid after the last bid.
    CannotBidAfter {
        /// The request's seat.
        seat: Seat,
        /// The seat that bid last.
        last: Seat,
    },
    /// `winner` is neither `landlord` nor `farmers` (the value sent, as JSON).
    UnknownWinner(String),
    /// `scores` is not one integer a seat (the value sent, as JSON, and the seat count).
    NotScores(String, usize),
    /// `shown` is not an object of seats to cards (the value sent, as JSON).
    NotShown(String),
    /// A shown hand that is not the size of its seat's count of cards left.
    ShownCount {
        /// The seat.
        seat: Seat,
        /// The cards shown.
        shown: u32,
        /// Its count of cards left.
        left: u32,
    },
    /// The shown hands and the seat's own hand hold more cards than a deck.
    ShownAndHand(Cards),
    /// `doubling` is not one entry a seat, each a factor or null (the value sent, as JSON,
    /// and the seat count).
    NotDoublings(String, usize),
    /// `choices` is not a non-empty array of doubling factors (the value sent, as JSON).
    NotChoices(String),
    /// `window` is none of `start`, `deal`, `landlord` (the value sent, as JSON).
    UnknownWindow(String),
    /// A show window the request's seat cannot have: `landlord` for a farmer.
    NotLandlordWindow {
        /// The request's seat.
        seat: Seat,
        /// The landlord's seat.
        landlord: Seat,
    },
    /// A hand of a size the decision cannot have (20 cards for the landlord and 17 for a
    /// farmer once the landlord has the kitty, at most 16 during the deal, none before it).
    HandSize {
        /// The cards in `hand`.
        held: u32,
        /// The sizes it may have, written out (`20`, `1 to 16`).
        expected: String,
    },
    /// A `cards_dealt` that is not the number of cards in `hand` (the value sent, as JSON).
    CardsDealt {
        /// The value sent.
        sent: String,
        /// The cards in `hand`.
        held: u32,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::WrongProtocol(sent) => write!(f, "{sent} is not \"{PROTOCOL}\""),
            Problem::NotString(sent) => write!(f, "expected a string, not {sent}"),
            Problem::Handicap(sent) => {
                write!(f, "{sent} is not a handicap of 1 to 3 cards (1 + robs)")
            }
            Problem::NoHandicap => f.write_str("these rules have no handicap (让牌)"),
            Problem::OtherTable {
                profile,
                seats,
                read,
            } => write!(
                f,
                "{profile} rules seat {seats} players; this robot reads the requests of a table of \
                 {read} (start it with those rules)"
            ),
            Problem::NotSeat(sent, seats) => {
                write!(f, "{sent} is not a seat ({})", seat_list(*seats))
            }
            Problem::NotCardString(sent) => {
                write!(f, "expected cards as a string, not {sent}")
            }
            Problem::Cards(e) => e.fmt(f),
            Problem::NotArray(sent) => write!(f, "expected an array, not {sent}"),
            Problem::NotPositive(sent) => write!(f, "{sent} is not a positive integer"),
            Problem::UnknownProfile(e) => e.fmt(f),
            Problem::NotProfileName(sent) => write!(f, "expected a profile name, not {sent}"),
            Problem::NotRankArray(sent) => {
                write!(f, "expected an array of ranks, not {sent}")
            }
            Problem::NotOneRank(sent) => write!(f, "{sent} is not one rank"),
            Problem::Laizi(e) => e.fmt(f),
            Problem::UnknownRole(role, 4) => write!(
                f,
                "\"{role}\" is not landlord, landlord_down, landlord_across or landlord_up"
            ),
            Problem::UnknownRole(role, 2) => {
                write!(f, "\"{role}\" is not landlord or landlord_down")
            }
            Problem::UnknownRole(role, _) => write!(
                f,
                "\"{role}\" is not landlord, landlord_down or landlord_up"
            ),
            Problem::WrongRole {
                seat,
                landlord,
                given,
                actual,
            } => write!(
                f,
                "seat {seat} with the landlord in seat {landlord} is {}, not {}",
                actual.name(),
                given.name()
            ),
            Problem::NotSeatMove(sent) => write!(f, "{sent} is not [seat, move]"),
            Problem::PlaysOutOfTurn { seat, turn } => {
                write!(f, "seat {seat} plays out of turn (seat {turn} was to play)")
            }
            Problem::BadMove { text, error } => write!(f, "\"{text}\": {error}"),
            Problem::MoreThanDeck { text } => {
                write!(f, "\"{text}\" makes more cards played than a deck holds")
            }
            Problem::PassWhenLeading { seat } => {
                write!(f, "seat {seat} passes while leading a trick")
            }
            Problem::Refused { text, error } => write!(f, "\"{text}\": {error}"),
            Problem::EmptyHand => f.write_str("no cards (the game is over)"),
            Problem::NotCardCount(sent, most) => {
                write!(f, "{sent} is not a card count 1-{most}")
            }
            Problem::NotThreeCounts { given, seats } => {
                write!(f, "expected {seats} counts, got {given}")
            }
            Problem::CountIsNotHand { seat, left, held } => write!(
                f,
                "seat {seat} has {left} cards left, but \"hand\" holds {held}"
            ),
            Problem::NotToPlay { turn, seat } => write!(
                f,
                "after \"history\" seat {turn} is to play, not seat {seat}"
            ),
            Problem::MoreThanDealt {
                seat,
                left,
                played,
                dealt,
            } => write!(
                f,
                "seat {seat} has {left} left and played {played}: more than the {dealt} it was dealt"
            ),
            Problem::HandAndPlayed { hand, played } => write!(
                f,
                "{hand} and the cards played ({played}) hold more cards than a deck"
            ),
            Problem::NotThreeCardStrings(sent, seats) => {
                write!(f, "expected {seats} card strings, not {sent}")
            }
            Problem::NotPlayed {
                given,
                seat,
                played,
            } => write!(
                f,
                "\"{given}\" is not what seat {seat} played in \"history\" (\"{played}\")"
            ),
            Problem::KittyTooBig(cards) => {
                write!(f, "{cards} is more than the 3 kitty cards")
            }
            Problem::KittyNotInHand(cards) => {
                write!(f, "{cards} is not in the landlord's \"hand\"")
            }
            Problem::LastIsOwn(seat) => write!(
                f,
                "seat {seat} is the seat to act; the play to beat is another seat's"
            ),
            Problem::NotMove(sent) => write!(f, "expected a move, not {sent}"),
            Problem::PassToBeat => f.write_str("a pass is never the play to beat (use null)"),
            Problem::NotLast(sent) => {
                write!(f, "expected {{\"seat\", \"cards\"}} or null, not {sent}")
            }
            Problem::LastMismatch { given, derived } => {
                let shown = |play: &Option<(Seat, String)>| match play {
                    Some((seat, text)) => format!("{text} by seat {seat}"),
                    None => "null (the robot leads)".to_string(),
                };
                write!(
                    f,
                    "{} does not match \"history\", whose play to beat is {}",
                    shown(given),
                    shown(derived)
                )
            }
            Problem::NoLegalMoves => f.write_str("empty (omit it to allow every legal play)"),
            Problem::NotAllowed { text, why } => write!(f, "\"{text}\": {why}"),
            Problem::UnknownForm(sent) => {
                write!(f, "{sent} is not \"points\" or \"call_rob\"")
            }
            Problem::BidHandSize(n, most) => {
                write!(f, "{n} cards; a hand bids with 1 to {most}")
            }
            Problem::NotSeatBid(sent) => write!(f, "{sent} is not [seat, bid]"),
            Problem::BidRange { sent, top } => write!(f, "bid {sent} is not 0 to {top}"),
            Problem::BidsOutOfTurn { seat, turn } => {
                write!(f, "seat {seat} bids out of turn (seat {turn} was to bid)")
            }
            Problem::BidNotAbove { bid, high } => {
                write!(f, "bid {bid} is not above the bid {high}")
            }
            Problem::BiddingOver => f.write_str("the bidding is already over"),
            Problem::CannotBidAfter { seat, last } => {
                write!(f, "seat {seat} cannot bid right after seat {last}")
            }
            Problem::UnknownWinner(sent) => {
                write!(f, "{sent} is not \"landlord\" or \"farmers\"")
            }
            Problem::NotScores(sent, seats) => write!(f, "{sent} is not {seats} integers"),
            Problem::NotShown(sent) => write!(
                f,
                "expected an object of seats to cards ({{\"1\": \"3345\"}}), not {sent}"
            ),
            Problem::ShownCount { seat, shown, left } => {
                write!(f, "seat {seat} shows {shown} cards but has {left} left")
            }
            Problem::ShownAndHand(cards) => write!(
                f,
                "the shown hands and the hand hold more cards than a deck ({cards})"
            ),
            Problem::NotDoublings(sent, seats) => write!(
                f,
                "expected {seats} entries, each a doubling factor or null, not {sent}"
            ),
            Problem::NotChoices(sent) => write!(
                f,
                "expected a non-empty array of doubling factors (1, 2, 4), not {sent}"
            ),
            Problem::UnknownWindow(sent) => {
                write!(f, "{sent} is not a show window (start, deal, landlord)")
            }
            Problem::NotLandlordWindow { seat, landlord } => write!(
                f,
                "only the landlord (seat {landlord}) shows in the landlord window, not seat {seat}"
            ),
            Problem::HandSize { held, expected } => {
                write!(f, "a hand of {held} cards where {expected} are held")
            }
            Problem::CardsDealt { sent, held } => {
                write!(f, "{sent} is not the {held} cards dealt so far in \"hand\"")
            }
        }
    }
}

/// Why an entry of `legal_moves` may not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disallowed {
    /// A pass, by the seat leading.
    PassWhenLeading,
    /// Cards not in the hand.
    NotInHand(Cards),
    /// Not a legal play here.
    NotLegal,
}

impl fmt::Display for Disallowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disallowed::PassWhenLeading => f.write_str("a pass is not allowed when leading"),
            Disallowed::NotInHand(cards) => write!(f, "{cards} is not in \"hand\""),
            Disallowed::NotLegal => f.write_str("not a legal play here"),
        }
    }
}

/// The error of a field that is there but wrong.
pub(super) fn invalid<T>(field: Field, problem: Problem) -> Result<T, ProtocolError> {
    Err(ProtocolError::Invalid {
        field,
        problem: Box::new(problem),
    })
}

/// The error of a top-level field that is there but wrong.
pub(super) fn invalid_key<T>(key: &'static str, problem: Problem) -> Result<T, ProtocolError> {
    invalid(Field::Key(key), problem)
}

/// The seats of a table of `seats`, written out: `0, 1 or 2` at three seats.
fn seat_list(seats: usize) -> String {
    let numbers: Vec<String> = (0..seats).map(|s| s.to_string()).collect();
    match numbers.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => numbers.join(""),
    }
}
