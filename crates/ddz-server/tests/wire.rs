//! The `ddz-web/1` wire format, byte for byte: the exact JSON text of every kind of message for
//! seeded rooms, compared line by line with transcripts recorded under `tests/data/` by the
//! server as it was when its messages were still `json!` literals (`web_*.txt`).
//!
//! - `web_room.txt`: rooms driven directly ([`Room`]): every room state for each seat and for
//!   the spectators after every action, every event (start, bid, redeal, landlord, wild, play,
//!   over, connected, ready, auto; `auto` true and false), the requests read from client messages
//!   and the errors for bad ones, refused actions and hints, under points, call-and-rob and
//!   fixed bidding, with one and two wild ranks;
//! - `web_socket.txt`: rooms over WebSocket: `welcome` (a seat and a spectator), `update` (with
//!   the turn clock, resuming after a message, `resync`), `hints`, `error` for bad frames
//!   before and after joining, the refusals that close a connection, `closed`;
//! - `web_http.txt`: the HTTP side: `POST /v1/rooms` created and refused, the JSON errors of
//!   every route, `/v1/health` and `/v1/replay`.
//!
//! Every message is also read back into its type of `ddz_server::wire` and written again, to
//! the same text. Random room ids and seat tokens are written as `ROOM` and `TOKEN0`..`TOKEN2`, a turn
//! clock's milliseconds as `"ms":MS`. `DDZ_RECORD_FIXTURE=1 cargo test -p ddz-server --test
//! wire` writes the transcripts afresh instead of comparing them: only for an intended change
//! of the protocol.

use crate::common;

use std::fmt::Display;
use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::Request as HttpRequest;
use axum::serve::ListenerExt;
use common::{Client, test_config};
use ddz_core::{Bidding, Card, Rules, move_notation};
use ddz_game::{BySeat, Game, GameRecord, Phase, Seat};
use ddz_server::app;
use ddz_server::room::{Action, Audience, Request, Room, RoomSettings};
use ddz_server::wire::{
    ClientMessage, ErrorBody, Health, NumberedEvent, ReplayFailure, ReplayReply, RoomCreated,
    ServerMessage, State,
};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// `text` read as a `T` and written again is `text`: the types of `ddz_server::wire` hold
/// every message whole.
fn round_trip<T: Serialize + DeserializeOwned>(text: &str) {
    let value: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
}

/// Labelled lines of message text.
#[derive(Default)]
struct Transcript(Vec<String>);

impl Transcript {
    /// A line: the label, a tab, the text (one line).
    fn line(&mut self, label: impl Display, text: impl AsRef<str>) {
        let (label, text) = (label.to_string(), text.as_ref());
        assert!(
            !label.contains('\n') && !text.contains('\n'),
            "{label}: {text}"
        );
        self.0.push(format!("{label}\t{text}"));
    }

    /// A value as the server writes it: compact JSON.
    fn json(&mut self, label: impl Display, value: &impl Serialize) {
        self.line(label, serde_json::to_string(value).unwrap());
    }

    /// Compares with the recorded transcript `tests/data/{file}` (or records it).
    fn check(self, file: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(file);
        let text = self.0.join("\n") + "\n";
        if std::env::var_os("DDZ_RECORD_FIXTURE").is_some() {
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let recorded =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (i, (was, now)) in recorded.lines().zip(text.lines()).enumerate() {
            assert_eq!(
                now,
                was,
                "{file} line {}: now (left), recorded (right)",
                i + 1
            );
        }
        assert_eq!(
            text.lines().count(),
            recorded.lines().count(),
            "{file}: lines now (left), recorded (right)"
        );
    }
}

// --- Rooms driven directly -----------------------------------------------------------------

const AUDIENCES: [Audience; 4] = [
    Audience::Seat(Seat::ALL[0]),
    Audience::Seat(Seat::ALL[1]),
    Audience::Seat(Seat::ALL[2]),
    Audience::Spectator,
];

fn audience_name(a: Audience) -> String {
    match a {
        Audience::Seat(s) => format!("seat {s}"),
        Audience::Spectator => "spectator".into(),
    }
}

/// Reads a client message as the room's task does (a frame's JSON object). A probe without
/// `"step"` is read as answering the room's current step (`tests/stale.rs` checks missing
/// and stale steps).
fn read(room: &Room, audience: Audience, msg: &Value) -> Result<Request, String> {
    let mut msg: ClientMessage = serde_json::from_value(msg.clone()).unwrap();
    if msg.step.is_none() {
        msg.step = serde_json::from_value(json!(room.step())).unwrap();
    }
    room.read_request(audience, &msg)
}

/// A request read, in words.
fn describe(room: &Room, request: &Request) -> String {
    match request {
        Request::Hint(s) => format!("hint for seat {s}"),
        Request::Auto(s, on) => format!("auto {on} by seat {s}"),
        Request::Act(s, Action::Next) => format!("next by seat {s}"),
        Request::Act(s, Action::Bid(b)) => format!("bid {b} by seat {s}"),
        Request::Act(s, Action::Decide(decision)) => format!("{decision:?} by seat {s}"),
        Request::Act(s, Action::Play(m, ids)) => {
            let ids = ids.map_or("no ids".to_string(), |set| {
                format!("ids {:?}", set.iter().map(|c| c.id()).collect::<Vec<_>>())
            });
            format!(
                "play {} by seat {s} with {ids}",
                move_notation(m, &room.game().rules())
            )
        }
    }
}

/// Applies an action; the events, or the refusal.
fn act(t: &mut Transcript, room: &mut Room, label: &str, seat: Seat, action: Action, auto: bool) {
    match room.act(seat, action, auto) {
        Ok(events) => {
            round_trip::<Vec<NumberedEvent>>(&serde_json::to_string(&events).unwrap());
            t.json(format!("events ({label}, seat {seat})"), &events);
        }
        Err(e) => t.line(format!("refused ({label}, seat {seat})"), e),
    }
}

/// The states of every audience.
fn states(t: &mut Transcript, room: &Room) {
    for a in AUDIENCES {
        let state = room.state(a);
        round_trip::<State>(&serde_json::to_string(&state).unwrap());
        t.json(format!("state for {}", audience_name(a)), &state);
    }
}

/// The state of one audience as a JSON value.
fn state_value(room: &Room, a: Audience) -> Value {
    serde_json::to_value(room.state(a)).unwrap()
}

/// The hand's card ids in a state.
fn hand_ids(state: &Value) -> Vec<u64> {
    let mut hand: Vec<u64> = state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    hand.sort_unstable();
    hand
}

/// The rank letter of a card id.
fn letter(id: u64) -> char {
    Card::from_id(id as u8).unwrap().rank().letter()
}

/// The lowest ids of each rank of `text`'s cards part in the hand.
fn ids_for(state: &Value, text: &str) -> Vec<u64> {
    let mut hand = hand_ids(state);
    let cards = text.split(['=', ':']).next().unwrap();
    let mut ids = Vec::new();
    for l in cards.chars() {
        let pos = hand.iter().position(|&id| letter(id) == l).unwrap();
        ids.push(hand.remove(pos));
    }
    ids
}

/// A person's choice from its state: a bid (0 when `pass`), or a play sent as `play` with or
/// without ids or as `pass`.
fn choose(state: &Value, rng: &mut ChaCha8Rng, pass: bool) -> Value {
    let legal = &state["legal"];
    let step = &state["step"];
    if let Some(bids) = legal["bids"].as_array() {
        let bid = if pass {
            json!(0)
        } else {
            bids[rng.random_range(0..bids.len())].clone()
        };
        return json!({"type": "bid", "bid": bid, "step": step});
    }
    let moves = legal["moves"].as_array().unwrap();
    let m = moves[rng.random_range(0..moves.len())].as_str().unwrap();
    match (m, rng.random_range(0..3)) {
        ("pass", 0) => json!({"type": "pass", "step": step}),
        (m, 1) if m != "pass" => {
            json!({"type": "play", "move": m, "ids": ids_for(state, m), "step": step})
        }
        (m, _) => json!({"type": "play", "move": m, "step": step}),
    }
}

/// Reads each client message as `audience`, records the request or the error, and tries the
/// actions of those marked to act (each must be refused).
fn probe(t: &mut Transcript, room: &mut Room, audience: Audience, messages: &[(Value, bool)]) {
    let who = audience_name(audience);
    for (msg, try_it) in messages {
        t.line(format!("from {who}"), msg.to_string());
        match read(room, audience, msg) {
            Err(e) => t.line("error", e),
            Ok(request) => {
                t.line("read", describe(room, &request));
                if !try_it {
                    continue;
                }
                match request {
                    Request::Hint(seat) => match room.hint_job(seat) {
                        Ok(job) => t.json("hints", &job.run()),
                        Err(e) => t.line("error", e),
                    },
                    // Auto-play on, its state, and off again: the room goes on as it was.
                    Request::Auto(seat, on) => {
                        t.json("events (auto)", &room.set_auto(seat, on));
                        t.json("auto state", &room.state(Audience::Seat(seat)).seats);
                        t.json("events (auto off)", &room.set_auto(seat, false));
                    }
                    Request::Act(seat, action) => {
                        let step = room.step();
                        act(t, room, "probe", seat, action, false);
                        assert_eq!(room.step(), step, "{msg} was not refused");
                    }
                }
            }
        }
    }
}

/// Bad and good messages of the seat to act while bidding, of another person and of a
/// spectator.
fn probe_bidding(t: &mut Transcript, room: &mut Room, me: Seat, other: Option<Seat>) {
    let o = me.next().index();
    let long = "3".repeat(201);
    let msgs = [
        (json!({}), false),
        (json!({"type": 5}), false),
        (json!({"type": null}), false),
        (json!({"type": "dance"}), false),
        (json!({"type": "join", "token": "x"}), false),
        (json!({"type": "watch"}), false),
        (json!({"type": "pass", "seat": o}), false),
        (json!({"type": "pass", "seat": "0"}), false),
        (json!({"type": "pass", "seat": null}), false),
        (json!({"type": "pass", "seat": 7}), false),
        (json!({"type": "pass", "seat": -1}), false),
        (json!({"type": "pass", "seat": 1.5}), false),
        (json!({"type": "pass", "seat": me.index()}), true),
        (json!({"type": "bid"}), false),
        (json!({"type": "bid", "bid": null}), false),
        (json!({"type": "bid", "bid": 9}), false),
        (json!({"type": "bid", "bid": "1"}), false),
        (json!({"type": "bid", "bid": -1}), false),
        (json!({"type": "bid", "bid": 2.0}), false),
        (json!({"type": "bid", "bid": 300}), false),
        (json!({"type": "bid", "bid": [1]}), false),
        (json!({"type": "bid", "bid": 9, "seat": o}), false),
        (json!({"type": "bid", "seat": o}), false),
        (
            json!({"type": "bid", "bid": 1, "note": "extra fields are ignored"}),
            false,
        ),
        (json!({"type": "play"}), false),
        (json!({"type": "play", "move": 5}), false),
        (json!({"type": "play", "move": null}), false),
        (json!({"type": "play", "move": "ZZ"}), false),
        (json!({"type": "play", "move": "33Z"}), false),
        (json!({"type": "play", "move": long}), false),
        (json!({"type": "play", "move": "3", "ids": "x"}), false),
        (json!({"type": "play", "ids": [99], "move": "ZZ"}), false),
        (json!({"type": "play", "move": 5, "seat": o}), false),
        (json!({"type": "play", "move": "3"}), true),
        (json!({"type": "hint"}), true),
        (json!({"type": "next"}), true),
    ];
    probe(t, room, Audience::Seat(me), &msgs);
    let spectator = [
        (json!({"type": "bid", "bid": 1}), false),
        (json!({"type": "hint"}), false),
        (json!({"type": "next", "seat": 0}), false),
        (json!({"type": "dance"}), false),
        (json!({"type": "watch"}), false),
        (json!({}), false),
    ];
    probe(t, room, Audience::Spectator, &spectator);
    if let Some(other) = other {
        let msgs = [
            (json!({"type": "bid", "bid": 1}), true),
            (json!({"type": "hint"}), true),
            (json!({"type": "pass"}), true),
        ];
        probe(t, room, Audience::Seat(other), &msgs);
    }
}

/// Bad and good messages of the seat to act while playing.
fn probe_playing(t: &mut Transcript, room: &mut Room, me: Seat) {
    let state = state_value(room, Audience::Seat(me));
    let hand = hand_ids(&state);
    let low = hand[0];
    let l = letter(low).to_string();
    let other_rank = *hand.iter().find(|&&id| letter(id) != letter(low)).unwrap();
    let foreign = u64::from(room.physical(me.next()).iter().next().unwrap().id());
    // A rank the seat does not hold: a play of cards not in its hand.
    let missing = "3456789TJQKA2BR"
        .chars()
        .find(|&c| !hand.iter().any(|&id| letter(id) == c))
        .unwrap()
        .to_string();
    let many: Vec<u64> = (0..21).collect();
    let msgs = [
        (json!({"type": "bid", "bid": 1}), true),
        (json!({"type": "play", "move": "ZZ"}), false),
        (json!({"type": "play", "move": missing}), true),
        (json!({"type": "play", "move": l, "ids": [low]}), false),
        (
            json!({"type": "play", "move": l, "ids": [other_rank]}),
            false,
        ),
        (json!({"type": "play", "move": l, "ids": [foreign]}), false),
        (json!({"type": "play", "move": l, "ids": [99]}), false),
        (json!({"type": "play", "move": l, "ids": [-1]}), false),
        (json!({"type": "play", "move": l, "ids": ["a"]}), false),
        (json!({"type": "play", "move": l, "ids": [low, low]}), false),
        (json!({"type": "play", "move": l, "ids": many}), false),
        (json!({"type": "play", "move": l, "ids": {}}), false),
        (json!({"type": "play", "move": l, "ids": null}), false),
        (json!({"type": "play", "move": l, "ids": [low, 99]}), false),
        (
            json!({"type": "play", "move": l, "ids": [foreign, 99]}),
            false,
        ),
        (json!({"type": "play", "move": "pass", "ids": [low]}), false),
        (json!({"type": "play", "move": "pass", "ids": []}), false),
        (json!({"type": "hint"}), true),
        (json!({"type": "next"}), true),
        (json!({"type": "auto"}), false),
        (json!({"type": "auto", "auto": "yes"}), false),
        (json!({"type": "auto", "auto": null}), false),
        (json!({"type": "auto", "auto": true}), true),
    ];
    probe(t, room, Audience::Seat(me), &msgs);
}

/// A room played for `games` games: people choose at random (every ninth decision is the
/// turn timer's), robots through their jobs. With `redeal`, the people pass on the first deal.
/// Every event and refusal is recorded, every audience's state at the start, at the changes
/// of phase and every twentieth action.
fn play_room(
    t: &mut Transcript,
    name: &str,
    rules: Rules,
    robots: [Option<&str>; 3],
    seed: u64,
    games: u32,
    redeal: bool,
) {
    t.line("room", name);
    let settings = RoomSettings {
        rules,
        robots: BySeat(robots.map(|r| r.map(|n| n.parse().unwrap()))),
        seed: Some(seed),
        hint_bot: "greedy".parse().unwrap(),
    };
    let mut room = Room::new(settings, |s| format!("{:032x}", s.index() + 1));
    let people: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|s| robots[s.index()].is_none())
        .collect();
    let (events, complete) = room.events_after(0);
    t.json(format!("events after 0 (complete: {complete})"), &events);
    states(t, &room);
    for &s in &people {
        t.json(format!("connected seat {s}"), &room.set_connected(s, true));
    }
    t.json("connected again", &room.set_connected(people[0], true));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut decision = 0u32;
    let mut probed_bidding = false;
    let mut probed_playing = false;
    let mut passes = if redeal { people.len() } else { 0 };
    for game in 1..=games {
        while !room.is_over() {
            let seat = room.turn().unwrap();
            let phase = room.game().phase();
            if let Some(job) = room.robot_job() {
                let action = job.run();
                act(t, &mut room, "robot", seat, action, false);
            } else {
                decision += 1;
                if phase == Phase::Bidding && !probed_bidding {
                    probed_bidding = true;
                    let other = people.iter().copied().find(|&s| s != seat);
                    probe_bidding(t, &mut room, seat, other);
                }
                if phase == Phase::Playing && !probed_playing {
                    probed_playing = true;
                    probe_playing(t, &mut room, seat);
                    // A job of the turn timer made for a seat not to act is refused.
                    let job = room.auto_job(seat.next());
                    let (s, auto) = (job.seat, job.auto);
                    act(t, &mut room, "auto off turn", s, job.run(), auto);
                }
                if phase == Phase::Bidding {
                    // A bid not allowed now, when there is one.
                    let allowed = room.game().legal_bids();
                    if let Some(b) = (0..=3).find(|b| !allowed.contains(b)) {
                        act(t, &mut room, "not allowed", seat, Action::Bid(b), false);
                    }
                }
                if decision.is_multiple_of(9) {
                    let job = room.auto_job(seat);
                    let (s, auto) = (job.seat, job.auto);
                    act(t, &mut room, "turn timer", s, job.run(), auto);
                } else {
                    let state = state_value(&room, Audience::Seat(seat));
                    let pass = passes > 0 && phase == Phase::Bidding;
                    passes = passes.saturating_sub(usize::from(pass));
                    let msg = choose(&state, &mut rng, pass);
                    t.line(format!("from seat {seat}"), msg.to_string());
                    let request = read(&room, Audience::Seat(seat), &msg).unwrap();
                    t.line("read", describe(&room, &request));
                    let Request::Act(s, action) = request else {
                        panic!("not an action")
                    };
                    act(t, &mut room, "person", s, action, false);
                }
            }
            // Every audience's state at each change of phase and every twentieth action.
            if room.game().phase() != phase || room.step().is_multiple_of(20) {
                states(t, &room);
            }
        }
        // Over: actions are refused; each person gets ready, one of them disconnected.
        let first = people[0];
        let over = [
            (json!({"type": "bid", "bid": 1}), true),
            (json!({"type": "pass"}), true),
            (json!({"type": "hint"}), true),
        ];
        probe(t, &mut room, Audience::Seat(first), &over);
        if game < games {
            let last = *people.last().unwrap();
            if people.len() > 1 {
                t.json(
                    format!("disconnected seat {last}"),
                    &room.set_connected(last, false),
                );
            }
            for &s in &people {
                let next = json!({"type": "next"});
                t.line(format!("from seat {s}"), next.to_string());
                let request = read(&room, Audience::Seat(s), &next).unwrap();
                let Request::Act(s, action) = request else {
                    panic!("not an action")
                };
                act(t, &mut room, "next", s, action, false);
            }
            if people.len() > 1 {
                t.json(
                    format!("connected seat {last}"),
                    &room.set_connected(last, true),
                );
            }
            states(t, &room);
        }
    }
    let n = room.last_event();
    let (events, complete) = room.events_after(n.saturating_sub(3));
    t.json(
        format!(
            "events after {} (complete: {complete})",
            n.saturating_sub(3)
        ),
        &events,
    );
}

#[test]
fn room_messages_are_byte_for_byte_the_recorded_ones() {
    let mut t = Transcript::default();
    let mut call_rob = Rules::classic();
    call_rob.bidding = Bidding::CallRob;
    play_room(
        &mut t,
        "classic, three people",
        Rules::classic(),
        [None; 3],
        11,
        2,
        true,
    );
    play_room(
        &mut t,
        "laizi, a person and two robots",
        Rules::laizi(),
        [None, Some("greedy"), Some("value")],
        5,
        1,
        false,
    );
    play_room(
        &mut t,
        "tiandi, two people and a robot",
        Rules::tiandi(),
        [None, None, Some("ddzlib")],
        3,
        1,
        false,
    );
    play_room(&mut t, "call and rob", call_rob, [None; 3], 2, 1, true);
    play_room(
        &mut t,
        "botzone, fixed landlord",
        Rules::botzone(),
        [None, Some("greedy"), None],
        9,
        1,
        false,
    );
    t.check("web_room.txt");
}

// --- Rooms over WebSocket ------------------------------------------------------------------

/// Secrets of a room (its id, the seat tokens) and the clock's milliseconds written as
/// placeholders.
struct Normalise(Vec<(String, String)>);

impl Normalise {
    /// From a room's creation reply.
    fn of(room: &Value) -> Normalise {
        let mut secrets = vec![(room["room"].as_str().unwrap().to_string(), "ROOM".into())];
        for (i, seat) in room["seats"].as_array().unwrap().iter().enumerate() {
            if let Some(token) = seat["token"].as_str() {
                secrets.push((token.to_string(), format!("TOKEN{i}")));
            }
        }
        Normalise(secrets)
    }

    fn apply(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (secret, name) in &self.0 {
            text = text.replace(secret.as_str(), name);
        }
        // "clock":{"seat":0,"ms":29998}
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("\"ms\":") {
            out.push_str(&rest[..i + 5]);
            rest = rest[i + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
            out.push_str("MS");
        }
        out.push_str(rest);
        out
    }
}

/// A server on a free loopback port, serving `app` with Nagle's algorithm off so that small
/// messages go at once; its address.
async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    addr.to_string()
}

/// A WebSocket client of a room, with Nagle's algorithm off.
async fn connect(addr: &str, room: &Value) -> Client {
    let url = format!("ws://{addr}/v1/rooms/{}/ws", room["room"].as_str().unwrap());
    let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
    Client { ws }
}

/// The next text message (None when the connection closed), within 10 s.
async fn next_text(c: &mut Client) -> Option<String> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), c.ws.next())
            .await
            .expect("a message within 10 s");
        match frame {
            Some(Ok(Message::Text(t))) => {
                round_trip::<ServerMessage>(t.as_str());
                return Some(t.as_str().to_string());
            }
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// A frame sent, as text.
fn shown(frame: &Message) -> String {
    match frame {
        Message::Text(text) if text.len() > 200 => format!("text of {} bytes", text.len()),
        Message::Text(text) => text.as_str().to_string(),
        Message::Binary(b) => format!("binary {b:?}"),
        other => format!("{other:?}"),
    }
}

/// Calls the app once: the status and the body's text.
async fn call_text(app: &Router, method: &str, uri: &str, body: impl Into<Body>) -> (u16, String) {
    let request = HttpRequest::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.into())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// Creates a room; its creation reply, recorded.
async fn create(t: &mut Transcript, app: &Router, body: Value) -> (Value, Normalise) {
    let (status, text) = call_text(app, "POST", "/v1/rooms", body.to_string()).await;
    assert_eq!(status, 201, "{text}");
    round_trip::<RoomCreated>(&text);
    let room: Value = serde_json::from_str(&text).unwrap();
    let norm = Normalise::of(&room);
    t.line(
        format!("POST /v1/rooms {body}: {status}"),
        norm.apply(&text),
    );
    (room, norm)
}

/// The first seed from 1 whose first bidder under classic rules is seat 0, so that no robot
/// acts before seat 0 joins.
fn seed_with_seat_0_first() -> u64 {
    (1..)
        .find(|&s| Game::new(&Rules::classic(), s).first_bidder() == Seat::ALL[0])
        .unwrap()
}

/// Seat 0's client and a spectator in lockstep: every update seat 0 gets after joining is a
/// broadcast that the spectator gets too.
struct Table {
    me: Client,
    watcher: Client,
    norm: Normalise,
}

impl Table {
    /// Seat 0's next message, recorded, and the spectator's copy when it is an update.
    async fn next(&mut self, t: &mut Transcript) -> Value {
        let text = next_text(&mut self.me).await.expect("a message");
        t.line("to seat 0", self.norm.apply(&text));
        let msg: Value = serde_json::from_str(&text).unwrap();
        if msg["type"] == "update" {
            self.watched(t).await;
        }
        msg
    }

    /// The spectator's next message, recorded.
    async fn watched(&mut self, t: &mut Transcript) {
        let text = next_text(&mut self.watcher).await.expect("a message");
        t.line("to the spectator", self.norm.apply(&text));
    }

    /// Sends a frame from seat 0, recorded.
    async fn send(&mut self, t: &mut Transcript, frame: Message) {
        t.line("from seat 0", shown(&frame));
        self.me.send_raw(frame).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_messages_are_byte_for_byte_the_recorded_ones() {
    let mut t = Transcript::default();
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let seed = seed_with_seat_0_first();
    let body = json!({"seats": ["human", "greedy", "value"], "seed": seed, "turn_seconds": 600, "robot_delay_ms": 0});
    let (room, norm) = create(&mut t, &app, body).await;

    // Before joining: bad first messages, each answered, the connection kept.
    let mut c = connect(&addr, &room).await;
    let token = room["seats"][0]["token"].as_str().unwrap().to_string();
    let long = "f".repeat(90);
    for frame in [
        Message::text("hello"),
        Message::text("[1]"),
        Message::binary(vec![1, 2, 3]),
        Message::text("{}"),
        Message::text(r#"{"type": "bid", "bid": 1}"#),
        Message::text(r#"{"type": 5}"#),
        Message::text(r#"{"type": "join"}"#),
        Message::text(r#"{"type": "join", "token": 5}"#),
        Message::text(r#"{"type": "join", "token": null}"#),
        Message::text(r#"{"type": "join", "token": "x"}"#),
        Message::text(format!(r#"{{"type": "join", "token": "{long}"}}"#)),
        Message::text(format!(r#"{{"type": "join", "token": ["{long}"]}}"#)),
        Message::text(r#"{"type": "watch", "after": "x"}"#),
        Message::text(r#"{"type": "watch", "after": -1}"#),
        Message::text(r#"{"type": "dance", "after": 1.5}"#),
    ] {
        t.line("before joining", shown(&frame));
        c.send_raw(frame).await;
        t.line("answer", next_text(&mut c).await.unwrap());
    }
    // A wrong token: refused, closed.
    c.send(json!({"type": "join", "token": "0123456789abcdef0123456789abcdef"}))
        .await;
    t.line("wrong token", next_text(&mut c).await.unwrap());
    assert_eq!(next_text(&mut c).await, None);

    // A spectator, then seat 0 (its token in capitals).
    let mut watcher = connect(&addr, &room).await;
    watcher.send(json!({"type": "watch"})).await;
    for _ in 0..2 {
        let text = next_text(&mut watcher).await.unwrap();
        t.line("to the spectator", norm.apply(&text));
    }
    let mut me = connect(&addr, &room).await;
    me.send(json!({"type": "join", "token": token.to_uppercase(), "after": 0}))
        .await;
    for _ in 0..2 {
        let text = next_text(&mut me).await.unwrap();
        t.line("to seat 0", norm.apply(&text));
    }
    let mut table = Table { me, watcher, norm };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acted = Value::Null;
    let mut probed_bidding = false;
    let mut probed_playing = false;
    let mut last_n;
    let mut rejoined = false;
    loop {
        let msg = table.next(&mut t).await;
        if msg["type"] != "update" {
            continue;
        }
        last_n = msg["n"].as_u64().unwrap();
        let state = &msg["state"];
        // The second game, at seat 0's turn (no robot acting).
        if state["game"] == 2 && state["turn"] == 0 {
            break;
        }
        if state["phase"] == "over" {
            if rejoined {
                continue;
            }
            rejoined = true;
            // Leave and come back for the last two messages, then the next game.
            let me = connect(&addr, &room).await;
            drop(std::mem::replace(&mut table.me, me));
            table.watched(&mut t).await;
            let join = json!({"type": "join", "token": token, "after": last_n - 2});
            table.me.send(join).await;
            for _ in 0..2 {
                let text = next_text(&mut table.me).await.unwrap();
                t.line("to seat 0", table.norm.apply(&text));
            }
            table
                .send(&mut t, Message::text(r#"{"type": "next"}"#))
                .await;
            continue;
        }
        if state["turn"] != 0 || state["step"] == acted {
            continue;
        }
        acted = state["step"].clone();
        if state["phase"] == "bidding" && !probed_bidding {
            probed_bidding = true;
            for frame in [
                Message::text("hello"),
                Message::text("[1]"),
                Message::binary(vec![1, 2, 3]),
                Message::text(r#"{"type": "dance"}"#),
                Message::text(r#"{"type": "join", "token": "00"}"#),
                Message::text(r#"{"type": "bid"}"#),
                Message::text(r#"{"type": "bid", "bid": 9}"#),
                Message::text(r#"{"type": "play", "move": "ZZ"}"#),
                Message::text(r#"{"type": "play", "move": "3", "ids": [99]}"#),
                Message::text(r#"{"type": "pass", "seat": 1}"#),
                Message::text(r#"{"type": "pass"}"#),
                Message::text(r#"{"type": "pass", "step": 99}"#),
                Message::text(r#"{"type": "next"}"#),
                Message::text(r#"{"type": "hint"}"#),
            ] {
                table.send(&mut t, frame).await;
                table.next(&mut t).await;
            }
        }
        if state["phase"] == "playing" && !probed_playing {
            probed_playing = true;
            for _ in 0..2 {
                table
                    .send(&mut t, Message::text(r#"{"type": "hint"}"#))
                    .await;
                table.next(&mut t).await;
            }
        }
        let action = choose(state, &mut rng, false);
        table.send(&mut t, Message::text(action.to_string())).await;
    }
    // A frame over 64 KiB: refused, closed; the seat is no longer connected.
    table.send(&mut t, Message::text("x".repeat(1 << 17))).await;
    let text = next_text(&mut table.me).await.unwrap();
    t.line("to seat 0", table.norm.apply(&text));
    assert_eq!(next_text(&mut table.me).await, None);
    table.watched(&mut t).await;

    // A room holds 64 spectators.
    let mut full = Vec::new();
    for _ in 1..64 {
        let mut w = connect(&addr, &room).await;
        w.send(json!({"type": "watch", "after": last_n})).await;
        assert!(next_text(&mut w).await.is_some());
        full.push(w);
    }
    let mut w = connect(&addr, &room).await;
    w.send(json!({"type": "watch"})).await;
    t.line("65th connection", next_text(&mut w).await.unwrap());
    assert_eq!(next_text(&mut w).await, None);
    drop(full);

    // Resync: a room with more events than it keeps.
    let (room, norm) = create(
        &mut t,
        &app,
        json!({"seats": ["human", "greedy", "greedy"], "seed": seed, "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    let token = room["seats"][0]["token"].as_str().unwrap().to_string();
    let mut me = connect(&addr, &room).await;
    me.send(json!({"type": "join", "token": token})).await;
    let mut acted = Value::Null;
    loop {
        let text = next_text(&mut me).await.unwrap();
        let msg: Value = serde_json::from_str(&text).unwrap();
        if msg["type"] != "update" {
            continue;
        }
        let state = &msg["state"];
        if state["phase"] == "over" {
            if msg["n"].as_u64().unwrap() > 2100 {
                break;
            }
            me.send(json!({"type": "next"})).await;
        } else if state["turn"] == 0 && state["step"] != acted {
            acted = state["step"].clone();
            me.send(choose(state, &mut rng, false)).await;
        }
    }
    let mut w = connect(&addr, &room).await;
    w.send(json!({"type": "watch", "after": 0})).await;
    t.line("welcome", norm.apply(&next_text(&mut w).await.unwrap()));
    let text = next_text(&mut w).await.unwrap();
    let mut update: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(update.to_string(), text, "the server writes compact JSON");
    let events = update["events"].as_array().unwrap().clone();
    assert_eq!(events.len(), 2000);
    t.line("first event kept", events[0].to_string());
    t.line("last event kept", events[1999].to_string());
    update["events"] = json!(format!("{} events", events.len()));
    t.line("update with resync", norm.apply(&update.to_string()));

    // An idle room closes.
    let mut config = test_config();
    config.idle_expiry = Duration::from_millis(500);
    let app = ddz_server::app(config);
    let addr = serve(app.clone()).await;
    let (room, norm) = create(
        &mut t,
        &app,
        json!({"seats": ["human", "greedy", "greedy"], "seed": seed}),
    )
    .await;
    let token = room["seats"][0]["token"].as_str().unwrap().to_string();
    let mut me = connect(&addr, &room).await;
    me.send(json!({"type": "join", "token": token})).await;
    while let Some(text) = next_text(&mut me).await {
        let msg: Value = serde_json::from_str(&text).unwrap();
        if msg["type"] == "closed" {
            t.line("to seat 0", norm.apply(&text));
        }
    }
    t.check("web_socket.txt");
}

// --- HTTP ----------------------------------------------------------------------------------

/// A finished game's record.
fn finished_record() -> GameRecord {
    let rules = Rules::laizi();
    let mut game = Game::new(&rules, 11);
    while game.phase() != Phase::Over {
        let seat = game.turn();
        if game.phase() == Phase::Bidding {
            let bid = if game.bids().is_empty() { 1 } else { 0 };
            game.bid(seat, bid).unwrap();
        } else {
            let m = game.legal_moves()[0];
            game.play(seat, m).unwrap();
        }
    }
    GameRecord::from_game(&game)
}

#[tokio::test]
async fn http_messages_are_byte_for_byte_the_recorded_ones() {
    let mut t = Transcript::default();
    let mut config = test_config();
    config.max_rooms = 2;
    let app = app(config);
    let (room, norm) = create(&mut t, &app, json!({})).await;
    create(
        &mut t,
        &app,
        json!({"rules": "tiandi", "seats": ["human", "human", "ddzlib"], "turn_seconds": 5, "robot_delay_ms": 10, "seed": 5}),
    )
    .await;
    let record = |t: &mut Transcript, label: String, (status, text): (u16, String)| {
        t.line(format!("{label}: {status}"), norm.apply(&text));
    };
    let health = call_text(&app, "GET", "/v1/health", "").await;
    round_trip::<Health>(&health.1);
    record(&mut t, "GET /v1/health".into(), health);
    record(
        &mut t,
        "POST /v1/rooms".into(),
        call_text(&app, "POST", "/v1/rooms", "").await,
    );
    let ws = format!("/v1/rooms/{}/ws", room["room"].as_str().unwrap());
    record(
        &mut t,
        "GET ws without upgrade".into(),
        call_text(&app, "GET", &ws, "").await,
    );
    let nowhere = "/v1/rooms/0123456789abcdef0123456789abcdef/ws";
    record(
        &mut t,
        format!("GET {nowhere}"),
        call_text(&app, "GET", nowhere, "").await,
    );

    let app = ddz_server::app(test_config());
    let big = format!("{{\"x\": \"{}\"}}", "y".repeat(ddz_server::MAX_BODY));
    for body in [
        "",
        "  \n",
        "{}",
        "null",
        "[]",
        "{",
        "\"x\"",
        r#"{"colour": 1}"#,
        r#"{"rules": null, "seats": null, "turn_seconds": null, "robot_delay_ms": null, "seed": 3}"#,
        r#"{"rules": "poker"}"#,
        r#"{"rules": 3}"#,
        r#"{"rules": "botzone", "seed": 4}"#,
        r#"{"seats": ["human"]}"#,
        r#"{"seats": "human"}"#,
        r#"{"seats": ["human", "alphago", "value"]}"#,
        r#"{"seats": ["human", 5, "value"]}"#,
        r#"{"seats": ["human", "greedy:x=1", "value"]}"#,
        r#"{"seats": ["value", "value", "value"]}"#,
        r#"{"seats": ["human", "human", "human"], "seed": 1}"#,
        r#"{"turn_seconds": 601}"#,
        r#"{"turn_seconds": -1}"#,
        r#"{"turn_seconds": 1.5}"#,
        r#"{"turn_seconds": "30"}"#,
        r#"{"turn_seconds": 0, "seed": 2}"#,
        r#"{"robot_delay_ms": 5001}"#,
        r#"{"robot_delay_ms": -1}"#,
        r#"{"seed": "x"}"#,
        r#"{"seed": -1}"#,
        r#"{"seed": 18446744073709551615}"#,
        r#"{"seed": 18446744073709551616}"#,
        r#"{"seed": 1, "colour": 2, "rules": 3}"#,
        r#"{"rules": 3, "seats": 4}"#,
        &big,
    ] {
        let (status, text) = call_text(&app, "POST", "/v1/rooms", body.to_string()).await;
        let shown = if body.len() > 100 {
            "(1 MiB)".to_string()
        } else {
            body.replace('\n', "\\n")
        };
        if status == 400 {
            round_trip::<ErrorBody>(&text);
        }
        let text = match serde_json::from_str::<Value>(&text) {
            Ok(room) if status == 201 => Normalise::of(&room).apply(&text),
            _ => text,
        };
        t.line(format!("POST /v1/rooms {shown}: {status}"), text);
    }
    for (method, uri, body) in [
        ("GET", "/v1/rooms", String::new()),
        ("GET", "/v1/nothing", String::new()),
        ("DELETE", "/v1/health", String::new()),
        ("POST", "/v1/act?colour=red", String::new()),
        ("POST", "/v1/act?bot=nobody", String::new()),
        ("POST", "/v1/act?seed=x", String::new()),
        ("POST", "/v1/bid", big.clone()),
        ("POST", "/v1/replay", "nope".into()),
        ("POST", "/v1/replay", "{}".into()),
        ("POST", "/v1/replay", big.clone()),
    ] {
        let shown = if body.len() > 100 { "(1 MiB)" } else { &body };
        let (status, text) = call_text(&app, method, uri, body.clone()).await;
        t.line(format!("{method} {uri} {shown}: {status}"), text);
    }
    let (status, text) = call_text(&app, "POST", "/v1/replay", vec![0xff, 0xfe]).await;
    t.line(format!("POST /v1/replay (not UTF-8): {status}"), text);
    let record = finished_record();
    let (status, text) = call_text(&app, "POST", "/v1/replay", record.to_json()).await;
    round_trip::<ReplayReply>(&text);
    t.line(format!("POST /v1/replay (a record): {status}"), text);
    let mut bad = record.clone();
    bad.plays[3].1 = "BR".into();
    let (status, text) = call_text(&app, "POST", "/v1/replay", bad.to_json()).await;
    round_trip::<ReplayFailure>(&text);
    t.line(format!("POST /v1/replay (a bad play): {status}"), text);
    let mut value: Value = serde_json::from_str(&record.to_json()).unwrap();
    value["deal"]["kitty"] = json!("ZZZ");
    let (status, text) = call_text(&app, "POST", "/v1/replay", value.to_string()).await;
    t.line(format!("POST /v1/replay (a bad deal): {status}"), text);
    t.check("web_http.txt");
}
