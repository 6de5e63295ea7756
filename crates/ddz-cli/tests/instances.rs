//! Issue 50: two `ddz serve` instances on one PostgreSQL database (the server that
//! `DDZ_TEST_POSTGRES` names; CI starts Debian's on loopback). Each runs the rooms it
//! created; a client that asks the other is sent to the owner (`moved`); the owner is killed
//! (SIGKILL) in the middle of a game and the other instance takes the room over once its
//! lease has expired, at the state last told, and the game finishes there; restarted, the
//! killed instance does not take the room back (never two owners). Each lists the finished
//! games of both.

use crate::crash::{TestRoom, Told, check_resumed, drive};
use crate::serve::{Server, Socket};

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The instances' lease, in seconds.
const LEASE_SECONDS: u64 = 2;

/// A free loopback port (bound, then let go).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// An instance on `db` at `port`, advertising its own address.
fn instance(db: &str, port: u16) -> Server {
    let addr = format!("127.0.0.1:{port}");
    let advertise = format!("http://{addr}");
    let lease = LEASE_SECONDS.to_string();
    Server::start(&[
        "--addr",
        &addr,
        "--db",
        db,
        "--advertise",
        &advertise,
        "--lease-seconds",
        &lease,
        "--robot-delay-ms",
        "0",
    ])
}

/// What joining seat `token` of `room` at `addr` gets.
enum Joined {
    /// The welcome: the socket, joined.
    Welcome(Socket),
    /// `moved`: the room's WebSocket address on the instance that runs it.
    Moved(String),
    /// No answer (the server is down) or another message.
    Other(Option<Value>),
}

fn join(addr: &str, room: &TestRoom) -> Joined {
    let Some(mut socket) = Socket::connect(addr, &room.id) else {
        return Joined::Other(None);
    };
    if socket
        .try_send(json!({"type": "join", "token": room.token, "after": 0}))
        .is_none()
    {
        return Joined::Other(None);
    }
    match socket.next() {
        Some(m) if m["type"] == "welcome" => Joined::Welcome(socket),
        Some(m) if m["type"] == "moved" => Joined::Moved(m["ws"].as_str().unwrap().to_string()),
        other => Joined::Other(other),
    }
}

/// A new room of one person (seat 0) and two robots on `server`.
fn new_room(server: &Server) -> TestRoom {
    let body =
        json!({"seats": ["human", "greedy", "greedy"], "turn_seconds": 0, "robot_delay_ms": 0});
    let (status, created) = server.request("POST", "/v1/rooms", &body.to_string());
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    TestRoom {
        id: created["room"].as_str().unwrap().to_string(),
        token: created["seats"][0]["token"].as_str().unwrap().to_string(),
        auto: false,
    }
}

/// Plays `room` at `addr` to its game's end; the last state.
fn finish(addr: &str, room: &TestRoom) -> Value {
    let told = Mutex::new(Told::default());
    drive(addr, room, 11, &told, |s| s["phase"] == "over")
        .unwrap_or_else(|| panic!("room {}: the game did not finish at {addr}", room.id))
}

/// The rooms (by label) and game numbers of the finished games `server` lists.
fn listed(server: &Server) -> Vec<(String, u64)> {
    let (status, page) = server.request("GET", "/v1/games?limit=100", "");
    assert_eq!(status, 200, "{page}");
    let page: Value = serde_json::from_str(&page).unwrap();
    let mut games: Vec<(String, u64)> = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["room"].as_str().unwrap().into(),
                g["game"].as_u64().unwrap(),
            )
        })
        .collect();
    games.sort();
    games
}

#[cfg(unix)]
#[test]
fn a_killed_owners_room_resumes_on_the_other_instance() {
    let name = format!("ddz_instances_{}", std::process::id());
    let Some(db) = ddz_server::db::test_postgres(&name).unwrap() else {
        return;
    };
    let (port_a, port_b) = (free_port(), free_port());
    let mut a = instance(&db, port_a);
    let b = instance(&db, port_b);

    // Each instance runs the rooms it created; asked for the other's, it sends the client
    // there.
    let (room_a, room_b) = (new_room(&a), new_room(&b));
    let ws_of =
        |port: u16, room: &TestRoom| format!("ws://127.0.0.1:{port}/v1/rooms/{}/ws", room.id);
    match join(&b.addr, &room_a) {
        Joined::Moved(ws) => assert_eq!(ws, ws_of(port_a, &room_a)),
        _ => panic!("b did not send room a's client to a"),
    }
    match join(&a.addr, &room_b) {
        Joined::Moved(ws) => assert_eq!(ws, ws_of(port_b, &room_b)),
        _ => panic!("a did not send room b's client to b"),
    }
    finish(&a.addr, &room_a);
    finish(&b.addr, &room_b);

    // A game in progress on a, its owner killed while the person plays.
    let room = new_room(&a);
    let told = std::sync::Arc::new(Mutex::new(Told::default()));
    let driver = {
        let (addr, room, told) = (a.addr.clone(), room.clone(), told.clone());
        std::thread::spawn(move || drive(&addr, &room, 5, &told, |_| false))
    };
    std::thread::sleep(Duration::from_millis(300));
    a.kill();
    let killed = Instant::now();
    assert!(
        driver.join().unwrap().is_none(),
        "the driver outlived the kill"
    );
    let last = told
        .lock()
        .unwrap()
        .state
        .clone()
        .expect("a state was told");

    // b takes the room over once a's lease has expired: until then it sends the client to a.
    let mut socket = loop {
        match join(&b.addr, &room) {
            Joined::Welcome(socket) => break socket,
            Joined::Moved(ws) => assert_eq!(ws, ws_of(port_a, &room)),
            Joined::Other(m) => panic!("b answered {m:?}"),
        }
        assert!(
            killed.elapsed() < Duration::from_secs(LEASE_SECONDS * 3 + 5),
            "b did not take the room over"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let taken_over = killed.elapsed();
    let update = socket.next().expect("the state at b");
    assert_eq!(update["type"], "update", "{update}");
    let mut ended = Vec::new();
    check_resumed(&room, &last, &update["state"], &mut ended);
    drop(socket);
    let over = finish(&b.addr, &room);
    assert_eq!(over["phase"], "over");

    // Restarted, a leaves the room to b and sends its client there.
    let a = instance(&db, port_a);
    match join(&a.addr, &room) {
        Joined::Moved(ws) => assert_eq!(ws, ws_of(port_b, &room)),
        Joined::Welcome(_) => panic!("the restarted a runs b's room too"),
        Joined::Other(m) => panic!("a answered {m:?}"),
    }

    // Both list the three finished games, and the records replay.
    let expected: Vec<(String, u64)> = {
        let mut games: Vec<(String, u64)> = [&room_a, &room_b, &room]
            .iter()
            .map(|r| (ddz_server::seeds::room_label(&r.id), 1))
            .collect();
        games.sort();
        games
    };
    assert_eq!(listed(&a), expected);
    assert_eq!(listed(&b), expected);
    let (status, page) = a.request("GET", "/v1/games?limit=100", "");
    assert_eq!(status, 200);
    for game in serde_json::from_str::<Value>(&page).unwrap()["games"]
        .as_array()
        .unwrap()
    {
        let (status, body) = b.request("GET", &format!("/v1/games/{}", game["id"]), "");
        assert_eq!(status, 200, "{body}");
        let record = serde_json::from_str::<Value>(&body).unwrap()["record"].clone();
        let (status, replay) = a.request("POST", "/v1/replay", &record.to_string());
        assert_eq!(status, 200, "{replay}");
    }
    eprintln!(
        "the killed owner's room was taken over {taken_over:?} after the kill (lease {LEASE_SECONDS} s)"
    );
}
