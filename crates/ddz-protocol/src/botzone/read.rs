//! Reading Botzone's input: the line into its requests and responses ([`parse_input`]), and
//! every request so far into the current [`Turn`] ([`read_turn`]). Each request is read as a
//! serde type of [`Sent`] fields, so that an error can quote what was sent.

use ddz_core::{Bidding, CardSet, Cards, Move, Rules, classify, default_reading, legal_moves};
use ddz_game::{Bid, BySeat, PublicPlay, Seat, SeatView};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::Turn;
use super::error::{BotzoneError, Place, Problem, invalid};
use crate::sent::{Sent, fields};

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
