//! The messages of `ddz-jsonl/1` as types: the checked requests a robot acts on, the replies it
//! sends ([`HelloReply`] ... [`ErrorReply`]) and the requests a controller sends ([`WireRequest`]).

use ddz_core::{Bidding, Cards, Move, Rules, move_notation};
use ddz_game::{Bid, GameResult, Phase, Role, SeatView, Side};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

use super::error::{ErrorCode, Field, ProtocolError};
use super::limits::PROTOCOL;

/// A checked `act` request: the seat's view and the moves it may choose from. `N` is the
/// table's seat count (3, the default; 2 or 4 under `two` and `four`), as in every request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActRequest<const N: usize = 3> {
    /// The seat's view, rebuilt from the request (its `kitty` is `None`: the request only
    /// tells the kitty cards not yet played).
    pub view: SeatView<N>,
    /// The moves allowed: the request's `legal_moves`, or every legal move of the hand.
    pub allowed: Vec<Move>,
}

/// A checked `bid` request: the seat's view during bidding and the bids it may make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidRequest<const N: usize = 3> {
    /// The seat's view: its hand, the bids so far, the rules with the bidding form asked.
    pub view: SeatView<N>,
    /// The bids allowed ([`SeatView::legal_bids`]).
    pub allowed: Vec<Bid>,
}

/// A checked `double` request: the seat's view once the landlord has the kitty and the
/// factors it may choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoubleRequest<const N: usize = 3> {
    /// The seat's view (phase [`Phase::Doubling`]; its `kitty` is the request's
    /// `bottom_cards_unplayed`, when given).
    pub view: SeatView<N>,
    /// The factors allowed (`choices`).
    pub choices: Vec<u32>,
}

/// A checked `show` request: the seat's view in the show window and the factor of a show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShowRequest<const N: usize = 3> {
    /// The seat's view: phase [`Phase::Dealing`] with the cards received so far (`start`,
    /// `deal`), or [`Phase::LandlordShow`] with the landlord's 20 cards (`landlord`).
    pub view: SeatView<N>,
    /// The factor the show would give.
    pub factor: u32,
}

/// A request, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request<const N: usize = 3> {
    /// `hello`: the robot introduces itself.
    Hello,
    /// `act`: choose a play.
    Act(Box<ActRequest<N>>),
    /// `bid`: take part in bidding.
    Bid(Box<BidRequest<N>>),
    /// `double`: choose a doubling factor (加倍).
    Double(Box<DoubleRequest<N>>),
    /// `show`: show the hand (明牌) now or not.
    Show(Box<ShowRequest<N>>),
    /// `result`: the game is over.
    Result {
        /// The winning side, when given.
        winner: Option<Side>,
        /// The points of each seat, when given.
        scores: Option<[i64; N]>,
    },
}

/// A request line that parsed: its `id` (any JSON value) and the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming<const N: usize = 3> {
    /// The request's `id`, to echo in the reply.
    pub id: Value,
    /// The request.
    pub request: Request<N>,
}

/// A request line that did not: its `id` (null when unknown) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The request's `id`, or null when the line was not a JSON object with one.
    pub id: Value,
    /// What was wrong.
    pub error: ProtocolError,
}
// --- Replies -------------------------------------------------------------------------------

/// The reply to `hello`, on the wire `{"id", "name", "version", "protocol"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelloReply {
    /// The request's `id`, echoed (any JSON value, as the protocol allows).
    pub id: Value,
    /// The robot's name.
    pub name: String,
    /// The version of the program serving it.
    pub version: String,
    /// The protocol spoken ([`PROTOCOL`]).
    pub protocol: String,
}

/// The reply to `act`, on the wire `{"id", "cards"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActReply {
    /// The request's `id`, echoed.
    pub id: Value,
    /// The play, in move notation (`""` for a pass).
    pub cards: String,
}

/// The reply to `bid`, on the wire `{"id", "bid"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidReply {
    /// The request's `id`, echoed.
    pub id: Value,
    /// The bid.
    pub bid: Bid,
}

/// The reply to `double`, on the wire `{"id", "double"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoubleReply {
    /// The request's `id`, echoed.
    pub id: Value,
    /// The factor chosen.
    pub double: u32,
}

/// The reply to `show`, on the wire `{"id", "show"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowReply {
    /// The request's `id`, echoed.
    pub id: Value,
    /// Whether the robot shows its hand now.
    pub show: bool,
}

/// The reply to `result`, on the wire `{"id", "ok": true}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultReply {
    /// The request's `id`, echoed.
    pub id: Value,
    /// Always `true`.
    pub ok: bool,
}

/// The reply to a request that cannot be served, on the wire `{"id", "error", "code"}` and
/// `"field"` when the error is about one. `error` stays the message string PROTOCOL.md
/// gives; `code` (one of [`ProtocolError::CODES`]) is what a program reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReply {
    /// The request's `id`, echoed (null when unknown).
    pub id: Value,
    /// What is wrong, in English.
    pub error: String,
    /// The error's stable code.
    pub code: String,
    /// The field of the request it is about (`hand`, `history[3]`, `last.seat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// A reply as the JSON value written on the wire (a struct of plain fields always converts).
fn to_wire(reply: &impl Serialize) -> Value {
    serde_json::to_value(reply).unwrap_or(Value::Null)
}

/// The reply to `hello`: [`HelloReply`].
pub fn hello_reply(id: &Value, name: &str) -> Value {
    to_wire(&HelloReply {
        id: id.clone(),
        name: name.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        protocol: PROTOCOL.to_string(),
    })
}

/// The reply to `act`: [`ActReply`], the move in the shortest notation that names it exactly
/// under `rules` (so wild and declared readings round-trip).
pub fn act_reply(id: &Value, m: &Move, rules: &Rules) -> Value {
    to_wire(&ActReply {
        id: id.clone(),
        cards: move_notation(m, rules),
    })
}

/// The reply to `bid`: [`BidReply`].
pub fn bid_reply(id: &Value, bid: Bid) -> Value {
    to_wire(&BidReply {
        id: id.clone(),
        bid,
    })
}

/// The reply to `double`: [`DoubleReply`].
pub fn double_reply(id: &Value, factor: u32) -> Value {
    to_wire(&DoubleReply {
        id: id.clone(),
        double: factor,
    })
}

/// The reply to `show`: [`ShowReply`].
pub fn show_reply(id: &Value, show: bool) -> Value {
    to_wire(&ShowReply {
        id: id.clone(),
        show,
    })
}

/// The reply to `result`: [`ResultReply`].
pub fn result_reply(id: &Value) -> Value {
    to_wire(&ResultReply {
        id: id.clone(),
        ok: true,
    })
}

/// The reply to a request that cannot be served for a reason of the session
/// ([`ErrorCode`]): [`ErrorReply`].
pub fn error_reply(id: &Value, code: ErrorCode, message: &str) -> Value {
    to_wire(&ErrorReply {
        id: id.clone(),
        error: message.to_string(),
        code: code.code().to_string(),
        field: None,
    })
}

/// The reply to a request that did not read: [`ErrorReply`] with the error's code and field.
pub fn rejection_reply(rejection: &Rejection) -> Value {
    to_wire(&ErrorReply {
        id: rejection.id.clone(),
        error: rejection.error.to_string(),
        code: rejection.error.code().to_string(),
        field: rejection.error.field().map(Field::path),
    })
}

// --- Requests, for a controller ------------------------------------------------------------

/// A request as a controller writes it: `{"protocol", "type", "id", ...}`, the protocol's name
/// first, then the tagged body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireRequest {
    /// The protocol's name ([`PROTOCOL`]).
    pub protocol: String,
    /// The request, tagged by its `type`.
    #[serde(flatten)]
    pub body: WireBody,
}

/// The body of a [`WireRequest`], tagged by `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WireBody {
    /// `hello`: introduce yourself.
    Hello(HelloWire),
    /// `act`: choose a play.
    Act(ActWire),
    /// `bid`: take part in bidding.
    Bid(BidWire),
    /// `double`: choose a doubling factor.
    Double(DoubleWire),
    /// `show`: show the hand now or not.
    Show(ShowWire),
    /// `result`: the game is over.
    Result(ResultWire),
}

/// A `hello` request's fields after `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelloWire {
    /// The request's id.
    pub id: Value,
}

/// The previous play still to beat, on the wire `{"seat", "cards"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastWire {
    /// The seat that made it.
    pub seat: usize,
    /// The play, in move notation.
    pub cards: String,
}

/// The app variants' fields (`shown`, `doubling`), sent when the rules have showing or
/// doubling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantsWire {
    /// Each shown seat's current hand, by seat number written as a string.
    pub shown: BTreeMap<String, String>,
    /// Each seat's doubling factor, or null while it has not chosen.
    pub doubling: Vec<Option<u32>>,
}

/// The fields of a seat once the landlord is decided and before play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BeforePlayWire {
    /// The landlord's seat.
    pub landlord_seat: usize,
    /// The seat's role (`landlord`, `farmer`).
    pub role: String,
    /// The number of cards in each seat's hand.
    pub cards_left: Vec<u32>,
    /// The kitty cards.
    pub bottom_cards_unplayed: String,
    /// The game's multiplier so far.
    pub multiplier: u32,
    /// The base stake.
    pub base: u32,
}

/// An `act` request's fields after `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActWire {
    /// The request's id.
    pub id: Value,
    /// The rules profile's name.
    pub rules: String,
    /// The wild ranks (`["9"]`).
    pub laizi: Vec<String>,
    /// The seat to play.
    pub seat: usize,
    /// The landlord's seat.
    pub landlord_seat: usize,
    /// The seat's role.
    pub role: String,
    /// The seat's hand.
    pub hand: String,
    /// The number of cards in each seat's hand, one a seat.
    pub cards_left: Vec<u32>,
    /// The cards each seat has played.
    pub played: Vec<String>,
    /// The kitty cards the landlord has not played.
    pub bottom_cards_unplayed: String,
    /// Every play so far, `[seat, cards]`.
    pub history: Vec<(usize, String)>,
    /// The play to beat, or null when leading.
    pub last: Option<LastWire>,
    /// The game's multiplier so far.
    pub multiplier: u32,
    /// The base stake.
    pub base: u32,
    /// The moves allowed, when the controller restricts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<Vec<String>>,
    /// Under `two`, the handicap (让牌) in force: the farmer wins on holding this many cards
    /// or fewer (docs/variants.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<u32>,
    /// The app variants' fields, when the rules have them.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub variants: Option<VariantsWire>,
}

/// A `bid` request's fields after `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidWire {
    /// The request's id.
    pub id: Value,
    /// The rules profile's name.
    pub rules: String,
    /// The bidding form (`points`, `call_rob`).
    pub form: String,
    /// The wild ranks.
    pub laizi: Vec<String>,
    /// The seat to bid.
    pub seat: usize,
    /// The seat's hand.
    pub hand: String,
    /// The bids so far, `[seat, bid]`.
    pub bids: Vec<(usize, Bid)>,
    /// The app variants' fields, when the rules have them.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub variants: Option<VariantsWire>,
}

/// A `double` request's fields after `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoubleWire {
    /// The request's id.
    pub id: Value,
    /// The rules profile's name.
    pub rules: String,
    /// The wild ranks.
    pub laizi: Vec<String>,
    /// The seat to choose.
    pub seat: usize,
    /// The seat's hand.
    pub hand: String,
    /// The factors allowed.
    pub choices: Vec<u32>,
    /// The seat's situation once the landlord is decided.
    #[serde(flatten)]
    pub before_play: BeforePlayWire,
    /// The app variants' fields, when the rules have them.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub variants: Option<VariantsWire>,
}

/// A `show` request's fields after `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowWire {
    /// The request's id.
    pub id: Value,
    /// The rules profile's name.
    pub rules: String,
    /// The wild ranks.
    pub laizi: Vec<String>,
    /// The seat to choose.
    pub seat: usize,
    /// The seat's hand so far.
    pub hand: String,
    /// The show window (`start`, `deal`, `landlord`).
    pub window: String,
    /// The factor a show gives.
    pub factor: u32,
    /// In the `landlord` window, the seat's situation.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub before_play: Option<BeforePlayWire>,
    /// In the `deal` window, the number of cards dealt so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards_dealt: Option<u32>,
    /// The app variants' fields, when the rules have them.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub variants: Option<VariantsWire>,
}

/// A `result` request's fields after `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultWire {
    /// The request's id.
    pub id: Value,
    /// The winning side (`landlord`, `farmers`).
    pub winner: String,
    /// The points of each seat.
    pub scores: Vec<i64>,
}

/// A request as the JSON value written on the wire.
fn request(body: WireBody) -> Value {
    to_wire(&WireRequest {
        protocol: PROTOCOL.to_string(),
        body,
    })
}

/// The wild ranks of rules, as the protocol writes them: `["9"]`.
fn laizi_value(rules: &Rules) -> Vec<String> {
    rules.laizi.iter().map(|r| r.letter().to_string()).collect()
}

/// A `hello` request.
pub fn hello_request(id: &Value) -> Value {
    request(WireBody::Hello(HelloWire { id: id.clone() }))
}

/// An `act` request for the seat of `view` (which must be playing), allowed `legal` when
/// given. The rules are named by their profile.
pub fn act_request<const N: usize>(
    id: &Value,
    view: &SeatView<N>,
    legal: Option<&[Move]>,
) -> Value {
    let rules = &view.rules();
    let notation = |m: &Move| move_notation(m, rules);
    let landlord = view.landlord().unwrap_or(view.seat());
    let bottom = view
        .kitty()
        .map(|k| k.saturating_minus(view.played()[landlord]))
        .unwrap_or(Cards::EMPTY);
    request(WireBody::Act(ActWire {
        id: id.clone(),
        rules: rules.profile.name().to_string(),
        laizi: laizi_value(rules),
        seat: view.seat().index(),
        landlord_seat: landlord.index(),
        role: Role::at::<N>(view.seat(), landlord).name().to_string(),
        hand: view.hand().to_string(),
        cards_left: view.cards_left().0.to_vec(),
        played: view.played().0.iter().map(|c| c.to_string()).collect(),
        bottom_cards_unplayed: bottom.to_string(),
        history: view
            .history()
            .iter()
            .map(|(s, m)| (s.index(), notation(m)))
            .collect(),
        last: view.last().map(|(s, m)| LastWire {
            seat: s.index(),
            cards: notation(&m),
        }),
        multiplier: view.multiplier(),
        base: view.base(),
        legal_moves: legal.map(|legal| legal.iter().map(notation).collect()),
        handicap: view.handicap().map(|(_, cards)| cards),
        variants: variants(view),
    }))
}

/// A `bid` request for the seat of `view` (which must be bidding).
pub fn bid_request<const N: usize>(id: &Value, view: &SeatView<N>) -> Value {
    let form = match view.rules().bidding {
        Bidding::CallRob => "call_rob",
        _ => "points",
    };
    request(WireBody::Bid(BidWire {
        id: id.clone(),
        rules: view.rules().profile.name().to_string(),
        form: form.to_string(),
        laizi: laizi_value(view.rules()),
        seat: view.seat().index(),
        hand: view.hand().to_string(),
        bids: view.bids().iter().map(|(s, b)| (s.index(), *b)).collect(),
        variants: variants(view),
    }))
}

/// Whether the rules of a view have the app variants (showing or doubling), whose requests
/// carry `shown` and `doubling`.
fn has_variants(rules: &Rules) -> bool {
    rules.show.enabled || rules.doubling.enabled
}

/// `shown` (each shown seat's current hand) and `doubling` (each seat's factor or null) when
/// the view's rules have the app variants.
fn variants<const N: usize>(view: &SeatView<N>) -> Option<VariantsWire> {
    if !has_variants(view.rules()) {
        return None;
    }
    let shown = view
        .shown()
        .iter()
        .filter_map(|(s, c)| c.map(|c| (s.index().to_string(), c.to_string())))
        .collect();
    Some(VariantsWire {
        shown,
        doubling: view.doublings().0.to_vec(),
    })
}

/// The fields of a seat once the landlord is decided and before play (`double`, `show` in
/// the `landlord` window).
fn before_play(view: &SeatView) -> BeforePlayWire {
    let landlord = view.landlord().unwrap_or(view.seat());
    BeforePlayWire {
        landlord_seat: landlord.index(),
        role: Role::of(view.seat(), landlord).name().to_string(),
        cards_left: view.cards_left().0.to_vec(),
        bottom_cards_unplayed: view.kitty().unwrap_or(Cards::EMPTY).to_string(),
        multiplier: view.multiplier(),
        base: view.base(),
    }
}

/// A `double` request for the seat of `view` (the landlord has the kitty), allowed `choices`.
pub fn double_request(id: &Value, view: &SeatView, choices: &[u32]) -> Value {
    request(WireBody::Double(DoubleWire {
        id: id.clone(),
        rules: view.rules().profile.name().to_string(),
        laizi: laizi_value(view.rules()),
        seat: view.seat().index(),
        hand: view.hand().to_string(),
        choices: choices.to_vec(),
        before_play: before_play(view),
        variants: variants(view),
    }))
}

/// A `show` request for the seat of `view` in its show window (`start` before the deal,
/// `deal` during it, `landlord` after doubling), for `factor`.
pub fn show_request(id: &Value, view: &SeatView, factor: u32) -> Value {
    let window = match view.phase() {
        Phase::LandlordShow => "landlord",
        _ if view.hand().is_empty() => "start",
        _ => "deal",
    };
    request(WireBody::Show(ShowWire {
        id: id.clone(),
        rules: view.rules().profile.name().to_string(),
        laizi: laizi_value(view.rules()),
        seat: view.seat().index(),
        hand: view.hand().to_string(),
        window: window.to_string(),
        factor,
        before_play: (window == "landlord").then(|| before_play(view)),
        cards_dealt: (window == "deal").then(|| view.hand().len()),
        variants: variants(view),
    }))
}

/// A `result` request for a finished game.
pub fn result_request<const N: usize>(id: &Value, result: &GameResult<N>) -> Value {
    let winner = match result.winner {
        Side::Landlord => "landlord",
        Side::Farmers => "farmers",
    };
    request(WireBody::Result(ResultWire {
        id: id.clone(),
        winner: winner.to_string(),
        scores: result.scores.0.to_vec(),
    }))
}
