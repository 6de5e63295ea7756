//! The transcript of the HTTP side (`web_http.txt`).

use super::socket::{Normalise, call_text, create};
use super::*;

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
        r#"{"seed": "18446744073709551615"}"#,
        r#"{"seed": "18446744073709551616"}"#,
        r#"{"seed": "+7"}"#,
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
