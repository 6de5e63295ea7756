//! Rooms across a restart (issue 20, deliverables 7 and 8): at shutdown every room is saved
//! in the database with its seats' tokens as hashes only; the next server on the same
//! database opens it again, the tokens still join (a wrong one does not), every seat finds the
//! game at the step it had reached, and the room goes on to the next game with its totals. A
//! saved room that does not replay is dropped with the reason; a database of schema 1 is
//! migrated.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::{Client, test_config, token};
use ddz_core::Rules;
use ddz_game::{BySeat, Seat};
use ddz_server::db::{Database, LeasedWrite, PlayerId, RoomWrite};
use ddz_server::room::{Room, RoomSettings};
use ddz_server::seeds::token_hash;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A fresh directory for one test's database.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ddz-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A server on the database at `path`, stopped by the sender.
async fn start(
    path: &Path,
) -> (
    String,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let mut config = test_config();
    config.database = Some(Arc::new(Database::open(path).unwrap()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ddz_server::serve_until(listener, config, async {
        let _ = stopped.await;
    }));
    (addr, stop, server)
}

/// One HTTP/1.1 request over TCP: the status and the body.
async fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(text.as_bytes()).await.unwrap();
    let mut reply = String::new();
    tcp.read_to_string(&mut reply).await.unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The state of each client's next update.
async fn states(clients: &mut [&mut Client]) -> Vec<Value> {
    let mut states = Vec::new();
    for c in clients.iter_mut() {
        states.push(c.next_of("update").await.expect("an update")["state"].clone());
    }
    states
}

/// Acts for each joined seat whose turn it is (its first legal bid or move, `next` after
/// game over) from their `states`, reading the updates of every client, until `done` holds
/// for the state of `clients[0]` (and every client has that step); the state of every
/// client then.
async fn play_until(
    clients: &mut [&mut Client],
    mut states: Vec<Value>,
    done: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let step = |s: &Value| s["step"].as_u64().unwrap();
    let mut answered = None;
    loop {
        // Every client reads until all have the newest step.
        let newest = states.iter().map(step).max().unwrap();
        for (i, c) in clients.iter_mut().enumerate() {
            while step(&states[i]) < newest {
                states[i] = c.next_of("update").await.expect("an update")["state"].clone();
            }
        }
        if done(&states[0]) {
            return states;
        }
        if answered != Some(newest) {
            for (c, state) in clients.iter_mut().zip(&states) {
                let legal = &state["legal"];
                let me = state["you"].as_u64().unwrap() as usize;
                let action = if state["phase"] == "over" {
                    (state["seats"][me]["ready"] == false)
                        .then(|| json!({"type": "next", "step": newest}))
                } else if let Some(bids) = legal["bids"].as_array() {
                    Some(json!({"type": "bid", "bid": bids[0], "step": newest}))
                } else {
                    legal["moves"]
                        .as_array()
                        .map(|m| json!({"type": "play", "move": m[0], "step": newest}))
                };
                if let Some(action) = action {
                    c.send(action).await;
                }
            }
            answered = Some(newest);
        }
        states[0] = clients[0].next_of("update").await.expect("an update")["state"].clone();
    }
}

#[tokio::test]
async fn a_room_resumes_after_a_restart_with_its_tokens() {
    let dir = temp_dir("tokens");
    let path = dir.join("games.sqlite3");
    let (addr, stop, server) = start(&path).await;
    let body = json!({"seats": ["human", "human", "greedy"], "seed": 3, "turn_seconds": 0});
    let (status, room) = request(&addr, "POST", "/v1/rooms", &body.to_string()).await;
    assert_eq!(status, 201, "{room}");
    let (mut seat0, _) = Client::join(&addr, &room, 0, 0).await;
    let (mut seat1, _) = Client::join(&addr, &room, 1, 0).await;
    // Into the play: the bidding and three plays, up to a person's turn (the robot would
    // act at once).
    let first = states(&mut [&mut seat0, &mut seat1]).await;
    let before = play_until(&mut [&mut seat0, &mut seat1], first, |s| {
        s["history"].as_array().is_some_and(|h| h.len() >= 3) && s["turn"] != 2
    })
    .await;
    stop.send(()).unwrap();
    for c in [&mut seat0, &mut seat1] {
        let closed = c.next_of("closed").await.expect("closed");
        assert_eq!(closed["reason"], "server shutting down");
    }
    server.await.unwrap().unwrap();

    // Saved with the tokens' hashes, never the tokens.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (hashes, step): (String, i64) = conn
        .query_row("SELECT token_hashes, step FROM saved_rooms", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(step, before[0]["step"].as_i64().unwrap());
    let hashes: Value = serde_json::from_str(&hashes).unwrap();
    assert_eq!(
        hashes,
        json!([
            token_hash(&token(&room, 0)),
            token_hash(&token(&room, 1)),
            null
        ])
    );
    let all: String = conn
        .query_row(
            "SELECT players || token_hashes || record || sitting FROM saved_rooms",
            [],
            |r| r.get(0),
        )
        .unwrap();
    for seat in 0..2 {
        assert!(!all.contains(&token(&room, seat)), "a token saved as such");
    }
    drop(conn);

    // The next server: the room is back, a wrong token refused.
    let (addr, stop, server) = start(&path).await;
    let mut wrong = Client::connect(&addr, &room).await;
    wrong
        .send(json!({"type": "join", "token": "0123456789abcdef0123456789abcdef"}))
        .await;
    let refused = wrong.next().await.expect("an error");
    assert_eq!(
        refused["error"]["message"],
        "\"token\": wrong token: no seat of this room has it"
    );
    let (mut seat0, _) = Client::join(&addr, &room, 0, 0).await;
    let (mut seat1, welcome) = Client::join(&addr, &room, 1, 0).await;
    assert_eq!(welcome["seat"], 1);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let left: i64 = conn
        .query_row("SELECT COUNT(*) FROM saved_rooms", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 1, "an open room's row stays in the database");
    let mut watcher = Client::connect(&addr, &room).await;
    watcher.send(json!({"type": "watch"})).await;
    let watched = watcher.next_of("update").await.expect("the state");
    assert_eq!(watched["state"]["step"], before[0]["step"]);
    assert_eq!(watched["state"]["history"], before[0]["history"]);
    // Each seat's own view is as it was (its hand, the legal actions of the seat to act).
    let (after, next) = {
        let states = states(&mut [&mut seat0, &mut seat1]).await;
        for (a, b) in states.iter().zip(&before) {
            for field in [
                "game", "step", "hand", "history", "legal", "turn", "landlord",
            ] {
                assert_eq!(a[field], b[field], "{field}");
            }
        }
        // On to the end, and into the next game: the totals carry over.
        let clients = &mut [&mut seat0, &mut seat1];
        let over = play_until(clients, states, |s| s["phase"] == "over").await;
        let next = play_until(clients, over.clone(), |s| s["game"] == 2).await;
        (over, next)
    };
    assert_eq!(next[0]["totals"], after[0]["totals"]);
    assert_eq!(after[0]["totals"], after[0]["result"]["scores"]);
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A room of two robots and one person after a few robot actions, saved under `id`.
pub(crate) fn saved_room(id: &str) -> ddz_server::db::SavedRoom {
    let greedy = || Some("greedy".parse().unwrap());
    let settings = RoomSettings {
        rules: Rules::classic(),
        robots: BySeat([greedy(), None, greedy()]),
        seed: None,
        hint_bot: "greedy".parse().unwrap(),
    };
    let mut room = Room::new(settings, |_| "f".repeat(32));
    room.claim_identity(Seat::ALL[1], PlayerId::parse(&"a".repeat(32)).unwrap());
    for _ in 0..6 {
        let job = room
            .robot_job()
            .unwrap_or_else(|| room.auto_job(Seat::ALL[1]));
        let (seat, auto) = (job.seat, job.auto);
        let action = job.run();
        room.act(seat, action, auto).unwrap();
    }
    room.save(id, std::time::Duration::ZERO, std::time::Duration::ZERO)
}

#[tokio::test]
async fn a_saved_room_that_does_not_replay_is_dropped() {
    let good = saved_room("good");
    let resumed = Room::resume(&good).unwrap();
    assert_eq!(
        resumed.save("good", Default::default(), Default::default()),
        good
    );
    assert_eq!(resumed.seat_of_token(&"f".repeat(32)), Some(Seat::ALL[1]));
    assert_eq!(
        resumed.identity(Seat::ALL[1]).map(PlayerId::as_str),
        Some("a".repeat(32).as_str()),
        "the browser identity is resumed"
    );
    assert_eq!(
        resumed.token(Seat::ALL[1]),
        None,
        "a resumed room keeps no token"
    );

    let mut bad_action = saved_room("bad-action");
    bad_action.sitting["actions"][0]["seat"] =
        json!((bad_action.sitting["actions"][0]["seat"].as_u64().unwrap() + 1) % 3);
    let e = Room::resume(&bad_action).err().unwrap();
    assert!(e.starts_with("sitting: action 1: "), "{e}");
    let mut bad_record = saved_room("bad-record");
    bad_record.record["seed"] = json!(1);
    let e = Room::resume(&bad_record).err().unwrap();
    assert_eq!(e, "record: the saved record is not the replayed game's");
    let mut bad_seat = saved_room("bad-seat");
    bad_seat.token_hashes[1] = None;
    let e = Room::resume(&bad_seat).err().unwrap();
    assert_eq!(
        e,
        "seat 1: a person's seat without a token hash (64 hex digits)"
    );
    let mut bad_identity = saved_room("bad-identity");
    bad_identity.identities[0] = Some("a".repeat(32));
    let e = Room::resume(&bad_identity).err().unwrap();
    assert_eq!(
        e,
        format!(
            "seat 0: {:?} is not a person's browser identity (32 hex digits)",
            "a".repeat(32)
        )
    );

    let dir = temp_dir("dropped");
    let path = dir.join("games.sqlite3");
    Database::open(&path)
        .unwrap()
        .save_rooms(&[good, bad_action, bad_record, bad_seat])
        .unwrap();
    let (addr, stop, server) = start(&path).await;
    for (id, status) in [
        ("good", 101),
        ("bad-action", 404),
        ("bad-record", 404),
        ("bad-seat", 404),
    ] {
        let (got, body) = request(&addr, "GET", &format!("/v1/rooms/{id}/ws"), "").await;
        // Without the upgrade headers an open room answers 400, a missing one 404.
        let want = if status == 101 { 400 } else { 404 };
        assert_eq!(got, want, "{id}: {body}");
    }
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_database_of_schema_1_is_migrated() {
    let dir = temp_dir("migrate");
    let path = dir.join("games.sqlite3");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL, number \
         INTEGER NOT NULL, finished_at INTEGER NOT NULL, rules TEXT NOT NULL, seed TEXT NOT \
         NULL, winner TEXT NOT NULL, scores TEXT NOT NULL, players TEXT NOT NULL, record TEXT \
         NOT NULL);
         CREATE INDEX games_room ON games (room, number);
         CREATE TABLE rooms (id TEXT PRIMARY KEY, players TEXT NOT NULL, games INTEGER NOT \
         NULL, totals TEXT NOT NULL, updated_at INTEGER NOT NULL);
         INSERT INTO games (room, number, finished_at, rules, seed, winner, scores, players, \
         record) VALUES ('r', 1, 0, 'classic', '7', 'landlord', '[2,-1,-1]', \
         '[\"human\",\"greedy\",\"greedy\"]', '{}');
         PRAGMA user_version = 1;",
    )
    .unwrap();
    drop(conn);
    let db = Database::open(&path).unwrap();
    assert_eq!(db.version().unwrap(), 5);
    assert_eq!(db.games(None, 10).unwrap().games.len(), 1);
    assert_eq!(db.open_rooms().unwrap(), []);
    let saved = saved_room("r");
    db.save_rooms(std::slice::from_ref(&saved)).unwrap();
    assert_eq!(db.open_rooms().unwrap(), std::slice::from_ref(&saved));
    assert_eq!(
        db.open_rooms().unwrap(),
        [saved],
        "a room's row stays until it closes"
    );
    let epoch = db.claim("r", false).unwrap().expect("nobody holds r");
    let close = LeasedWrite {
        epoch,
        write: RoomWrite::Close("r".into()),
    };
    db.commit([&close]).unwrap();
    assert_eq!(db.open_rooms().unwrap(), [], "closed");
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shutdown whose rooms cannot be saved ends in an error (issue 50: the server said "2
/// rooms in progress not saved" and exited 0). Here another process holds the database
/// locked past the writer's 5 s wait.
#[tokio::test]
async fn rooms_that_cannot_be_saved_make_the_shutdown_an_error() {
    let dir = temp_dir("locked");
    let path = dir.join("games.sqlite3");
    let (addr, stop, server) = start(&path).await;
    let (status, room) = request(
        &addr,
        "POST",
        "/v1/rooms",
        r#"{"seats": ["human", "greedy", "greedy"]}"#,
    )
    .await;
    assert_eq!(status, 201, "{room}");
    let lock = rusqlite::Connection::open(&path).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    stop.send(()).unwrap();
    let e = server.await.unwrap().unwrap_err().to_string();
    assert!(e.starts_with("1 rooms in progress not saved: "), "{e}");
    lock.execute_batch("ROLLBACK").unwrap();
    drop(lock);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 50, write-ahead: an action the database cannot take (here it is locked by another
/// program past the writer's 5 s wait) is not applied and nobody hears of it: the seat gets
/// the state again (`resync`, the same step) and `not_saved`; once the database is free the
/// same action is played, and the room's row with its log holds the step told.
#[tokio::test]
async fn an_action_that_cannot_be_committed_is_refused_and_not_told() {
    let dir = temp_dir("not-saved");
    let path = dir.join("games.sqlite3");
    let (addr, stop, server) = start(&path).await;
    let body = json!({"seats": ["human", "greedy", "greedy"], "seed": 5, "turn_seconds": 0});
    let (status, room) = request(&addr, "POST", "/v1/rooms", &body.to_string()).await;
    assert_eq!(status, 201, "{room}");
    let (mut seat0, _) = Client::join(&addr, &room, 0, 0).await;
    let first = states(&mut [&mut seat0]).await;
    let mine = |s: &Value| {
        s["turn"] == 0 && (s["legal"]["bids"].is_array() || s["legal"]["moves"].is_array())
    };
    let before = play_until(&mut [&mut seat0], first, mine).await.remove(0);
    let step = before["step"].as_u64().unwrap();
    let action = match before["legal"]["bids"].as_array() {
        Some(bids) => json!({"type": "bid", "bid": bids[0], "step": step}),
        None => json!({"type": "play", "move": before["legal"]["moves"][0], "step": step}),
    };

    let lock = rusqlite::Connection::open(&path).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    seat0.send(action.clone()).await;
    let again = seat0.next().await.expect("the state again");
    assert_eq!(again["type"], "update", "{again}");
    assert_eq!(again["resync"], true);
    assert_eq!(again["events"], json!([]));
    assert_eq!(again["state"]["step"], step, "the action was not applied");
    assert_eq!(again["state"]["hand"], before["hand"]);
    let refused = seat0.next().await.expect("the refusal");
    assert_eq!(refused["error"]["code"], "not_saved", "{refused}");
    lock.execute_batch("ROLLBACK").unwrap();
    drop(lock);

    seat0.send(action).await;
    let played = seat0.next_of("update").await.expect("the action's update");
    assert!(played["state"]["step"].as_u64().unwrap() > step, "{played}");
    assert_ne!(played["resync"], true);
    // The room's row with its log holds the step told.
    let rooms = Database::open(&path).unwrap().open_rooms().unwrap();
    assert_eq!(rooms.len(), 1);
    assert!(rooms[0].step >= played["state"]["step"].as_u64().unwrap());
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 50: a room's row and the log of its changes since (each action's entry, as the room
/// appends it before telling anyone) resume the very room: the same saved state, the record
/// rebuilt from the sitting, auto-play and readiness as the last entry left them.
#[test]
fn a_row_and_its_log_resume_the_same_room() {
    let greedy = || Some("greedy".parse().unwrap());
    let settings = RoomSettings {
        rules: Rules::classic(),
        robots: BySeat([greedy(), None, greedy()]),
        seed: Some(11),
        hint_bot: "greedy".parse().unwrap(),
    };
    let person = Seat::ALL[1];
    let mut room = Room::new(settings, |_| "f".repeat(32));
    let zero = std::time::Duration::ZERO;
    let mut saved = room.save("r", zero, zero);
    let auto = room.set_auto(person, true);
    assert_eq!(auto.len(), 1);
    saved.apply(&room.log_entry(false));
    let mut entries = 1;
    while !room.is_over() {
        let job = room.robot_job().expect("robots and auto-play act");
        let (seat, auto) = (job.seat, job.auto);
        let action = job.run();
        room.act(seat, action, auto).unwrap();
        saved.apply(&room.log_entry(true));
        entries += 1;
        if entries % 7 == 0 {
            let resumed = Room::resume(&saved).unwrap();
            assert_eq!(resumed.save("r", zero, zero), room.save("r", zero, zero));
            assert!(resumed.is_auto(person));
        }
    }
    assert!(saved.record.is_null(), "the record is rebuilt, not kept");
    let resumed = Room::resume(&saved).unwrap();
    assert_eq!(resumed.save("r", zero, zero), room.save("r", zero, zero));
    assert!(resumed.is_over());
}
