//! Reading a `ddz-jsonl/1` request line into a checked [`Incoming`] request, rebuilding the
//! seat's view by replaying its history.
//!
//! Each request type's fields are a serde struct of [`Sent`] fields (`ActFields`,
//! `BidFields`, ...), read from the line once it is known to be an object; the checks that
//! follow turn what was sent into the view and say, in the protocol's words, what is wrong.

use core::num::NonZeroU32;

use ddz_core::{Bidding, Cards, Move, Rules, is_legal, legal_moves, move_notation, parse_move};
use ddz_game::{ActionError, Bid, BySeat, Phase, PublicPlay, Seat, SeatView, Side};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::limits::PROTOCOL;
use super::read::{
    RulesFields, SeatFields, array, cards, cards_value, kitty, move_value, request_rules, seat,
    seat_and_landlord, seat_value, stake, string,
};

use super::error::{Disallowed, Field, Problem, ProtocolError, invalid, invalid_key};
use super::messages::{
    ActRequest, BidRequest, DoubleRequest, Incoming, Rejection, Request, ShowRequest,
};
use crate::sent::{Entries, Listed, Object, Sent, json_text};

/// Parses and checks one request line. Fields that depend on rules are read under the
/// request's `rules` profile when given, else under `default_rules`; `laizi` (when given) sets
/// the wild ranks. The requests of a three-seat game; [`parse_request_at`] reads those of a
/// table of two or four.
pub fn parse_request(line: &str, default_rules: &Rules) -> Result<Incoming, Rejection> {
    parse_request_at::<3>(line, default_rules)
}

/// [`parse_request`] at a table of `N` seats (docs/variants.md): `cards_left`, `played`,
/// `doubling` and `scores` hold one entry a seat, seats are 0 to `N - 1`, the hand sizes are
/// the rules' (25 and 33 under `four`), and a request's `rules` must seat `N`.
pub fn parse_request_at<const N: usize>(
    line: &str,
    default_rules: &Rules,
) -> Result<Incoming<N>, Rejection> {
    let object: Value = serde_json::from_str(line).map_err(|e| Rejection {
        id: Value::Null,
        error: ProtocolError::NotJson(e.to_string()),
    })?;
    let Some(envelope) = crate::sent::fields::<Envelope>(&object) else {
        return Err(Rejection {
            id: Value::Null,
            error: ProtocolError::NotObject,
        });
    };
    let Envelope { protocol, id, kind } = envelope;
    let (id, id_sent) = match id {
        Sent::Absent => (Value::Null, false),
        Sent::Read(id) => (id, true),
        Sent::Null | Sent::Other(_) => (Value::Null, true),
    };
    match parse_object::<N>(protocol, kind, id_sent, &object, default_rules) {
        Ok(request) => Ok(Incoming { id, request }),
        Err(error) => Err(Rejection { id, error }),
    }
}

/// The fields every request has.
#[derive(Default, Deserialize)]
#[serde(default)]
struct Envelope {
    protocol: Sent<String>,
    id: Sent<Value>,
    #[serde(rename = "type")]
    kind: Sent<String>,
}

/// Checks the envelope (`protocol`, `id`, `type`) and reads the request its type names.
fn parse_object<const N: usize>(
    protocol: Sent<String>,
    kind: Sent<String>,
    id_sent: bool,
    object: &Value,
    default_rules: &Rules,
) -> Result<Request<N>, ProtocolError> {
    match protocol.present() {
        None => return Err(ProtocolError::Missing(Field::Key("protocol"))),
        Some(Ok(p)) if p == PROTOCOL => {}
        Some(other) => {
            let sent = other.map_or_else(|text| text, |p| json_text(&p));
            return invalid_key("protocol", Problem::WrongProtocol(sent));
        }
    }
    if !id_sent {
        return Err(ProtocolError::Missing(Field::Key("id")));
    }
    let kind = string(kind, "type")?;
    match kind.as_str() {
        "hello" => Ok(Request::Hello),
        "act" => parse_act::<N>(fields(object)?, default_rules).map(|a| Request::Act(Box::new(a))),
        "bid" => parse_bid::<N>(fields(object)?, default_rules).map(|b| Request::Bid(Box::new(b))),
        "double" => {
            parse_double::<N>(fields(object)?, default_rules).map(|d| Request::Double(Box::new(d)))
        }
        "show" => {
            parse_show::<N>(fields(object)?, default_rules).map(|s| Request::Show(Box::new(s)))
        }
        "result" => parse_result::<N>(fields(object)?),
        _ => Err(ProtocolError::UnknownType(kind)),
    }
}

/// A request type's fields, read from the request object.
fn fields<T: DeserializeOwned>(object: &Value) -> Result<T, ProtocolError> {
    crate::sent::fields(object).ok_or(ProtocolError::NotObject)
}

// --- The fields of each request type ---------------------------------------------------------

/// The optional stake, kitty, shown hands and doublings, read by `act`, `double` and `show`.
#[derive(Default, Deserialize)]
#[serde(default)]
struct TableFields {
    base: Sent<NonZeroU32>,
    multiplier: Sent<NonZeroU32>,
    bottom_cards_unplayed: Sent<String>,
    shown: Sent<Entries<Sent<String>>>,
    doubling: Sent<Listed<Option<NonZeroU32>>>,
}

/// An entry of `history`: `[seat, move]`.
type PlayEntry = Sent<(Sent<u64>, String)>;

/// An entry of `bids`: `[seat, bid]`.
type BidEntry = Sent<(Sent<u64>, Sent<u64>)>;

/// An `act` request.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ActFields {
    #[serde(flatten)]
    rules: RulesFields,
    #[serde(flatten)]
    seats: SeatFields,
    #[serde(flatten)]
    table: TableFields,
    hand: Sent<String>,
    cards_left: Sent<Vec<Sent<u64>>>,
    history: Sent<Vec<PlayEntry>>,
    played: Sent<Listed<Sent<String>>>,
    last: Sent<Object<LastFields>>,
    legal_moves: Sent<Vec<Sent<String>>>,
    handicap: Sent<u32>,
}

/// The `last` object of an `act` request.
#[derive(Default, Deserialize)]
#[serde(default)]
struct LastFields {
    seat: Sent<u64>,
    cards: Sent<String>,
}

/// A `bid` request.
#[derive(Default, Deserialize)]
#[serde(default)]
struct BidFields {
    #[serde(flatten)]
    rules: RulesFields,
    #[serde(flatten)]
    table: TableFields,
    form: Sent<String>,
    seat: Sent<u64>,
    hand: Sent<String>,
    bids: Sent<Vec<BidEntry>>,
}

/// The fields of a view once the landlord has the kitty and before the first play.
#[derive(Default, Deserialize)]
#[serde(default)]
struct BeforePlayFields {
    #[serde(flatten)]
    seats: SeatFields,
    #[serde(flatten)]
    table: TableFields,
    hand: Sent<String>,
    cards_left: Sent<Listed<u32>>,
}

/// A `double` request.
#[derive(Default, Deserialize)]
#[serde(default)]
struct DoubleFields {
    #[serde(flatten)]
    rules: RulesFields,
    #[serde(flatten)]
    before_play: BeforePlayFields,
    choices: Sent<Vec<NonZeroU32>>,
}

/// A `show` request.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ShowFields {
    #[serde(flatten)]
    rules: RulesFields,
    #[serde(flatten)]
    before_play: BeforePlayFields,
    factor: Sent<NonZeroU32>,
    window: Sent<String>,
    cards_dealt: Sent<u32>,
}

/// A `result` request.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ResultFields {
    winner: Sent<String>,
    scores: Sent<Listed<i64>>,
}

// --- act -------------------------------------------------------------------------------------

/// The plays of a history, replayed ([`PublicPlay`]), with the play the last non-pass play
/// beat itself (the context it was read in).
struct Replayed<const N: usize> {
    public: PublicPlay<N>,
    context: Option<Move>,
}

/// Reads `history` in play order from the landlord's lead, checking turns, readings and that
/// no more cards are played than a deck holds.
fn replay_history<const N: usize>(
    entries: Vec<PlayEntry>,
    rules: &Rules,
    landlord: Seat,
) -> Result<Replayed<N>, ProtocolError> {
    let mut r = Replayed {
        public: PublicPlay::new(landlord),
        context: None,
    };
    let mut all = Cards::EMPTY;
    for (i, entry) in entries.into_iter().enumerate() {
        let field = Field::Entry("history", i);
        let (s, text) = match entry.sent() {
            Ok((s, text)) => (seat_value::<N>(s.sent(), field)?, text),
            Err(sent) => return invalid(field, Problem::NotSeatMove(sent)),
        };
        let turn = r.public.trick().turn();
        if s != turn {
            return invalid(field, Problem::PlaysOutOfTurn { seat: s, turn });
        }
        let beat = r.public.trick().to_beat().copied();
        let m = match parse_move(&text, rules, beat.as_ref()) {
            Ok(m) => m,
            Err(error) => return invalid(field, Problem::BadMove { text, error }),
        };
        if !m.is_pass() {
            all = all.union(m.cards());
            if !rules.deck().contains(all) {
                return invalid(field, Problem::MoreThanDeck { text });
            }
        }
        if let Err(e) = r.public.push(s, m, rules) {
            let problem = match e {
                ActionError::PassWhenLeading => Problem::PassWhenLeading { seat: s },
                error => Problem::Refused { text, error },
            };
            return invalid(field, problem);
        }
        if !m.is_pass() {
            r.context = beat;
        }
    }
    Ok(r)
}

/// The most cards a hand holds under `rules`: the landlord's, with the kitty (20 at the
/// classic table).
fn most_cards(rules: &Rules) -> u32 {
    rules.hand_cards() + rules.kitty_cards()
}

/// The `N` counts of `cards_left`, each 1 to [`most_cards`].
fn card_counts<const N: usize>(
    sent: Sent<Vec<Sent<u64>>>,
    rules: &Rules,
) -> Result<BySeat<u32, N>, ProtocolError> {
    let items = array(sent, "cards_left")?;
    let most = most_cards(rules);
    let count = |item: Sent<u64>| match item.sent() {
        Ok(n) => match u32::try_from(n).ok().filter(|n| (1..=most).contains(n)) {
            Some(n) => Ok(n),
            None => invalid_key("cards_left", Problem::NotCardCount(n.to_string(), most)),
        },
        Err(text) => invalid_key("cards_left", Problem::NotCardCount(text, most)),
    };
    match <[Sent<u64>; N]>::try_from(items) {
        Ok(items) => {
            let mut counts = [0; N];
            for (slot, item) in counts.iter_mut().zip(items) {
                *slot = count(item)?;
            }
            Ok(BySeat(counts))
        }
        Err(items) => {
            let given = items.len();
            invalid_key("cards_left", Problem::NotThreeCounts { given, seats: N })
        }
    }
}

/// The cards a seat was dealt, once the landlord has the kitty (20 for the classic landlord,
/// 17 for a farmer).
fn dealt_cards(rules: &Rules, seat: Seat, landlord: Seat) -> u32 {
    if seat == landlord {
        most_cards(rules)
    } else {
        rules.hand_cards()
    }
}

fn parse_act<const N: usize>(
    fields: ActFields,
    default_rules: &Rules,
) -> Result<ActRequest<N>, ProtocolError> {
    let rules = request_rules::<N>(fields.rules, default_rules)?;
    let (me, landlord) = seat_and_landlord::<N>(fields.seats)?;
    let hand = cards(fields.hand, "hand", &rules)?;
    if hand.is_empty() {
        return invalid_key("hand", Problem::EmptyHand);
    }
    let cards_left = card_counts::<N>(fields.cards_left, &rules)?;
    if cards_left[me] != hand.len() {
        let problem = Problem::CountIsNotHand {
            seat: me,
            left: cards_left[me],
            held: hand.len(),
        };
        return invalid_key("cards_left", problem);
    }

    let replayed = replay_history::<N>(array(fields.history, "history")?, &rules, landlord)?;
    let played = replayed.public.played();
    let turn = replayed.public.trick().turn();
    if turn != me {
        return invalid_key("seat", Problem::NotToPlay { turn, seat: me });
    }
    for (s, &left) in cards_left.iter() {
        let dealt = dealt_cards(&rules, s, landlord);
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
    if !rules.deck().contains(hand.union(total)) {
        let problem = Problem::HandAndPlayed {
            hand,
            played: total,
        };
        return invalid_key("hand", problem);
    }
    match fields.played.given() {
        None => {}
        Some(sent) => {
            let items = sent
                .and_then(Listed::seats::<N>)
                .or_else(|text| invalid_key("played", Problem::NotThreeCardStrings(text, N)))?;
            for (s, item) in Seat::all::<N>().into_iter().zip(items) {
                let field = Field::Entry("played", s.index());
                let given = cards_value(item.sent(), field, &rules)?;
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
    }
    kitty(
        fields.table.bottom_cards_unplayed.clone(),
        (me, landlord),
        hand,
        &rules,
    )?;

    let last = match fields.last {
        Sent::Absent => return Err(ProtocolError::Missing(Field::Key("last"))),
        Sent::Null => None,
        Sent::Other(text) => return invalid_key("last", Problem::NotLast(text)),
        Sent::Read(Object(l)) => {
            let s = seat::<N>(l.seat, Field::Last("seat"))?;
            if s == me {
                return invalid(Field::Last("seat"), Problem::LastIsOwn(s));
            }
            let text = match l.cards.present() {
                None => return Err(ProtocolError::Missing(Field::Last("cards"))),
                Some(Ok(text)) => text,
                Some(Err(sent)) => return invalid(Field::Last("cards"), Problem::NotMove(sent)),
            };
            let m = move_value(
                text,
                Field::Last("cards"),
                &rules,
                replayed.context.as_ref(),
            )?;
            if m.is_pass() {
                return invalid(Field::Last("cards"), Problem::PassToBeat);
            }
            Some((s, m))
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
    let allowed = match fields.legal_moves.given() {
        None => legal_moves(hand, beat.as_ref(), &rules),
        Some(Ok(items)) if items.is_empty() => {
            return invalid_key("legal_moves", Problem::NoLegalMoves);
        }
        Some(Ok(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| allowed_move(i, item, hand, beat.as_ref(), &rules))
            .collect::<Result<Vec<Move>, _>>()?,
        Some(Err(text)) => return invalid_key("legal_moves", Problem::NotArray(text)),
    };

    let base = stake(fields.table.base.clone(), "base")?;
    let multiplier = stake(fields.table.multiplier.clone(), "multiplier")?;
    let handicap = handicap::<N>(fields.handicap, &rules, landlord)?;
    let view = SeatView::playing(&rules, me, landlord, hand, cards_left, replayed.public)
        .with_stake(base, multiplier)
        .with_handicap(handicap);
    let view = read_variants(fields.table, view)?;
    Ok(ActRequest { view, allowed })
}

/// The `handicap` of an `act` request under rules with the handicap (让牌, `two`): required,
/// 1 to 3 cards (1 + robs), the farmer's, who plays after the landlord; refused under other
/// rules.
fn handicap<const N: usize>(
    sent: Sent<u32>,
    rules: &Rules,
    landlord: Seat,
) -> Result<Option<(Seat, u32)>, ProtocolError> {
    match (rules.handicap, sent.given()) {
        (false, None) => Ok(None),
        (false, Some(_)) => invalid_key("handicap", Problem::NoHandicap),
        (true, None) => Err(ProtocolError::Missing(Field::Key("handicap"))),
        (true, Some(Ok(cards))) if (1..=3).contains(&cards) => {
            Ok(Some((landlord.next_of::<N>(), cards)))
        }
        (true, Some(Ok(cards))) => invalid_key("handicap", Problem::Handicap(cards.to_string())),
        (true, Some(Err(text))) => invalid_key("handicap", Problem::Handicap(text)),
    }
}

/// One entry of `legal_moves`, read against the play to beat and checked legal for the hand.
fn allowed_move(
    i: usize,
    item: Sent<String>,
    hand: Cards,
    beat: Option<&Move>,
    rules: &Rules,
) -> Result<Move, ProtocolError> {
    let field = Field::Entry("legal_moves", i);
    let text = match item.sent() {
        Ok(text) => text,
        Err(sent) => return invalid(field, Problem::NotMove(sent)),
    };
    let m = move_value(text.clone(), field, rules, beat)?;
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
    invalid(field, Problem::NotAllowed { text, why })
}

// --- bid -------------------------------------------------------------------------------------

fn parse_bid<const N: usize>(
    fields: BidFields,
    default_rules: &Rules,
) -> Result<BidRequest<N>, ProtocolError> {
    let mut rules = request_rules::<N>(fields.rules, default_rules)?;
    rules.bidding = match fields.form.given() {
        None => match rules.bidding {
            Bidding::CallRob => Bidding::CallRob,
            _ => Bidding::Points,
        },
        Some(Ok(f)) if f == "points" => Bidding::Points,
        Some(Ok(f)) if f == "call_rob" => Bidding::CallRob,
        Some(other) => {
            let sent = other.map_or_else(|text| text, |f| json_text(&f));
            return invalid_key("form", Problem::UnknownForm(sent));
        }
    };
    let me = seat::<N>(fields.seat, Field::Key("seat"))?;
    let hand = cards(fields.hand, "hand", &rules)?;
    if hand.is_empty() || hand.len() > most_cards(&rules) {
        return invalid_key("hand", Problem::BidHandSize(hand.len(), most_cards(&rules)));
    }
    let entries = match fields.bids.given() {
        None => Vec::new(),
        Some(Ok(entries)) => entries,
        Some(Err(text)) => return invalid_key("bids", Problem::NotArray(text)),
    };
    let top = if rules.bidding == Bidding::Points {
        3
    } else {
        1
    };
    let mut bids: Vec<(Seat, Bid)> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let field = Field::Entry("bids", i);
        let (s, b) = match entry.sent() {
            Ok((s, b)) => (seat_value::<N>(s.sent(), field)?, b.sent()),
            Err(sent) => return invalid(field, Problem::NotSeatBid(sent)),
        };
        let b = match b {
            Ok(b) => match u8::try_from(b).ok().filter(|&b| b <= top) {
                Some(b) => b,
                None => {
                    let sent = b.to_string();
                    return invalid(field, Problem::BidRange { sent, top });
                }
            },
            Err(sent) => return invalid(field, Problem::BidRange { sent, top }),
        };
        let high = bids.iter().map(|x| x.1).max().unwrap_or(0);
        if rules.bidding == Bidding::Points {
            if let Some(&(prev, _)) = bids.last()
                && s != prev.next_of::<N>()
            {
                let problem = Problem::BidsOutOfTurn {
                    seat: s,
                    turn: prev.next_of::<N>(),
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
            rules.bidding == Bidding::Points && (bids.len() >= N || bids.iter().any(|b| b.1 == 3));
        if over {
            return invalid_key("bids", Problem::BiddingOver);
        }
        if last == me || (rules.bidding == Bidding::Points && last.next_of::<N>() != me) {
            return invalid_key("seat", Problem::CannotBidAfter { seat: me, last });
        }
    }
    let view = read_variants(fields.table, SeatView::bidding(&rules, me, hand, bids))?;
    let allowed = view.legal_bids();
    Ok(BidRequest { view, allowed })
}

// --- shown hands and doublings, double, show -------------------------------------------------

/// Reads the optional `shown` (each shown seat's current hand) and `doubling` (each seat's
/// factor or null) into `view`, checking the shown hands against the counts of cards left
/// and the seat's own hand.
fn read_variants<const N: usize>(
    fields: TableFields,
    view: SeatView<N>,
) -> Result<SeatView<N>, ProtocolError> {
    let mut shown = *view.shown();
    let mut doublings = *view.doublings();
    match fields.shown.given() {
        None => {}
        Some(Err(text)) => return invalid_key("shown", Problem::NotShown(text)),
        Some(Ok(Entries(entries))) => {
            let mut all = view.hand();
            for (key, cards) in entries {
                let s = match key.parse::<u8>().ok().and_then(Seat::of::<N>) {
                    Some(s) => s,
                    None => {
                        return invalid_key("shown", Problem::NotSeat(json_text(&key), N));
                    }
                };
                let c = cards_value(cards.sent(), Field::Key("shown"), view.rules())?;
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
            if !view.rules().deck().contains(all) {
                return invalid_key("shown", Problem::ShownAndHand(all));
            }
        }
    }
    match fields.doubling.given() {
        None => {}
        Some(sent) => match sent.and_then(Listed::seats::<N>) {
            Ok(factors) => doublings = BySeat(factors.map(|f| f.map(NonZeroU32::get))),
            Err(text) => return invalid_key("doubling", Problem::NotDoublings(text, N)),
        },
    }
    let shows = view.shows().to_vec();
    Ok(view.with_shows(shows, shown).with_doublings(doublings))
}

/// Checks that `hand` has the size a seat holds once the landlord has the kitty.
fn dealt_hand(hand: Cards, me: Seat, landlord: Seat, rules: &Rules) -> Result<(), ProtocolError> {
    let dealt = dealt_cards(rules, me, landlord);
    let expected = if me == landlord {
        format!("{dealt} (the landlord's, with the kitty)")
    } else {
        format!("{dealt} (a farmer's)")
    };
    if hand.len() != dealt {
        let held = hand.len();
        return invalid_key("hand", Problem::HandSize { held, expected });
    }
    Ok(())
}

/// The view of a seat once the landlord has the kitty and before the first play (a `double`
/// request, or a `show` request in the `landlord` window), in `phase`.
fn before_play_view<const N: usize>(
    fields: BeforePlayFields,
    rules: &Rules,
    phase: Phase,
) -> Result<SeatView<N>, ProtocolError> {
    let (me, landlord) = seat_and_landlord::<N>(fields.seats)?;
    let hand = cards(fields.hand, "hand", rules)?;
    dealt_hand(hand, me, landlord, rules)?;
    let dealt = BySeat::from_fn(|s| dealt_cards(rules, s, landlord));
    match fields.cards_left.given() {
        None => {}
        Some(sent) => match sent.and_then(Listed::seats::<N>) {
            Ok(counts) if counts == dealt.0 => {}
            Ok(counts) => {
                let sent = json_text(&counts.to_vec());
                return invalid_key("cards_left", Problem::NotCardCount(sent, most_cards(rules)));
            }
            Err(text) => {
                return invalid_key("cards_left", Problem::NotCardCount(text, most_cards(rules)));
            }
        },
    }
    let table = fields.table;
    let kitty = kitty(
        table.bottom_cards_unplayed.clone(),
        (me, landlord),
        hand,
        rules,
    )?;
    let base = stake(table.base.clone(), "base")?;
    let multiplier = stake(table.multiplier.clone(), "multiplier")?;
    let view = SeatView::playing(rules, me, landlord, hand, dealt, PublicPlay::new(landlord))
        .with_phase(phase)
        .with_kitty(kitty)
        .with_stake(base, multiplier);
    read_variants(table, view)
}

fn parse_double<const N: usize>(
    fields: DoubleFields,
    default_rules: &Rules,
) -> Result<DoubleRequest<N>, ProtocolError> {
    let rules = request_rules::<N>(fields.rules, default_rules)?;
    let view = before_play_view::<N>(fields.before_play, &rules, Phase::Doubling)?;
    match fields.choices.present() {
        None => Err(ProtocolError::Missing(Field::Key("choices"))),
        Some(Ok(choices)) if !choices.is_empty() => {
            let choices = choices.into_iter().map(NonZeroU32::get).collect();
            Ok(DoubleRequest { view, choices })
        }
        Some(Ok(_)) => invalid_key("choices", Problem::NotChoices("[]".to_string())),
        Some(Err(text)) => invalid_key("choices", Problem::NotChoices(text)),
    }
}

fn parse_show<const N: usize>(
    fields: ShowFields,
    default_rules: &Rules,
) -> Result<ShowRequest<N>, ProtocolError> {
    let rules = request_rules::<N>(fields.rules, default_rules)?;
    let factor = match fields.factor.present() {
        None => return Err(ProtocolError::Missing(Field::Key("factor"))),
        Some(Ok(n)) => n.get(),
        Some(Err(text)) => return invalid_key("factor", Problem::NotPositive(text)),
    };
    let window = match fields.window.present() {
        None => return Err(ProtocolError::Missing(Field::Key("window"))),
        Some(window) => window,
    };
    let view = match window.as_deref() {
        Ok("landlord") => {
            let view = before_play_view::<N>(fields.before_play, &rules, Phase::LandlordShow)?;
            if view.landlord() != Some(view.seat()) {
                let problem = Problem::NotLandlordWindow {
                    seat: view.seat(),
                    landlord: view.landlord().unwrap_or(view.seat()),
                };
                return invalid_key("window", problem);
            }
            view
        }
        Ok(w @ ("start" | "deal")) => {
            let before_play = fields.before_play;
            let me = seat::<N>(before_play.seats.seat, Field::Key("seat"))?;
            let hand = match before_play.hand.given() {
                None => Cards::EMPTY,
                Some(hand) => cards_value(hand, Field::Key("hand"), &rules)?,
            };
            let (ok, expected) = if w == "start" {
                (hand.is_empty(), "none (before the deal)")
            } else {
                ((1..=16).contains(&hand.len()), "1 to 16 (during the deal)")
            };
            if !ok {
                let held = hand.len();
                let expected = expected.to_string();
                return invalid_key("hand", Problem::HandSize { held, expected });
            }
            // `cards_dealt`, when sent, is the count of `hand`: a count that says otherwise is
            // refused, not ignored (issue 50).
            match fields.cards_dealt.given() {
                None => {}
                Some(Ok(n)) if w == "deal" && n == hand.len() => {}
                Some(sent) => {
                    let sent = match sent {
                        Ok(n) => n.to_string(),
                        Err(text) => text,
                    };
                    let held = hand.len();
                    return invalid_key("cards_dealt", Problem::CardsDealt { sent, held });
                }
            }
            let view = SeatView::bidding(&rules, me, hand, Vec::new())
                .with_phase(Phase::Dealing)
                .with_cards_left(BySeat([hand.len(); N]));
            read_variants(before_play.table, view)?
        }
        Ok(other) => {
            return invalid_key("window", Problem::UnknownWindow(json_text(&other)));
        }
        Err(text) => return invalid_key("window", Problem::UnknownWindow(text.clone())),
    };
    Ok(ShowRequest { view, factor })
}

// --- result ----------------------------------------------------------------------------------

fn parse_result<const N: usize>(fields: ResultFields) -> Result<Request<N>, ProtocolError> {
    let winner = match fields.winner.given() {
        None => None,
        Some(Ok(w)) if w == "landlord" => Some(Side::Landlord),
        Some(Ok(w)) if w == "farmers" => Some(Side::Farmers),
        Some(other) => {
            let sent = other.map_or_else(|text| text, |w| json_text(&w));
            return invalid_key("winner", Problem::UnknownWinner(sent));
        }
    };
    let scores = match fields.scores.given() {
        None => None,
        Some(sent) => match sent.and_then(Listed::seats::<N>) {
            Ok(scores) => Some(scores),
            Err(text) => return invalid_key("scores", Problem::NotScores(text, N)),
        },
    };
    Ok(Request::Result { winner, scores })
}
