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
    Bidding, Cards, Move, Rank, Rules, is_legal, legal_moves, move_notation, parse_move,
};
use ddz_game::{ActionError, Bid, BySeat, GameResult, PublicPlay, Role, Seat, SeatView, Side};
use serde_json::{Map, Value, json};

use ddz_bots::Bot;

/// The protocol's name, sent in every request and in the hello reply.
pub const PROTOCOL: &str = "ddz-jsonl/1";

/// The longest request line served, in bytes (1 MiB, the newline not counted). Longer lines
/// are answered with an error without being parsed.
pub const MAX_LINE: usize = 1 << 20;

/// What is wrong with a request: a message that names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

/// An error from a message.
fn err<T>(message: impl Into<String>) -> Result<T, ProtocolError> {
    Err(ProtocolError(message.into()))
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

/// A request, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `hello`: the robot introduces itself.
    Hello,
    /// `act`: choose a play.
    Act(Box<ActRequest>),
    /// `bid`: take part in bidding.
    Bid(Box<BidRequest>),
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
        error: ProtocolError(format!("not JSON: {e}")),
    })?;
    let Value::Object(obj) = value else {
        return Err(Rejection {
            id: Value::Null,
            error: ProtocolError("not a JSON object".into()),
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
        other => return err(format!("\"protocol\": {other} is not \"{PROTOCOL}\"")),
    }
    if !obj.contains_key("id") {
        return err("missing \"id\"");
    }
    let kind = string(obj, "type")?;
    match kind {
        "hello" => Ok(Request::Hello),
        "act" => parse_act(obj, default_rules).map(|a| Request::Act(Box::new(a))),
        "bid" => parse_bid(obj, default_rules).map(|b| Request::Bid(Box::new(b))),
        "result" => parse_result(obj),
        other => err(format!(
            "unknown type \"{other}\" (types: hello, act, bid, result)"
        )),
    }
}

// --- Field readers -------------------------------------------------------------------------

fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a Value, ProtocolError> {
    obj.get(key)
        .ok_or_else(|| ProtocolError(format!("missing \"{key}\"")))
}

fn string<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a str, ProtocolError> {
    match get(obj, key)? {
        Value::String(s) => Ok(s),
        other => err(format!("\"{key}\": expected a string, not {other}")),
    }
}

/// A seat from a JSON value; `what` names the field in errors.
fn seat_value(v: &Value, what: &str) -> Result<Seat, ProtocolError> {
    v.as_u64()
        .and_then(|i| u8::try_from(i).ok())
        .and_then(Seat::new)
        .ok_or_else(|| ProtocolError(format!("{what}: {v} is not a seat (0, 1 or 2)")))
}

fn seat(obj: &Map<String, Value>, key: &str) -> Result<Seat, ProtocolError> {
    seat_value(get(obj, key)?, &format!("\"{key}\""))
}

/// Cards from a JSON string in canonical notation; `what` names the field in errors.
fn cards_value(v: &Value, what: &str) -> Result<Cards, ProtocolError> {
    match v {
        Value::String(s) => s
            .parse::<Cards>()
            .map_err(|e| ProtocolError(format!("{what}: {e}"))),
        other => err(format!("{what}: expected cards as a string, not {other}")),
    }
}

fn cards(obj: &Map<String, Value>, key: &str) -> Result<Cards, ProtocolError> {
    cards_value(get(obj, key)?, &format!("\"{key}\""))
}

fn array<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], ProtocolError> {
    match get(obj, key)? {
        Value::Array(a) => Ok(a),
        other => err(format!("\"{key}\": expected an array, not {other}")),
    }
}

/// An optional positive integer (the stake fields), 1 when absent.
fn stake(obj: &Map<String, Value>, key: &str) -> Result<u32, ProtocolError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(1),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| ProtocolError(format!("\"{key}\": {v} is not a positive integer"))),
    }
}

/// The rules of a request: its `rules` profile or the default, with its `laizi` applied.
fn request_rules(obj: &Map<String, Value>, default_rules: &Rules) -> Result<Rules, ProtocolError> {
    let rules = match obj.get("rules") {
        None | Some(Value::Null) => default_rules.clone(),
        Some(Value::String(name)) => {
            Rules::from_profile_name(name).map_err(|e| ProtocolError(format!("\"rules\": {e}")))?
        }
        Some(other) => return err(format!("\"rules\": expected a profile name, not {other}")),
    };
    let Some(laizi) = obj.get("laizi").filter(|v| !v.is_null()) else {
        return Ok(rules);
    };
    let Value::Array(items) = laizi else {
        return err(format!(
            "\"laizi\": expected an array of ranks, not {laizi}"
        ));
    };
    let ranks = items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let what = format!("\"laizi\"[{i}]");
            let c = cards_value(v, &what)?;
            match (c.len(), c.lowest()) {
                (1, Some(r)) => Ok(r),
                _ => err(format!("{what}: {v} is not one rank")),
            }
        })
        .collect::<Result<Vec<Rank>, _>>()?;
    rules
        .with_laizi(&ranks)
        .map_err(|e| ProtocolError(format!("\"laizi\": {e}")))
}

fn role_of(obj: &Map<String, Value>) -> Result<Role, ProtocolError> {
    match string(obj, "role")? {
        "landlord" => Ok(Role::Landlord),
        "landlord_down" => Ok(Role::LandlordDown),
        "landlord_up" => Ok(Role::LandlordUp),
        other => err(format!(
            "\"role\": \"{other}\" is not landlord, landlord_down or landlord_up"
        )),
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
        let what = format!("\"history\"[{i}]");
        let (s, text) = match entry.as_array().map(Vec::as_slice) {
            Some([s, Value::String(t)]) => (seat_value(s, &what)?, t),
            _ => return err(format!("{what}: {entry} is not [seat, move]")),
        };
        let turn = r.public.trick.turn();
        if s != turn {
            return err(format!(
                "{what}: seat {s} plays out of turn (seat {turn} was to play)"
            ));
        }
        let beat = r.public.trick.to_beat().copied();
        let m = parse_move(text, rules, beat.as_ref())
            .map_err(|e| ProtocolError(format!("{what}: \"{text}\": {e}")))?;
        if !m.is_pass() {
            all = all.union(m.cards());
            if !all.is_valid_deck_subset() {
                return err(format!(
                    "{what}: \"{text}\" makes more cards played than a deck holds"
                ));
            }
        }
        r.public.push(s, m, rules).map_err(|e| match e {
            ActionError::PassWhenLeading => {
                ProtocolError(format!("{what}: seat {s} passes while leading a trick"))
            }
            other => ProtocolError(format!("{what}: \"{text}\": {other}")),
        })?;
        if !m.is_pass() {
            r.context = beat;
        }
    }
    Ok(r)
}

fn parse_act(obj: &Map<String, Value>, default_rules: &Rules) -> Result<ActRequest, ProtocolError> {
    let rules = request_rules(obj, default_rules)?;
    let me = seat(obj, "seat")?;
    let landlord = seat(obj, "landlord_seat")?;
    let role = role_of(obj)?;
    let expected = Role::of(me, landlord);
    if role != expected {
        return err(format!(
            "\"role\": seat {me} with the landlord in seat {landlord} is {}, not {}",
            expected.name(),
            role.name()
        ));
    }
    let hand = cards(obj, "hand")?;
    if hand.is_empty() {
        return err("\"hand\": no cards (the game is over)");
    }
    let cards_left = match array(obj, "cards_left")? {
        [a, b, c] => {
            let count = |v: &Value| {
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|n| (1..=20).contains(n))
                    .ok_or_else(|| {
                        ProtocolError(format!("\"cards_left\": {v} is not a card count 1-20"))
                    })
            };
            BySeat([count(a)?, count(b)?, count(c)?])
        }
        other => {
            return err(format!(
                "\"cards_left\": expected 3 counts, got {}",
                other.len()
            ));
        }
    };
    if cards_left[me] != hand.len() {
        return err(format!(
            "\"cards_left\": seat {me} has {} cards left, but \"hand\" holds {}",
            cards_left[me],
            hand.len()
        ));
    }

    let replayed = replay_history(array(obj, "history")?, &rules, landlord)?;
    let played = replayed.public.played;
    if replayed.public.trick.turn() != me {
        return err(format!(
            "\"seat\": after \"history\" seat {} is to play, not seat {me}",
            replayed.public.trick.turn()
        ));
    }
    for (s, &left) in cards_left.iter() {
        let dealt = if s == landlord { 20 } else { 17 };
        let played = played[s].len();
        if left + played > dealt {
            return err(format!(
                "\"cards_left\": seat {s} has {left} left and played {played}: more than the {dealt} it was dealt"
            ));
        }
    }
    let total = played
        .iter()
        .fold(Cards::EMPTY, |acc, (_, c)| acc.union(*c));
    if !hand.union(total).is_valid_deck_subset() {
        return err(format!(
            "\"hand\": {hand} and the cards played ({total}) hold more cards than a deck"
        ));
    }
    if let Some(v) = obj.get("played").filter(|v| !v.is_null()) {
        let Some(items) = v.as_array().filter(|a| a.len() == 3) else {
            return err(format!("\"played\": expected 3 card strings, not {v}"));
        };
        for (s, item) in Seat::ALL.into_iter().zip(items) {
            let what = format!("\"played\"[{s}]");
            let c = cards_value(item, &what)?;
            if c != played[s] {
                return err(format!(
                    "{what}: \"{c}\" is not what seat {s} played in \"history\" (\"{}\")",
                    played[s]
                ));
            }
        }
    }
    if let Some(v) = obj.get("bottom_cards_unplayed").filter(|v| !v.is_null()) {
        let bottom = cards_value(v, "\"bottom_cards_unplayed\"")?;
        if bottom.len() > 3 {
            return err(format!(
                "\"bottom_cards_unplayed\": {bottom} is more than the 3 kitty cards"
            ));
        }
        if me == landlord && !hand.contains(bottom) {
            return err(format!(
                "\"bottom_cards_unplayed\": {bottom} is not in the landlord's \"hand\""
            ));
        }
    }

    let last = match get(obj, "last")? {
        Value::Null => None,
        Value::Object(l) => {
            let s = seat_value(get(l, "seat").map_err(in_last)?, "\"last.seat\"")?;
            if s == me {
                return err(format!(
                    "\"last.seat\": seat {s} is the seat to act; the play to beat is another seat's"
                ));
            }
            let text = match get(l, "cards").map_err(in_last)? {
                Value::String(t) => t,
                other => return err(format!("\"last.cards\": expected a move, not {other}")),
            };
            let context = replayed.context;
            let m = parse_move(text, &rules, context.as_ref())
                .map_err(|e| ProtocolError(format!("\"last.cards\": \"{text}\": {e}")))?;
            if m.is_pass() {
                return err("\"last.cards\": a pass is never the play to beat (use null)");
            }
            Some((s, m))
        }
        other => {
            return err(format!(
                "\"last\": expected {{\"seat\", \"cards\"}} or null, not {other}"
            ));
        }
    };
    let derived = replayed.public.trick.last();
    if last != derived {
        let shown = |l: Option<(Seat, Move)>| match l {
            Some((s, m)) => format!("{} by seat {s}", move_notation(&m, &rules)),
            None => "null (the robot leads)".to_string(),
        };
        return err(format!(
            "\"last\": {} does not match \"history\", whose play to beat is {}",
            shown(last),
            shown(derived)
        ));
    }

    let beat = last.map(|(_, m)| m);
    let allowed = match obj.get("legal_moves").filter(|v| !v.is_null()) {
        None => legal_moves(hand, beat.as_ref(), &rules),
        Some(Value::Array(items)) if items.is_empty() => {
            return err("\"legal_moves\": empty (omit it to allow every legal play)");
        }
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| allowed_move(i, v, hand, beat.as_ref(), &rules))
            .collect::<Result<Vec<Move>, _>>()?,
        Some(other) => return err(format!("\"legal_moves\": expected an array, not {other}")),
    };

    let mut view = SeatView::playing(&rules, me, landlord, hand, cards_left, replayed.public);
    view.base = stake(obj, "base")?;
    view.multiplier = stake(obj, "multiplier")?;
    Ok(ActRequest { view, allowed })
}

/// Prefixes an error met inside `last` with the field's name.
fn in_last(e: ProtocolError) -> ProtocolError {
    ProtocolError(format!("\"last\": {e}"))
}

/// One entry of `legal_moves`, read against the play to beat and checked legal for the hand.
fn allowed_move(
    i: usize,
    v: &Value,
    hand: Cards,
    beat: Option<&Move>,
    rules: &Rules,
) -> Result<Move, ProtocolError> {
    let what = format!("\"legal_moves\"[{i}]");
    let Value::String(text) = v else {
        return err(format!("{what}: expected a move, not {v}"));
    };
    let m = parse_move(text, rules, beat)
        .map_err(|e| ProtocolError(format!("{what}: \"{text}\": {e}")))?;
    if is_legal(hand, beat, &m, rules) {
        return Ok(m);
    }
    let why = if m.is_pass() {
        "a pass is not allowed when leading".to_string()
    } else if !hand.contains(m.cards()) {
        format!("{} is not in \"hand\"", m.cards())
    } else {
        "not a legal play here".to_string()
    };
    err(format!("{what}: \"{text}\": {why}"))
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
            return err(format!(
                "\"form\": {other} is not \"points\" or \"call_rob\""
            ));
        }
    };
    let me = seat(obj, "seat")?;
    let hand = cards(obj, "hand")?;
    if hand.is_empty() || hand.len() > 20 {
        return err(format!(
            "\"hand\": {} cards; a hand bids with 1 to 20",
            hand.len()
        ));
    }
    let entries = match obj.get("bids") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(a)) => a.as_slice(),
        Some(other) => return err(format!("\"bids\": expected an array, not {other}")),
    };
    let mut bids: Vec<(Seat, Bid)> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let what = format!("\"bids\"[{i}]");
        let (s, b) = match entry.as_array().map(Vec::as_slice) {
            Some([s, b]) => (seat_value(s, &what)?, b),
            _ => return err(format!("{what}: {entry} is not [seat, bid]")),
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
            return err(format!("{what}: bid {b} is not 0 to {top}"));
        };
        let high = bids.iter().map(|x| x.1).max().unwrap_or(0);
        if rules.bidding == Bidding::Points {
            if let Some(&(prev, _)) = bids.last()
                && s != prev.next()
            {
                return err(format!(
                    "{what}: seat {s} bids out of turn (seat {} was to bid)",
                    prev.next()
                ));
            }
            if b != 0 && b <= high {
                return err(format!("{what}: bid {b} is not above the bid {high}"));
            }
        }
        bids.push((s, b));
    }
    if let Some(&(prev, _)) = bids.last() {
        let over =
            rules.bidding == Bidding::Points && (bids.len() >= 3 || bids.iter().any(|b| b.1 == 3));
        if over {
            return err("\"bids\": the bidding is already over");
        }
        if prev == me || (rules.bidding == Bidding::Points && prev.next() != me) {
            return err(format!(
                "\"seat\": seat {me} cannot bid right after seat {prev}"
            ));
        }
    }
    let view = SeatView::bidding(&rules, me, hand, bids);
    let allowed = view.legal_bids();
    Ok(BidRequest { view, allowed })
}

// --- result --------------------------------------------------------------------------------

fn parse_result(obj: &Map<String, Value>) -> Result<Request, ProtocolError> {
    let winner = match obj.get("winner") {
        None | Some(Value::Null) => None,
        Some(Value::String(w)) if w == "landlord" => Some(Side::Landlord),
        Some(Value::String(w)) if w == "farmers" => Some(Side::Farmers),
        Some(other) => {
            return err(format!(
                "\"winner\": {other} is not \"landlord\" or \"farmers\""
            ));
        }
    };
    let scores = match obj.get("scores") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_array().map(Vec::as_slice) {
            Some([a, b, c]) => match (a.as_i64(), b.as_i64(), c.as_i64()) {
                (Some(a), Some(b), Some(c)) => Some([a, b, c]),
                _ => return err(format!("\"scores\": {v} is not 3 integers")),
            },
            _ => return err(format!("\"scores\": {v} is not 3 integers")),
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
        Err(r) => error_reply(&r.id, &r.error.0),
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
                act_reply(&id, &m, &act.view.rules)
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
    let rules = &view.rules;
    let notation = |m: &Move| move_notation(m, rules);
    let landlord = view.landlord.unwrap_or(view.seat);
    let bottom = view
        .kitty
        .map(|k| k.saturating_minus(view.played[landlord]))
        .unwrap_or(Cards::EMPTY);
    let mut req = json!({
        "protocol": PROTOCOL, "type": "act", "id": id,
        "rules": rules.profile.name(), "laizi": laizi_value(rules),
        "seat": view.seat.index(), "landlord_seat": landlord.index(),
        "role": Role::of(view.seat, landlord).name(),
        "hand": view.hand.to_string(),
        "cards_left": view.cards_left.0,
        "played": view.played.0.map(|c| c.to_string()),
        "bottom_cards_unplayed": bottom.to_string(),
        "history": view.history.iter().map(|(s, m)| json!([s.index(), notation(m)]))
            .collect::<Vec<_>>(),
        "last": view.last.map(|(s, m)| json!({"seat": s.index(), "cards": notation(&m)})),
        "multiplier": view.multiplier, "base": view.base,
    });
    if let (Some(legal), Value::Object(obj)) = (legal, &mut req) {
        let moves: Vec<String> = legal.iter().map(notation).collect();
        obj.insert("legal_moves".into(), json!(moves));
    }
    req
}

/// A `bid` request for the seat of `view` (which must be bidding).
pub fn bid_request(id: &Value, view: &SeatView) -> Value {
    let form = match view.rules.bidding {
        Bidding::CallRob => "call_rob",
        _ => "points",
    };
    json!({
        "protocol": PROTOCOL, "type": "bid", "id": id,
        "rules": view.rules.profile.name(), "form": form, "laizi": laizi_value(&view.rules),
        "seat": view.seat.index(), "hand": view.hand.to_string(),
        "bids": view.bids.iter().map(|(s, b)| json!([s.index(), b])).collect::<Vec<_>>(),
    })
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
