//! Issue 50: `ddz serve` killed with SIGKILL at random moments of live games loses nothing any
//! client was told. Two rooms play while the server is killed again and again: one with a
//! person's seat driven by the test against two robots, one whose person is on auto-play
//! (托管) against two robots. After every restart each seat finds its game at the state it was
//! last told or further on (the same history so far, the same hand at the same step, auto-play
//! still on), and at the end every finished game is in the database once, with a record that
//! replays.

use crate::serve::{Server, Socket};

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How many times the server is killed.
const KILLS: usize = 50;

/// A small deterministic generator (xorshift64*), so that a failure can be run again.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
    }
}

/// A room of the test: its id, seat 0's token, and whether seat 0 plays on auto-play.
#[derive(Clone)]
pub(crate) struct TestRoom {
    pub(crate) id: String,
    pub(crate) token: String,
    pub(crate) auto: bool,
}

/// What a driver of a room was told last: the latest state, and the states after which
/// another game was dealt (each game's last state told).
#[derive(Default)]
pub(crate) struct Told {
    pub(crate) state: Option<Value>,
    pub(crate) ended: Vec<Value>,
}

/// Plays seat 0 of `room` until the connection breaks (the server was killed) or `stop`
/// holds for a state; every state told goes into `told`. The person's seat plays a legal
/// action picked by `seed`, or, on auto-play, turns auto-play on whenever it is off; either
/// sends `next` at game over.
pub(crate) fn drive(
    addr: &str,
    room: &TestRoom,
    seed: u64,
    told: &Mutex<Told>,
    stop: impl Fn(&Value) -> bool,
) -> Option<Value> {
    let mut socket = Socket::try_join(addr, &room.id, &room.token)?;
    let mut rng = Rng(seed | 1);
    let mut answered = None;
    loop {
        let message = socket.next()?;
        if message["type"] == "error" {
            panic!("room {}: refused: {message}", room.id);
        }
        if message["type"] != "update" {
            continue;
        }
        let state = message["state"].clone();
        {
            let mut told = told.lock().unwrap();
            if let Some(last) = &told.state
                && last["game"] != state["game"]
            {
                let last = last.clone();
                told.ended.push(last);
            }
            told.state = Some(state.clone());
        }
        if stop(&state) {
            return Some(state);
        }
        let key = (state["game"].clone(), state["step"].clone());
        if answered.as_ref() == Some(&key) {
            continue;
        }
        let step = state["step"].clone();
        let action = if state["phase"] == "over" {
            (state["seats"][0]["ready"] != true).then(|| json!({"type": "next", "step": step}))
        } else if room.auto {
            (state["seats"][0]["auto"] != true).then(|| json!({"type": "auto", "auto": true}))
        } else if let Some(bids) = state["legal"]["bids"].as_array() {
            let bid = &bids[rng.below(bids.len() as u64) as usize];
            Some(json!({"type": "bid", "bid": bid, "step": step}))
        } else if let Some(moves) = state["legal"]["moves"].as_array() {
            let play = &moves[rng.below(moves.len() as u64) as usize];
            Some(json!({"type": "play", "move": play, "step": step}))
        } else {
            None
        };
        if let Some(action) = action {
            socket.try_send(action)?;
            answered = Some(key);
        }
    }
}

/// The plays of a state's history as `[seat, move]` pairs, as a record lists them.
pub(crate) fn plays(state: &Value) -> Vec<Value> {
    state["history"]
        .as_array()
        .map(|h| h.iter().map(|p| json!([p["seat"], p["move"]])).collect())
        .unwrap_or_default()
}

/// Checks the state a seat finds after a restart against the one it was told last: the same
/// game further on, or a later game (the told one then checked against its record at the end,
/// in `ended`).
pub(crate) fn check_resumed(room: &TestRoom, told: &Value, now: &Value, ended: &mut Vec<Value>) {
    let (told_game, game) = (told["game"].as_u64(), now["game"].as_u64());
    assert!(game >= told_game, "room {}: game went back", room.id);
    if game > told_game {
        ended.push(told.clone());
        return;
    }
    let (told_step, step) = (told["step"].as_u64(), now["step"].as_u64());
    assert!(
        step >= told_step,
        "room {}: step {step:?} after the restart, {told_step:?} told before",
        room.id
    );
    let (before, after) = (plays(told), plays(now));
    assert!(
        after.starts_with(&before),
        "room {}: the plays told {before:?} are not the start of {after:?}",
        room.id
    );
    if step == told_step {
        for field in ["hand", "legal", "bids", "landlord", "phase", "totals"] {
            assert_eq!(now[field], told[field], "room {}: {field}", room.id);
        }
        if told["seats"][0]["auto"] == true {
            assert_eq!(now["seats"][0]["auto"], true, "room {}: auto-play", room.id);
        }
    }
}

#[cfg(unix)]
#[test]
fn sigkill_at_random_moments_loses_no_action_told() {
    let dir = std::env::temp_dir().join(format!("ddz-serve-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("games.sqlite3");
    let db = db.to_str().unwrap();
    let args = ["--db", db];
    let mut server = Server::start(&args);
    let mut rooms = Vec::new();
    for (seats, auto) in [
        (json!(["human", "greedy", "ddzlib"]), false),
        (json!(["human", "value", "greedy"]), true),
    ] {
        let body = json!({"seats": seats, "turn_seconds": 0, "robot_delay_ms": 0});
        let (status, created) = server.request("POST", "/v1/rooms", &body.to_string());
        assert_eq!(status, 201, "{created}");
        let created: Value = serde_json::from_str(&created).unwrap();
        rooms.push(TestRoom {
            id: created["room"].as_str().unwrap().to_string(),
            token: created["seats"][0]["token"].as_str().unwrap().to_string(),
            auto,
        });
    }
    let mut rng = Rng(0x5eed_2026_1207);
    let mut ended: Vec<Vec<Value>> = vec![Vec::new(); rooms.len()];
    let mut last: Vec<Option<Value>> = vec![None; rooms.len()];
    let started = Instant::now();
    for kill in 0..KILLS {
        let told: Vec<Arc<Mutex<Told>>> = rooms.iter().map(|_| Arc::default()).collect();
        let drivers: Vec<_> = rooms
            .iter()
            .zip(&told)
            .map(|(room, told)| {
                let (addr, room, told) = (server.addr.clone(), room.clone(), told.clone());
                let seed = rng.below(u64::MAX);
                std::thread::spawn(move || drive(&addr, &room, seed, &told, |_| false))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20 + rng.below(400)));
        server.kill();
        for driver in drivers {
            assert!(
                driver.join().unwrap().is_none(),
                "a driver outlived the kill"
            );
        }
        for (i, told) in told.iter().enumerate() {
            let mut told = told.lock().unwrap();
            ended[i].append(&mut told.ended);
            if let Some(state) = told.state.take() {
                last[i] = Some(state);
            }
        }
        server = Server::start(&args);
        // Each seat's first state after the restart, against the last told before it.
        for (i, room) in rooms.iter().enumerate() {
            let Some(before) = &last[i] else { continue };
            let update = Socket::try_join(&server.addr, &room.id, &room.token)
                .and_then(|mut socket| socket.next())
                .unwrap_or_else(|| {
                    panic!(
                        "room {}: no update after restart {kill}: {}",
                        room.id,
                        server.report()
                    )
                });
            assert_eq!(update["type"], "update", "{update}");
            check_resumed(room, before, &update["state"], &mut ended[i]);
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "{kill} kills took {:?}",
            started.elapsed()
        );
    }

    // No more kills: each room's game goes on to its end.
    for (i, room) in rooms.iter().enumerate() {
        let told = Mutex::new(Told::default());
        let over = drive(&server.addr, room, 7, &told, |s| s["phase"] == "over")
            .unwrap_or_else(|| panic!("room {}: the game did not finish", room.id));
        if let Some(before) = &last[i] {
            check_resumed(room, before, &over, &mut ended[i]);
        }
        ended[i].append(&mut told.lock().unwrap().ended);
        ended[i].push(over);
    }

    // Every finished game is in the database once, replays, and its plays start with those
    // told before the game moved on.
    let mut stored = Vec::new();
    let mut before = String::new();
    loop {
        let (status, page) = server.request("GET", &format!("/v1/games?limit=100{before}"), "");
        assert_eq!(status, 200, "{page}");
        let page: Value = serde_json::from_str(&page).unwrap();
        stored.extend(page["games"].as_array().unwrap().iter().cloned());
        match page["next"].as_i64() {
            Some(next) => before = format!("&before={next}"),
            None => break,
        }
    }
    for (i, room) in rooms.iter().enumerate() {
        let label = ddz_server::seeds::room_label(&room.id);
        let mut numbers: Vec<u64> = stored
            .iter()
            .filter(|g| g["room"] == label.as_str())
            .map(|g| g["game"].as_u64().unwrap())
            .collect();
        numbers.sort_unstable();
        let count = numbers.len();
        numbers.dedup();
        assert_eq!(numbers.len(), count, "room {}: a game saved twice", room.id);
        assert!(count >= 1, "room {}: no finished game", room.id);
        for told in &ended[i] {
            let number = told["game"].as_u64().unwrap();
            let game = stored
                .iter()
                .find(|g| g["room"] == label.as_str() && g["game"] == number)
                .unwrap_or_else(|| panic!("room {}: game {number} is not saved", room.id));
            let (status, body) = server.request("GET", &format!("/v1/games/{}", game["id"]), "");
            assert_eq!(status, 200, "{body}");
            let record = serde_json::from_str::<Value>(&body).unwrap()["record"].clone();
            let recorded: Vec<Value> = record["plays"].as_array().unwrap().clone();
            assert!(
                recorded.starts_with(&plays(told)),
                "room {}: game {number}'s record does not start with the plays told",
                room.id
            );
        }
    }
    for game in &stored {
        let (status, body) = server.request("GET", &format!("/v1/games/{}", game["id"]), "");
        assert_eq!(status, 200, "{body}");
        let record = serde_json::from_str::<Value>(&body).unwrap()["record"].clone();
        let (status, replay) = server.request("POST", "/v1/replay", &record.to_string());
        assert_eq!(status, 200, "game {}: {replay}", game["id"]);
    }
    eprintln!(
        "{KILLS} kills in {:?}; {} games finished and replayed",
        started.elapsed(),
        stored.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
