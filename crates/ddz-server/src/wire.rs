//! The `ddz-web/1` messages (docs/web.md) as serde types, defined here and only here: what a
//! client sends on a room's WebSocket ([`ClientMessage`]), what the server sends there
//! ([`ServerMessage`]: the room [`TableState`], numbered [`Event`]s, hints, errors), and the JSON
//! bodies of the HTTP routes around the rooms ([`NewRoom`], [`RoomCreated`], [`ErrorBody`],
//! [`Health`], the replay's [`ReplayReply`]).
//!
//! The server builds these values and serde writes them: field names and order are the
//! declaration order here, absent fields are the ones marked to be skipped when empty, and
//! everything else is written, null included. The test `tests/wire.rs` holds the text of every
//! kind of message to a transcript recorded before these types existed.
//!
//! What a client sends is read without failing on a field of the wrong type: each field is kept
//! as the JSON sent with its typed reading ([`Sent`]), so that the room can check the fields in
//! a fixed order and quote the first bad one (`"bid": 9 is not a bid 0-3`).
//!
//! ```
//! use ddz_server::wire::{ClientMessage, Refusal, ServerMessage};
//!
//! let msg: ClientMessage = serde_json::from_str(r#"{"type": "bid", "bid": "2"}"#).unwrap();
//! assert_eq!(msg.kind.and_then(|k| k.value).as_deref(), Some("bid"));
//! let bid = msg.bid.unwrap();
//! assert_eq!(bid.value, None); // a string is not a bid
//! assert_eq!(bid.to_string(), r#""2""#); // as sent, to quote in the error
//!
//! let error = ServerMessage::Error { error: Refusal::missing("bid") };
//! assert_eq!(
//!     serde_json::to_string(&error).unwrap(),
//!     r#"{"type":"error","error":{"code":"missing_field","message":"missing \"bid\"","field":"bid"}}"#
//! );
//! ```

use core::fmt;

use ddz_core::{Bidding, Card, CardSet, Profile, RankSet};
use ddz_game::{ActionError, Bid, BySeat, GameRecord, GameResult, Seat, Side};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

// --- Reading what clients send -------------------------------------------------------------

/// A field as a client sent it: the JSON value, kept to be quoted in errors, and the value
/// read as `T` when it is one. Written back as the JSON sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Sent<T> {
    /// The JSON value sent.
    pub json: Value,
    /// The value read as `T`, or `None` when it is not a `T`.
    pub value: Option<T>,
}

/// The JSON sent, as compact JSON text (`"2"`, `[1]`, `null`).
impl<T> fmt::Display for Sent<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.json.fmt(f)
    }
}

impl<T> Serialize for Sent<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

/// Any JSON value is read; `value` is `None` when it is not a `T`.
impl<'de, T: DeserializeOwned> Deserialize<'de> for Sent<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sent<T>, D::Error> {
        let json = Value::deserialize(d)?;
        let value = T::deserialize(&json).ok();
        Ok(Sent { json, value })
    }
}

/// Reads a field that is there, null included (`Some` of a null [`Sent`]), for the fields
/// where null is an error rather than the field left out.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A message from a client on a room's WebSocket (docs/web.md, "From the client"): its `type`
/// is `join`, `watch`, `bid`, `show`, `double`, `play`, `pass`, `hint`, `next` or `auto`, with the
/// fields that type
/// takes. Every field is kept as sent ([`Sent`]) and may be missing; the reader checks them
/// (`ws.rs` for `join` and `watch`, [`crate::room::Room::read_request`] for the others).
/// Other fields are ignored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientMessage {
    /// The message's type (null is a bad type, not a missing one).
    #[serde(
        rename = "type",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub kind: Option<Sent<String>>,
    /// `join`: the seat token, 32 hex digits (null is a bad token).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub token: Option<Sent<String>>,
    /// `join` and `watch`: the number of the last message seen (null: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Sent<u64>>,
    /// Any action: the seat it is for, which must be the connection's own (null is a bad
    /// seat).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub seat: Option<Sent<Seat>>,
    /// `bid`: the bid 0-3 (null is a bad bid).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub bid: Option<Sent<u8>>,
    /// `play`: the move in notation (null is a bad move).
    #[serde(
        rename = "move",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub play: Option<Sent<String>>,
    /// `play`: the physical cards chosen, as card ids 0-53 (null: none chosen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<Sent<Vec<Sent<u8>>>>,
    /// `show`: true to show the hand (明牌) now, false not to (null is a bad answer).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub show: Option<Sent<bool>>,
    /// `double`: the doubling factor chosen, 1, 2 or 4 (null is a bad factor).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub double: Option<Sent<u32>>,
    /// `auto`: true to let the hint robot play the seat's turns (托管), false to take them
    /// back (null is a bad answer).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub auto: Option<Sent<bool>>,
    /// Any action: the `step` of the state it answers (required for `bid`, `play`, `pass`,
    /// `show` and `double`); an action for another step is refused (a double tap, a message
    /// resent late).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub step: Option<Sent<u64>>,
}

// --- Pieces of the server's messages -------------------------------------------------------

/// Physical cards written as their Botzone ids 0-53, lowest first: `[0, 1, 52]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardIds(pub CardSet);

impl Serialize for CardIds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Card::id))
    }
}

/// Each id must be a card id 0-53, none twice.
impl<'de> Deserialize<'de> for CardIds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardIds, D::Error> {
        let mut set = CardSet::EMPTY;
        for id in Vec::<u8>::deserialize(d)? {
            let card = Card::from_id(id)
                .ok_or_else(|| D::Error::custom(format!("{id} is not a card id 0-53")))?;
            if set.contains(card) {
                return Err(D::Error::custom(format!("card id {id} is given twice")));
            }
            set = set.with(card);
        }
        Ok(CardIds(set))
    }
}

/// Where a game is: `dealing`, `bidding`, `doubling`, `landlord_show`, `playing` or `over`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The cards are being dealt; seats may show their hands at the show windows.
    Dealing,
    /// Seats are bidding for the landlord.
    Bidding,
    /// Each seat chooses its doubling factor.
    Doubling,
    /// The landlord may show its hand before the first play.
    LandlordShow,
    /// Cards are being played.
    Playing,
    /// The game is over.
    Over,
}

impl From<ddz_game::Phase> for Phase {
    fn from(phase: ddz_game::Phase) -> Phase {
        match phase {
            ddz_game::Phase::Dealing => Phase::Dealing,
            ddz_game::Phase::Bidding => Phase::Bidding,
            ddz_game::Phase::Doubling => Phase::Doubling,
            ddz_game::Phase::LandlordShow => Phase::LandlordShow,
            ddz_game::Phase::Playing => Phase::Playing,
            ddz_game::Phase::Over => Phase::Over,
        }
    }
}

/// A seat's role once the landlord is known: `landlord`, `landlord_down` or `landlord_up`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The landlord.
    Landlord,
    /// The farmer who plays right after the landlord.
    LandlordDown,
    /// The farmer who plays right before the landlord.
    LandlordUp,
}

impl From<ddz_game::Role> for Role {
    fn from(role: ddz_game::Role) -> Role {
        match role {
            ddz_game::Role::Landlord => Role::Landlord,
            ddz_game::Role::LandlordDown => Role::LandlordDown,
            ddz_game::Role::LandlordUp => Role::LandlordUp,
        }
    }
}

/// Who plays a seat: `human` or `robot`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// A person, with a seat token.
    Human,
    /// A robot.
    Robot,
}

/// A public event of a room (docs/web.md, "Events"), written with its name as `"event"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A game was dealt.
    Start {
        /// Its number in the room, from 1.
        game: u32,
        /// The seat that bids first.
        first_bidder: Seat,
    },
    /// A seat decided whether to show its hand (明牌).
    Show {
        /// The seat.
        seat: Seat,
        /// The factor of its show; 0 when it did not show.
        factor: u32,
        /// The physical cards shown (while dealing, those received so far).
        ids: CardIds,
        /// True when the turn timer ran out and the hint robot decided for a person.
        auto: bool,
    },
    /// A seat chose its doubling factor (加倍: 1, 2 or 4).
    Double {
        /// The seat.
        seat: Seat,
        /// The factor.
        factor: u32,
        /// True when the turn timer ran out and the hint robot decided for a person.
        auto: bool,
    },
    /// A seat bid (0 passes or declines).
    Bid {
        /// The seat.
        seat: Seat,
        /// The bid.
        bid: Bid,
        /// True when the turn timer ran out and the hint robot bid for a person.
        auto: bool,
    },
    /// Everyone passed: the cards were dealt again.
    Redeal {
        /// The first bidder of the new deal.
        first_bidder: Seat,
    },
    /// The landlord is decided and takes the kitty.
    Landlord {
        /// The landlord's seat.
        seat: Seat,
        /// The kitty's cards.
        kitty: CardIds,
        /// The base score.
        base: u32,
    },
    /// Wild ranks were revealed (all those revealed so far).
    Wild {
        /// The wild ranks: `["9"]`.
        laizi: RankSet,
    },
    /// A seat played or passed.
    Play {
        /// The seat.
        seat: Seat,
        /// The move in notation (`pass` for a pass).
        #[serde(rename = "move")]
        play: String,
        /// The physical cards it took (none for a pass).
        ids: CardIds,
        /// True when the turn timer ran out and the hint robot played for a person.
        auto: bool,
    },
    /// A seat forfeited the game.
    Forfeit {
        /// The seat.
        seat: Seat,
        /// Why.
        why: String,
    },
    /// The game is over.
    Over {
        /// The winning side.
        winner: Side,
        /// The points of each seat.
        scores: BySeat<i64>,
    },
    /// A person's seat gained its first connection or lost its last.
    Connected {
        /// The seat.
        seat: Seat,
        /// Whether it is connected now.
        connected: bool,
    },
    /// A seat is ready for the next game.
    Ready {
        /// The seat.
        seat: Seat,
    },
    /// A person's seat turned auto-play (托管) on or off: while on, the hint robot plays its
    /// turns.
    Auto {
        /// The seat.
        seat: Seat,
        /// Whether auto-play is on now.
        auto: bool,
    },
}

/// An event with its number in the room (1, 2, 3...), written after the event's fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberedEvent {
    /// The event.
    #[serde(flatten)]
    pub event: Event,
    /// Its number.
    pub n: u64,
}

/// One seat as the room state shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    /// The seat.
    pub seat: Seat,
    /// A person or a robot.
    pub player: Player,
    /// The robot's spec (null for a person).
    pub robot: Option<String>,
    /// Whether the seat is connected (a robot always is).
    pub connected: bool,
    /// Its role (null until the landlord is decided).
    pub role: Option<Role>,
    /// How many cards it holds.
    pub cards_left: u32,
    /// Its points over the room's games.
    pub total: i64,
    /// Whether it is ready for the next game.
    pub ready: bool,
    /// Whether the hint robot plays the seat's turns (托管, a person's choice; false for a
    /// robot).
    pub auto: bool,
}

/// The play to beat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastPlay {
    /// The seat that played it.
    pub seat: Seat,
    /// The move in notation.
    #[serde(rename = "move")]
    pub play: String,
}

/// One play of the game's history (passes included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPlay {
    /// The seat.
    pub seat: Seat,
    /// The move in notation (`pass` for a pass).
    #[serde(rename = "move")]
    pub play: String,
    /// The physical cards it took.
    pub ids: CardIds,
}

/// What the seat to act may do: `{"bids": [...]}`, `{"moves": [...]}`, `{"show": factor}` or
/// `{"double": [factors]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Legal {
    /// The seat may show its hand at this factor (or not).
    Show(u32),
    /// The doubling factors allowed.
    Double(Vec<u32>),
    /// The bids allowed.
    Bids(Vec<Bid>),
    /// Every legal move in notation, readings included.
    Moves(Vec<String>),
}

/// The parts of the stake so far (RULES.md sections 4 and 7): the table multiplier is
/// `robs × shows × bombs`; spring and each seat's doubling come on top (the result, and the
/// state's `multipliers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StakeParts {
    /// The base score.
    pub base: u32,
    /// The factor of the robs (2 for each rob under call-and-rob, else 1).
    pub robs: u32,
    /// The factor of the shows (明牌; 1 when nobody showed).
    pub shows: u32,
    /// The factor of the bombs and the rocket played so far.
    pub bombs: u32,
}

/// A person's turn timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The seat whose turn it is.
    pub seat: Seat,
    /// Milliseconds left.
    pub ms: u64,
}

/// The state of a room's game for one seat or for the spectators (docs/web.md, "State").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// The game's number in the room, from 1.
    pub game: u32,
    /// The room's step: actions taken so far.
    pub step: u64,
    /// The rules' profile.
    pub rules: Profile,
    /// The bidding form.
    pub bidding: Bidding,
    /// Where the game is.
    pub phase: Phase,
    /// The seat this state is for (null for the spectators).
    pub you: Option<Seat>,
    /// Every seat.
    pub seats: BySeat<SeatState>,
    /// The seat's own cards (null for the spectators).
    pub hand: Option<CardIds>,
    /// The landlord (null until decided).
    pub landlord: Option<Seat>,
    /// The kitty (null until the landlord takes it).
    pub kitty: Option<CardIds>,
    /// The wild ranks revealed so far.
    pub laizi: RankSet,
    /// The bids of this deal, `[seat, bid]`.
    pub bids: Vec<(Seat, Bid)>,
    /// The seat that bid first in this deal.
    pub first_bidder: Seat,
    /// The base score so far.
    pub base: u32,
    /// The multiplier so far.
    pub multiplier: u32,
    /// The multiplier's parts so far: base × robs × shows × bombs = base × multiplier.
    pub stake: StakeParts,
    /// Under rules with showing or doubling (absent otherwise): each seat's shown hand (明牌)
    /// as it is now, null for a seat that has not shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<BySeat<Option<CardIds>>>,
    /// Under rules with showing or doubling (absent otherwise): each seat's doubling factor
    /// (加倍) once chosen, null before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doublings: Option<BySeat<Option<u32>>>,
    /// Under rules with showing or doubling (absent otherwise): the multiplier each seat is
    /// shown (RULES.md section 7): a farmer's pair with the landlord, the landlord's sum of
    /// both pairs; the table multiplier before the landlord is decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multipliers: Option<BySeat<u32>>,
    /// The seat to act (null once over).
    pub turn: Option<Seat>,
    /// The play to beat (null when the seat to act leads).
    pub last: Option<LastPlay>,
    /// Every play so far.
    pub history: Vec<HistoryPlay>,
    /// The plays of the trick shown at the table (entries of `history`).
    pub trick: Vec<HistoryPlay>,
    /// What the seat to act may do; null for every other audience.
    pub legal: Option<Legal>,
    /// Points per seat over the room's games.
    pub totals: BySeat<i64>,
    /// Once over: the result, as records write it (absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Once over: every seat's remaining cards (absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<BySeat<CardIds>>,
    /// Once over: the game's seed (absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Once over: the game record, `ddz-record/1` (absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<GameRecord>,
    /// While a person's turn timer runs: whose and the time left (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
}

// --- The server's messages -----------------------------------------------------------------

/// A message from the server on a room's WebSocket (docs/web.md, "From the server"), written
/// with its kind as `"type"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// Joined a seat or watching.
    Welcome {
        /// Always [`crate::WEB_PROTOCOL`].
        protocol: String,
        /// The room's id.
        room: String,
        /// The seat joined (null for a spectator).
        seat: Option<Seat>,
        /// A person's time a turn (0: no timer).
        turn_seconds: u64,
        /// The pause before a robot seat acts.
        robot_delay_ms: u64,
    },
    /// Something happened: the events, and the state after them.
    Update {
        /// The number of the room's latest event.
        n: u64,
        /// The events, numbered.
        events: Vec<NumberedEvent>,
        /// The state after them, for this connection's audience.
        state: Box<TableState>,
        /// True when events were dropped from the ones kept (written only then).
        #[serde(default, skip_serializing_if = "is_false")]
        resync: bool,
    },
    /// The hints, best first.
    Hints {
        /// Moves in notation.
        moves: Vec<String>,
    },
    /// The last message was refused.
    Error {
        /// Why: its code, its English message and its fields.
        error: Refusal,
    },
    /// The room closed; the connection closes after this.
    Closed {
        /// Why.
        reason: String,
    },
}

/// Whether a flag is off (flags written only when on).
fn is_false(flag: &bool) -> bool {
    !flag
}

// --- Refusals -----------------------------------------------------------------------------

/// Why the room or the connection refused a message, the `error` of a `{"type": "error"}`
/// message: `{"code", "message", ...fields}`. The code is stable (one of [`Refusal::CODES`]:
/// the game's own, [`ActionError::CODES`], then the room's, [`RoomRefusal`]); the message is
/// English, for logs and for clients that do not know the code; the fields are the refusal's
/// (`"field"` names the message's field that is wrong; a game's refusal carries its own, as
/// [`ActionError`] writes them). docs/web.md lists every code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The stable code.
    pub code: String,
    /// What is wrong, in English.
    pub message: String,
    /// The refusal's fields, after the code and the message.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

/// The room's and the connection's own refusals, beside the game's ([`ActionError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomRefusal {
    /// A frame that is not a JSON object (or not JSON).
    NotJson,
    /// A frame that is not read (binary, or refused by the WebSocket layer).
    BadFrame,
    /// The first message is not `join` or `watch`.
    JoinFirst,
    /// No `join` or `watch` within the time allowed.
    JoinTimeout,
    /// A `token` that is not 32 hex digits.
    BadToken,
    /// A token that no seat of the room has.
    WrongToken,
    /// The room has all the spectators it takes.
    RoomFull,
    /// The seat joined again elsewhere: this connection makes way.
    Replaced,
    /// `join` or `watch` on a connection that has joined.
    AlreadyJoined,
    /// A `type` the server does not know.
    UnknownType,
    /// An action sent by a spectator.
    Spectator,
    /// An action for another seat than the connection's.
    WrongSeat,
    /// A field the message needs is not there (`"field"` names it).
    MissingField,
    /// A field is not of its kind (`"field"` names it).
    BadField,
    /// The `step` is not the current one: the action answers an earlier state.
    StaleStep,
    /// The card ids chosen are not the move's cards in the seat's hand.
    BadIds,
    /// `next` before the game is over.
    GameNotOver,
    /// Hints asked off the seat's playing turn (`"reason"`: the game's code).
    NoHints,
}

impl RoomRefusal {
    /// Every room refusal, in the order of [`Refusal::CODES`] after the game's.
    pub const ALL: [RoomRefusal; 18] = [
        RoomRefusal::NotJson,
        RoomRefusal::BadFrame,
        RoomRefusal::JoinFirst,
        RoomRefusal::JoinTimeout,
        RoomRefusal::BadToken,
        RoomRefusal::WrongToken,
        RoomRefusal::RoomFull,
        RoomRefusal::Replaced,
        RoomRefusal::AlreadyJoined,
        RoomRefusal::UnknownType,
        RoomRefusal::Spectator,
        RoomRefusal::WrongSeat,
        RoomRefusal::MissingField,
        RoomRefusal::BadField,
        RoomRefusal::StaleStep,
        RoomRefusal::BadIds,
        RoomRefusal::GameNotOver,
        RoomRefusal::NoHints,
    ];

    /// The code on the wire.
    pub const fn code(self) -> &'static str {
        match self {
            RoomRefusal::NotJson => "not_json",
            RoomRefusal::BadFrame => "bad_frame",
            RoomRefusal::JoinFirst => "join_first",
            RoomRefusal::JoinTimeout => "join_timeout",
            RoomRefusal::BadToken => "bad_token",
            RoomRefusal::WrongToken => "wrong_token",
            RoomRefusal::RoomFull => "room_full",
            RoomRefusal::Replaced => "replaced",
            RoomRefusal::AlreadyJoined => "already_joined",
            RoomRefusal::UnknownType => "unknown_type",
            RoomRefusal::Spectator => "spectator",
            RoomRefusal::WrongSeat => "wrong_seat",
            RoomRefusal::MissingField => "missing_field",
            RoomRefusal::BadField => "bad_field",
            RoomRefusal::StaleStep => "stale_step",
            RoomRefusal::BadIds => "bad_ids",
            RoomRefusal::GameNotOver => "game_not_over",
            RoomRefusal::NoHints => "no_hints",
        }
    }
}

impl Refusal {
    /// Every code a refusal may carry: the game's ([`ActionError::CODES`]), then the room's
    /// ([`RoomRefusal::ALL`]).
    pub const CODES: [&'static str; ActionError::CODES.len() + RoomRefusal::ALL.len()] = {
        let mut codes = [""; ActionError::CODES.len() + RoomRefusal::ALL.len()];
        let mut i = 0;
        while i < ActionError::CODES.len() {
            codes[i] = ActionError::CODES[i];
            i += 1;
        }
        let mut j = 0;
        while j < RoomRefusal::ALL.len() {
            codes[i + j] = RoomRefusal::ALL[j].code();
            j += 1;
        }
        codes
    };

    /// A room refusal without fields.
    pub fn new(kind: RoomRefusal, message: impl Into<String>) -> Refusal {
        Refusal {
            code: kind.code().to_string(),
            message: message.into(),
            fields: Map::new(),
        }
    }

    /// A room refusal about the message's `field` ([`RoomRefusal::BadField`] and the like).
    pub fn about(kind: RoomRefusal, field: &str, message: impl Into<String>) -> Refusal {
        Refusal::new(kind, message).with("field", field)
    }

    /// [`RoomRefusal::MissingField`]: `missing "field"`.
    pub fn missing(field: &str) -> Refusal {
        Refusal::about(
            RoomRefusal::MissingField,
            field,
            format!("missing \"{field}\""),
        )
    }

    /// The refusal with one more field.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Refusal {
        self.fields.insert(key.to_string(), value.into());
        self
    }
}

/// The English message.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

/// The game's refusal, its code, message and fields as [`ActionError`] writes them.
impl From<&ActionError> for Refusal {
    fn from(error: &ActionError) -> Refusal {
        let mut fields = match serde_json::to_value(error) {
            Ok(Value::Object(fields)) => fields,
            _ => Map::new(),
        };
        fields.remove("code");
        fields.remove("message");
        Refusal {
            code: error.code().to_string(),
            message: error.to_string(),
            fields,
        }
    }
}

// --- HTTP bodies ---------------------------------------------------------------------------

/// The JSON body of every HTTP error of the server's own routes: `{"error": "..."}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What is wrong and where.
    pub error: String,
}

/// The body of `POST /v1/rooms` (docs/web.md), every field optional (null: the default) and
/// kept as sent ([`Sent`]) to be checked and quoted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewRoom {
    /// A profile name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Sent<String>>,
    /// Per seat `"human"` or a robot's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Sent<[Sent<String>; 3]>>,
    /// A person's time a turn, 0-600 (0: no timer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_seconds: Option<Sent<u64>>,
    /// The pause before a robot acts, 0-5000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robot_delay_ms: Option<Sent<u64>>,
    /// The first game's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Sent<u64>>,
    /// Any other field, in the order sent (each is refused).
    #[serde(flatten)]
    pub unknown: Map<String, Value>,
}

/// One seat of a room just created: a robot's name, or a person's seat token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedSeat {
    /// The seat.
    pub seat: Seat,
    /// A person or a robot.
    pub player: Player,
    /// A robot's spec (absent for a person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robot: Option<String>,
    /// A person's seat token (absent for a robot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// The answer of `POST /v1/rooms` (201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomCreated {
    /// The room's id.
    pub room: String,
    /// Always [`crate::WEB_PROTOCOL`].
    pub protocol: String,
    /// The rules' profile.
    pub rules: Profile,
    /// A person's time a turn (0: no timer).
    pub turn_seconds: u64,
    /// The pause before a robot seat acts.
    pub robot_delay_ms: u64,
    /// Every seat.
    pub seats: Vec<CreatedSeat>,
    /// The room's WebSocket path.
    pub ws: String,
}

/// The answer of `GET /v1/health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// Always `ok`.
    pub status: String,
    /// The server's version.
    pub version: String,
    /// The protocols spoken: `ddz-jsonl/1` and `ddz-web/1`.
    pub protocols: Vec<String>,
    /// The default rules' profile.
    pub rules: Profile,
    /// The robots that may be asked for.
    pub robots: Vec<String>,
    /// The rooms open.
    pub rooms: usize,
}

/// What a step of a replay is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// The deal (the first step).
    Deal,
    /// Everyone passed: a redeal.
    Redeal,
    /// A bid.
    Bid,
    /// The landlord is decided.
    Landlord,
    /// A play.
    Play,
}

/// One step of a replayed record, with every seat's cards after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayStep {
    /// What the step is.
    pub kind: StepKind,
    /// The step in words.
    pub text: String,
    /// The acting seat (null for the deal).
    pub seat: Option<Seat>,
    /// Every seat's cards after the step.
    pub hands: BySeat<String>,
    /// The landlord, once decided.
    pub landlord: Option<Seat>,
    /// The wild ranks revealed so far (absent for the deal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laizi: Option<RankSet>,
    /// The move in notation, for a play.
    #[serde(rename = "move")]
    pub play: Option<String>,
    /// The bid, for a bid.
    pub bid: Option<Bid>,
    /// The multiplier after the step (absent for the deal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<u32>,
}

/// The answer of `POST /v1/replay` for a record that replays (200).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayReply {
    /// Always true.
    pub ok: bool,
    /// The rules' profile.
    pub rules: Profile,
    /// The game's seed.
    pub seed: u64,
    /// The kitty's cards.
    pub kitty: String,
    /// The deal, then every step.
    pub steps: Vec<ReplayStep>,
    /// The result (null for a game not finished).
    pub result: Option<GameResult>,
}

/// The answer of `POST /v1/replay` for a record that does not replay (400): what is wrong
/// and the steps before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayFailure {
    /// The step and what is wrong there.
    pub error: String,
    /// The deal and the steps that replayed.
    pub steps: Vec<ReplayStep>,
}

/// A message or body as compact JSON text. Writing the types here cannot fail (no map has
/// keys that are not strings); if it did, the text would be an `{"error"}` object saying so.
pub(crate) fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        let mut body = Map::new();
        body.insert(
            "error".into(),
            Value::String(format!(
                "internal error: the answer could not be written ({e})"
            )),
        );
        Value::Object(body).to_string()
    })
}
