//! The robot side of the stdio protocol `ddz-jsonl/1` (PROTOCOL.md, docs/protocol.md): one JSON
//! request a line in, one JSON reply a line out.
//!
//! [`parse_request`] turns a line into a checked [`Request`] (the seat's [`SeatView`] and what it
//! may do), or an error that names the field; the `*_reply` functions build the answers;
//! [`serve`] runs a [`Bot`] over a whole stream. The `*_request` functions build requests from a
//! game's view, for a controller that drives a robot through the protocol.
//!
//! ```
//! use ddz_bots::make_bot;
//! use ddz_core::Rules;
//! use ddz_protocol::jsonl;
//!
//! let mut bot = make_bot("greedy", 1).unwrap();
//! let input = concat!(
//!     r#"{"protocol": "ddz-jsonl/1", "type": "hello", "id": 0}"#, "\n",
//!     r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": "a", "seat": 0, "landlord_seat": 0,"#,
//!     r#" "role": "landlord", "hand": "33", "cards_left": [2, 17, 17], "history": [],"#,
//!     r#" "last": null}"#, "\n",
//!     "oops\n",
//! );
//! let mut output = Vec::new();
//! jsonl::serve(bot.as_mut(), "greedy", &Rules::classic(), input.as_bytes(), &mut output)
//!     .unwrap();
//! let lines: Vec<&str> = std::str::from_utf8(&output).unwrap().lines().collect();
//! assert_eq!(lines[1], r#"{"id":"a","cards":"3"}"#);
//! assert_eq!(lines[2], r#"{"id":null,"error":"not JSON: expected value at line 1 column 1"}"#);
//! ```

use core::fmt;
use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use ddz_core::{
    Bidding, Cards, LaiziError, Move, MoveError, ParseCardsError, Rank, Rules, UnknownProfile,
    is_legal, legal_moves, move_notation, parse_move,
};
use ddz_game::{
    ActionError, Bid, BySeat, GameResult, Phase, PublicPlay, Role, Seat, SeatView, Side,
};
use serde_json::{Map, Value, json};

use ddz_bots::Bot;

/// The protocol's name, sent in every request and in the hello reply.
pub const PROTOCOL: &str = "ddz-jsonl/1";

/// The longest request line served, in bytes (1 MiB, the newline not counted). Longer lines
/// are answered with an error without being parsed.
pub const MAX_LINE: usize = 1 << 20;

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
    /// Not a seat 0, 1 or 2 (the value sent, as JSON).
    NotSeat(String),
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
    /// `role` is none of the three roles.
    UnknownRole(String),
    /// `role` is not the role of `seat` with the landlord in `landlord`.
    WrongRole {
        /// The seat.
        seat: Seat,
        /// The landlord's seat.
        landlord: Seat,
        /// The role given.
        given: Role,
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
    /// Not a card count 1-20 (the value sent, as JSON).
    NotCardCount(String),
    /// Not 3 counts.
    NotThreeCounts {
        /// How many were given.
        given: usize,
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
    /// `played` is not 3 card strings (the value sent, as JSON).
    NotThreeCardStrings(String),
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
    /// A bidding hand of other than 1 to 20 cards.
    BidHandSize(u32),
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
    /// `scores` is not 3 integers (the value sent, as JSON).
    NotScores(String),
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
    /// `doubling` is not 3 entries, each a factor or null (the value sent, as JSON).
    NotDoublings(String),
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
        expected: &'static str,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::WrongProtocol(sent) => write!(f, "{sent} is not \"{PROTOCOL}\""),
            Problem::NotString(sent) => write!(f, "expected a string, not {sent}"),
            Problem::NotSeat(sent) => write!(f, "{sent} is not a seat (0, 1 or 2)"),
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
            Problem::UnknownRole(role) => write!(
                f,
                "\"{role}\" is not landlord, landlord_down or landlord_up"
            ),
            Problem::WrongRole {
                seat,
                landlord,
                given,
            } => write!(
                f,
                "seat {seat} with the landlord in seat {landlord} is {}, not {}",
                Role::of(*seat, *landlord).name(),
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
            Problem::NotCardCount(sent) => write!(f, "{sent} is not a card count 1-20"),
            Problem::NotThreeCounts { given } => write!(f, "expected 3 counts, got {given}"),
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
            Problem::NotThreeCardStrings(sent) => {
                write!(f, "expected 3 card strings, not {sent}")
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
            Problem::BidHandSize(n) => write!(f, "{n} cards; a hand bids with 1 to 20"),
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
            Problem::NotScores(sent) => write!(f, "{sent} is not 3 integers"),
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
            Problem::NotDoublings(sent) => write!(
                f,
                "expected 3 entries, each a doubling factor or null, not {sent}"
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
fn invalid<T>(field: Field, problem: Problem) -> Result<T, ProtocolError> {
    Err(ProtocolError::Invalid {
        field,
        problem: Box::new(problem),
    })
}

/// The error of a top-level field that is there but wrong.
fn invalid_key<T>(key: &'static str, problem: Problem) -> Result<T, ProtocolError> {
    invalid(Field::Key(key), problem)
}

/// A checked `act` request: the seat's view and the moves it may choose from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActRequest {
    /// The seat's view, rebuilt from the request (its `kitty` is `None`: the request only
    /// tells the kitty cards not yet played).
    pub view: SeatView,
    /// The moves allowed: the request's `legal_moves`, or every legal move of the hand.
    pub allowed: Vec<Move>,
}

/// A checked `bid` request: the seat's view during bidding and the bids it may make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidRequest {
    /// The seat's view: its hand, the bids so far, the rules with the bidding form asked.
    pub view: SeatView,
    /// The bids allowed ([`SeatView::legal_bids`]).
    pub allowed: Vec<Bid>,
}

/// A checked `double` request: the seat's view once the landlord has the kitty and the
/// factors it may choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoubleRequest {
    /// The seat's view (phase [`Phase::Doubling`]; its `kitty` is the request's
    /// `bottom_cards_unplayed`, when given).
    pub view: SeatView,
    /// The factors allowed (`choices`).
    pub choices: Vec<u32>,
}

/// A checked `show` request: the seat's view in the show window and the factor of a show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShowRequest {
    /// The seat's view: phase [`Phase::Dealing`] with the cards received so far (`start`,
    /// `deal`), or [`Phase::LandlordShow`] with the landlord's 20 cards (`landlord`).
    pub view: SeatView,
    /// The factor the show would give.
    pub factor: u32,
}

/// A request, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `hello`: the robot introduces itself.
    Hello,
    /// `act`: choose a play.
    Act(Box<ActRequest>),
    /// `bid`: take part in bidding.
    Bid(Box<BidRequest>),
    /// `double`: choose a doubling factor (加倍).
    Double(Box<DoubleRequest>),
    /// `show`: show the hand (明牌) now or not.
    Show(Box<ShowRequest>),
    /// `result`: the game is over.
    Result {
        /// The winning side, when given.
        winner: Option<Side>,
        /// The points of each seat, when given.
        scores: Option<[i64; 3]>,
    },
}

/// A request line that parsed: its `id` (any JSON value) and the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// The request's `id`, to echo in the reply.
    pub id: Value,
    /// The request.
    pub request: Request,
}

/// A request line that did not: its `id` (null when unknown) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The request's `id`, or null when the line was not a JSON object with one.
    pub id: Value,
    /// What was wrong.
    pub error: ProtocolError,
}

/// Parses and checks one request line. Fields that depend on rules are read under the
/// request's `rules` profile when given, else under `default_rules`; `laizi` (when given) sets
/// the wild ranks.
pub fn parse_request(line: &str, default_rules: &Rules) -> Result<Incoming, Rejection> {
    let value: Value = serde_json::from_str(line).map_err(|e| Rejection {
        id: Value::Null,
        error: ProtocolError::NotJson(e.to_string()),
    })?;
    let Value::Object(obj) = value else {
        return Err(Rejection {
            id: Value::Null,
            error: ProtocolError::NotObject,
        });
    };
    let id = obj.get("id").cloned().unwrap_or(Value::Null);
    match parse_object(&obj, default_rules) {
        Ok(request) => Ok(Incoming { id, request }),
        Err(error) => Err(Rejection { id, error }),
    }
}

fn parse_object(obj: &Map<String, Value>, default_rules: &Rules) -> Result<Request, ProtocolError> {
    match get(obj, "protocol")? {
        Value::String(p) if p == PROTOCOL => {}
        other => {
            let sent = other.to_string();
            return invalid_key("protocol", Problem::WrongProtocol(sent));
        }
    }
    if !obj.contains_key("id") {
        return Err(ProtocolError::Missing(Field::Key("id")));
    }
    let kind = string(obj, "type")?;
    match kind {
        "hello" => Ok(Request::Hello),
        "act" => parse_act(obj, default_rules).map(|a| Request::Act(Box::new(a))),
        "bid" => parse_bid(obj, default_rules).map(|b| Request::Bid(Box::new(b))),
        "double" => parse_double(obj, default_rules).map(|d| Request::Double(Box::new(d))),
        "show" => parse_show(obj, default_rules).map(|d| Request::Show(Box::new(d))),
        "result" => parse_result(obj),
        other => Err(ProtocolError::UnknownType(other.to_string())),
    }
}

// --- Field readers -------------------------------------------------------------------------

fn get<'a>(obj: &'a Map<String, Value>, key: &'static str) -> Result<&'a Value, ProtocolError> {
    obj.get(key).ok_or(ProtocolError::Missing(Field::Key(key)))
}

fn string<'a>(obj: &'a Map<String, Value>, key: &'static str) -> Result<&'a str, ProtocolError> {
    match get(obj, key)? {
        Value::String(s) => Ok(s),
        other => invalid_key(key, Problem::NotString(other.to_string())),
    }
}

/// A seat from a JSON value in `field`.
fn seat_value(v: &Value, field: Field) -> Result<Seat, ProtocolError> {
    match v
        .as_u64()
        .and_then(|i| u8::try_from(i).ok())
        .and_then(Seat::new)
    {
        Some(seat) => Ok(seat),
        None => invalid(field, Problem::NotSeat(v.to_string())),
    }
}

fn seat(obj: &Map<String, Value>, key: &'static str) -> Result<Seat, ProtocolError> {
    seat_value(get(obj, key)?, Field::Key(key))
}

/// Cards from a JSON string in canonical notation in `field`.
fn cards_value(v: &Value, field: Field) -> Result<Cards, ProtocolError> {
    match v {
        Value::String(s) => s
            .parse::<Cards>()
            .or_else(|e| invalid(field, Problem::Cards(e))),
        other => invalid(field, Problem::NotCardString(other.to_string())),
    }
}

fn cards(obj: &Map<String, Value>, key: &'static str) -> Result<Cards, ProtocolError> {
    cards_value(get(obj, key)?, Field::Key(key))
}

fn array<'a>(obj: &'a Map<String, Value>, key: &'static str) -> Result<&'a [Value], ProtocolError> {
    match get(obj, key)? {
        Value::Array(a) => Ok(a),
        other => invalid_key(key, Problem::NotArray(other.to_string())),
    }
}

/// An optional positive integer (the stake fields), 1 when absent.
fn stake(obj: &Map<String, Value>, key: &'static str) -> Result<u32, ProtocolError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(1),
        Some(v) => match v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= 1)
        {
            Some(n) => Ok(n),
            None => invalid_key(key, Problem::NotPositive(v.to_string())),
        },
    }
}

/// The rules of a request: its `rules` profile or the default, with its `laizi` applied.
fn request_rules(obj: &Map<String, Value>, default_rules: &Rules) -> Result<Rules, ProtocolError> {
    let rules = match obj.get("rules") {
        None | Some(Value::Null) => default_rules.clone(),
        Some(Value::String(name)) => match Rules::from_profile_name(name) {
            Ok(rules) => rules,
            Err(e) => return invalid_key("rules", Problem::UnknownProfile(e)),
        },
        Some(other) => {
            let sent = other.to_string();
            return invalid_key("rules", Problem::NotProfileName(sent));
        }
    };
    let Some(laizi) = obj.get("laizi").filter(|v| !v.is_null()) else {
        return Ok(rules);
    };
    let Value::Array(items) = laizi else {
        let sent = laizi.to_string();
        return invalid_key("laizi", Problem::NotRankArray(sent));
    };
    let ranks = items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let field = Field::Entry("laizi", i);
            let c = cards_value(v, field)?;
            match (c.len(), c.lowest()) {
                (1, Some(r)) => Ok(r),
                _ => invalid(field, Problem::NotOneRank(v.to_string())),
            }
        })
        .collect::<Result<Vec<Rank>, _>>()?;
    rules
        .with_laizi(&ranks)
        .or_else(|e| invalid_key("laizi", Problem::Laizi(e)))
}

fn role_of(obj: &Map<String, Value>) -> Result<Role, ProtocolError> {
    match string(obj, "role")? {
        "landlord" => Ok(Role::Landlord),
        "landlord_down" => Ok(Role::LandlordDown),
        "landlord_up" => Ok(Role::LandlordUp),
        other => invalid_key("role", Problem::UnknownRole(other.to_string())),
    }
}

// --- act -----------------------------------------------------------------------------------

/// The plays of a history, replayed ([`PublicPlay`]), with the play the last non-pass play
/// beat itself (the context it was read in).
struct Replayed {
    public: PublicPlay,
    context: Option<Move>,
}

/// Reads `history` in play order from the landlord's lead, checking turns, readings and that
/// no more cards are played than a deck holds.
fn replay_history(
    entries: &[Value],
    rules: &Rules,
    landlord: Seat,
) -> Result<Replayed, ProtocolError> {
    let mut r = Replayed {
        public: PublicPlay::new(landlord),
        context: None,
    };
    let mut all = Cards::EMPTY;
    for (i, entry) in entries.iter().enumerate() {
        let field = Field::Entry("history", i);
        let (s, text) = match entry.as_array().map(Vec::as_slice) {
            Some([s, Value::String(t)]) => (seat_value(s, field)?, t),
            _ => {
                return invalid(field, Problem::NotSeatMove(entry.to_string()));
            }
        };
        let turn = r.public.trick().turn();
        if s != turn {
            return invalid(field, Problem::PlaysOutOfTurn { seat: s, turn });
        }
        let beat = r.public.trick().to_beat().copied();
        let m = match parse_move(text, rules, beat.as_ref()) {
            Ok(m) => m,
            Err(error) => {
                let text = text.clone();
                return invalid(field, Problem::BadMove { text, error });
            }
        };
        if !m.is_pass() {
            all = all.union(m.cards());
            if !all.is_valid_deck_subset() {
                return invalid(field, Problem::MoreThanDeck { text: text.clone() });
            }
        }
        if let Err(e) = r.public.push(s, m, rules) {
            let problem = match e {
                ActionError::PassWhenLeading => Problem::PassWhenLeading { seat: s },
                error => Problem::Refused {
                    text: text.clone(),
                    error,
                },
            };
            return invalid(field, problem);
        }
        if !m.is_pass() {
            r.context = beat;
        }
    }
    Ok(r)
}

/// The request's `seat` and `landlord_seat`, checked against its `role`.
fn seat_and_landlord(obj: &Map<String, Value>) -> Result<(Seat, Seat), ProtocolError> {
    let me = seat(obj, "seat")?;
    let landlord = seat(obj, "landlord_seat")?;
    let given = role_of(obj)?;
    if given != Role::of(me, landlord) {
        let problem = Problem::WrongRole {
            seat: me,
            landlord,
            given,
        };
        return invalid_key("role", problem);
    }
    Ok((me, landlord))
}

fn parse_act(obj: &Map<String, Value>, default_rules: &Rules) -> Result<ActRequest, ProtocolError> {
    let rules = request_rules(obj, default_rules)?;
    let (me, landlord) = seat_and_landlord(obj)?;
    let hand = cards(obj, "hand")?;
    if hand.is_empty() {
        return invalid_key("hand", Problem::EmptyHand);
    }
    let cards_left = match array(obj, "cards_left")? {
        [a, b, c] => {
            let count = |v: &Value| match v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=20).contains(n))
            {
                Some(n) => Ok(n),
                None => invalid_key("cards_left", Problem::NotCardCount(v.to_string())),
            };
            BySeat([count(a)?, count(b)?, count(c)?])
        }
        other => {
            let given = other.len();
            return invalid_key("cards_left", Problem::NotThreeCounts { given });
        }
    };
    if cards_left[me] != hand.len() {
        let problem = Problem::CountIsNotHand {
            seat: me,
            left: cards_left[me],
            held: hand.len(),
        };
        return invalid_key("cards_left", problem);
    }

    let replayed = replay_history(array(obj, "history")?, &rules, landlord)?;
    let played = replayed.public.played();
    let turn = replayed.public.trick().turn();
    if turn != me {
        return invalid_key("seat", Problem::NotToPlay { turn, seat: me });
    }
    for (s, &left) in cards_left.iter() {
        let dealt = if s == landlord { 20 } else { 17 };
        let played = played[s].len();
        if left + played > dealt {
            let problem = Problem::MoreThanDealt {
                seat: s,
                left,
                played,
                dealt,
            };
            return invalid_key("cards_left", problem);
        }
    }
    let total = played
        .iter()
        .fold(Cards::EMPTY, |acc, (_, c)| acc.union(*c));
    if !hand.union(total).is_valid_deck_subset() {
        let problem = Problem::HandAndPlayed {
            hand,
            played: total,
        };
        return invalid_key("hand", problem);
    }
    if let Some(v) = obj.get("played").filter(|v| !v.is_null()) {
        let Some(items) = v.as_array().filter(|a| a.len() == 3) else {
            return invalid_key("played", Problem::NotThreeCardStrings(v.to_string()));
        };
        for (s, item) in Seat::ALL.into_iter().zip(items) {
            let field = Field::Entry("played", s.index());
            let given = cards_value(item, field)?;
            if given != played[s] {
                let problem = Problem::NotPlayed {
                    given,
                    seat: s,
                    played: played[s],
                };
                return invalid(field, problem);
            }
        }
    }
    if let Some(v) = obj.get("bottom_cards_unplayed").filter(|v| !v.is_null()) {
        let bottom = cards_value(v, Field::Key("bottom_cards_unplayed"))?;
        if bottom.len() > 3 {
            return invalid_key("bottom_cards_unplayed", Problem::KittyTooBig(bottom));
        }
        if me == landlord && !hand.contains(bottom) {
            return invalid_key("bottom_cards_unplayed", Problem::KittyNotInHand(bottom));
        }
    }

    let last = match get(obj, "last")? {
        Value::Null => None,
        Value::Object(l) => {
            let in_last = |key| l.get(key).ok_or(ProtocolError::Missing(Field::Last(key)));
            let s = seat_value(in_last("seat")?, Field::Last("seat"))?;
            if s == me {
                return invalid(Field::Last("seat"), Problem::LastIsOwn(s));
            }
            let text = match in_last("cards")? {
                Value::String(t) => t,
                other => {
                    let sent = other.to_string();
                    return invalid(Field::Last("cards"), Problem::NotMove(sent));
                }
            };
            let context = replayed.context;
            let m = match parse_move(text, &rules, context.as_ref()) {
                Ok(m) => m,
                Err(error) => {
                    let text = text.clone();
                    return invalid(Field::Last("cards"), Problem::BadMove { text, error });
                }
            };
            if m.is_pass() {
                return invalid(Field::Last("cards"), Problem::PassToBeat);
            }
            Some((s, m))
        }
        other => {
            return invalid_key("last", Problem::NotLast(other.to_string()));
        }
    };
    let derived = replayed.public.trick().last();
    if last != derived {
        let written =
            |play: Option<(Seat, Move)>| play.map(|(s, m)| (s, move_notation(&m, &rules)));
        let problem = Problem::LastMismatch {
            given: written(last),
            derived: written(derived),
        };
        return invalid_key("last", problem);
    }

    let beat = last.map(|(_, m)| m);
    let allowed = match obj.get("legal_moves").filter(|v| !v.is_null()) {
        None => legal_moves(hand, beat.as_ref(), &rules),
        Some(Value::Array(items)) if items.is_empty() => {
            return invalid_key("legal_moves", Problem::NoLegalMoves);
        }
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| allowed_move(i, v, hand, beat.as_ref(), &rules))
            .collect::<Result<Vec<Move>, _>>()?,
        Some(other) => {
            return invalid_key("legal_moves", Problem::NotArray(other.to_string()));
        }
    };

    let view = SeatView::playing(&rules, me, landlord, hand, cards_left, replayed.public)
        .with_stake(stake(obj, "base")?, stake(obj, "multiplier")?);
    let view = read_variants(obj, view)?;
    Ok(ActRequest { view, allowed })
}

/// One entry of `legal_moves`, read against the play to beat and checked legal for the hand.
fn allowed_move(
    i: usize,
    v: &Value,
    hand: Cards,
    beat: Option<&Move>,
    rules: &Rules,
) -> Result<Move, ProtocolError> {
    let field = Field::Entry("legal_moves", i);
    let Value::String(text) = v else {
        return invalid(field, Problem::NotMove(v.to_string()));
    };
    let m = match parse_move(text, rules, beat) {
        Ok(m) => m,
        Err(error) => {
            let text = text.clone();
            return invalid(field, Problem::BadMove { text, error });
        }
    };
    if is_legal(hand, beat, &m, rules) {
        return Ok(m);
    }
    let why = if m.is_pass() {
        Disallowed::PassWhenLeading
    } else if !hand.contains(m.cards()) {
        Disallowed::NotInHand(m.cards())
    } else {
        Disallowed::NotLegal
    };
    let text = text.clone();
    invalid(field, Problem::NotAllowed { text, why })
}

// --- bid -----------------------------------------------------------------------------------

fn parse_bid(obj: &Map<String, Value>, default_rules: &Rules) -> Result<BidRequest, ProtocolError> {
    let mut rules = request_rules(obj, default_rules)?;
    rules.bidding = match obj.get("form") {
        None | Some(Value::Null) => match rules.bidding {
            Bidding::CallRob => Bidding::CallRob,
            _ => Bidding::Points,
        },
        Some(Value::String(f)) if f == "points" => Bidding::Points,
        Some(Value::String(f)) if f == "call_rob" => Bidding::CallRob,
        Some(other) => {
            return invalid_key("form", Problem::UnknownForm(other.to_string()));
        }
    };
    let me = seat(obj, "seat")?;
    let hand = cards(obj, "hand")?;
    if hand.is_empty() || hand.len() > 20 {
        return invalid_key("hand", Problem::BidHandSize(hand.len()));
    }
    let entries = match obj.get("bids") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(a)) => a.as_slice(),
        Some(other) => {
            return invalid_key("bids", Problem::NotArray(other.to_string()));
        }
    };
    let mut bids: Vec<(Seat, Bid)> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let field = Field::Entry("bids", i);
        let (s, b) = match entry.as_array().map(Vec::as_slice) {
            Some([s, b]) => (seat_value(s, field)?, b),
            _ => {
                return invalid(field, Problem::NotSeatBid(entry.to_string()));
            }
        };
        let top = if rules.bidding == Bidding::Points {
            3
        } else {
            1
        };
        let Some(b) = b
            .as_u64()
            .and_then(|b| u8::try_from(b).ok())
            .filter(|&b| b <= top)
        else {
            return invalid(
                field,
                Problem::BidRange {
                    sent: b.to_string(),
                    top,
                },
            );
        };
        let high = bids.iter().map(|x| x.1).max().unwrap_or(0);
        if rules.bidding == Bidding::Points {
            if let Some(&(prev, _)) = bids.last()
                && s != prev.next()
            {
                let problem = Problem::BidsOutOfTurn {
                    seat: s,
                    turn: prev.next(),
                };
                return invalid(field, problem);
            }
            if b != 0 && b <= high {
                return invalid(field, Problem::BidNotAbove { bid: b, high });
            }
        }
        bids.push((s, b));
    }
    if let Some(&(last, _)) = bids.last() {
        let over =
            rules.bidding == Bidding::Points && (bids.len() >= 3 || bids.iter().any(|b| b.1 == 3));
        if over {
            return invalid_key("bids", Problem::BiddingOver);
        }
        if last == me || (rules.bidding == Bidding::Points && last.next() != me) {
            return invalid_key("seat", Problem::CannotBidAfter { seat: me, last });
        }
    }
    let view = read_variants(obj, SeatView::bidding(&rules, me, hand, bids))?;
    let allowed = view.legal_bids();
    Ok(BidRequest { view, allowed })
}

// --- shown hands and doublings, double, show ---------------------------------------------

/// Reads the optional `shown` (each shown seat's current hand) and `doubling` (each seat's
/// factor or null) into `view`, checking the shown hands against the counts of cards left
/// and the seat's own hand.
fn read_variants(obj: &Map<String, Value>, view: SeatView) -> Result<SeatView, ProtocolError> {
    let mut shown = *view.shown();
    let mut doublings = *view.doublings();
    if let Some(v) = obj.get("shown").filter(|v| !v.is_null()) {
        let Value::Object(map) = v else {
            return invalid_key("shown", Problem::NotShown(v.to_string()));
        };
        let mut all = view.hand();
        for (key, cards) in map {
            let s = match key
                .parse::<u8>()
                .ok()
                .and_then(|i| Seat::ALL.get(usize::from(i)))
            {
                Some(&s) => s,
                None => return invalid_key("shown", Problem::NotSeat(format!("\"{key}\""))),
            };
            let c = cards_value(cards, Field::Key("shown"))?;
            if s == view.seat() {
                if c != view.hand() {
                    let problem = Problem::ShownCount {
                        seat: s,
                        shown: c.len(),
                        left: view.hand().len(),
                    };
                    return invalid_key("shown", problem);
                }
            } else {
                all = all.union(c);
            }
            if view.phase() != Phase::Dealing && c.len() != view.cards_left()[s] {
                let problem = Problem::ShownCount {
                    seat: s,
                    shown: c.len(),
                    left: view.cards_left()[s],
                };
                return invalid_key("shown", problem);
            }
            shown[s] = Some(c);
        }
        if !all.is_valid_deck_subset() {
            return invalid_key("shown", Problem::ShownAndHand(all));
        }
    }
    if let Some(v) = obj.get("doubling").filter(|v| !v.is_null()) {
        let bad = || invalid_key("doubling", Problem::NotDoublings(v.to_string()));
        let Some([a, b, c]) = v.as_array().map(Vec::as_slice) else {
            return bad();
        };
        let factor = |x: &Value| match x {
            Value::Null => Ok(None),
            x => match x.as_u64().and_then(|n| u32::try_from(n).ok()) {
                Some(n) if n >= 1 => Ok(Some(n)),
                _ => Err(()),
            },
        };
        match (factor(a), factor(b), factor(c)) {
            (Ok(a), Ok(b), Ok(c)) => doublings = BySeat([a, b, c]),
            _ => return bad(),
        }
    }
    let shows = view.shows().to_vec();
    Ok(view.with_shows(shows, shown).with_doublings(doublings))
}

/// Checks that `hand` has the size a seat holds once the landlord has the kitty.
fn dealt_hand(hand: Cards, me: Seat, landlord: Seat) -> Result<(), ProtocolError> {
    let (dealt, expected) = if me == landlord {
        (20, "20 (the landlord's, with the kitty)")
    } else {
        (17, "17 (a farmer's)")
    };
    if hand.len() != dealt {
        let held = hand.len();
        return invalid_key("hand", Problem::HandSize { held, expected });
    }
    Ok(())
}

/// The view of a seat once the landlord has the kitty and before the first play (a `double`
/// request, or a `show` request in the `landlord` window), in `phase`.
fn before_play_view(
    obj: &Map<String, Value>,
    rules: &Rules,
    phase: Phase,
) -> Result<SeatView, ProtocolError> {
    let (me, landlord) = seat_and_landlord(obj)?;
    let hand = cards(obj, "hand")?;
    dealt_hand(hand, me, landlord)?;
    let dealt = BySeat::from_fn(|s| if s == landlord { 20 } else { 17 });
    if let Some(v) = obj.get("cards_left").filter(|v| !v.is_null())
        && v != &json!(dealt.0)
    {
        return invalid_key("cards_left", Problem::NotCardCount(v.to_string()));
    }
    let mut kitty = None;
    if let Some(v) = obj.get("bottom_cards_unplayed").filter(|v| !v.is_null()) {
        let bottom = cards_value(v, Field::Key("bottom_cards_unplayed"))?;
        if bottom.len() > 3 {
            return invalid_key("bottom_cards_unplayed", Problem::KittyTooBig(bottom));
        }
        if me == landlord && !hand.contains(bottom) {
            return invalid_key("bottom_cards_unplayed", Problem::KittyNotInHand(bottom));
        }
        kitty = Some(bottom);
    }
    let view = SeatView::playing(rules, me, landlord, hand, dealt, PublicPlay::new(landlord))
        .with_phase(phase)
        .with_kitty(kitty)
        .with_stake(stake(obj, "base")?, stake(obj, "multiplier")?);
    read_variants(obj, view)
}

fn parse_double(
    obj: &Map<String, Value>,
    default_rules: &Rules,
) -> Result<DoubleRequest, ProtocolError> {
    let rules = request_rules(obj, default_rules)?;
    let view = before_play_view(obj, &rules, Phase::Doubling)?;
    let v = get(obj, "choices")?;
    let choices: Option<Vec<u32>> = v.as_array().and_then(|items| {
        items
            .iter()
            .map(|x| {
                x.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n >= 1)
            })
            .collect()
    });
    match choices {
        Some(choices) if !choices.is_empty() => Ok(DoubleRequest { view, choices }),
        _ => invalid_key("choices", Problem::NotChoices(v.to_string())),
    }
}

fn parse_show(
    obj: &Map<String, Value>,
    default_rules: &Rules,
) -> Result<ShowRequest, ProtocolError> {
    let rules = request_rules(obj, default_rules)?;
    let v = get(obj, "factor")?;
    let factor = match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
        Some(n) if n >= 1 => n,
        _ => return invalid_key("factor", Problem::NotPositive(v.to_string())),
    };
    let view = match get(obj, "window")? {
        Value::String(w) if w == "landlord" => {
            let view = before_play_view(obj, &rules, Phase::LandlordShow)?;
            if view.landlord() != Some(view.seat()) {
                let problem = Problem::NotLandlordWindow {
                    seat: view.seat(),
                    landlord: view.landlord().unwrap_or(view.seat()),
                };
                return invalid_key("window", problem);
            }
            view
        }
        Value::String(w) if w == "start" || w == "deal" => {
            let me = seat(obj, "seat")?;
            let hand = match obj.get("hand") {
                None | Some(Value::Null) => Cards::EMPTY,
                Some(v) => cards_value(v, Field::Key("hand"))?,
            };
            let (ok, expected) = if w == "start" {
                (hand.is_empty(), "none (before the deal)")
            } else {
                ((1..=16).contains(&hand.len()), "1 to 16 (during the deal)")
            };
            if !ok {
                let held = hand.len();
                return invalid_key("hand", Problem::HandSize { held, expected });
            }
            let view = SeatView::bidding(&rules, me, hand, Vec::new())
                .with_phase(Phase::Dealing)
                .with_cards_left(BySeat([hand.len(); 3]));
            read_variants(obj, view)?
        }
        other => return invalid_key("window", Problem::UnknownWindow(other.to_string())),
    };
    Ok(ShowRequest { view, factor })
}

// --- result --------------------------------------------------------------------------------

fn parse_result(obj: &Map<String, Value>) -> Result<Request, ProtocolError> {
    let winner = match obj.get("winner") {
        None | Some(Value::Null) => None,
        Some(Value::String(w)) if w == "landlord" => Some(Side::Landlord),
        Some(Value::String(w)) if w == "farmers" => Some(Side::Farmers),
        Some(other) => {
            return invalid_key("winner", Problem::UnknownWinner(other.to_string()));
        }
    };
    let scores = match obj.get("scores") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_array().map(Vec::as_slice) {
            Some([a, b, c]) => match (a.as_i64(), b.as_i64(), c.as_i64()) {
                (Some(a), Some(b), Some(c)) => Some([a, b, c]),
                _ => {
                    return invalid_key("scores", Problem::NotScores(v.to_string()));
                }
            },
            _ => {
                return invalid_key("scores", Problem::NotScores(v.to_string()));
            }
        },
    };
    Ok(Request::Result { winner, scores })
}

// --- Replies -------------------------------------------------------------------------------

/// The reply to `hello`: `{"id", "name", "version", "protocol"}`.
pub fn hello_reply(id: &Value, name: &str) -> Value {
    json!({"id": id, "name": name, "version": env!("CARGO_PKG_VERSION"), "protocol": PROTOCOL})
}

/// The reply to `act`: `{"id", "cards"}`, the move in the shortest notation that names it
/// exactly under `rules` (so wild and declared readings round-trip).
pub fn act_reply(id: &Value, m: &Move, rules: &Rules) -> Value {
    json!({"id": id, "cards": move_notation(m, rules)})
}

/// The reply to `bid`: `{"id", "bid"}`.
pub fn bid_reply(id: &Value, bid: Bid) -> Value {
    json!({"id": id, "bid": bid})
}

/// The reply to `double`: `{"id", "double"}`.
pub fn double_reply(id: &Value, factor: u32) -> Value {
    json!({"id": id, "double": factor})
}

/// The reply to `show`: `{"id", "show"}`.
pub fn show_reply(id: &Value, show: bool) -> Value {
    json!({"id": id, "show": show})
}

/// The reply to `result`: `{"id", "ok": true}`.
pub fn result_reply(id: &Value) -> Value {
    json!({"id": id, "ok": true})
}

/// The reply to a request that cannot be served: `{"id", "error"}`.
pub fn error_reply(id: &Value, message: &str) -> Value {
    json!({"id": id, "error": message})
}

/// The reply of `bot` (introducing itself as `name`) to one request line.
pub fn answer(bot: &mut dyn Bot, name: &str, default_rules: &Rules, line: &str) -> Value {
    match parse_request(line, default_rules) {
        Ok(incoming) => reply(bot, name, incoming),
        Err(r) => error_reply(&r.id, &r.error.to_string()),
    }
}

/// The reply of `bot` (introducing itself as `name`) to a request already parsed and checked
/// ([`parse_request`]): what [`answer`] writes for its line. A robot that chooses an action it
/// was not allowed gets an error reply naming that.
pub fn reply(bot: &mut dyn Bot, name: &str, incoming: Incoming) -> Value {
    let Incoming { id, request } = incoming;
    match request {
        Request::Hello => hello_reply(&id, name),
        Request::Act(act) => {
            let m = bot.play(&act.view, &act.allowed);
            if act.allowed.contains(&m) {
                act_reply(&id, &m, act.view.rules())
            } else {
                error_reply(&id, "the robot chose a play it was not allowed")
            }
        }
        Request::Bid(b) => {
            let bid = bot.bid(&b.view, &b.allowed);
            if b.allowed.contains(&bid) {
                bid_reply(&id, bid)
            } else {
                error_reply(&id, "the robot chose a bid it was not allowed")
            }
        }
        Request::Double(d) => {
            let factor = bot.double(&d.view, &d.choices);
            if d.choices.contains(&factor) {
                double_reply(&id, factor)
            } else {
                error_reply(&id, "the robot chose a doubling factor it was not allowed")
            }
        }
        Request::Show(r) => show_reply(&id, bot.show(&r.view, r.factor)),
        Request::Result { .. } => result_reply(&id),
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (without its line end). Returns
/// `None` at the end of input, `Some(false)` for a line, `Some(true)` for a line too long
/// (skipped to its end without being kept).
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let n = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Some(false));
    }
    if buf.len() <= MAX_LINE {
        // The last line, without a line end.
        return Ok(Some(false));
    }
    buf.clear();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                break;
            }
            None => {
                let len = chunk.len();
                input.consume(len);
            }
        }
    }
    Ok(Some(true))
}

/// Serves `bot` (introducing itself as `name`) over the protocol: reads request lines from
/// `input` until its end and writes exactly one reply line for each to `output`, flushed.
/// Bad requests (and a robot that panics) get an error reply and serving goes on; only an
/// input or output error stops it.
pub fn serve(
    bot: &mut dyn Bot,
    name: &str,
    default_rules: &Rules,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    while let Some(too_long) = read_line(&mut input, &mut buf)? {
        let reply = if too_long {
            error_reply(
                &Value::Null,
                &format!("line longer than {MAX_LINE} bytes: not read"),
            )
        } else {
            match std::str::from_utf8(&buf) {
                Err(e) => error_reply(&Value::Null, &format!("not JSON: not UTF-8 ({e})")),
                Ok(line) => {
                    catch_unwind(AssertUnwindSafe(|| answer(bot, name, default_rules, line)))
                        .unwrap_or_else(|_| {
                            let id =
                                parse_request(line, default_rules).map_or_else(|r| r.id, |i| i.id);
                            error_reply(&id, "internal error: the robot failed on this request")
                        })
                }
            }
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}

// --- Requests, for a controller ------------------------------------------------------------

/// The wild ranks of rules, as the protocol writes them: `["9"]`.
fn laizi_value(rules: &Rules) -> Value {
    rules.laizi.iter().map(|r| r.letter().to_string()).collect()
}

/// An `act` request for the seat of `view` (which must be playing), allowed `legal` when
/// given. The rules are named by their profile.
pub fn act_request(id: &Value, view: &SeatView, legal: Option<&[Move]>) -> Value {
    let rules = &view.rules();
    let notation = |m: &Move| move_notation(m, rules);
    let landlord = view.landlord().unwrap_or(view.seat());
    let bottom = view
        .kitty()
        .map(|k| k.saturating_minus(view.played()[landlord]))
        .unwrap_or(Cards::EMPTY);
    let mut req = json!({
        "protocol": PROTOCOL, "type": "act", "id": id,
        "rules": rules.profile.name(), "laizi": laizi_value(rules),
        "seat": view.seat().index(), "landlord_seat": landlord.index(),
        "role": Role::of(view.seat(), landlord).name(),
        "hand": view.hand().to_string(),
        "cards_left": view.cards_left().0,
        "played": view.played().0.map(|c| c.to_string()),
        "bottom_cards_unplayed": bottom.to_string(),
        "history": view.history().iter().map(|(s, m)| json!([s.index(), notation(m)]))
            .collect::<Vec<_>>(),
        "last": view.last().map(|(s, m)| json!({"seat": s.index(), "cards": notation(&m)})),
        "multiplier": view.multiplier(), "base": view.base(),
    });
    if let (Some(legal), Value::Object(obj)) = (legal, &mut req) {
        let moves: Vec<String> = legal.iter().map(notation).collect();
        obj.insert("legal_moves".into(), json!(moves));
    }
    add_variants(&mut req, view);
    req
}

/// A `bid` request for the seat of `view` (which must be bidding).
pub fn bid_request(id: &Value, view: &SeatView) -> Value {
    let form = match view.rules().bidding {
        Bidding::CallRob => "call_rob",
        _ => "points",
    };
    let mut req = json!({
        "protocol": PROTOCOL, "type": "bid", "id": id,
        "rules": view.rules().profile.name(), "form": form, "laizi": laizi_value(view.rules()),
        "seat": view.seat().index(), "hand": view.hand().to_string(),
        "bids": view.bids().iter().map(|(s, b)| json!([s.index(), b])).collect::<Vec<_>>(),
    });
    add_variants(&mut req, view);
    req
}

/// Whether the rules of a view have the app variants (showing or doubling), whose requests
/// carry `shown` and `doubling`.
fn has_variants(rules: &Rules) -> bool {
    rules.show.enabled || rules.doubling.enabled
}

/// Adds `shown` (each shown seat's current hand) and `doubling` (each seat's factor or null)
/// to `req` when the view's rules have the app variants.
fn add_variants(req: &mut Value, view: &SeatView) {
    if !has_variants(view.rules()) {
        return;
    }
    if let Value::Object(obj) = req {
        let shown: Map<String, Value> = view
            .shown()
            .iter()
            .filter_map(|(s, c)| c.map(|c| (s.index().to_string(), json!(c.to_string()))))
            .collect();
        obj.insert("shown".into(), Value::Object(shown));
        obj.insert("doubling".into(), json!(view.doublings().0));
    }
}

/// The fields of a seat once the landlord is decided and before play (`double`, `show` in
/// the `landlord` window).
fn before_play_fields(req: &mut Value, view: &SeatView) {
    let landlord = view.landlord().unwrap_or(view.seat());
    if let Value::Object(obj) = req {
        obj.insert("landlord_seat".into(), json!(landlord.index()));
        let role = Role::of(view.seat(), landlord).name();
        obj.insert("role".into(), json!(role));
        obj.insert("cards_left".into(), json!(view.cards_left().0));
        let kitty = view.kitty().unwrap_or(Cards::EMPTY).to_string();
        obj.insert("bottom_cards_unplayed".into(), json!(kitty));
        obj.insert("multiplier".into(), json!(view.multiplier()));
        obj.insert("base".into(), json!(view.base()));
    }
}

/// A `double` request for the seat of `view` (the landlord has the kitty), allowed `choices`.
pub fn double_request(id: &Value, view: &SeatView, choices: &[u32]) -> Value {
    let mut req = json!({
        "protocol": PROTOCOL, "type": "double", "id": id,
        "rules": view.rules().profile.name(), "laizi": laizi_value(view.rules()),
        "seat": view.seat().index(), "hand": view.hand().to_string(), "choices": choices,
    });
    before_play_fields(&mut req, view);
    add_variants(&mut req, view);
    req
}

/// A `show` request for the seat of `view` in its show window (`start` before the deal,
/// `deal` during it, `landlord` after doubling), for `factor`.
pub fn show_request(id: &Value, view: &SeatView, factor: u32) -> Value {
    let window = match view.phase() {
        Phase::LandlordShow => "landlord",
        _ if view.hand().is_empty() => "start",
        _ => "deal",
    };
    let mut req = json!({
        "protocol": PROTOCOL, "type": "show", "id": id,
        "rules": view.rules().profile.name(), "laizi": laizi_value(view.rules()),
        "seat": view.seat().index(), "hand": view.hand().to_string(),
        "window": window, "factor": factor,
    });
    match (window, &mut req) {
        ("landlord", _) => before_play_fields(&mut req, view),
        ("deal", Value::Object(obj)) => {
            obj.insert("cards_dealt".into(), json!(view.hand().len()));
        }
        _ => {}
    }
    add_variants(&mut req, view);
    req
}

/// A `result` request for a finished game.
pub fn result_request(id: &Value, result: &GameResult) -> Value {
    let winner = match result.winner {
        Side::Landlord => "landlord",
        Side::Farmers => "farmers",
    };
    json!({"protocol": PROTOCOL, "type": "result", "id": id, "winner": winner,
           "scores": result.scores.0})
}
