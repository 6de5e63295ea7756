//! The `ddz-web/1` messages (docs/web.md) as serde types, defined here and only here: what a
//! client sends on a room's WebSocket ([`ClientMessage`]), what the server sends there
//! ([`ServerMessage`]: the room [`TableState`], numbered [`Event`]s, hints, errors), and the JSON
//! bodies of the HTTP routes around the rooms ([`NewRoom`], [`RoomCreated`], [`ErrorBody`],
//! [`Health`], the replay's [`ReplayReply`]).
//!
//! The server builds these values and serde writes them: field names and order are the
//! declaration order here, absent fields are the ones marked to be skipped when empty, and
//! everything else is written, null included. The tests of `tests/wire/` hold the text of every
//! kind of message to a transcript recorded before these types existed.
//!
//! What a client sends is read by its type and without failing on a field of the wrong type
//! (`client.rs`: each field kept as the JSON sent with its typed reading, [`Sent`]); a refusal
//! is a [`Refusal`] (`refusal.rs`).
//!
//! ```
//! use ddz_server::wire::{ClientMessage, Refusal, ServerMessage};
//!
//! let msg: ClientMessage = serde_json::from_str(r#"{"type": "bid", "bid": "2"}"#).unwrap();
//! assert_eq!(msg.kind(), Some("bid"));
//! let ClientMessage::Bid(fields) = msg else { panic!("a bid") };
//! let bid = fields.bid.unwrap();
//! assert_eq!(bid.value, None); // a string is not a bid
//! assert_eq!(bid.to_string(), r#""2""#); // as sent, to quote in the error
//!
//! let error = ServerMessage::Error { error: Refusal::missing("bid") };
//! assert_eq!(
//!     serde_json::to_string(&error).unwrap(),
//!     r#"{"type":"error","error":{"code":"missing_field","message":"missing \"bid\"","field":"bid"}}"#
//! );
//! ```

use ddz_core::{Bidding, Card, CardSet, Profile, RankSet};
use ddz_game::{Bid, BySeat, GameRecord, GameResult, Seat, Side};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

mod client;
mod refusal;

pub use client::{
    AutoMessage, BidMessage, ClientMessage, DoubleMessage, JoinMessage, PlayMessage, Sent,
    ShowMessage, Turn, WatchMessage,
};
pub use refusal::{Refusal, RoomRefusal};

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

/// Where a game is: `dealing`, `bidding`, `doubling`, `landlord_show`, `playing` or `over`:
/// the game's own phase, which serialises so.
pub use ddz_game::Phase;

/// A seat's role once the landlord is known: `landlord`, `landlord_down`, `landlord_up` or,
/// at four seats, `landlord_across`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The landlord.
    Landlord,
    /// The farmer who plays right after the landlord.
    LandlordDown,
    /// The farmer who plays right before the landlord.
    LandlordUp,
    /// At four seats, the farmer across the table from the landlord.
    LandlordAcross,
}

impl From<ddz_game::Role> for Role {
    fn from(role: ddz_game::Role) -> Role {
        match role {
            ddz_game::Role::Landlord => Role::Landlord,
            ddz_game::Role::LandlordDown => Role::LandlordDown,
            ddz_game::Role::LandlordUp => Role::LandlordUp,
            ddz_game::Role::LandlordAcross => Role::LandlordAcross,
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
    /// Once over: the game's seed, as decimal text (absent before): 64 bits do not fit a
    /// JavaScript number.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "seed_text::optional"
    )]
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
    /// The room is run by another instance of the server (several share one database): the
    /// client connects to `ws` instead, with the same `join` or `watch`; the connection
    /// closes after this (1012).
    Moved {
        /// The room's WebSocket address on the instance that runs it.
        ws: String,
    },
    /// The room closed; the connection closes after this.
    Closed {
        /// Why.
        reason: String,
    },
}

/// A 64-bit seed written as decimal text, since JavaScript reads a JSON number above 2^53
/// inexactly; read from text or a number. Records keep their seeds as numbers (their format,
/// docs/records.md); the messages and answers of the server send text.
pub mod seed_text {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the seed as text.
    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(seed)
    }

    /// Reads a seed from decimal text or a number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        read(&value).ok_or_else(|| D::Error::custom(format!("{value} is not a seed")))
    }

    /// A seed from decimal text or a number; none for anything else.
    pub fn read(value: &serde_json::Value) -> Option<u64> {
        match value {
            serde_json::Value::String(text)
                if !text.is_empty()
                    && text.len() <= 20
                    && text.bytes().all(|b| b.is_ascii_digit()) =>
            {
                text.parse().ok()
            }
            other => other.as_u64(),
        }
    }

    /// The same, for an optional seed.
    pub mod optional {
        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes the seed as text (callers leave a missing one out).
        pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
            match seed {
                Some(seed) => crate::wire::seed_text::serialize(seed, s),
                None => s.serialize_none(),
            }
        }

        /// Reads a seed from decimal text or a number, or null.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
            let value = serde_json::Value::deserialize(d)?;
            if value.is_null() {
                return Ok(None);
            }
            crate::wire::seed_text::read(&value)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom(format!("{value} is not a seed")))
        }
    }
}

/// Whether a flag is off (flags written only when on).
fn is_false(flag: &bool) -> bool {
    !flag
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

/// The answer of `GET /v1/health`: 200 when `ok`, 503 when `degraded`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// `ok`, or `degraded` when the database cannot take writes (every action is refused
    /// then, and no game can be saved).
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
    /// The database: `none` (nothing kept), `ok`, or why its latest write failed.
    pub database: String,
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
    /// The game's seed, as decimal text.
    #[serde(with = "seed_text")]
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
