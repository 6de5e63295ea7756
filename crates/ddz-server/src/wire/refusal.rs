//! Why a message was refused: [`Refusal`], the `error` of `{"type": "error"}`.

use core::fmt;

use ddz_game::ActionError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
    /// A `watch` on a connection past its address's limit, which may only join a seat.
    AddressFull,
    /// More `auto` or `hint` messages than a connection may send (a burst of 40, then 20 a
    /// second): the connection closes.
    TooManyMessages,
    /// The action could not be written to the database before anyone was told of it: it was
    /// not applied, and the seat may try again.
    NotSaved,
}

impl RoomRefusal {
    /// Every room refusal, in the order of [`Refusal::CODES`] after the game's.
    pub const ALL: [RoomRefusal; 21] = [
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
        RoomRefusal::AddressFull,
        RoomRefusal::TooManyMessages,
        RoomRefusal::NotSaved,
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
            RoomRefusal::AddressFull => "address_full",
            RoomRefusal::TooManyMessages => "too_many_messages",
            RoomRefusal::NotSaved => "not_saved",
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
