//! Game rooms over WebSocket (ddz-web/1): 200 whole games with robot seats, hostile frames,
//! reconnecting, spectators, the turn timer and idle rooms.

use crate::common;

use std::time::Duration;

use common::{Client, call, create_room, serve, test_config, token};
use ddz_game::GameRecord;
use ddz_server::app;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Which decision a state asks for: the room's step.
fn step_key(state: &Value) -> String {
    state["step"].to_string()
}

/// What a person's client does with a state: the action to send on its turn, once per
/// decision (several updates may show the same one).
fn choose(state: &Value, rng: &mut ChaCha8Rng, acted: &mut String) -> Option<Value> {
    if state["turn"] != state["you"] || state["phase"] == "over" || *acted == step_key(state) {
        return None;
    }
    *acted = step_key(state);
    let legal = &state["legal"];
    let step = &state["step"];
    if let Some(bids) = legal["bids"].as_array() {
        let bid = &bids[rng.random_range(0..bids.len())];
        return Some(json!({"type": "bid", "bid": bid, "step": step}));
    }
    let moves = legal["moves"].as_array()?;
    let m = &moves[rng.random_range(0..moves.len())];
    if m == "pass" {
        return Some(json!({"type": "pass", "step": step}));
    }
    // Send the physical cards too: the lowest ids of each rank in the hand.
    let text = m.as_str().unwrap();
    let cards = text.split(['=', ':']).next().unwrap();
    let mut hand: Vec<u64> = state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    hand.sort_unstable();
    let mut ids = Vec::new();
    for letter in cards.chars() {
        let rank = "3456789TJQKA2BR".find(letter).unwrap() as u64;
        let pos = hand
            .iter()
            .position(|&id| (if id >= 52 { id - 39 } else { id / 4 }) == rank)
            .unwrap();
        ids.push(hand.remove(pos));
    }
    Some(json!({"type": "play", "move": text, "ids": ids, "step": step}))
}

/// Plays `games` games in one room as seat `seat`, checking each finished game's record;
/// returns the games played.
async fn play_games(addr: &str, room: &Value, seat: usize, games: u32, seed: u64) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut c, welcome) = Client::join(addr, room, seat, 0).await;
    assert_eq!(welcome["seat"], seat);
    assert_eq!(welcome["protocol"], "ddz-web/1");
    let mut done = 0;
    let mut last_n = 0;
    let mut over_seen_for = 0;
    let mut acted = String::new();
    while let Some(msg) = c.next().await {
        match msg["type"].as_str() {
            Some("update") => {}
            Some("error") => panic!("refused: {msg}"),
            _ => continue,
        }
        let n = msg["n"].as_u64().unwrap();
        assert!(
            n >= last_n,
            "message numbers never go back: {n} after {last_n}"
        );
        last_n = n;
        let state = &msg["state"];
        assert_eq!(state["you"], seat);
        if state["phase"] == "over" {
            let game = state["game"].as_u64().unwrap();
            if over_seen_for == game {
                continue;
            }
            over_seen_for = game;
            let record: GameRecord = serde_json::from_value(state["record"].clone()).unwrap();
            let replayed = record.replay().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                serde_json::to_value(replayed.result()).unwrap(),
                state["result"]
            );
            assert_eq!(state["hands"].as_array().unwrap().len(), 3);
            done += 1;
            if done == games {
                return done;
            }
            c.send(json!({"type": "next"})).await;
        } else if let Some(action) = choose(state, &mut rng, &mut acted) {
            c.send(action).await;
        }
    }
    panic!("the connection closed after {done} games");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_games_with_robot_seats() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let robots = ["greedy", "ddzlib", "value"];
    let profiles = ["classic", "laizi", "classic", "tiandi", "botzone"];
    let mut tasks = Vec::new();
    for i in 0..20usize {
        let seats = json!(["human", robots[i % 3], robots[(i + 1) % 3]]);
        let room = create_room(&app, json!({"seats": seats, "rules": profiles[i % 5], "seed": i, "turn_seconds": 0, "robot_delay_ms": 0})).await;
        let addr = addr.clone();
        tasks.push(tokio::spawn(async move {
            play_games(&addr, &room, 0, 10, i as u64).await
        }));
    }
    let mut games = 0;
    for t in tasks {
        games += t.await.unwrap();
    }
    assert_eq!(games, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_a_robot() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "greedy", "human"], "seed": 3, "turn_seconds": 0, "robot_delay_ms": 0})).await;
    let a = tokio::spawn({
        let (addr, room) = (addr.clone(), room.clone());
        async move { play_games(&addr, &room, 0, 3, 1).await }
    });
    let b = tokio::spawn(async move { play_games(&addr, &room, 2, 3, 2).await });
    assert_eq!(a.await.unwrap() + b.await.unwrap(), 6);
}

/// The first update after joining, skipping the welcome.
async fn first_update(c: &mut Client) -> Value {
    c.next_of("update").await.expect("an update")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_frames_are_refused_and_the_room_goes_on() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "human", "greedy"], "seed": 8, "turn_seconds": 0, "robot_delay_ms": 0})).await;
    let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
    let update = first_update(&mut c).await;
    assert!(update["n"].as_u64().unwrap() >= 1);

    // Not JSON, not an object, binary, unknown type, join again: an error each (its code and
    // its message), still joined.
    for (frame, code, needle) in [
        (Message::text("hello"), "not_json", "not JSON"),
        (Message::text("[1]"), "not_json", "not a JSON object"),
        (Message::binary(vec![1, 2, 3]), "bad_frame", "binary frames"),
        (
            Message::text(r#"{"type": "dance"}"#),
            "unknown_type",
            "unknown type \"dance\"",
        ),
        (
            Message::text(r#"{"type": "join", "token": "00"}"#),
            "already_joined",
            "already joined",
        ),
        (
            Message::text(r#"{"type": "bid"}"#),
            "missing_field",
            "missing \"bid\"",
        ),
        (
            Message::text(r#"{"type": "bid", "bid": 9}"#),
            "bad_field",
            "\"bid\": 9 is not a bid 0-3",
        ),
        (
            Message::text(r#"{"type": "play", "move": "ZZ"}"#),
            "bad_notation",
            "\"ZZ\": in the cards",
        ),
        (
            Message::text(r#"{"type": "play", "move": "3", "ids": [99]}"#),
            "bad_ids",
            "not a card id",
        ),
        // A move for another seat.
        (
            Message::text(r#"{"type": "pass", "seat": 1}"#),
            "wrong_seat",
            "this connection plays seat 0, not 1",
        ),
    ] {
        c.send_raw(frame).await;
        let reply = c.next_of("error").await.expect("an error message");
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert!(
            reply["error"]["message"].as_str().unwrap().contains(needle),
            "{reply} lacks {needle}"
        );
    }
    // Acting out of turn.
    let state = &update["state"];
    let turn = state["turn"].as_u64().unwrap();
    let other = if turn == 0 { 1 } else { 0 };
    let (mut o, _) = Client::join(&addr, &room, other, 0).await;
    let _ = first_update(&mut o).await;
    o.send(json!({"type": "bid", "bid": 0, "step": state["step"]}))
        .await;
    let reply = o.next_of("error").await.unwrap();
    assert_eq!(reply["error"]["code"], "not_your_turn", "{reply}");
    assert_eq!(reply["error"]["turn"], turn, "{reply}");
    drop(o);

    // A wrong token: refused and closed; the room is untouched.
    let mut w = Client::connect(&addr, &room).await;
    w.send(json!({"type": "join", "token": "0123456789abcdef0123456789abcdef"}))
        .await;
    let reply = w.next().await.unwrap();
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("wrong token"),
        "{reply}"
    );
    assert!(w.next().await.is_none(), "closed after a wrong token");
    let mut w = Client::connect(&addr, &room).await;
    w.send(json!({"type": "join", "token": "x"})).await;
    let reply = w.next().await.unwrap();
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a seat token"),
        "{reply}"
    );

    // A 1 MB frame: refused, the connection closed (1009).
    let mut big = Client::join(&addr, &room, 1, 0).await.0;
    let _ = first_update(&mut big).await;
    big.send_raw(Message::text("x".repeat(1 << 20))).await;
    let mut refused = false;
    while let Some(m) = big.next().await {
        if m["type"] == "error" {
            assert!(
                m["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("frame refused"),
                "{m}"
            );
            refused = true;
        }
    }
    assert!(refused);

    // The room goes on: both people play it to the end.
    drop(c);
    let a = tokio::spawn({
        let (addr, room) = (addr.clone(), room.clone());
        async move { play_games(&addr, &room, 0, 1, 5).await }
    });
    let b = tokio::spawn(async move { play_games(&addr, &room, 1, 1, 6).await });
    assert_eq!(a.await.unwrap() + b.await.unwrap(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_resumes_after_the_last_message() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "greedy", "greedy"], "seed": 21, "turn_seconds": 0, "robot_delay_ms": 0})).await;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
    // Play a few actions, remembering the last message number.
    let mut last_n = 0;
    let mut acted = 0;
    let mut key = String::new();
    while acted < 4 {
        let m = c.next_of("update").await.unwrap();
        last_n = m["n"].as_u64().unwrap();
        if let Some(action) = choose(&m["state"], &mut rng, &mut key) {
            c.send(action).await;
            acted += 1;
            // Its update.
            let m = c.next_of("update").await.unwrap();
            last_n = m["n"].as_u64().unwrap();
        }
    }
    drop(c);
    // Resume after the last message seen: the events after it, numbered on from it.
    let (mut c, welcome) = Client::join(&addr, &room, 0, last_n).await;
    assert_eq!(welcome["seat"], 0);
    let m = c.next_of("update").await.unwrap();
    let events = m["events"].as_array().unwrap();
    let numbers: Vec<u64> = events.iter().map(|e| e["n"].as_u64().unwrap()).collect();
    assert!(
        numbers.iter().all(|&n| n > last_n),
        "{numbers:?} after {last_n}"
    );
    assert_eq!(
        m["n"].as_u64().unwrap(),
        numbers.last().copied().unwrap_or(last_n).max(last_n)
    );
    assert!(m.get("resync").is_none());
    // From the start: every event of the room.
    let (mut d, _) = Client::join(&addr, &room, 0, 0).await;
    let m = d.next_of("update").await.unwrap();
    assert_eq!(m["events"][0]["n"], 1);
    assert_eq!(m["events"][0]["event"], "start");
    // And the game finishes.
    drop(c);
    drop(d);
    assert_eq!(play_games(&addr, &room, 0, 1, 2).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_see_public_information_only() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "value", "greedy"], "seed": 4, "turn_seconds": 0, "robot_delay_ms": 0})).await;
    let mut s = Client::connect(&addr, &room).await;
    s.send(json!({"type": "watch"})).await;
    let welcome = s.next().await.unwrap();
    assert_eq!(welcome["type"], "welcome");
    assert_eq!(welcome["seat"], Value::Null);
    let player = tokio::spawn({
        let (addr, room) = (addr.clone(), room.clone());
        async move { play_games(&addr, &room, 0, 1, 3).await }
    });
    let mut saw_over = false;
    while let Some(m) = s.next().await {
        if m["type"] != "update" {
            continue;
        }
        let st = &m["state"];
        assert_eq!(st["you"], Value::Null);
        assert_eq!(st["hand"], Value::Null, "{st}");
        assert_eq!(st["legal"], Value::Null);
        if st["phase"] == "over" {
            assert_eq!(st["hands"].as_array().unwrap().len(), 3);
            saw_over = true;
            break;
        }
        assert!(st.get("hands").is_none() && st.get("record").is_none());
    }
    assert!(saw_over);
    // Spectators cannot act.
    s.send(json!({"type": "next"})).await;
    let reply = s.next_of("error").await.unwrap();
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("spectators only watch"),
        "{reply}"
    );
    assert_eq!(player.await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_timer_plays_for_an_absent_person() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    // Seat 0 never joins; its turns run out after one second each.
    let room = create_room(&app, json!({"seats": ["human", "greedy", "greedy"], "seed": 2, "turn_seconds": 1, "robot_delay_ms": 0})).await;
    let mut s = Client::connect(&addr, &room).await;
    s.send(json!({"type": "watch"})).await;
    let mut auto = 0;
    while auto < 2 {
        let m = s.next_of("update").await.expect("updates");
        for e in m["events"].as_array().unwrap() {
            if e["seat"] == 0 && (e["event"] == "bid" || e["event"] == "play") {
                assert_eq!(e["auto"], true, "{e}");
                auto += 1;
            }
        }
        if m["state"]["turn"] == 0 {
            let clock = &m["state"]["clock"];
            assert_eq!(clock["seat"], 0, "{m}");
            assert!(clock["ms"].as_u64().unwrap() <= 1000);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_rooms_expire() {
    let mut config = test_config();
    config.idle_expiry = Duration::from_millis(600);
    let app = app(config);
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "greedy", "greedy"]})).await;
    let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
    let closed = c.next_of("closed").await.expect("a closed message");
    assert!(
        closed["reason"].as_str().unwrap().contains("idle"),
        "{closed}"
    );
    assert!(c.next().await.is_none());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (_, _, health) = call(&app, "GET", "/v1/health", "").await;
    assert_eq!(health["rooms"], 0);
    let uri = format!("/v1/rooms/{}/ws", room["room"].as_str().unwrap());
    let (status, _, _) = call(&app, "GET", &uri, "").await;
    assert_eq!(status, 404);
    let _ = token(&room, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_go_to_the_seat_to_play() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    // Botzone rules: a fixed landlord in seat 0, which leads at once.
    let room = create_room(&app, json!({"rules": "botzone", "seats": ["human", "human", "greedy"], "seed": 6, "turn_seconds": 0, "robot_delay_ms": 0})).await;
    let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
    let state = first_update(&mut c).await["state"].clone();
    assert_eq!(state["turn"], 0);
    let legal: Vec<Value> = state["legal"]["moves"].as_array().unwrap().clone();
    for _ in 0..2 {
        c.send(json!({"type": "hint"})).await;
        let hints = c.next_of("hints").await.unwrap();
        let moves = hints["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|m| legal.contains(m)), "{hints}");
    }
    let (mut o, _) = Client::join(&addr, &room, 1, 0).await;
    o.send(json!({"type": "hint"})).await;
    let reply = o.next_of("error").await.unwrap();
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no hints now: not seat 1's turn"),
        "{reply}"
    );
    assert_eq!(reply["error"]["code"], "no_hints", "{reply}");
    assert_eq!(reply["error"]["reason"], "not_your_turn", "{reply}");
}
