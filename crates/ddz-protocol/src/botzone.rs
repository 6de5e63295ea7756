//! Botzone's Dou Dizhu games, FightTheLandlord and FightTheLandlord2 (PROTOCOL.md,
//! docs/protocol.md): a robot answering Botzone's JSON input.
//!
//! Botzone starts the program once a turn and writes one line
//! `{"requests": [...], "responses": [...], "data": ..., "globaldata": ...}`: every request so
//! far (the last is the current one) and this bot's earlier responses. [`read_turn`] rebuilds
//! the game from them (the seat, the landlord, every seat's plays and cards left, the play to
//! beat, this bot's hand) and returns the [`Turn`]: a bid or a play, with the seat's
//! [`SeatView`] and what it may do. [`choose`] asks a [`Bot`] and checks its answer; a
//! [`Session`] keeps the requests and responses of a game; [`serve`] runs the whole exchange,
//! with or without Botzone's keep-running mode ([`KEEP_RUNNING`]).
//!
//! Cards are Botzone ids 0-53 (RULES.md section 1); plays are read under [`Rules::botzone`]
//! (FightTheLandlord2 with points bidding 0-3). `data` and `globaldata` are ignored.
//!
//! ```
//! use ddz_bots::make_bot;
//! use ddz_protocol::botzone;
//!
//! let mut bot = make_bot("greedy", 1).unwrap();
//! // FightTheLandlord, seat 0 (the landlord, 20 cards) leads.
//! let input = concat!(
//!     r#"{"requests": [{"own": [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29,"#,
//!     r#" 32, 33, 36, 37], "history": [[], []], "publiccard": [33, 36, 37]}], "responses": []}"#,
//! );
//! let mut session = botzone::Session::from_input(input).unwrap();
//! assert_eq!(session.answer(bot.as_mut()).unwrap().to_string(), r#"{"response":[0]}"#);
//! ```

use core::fmt;
use std::io::{self, BufRead, Write};

use ddz_core::{
    Bidding, CardSet, Cards, Move, ParseCardsError, Rules, classify, default_reading, legal_moves,
};
use ddz_game::{ActionError, Bid, BySeat, PublicPlay, Seat, SeatView};
use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::sent::{Sent, fields};

use ddz_bots::Bot;

/// The line a bot prints after its answer to ask Botzone to keep it running; later requests
/// then come one a line, each the bare request object.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

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
fn invalid<T>(place: Place, problem: Problem) -> Result<T, BotzoneError> {
    Err(BotzoneError::Invalid {
        place,
        problem: Box::new(problem),
    })
}

/// What the bot must do on the current request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// FightTheLandlord2's bidding: answer a bid.
    Bid {
        /// The seat's view during bidding (its 17 cards, the earlier bids, points bidding).
        view: SeatView,
        /// The bids allowed: 0 and every bid above the highest earlier one ([`SeatView::legal_bids`]).
        allowed: Vec<Bid>,
    },
    /// A play.
    Play {
        /// The seat's view, rebuilt from the requests and responses.
        view: SeatView,
        /// Every legal move of the hand under the rules, against the play to beat.
        allowed: Vec<Move>,
        /// The seat's physical cards, from which a chosen move's ids are taken.
        hand: CardSet,
    },
}

// --- Reading the input ---------------------------------------------------------------------

/// Botzone's input line: every request so far and this bot's earlier responses (`data` and
/// `globaldata` are not read).
#[derive(Default, Deserialize)]
#[serde(default)]
struct Input {
    requests: Sent<Vec<Value>>,
    responses: Sent<Vec<Value>>,
}

/// Splits Botzone's input line into its requests and responses (`data` and `globaldata` are
/// ignored; a missing or null `responses` is empty). Each request and response is kept as the
/// JSON value sent; [`read_turn`] reads them.
pub fn parse_input(line: &str) -> Result<(Vec<Value>, Vec<Value>), BotzoneError> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| BotzoneError::NotJson(e.to_string()))?;
    let Some(input) = fields::<Input>(&value) else {
        return Err(BotzoneError::NotObject);
    };
    let requests = match input.requests.present() {
        None => return Err(BotzoneError::NoRequests),
        Some(Ok(requests)) if requests.is_empty() => {
            return invalid(Place::Requests, Problem::Empty);
        }
        Some(Ok(requests)) => requests,
        Some(Err(text)) => return invalid(Place::Requests, Problem::NotArray(text)),
    };
    let responses = match input.responses.given() {
        None => Vec::new(),
        Some(Ok(responses)) => responses,
        Some(Err(text)) => return invalid(Place::Responses, Problem::NotArray(text)),
    };
    Ok((requests, responses))
}

/// A JSON array as the text sent, for [`ddz_core::parse_botzone_ids`] to read its ids (and
/// name the item that is not one).
struct IdArray(String);

impl<'de> Deserialize<'de> for IdArray {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let items = Vec::<Value>::deserialize(deserializer)?;
        Ok(IdArray(Value::Array(items).to_string()))
    }
}

/// The fields of one request, as FightTheLandlord and FightTheLandlord2 send them.
#[derive(Default, Deserialize)]
#[serde(default)]
struct RequestFields {
    /// This bot's dealt cards (the first request).
    own: Sent<IdArray>,
    /// The earlier bids (FightTheLandlord2's bidding request).
    bid: Sent<Vec<Sent<u64>>>,
    /// The plays of the next and the previous seat since this bot's last turn.
    history: Sent<[Sent<IdArray>; 2]>,
    /// The kitty (`public` in some of Botzone's examples).
    publiccard: Sent<IdArray>,
    public: Sent<IdArray>,
    /// FightTheLandlord2: the landlord's seat, this bot's seat and the winning bid.
    landlord: Sent<u64>,
    pos: Sent<u64>,
    finalbid: Sent<u64>,
}

/// A response or a field read as `T` (what was sent kept when it is not one).
fn read<T: serde::de::DeserializeOwned>(value: &Value) -> Sent<T> {
    Sent::deserialize(value).unwrap_or_else(|_| Sent::Other(value.to_string()))
}

/// Physical cards from a JSON array of ids at `place`.
fn ids(sent: Result<IdArray, String>, place: Place) -> Result<CardSet, BotzoneError> {
    match sent {
        Ok(IdArray(text)) => {
            ddz_core::parse_botzone_ids(&text).or_else(|e| invalid(place, Problem::Ids(e)))
        }
        Err(text) => invalid(place, Problem::NotIdArray(text)),
    }
}

/// The ids of a set, ascending, as a JSON array (`[0,4,53]`).
fn id_array(set: CardSet) -> String {
    ddz_core::format_botzone_ids(set)
}

/// A whole number within `low..=high` sent at `place`.
fn number(sent: Result<u64, String>, place: Place, low: u8, high: u8) -> Result<u8, BotzoneError> {
    let n = sent
        .as_ref()
        .ok()
        .and_then(|&n| u8::try_from(n).ok())
        .filter(|n| (low..=high).contains(n));
    match (n, sent) {
        (Some(n), _) => Ok(n),
        (None, sent) => {
            let sent = sent.map_or_else(|text| text, |n| n.to_string());
            invalid(place, Problem::NotNumber { sent, low, high })
        }
    }
}

/// A seat (0, 1 or 2) from field `key` of request `i`.
fn seat_field(sent: Sent<u64>, key: &'static str, i: usize) -> Result<Seat, BotzoneError> {
    let Some(sent) = sent.present() else {
        return invalid(Place::Request(i), Problem::Missing(key));
    };
    let place = Place::RequestField(i, key);
    let n = number(sent, place, 0, 2)?;
    Seat::new(n).map_or_else(|| invalid(place, Problem::NotSeat(n)), Ok)
}

/// The play `cards` make against `beat`: the reading that beats it, or the default reading
/// when leading.
fn read_play(cards: Cards, beat: Option<&Move>, rules: &Rules) -> Option<Move> {
    match beat {
        None => default_reading(cards, rules),
        Some(b) => classify(cards, rules)
            .into_iter()
            .find(|m| m.beats(b, rules)),
    }
}

/// The game as rebuilt so far: the plays as everyone saw them ([`PublicPlay`]) and the
/// physical cards.
struct Rebuilt {
    rules: Rules,
    me: Seat,
    landlord: Seat,
    public: CardSet,
    hand: CardSet,
    /// Every physical card played so far.
    gone: CardSet,
    cards_left: BySeat<u32>,
    play: PublicPlay,
    base: u32,
    bids: Vec<(Seat, Bid)>,
}

impl Rebuilt {
    /// Applies one play (`[]` a pass) by `seat`, given at `place`.
    fn apply(&mut self, seat: Seat, set: CardSet, place: Place) -> Result<(), BotzoneError> {
        if let Some((s, _)) = self.cards_left.iter().find(|(_, n)| **n == 0) {
            return invalid(place, Problem::GameOver { seat: s });
        }
        if set.is_empty() {
            if self.play.trick().leading() {
                return invalid(place, Problem::PassWhenLeading { seat });
            }
            return self.push(seat, Move::PASS, place);
        }
        let owner_ok = if seat == self.me {
            self.hand.bits() & set.bits() == set.bits()
        } else {
            let mut foreign = self.hand.bits() | self.gone.bits();
            if seat != self.landlord {
                foreign |= self.public.bits();
            }
            foreign & set.bits() == 0
        };
        if !owner_ok {
            return invalid(place, Problem::CannotHold { seat, cards: set });
        }
        let cards = set.to_cards();
        if cards.len() > self.cards_left[seat] {
            let problem = Problem::TooManyCards {
                seat,
                played: cards.len(),
                left: self.cards_left[seat],
            };
            return invalid(place, problem);
        }
        let beat = self.play.trick().to_beat().copied();
        let Some(m) = read_play(cards, beat.as_ref(), &self.rules) else {
            let problem = match beat {
                None => Problem::NotCombination(set),
                Some(b) => Problem::DoesNotBeat {
                    cards: set,
                    beat: b.cards(),
                },
            };
            return invalid(place, problem);
        };
        if seat == self.me {
            self.hand = CardSet::from_bits(self.hand.bits() & !set.bits()).unwrap_or_default();
        }
        self.gone = CardSet::from_bits(self.gone.bits() | set.bits()).unwrap_or_default();
        self.cards_left[seat] -= cards.len();
        self.push(seat, m, place)
    }

    /// Adds `m` by `seat` to the plays, checked by the trick's rules.
    fn push(&mut self, seat: Seat, m: Move, place: Place) -> Result<(), BotzoneError> {
        self.play
            .push(seat, m, &self.rules)
            .or_else(|e| invalid(place, Problem::Refused(e)))
    }

    /// The current turn (the last request's, at `place`): this bot's play.
    fn turn(self, place: Place) -> Result<Turn, BotzoneError> {
        if let Some((s, _)) = self.cards_left.iter().find(|(_, n)| **n == 0) {
            return invalid(place, Problem::GameOver { seat: s });
        }
        let hand = self.hand.to_cards();
        let allowed = legal_moves(hand, self.play.trick().to_beat(), &self.rules);
        let view = SeatView::playing(
            &self.rules,
            self.me,
            self.landlord,
            hand,
            self.cards_left,
            self.play,
        )
        .with_kitty(Some(self.public.to_cards()))
        .with_bids(self.bids);
        // The multiplier of the history's bombs, at the base Botzone's bids set.
        let multiplier = view.multiplier();
        let view = view.with_stake(self.base, multiplier);
        Ok(Turn::Play {
            view,
            allowed,
            hand: self.hand,
        })
    }
}

/// The fields of request `i`, which must be an object.
fn request_fields(i: usize, v: &Value) -> Result<RequestFields, BotzoneError> {
    fields(v).map_or_else(
        || invalid(Place::Request(i), Problem::NotObject(v.to_string())),
        Ok,
    )
}

/// The earlier bids of a FightTheLandlord2 bidding request (`requests[0].bid`), checked:
/// seat 0 bids first, each bid 0 (pass) or above the highest before it, and nobody has bid 3.
fn earlier_bids(sent: Result<Vec<Sent<u64>>, String>) -> Result<Vec<(Seat, Bid)>, BotzoneError> {
    let place = Place::RequestField(0, "bid");
    let items = match sent {
        Ok(items) => items,
        Err(text) => return invalid(place, Problem::NotBidArray(text)),
    };
    if items.len() > 2 {
        return invalid(place, Problem::TooManyBids(items.len()));
    }
    let mut bids = Vec::with_capacity(items.len());
    let mut high = 0;
    for (seat, item) in Seat::ALL.into_iter().zip(items) {
        let place = Place::RequestEntry(0, "bid", seat.index());
        let b = number(item.sent(), place, 0, 3)?;
        if high == 3 {
            return invalid(place, Problem::BiddingEnded);
        }
        if b != 0 && b <= high {
            return invalid(place, Problem::BidNotAbove { bid: b, high });
        }
        high = high.max(b);
        bids.push((seat, b));
    }
    Ok(bids)
}

/// The rules of FightTheLandlord2: the botzone profile with points bidding.
fn bidding_rules() -> Rules {
    let mut rules = Rules::botzone();
    rules.bidding = Bidding::Points;
    rules
}

/// Rebuilds the game from every request so far and this bot's earlier responses (one fewer
/// than the requests) and returns what the bot must do on the last request. Every
/// inconsistency is an error naming the field (`requests[2].history[0]`, `responses[1]`).
pub fn read_turn(requests: &[Value], responses: &[Value]) -> Result<Turn, BotzoneError> {
    if requests.is_empty() {
        return invalid(Place::Requests, Problem::Empty);
    }
    if responses.len() + 1 != requests.len() {
        let problem = Problem::ResponseCount {
            responses: responses.len(),
            requests: requests.len(),
        };
        return invalid(Place::Responses, problem);
    }
    let first = request_fields(0, &requests[0])?;
    let Some(own) = first.own.present() else {
        return invalid(Place::Request(0), Problem::Missing("own"));
    };
    let own = ids(own, Place::RequestField(0, "own"))?;

    // FightTheLandlord2's bidding: only ever the first request.
    let mut bid: Option<(Seat, Vec<(Seat, Bid)>)> = None;
    let bidding = match first.history {
        Sent::Absent => first.bid.present(),
        _ => None,
    };
    if let Some(v) = bidding {
        if own.len() != 17 {
            return invalid(
                Place::RequestField(0, "own"),
                Problem::BiddingHand(own.len()),
            );
        }
        let mut bids = earlier_bids(v)?;
        let me = Seat::ALL[bids.len()];
        let rules = bidding_rules();
        if requests.len() == 1 {
            let view = SeatView::bidding(&rules, me, own.to_cards(), bids);
            let allowed = view.legal_bids();
            return Ok(Turn::Bid { view, allowed });
        }
        let high = bids.iter().map(|b| b.1).max().unwrap_or(0);
        let mine = number(read(&responses[0]).sent(), Place::Response(0), 0, 3)?;
        if mine != 0 && mine <= high {
            return invalid(Place::Response(0), Problem::BidNotAbove { bid: mine, high });
        }
        bids.push((me, mine));
        bid = Some((me, bids));
    }

    let start = usize::from(bid.is_some());
    let mut table: Option<Rebuilt> = None;
    for (i, request) in requests.iter().enumerate().skip(start) {
        let mut r = request_fields(i, request)?;
        let history = match core::mem::take(&mut r.history).present() {
            Some(Ok(h)) => h,
            Some(Err(text)) => {
                let problem = Problem::NotHistory(text);
                return invalid(Place::RequestField(i, "history"), problem);
            }
            None if r.bid != Sent::Absent => {
                return invalid(Place::Request(i), Problem::LateBidding);
            }
            None => return invalid(Place::Request(i), Problem::Missing("history")),
        };
        let entry = |k: usize| Place::RequestEntry(i, "history", k);
        let [next, prev] = history;
        let entries = [ids(next.sent(), entry(0))?, ids(prev.sent(), entry(1))?];
        let t = match table.as_mut() {
            Some(t) => {
                for (k, set) in entries.into_iter().enumerate() {
                    let seat = if k == 0 { t.me.next() } else { t.me.prev() };
                    t.apply(seat, set, entry(k))?;
                }
                t
            }
            None => {
                let t = table.insert(start_table(r, i, own, entries, bid.take())?);
                let (me, landlord) = (t.me, t.landlord);
                // Seats after the landlord and before this bot have played since the lead.
                let ahead = |s: Seat| (s.index() + 3 - landlord.index()) % 3;
                for (k, set) in entries.into_iter().enumerate() {
                    let seat = if k == 0 { me.next() } else { me.prev() };
                    if ahead(seat) < ahead(me) {
                        t.apply(seat, set, entry(k))?;
                    } else if !set.is_empty() {
                        return invalid(entry(k), Problem::NotYetPlayed { seat, landlord });
                    }
                }
                t
            }
        };
        if i + 1 == requests.len() {
            break;
        }
        let mine = ids(read(&responses[i]).sent(), Place::Response(i))?;
        let me = t.me;
        t.apply(me, mine, Place::Response(i))?;
    }
    match table {
        Some(t) => t.turn(Place::Request(requests.len() - 1)),
        None => invalid(Place::Requests, Problem::NoPlayRequest),
    }
}

/// The table at the first play request `r`: the landlord, this bot's seat and hand, the public
/// cards. FightTheLandlord2 names them (`landlord`, `pos`, `finalbid`); FightTheLandlord has
/// seat 0 the landlord and the seat follows from which `history` entries are empty.
fn start_table(
    r: RequestFields,
    i: usize,
    own: CardSet,
    entries: [CardSet; 2],
    bid: Option<(Seat, Vec<(Seat, Bid)>)>,
) -> Result<Rebuilt, BotzoneError> {
    let Some(public) = r.publiccard.present().or_else(|| r.public.present()) else {
        return invalid(Place::Request(i), Problem::MissingPublic);
    };
    let public = ids(public, Place::RequestField(i, "publiccard"))?;
    if public.len() != 3 {
        let problem = Problem::PublicCount(public.len());
        return invalid(Place::RequestField(i, "publiccard"), problem);
    }
    let (rules, landlord, me, base, bids) = if r.landlord != Sent::Absent {
        let landlord = seat_field(r.landlord, "landlord", i)?;
        let me = seat_field(r.pos, "pos", i)?;
        let Some(final_bid) = r.finalbid.present() else {
            return invalid(Place::Request(i), Problem::Missing("finalbid"));
        };
        let base = number(final_bid, Place::RequestField(i, "finalbid"), 1, 3)?;
        let bids = match bid {
            Some((seat, _)) if seat != me => {
                let problem = Problem::PosMismatch {
                    pos: me,
                    bid_as: seat,
                };
                return invalid(Place::RequestField(i, "pos"), problem);
            }
            Some((_, bids)) => bids,
            None => Vec::new(),
        };
        (bidding_rules(), landlord, me, u32::from(base), bids)
    } else {
        if bid.is_some() {
            return invalid(Place::Request(i), Problem::MissingLandlord);
        }
        let me = match (entries[0].is_empty(), entries[1].is_empty()) {
            (true, true) => Seat::ALL[0],
            (true, false) => Seat::ALL[1],
            _ => Seat::ALL[2],
        };
        (Rules::botzone(), Seat::ALL[0], me, 1, Vec::new())
    };
    let hand = if me == landlord {
        CardSet::from_bits(own.bits() | public.bits()).unwrap_or_default()
    } else {
        if own.bits() & public.bits() != 0 {
            let problem = Problem::FarmerHoldsPublic { seat: me };
            return invalid(Place::RequestField(0, "own"), problem);
        }
        own
    };
    let dealt = if me == landlord { 20 } else { 17 };
    if hand.len() != dealt {
        let problem = Problem::HandSize {
            seat: me,
            held: hand.len(),
            dealt,
        };
        return invalid(Place::RequestField(0, "own"), problem);
    }
    let mut cards_left = BySeat([17; 3]);
    cards_left[landlord] = 20;
    Ok(Rebuilt {
        rules,
        me,
        landlord,
        public,
        hand,
        gone: CardSet::EMPTY,
        cards_left,
        play: PublicPlay::new(landlord),
        base,
        bids,
    })
}

// --- Answering -----------------------------------------------------------------------------

/// Asks `bot` for its answer to `turn` and returns Botzone's response value: a bid 0-3, or the
/// ids of the chosen move's cards taken from the hand (`[]` for a pass). An answer the robot
/// was not allowed is an error.
pub fn choose(bot: &mut dyn Bot, turn: &Turn) -> Result<Response, BotzoneError> {
    match turn {
        Turn::Bid { view, allowed } => {
            let b = bot.bid(view, allowed);
            if !allowed.contains(&b) {
                return Err(BotzoneError::RobotBid(b));
            }
            Ok(Response::Bid(b))
        }
        Turn::Play {
            view,
            allowed,
            hand,
        } => {
            let m = bot.play(view, allowed);
            if !allowed.contains(&m) {
                return Err(BotzoneError::RobotPlay(m));
            }
            let set = hand
                .take(m.cards())
                .ok_or(BotzoneError::RobotPlayNotInHand(m))?;
            Ok(Response::Cards(set.iter().map(|c| c.id()).collect()))
        }
    }
}

/// A robot's answer on Botzone's wire: a bid (a number) or the ids of the cards it plays (an
/// array, ascending; `[]` a pass).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Response {
    /// A bid, 0 (pass) to 3.
    Bid(Bid),
    /// The ids (0-53) of the cards played.
    Cards(Vec<u8>),
}

/// Botzone's output object for a turn, on the wire `{"response": ...}`.
#[derive(Serialize)]
struct Output {
    /// The bid or the cards played.
    response: Response,
}

/// Botzone's output object for an error, on the wire `{"debug": "error: ..."}`.
#[derive(Serialize)]
struct Debug {
    /// What went wrong.
    debug: String,
}

/// The `{"debug": "error: ..."}` line for an error.
fn debug_line(e: &impl std::fmt::Display) -> String {
    serde_json::to_string(&Debug {
        debug: format!("error: {e}"),
    })
    .unwrap_or_default()
}

/// A line that holds a full input (its `requests`), in keep-running mode.
#[derive(Default, Deserialize)]
#[serde(default)]
struct FullInput {
    requests: Sent<IgnoredAny>,
}

/// One game's exchange with Botzone: the requests so far and this bot's responses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    requests: Vec<Value>,
    responses: Vec<Value>,
}

impl Session {
    /// A session from Botzone's full input line ([`parse_input`]).
    pub fn from_input(line: &str) -> Result<Session, BotzoneError> {
        let (requests, responses) = parse_input(line)?;
        Ok(Session {
            requests,
            responses,
        })
    }

    /// Adds the next request, one line as Botzone writes it in keep-running mode (the bare
    /// request object). A line holding a full input (`requests` and `responses`) replaces the
    /// session instead.
    pub fn push_request(&mut self, line: &str) -> Result<(), BotzoneError> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| BotzoneError::RequestNotJson(e.to_string()))?;
        let full = fields::<FullInput>(&value).is_some_and(|f| f.requests.present().is_some());
        if full {
            *self = Session::from_input(line)?;
        } else {
            self.requests.push(value);
        }
        Ok(())
    }

    /// The current turn ([`read_turn`]).
    pub fn turn(&self) -> Result<Turn, BotzoneError> {
        read_turn(&self.requests, &self.responses)
    }

    /// Answers the current request with `bot`: returns the output object
    /// `{"response": ...}` and records the response for later turns.
    pub fn answer(&mut self, bot: &mut dyn Bot) -> Result<Value, BotzoneError> {
        let response = choose(bot, &self.turn()?)?;
        self.responses
            .push(serde_json::to_value(&response).unwrap_or(Value::Null));
        Ok(serde_json::to_value(Output { response }).unwrap_or(Value::Null))
    }
}

/// Runs `bot` on Botzone's input: reads the full input line, writes the answer line
/// `{"response": ...}`, flushed. With `keep_running`, then writes [`KEEP_RUNNING`] and answers
/// each further line (a bare request) the same way until the end of input. Any bad input ends
/// the run: the one line `{"debug": "error: ..."}` is written and the error returned (the
/// outer result is for input and output errors).
pub fn serve(
    bot: &mut dyn Bot,
    mut input: impl BufRead,
    mut output: impl Write,
    keep_running: bool,
) -> io::Result<Result<(), BotzoneError>> {
    let mut session: Option<Session> = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            if session.is_none() {
                let e = BotzoneError::NoInput;
                writeln!(output, "{}", debug_line(&e))?;
                output.flush()?;
                return Ok(Err(e));
            }
            return Ok(Ok(()));
        }
        if line.trim().is_empty() {
            continue;
        }
        let answered = match session.as_mut() {
            None => Session::from_input(line.trim()).and_then(|mut s| {
                let reply = s.answer(bot)?;
                session = Some(s);
                Ok(reply)
            }),
            Some(s) => s.push_request(line.trim()).and_then(|()| s.answer(bot)),
        };
        match answered {
            Ok(reply) => writeln!(output, "{reply}")?,
            Err(e) => {
                writeln!(output, "{}", debug_line(&e))?;
                output.flush()?;
                return Ok(Err(e));
            }
        }
        if !keep_running {
            output.flush()?;
            return Ok(Ok(()));
        }
        writeln!(output, "{KEEP_RUNNING}")?;
        output.flush()?;
    }
}
