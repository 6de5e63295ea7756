//! Every HTTP endpoint, with good and hostile requests: bad input always gets a 4xx with a
//! JSON error that says what is wrong, never a 5xx.

use crate::common;

use common::{call, test_config};
use ddz_core::{Bidding, Rules};
use ddz_game::{Game, GameRecord, Phase};
use ddz_server::{ROUTES, app};
use proptest::prelude::*;
use serde_json::{Value, json};

const ACT: &str = r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": 7, "seat": 1, "landlord_seat": 0, "role": "landlord_down", "hand": "334555668TTTQAA2R", "cards_left": [19, 17, 17], "history": [[0, "2"]], "last": {"seat": 0, "cards": "2"}, "legal_moves": ["pass", "R"]}"#;

/// Asserts a 4xx JSON error whose message contains `needle`.
async fn refused(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: impl Into<axum::body::Body>,
    status: u16,
    needle: &str,
) {
    let (s, content_type, reply) = call(app, method, uri, body).await;
    assert_eq!(s.as_u16(), status, "{method} {uri}: {reply}");
    assert_eq!(content_type, "application/json", "{method} {uri}");
    let error = reply["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {reply}"));
    assert!(
        error.contains(needle),
        "{method} {uri}: {error:?} lacks {needle:?}"
    );
}

#[tokio::test]
async fn health_and_openapi() {
    let app = app(test_config());
    let (status, content_type, health) = call(&app, "GET", "/v1/health", "").await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/json");
    assert_eq!(health["status"], "ok");
    assert_eq!(health["protocols"], json!(["ddz-jsonl/1", "ddz-web/1"]));
    let mut robots: Vec<String> = ddz_bots::BOT_NAMES.iter().map(|s| s.to_string()).collect();
    robots.extend(ddz_bots::level_specs());
    assert_eq!(health["robots"], json!(robots));
    assert_eq!(health["rooms"], 0);
    assert_eq!(health["database"], "none");

    let (status, content_type, doc) = call(&app, "GET", "/openapi.json", "").await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/json");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    for route in ROUTES {
        assert!(paths.iter().any(|p| *p == route), "{route} in {paths:?}");
    }
    assert_eq!(paths.len(), ROUTES.len(), "{paths:?}");
}

#[tokio::test]
async fn page_assets() {
    let app = app(test_config());
    for (path, kind, needle) in [
        ("/", "text/html; charset=utf-8", "/app.js"),
        ("/app.js", "text/javascript; charset=utf-8", "ddz-web/1"),
        ("/style.css", "text/css; charset=utf-8", "@media"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let (status, content_type, body) = call(&app, "GET", path, "").await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(content_type, kind, "{path}");
        assert!(body.as_str().unwrap().contains(needle), "{path}");
    }
}

#[tokio::test]
async fn act_and_bid() {
    let app = app(test_config());
    let (status, _, reply) = call(&app, "POST", "/v1/act?bot=value", ACT).await;
    assert_eq!(status, 200);
    assert_eq!(reply["id"], 7);
    assert!(
        ["pass", "R"].contains(&reply["cards"].as_str().unwrap()),
        "{reply}"
    );
    let bid = r#"{"protocol": "ddz-jsonl/1", "type": "bid", "id": "b", "form": "points", "seat": 2, "hand": "334555668TTTQAA2R", "bids": [[0, 1], [1, 0]]}"#;
    let (status, _, reply) = call(&app, "POST", "/v1/bid", bid).await;
    assert_eq!(status, 200);
    assert_eq!(reply["id"], "b");
    assert!(
        [0, 2, 3].contains(&reply["bid"].as_u64().unwrap()),
        "{reply}"
    );
    // A wild play keeps its reading.
    let wild = r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": [8], "rules": "laizi", "laizi": ["9"], "seat": 0, "landlord_seat": 0, "role": "landlord", "hand": "7779", "cards_left": [4, 17, 17], "history": [], "last": null, "legal_moves": ["7779=7777"]}"#;
    let (status, _, reply) = call(&app, "POST", "/v1/act", wild).await;
    assert_eq!(
        (status.as_u16(), reply),
        (200, json!({"id": [8], "cards": "7779=7777"}))
    );
}

#[tokio::test]
async fn hostile_robot_requests() {
    let app = app(test_config());
    let big = format!(
        "{{\"protocol\": \"ddz-jsonl/1\", \"pad\": \"{}\"}}",
        "x".repeat(ddz_server::MAX_BODY)
    );
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("/v1/act", "".into(), 400, "not JSON"),
        ("/v1/act", "not json".into(), 400, "not JSON"),
        ("/v1/act", "[1, 2]".into(), 400, "not a JSON object"),
        ("/v1/act", "{}".into(), 400, "missing \"protocol\""),
        (
            "/v1/act",
            r#"{"protocol": "ddz-jsonl/2", "type": "act", "id": 1}"#.into(),
            400,
            "is not \"ddz-jsonl/1\"",
        ),
        (
            "/v1/act",
            r#"{"protocol": "ddz-jsonl/1", "type": "act"}"#.into(),
            400,
            "missing \"id\"",
        ),
        (
            "/v1/act",
            r#"{"protocol": "ddz-jsonl/1", "type": "bid", "id": 1, "seat": 0, "hand": "33"}"#
                .into(),
            400,
            "/v1/act takes a \"act\" request, not \"bid\"",
        ),
        (
            "/v1/bid",
            ACT.into(),
            400,
            "/v1/bid takes a \"bid\" request, not \"act\"",
        ),
        (
            "/v1/act",
            r#"{"protocol": "ddz-jsonl/1", "type": "hello", "id": 0}"#.into(),
            400,
            "not \"hello\"",
        ),
        (
            "/v1/act",
            r#"{"protocol": "ddz-jsonl/1", "type": "result", "id": 0}"#.into(),
            400,
            "not \"result\"",
        ),
        (
            "/v1/act",
            r#"{"protocol": "ddz-jsonl/1", "type": "fold", "id": 0}"#.into(),
            400,
            "unknown type \"fold\"",
        ),
        (
            "/v1/act",
            ACT.replace("334555668TTTQAA2R", "33333"),
            400,
            "5 cards of rank 3",
        ),
        (
            "/v1/act",
            ACT.replace(r#"[[0, "2"]]"#, r#"[[1, "2"]]"#),
            400,
            "out of turn",
        ),
        (
            "/v1/act",
            ACT.replace(
                r#""cards_left": [19, 17, 17]"#,
                r#""cards_left": [19, 17, 99]"#,
            ),
            400,
            "not a card count",
        ),
        (
            "/v1/act",
            ACT.replace(r#""rules": "#, "")
                .replace(r#""id": 7,"#, r#""id": 7, "rules": "poker","#),
            400,
            "not a rule profile",
        ),
        (
            "/v1/act",
            ACT.replace(r#"["pass", "R"]"#, r#"["BB"]"#),
            400,
            "\"legal_moves\"[0]",
        ),
        (
            "/v1/act",
            big.clone(),
            413,
            "body longer than 1048576 bytes",
        ),
        ("/v1/act", deep, 400, "not JSON"),
        (
            "/v1/act?bot=nobody",
            ACT.into(),
            400,
            "unknown robot \"nobody\"",
        ),
        ("/v1/act?bot=value:time=1", ACT.into(), 400, "unknown robot"),
        (
            "/v1/act?seed=-1",
            ACT.into(),
            400,
            "\"seed\": \"-1\" is not a number",
        ),
        (
            "/v1/act?colour=red",
            ACT.into(),
            400,
            "unknown parameter \"colour\"",
        ),
        ("/v1/act?bot=%ZZ", ACT.into(), 400, "unknown robot \"%ZZ\""),
        ("/v1/bid", big, 413, "body longer"),
    ];
    for (uri, body, status, needle) in cases {
        refused(&app, "POST", uri, body, status, needle).await;
    }
    // Not UTF-8.
    refused(
        &app,
        "POST",
        "/v1/act",
        vec![0xff, 0xfe, b'{'],
        400,
        "not UTF-8",
    )
    .await;
    // Wrong methods and paths.
    refused(&app, "GET", "/v1/act", "", 405, "/v1/act does not take GET").await;
    refused(
        &app,
        "DELETE",
        "/v1/health",
        "",
        405,
        "does not take DELETE",
    )
    .await;
    refused(
        &app,
        "GET",
        "/v1/nothing",
        "",
        404,
        "no route GET /v1/nothing",
    )
    .await;
    refused(&app, "GET", "/../../etc/passwd", "", 404, "no route").await;
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any body, any endpoint: a 2xx or a 4xx with a JSON error, never a 5xx.
    #[test]
    fn no_body_gets_a_5xx(body in prop_oneof![
        ".{0,200}",
        proptest::collection::vec(any::<u8>(), 0..200).prop_map(|b| String::from_utf8_lossy(&b).to_string()),
        Just(ACT.to_string()).prop_flat_map(|a| (0..a.len(), "[\\[\\]{}\",:0-9a-zA-Z ]{0,6}").prop_map(move |(i, s)| {
            let i = (0..=i).rev().find(|&i| a.is_char_boundary(i)).unwrap_or(0);
            format!("{}{}{}", &a[..i], s, &a[i..])
        })),
    ], path in prop_oneof![Just("/v1/act"), Just("/v1/bid"), Just("/v1/rooms"), Just("/v1/replay"), Just("/v1/analyse")]) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let app = app(test_config());
        let (status, content_type, reply) = rt.block_on(call(&app, "POST", path, body.clone()));
        prop_assert!(status.as_u16() < 500, "{path} {body:?}: {status} {reply}");
        prop_assert_eq!(content_type, "application/json");
        if !status.is_success() {
            prop_assert!(reply["error"].is_string(), "{}", reply);
        }
    }
}

#[tokio::test]
async fn rooms_are_created_and_refused() {
    let mut config = test_config();
    config.max_rooms = 2;
    let app = app(config);
    let (status, _, room) = call(&app, "POST", "/v1/rooms", "").await;
    assert_eq!(status, 201, "{room}");
    assert_eq!(room["protocol"], "ddz-web/1");
    assert_eq!(room["rules"], "classic");
    assert_eq!(room["seats"][0]["player"], "human");
    let token = room["seats"][0]["token"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(
        room["seats"][1],
        json!({"seat": 1, "player": "robot", "robot": "value"})
    );
    assert_eq!(
        room["ws"],
        format!("/v1/rooms/{}/ws", room["room"].as_str().unwrap())
    );

    let body = json!({"rules": "laizi", "seats": ["human", "human", "greedy"], "turn_seconds": 0, "robot_delay_ms": 0, "seed": 5});
    let (status, _, two) = call(&app, "POST", "/v1/rooms", body.to_string()).await;
    assert_eq!(status, 201, "{two}");
    assert_eq!(two["rules"], "laizi");
    assert_ne!(two["seats"][0]["token"], two["seats"][1]["token"]);
    let (_, _, health) = call(&app, "GET", "/v1/health", "").await;
    assert_eq!(health["rooms"], 2);
    refused(&app, "POST", "/v1/rooms", "", 429, "2 rooms are open").await;

    let app = ddz_server::app(test_config());
    for (body, needle) in [
        ("[]", "expected a JSON object"),
        ("{", "not JSON"),
        (r#"{"colour": 1}"#, "unknown field \"colour\""),
        (
            r#"{"rules": "poker"}"#,
            "\"rules\": \"poker\" is not a rule profile",
        ),
        (r#"{"rules": 3}"#, "\"rules\": expected a profile name"),
        (r#"{"seats": ["human"]}"#, "\"seats\": expected 3 entries"),
        (
            r#"{"seats": ["human", "alphago", "value"]}"#,
            "\"seats\"[1]: \"alphago\" is not",
        ),
        (
            r#"{"seats": ["value", "value", "value"]}"#,
            "at least one seat is \"human\"",
        ),
        (
            r#"{"turn_seconds": 601}"#,
            "\"turn_seconds\": 601 is not a number 0-600",
        ),
        (r#"{"robot_delay_ms": -1}"#, "\"robot_delay_ms\": -1"),
        (r#"{"seed": "x"}"#, "\"seed\": \"x\" is not a number"),
    ] {
        refused(&app, "POST", "/v1/rooms", body, 400, needle).await;
    }
    refused(&app, "GET", "/v1/rooms", "", 405, "does not take GET").await;
    refused(
        &app,
        "GET",
        "/v1/rooms/0123456789abcdef0123456789abcdef/ws",
        "",
        404,
        "no room",
    )
    .await;
    // A room that exists, asked without a WebSocket upgrade.
    let (_, _, room) = call(&app, "POST", "/v1/rooms", "").await;
    let uri = format!("/v1/rooms/{}/ws", room["room"].as_str().unwrap());
    let (status, content_type, reply) = call(&app, "GET", &uri, "").await;
    assert!(status.is_client_error(), "{status} {reply}");
    assert_eq!(content_type, "application/json");
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("expected a WebSocket upgrade")
    );
}

/// A finished game's record.
fn finished_record() -> GameRecord {
    let mut rules = Rules::classic();
    rules.bidding = Bidding::Points;
    let mut game = Game::new(&rules, 11);
    while game.phase() != Phase::Over {
        let seat = game.turn();
        if game.phase() == Phase::Bidding {
            game.bid(seat, if game.bids().is_empty() { 1 } else { 0 })
                .unwrap();
        } else {
            let m = game.legal_moves()[0];
            game.play(seat, m).unwrap();
        }
    }
    GameRecord::from_game(&game)
}

#[tokio::test]
async fn replay() {
    let app = app(test_config());
    let record = finished_record();
    let (status, _, reply) = call(&app, "POST", "/v1/replay", record.to_json()).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["ok"], true);
    let steps = reply["steps"].as_array().unwrap();
    assert_eq!(steps[0]["kind"], "deal");
    assert_eq!(steps.len(), 1 + record.bids.len() + 1 + record.plays.len());
    let last = steps.last().unwrap();
    assert_eq!(last["kind"], "play");
    assert_eq!(
        reply["result"],
        serde_json::to_value(&record.result).unwrap()
    );
    // Every step's hands hold 54 - played cards.
    let hands: usize = last["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().len())
        .sum();
    assert!(hands < 54);

    let mut bad = record.clone();
    bad.plays[3].1 = "BR".into();
    let (status, _, reply) = call(&app, "POST", "/v1/replay", bad.to_json()).await;
    assert_eq!(status, 400);
    assert!(
        reply["error"].as_str().unwrap().starts_with("play 4 (seat"),
        "{reply}"
    );
    assert_eq!(
        reply["steps"].as_array().unwrap().len(),
        1 + record.bids.len() + 1 + 3
    );
    for (body, needle) in [
        ("nope", "json: not valid JSON"),
        ("{}", "format: missing"),
        (r#"{"format": "ddz-record/9"}"#, "unknown format version"),
    ] {
        refused(&app, "POST", "/v1/replay", body, 400, needle).await;
    }
    let value: Value = serde_json::from_str(&record.to_json()).unwrap();
    let mut value = value;
    value["deal"]["kitty"] = json!("ZZZ");
    refused(&app, "POST", "/v1/replay", value.to_string(), 400, "deal").await;
    // A count from outside is bounded before any work (issue 50: 4294967295 redeals looped
    // on the async worker until the process ran out of memory).
    let mut value: Value = serde_json::from_str(&record.to_json()).unwrap();
    value["redeals"] = json!(4294967295u32);
    let started = std::time::Instant::now();
    for path in ["/v1/replay", "/v1/analyse"] {
        refused(
            &app,
            "POST",
            path,
            value.to_string(),
            400,
            "\"redeals\": 4294967295 is more than 1000",
        )
        .await;
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}

#[tokio::test]
async fn analyse() {
    let app = app(test_config());
    let record = finished_record();
    let (status, _, reply) =
        call(&app, "POST", "/v1/analyse?seat=2&iters=8", record.to_json()).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["format"], "ddz-analysis/1");
    assert_eq!(reply["seats"], json!([2]));
    let decisions = reply["decisions"].as_array().unwrap();
    let plays = record.plays.iter().filter(|(seat, _)| *seat == 2).count();
    assert_eq!(
        decisions.iter().filter(|d| d["kind"] == "play").count(),
        plays
    );
    assert!(
        decisions
            .iter()
            .all(|d| d["seat"] == 2 && d["samples"].as_u64() <= Some(8))
    );
    assert_eq!(reply["summary"]["seats"][0]["seat"], 2);
    let (status, _, all) = call(&app, "POST", "/v1/analyse?iters=4", record.to_json()).await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["seats"], json!([0, 1, 2]));

    let mut bad = record.clone();
    bad.plays[3].1 = "BR".into();
    refused(
        &app,
        "POST",
        "/v1/analyse",
        bad.to_json(),
        400,
        "play 4 (seat",
    )
    .await;
    refused(
        &app,
        "POST",
        "/v1/analyse",
        "nope",
        400,
        "json: not valid JSON",
    )
    .await;
    for (query, needle) in [
        ("seat=3", "\"seat\": \"3\" is not 0, 1, 2 or all"),
        ("iters=0", "\"iters\": \"0\" is not a number 1-1000"),
        ("iters=5000", "is not a number 1-1000"),
        ("depth=2", "unknown parameter \"depth\""),
    ] {
        let uri = format!("/v1/analyse?{query}");
        refused(&app, "POST", &uri, record.to_json(), 400, needle).await;
    }
}
