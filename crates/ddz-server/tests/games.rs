//! The games database (issue 20, deliverable 8 in part): finished games are saved with their
//! record, result and players, and the room's totals; `GET /v1/games` lists them newest
//! first, a page at a time; `GET /v1/games/{id}` gives one with a record that replays.

use crate::common;

use std::sync::Arc;

use axum::http::StatusCode;
use common::{Client, call, create_room, serve, test_config};
use ddz_server::app;
use ddz_server::db::{Database, FinishedGame};
use serde_json::{Value, json};

/// Plays `games` games as seat 0 of a room (the first legal action each turn).
async fn play(addr: &str, room: &Value, games: usize) {
    let (c, _) = Client::join(addr, room, 0, 0).await;
    play_joined(c, games).await;
}

/// Plays `games` games with a client joined to a seat (the first legal action each turn).
async fn play_joined(mut c: Client, games: usize) {
    let mut done = 0;
    let mut acted = u64::MAX;
    while done < games {
        let update = c.next_of("update").await.expect("an update");
        let state = &update["state"];
        let step = state["step"].as_u64().unwrap();
        if acted == step {
            continue;
        }
        if state["phase"] == "over" {
            acted = step;
            done += 1;
            if done < games {
                c.send(json!({"type": "next", "step": step})).await;
            }
        } else if state["turn"] == state["you"] {
            acted = step;
            let legal = &state["legal"];
            c.send(match legal["bids"].as_array() {
                Some(bids) => json!({"type": "bid", "bid": bids[0], "step": step}),
                None => json!({"type": "play", "move": legal["moves"][0], "step": step}),
            })
            .await;
        }
    }
}

#[tokio::test]
async fn finished_games_are_saved_and_listed() {
    let db = Arc::new(Database::in_memory().unwrap());
    let mut config = test_config();
    config.database = Some(db.clone());
    let app = app(config);
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"seats": ["human", "greedy", "ddzlib"], "seed": 9, "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    play(&addr, &room, 3).await;
    // The last save runs off the async threads: wait for it.
    let mut listed = Value::Null;
    for _ in 0..100 {
        let (status, _, page) = call(&app, "GET", "/v1/games", "").await;
        assert_eq!(status, StatusCode::OK, "{page}");
        if page["games"].as_array().unwrap().len() == 3 {
            listed = page;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let games = listed["games"].as_array().expect("three games listed");
    assert_eq!(listed["next"], Value::Null);
    // Newest first: games 3, 2, 1 of the room, dealt from seeds 11, 10, 9.
    let numbers: Vec<&Value> = games.iter().map(|g| &g["game"]).collect();
    assert_eq!(numbers, [&json!(3), &json!(2), &json!(1)]);
    assert_eq!(games[2]["seed"], "9");
    // The room is named by its label, the same for its games, never by its id (with which
    // anyone could watch the room while it is open: issue 50).
    let label = ddz_server::seeds::room_label(room["room"].as_str().unwrap());
    assert!(
        games.iter().all(|g| g["room"] == label.as_str()),
        "{listed}"
    );
    assert!(!listed.to_string().contains(room["room"].as_str().unwrap()));
    assert_eq!(games[0]["players"], json!(["human", "greedy", "ddzlib"]));
    let total: i64 = games
        .iter()
        .flat_map(|g| g["scores"].as_array().unwrap())
        .map(|s| s.as_i64().unwrap())
        .sum();
    assert_eq!(total, 0);
    // Paged.
    let (_, _, first) = call(&app, "GET", "/v1/games?limit=2", "").await;
    assert_eq!(first["games"].as_array().unwrap().len(), 2);
    let next = first["next"].as_i64().expect("a next page");
    let (_, _, second) = call(&app, "GET", &format!("/v1/games?limit=2&before={next}"), "").await;
    assert_eq!(second["games"][0]["game"], 1);
    assert_eq!(second["next"], Value::Null);
    // One game, whose record replays.
    let id = games[1]["id"].as_i64().unwrap();
    let (status, _, game) = call(&app, "GET", &format!("/v1/games/{id}"), "").await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["game"], 2);
    assert_eq!(game["record"]["seed"], 10);
    let (status, _, replay) = call(&app, "POST", "/v1/replay", game["record"].to_string()).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(replay["result"]["scores"], games[1]["scores"]);
    // The room's totals.
    let (played, totals) = db
        .room_totals(room["room"].as_str().unwrap())
        .unwrap()
        .expect("the room's totals");
    assert_eq!(played, 3);
    assert_eq!(totals.iter().sum::<i64>(), 0);
    // Bad requests.
    for (uri, status) in [
        ("/v1/games/999", StatusCode::NOT_FOUND),
        ("/v1/games/x", StatusCode::BAD_REQUEST),
        ("/v1/games?limit=0", StatusCode::BAD_REQUEST),
        ("/v1/games?before=-1", StatusCode::BAD_REQUEST),
        ("/v1/games?page=2", StatusCode::BAD_REQUEST),
    ] {
        let (got, _, body) = call(&app, "GET", uri, "").await;
        assert_eq!(got, status, "{uri}: {body}");
        assert!(body["error"].is_string(), "{uri}: {body}");
    }
}

#[tokio::test]
async fn without_a_database_nothing_is_kept() {
    let app = app(test_config());
    let (status, _, body) = call(&app, "GET", "/v1/games", "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        body["error"],
        "no games are kept: the server runs without a database (--db none)"
    );
}

#[test]
fn migrations_run_once() {
    let dir = std::env::temp_dir().join(format!("ddz-db-test-{}", std::process::id()));
    let path = dir.join("nested").join("games.sqlite3");
    let db = Database::open(&path).unwrap();
    assert_eq!(db.version().unwrap(), 5);
    drop(db);
    // Opened again: the schema is there and no migration runs twice.
    let db = Database::open(&path).unwrap();
    assert_eq!(db.version().unwrap(), 5);
    assert_eq!(db.games(None, 10).unwrap().games, []);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A browser identity for the tests.
const PLAYER: &str = "00112233445566778899AABBCCDDEEFF";

#[tokio::test]
async fn results_are_kept_per_browser_identity() {
    let db = Arc::new(Database::in_memory().unwrap());
    let mut config = test_config();
    config.database = Some(db.clone());
    let app = app(config);
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"seats": ["human", "level:2", "level:2"], "seed": 4, "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    // A bad identity is refused by name, and the seat may join again.
    let mut c = Client::connect(&addr, &room).await;
    c.send(json!({"type": "join", "token": common::token(&room, 0), "player": "me"}))
        .await;
    let refused = c.next().await.expect("a refusal");
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["error"]["field"], "player", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"player\": \"me\" is not a browser identity"),
        "{refused}"
    );
    let mut c = Client::connect(&addr, &room).await;
    c.send(json!({"type": "join", "token": common::token(&room, 0), "player": PLAYER}))
        .await;
    assert_eq!(c.next().await.unwrap()["type"], "welcome");
    play_joined(c, 3).await;
    let mut games = Vec::new();
    for _ in 0..100 {
        let (_, _, page) = call(&app, "GET", "/v1/games", "").await;
        games = page["games"].as_array().unwrap().clone();
        if games.len() == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(games.len(), 3);
    let scores: Vec<i64> = games
        .iter()
        .map(|g| g["scores"][0].as_i64().unwrap())
        .collect();
    let uri = format!("/v1/players/{}/results", PLAYER.to_lowercase());
    let (status, _, results) = call(&app, "GET", &uri, "").await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert_eq!(results["player"], PLAYER.to_lowercase());
    let level = &results["robots"][0];
    assert_eq!(level["robot"], "level:2", "{results}");
    assert_eq!(level["games"], 3);
    let wins = scores.iter().filter(|&&s| s > 0).count();
    assert_eq!(level["wins"], wins, "{results}");
    assert_eq!(level["losses"], 3 - wins, "{results}");
    assert_eq!(level["points"], scores.iter().sum::<i64>());
    // Newest first: the streak is the wins before the first loss.
    let streak = scores.iter().take_while(|&&s| s > 0).count();
    assert_eq!(level["streak"], streak, "{results}");
    assert_eq!(results["next_level"].is_object(), streak >= 3, "{results}");
    // The identity is not shown in the public list.
    assert!(!games[0].to_string().contains(&PLAYER.to_lowercase()));

    // An identity never seen has no results; a bad one is a 400 with a JSON error.
    let (status, _, none) = call(
        &app,
        "GET",
        &format!("/v1/players/{}/results", "ab".repeat(16)),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(none["robots"], json!([]));
    assert_eq!(none["next_level"], Value::Null);
    let (status, _, bad) = call(&app, "GET", "/v1/players/xyz/results", "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad["error"],
        "\"xyz\" is not a browser identity (32 hex digits)"
    );
}

/// A finished game of `player` in seat 0 against two `robot`s, with seat 0's score.
fn game_of(player: &str, robot: &str, score: i64) -> FinishedGame {
    FinishedGame {
        room: "r".into(),
        number: 1,
        rules: "classic".into(),
        seed: 1,
        winner: if score > 0 { "landlord" } else { "farmers" }.into(),
        scores: [score, -score / 2, -score / 2],
        players: ["human".into(), robot.into(), robot.into()],
        identities: [Some(player.into()), None, None],
        totals: [score, -score / 2, -score / 2],
        record: json!({"format": "ddz-record/1"}),
    }
}

#[tokio::test]
async fn three_wins_in_a_row_suggest_the_next_level() {
    let db = Arc::new(Database::in_memory().unwrap());
    let mut config = test_config();
    config.database = Some(db.clone());
    config.robots.retain(|r| r != "level:8");
    let app = app(config);
    let player = PLAYER.to_lowercase();
    let uri = format!("/v1/players/{player}/results");
    let next_level = |results: &Value| results["next_level"]["robot"].clone();
    for score in [2, -2, 2, 2] {
        db.save_game(&game_of(&player, "level:3", score)).unwrap();
    }
    let (_, _, results) = call(&app, "GET", &uri, "").await;
    assert_eq!(results["robots"][0]["streak"], 2, "{results}");
    assert_eq!(next_level(&results), Value::Null, "two wins are not a run");
    db.save_game(&game_of(&player, "level:3", 4)).unwrap();
    let (_, _, results) = call(&app, "GET", &uri, "").await;
    assert_eq!(
        results["next_level"],
        json!({"robot": "level:4", "after": "level:3", "streak": 3})
    );
    // A game against another robot is the latest: its run counts, not level 3's.
    db.save_game(&game_of(&player, "greedy", 2)).unwrap();
    let (_, _, results) = call(&app, "GET", &uri, "").await;
    assert_eq!(results["robots"][0]["robot"], "greedy");
    assert_eq!(results["robots"][1]["games"], 5);
    assert_eq!(next_level(&results), Value::Null);
    // Mixed robots are counted apart; no level beyond what the server offers.
    let mut mixed = game_of(&player, "level:7", 2);
    mixed.players[2] = "level:6".into();
    db.save_game(&mixed).unwrap();
    for _ in 0..3 {
        db.save_game(&game_of(&player, "level:7", 2)).unwrap();
    }
    let (_, _, results) = call(&app, "GET", &uri, "").await;
    assert_eq!(results["robots"][1]["robot"], "mixed", "{results}");
    assert_eq!(results["robots"][0]["streak"], 3);
    assert_eq!(
        next_level(&results),
        Value::Null,
        "level 8 is not offered here"
    );
}

/// A huanle game where the person shows the hand before the deal (which makes the person bid
/// first) and super-doubles, played over the WebSocket, stored, then analysed by `POST
/// /v1/analyse`: the analysis once rebuilt the game before its first action from a record
/// without its shows, whose first bidder then did not match (400).
#[tokio::test]
async fn a_stored_huanle_game_with_a_show_is_analysed() {
    let db = Arc::new(Database::in_memory().unwrap());
    let mut config = test_config();
    config.database = Some(db.clone());
    config.analysis_iters = 4;
    let app = app(config);
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"rules": "huanle", "seats": ["human", "value", "ddzlib"], "seed": 2, "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
    let mut auto = false;
    loop {
        let update = c.next_of("update").await.expect("an update");
        let state = &update["state"];
        if state["phase"] == "over" {
            break;
        }
        let legal = &state["legal"];
        let step = state["step"].as_u64().unwrap();
        if legal.get("show").is_some() {
            c.send(json!({"type": "show", "show": true, "step": step, "seat": 0}))
                .await;
        } else if let Some(d) = legal.get("double").and_then(|d| d.as_array()) {
            let most = d.last().unwrap();
            c.send(json!({"type": "double", "double": most, "step": step, "seat": 0}))
                .await;
        } else if !auto && (legal.get("bids").is_some() || legal.get("moves").is_some()) {
            auto = true;
            c.send(json!({"type": "auto", "auto": true, "seat": 0}))
                .await;
        }
    }
    let mut games = Vec::new();
    for _ in 0..100 {
        let (_, _, page) = call(&app, "GET", "/v1/games", "").await;
        games = page["games"].as_array().unwrap().clone();
        if !games.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let id = games[0]["id"].as_i64().unwrap();
    let (_, _, game) = call(&app, "GET", &format!("/v1/games/{id}"), "").await;
    assert_eq!(
        game["record"]["shows"][2],
        json!([0, 5]),
        "{}",
        game["record"]
    );
    let (status, _, analysis) = call(&app, "POST", "/v1/analyse", game["record"].to_string()).await;
    assert_eq!(status, StatusCode::OK, "{analysis}");
    let kinds: Vec<&str> = analysis["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    for kind in ["show", "bid", "double", "play"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
}
