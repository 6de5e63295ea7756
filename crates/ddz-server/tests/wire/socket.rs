//! The transcript of rooms over WebSocket (`web_socket.txt`).

use super::room::choose;
use super::*;

/// Secrets of a room (its id, the seat tokens) and the clock's milliseconds written as
/// placeholders.
pub(super) struct Normalise(Vec<(String, String)>);

impl Normalise {
    /// From a room's creation reply.
    pub(super) fn of(room: &Value) -> Normalise {
        let mut secrets = vec![(room["room"].as_str().unwrap().to_string(), "ROOM".into())];
        for (i, seat) in room["seats"].as_array().unwrap().iter().enumerate() {
            if let Some(token) = seat["token"].as_str() {
                secrets.push((token.to_string(), format!("TOKEN{i}")));
            }
        }
        Normalise(secrets)
    }

    pub(super) fn apply(&self, text: &str) -> String {
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
pub(super) async fn call_text(
    app: &Router,
    method: &str,
    uri: &str,
    body: impl Into<Body>,
) -> (u16, String) {
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
pub(super) async fn create(t: &mut Transcript, app: &Router, body: Value) -> (Value, Normalise) {
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
