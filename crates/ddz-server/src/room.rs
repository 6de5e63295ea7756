//! One game room as a state machine, with no sockets and no clocks: the seats (people with
//! their seat tokens, robots by spec), the games on a [`Sitting`] (numbering, physical cards,
//! running totals) and the numbered public events of the `ddz-web/1` protocol (docs/web.md).
//!
//! Every message a room sends is built here, as the types of [`crate::wire`]: [`Room::state`]
//! builds the state one audience (a seat or the spectators) may see from that seat's
//! [`SeatView`] only, so no seat ever receives another seat's cards before the game is over,
//! and legal moves go only to the seat to act. Robot decisions, the turn timer's auto-play
//! and hints are [`Job`]s and [`HintJob`]s that the caller runs where it likes (the server
//! runs them off the async threads) and feeds back with [`Room::act`].
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_game::{BySeat, Seat};
//! use ddz_server::room::{Audience, Room, RoomSettings};
//!
//! let settings = RoomSettings {
//!     rules: Rules::classic(),
//!     robots: BySeat([None, Some("greedy".parse().unwrap()), Some("greedy".parse().unwrap())]),
//!     seed: Some(7),
//!     hint_bot: "greedy".parse().unwrap(),
//! };
//! let mut room = Room::new(settings, |_| "token".to_string());
//! let me = Seat::ALL[0];
//! while !room.is_over() {
//!     // A robot's turn, or ours played by the hint robot as the turn timer would.
//!     let job = room.robot_job().unwrap_or_else(|| room.auto_job(me));
//!     let (seat, auto) = (job.seat, job.auto);
//!     let action = job.run();
//!     room.act(seat, action, auto).unwrap();
//! }
//! let state = room.state(Audience::Seat(me));
//! assert_eq!(state.phase, ddz_server::wire::Phase::Over);
//! assert!(state.record.is_some_and(|record| record.result.is_some()));
//! ```

mod saved;

use std::collections::VecDeque;

use ddz_bots::hint::{hints, hints_by};
use ddz_bots::{BotSpec, bot_seed, decide_in_view};
use ddz_core::{Card, CardSet, Move, Rules, move_notation, parse_move};
use ddz_game::{
    ActionError, Actions, Bid, BySeat, Game, GameRecord, Phase, Role, Seat, SeatView, Sitting,
    SittingEvent, derive_seed,
};

use crate::db::PlayerId;
use crate::seeds::{fresh_seed, token_hash};
use crate::wire::{
    CardIds, ClientMessage, Event, HistoryPlay, LastPlay, Legal, NumberedEvent, Player, Refusal,
    RoomRefusal, SeatState, Sent, StakeParts, TableState,
};

/// How many public events a room keeps for resuming connections.
pub const KEPT_EVENTS: usize = 2000;

/// What a room is created with.
#[derive(Clone, Debug)]
pub struct RoomSettings {
    /// The rules of every game in the room.
    pub rules: Rules,
    /// For each seat, the robot that plays it, or `None` for a person.
    pub robots: BySeat<Option<BotSpec>>,
    /// `Some(seed)`: the first game is dealt from `seed` and game `n` (1-based) from
    /// `seed + n - 1` (practice, replays, tests: whoever knows the seed knows every deal);
    /// `None`: every game from a fresh seed drawn from the operating system's generator
    /// ([`crate::seeds::fresh_seed`]), revealed only with the game's record.
    pub seed: Option<u64>,
    /// The robot that gives hints and plays for a person whose turn timer ran out.
    pub hint_bot: BotSpec,
}

/// Who a message is for: one seat, or the spectators (public information only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Audience {
    /// The player in this seat.
    Seat(Seat),
    /// Anyone watching.
    Spectator,
}

/// Something a seat does in a room: the game's actions (a play with the physical cards chosen
/// for it) and `next`, the room's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatAction {
    /// A bid (points: 0 passes, 1-3; call-and-rob: 1 calls or robs, 0 declines).
    Bid(Bid),
    /// A play or the pass, with the physical cards chosen for it (when chosen).
    Play(Move, Option<CardSet>),
    /// Ready for the next game (after game over).
    Next,
    /// A show decision or a doubling (RULES.md section 7), applied as the game takes it.
    Decide(ddz_game::Action),
}

/// A client message the room understood: an action of a seat, or a request for hints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// The seat acts.
    Act(Seat, SeatAction),
    /// The seat asks for hints.
    Hint(Seat),
    /// The seat turns auto-play (托管) on (true) or off.
    Auto(Seat, bool),
}

/// A decision to be made by a robot: a robot seat's turn, or a person's turn played by the
/// hint robot when the turn timer runs out. Run it anywhere ([`Job::run`]) and give the
/// action to [`Room::act`] with the job's `seat` and `auto` (it is refused if the room has
/// moved on: see `step`).
#[derive(Clone, Debug)]
pub struct Job {
    /// The seat that acts.
    pub seat: Seat,
    /// The room's step when the job was made ([`Room::step`]); its action applies only then.
    pub step: u64,
    /// True when the robot plays for a person (the turn timer ran out).
    pub auto: bool,
    spec: BotSpec,
    seed: u64,
    view: SeatView,
    actions: Actions,
}

impl Job {
    /// The robot's action, by the decision loop every robot goes through
    /// ([`decide_in_view`]). A robot that fails to build or to decide (rooms seat built-in
    /// robots only, so this does not happen) gives way to the first allowed action
    /// ([`Actions::first`]), so that the room never stalls.
    pub fn run(self) -> SeatAction {
        let chosen = self.spec.build(self.seed).ok().and_then(|mut bot| {
            decide_in_view(self.seat, &self.view, &self.actions, bot.as_mut()).ok()
        });
        match chosen
            .or_else(|| self.actions.first())
            .unwrap_or(ddz_game::Action::Play(Move::PASS))
        {
            ddz_game::Action::Bid(bid) => SeatAction::Bid(bid),
            ddz_game::Action::Play(play) => SeatAction::Play(play, None),
            decision => SeatAction::Decide(decision),
        }
    }
}

/// The hints for a seat's turn, to be computed off the async threads ([`HintJob::run`]).
#[derive(Clone, Debug)]
pub struct HintJob {
    /// The room's step when asked; the hints are stale once it changes.
    pub step: u64,
    /// The seat asking.
    pub seat: Seat,
    spec: BotSpec,
    seed: u64,
    view: SeatView,
    allowed: Vec<Move>,
}

impl HintJob {
    /// The hints in move notation: the hint robot's choice first, then every other legal play
    /// by the blog's score of what it leaves (SumValue − 7 × NeedRound), best first; a pass
    /// only when the robot chose it. As `ddz play` gives them.
    pub fn run(self) -> Vec<String> {
        let rules = self.view.rules();
        let hinted = match self.spec.build(self.seed) {
            Ok(mut bot) => hints_by(bot.as_mut(), &self.view, &self.allowed),
            Err(_) => hints(
                self.allowed.first().copied().unwrap_or(Move::PASS),
                self.view.hand(),
                &self.allowed,
                rules,
            ),
        };
        hinted.iter().map(|m| move_notation(m, rules)).collect()
    }
}

/// One room: three seats, game after game.
pub struct Room {
    robots: BySeat<Option<BotSpec>>,
    tokens: BySeat<Option<String>>,
    /// Each person's seat token as its SHA-256 ([`token_hash`]): what a join is checked
    /// against, and all a saved room keeps (a resumed room has no `tokens`).
    token_hashes: BySeat<Option<String>>,
    /// Each person's browser identity, as given at the seat's first join that gave one: what
    /// the seat's results are saved under.
    identities: BySeat<Option<PlayerId>>,
    hint_bot: BotSpec,
    /// Whether the games follow a seed given (else each is dealt from a fresh one).
    seeded: bool,
    /// The games, their physical cards and the running totals.
    sitting: Sitting,
    ready: BySeat<bool>,
    connected: BySeat<bool>,
    /// The people's seats whose turns the hint robot plays (托管).
    auto_play: BySeat<bool>,
    /// Actions taken so far in the room (every bid, play and new game counts one).
    step: u64,
    /// The public events kept, numbered.
    events: VecDeque<NumberedEvent>,
    /// The number of the latest event.
    last_event: u64,
}

impl Room {
    /// A room with the first game dealt. `token` makes the seat token of each seat played by a
    /// person (the server draws 128 random bits).
    pub fn new(settings: RoomSettings, mut token: impl FnMut(Seat) -> String) -> Room {
        let tokens = BySeat::from_fn(|s| settings.robots[s].is_none().then(|| token(s)));
        let token_hashes = BySeat::from_fn(|s| tokens[s].as_deref().map(token_hash));
        let mut room = Room {
            robots: settings.robots,
            tokens,
            token_hashes,
            identities: BySeat([None, None, None]),
            hint_bot: settings.hint_bot,
            seeded: settings.seed.is_some(),
            sitting: Sitting::new(&settings.rules, settings.seed.unwrap_or_else(fresh_seed)),
            ready: BySeat([false; 3]),
            connected: BySeat([false; 3]),
            auto_play: BySeat([false; 3]),
            step: 0,
            events: VecDeque::new(),
            last_event: 0,
        };
        let start = room.event(room.sitting.start_event(), false);
        room.log(vec![start]);
        room
    }

    /// The seat token of a seat played by a person (none in a resumed room: it keeps only
    /// their hashes).
    pub fn token(&self, seat: Seat) -> Option<&str> {
        self.tokens[seat].as_deref()
    }

    /// The browser identity a person gave for this seat, if any.
    pub fn identity(&self, seat: Seat) -> Option<&PlayerId> {
        self.identities[seat].as_ref()
    }

    /// Keeps `player` as the browser identity of a person's seat, unless the seat has one
    /// already (a seat's results go to whoever first claimed it; a robot's seat has none).
    pub fn claim_identity(&mut self, seat: Seat, player: PlayerId) {
        if self.robots[seat].is_none() && self.identities[seat].is_none() {
            self.identities[seat] = Some(player);
        }
    }

    /// The seat whose token this is.
    pub fn seat_of_token(&self, token: &str) -> Option<Seat> {
        let hash = token_hash(token);
        Seat::ALL
            .into_iter()
            .find(|&s| self.token_hashes[s].as_deref() == Some(hash.as_str()))
    }

    /// The robot spec of a robot seat.
    pub fn robot(&self, seat: Seat) -> Option<&str> {
        self.robots[seat].as_ref().map(BotSpec::as_str)
    }

    /// The game in progress (or just finished).
    pub fn game(&self) -> &Game {
        self.sitting.game()
    }

    /// A seat's physical cards now.
    pub fn physical(&self, seat: Seat) -> CardSet {
        self.sitting.physical(seat)
    }

    /// Actions taken so far; a [`Job`] or [`HintJob`] made at another step is stale.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The number of the latest event (every message carries it as `n`).
    pub fn last_event(&self) -> u64 {
        self.last_event
    }

    /// The game number in the room (1-based).
    pub fn number(&self) -> u32 {
        self.sitting.number()
    }

    /// Whether the current game is over.
    pub fn is_over(&self) -> bool {
        self.sitting.is_over()
    }

    /// The seat to act, while the game is not over.
    pub fn turn(&self) -> Option<Seat> {
        (!self.is_over()).then(|| self.game().turn())
    }

    /// The events numbered above `after`, and whether they are all there (false when some
    /// were dropped from the kept ones, or not kept: a resumed room starts with none; false
    /// too for an `after` past the latest event, which a client saw before a restart that
    /// took the room back to its last committed action).
    pub fn events_after(&self, after: u64) -> (Vec<NumberedEvent>, bool) {
        let complete = after <= self.last_event
            && self
                .events
                .front()
                .map_or(after == self.last_event, |first| {
                    first.n <= after.saturating_add(1)
                });
        let events = self
            .events
            .iter()
            .filter(|e| e.n > after)
            .cloned()
            .collect();
        (events, complete)
    }

    /// Numbers the events, keeps them, and returns them numbered.
    fn log(&mut self, events: Vec<Event>) -> Vec<NumberedEvent> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            self.last_event += 1;
            let numbered = NumberedEvent {
                event,
                n: self.last_event,
            };
            self.events.push_back(numbered.clone());
            out.push(numbered);
        }
        while self.events.len() > KEPT_EVENTS {
            self.events.pop_front();
        }
        out
    }

    /// Marks a person's seat connected or not; the event, when that changed.
    pub fn set_connected(&mut self, seat: Seat, connected: bool) -> Vec<NumberedEvent> {
        if self.connected[seat] == connected || self.token_hashes[seat].is_none() {
            return Vec::new();
        }
        self.connected[seat] = connected;
        self.log(vec![Event::Connected { seat, connected }])
    }

    /// Whether the hint robot plays a person's seat (托管).
    pub fn is_auto(&self, seat: Seat) -> bool {
        self.auto_play[seat]
    }

    /// Turns auto-play (托管) on or off for a person's seat: while on, [`Room::robot_job`]
    /// gives the seat's turns to the hint robot. The event, when that changed (never for a
    /// robot's seat). It stays on from game to game until the seat turns it off or acts
    /// itself.
    pub fn set_auto(&mut self, seat: Seat, auto: bool) -> Vec<NumberedEvent> {
        if self.auto_play[seat] == auto || self.token_hashes[seat].is_none() {
            return Vec::new();
        }
        self.auto_play[seat] = auto;
        self.log(vec![Event::Auto { seat, auto }])
    }

    /// A sitting's event as a `ddz-web/1` event (`auto` when a robot acted for a person).
    fn event(&self, event: SittingEvent, auto: bool) -> Event {
        match event {
            SittingEvent::Start { game, first_bidder } => Event::Start { game, first_bidder },
            SittingEvent::Show {
                seat,
                factor,
                cards,
            } => Event::Show {
                seat,
                factor,
                ids: CardIds(cards),
                auto,
            },
            SittingEvent::Double { seat, factor } => Event::Double { seat, factor, auto },
            SittingEvent::Bid { seat, bid } => Event::Bid { seat, bid, auto },
            SittingEvent::Redeal { first_bidder } => Event::Redeal { first_bidder },
            SittingEvent::Landlord { seat, kitty, base } => Event::Landlord {
                seat,
                kitty: CardIds(kitty),
                base,
            },
            SittingEvent::Wild(_) => Event::Wild {
                laizi: self.game().laizi(),
            },
            SittingEvent::Play { seat, play, cards } => Event::Play {
                seat,
                play: move_notation(&play, &self.game().rules()),
                ids: CardIds(cards),
                auto,
            },
            SittingEvent::Forfeit { seat, why } => Event::Forfeit { seat, why },
            SittingEvent::Over(result) => Event::Over {
                winner: result.winner,
                scores: result.scores,
            },
        }
    }

    /// Reads one client message of a seat or spectator: `bid`, `play`, `pass`, `hint` or
    /// `next`. The fields are checked in a fixed order (the type, the audience, the seat,
    /// the type's own fields, then the `step`: required for `bid`, `play`, `pass`, `show` and
    /// `double`, checked when sent for the others) and the error names the first one that is wrong.
    pub fn read_request(
        &self,
        audience: Audience,
        msg: &ClientMessage,
    ) -> Result<Request, Refusal> {
        const TYPES: &str = "bid, show, double, play, pass, hint, next, auto";
        let (kind, turn) = match (msg, msg.kind(), msg.turn()) {
            (_, Some(kind), Some(turn)) => (kind, turn),
            (ClientMessage::Untyped { kind: None, .. }, _, _) => {
                return Err(Refusal::missing("type"));
            }
            (
                ClientMessage::Untyped {
                    kind: Some(kind), ..
                },
                _,
                _,
            ) => {
                return Err(match &kind.value {
                    Some(other) => Refusal::new(
                        RoomRefusal::UnknownType,
                        format!("unknown type \"{other}\" (types after joining: {TYPES})"),
                    )
                    .with("type", other.as_str()),
                    None => Refusal::about(
                        RoomRefusal::BadField,
                        "type",
                        format!("\"type\": expected a string, not {kind}"),
                    ),
                });
            }
            // `join` and `watch`, the types without a turn.
            (_, kind, _) => {
                return Err(Refusal::new(
                    RoomRefusal::AlreadyJoined,
                    format!(
                        "\"{}\": this connection has already joined",
                        kind.unwrap_or("join")
                    ),
                ));
            }
        };
        let Audience::Seat(me) = audience else {
            return Err(Refusal::new(
                RoomRefusal::Spectator,
                format!("\"{kind}\": spectators only watch"),
            ));
        };
        if let Some(seat) = &turn.seat
            && seat.value != Some(me)
        {
            return Err(Refusal::about(
                RoomRefusal::WrongSeat,
                "seat",
                format!("\"seat\": this connection plays seat {me}, not {seat}"),
            )
            .with("you", me.index()));
        }
        let request = self.read_action(me, msg)?;
        match &turn.step {
            None if matches!(kind, "bid" | "play" | "pass" | "show" | "double") => {
                Err(Refusal::about(
                    RoomRefusal::MissingField,
                    "step",
                    format!(
                        "missing \"step\": send the step of the state this answers (now {})",
                        self.step
                    ),
                )
                .with("step", self.step))
            }
            Some(step) if step.value != Some(self.step) => Err(Refusal::about(
                RoomRefusal::StaleStep,
                "step",
                format!(
                    "\"step\": {step} is not the current step {}: the action answers another state",
                    self.step
                ),
            )
            .with("step", self.step)),
            _ => Ok(request),
        }
    }

    /// The action of a client message of seat `me`, by its type's own fields.
    fn read_action(&self, me: Seat, msg: &ClientMessage) -> Result<Request, Refusal> {
        let bad =
            |field: &str, message: String| Refusal::about(RoomRefusal::BadField, field, message);
        match msg {
            ClientMessage::Hint(_) => Ok(Request::Hint(me)),
            ClientMessage::Auto(m) => {
                let auto = m.auto.as_ref().ok_or_else(|| Refusal::missing("auto"))?;
                auto.value
                    .map(|on| Request::Auto(me, on))
                    .ok_or_else(|| bad("auto", format!("\"auto\": {auto} is not true or false")))
            }
            ClientMessage::Next(_) => Ok(Request::Act(me, SeatAction::Next)),
            ClientMessage::Pass(_) => Ok(Request::Act(me, SeatAction::Play(Move::PASS, None))),
            ClientMessage::Bid(m) => {
                let bid = m.bid.as_ref().ok_or_else(|| Refusal::missing("bid"))?;
                bid.value
                    .filter(|&b| b <= 3)
                    .map(|b| Request::Act(me, SeatAction::Bid(b)))
                    .ok_or_else(|| bad("bid", format!("\"bid\": {bid} is not a bid 0-3")))
            }
            ClientMessage::Show(m) => {
                let show = m.show.as_ref().ok_or_else(|| Refusal::missing("show"))?;
                let value = show
                    .value
                    .ok_or_else(|| bad("show", format!("\"show\": {show} is not true or false")))?;
                Ok(Request::Act(
                    me,
                    SeatAction::Decide(ddz_game::Action::Show(value)),
                ))
            }
            ClientMessage::Double(m) => {
                let double = m
                    .double
                    .as_ref()
                    .ok_or_else(|| Refusal::missing("double"))?;
                double
                    .value
                    .filter(|d| [1, 2, 4].contains(d))
                    .map(|d| Request::Act(me, SeatAction::Decide(ddz_game::Action::Double(d))))
                    .ok_or_else(|| {
                        bad(
                            "double",
                            format!("\"double\": {double} is not a factor 1, 2 or 4"),
                        )
                    })
            }
            ClientMessage::Play(m) => {
                let text = match &m.play {
                    Some(Sent {
                        value: Some(text), ..
                    }) => text,
                    Some(other) => {
                        return Err(bad(
                            "move",
                            format!("\"move\": expected move notation, not {other}"),
                        ));
                    }
                    None => return Err(Refusal::missing("move")),
                };
                let play = self.read_move(text)?;
                let chosen = match &m.ids {
                    None => None,
                    Some(ids) => Some(self.read_ids(me, ids, &play)?),
                };
                Ok(Request::Act(me, SeatAction::Play(play, chosen)))
            }
            ClientMessage::Join(_) | ClientMessage::Watch(_) | ClientMessage::Untyped { .. } => {
                Err(Refusal::missing("type"))
            }
        }
    }

    /// A move in notation, read against the play on the table under the rules in force: a
    /// notation that does not read is the game's [`ActionError::Notation`].
    fn read_move(&self, text: &str) -> Result<Move, Refusal> {
        if text.len() > 200 {
            return Err(Refusal::about(
                RoomRefusal::BadField,
                "move",
                format!("\"move\": {} characters is too long for a move", text.len()),
            ));
        }
        let rules = self.game().rules();
        let last = self.game().last().map(|(_, m)| m);
        parse_move(text, &rules, last.as_ref()).map_err(|e| {
            Refusal::from(&ActionError::Notation {
                text: text.to_string(),
                error: e.to_string(),
            })
        })
    }

    /// The physical cards chosen for a play: ids 0-53 of cards in the seat's hand whose ranks
    /// are exactly the play's cards.
    fn read_ids(
        &self,
        seat: Seat,
        ids: &Sent<Vec<Sent<u8>>>,
        play: &Move,
    ) -> Result<CardSet, Refusal> {
        let bad = |message: String| Refusal::about(RoomRefusal::BadIds, "ids", message);
        let Some(items) = &ids.value else {
            return Err(bad(format!(
                "\"ids\": expected an array of card ids, not {ids}"
            )));
        };
        if items.len() > 20 {
            return Err(bad(format!(
                "\"ids\": {} cards is more than a hand holds",
                items.len()
            )));
        }
        let mut set = CardSet::EMPTY;
        for (i, item) in items.iter().enumerate() {
            let card = item
                .value
                .and_then(Card::from_id)
                .ok_or_else(|| bad(format!("\"ids\"[{i}]: {item} is not a card id 0-53")))?;
            if set.contains(card) {
                return Err(bad(format!("\"ids\"[{i}]: card {card} is given twice")));
            }
            if !self.physical(seat).contains(card) {
                return Err(bad(format!(
                    "\"ids\"[{i}]: card {card} is not in your hand"
                )));
            }
            set = set.with(card);
        }
        if set.to_cards() != play.cards() {
            return Err(bad(format!(
                "\"ids\": the cards {} are not the move's cards {}",
                set.to_cards(),
                if play.is_pass() {
                    "(none: a pass)".to_string()
                } else {
                    play.cards().to_string()
                }
            )));
        }
        Ok(set)
    }

    /// Applies an action of `seat` (`auto` when a robot made it for a person); returns the
    /// public events it caused, numbered. Refused with the game's [`ActionError`] when the
    /// game does not take it (another seat's turn, a bid or a play it does not allow), the
    /// room then unchanged. A person who acts on auto-play takes the turns back: auto-play
    /// goes off (its event after the action's).
    pub fn act(
        &mut self,
        seat: Seat,
        action: SeatAction,
        auto: bool,
    ) -> Result<Vec<NumberedEvent>, Refusal> {
        let events = match action {
            SeatAction::Next => self.next(seat)?,
            SeatAction::Bid(bid) => self.apply(seat, ddz_game::Action::Bid(bid), None, auto)?,
            SeatAction::Play(play, chosen) => {
                self.apply(seat, ddz_game::Action::Play(play), chosen, auto)?
            }
            SeatAction::Decide(decision) => self.apply(seat, decision, None, auto)?,
        };
        self.step += 1;
        let mut events = events;
        if !auto && self.auto_play[seat] {
            self.auto_play[seat] = false;
            events.push(Event::Auto { seat, auto: false });
        }
        Ok(self.log(events))
    }

    /// Applies an action to the sitting; its events as `ddz-web/1` events (a wild event only
    /// when wild ranks are known).
    fn apply(
        &mut self,
        seat: Seat,
        action: ddz_game::Action,
        chosen: Option<CardSet>,
        auto: bool,
    ) -> Result<Vec<Event>, Refusal> {
        let events = self
            .sitting
            .act(seat, action, chosen)
            .map_err(|e| Refusal::from(&e))?;
        Ok(events
            .into_iter()
            .filter(|e| !matches!(e, SittingEvent::Wild(laizi) if laizi.is_empty()))
            .map(|e| self.event(e, auto))
            .collect())
    }

    /// Marks `seat` ready for the next game; deals it when every person's seat that is
    /// connected (and `seat`) is ready.
    fn next(&mut self, seat: Seat) -> Result<Vec<Event>, Refusal> {
        if !self.is_over() {
            return Err(Refusal::new(
                RoomRefusal::GameNotOver,
                "the game is not over yet",
            ));
        }
        self.ready[seat] = true;
        let mut events = vec![Event::Ready { seat }];
        let waiting = Seat::ALL
            .into_iter()
            .any(|s| self.token_hashes[s].is_some() && self.connected[s] && !self.ready[s]);
        if !waiting {
            let start = if self.seeded {
                self.sitting.next_game()
            } else {
                self.sitting.next_game_from(fresh_seed())
            };
            self.ready = BySeat([false; 3]);
            events.push(self.event(start, false));
        }
        Ok(events)
    }

    /// The robot decision due now: the turn of a robot seat, or of a person's seat on
    /// auto-play (the hint robot's, marked `auto`).
    pub fn robot_job(&self) -> Option<Job> {
        let seat = self.turn()?;
        match self.robots[seat].clone() {
            Some(spec) => Some(self.job(seat, spec, false)),
            None => self.auto_play[seat].then(|| self.auto_job(seat)),
        }
    }

    /// The hint robot's decision for `seat` (a person whose turn timer ran out), whether or
    /// not it is that seat's turn (a job made off turn is refused by [`Room::act`]).
    pub fn auto_job(&self, seat: Seat) -> Job {
        self.job(seat, self.hint_bot.clone(), true)
    }

    fn decision_seed(&self, seat: Seat) -> u64 {
        derive_seed(bot_seed(self.game().seed(), seat), self.step)
    }

    fn job(&self, seat: Seat, spec: BotSpec, auto: bool) -> Job {
        Job {
            seat,
            step: self.step,
            auto,
            seed: self.decision_seed(seat),
            spec,
            view: self.game().view(seat),
            actions: self.game().legal_actions(),
        }
    }

    /// The hints for `seat`, refused off its playing turn.
    pub fn hint_job(&self, seat: Seat) -> Result<HintJob, Refusal> {
        self.game().check_turn(seat, Phase::Playing).map_err(|e| {
            Refusal::new(RoomRefusal::NoHints, format!("no hints now: {e}"))
                .with("reason", e.code())
        })?;
        Ok(HintJob {
            step: self.step,
            seat,
            spec: self.hint_bot.clone(),
            seed: self.decision_seed(seat),
            view: self.game().view(seat),
            allowed: self.game().legal_moves(),
        })
    }

    /// The state `audience` may see now, built from one seat's view: a seat's own, or seat
    /// 0's with the hand left out for spectators. Before the game is over it holds no card
    /// of another seat that has not been played (the kitty is shown once the landlord takes
    /// it); legal moves or bids only for the seat to act. No turn clock (the room's task
    /// adds it). See docs/web.md for the fields.
    pub fn state(&self, audience: Audience) -> TableState {
        let me = match audience {
            Audience::Seat(s) => Some(s),
            Audience::Spectator => None,
        };
        let view = self.game().view(me.unwrap_or(Seat::ALL[0]));
        let rules = &view.rules();
        let over = view.phase() == Phase::Over;
        let variants = rules.show.enabled || rules.doubling.enabled;
        let seats = BySeat::from_fn(|s| SeatState {
            seat: s,
            player: if self.robots[s].is_some() {
                Player::Robot
            } else {
                Player::Human
            },
            robot: self.robot(s).map(str::to_string),
            connected: self.robots[s].is_some() || self.connected[s],
            role: view.landlord().map(|l| Role::of(s, l).into()),
            cards_left: view.cards_left()[s],
            total: self.sitting.totals()[s],
            ready: self.ready[s],
            auto: self.auto_play[s],
        });
        let history: Vec<HistoryPlay> = view
            .history()
            .iter()
            .enumerate()
            .map(|(i, (s, m))| HistoryPlay {
                seat: *s,
                play: move_notation(m, rules),
                ids: CardIds(self.sitting.played_physical(i)),
            })
            .collect();
        let trick = history[self.sitting.trick_start().min(history.len())..].to_vec();
        TableState {
            game: self.number(),
            step: self.step,
            rules: rules.profile,
            bidding: rules.bidding,
            phase: view.phase(),
            you: me,
            seats,
            hand: me.map(|_| self.hand_ids(&view)),
            landlord: view.landlord(),
            kitty: view.kitty().map(|_| CardIds(self.game().deal().kitty)),
            laizi: rules.laizi,
            bids: view.bids().to_vec(),
            first_bidder: self.game().first_bidder(),
            base: view.base(),
            multiplier: view.multiplier(),
            stake: self.stake_parts(),
            shown: variants
                .then(|| BySeat::from_fn(|s| view.shown()[s].map(|_| CardIds(self.physical(s))))),
            doublings: variants.then_some(*view.doublings()),
            multipliers: variants.then(|| BySeat::from_fn(|s| view.seat_multiplier(s))),
            turn: (!over).then_some(view.turn()),
            last: view.last().map(|(seat, m)| LastPlay {
                seat,
                play: move_notation(&m, rules),
            }),
            history,
            trick,
            legal: self.legal(me, &view),
            totals: self.sitting.totals(),
            result: over.then(|| self.game().result().cloned()).flatten(),
            hands: over.then(|| BySeat::from_fn(|s| CardIds(self.physical(s)))),
            seed: over.then(|| self.game().seed()),
            record: over.then(|| GameRecord::from_game(self.game())),
            clock: None,
        }
    }

    /// The stake's parts so far, as the game keeps them.
    fn stake_parts(&self) -> StakeParts {
        let game = self.game();
        let stake = game.stake();
        StakeParts {
            base: stake.base,
            robs: stake.rob_multiplier,
            shows: stake.show,
            bombs: game.play_state().bomb_multiplier(),
        }
    }

    /// The seat's own cards as ids: its physical cards, which always hold the view's ranks.
    fn hand_ids(&self, view: &SeatView) -> CardIds {
        let cards = self.physical(view.seat());
        debug_assert_eq!(cards.to_cards(), view.hand());
        CardIds(cards)
    }

    /// What the seat to act may do: bids or moves; none for every other audience.
    fn legal(&self, me: Option<Seat>, view: &SeatView) -> Option<Legal> {
        let me = me?;
        // While doubling simultaneously every undecided seat may choose.
        if me != view.turn()
            && !(view.phase() == Phase::Doubling && self.game().to_act().contains(&me))
        {
            return None;
        }
        match view.phase() {
            Phase::Dealing | Phase::LandlordShow => match self.game().legal_actions() {
                Actions::Show { factor } => Some(Legal::Show(factor)),
                _ => None,
            },
            Phase::Doubling => match self.game().legal_actions() {
                Actions::Double(factors) => Some(Legal::Double(factors)),
                _ => None,
            },
            Phase::Bidding => Some(Legal::Bids(view.legal_bids())),
            Phase::Playing => Some(Legal::Moves(
                self.game()
                    .legal_moves()
                    .iter()
                    .map(|m| move_notation(m, view.rules()))
                    .collect(),
            )),
            Phase::Over => None,
        }
    }
}
