//! The rooms: `POST /v1/rooms` and the task that owns each room's game, its connections, the
//! robots' pauses, the turn timer and the idle expiry (the registry of open rooms is in
//! `registry.rs`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::Message;
use axum::extract::{Extension, State};
use axum::http::StatusCode;
use axum::response::Response;
use ddz_bots::BotSpec;
use ddz_core::Rules;
use ddz_game::{BySeat, Seat};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::db::{FinishedGame, PlayerId, RoomLogEntry, RoomWrite, SavedRoom};
use crate::http::{json_error, json_response, read_body};
use crate::journal::Journal;
use crate::limits::ClientAddr;
use crate::registry::{
    Cmd, MAX_SEAT_CONNECTIONS, MAX_SPECTATORS, ROOM_QUEUE, close_message, error_message, text,
};
use crate::room::{Audience, Request, Room, RoomSettings, SeatAction};
use crate::seeds::random_token;
use crate::state::AppState;
use crate::wire::{
    ClientMessage, Clock, CreatedSeat, Event, NewRoom, NumberedEvent, Player, Refusal, RoomCreated,
    RoomRefusal, Sent, ServerMessage,
};

/// How long robots wait after a commit failed before they act again.
const COMMIT_RETRY: Duration = Duration::from_secs(1);

/// What a commit wrote of a room: its whole state, or one entry of its log.
enum Written {
    Whole(Box<SavedRoom>),
    Entry(RoomLogEntry),
}

/// What `POST /v1/rooms` asks for, checked.
struct RoomSpec {
    rules: Rules,
    robots: BySeat<Option<BotSpec>>,
    hint_bot: BotSpec,
    turn_time: Duration,
    robot_delay: Duration,
    seed: Option<u64>,
}

/// Reads the body of `POST /v1/rooms` (empty: the defaults). The fields are checked in a
/// fixed order (unknown fields first) and the error names the first one that is wrong.
fn read_new_room(state: &AppState, body: &[u8]) -> Result<RoomSpec, String> {
    let config = &state.config;
    let fields = if body.iter().all(u8::is_ascii_whitespace) {
        NewRoom::default()
    } else {
        match serde_json::from_slice(body) {
            Ok(value @ Value::Object(_)) => serde_json::from_value::<NewRoom>(value)
                .map_err(|e| format!("not a room request: {e}"))?,
            Ok(_) => return Err("expected a JSON object".into()),
            Err(e) => return Err(format!("not JSON: {e}")),
        }
    };
    if let Some(key) = fields.unknown.keys().next() {
        return Err(format!(
            "unknown field \"{key}\" (fields: rules, seats, turn_seconds, robot_delay_ms, seed)"
        ));
    }
    let rules = match &fields.rules {
        None => config.rules.clone(),
        Some(Sent {
            value: Some(name), ..
        }) => Rules::from_profile_name(name).map_err(|e| format!("\"rules\": {e}"))?,
        Some(other) => return Err(format!("\"rules\": expected a profile name, not {other}")),
    };
    // The server's robots were checked at start-up: each spec is parsed once, here.
    let spec = |name: &str| BotSpec::parse(name).map_err(|e| format!("robot \"{name}\": {e}"));
    let robots = match &fields.seats {
        None => BySeat([
            None,
            Some(spec(&config.default_robot)?),
            Some(spec(&config.default_robot)?),
        ]),
        Some(Sent {
            value: Some(items), ..
        }) => {
            let mut robots = BySeat([None, None, None]);
            for (seat, item) in Seat::ALL.into_iter().zip(items) {
                robots[seat] = match &item.value {
                    Some(s) if s == "human" => None,
                    Some(s) if config.robots.contains(s) => Some(spec(s)?),
                    _ => {
                        return Err(format!(
                            "\"seats\"[{seat}]: {item} is not \"human\" or a robot ({})",
                            config.robots.join(", ")
                        ));
                    }
                };
            }
            robots
        }
        Some(other) => {
            return Err(format!(
                "\"seats\": expected 3 entries (\"human\" or a robot name), not {other}"
            ));
        }
    };
    if robots.0.iter().all(Option::is_some) {
        return Err("\"seats\": at least one seat is \"human\"".into());
    }
    let number = |field: &Option<Sent<u64>>, key: &str, high: u64, default: u64| match field {
        None => Ok(default),
        Some(v) => v
            .value
            .filter(|&n| n <= high)
            .ok_or_else(|| format!("\"{key}\": {v} is not a number 0-{high}")),
    };
    let turn = number(
        &fields.turn_seconds,
        "turn_seconds",
        600,
        config.turn_time.as_secs(),
    )?;
    let delay = number(
        &fields.robot_delay_ms,
        "robot_delay_ms",
        5000,
        config.robot_delay.as_millis() as u64,
    )?;
    let seed = match &fields.seed {
        None => None,
        // As a number, or as decimal text (a JavaScript client's numbers above 2^53 are not
        // exact).
        Some(v) => Some(
            v.value
                .or_else(|| crate::wire::seed_text::read(&v.json))
                .ok_or_else(|| {
                    format!(
                        "\"seed\": {v} is not a number 0-18446744073709551615 (or the same as \
                         decimal text)"
                    )
                })?,
        ),
    };
    let people = robots.0.iter().filter(|r| r.is_none()).count();
    if seed.is_some() && people > 1 && !config.seeds_for_any_room {
        return Err(format!(
            "\"seed\": a room with {people} people is dealt from random seeds only (a seed \
             is for a room with one person: whoever knows it knows every hand)"
        ));
    }
    Ok(RoomSpec {
        rules,
        robots,
        hint_bot: spec(&config.hint_bot)?,
        turn_time: Duration::from_secs(turn),
        robot_delay: Duration::from_millis(delay),
        seed,
    })
}

/// `POST /v1/rooms`: a new room; 201 with its id and the seat tokens.
pub(crate) async fn create(
    State(state): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match read_body(body) {
        Ok(body) => body,
        Err(response) => return *response,
    };
    let new = match read_new_room(&state, &body) {
        Ok(new) => new,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, e),
    };
    let addr = ClientAddr::of(addr);
    if let Err(response) = state.limits.create_room(addr) {
        return *response;
    }
    let settings = RoomSettings {
        rules: new.rules,
        robots: new.robots,
        seed: new.seed,
        hint_bot: new.hint_bot,
    };
    let room = Room::new(settings, |_| random_token());
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    let id = {
        let Ok(mut map) = state.rooms.map.lock() else {
            return json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the room registry failed",
            );
        };
        if map.len() >= state.rooms.max {
            return json_error(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{} rooms are open, the most this server holds: try again later",
                    map.len()
                ),
            );
        }
        let mut id = random_token();
        while map.contains_key(&id) {
            id = random_token();
        }
        map.insert(id.clone(), tx.clone());
        id
    };
    let Some(saving) = state.rooms.saving() else {
        state.rooms.remove(&id);
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down",
        );
    };
    let seats = Seat::ALL
        .into_iter()
        .map(|seat| CreatedSeat {
            seat,
            player: if room.robot(seat).is_some() {
                Player::Robot
            } else {
                Player::Human
            },
            robot: room.robot(seat).map(str::to_string),
            token: room.token(seat).map(str::to_string),
        })
        .collect();
    let body = RoomCreated {
        room: id.clone(),
        protocol: crate::config::WEB_PROTOCOL.into(),
        rules: room.game().rules().profile,
        turn_seconds: new.turn_time.as_secs(),
        robot_delay_ms: new.robot_delay.as_millis() as u64,
        seats,
        ws: format!("/v1/rooms/{id}/ws"),
    };
    let timing = (new.turn_time, new.robot_delay);
    // The room is in the database, leased to this instance, before anyone holds its tokens.
    let committed = match (&state.journal, &state.config.database) {
        (Some(journal), Some(db)) => {
            let saved = room.save(&id, timing.0, timing.1);
            let write = RoomWrite::Save {
                room: Box::new(saved.clone()),
                finished: None,
            };
            let db = db.clone();
            let lease_id = id.clone();
            let claimed =
                match tokio::task::spawn_blocking(move || db.claim(&lease_id, false)).await {
                    Ok(Ok(Some(epoch))) => Ok(epoch),
                    Ok(Ok(None)) => Err("its id is leased already".to_string()),
                    Ok(Err(e)) => {
                        journal.note(Err(&e));
                        Err(e.to_string())
                    }
                    Err(_) => Err("the database task failed".to_string()),
                };
            let committed = match claimed {
                Ok(epoch) => journal
                    .commit(epoch, write)
                    .await
                    .map(|()| (saved, epoch))
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e),
            };
            match committed {
                Ok(committed) => Some(committed),
                Err(e) => {
                    state.rooms.remove(&id);
                    return json_error(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!("the room could not be saved: {e}"),
                    );
                }
            }
        }
        _ => None,
    };
    start(state, id, room, (tx, rx), timing, saving, committed);
    json_response(StatusCode::CREATED, &body)
}

/// Starts the task of a room registered under `id` (with `channel`'s sender), with its turn
/// time and robots' pause (`timing`) and its state as last committed to the database with the
/// epoch of its lease (none without a database).
fn start(
    state: AppState,
    id: String,
    room: Room,
    channel: (mpsc::Sender<Cmd>, mpsc::Receiver<Cmd>),
    timing: (Duration, Duration),
    saving: mpsc::UnboundedSender<SavedRoom>,
    committed: Option<(SavedRoom, u64)>,
) {
    let (committed, epoch) = committed.map_or((None, 0), |(room, epoch)| (Some(room), epoch));
    let (tx, rx) = channel;
    let task = RoomTask {
        id,
        room,
        conns: HashMap::new(),
        next_conn: 1,
        tx,
        turn_time: timing.0,
        robot_delay: timing.1,
        idle_expiry: state.config.idle_expiry,
        journal: state.journal.clone(),
        committed,
        epoch,
        closed: false,
        retry_at: None,
        last_activity: Instant::now(),
        scheduled: None,
        robot_due: None,
        deadline: None,
        hints: None,
        hint_waiters: Vec::new(),
        saving: state.config.database.is_some().then_some(saving),
    };
    let rooms = state.rooms.clone();
    tokio::spawn(async move {
        let id = task.id.clone();
        task.run(rx).await;
        rooms.remove(&id);
    });
}

/// Opens a room of the database again, under its id, with its own settings and a fresh turn
/// timer, run under its lease at `epoch` (claimed by the caller); refused with what is wrong.
pub(crate) fn resume(state: &AppState, saved: &SavedRoom, epoch: u64) -> Result<(), String> {
    let room = Room::resume(saved)?;
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    {
        let mut map = state
            .rooms
            .map
            .lock()
            .map_err(|_| "the room registry failed".to_string())?;
        if map.contains_key(&saved.id) {
            return Err("a room with this id is open".into());
        }
        map.insert(saved.id.clone(), tx.clone());
    }
    let Some(saving) = state.rooms.saving() else {
        state.rooms.remove(&saved.id);
        return Err("the server is shutting down".into());
    };
    let timing = (
        Duration::from_millis(saved.turn_ms),
        Duration::from_millis(saved.robot_delay_ms),
    );
    start(
        state.clone(),
        saved.id.clone(),
        room,
        (tx, rx),
        timing,
        saving,
        Some((saved.clone(), epoch)),
    );
    Ok(())
}

/// One connection of a room.
struct Conn {
    audience: Audience,
    out: mpsc::Sender<Message>,
}

/// The task that owns a room.
struct RoomTask {
    id: String,
    room: Room,
    conns: HashMap<u64, Conn>,
    next_conn: u64,
    /// The room's own channel, for robots' decisions and hints computed elsewhere.
    tx: mpsc::Sender<Cmd>,
    turn_time: Duration,
    robot_delay: Duration,
    idle_expiry: Duration,
    last_activity: Instant,
    /// The step the timers below were set for.
    scheduled: Option<u64>,
    /// When the robot to act decides.
    robot_due: Option<Instant>,
    /// When a person's turn runs out, and whose.
    deadline: Option<(Seat, Instant)>,
    /// The hints of a step: computed once, for every connection that asks.
    hints: Option<(u64, Option<Vec<String>>)>,
    /// The connections waiting for the hints being computed.
    hint_waiters: Vec<u64>,
    /// Where the room's actions (and its finished games) are committed before anyone is told
    /// of them (none without a database).
    journal: Option<Arc<Journal>>,
    /// The room as last committed: what it goes back to when a commit fails.
    committed: Option<SavedRoom>,
    /// The epoch of the room's lease: every commit is fenced by it (`crate::db`).
    epoch: u64,
    /// The room could not go back to a committed state: it closes.
    closed: bool,
    /// After a failed commit, no robot acts before this (a database that keeps failing is not
    /// hammered).
    retry_at: Option<Instant>,
    /// Where the room's state goes at shutdown (none without a database).
    saving: Option<mpsc::UnboundedSender<SavedRoom>>,
}

impl RoomTask {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.schedule();
        loop {
            let expiry = self.last_activity + self.idle_expiry;
            let wake = [self.robot_due, self.deadline.map(|d| d.1), Some(expiry)]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(expiry);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(Cmd::Shutdown) => {
                        self.close_all("server shutting down");
                        if let Some(saving) = self.saving.take() {
                            let _ = saving.send(self.room.save(
                                &self.id,
                                self.turn_time,
                                self.robot_delay,
                            ));
                        }
                        return;
                    }
                    Some(cmd) => self.command(cmd).await,
                    None => return,
                },
                () = tokio::time::sleep_until(wake) => {
                    let now = Instant::now();
                    if now >= expiry {
                        self.expire().await;
                        return;
                    }
                    self.timers(now);
                }
            }
            if self.closed {
                return;
            }
            self.schedule();
        }
    }

    /// Closes every connection of an idle room, and its row in the database.
    async fn expire(&mut self) {
        let secs = self.idle_expiry.as_secs();
        self.close_all(&format!("the room was idle for {secs} s"));
        if let Some(journal) = &self.journal
            && let Err(e) = journal
                .commit(self.epoch, RoomWrite::Close(self.id.clone()))
                .await
        {
            eprintln!("ddz serve: room {}: closed, but still saved: {e}", self.id);
        }
    }

    /// Sends `closed` with the reason and a close frame (1001) to every connection.
    fn close_all(&mut self, reason: &str) {
        let closed = text(&ServerMessage::Closed {
            reason: reason.into(),
        });
        for conn in self.conns.values() {
            let _ = conn.out.try_send(closed.clone());
            let _ = conn.out.try_send(close_message(1001, "room closed"));
        }
        self.conns.clear();
    }

    /// Sets the robot's pause or the person's turn timer when the turn changed.
    fn schedule(&mut self) {
        let step = self.room.step();
        if self.scheduled == Some(step) {
            return;
        }
        self.scheduled = Some(step);
        self.robot_due = None;
        self.deadline = None;
        let Some(seat) = self.room.turn() else {
            return;
        };
        let now = Instant::now();
        let from = self.retry_at.take().map_or(now, |t| t.max(now));
        if self.room.robot(seat).is_some() || self.room.is_auto(seat) {
            self.robot_due = Some(from + self.robot_delay);
        } else if !self.turn_time.is_zero() {
            self.deadline = Some((seat, now + self.turn_time));
        }
    }

    /// A robot's pause or a person's time is over: the robot decides, off the async threads.
    fn timers(&mut self, now: Instant) {
        let job = if self.robot_due.is_some_and(|t| t <= now) {
            self.robot_due = None;
            self.room.robot_job()
        } else if let Some((seat, t)) = self.deadline
            && t <= now
        {
            self.deadline = None;
            Some(self.room.auto_job(seat))
        } else {
            None
        };
        if let Some(job) = job {
            let tx = self.tx.clone();
            tokio::task::spawn_blocking(move || {
                let (step, seat, auto) = (job.step, job.seat, job.auto);
                let action = job.run();
                let _ = tx.blocking_send(Cmd::Decided {
                    step,
                    seat,
                    action,
                    auto,
                });
            });
        }
    }

    async fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join {
                token,
                after,
                player,
                out,
                reply,
            } => self.join(token, after, player, out, reply),
            Cmd::Frame { conn, msg } => {
                self.last_activity = Instant::now();
                self.frame(conn, &msg).await;
            }
            Cmd::Leave { conn } => self.leave(conn),
            // Handled by the loop in `run`.
            Cmd::Shutdown => {}
            Cmd::Decided {
                step,
                seat,
                action,
                auto,
            } => {
                if step == self.room.step() {
                    match self.room.act(seat, action, auto) {
                        Ok(events) => self.publish(events, None, true).await,
                        // Not expected (the job chose among the allowed actions): set the
                        // timers again so the turn is not lost.
                        Err(_) => self.scheduled = None,
                    }
                }
            }
            Cmd::Hints { step, moves } => {
                if step == self.room.step() {
                    let message = text(&ServerMessage::Hints {
                        moves: moves.clone(),
                    });
                    for conn in std::mem::take(&mut self.hint_waiters) {
                        self.send(conn, message.clone());
                    }
                    self.hints = Some((step, Some(moves)));
                }
            }
        }
    }

    fn join(
        &mut self,
        token: Option<String>,
        after: Option<u64>,
        player: Option<PlayerId>,
        out: mpsc::Sender<Message>,
        reply: oneshot::Sender<Option<u64>>,
    ) {
        let refuse = |why: Refusal| {
            let _ = out.try_send(error_message(why));
            let _ = out.try_send(close_message(1008, "refused"));
        };
        let audience = match &token {
            None => Audience::Spectator,
            Some(t) => match self.room.seat_of_token(t) {
                Some(seat) => Audience::Seat(seat),
                None => {
                    refuse(Refusal::new(
                        RoomRefusal::WrongToken,
                        "\"token\": wrong token: no seat of this room has it",
                    ));
                    let _ = reply.send(None);
                    return;
                }
            },
        };
        let mut same: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| c.audience == audience)
            .map(|(&k, _)| k)
            .collect();
        match audience {
            Audience::Spectator if same.len() >= MAX_SPECTATORS => {
                refuse(Refusal::new(
                    RoomRefusal::RoomFull,
                    format!(
                        "the room is full ({MAX_SPECTATORS} spectators); seated players still join"
                    ),
                ));
                let _ = reply.send(None);
                return;
            }
            Audience::Seat(_) if same.len() >= MAX_SEAT_CONNECTIONS => {
                // The seat's oldest connections make way for the newest.
                same.sort_unstable();
                for old in &same[..=same.len() - MAX_SEAT_CONNECTIONS] {
                    if let Some(c) = self.conns.remove(old) {
                        let _ = c.out.try_send(error_message(Refusal::new(
                            RoomRefusal::Replaced,
                            format!(
                                "this seat joined again elsewhere (at most \
                                 {MAX_SEAT_CONNECTIONS} connections a seat)"
                            ),
                        )));
                        let _ = c.out.try_send(close_message(1008, "replaced"));
                    }
                }
            }
            _ => {}
        }
        self.last_activity = Instant::now();
        if let (Audience::Seat(seat), Some(player)) = (audience, player) {
            self.room.claim_identity(seat, player);
        }
        let conn = self.next_conn;
        self.next_conn += 1;
        let welcome = ServerMessage::Welcome {
            protocol: crate::config::WEB_PROTOCOL.into(),
            room: self.id.clone(),
            seat: match audience {
                Audience::Seat(s) => Some(s),
                Audience::Spectator => None,
            },
            turn_seconds: self.turn_time.as_secs(),
            robot_delay_ms: self.robot_delay.as_millis() as u64,
        };
        let (events, complete) = self.room.events_after(after.unwrap_or(0));
        let update = self.update(audience, events, !complete);
        let _ = out.try_send(text(&welcome));
        let _ = out.try_send(text(&update));
        self.conns.insert(conn, Conn { audience, out });
        let _ = reply.send(Some(conn));
        if let Audience::Seat(s) = audience {
            let events = self.room.set_connected(s, true);
            self.broadcast(events);
        }
    }

    fn leave(&mut self, conn: u64) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if let Audience::Seat(s) = c.audience
            && !self.conns.values().any(|o| o.audience == c.audience)
        {
            let events = self.room.set_connected(s, false);
            self.broadcast(events);
        }
    }

    async fn frame(&mut self, conn: u64, msg: &ClientMessage) {
        let Some(audience) = self.conns.get(&conn).map(|c| c.audience) else {
            return;
        };
        match self.room.read_request(audience, msg) {
            Err(e) => self.send(conn, error_message(e)),
            Ok(Request::Hint(seat)) => match self.room.hint_job(seat) {
                Err(e) => self.send(conn, error_message(e)),
                Ok(job) => match &self.hints {
                    // Computed for this step already, or being computed.
                    Some((step, Some(moves))) if *step == job.step => {
                        let message = text(&ServerMessage::Hints {
                            moves: moves.clone(),
                        });
                        self.send(conn, message);
                    }
                    Some((step, None)) if *step == job.step => self.hint_waiters.push(conn),
                    _ => {
                        self.hints = Some((job.step, None));
                        self.hint_waiters = vec![conn];
                        let tx = self.tx.clone();
                        tokio::task::spawn_blocking(move || {
                            let step = job.step;
                            let moves = job.run();
                            let _ = tx.blocking_send(Cmd::Hints { step, moves });
                        });
                    }
                },
            },
            Ok(Request::Auto(seat, on)) => {
                let events = self.room.set_auto(seat, on);
                // The turn's timers change with it: a robot's pause or the person's clock.
                self.scheduled = None;
                self.publish(events, Some(conn), false).await;
            }
            Ok(Request::Act(seat, action)) => {
                // `next` is the room's own; the others are the game's actions.
                let acted = action != SeatAction::Next;
                match self.room.act(seat, action, false) {
                    Ok(events) => self.publish(events, Some(conn), acted).await,
                    Err(e) => self.send(conn, error_message(e)),
                }
            }
        }
    }

    /// Sends to one connection; one whose queue is full is dropped.
    fn send(&mut self, conn: u64, message: Message) {
        let full = self
            .conns
            .get(&conn)
            .is_some_and(|c| c.out.try_send(message).is_err());
        if full {
            self.leave(conn);
        }
    }

    /// The game just finished, with the room's totals, as the database keeps it.
    fn finished_game(&self) -> Option<FinishedGame> {
        let state = self.room.state(Audience::Spectator);
        let (Some(result), Some(record)) = (state.result, state.record) else {
            return None;
        };
        let text = |v: serde_json::Result<Value>| {
            v.ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        };
        Some(FinishedGame {
            room: self.id.clone(),
            number: state.game,
            rules: text(serde_json::to_value(state.rules)),
            seed: record.seed,
            winner: text(serde_json::to_value(result.winner)),
            scores: result.scores.0,
            players: Seat::ALL.map(|s| self.room.robot(s).unwrap_or("human").to_string()),
            identities: Seat::ALL.map(|s| self.room.identity(s).map(|p| p.as_str().to_string())),
            totals: state.totals.0,
            record: serde_json::to_value(&record).unwrap_or(Value::Null),
        })
    }

    /// Tells every connection of the events of a change, once it is committed to the database
    /// (with the game it finished, if it did): a crash loses nothing a client was told. Most
    /// changes append one entry to the room's log (`acted`: with the game's latest action); a
    /// change that deals a game (or ends one by a forfeit) writes the room's whole state. A
    /// commit that fails takes the room back to its last committed state
    /// ([`RoomTask::restore`]): nobody hears of the change, and the connection that sent it
    /// (`actor`) is refused with `not_saved`.
    async fn publish(&mut self, events: Vec<NumberedEvent>, actor: Option<u64>, acted: bool) {
        if events.is_empty() {
            return;
        }
        if let Some(journal) = self.journal.clone() {
            let whole = events
                .iter()
                .any(|e| matches!(e.event, Event::Start { .. } | Event::Forfeit { .. }));
            let over = events.iter().any(|e| matches!(e.event, Event::Over { .. }));
            let finished = over.then(|| self.finished_game()).flatten().map(Box::new);
            let (write, done) = if whole {
                let room = self.room.save(&self.id, self.turn_time, self.robot_delay);
                let write = RoomWrite::Save {
                    room: Box::new(room.clone()),
                    finished,
                };
                (write, Written::Whole(Box::new(room)))
            } else {
                let entry = self.room.log_entry(acted);
                let write = RoomWrite::Append {
                    room: self.id.clone(),
                    entry: entry.clone(),
                    finished,
                };
                (write, Written::Entry(entry))
            };
            match journal.commit(self.epoch, write).await {
                Ok(()) => {}
                Err(e) if e.is_lease_lost() => return self.moved(&e.to_string()),
                Err(e) => return self.restore(&e.to_string(), actor),
            }
            match done {
                Written::Whole(room) => self.committed = Some(*room),
                Written::Entry(entry) => {
                    if let Some(committed) = &mut self.committed {
                        committed.apply(&entry);
                    }
                }
            }
        }
        self.broadcast(events);
    }

    /// Another instance took the room's lease (this one lost touch with the database for
    /// longer than a lease): the room stops here, untold of the change, and its connections
    /// close with 1012 (service restart), to reconnect and be sent where it runs now.
    fn moved(&mut self, why: &str) {
        eprintln!("ddz serve: room {}: stops here: {why}", self.id);
        for conn in self.conns.values() {
            let _ = conn
                .out
                .try_send(close_message(1012, "the room moved: reconnect"));
        }
        self.conns.clear();
        self.closed = true;
        self.saving = None;
    }

    /// After a failed commit: the room as last committed, every connection sent its state
    /// again (`resync`), the actor refused with `not_saved`, robots paused a second. A room
    /// that cannot go back closes (it has no committed state to go on from).
    fn restore(&mut self, why: &str, actor: Option<u64>) {
        eprintln!(
            "ddz serve: room {}: an action could not be saved, the room goes back to its last \
             saved step: {why}",
            self.id
        );
        let Some(mut room) = self.committed.as_ref().and_then(|c| Room::resume(c).ok()) else {
            self.close_all("the room's state could not be saved");
            self.closed = true;
            return;
        };
        for seat in Seat::ALL {
            if self
                .conns
                .values()
                .any(|c| c.audience == Audience::Seat(seat))
            {
                room.set_connected(seat, true);
            }
        }
        self.room = room;
        self.scheduled = None;
        self.hints = None;
        self.retry_at = Some(Instant::now() + COMMIT_RETRY);
        self.schedule();
        let audiences: Vec<(u64, Audience)> =
            self.conns.iter().map(|(&k, c)| (k, c.audience)).collect();
        for (conn, audience) in audiences {
            let message = text(&self.update(audience, Vec::new(), true));
            self.send(conn, message);
        }
        if let Some(conn) = actor {
            let refusal = Refusal::new(
                RoomRefusal::NotSaved,
                format!("the action could not be saved, so it was not played: {why}"),
            );
            self.send(conn, error_message(refusal));
        }
    }

    /// The `update` message for an audience: the events and the state after them, with the
    /// turn clock (`resync` when events were dropped before them).
    fn update(
        &self,
        audience: Audience,
        events: Vec<NumberedEvent>,
        resync: bool,
    ) -> ServerMessage {
        let mut state = self.room.state(audience);
        state.clock = self.deadline.map(|(seat, t)| Clock {
            seat,
            ms: t.saturating_duration_since(Instant::now()).as_millis() as u64,
        });
        ServerMessage::Update {
            n: self.room.last_event(),
            events,
            state: Box::new(state),
            resync,
        }
    }

    /// Sends the events with each audience's state to every connection.
    fn broadcast(&mut self, events: Vec<NumberedEvent>) {
        if events.is_empty() {
            return;
        }
        // The clock in the state is the new turn's.
        self.schedule();
        let mut built: HashMap<Audience, Message> = HashMap::new();
        let mut slow = Vec::new();
        let audiences: Vec<(u64, Audience)> =
            self.conns.iter().map(|(&k, c)| (k, c.audience)).collect();
        for (conn, audience) in audiences {
            let message = built
                .entry(audience)
                .or_insert_with(|| text(&self.update(audience, events.clone(), false)))
                .clone();
            if let Some(c) = self.conns.get(&conn)
                && c.out.try_send(message).is_err()
            {
                slow.push(conn);
            }
        }
        for conn in slow {
            self.leave(conn);
        }
    }
}
