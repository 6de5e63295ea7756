//! The messages of `ddz-jsonl/1`: the checked requests, the replies a robot sends and the requests a controller sends.

use ddz_core::{Bidding, Cards, Move, Rules, move_notation};
use ddz_game::{Bid, GameResult, Phase, Role, SeatView, Side};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::error::ProtocolError;
use super::limits::PROTOCOL;

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

/// The reply to a request that cannot be served, on the wire `{"id", "error"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReply {
    /// The request's `id`, echoed (null when unknown).
    pub id: Value,
    /// What is wrong.
    pub error: String,
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

/// The reply to a request that cannot be served: [`ErrorReply`].
pub fn error_reply(id: &Value, message: &str) -> Value {
    to_wire(&ErrorReply {
        id: id.clone(),
        error: message.to_string(),
    })
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
