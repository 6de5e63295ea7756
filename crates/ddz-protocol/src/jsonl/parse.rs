//! Reading a `ddz-jsonl/1` request line into a checked [`Incoming`] request, rebuilding the
//! seat's view by replaying its history.

use ddz_core::{
    Bidding, Cards, Move, Rank, Rules, is_legal, legal_moves, move_notation, parse_move,
};
use ddz_game::{ActionError, Bid, BySeat, Phase, PublicPlay, Role, Seat, SeatView, Side};
use serde_json::{Map, Value};

use super::limits::PROTOCOL;

use super::error::{Disallowed, Field, Problem, ProtocolError, invalid, invalid_key};
use super::messages::{
    ActRequest, BidRequest, DoubleRequest, Incoming, Rejection, Request, ShowRequest,
};

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
        && serde_json::from_value::<[u32; 3]>(v.clone()).ok() != Some(dealt.0)
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
