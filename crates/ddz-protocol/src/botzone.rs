//! Botzone's Dou Dizhu games, FightTheLandlord and FightTheLandlord2 (PROTOCOL.md,
//! docs/protocol.md): a robot answering Botzone's JSON input.
//!
//! Botzone starts the program once a turn and writes one line
//! `{"requests": [...], "responses": [...], "data": ..., "globaldata": ...}`: every request so
//! far (the last is the current one) and this bot's earlier responses. [`read_turn`] rebuilds
//! the game from them (the seat, the landlord, every seat's plays and cards left, the play to
//! beat, this bot's hand) and returns the [`Turn`]: a bid or a play, with the seat's
//! [`SeatView`] and what it may do. [`choose`] asks a [`Bot`] and checks its answer; a
//! [`Session`] keeps the requests and responses of a game; [`serve`] runs the whole exchange,
//! with or without Botzone's keep-running mode ([`KEEP_RUNNING`]).
//!
//! Cards are Botzone ids 0-53 (RULES.md section 1); plays are read under [`Rules::botzone`]
//! (FightTheLandlord2 with points bidding 0-3). `data` and `globaldata` are ignored.
//!
//! ```
//! use ddz_bots::make_bot;
//! use ddz_protocol::botzone;
//!
//! let mut bot = make_bot("greedy", 1).unwrap();
//! // FightTheLandlord, seat 0 (the landlord, 20 cards) leads.
//! let input = concat!(
//!     r#"{"requests": [{"own": [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29,"#,
//!     r#" 32, 33, 36, 37], "history": [[], []], "publiccard": [33, 36, 37]}], "responses": []}"#,
//! );
//! let mut session = botzone::Session::from_input(input).unwrap();
//! assert_eq!(session.answer(bot.as_mut()).unwrap().to_string(), r#"{"response":[0]}"#);
//! ```

use core::fmt;
use std::io::{self, BufRead, Write};

use ddz_core::{Bidding, CardSet, Cards, Move, Rules, classify, default_reading, legal_moves};
use ddz_game::{Bid, BySeat, PublicPlay, Seat, SeatView};
use serde_json::{Map, Value, json};

use ddz_bots::Bot;

/// The line a bot prints after its answer to ask Botzone to keep it running; later requests
/// then come one a line, each the bare request object.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// What is wrong with Botzone's input: a message that names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotzoneError(pub String);

impl fmt::Display for BotzoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BotzoneError {}

/// An error from a message.
fn err<T>(message: impl Into<String>) -> Result<T, BotzoneError> {
    Err(BotzoneError(message.into()))
}

/// What the bot must do on the current request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// FightTheLandlord2's bidding: answer a bid.
    Bid {
        /// The seat's view during bidding (its 17 cards, the earlier bids, points bidding).
        view: SeatView,
        /// The bids allowed: 0 and every bid above the highest earlier one ([`SeatView::legal_bids`]).
        allowed: Vec<Bid>,
    },
    /// A play.
    Play {
        /// The seat's view, rebuilt from the requests and responses.
        view: SeatView,
        /// Every legal move of the hand under the rules, against the play to beat.
        allowed: Vec<Move>,
        /// The seat's physical cards, from which a chosen move's ids are taken.
        hand: CardSet,
    },
}

// --- Reading the input ---------------------------------------------------------------------

/// Splits Botzone's input line into its requests and responses (`data` and `globaldata` are
/// ignored; a missing or null `responses` is empty).
pub fn parse_input(line: &str) -> Result<(Vec<Value>, Vec<Value>), BotzoneError> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| BotzoneError(format!("input is not JSON: {e}")))?;
    let Value::Object(mut obj) = value else {
        return err("input is not a JSON object");
    };
    let requests = match obj.remove("requests") {
        Some(Value::Array(a)) if !a.is_empty() => a,
        Some(Value::Array(_)) => return err("\"requests\": empty"),
        Some(other) => return err(format!("\"requests\": expected an array, not {other}")),
        None => return err("missing \"requests\""),
    };
    let responses = match obj.remove("responses") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a,
        Some(other) => return err(format!("\"responses\": expected an array, not {other}")),
    };
    Ok((requests, responses))
}

/// Physical cards from a JSON array of ids; `what` names the field in errors.
fn ids(v: &Value, what: &str) -> Result<CardSet, BotzoneError> {
    if !v.is_array() {
        return err(format!("{what}: expected an array of card ids, not {v}"));
    }
    ddz_core::parse_botzone_ids(&v.to_string()).map_err(|e| BotzoneError(format!("{what}: {e}")))
}

/// The ids of a set, ascending, as a JSON array.
fn id_array(set: CardSet) -> Value {
    set.iter().map(|c| c.id()).collect()
}

/// A whole number within `range` from a JSON value; `what` names the field in errors.
fn number(v: &Value, what: &str, range: core::ops::RangeInclusive<u8>) -> Result<u8, BotzoneError> {
    v.as_u64()
        .and_then(|n| u8::try_from(n).ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            BotzoneError(format!(
                "{what}: {v} is not a whole number {}-{}",
                range.start(),
                range.end()
            ))
        })
}

/// A seat (0, 1 or 2) from field `key` of a request.
fn seat_field(obj: &Map<String, Value>, key: &str, what: &str) -> Result<Seat, BotzoneError> {
    let v = obj
        .get(key)
        .ok_or_else(|| BotzoneError(format!("{what}: missing \"{key}\"")))?;
    let i = number(v, &format!("{what}.{key}"), 0..=2)?;
    Seat::new(i).ok_or_else(|| BotzoneError(format!("{what}.{key}: {i} is not a seat")))
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
    /// Applies one play (`[]` a pass) by `seat`; `what` names the field in errors.
    fn apply(&mut self, seat: Seat, set: CardSet, what: &str) -> Result<(), BotzoneError> {
        if let Some((s, _)) = self.cards_left.iter().find(|(_, n)| **n == 0) {
            return err(format!(
                "{what}: the game is already over (seat {s} has no cards left)"
            ));
        }
        if set.is_empty() {
            if self.play.trick.leading() {
                return err(format!("{what}: seat {seat} passes while leading a trick"));
            }
            return self.push(seat, Move::PASS, what);
        }
        let shown = format!("{}", id_array(set));
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
            return err(format!(
                "{what}: seat {seat} cannot hold the cards {shown} (in another hand or played)"
            ));
        }
        let cards = set.to_cards();
        if cards.len() > self.cards_left[seat] {
            return err(format!(
                "{what}: seat {seat} plays {} cards but has {} left",
                cards.len(),
                self.cards_left[seat]
            ));
        }
        let beat = self.play.trick.to_beat().copied();
        let Some(m) = read_play(cards, beat.as_ref(), &self.rules) else {
            return err(match beat {
                None => format!("{what}: {shown} ({cards}) is not a combination"),
                Some(b) => format!("{what}: {shown} ({cards}) does not beat {}", b.cards()),
            });
        };
        if seat == self.me {
            self.hand = CardSet::from_bits(self.hand.bits() & !set.bits()).unwrap_or_default();
        }
        self.gone = CardSet::from_bits(self.gone.bits() | set.bits()).unwrap_or_default();
        self.cards_left[seat] -= cards.len();
        self.push(seat, m, what)
    }

    /// Adds `m` by `seat` to the plays, checked by the trick's rules.
    fn push(&mut self, seat: Seat, m: Move, what: &str) -> Result<(), BotzoneError> {
        self.play
            .push(seat, m, &self.rules)
            .map_err(|e| BotzoneError(format!("{what}: {e}")))
    }

    /// The current turn: this bot's play.
    fn turn(self, what: &str) -> Result<Turn, BotzoneError> {
        if let Some((s, _)) = self.cards_left.iter().find(|(_, n)| **n == 0) {
            return err(format!(
                "{what}: the game is already over (seat {s} has no cards left)"
            ));
        }
        let hand = self.hand.to_cards();
        let allowed = legal_moves(hand, self.play.trick.to_beat(), &self.rules);
        let mut view = SeatView::playing(
            &self.rules,
            self.me,
            self.landlord,
            hand,
            self.cards_left,
            self.play,
        );
        view.kitty = Some(self.public.to_cards());
        view.bids = self.bids;
        view.base = self.base;
        Ok(Turn::Play {
            view,
            allowed,
            hand: self.hand,
        })
    }
}

/// Request `i` as an object.
fn object(i: usize, v: &Value) -> Result<&Map<String, Value>, BotzoneError> {
    match v {
        Value::Object(o) => Ok(o),
        other => err(format!("requests[{i}]: expected an object, not {other}")),
    }
}

/// The earlier bids of a FightTheLandlord2 bidding request, checked: seat 0 bids first, each
/// bid 0 (pass) or above the highest before it, and nobody has bid 3.
fn earlier_bids(v: &Value, what: &str) -> Result<Vec<(Seat, Bid)>, BotzoneError> {
    let Value::Array(items) = v else {
        return err(format!("{what}: expected an array of bids, not {v}"));
    };
    if items.len() > 2 {
        return err(format!(
            "{what}: {} earlier bids; at most 2 come before a seat's bid",
            items.len()
        ));
    }
    let mut bids = Vec::with_capacity(items.len());
    let mut high = 0;
    for (seat, item) in Seat::ALL.into_iter().zip(items) {
        let what = format!("{what}[{seat}]");
        let b = number(item, &what, 0..=3)?;
        if high == 3 {
            return err(format!("{what}: the bidding ended with a bid of 3"));
        }
        if b != 0 && b <= high {
            return err(format!("{what}: bid {b} is not above the bid {high}"));
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
        return err("\"requests\": empty");
    }
    if responses.len() + 1 != requests.len() {
        return err(format!(
            "\"responses\": {} responses for {} requests (expected one fewer)",
            responses.len(),
            requests.len()
        ));
    }
    let first = object(0, &requests[0])?;
    let own = ids(
        first
            .get("own")
            .ok_or_else(|| BotzoneError("requests[0]: missing \"own\"".into()))?,
        "requests[0].own",
    )?;

    // FightTheLandlord2's bidding: only ever the first request.
    let mut bid: Option<(Seat, Vec<(Seat, Bid)>)> = None;
    if let Some(v) = first.get("bid").filter(|_| !first.contains_key("history")) {
        if own.len() != 17 {
            return err(format!(
                "requests[0].own: {} cards; a bidding seat holds 17",
                own.len()
            ));
        }
        let mut bids = earlier_bids(v, "requests[0].bid")?;
        let me = Seat::ALL[bids.len()];
        let rules = bidding_rules();
        if requests.len() == 1 {
            let view = SeatView::bidding(&rules, me, own.to_cards(), bids);
            let allowed = view.legal_bids();
            return Ok(Turn::Bid { view, allowed });
        }
        let high = bids.iter().map(|b| b.1).max().unwrap_or(0);
        let mine = number(&responses[0], "responses[0]", 0..=3)?;
        if mine != 0 && mine <= high {
            return err(format!(
                "responses[0]: bid {mine} is not above the bid {high}"
            ));
        }
        bids.push((me, mine));
        bid = Some((me, bids));
    }

    let start = usize::from(bid.is_some());
    let mut table: Option<Rebuilt> = None;
    for (i, request) in requests.iter().enumerate().skip(start) {
        let what = format!("requests[{i}]");
        let r = object(i, request)?;
        let history = match r.get("history") {
            Some(Value::Array(h)) if h.len() == 2 => h,
            Some(other) => {
                return err(format!(
                    "{what}.history: expected 2 arrays of card ids, not {other}"
                ));
            }
            None if r.contains_key("bid") => {
                return err(format!("{what}: a bidding request after the first request"));
            }
            None => return err(format!("{what}: missing \"history\"")),
        };
        let entries = [
            ids(&history[0], &format!("{what}.history[0]"))?,
            ids(&history[1], &format!("{what}.history[1]"))?,
        ];
        let t = match table.as_mut() {
            Some(t) => {
                for (k, set) in entries.into_iter().enumerate() {
                    let seat = if k == 0 { t.me.next() } else { t.me.prev() };
                    t.apply(seat, set, &format!("{what}.history[{k}]"))?;
                }
                t
            }
            None => {
                let t = table.insert(start_table(r, &what, own, entries, bid.take())?);
                let (me, landlord) = (t.me, t.landlord);
                // Seats after the landlord and before this bot have played since the lead.
                let ahead = |s: Seat| (s.index() + 3 - landlord.index()) % 3;
                for (k, set) in entries.into_iter().enumerate() {
                    let seat = if k == 0 { me.next() } else { me.prev() };
                    let field = format!("{what}.history[{k}]");
                    if ahead(seat) < ahead(me) {
                        t.apply(seat, set, &field)?;
                    } else if !set.is_empty() {
                        return err(format!(
                            "{field}: seat {seat} has not played yet (the landlord, seat {landlord}, leads)"
                        ));
                    }
                }
                t
            }
        };
        if i + 1 == requests.len() {
            break;
        }
        let mine = ids(&responses[i], &format!("responses[{i}]"))?;
        let me = t.me;
        t.apply(me, mine, &format!("responses[{i}]"))?;
    }
    match table {
        Some(t) => t.turn(&format!("requests[{}]", requests.len() - 1)),
        None => err("\"requests\": no play request"),
    }
}

/// The table at the first play request `r`: the landlord, this bot's seat and hand, the public
/// cards. FightTheLandlord2 names them (`landlord`, `pos`, `finalbid`); FightTheLandlord has
/// seat 0 the landlord and the seat follows from which `history` entries are empty.
fn start_table(
    r: &Map<String, Value>,
    what: &str,
    own: CardSet,
    entries: [CardSet; 2],
    bid: Option<(Seat, Vec<(Seat, Bid)>)>,
) -> Result<Rebuilt, BotzoneError> {
    let public_value = r
        .get("publiccard")
        .or_else(|| r.get("public"))
        .ok_or_else(|| BotzoneError(format!("{what}: missing \"publiccard\" (or \"public\")")))?;
    let public = ids(public_value, &format!("{what}.publiccard"))?;
    if public.len() != 3 {
        return err(format!("{what}.publiccard: {} cards, not 3", public.len()));
    }
    let (rules, landlord, me, base, bids) = if r.contains_key("landlord") {
        let landlord = seat_field(r, "landlord", what)?;
        let me = seat_field(r, "pos", what)?;
        let final_bid = r
            .get("finalbid")
            .ok_or_else(|| BotzoneError(format!("{what}: missing \"finalbid\"")))?;
        let base = number(final_bid, &format!("{what}.finalbid"), 1..=3)?;
        let bids = match bid {
            Some((seat, _)) if seat != me => {
                return err(format!("{what}.pos: {me}, but this bot bid as seat {seat}"));
            }
            Some((_, bids)) => bids,
            None => Vec::new(),
        };
        (bidding_rules(), landlord, me, u32::from(base), bids)
    } else {
        if bid.is_some() {
            return err(format!(
                "{what}: missing \"landlord\" (FightTheLandlord2's first play after bidding)"
            ));
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
            return err(format!(
                "requests[0].own: a farmer (seat {me}) holds a public card"
            ));
        }
        own
    };
    let dealt = if me == landlord { 20 } else { 17 };
    if hand.len() != dealt {
        return err(format!(
            "requests[0].own: seat {me} holds {} cards (with the public cards if landlord), not {dealt}",
            hand.len()
        ));
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

// --- Answering -----------------------------------------------------------------------------

/// Asks `bot` for its answer to `turn` and returns Botzone's response value: a bid 0-3, or the
/// ids of the chosen move's cards taken from the hand (`[]` for a pass). An answer the robot
/// was not allowed is an error.
pub fn choose(bot: &mut dyn Bot, turn: &Turn) -> Result<Value, BotzoneError> {
    match turn {
        Turn::Bid { view, allowed } => {
            let b = bot.bid(view, allowed);
            if !allowed.contains(&b) {
                return err(format!("the robot chose bid {b}, which is not allowed"));
            }
            Ok(json!(b))
        }
        Turn::Play {
            view,
            allowed,
            hand,
        } => {
            let m = bot.play(view, allowed);
            if !allowed.contains(&m) {
                return err(format!("the robot chose {m}, which is not allowed"));
            }
            let set = hand
                .take(m.cards())
                .ok_or_else(|| BotzoneError(format!("the robot's play {m} is not in the hand")))?;
            Ok(id_array(set))
        }
    }
}

/// One game's exchange with Botzone: the requests so far and this bot's responses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    requests: Vec<Value>,
    responses: Vec<Value>,
}

impl Session {
    /// A session from Botzone's full input line ([`parse_input`]).
    pub fn from_input(line: &str) -> Result<Session, BotzoneError> {
        let (requests, responses) = parse_input(line)?;
        Ok(Session {
            requests,
            responses,
        })
    }

    /// Adds the next request, one line as Botzone writes it in keep-running mode (the bare
    /// request object). A line holding a full input (`requests` and `responses`) replaces the
    /// session instead.
    pub fn push_request(&mut self, line: &str) -> Result<(), BotzoneError> {
        let value: Value = serde_json::from_str(line)
            .map_err(|e| BotzoneError(format!("request is not JSON: {e}")))?;
        if value.get("requests").is_some() {
            *self = Session::from_input(line)?;
        } else {
            self.requests.push(value);
        }
        Ok(())
    }

    /// The current turn ([`read_turn`]).
    pub fn turn(&self) -> Result<Turn, BotzoneError> {
        read_turn(&self.requests, &self.responses)
    }

    /// Answers the current request with `bot`: returns the output object
    /// `{"response": ...}` and records the response for later turns.
    pub fn answer(&mut self, bot: &mut dyn Bot) -> Result<Value, BotzoneError> {
        let response = choose(bot, &self.turn()?)?;
        self.responses.push(response.clone());
        Ok(json!({ "response": response }))
    }
}

/// Runs `bot` on Botzone's input: reads the full input line, writes the answer line
/// `{"response": ...}`, flushed. With `keep_running`, then writes [`KEEP_RUNNING`] and answers
/// each further line (a bare request) the same way until the end of input. Any bad input ends
/// the run: the one line `{"debug": "error: ..."}` is written and the error returned (the
/// outer result is for input and output errors).
pub fn serve(
    bot: &mut dyn Bot,
    mut input: impl BufRead,
    mut output: impl Write,
    keep_running: bool,
) -> io::Result<Result<(), BotzoneError>> {
    let mut session: Option<Session> = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            if session.is_none() {
                let e = BotzoneError("no input: expected one JSON line".into());
                writeln!(output, "{}", json!({ "debug": format!("error: {e}") }))?;
                output.flush()?;
                return Ok(Err(e));
            }
            return Ok(Ok(()));
        }
        if line.trim().is_empty() {
            continue;
        }
        let answered = match session.as_mut() {
            None => Session::from_input(line.trim()).and_then(|mut s| {
                let reply = s.answer(bot)?;
                session = Some(s);
                Ok(reply)
            }),
            Some(s) => s.push_request(line.trim()).and_then(|()| s.answer(bot)),
        };
        match answered {
            Ok(reply) => writeln!(output, "{reply}")?,
            Err(e) => {
                writeln!(output, "{}", json!({ "debug": format!("error: {e}") }))?;
                output.flush()?;
                return Ok(Err(e));
            }
        }
        if !keep_running {
            output.flush()?;
            return Ok(Ok(()));
        }
        writeln!(output, "{KEEP_RUNNING}")?;
        output.flush()?;
    }
}
