//! What a client sends on a room's WebSocket, read without failing on a field of the wrong
//! type: each field is kept as the JSON sent with its typed reading ([`Sent`]), so that the
//! room can check the fields in a fixed order and quote the first bad one
//! (`"bid": 9 is not a bid 0-3`).

use core::fmt;

use ddz_game::Seat;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

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

/// A message from a client on a room's WebSocket (docs/web.md, "From the client"), by its
/// `type`. Every field is kept as sent ([`Sent`]) and may be missing; the reader checks them
/// in a fixed order (`ws.rs` for `join` and `watch`, [`crate::room::Room::read_request`] for
/// the others) and names the first that is wrong. Other fields are ignored.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMessage {
    /// `join`: play the seat of the token.
    Join(JoinMessage),
    /// `watch`: watch, public information only.
    Watch(WatchMessage),
    /// `bid`: a bid, 0 to 3.
    Bid(BidMessage),
    /// `show`: show the hand (明牌) now, or not.
    Show(ShowMessage),
    /// `double`: a doubling factor, 1, 2 or 4.
    Double(DoubleMessage),
    /// `play`: a move in notation, with the physical cards chosen.
    Play(PlayMessage),
    /// `pass`.
    Pass(Turn),
    /// `hint`: the hints for this turn.
    Hint(Turn),
    /// `next`: ready for the next game.
    Next(Turn),
    /// `auto`: auto-play (托管) on or off.
    Auto(AutoMessage),
    /// A message whose `type` is missing (`None`), not a string or none of the above: kept
    /// to be refused by what was sent. `after` is kept too: before joining it is checked
    /// first, whatever the type.
    Untyped {
        /// The `type` as sent.
        kind: Option<Sent<String>>,
        /// The `after` as sent.
        after: Option<Sent<u64>>,
    },
}

/// The fields every action carries. Null is a bad value, not a missing one.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Turn {
    /// The seat the action is for, which must be the connection's own.
    #[serde(default, deserialize_with = "present")]
    pub seat: Option<Sent<Seat>>,
    /// The `step` of the state the action answers (required for `bid`, `play`, `pass`,
    /// `show` and `double`); an action for another step is refused (a double tap, a message
    /// resent late).
    #[serde(default, deserialize_with = "present")]
    pub step: Option<Sent<u64>>,
}

/// `join`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct JoinMessage {
    /// The seat token, 32 hex digits (null is a bad token).
    #[serde(default, deserialize_with = "present")]
    pub token: Option<Sent<String>>,
    /// The number of the last message seen (null: none).
    #[serde(default)]
    pub after: Option<Sent<u64>>,
    /// The person's browser identity, 32 hex digits (null: none), under which the seat's
    /// results are saved.
    #[serde(default)]
    pub player: Option<Sent<String>>,
}

/// `watch`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct WatchMessage {
    /// The number of the last message seen (null: none).
    #[serde(default)]
    pub after: Option<Sent<u64>>,
}

/// `bid`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct BidMessage {
    /// The bid 0-3 (null is a bad bid).
    #[serde(default, deserialize_with = "present")]
    pub bid: Option<Sent<u8>>,
    /// The seat and the step.
    #[serde(flatten)]
    pub turn: Turn,
}

/// `show`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ShowMessage {
    /// True to show the hand now, false not to (null is a bad answer).
    #[serde(default, deserialize_with = "present")]
    pub show: Option<Sent<bool>>,
    /// The seat and the step.
    #[serde(flatten)]
    pub turn: Turn,
}

/// `double`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct DoubleMessage {
    /// The doubling factor chosen, 1, 2 or 4 (null is a bad factor).
    #[serde(default, deserialize_with = "present")]
    pub double: Option<Sent<u32>>,
    /// The seat and the step.
    #[serde(flatten)]
    pub turn: Turn,
}

/// `play`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PlayMessage {
    /// The move in notation (null is a bad move).
    #[serde(rename = "move", default, deserialize_with = "present")]
    pub play: Option<Sent<String>>,
    /// The physical cards chosen, as card ids 0-53 (null: none chosen).
    #[serde(default)]
    pub ids: Option<Sent<Vec<Sent<u8>>>>,
    /// The seat and the step.
    #[serde(flatten)]
    pub turn: Turn,
}

/// `auto`'s fields.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct AutoMessage {
    /// True to let the hint robot play the seat's turns, false to take them back (null is a
    /// bad answer).
    #[serde(default, deserialize_with = "present")]
    pub auto: Option<Sent<bool>>,
    /// The seat and the step.
    #[serde(flatten)]
    pub turn: Turn,
}

impl ClientMessage {
    /// The type's name, for a message of a known type.
    pub const fn kind(&self) -> Option<&'static str> {
        Some(match self {
            ClientMessage::Join(_) => "join",
            ClientMessage::Watch(_) => "watch",
            ClientMessage::Bid(_) => "bid",
            ClientMessage::Show(_) => "show",
            ClientMessage::Double(_) => "double",
            ClientMessage::Play(_) => "play",
            ClientMessage::Pass(_) => "pass",
            ClientMessage::Hint(_) => "hint",
            ClientMessage::Next(_) => "next",
            ClientMessage::Auto(_) => "auto",
            ClientMessage::Untyped { .. } => return None,
        })
    }

    /// The seat and step of an action (every type but `join`, `watch` and an untyped one).
    pub const fn turn(&self) -> Option<&Turn> {
        match self {
            ClientMessage::Bid(m) => Some(&m.turn),
            ClientMessage::Show(m) => Some(&m.turn),
            ClientMessage::Double(m) => Some(&m.turn),
            ClientMessage::Play(m) => Some(&m.turn),
            ClientMessage::Auto(m) => Some(&m.turn),
            ClientMessage::Pass(turn) | ClientMessage::Hint(turn) | ClientMessage::Next(turn) => {
                Some(turn)
            }
            ClientMessage::Join(_) | ClientMessage::Watch(_) | ClientMessage::Untyped { .. } => {
                None
            }
        }
    }

    /// The `after` sent with a message read before joining: `join`'s, `watch`'s, or an
    /// untyped message's.
    pub const fn after(&self) -> Option<&Sent<u64>> {
        match self {
            ClientMessage::Join(JoinMessage { after, .. })
            | ClientMessage::Watch(WatchMessage { after })
            | ClientMessage::Untyped { after, .. } => after.as_ref(),
            _ => None,
        }
    }
}

/// A JSON object read by its `type`: the type's fields as that type's message, or
/// [`ClientMessage::Untyped`].
impl<'de> Deserialize<'de> for ClientMessage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClientMessage, D::Error> {
        /// The fields every message may have besides its type's.
        #[derive(Deserialize)]
        struct Tag {
            #[serde(rename = "type", default, deserialize_with = "present")]
            kind: Option<Sent<String>>,
            #[serde(default)]
            after: Option<Sent<u64>>,
        }
        let fields = Map::<String, Value>::deserialize(d)?;
        let object = Value::Object(fields);
        let tag = Tag::deserialize(&object).map_err(D::Error::custom)?;
        fn body<'de, T: Deserialize<'de>, E: serde::de::Error>(object: &'de Value) -> Result<T, E> {
            T::deserialize(object).map_err(E::custom)
        }
        Ok(match tag.kind.as_ref().and_then(|k| k.value.as_deref()) {
            Some("join") => ClientMessage::Join(body(&object)?),
            Some("watch") => ClientMessage::Watch(body(&object)?),
            Some("bid") => ClientMessage::Bid(body(&object)?),
            Some("show") => ClientMessage::Show(body(&object)?),
            Some("double") => ClientMessage::Double(body(&object)?),
            Some("play") => ClientMessage::Play(body(&object)?),
            Some("pass") => ClientMessage::Pass(body(&object)?),
            Some("hint") => ClientMessage::Hint(body(&object)?),
            Some("next") => ClientMessage::Next(body(&object)?),
            Some("auto") => ClientMessage::Auto(body(&object)?),
            _ => ClientMessage::Untyped {
                kind: tag.kind,
                after: tag.after,
            },
        })
    }
}
