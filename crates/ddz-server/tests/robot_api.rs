//! The robot API: `/v1/act` and `/v1/bid` answer as `ddz bot` does, on the recorded requests
//! of `tests/data/robot_requests.jsonl` (replies of `ddz bot` in `robot_replies_NAME.jsonl`).

use crate::common;

use common::{call, test_config};
use ddz_bots::make_bot;
use ddz_core::Rules;
use ddz_game::{Game, Phase};
use ddz_protocol::jsonl as protocol;
use ddz_server::app;
use serde_json::{Value, json};

const REQUESTS: &str = include_str!("data/robot_requests.jsonl");

/// The requests of `tests/data/robot_requests.jsonl`: decisions of seeded greedy games under
/// five profiles (bids and plays, with and without `legal_moves`) and a few requests the
/// robot must refuse.
fn generated_requests() -> String {
    let mut lines = Vec::new();
    let mut id = 0u64;
    for profile in ["classic", "laizi", "tiandi", "botzone", "douzero"] {
        let rules = Rules::profile(profile.parse().unwrap());
        for seed in 1..=3u64 {
            let mut game = Game::new(&rules, seed);
            let mut bot = make_bot("greedy", seed).unwrap();
            let mut decision = 0u32;
            while game.phase() != Phase::Over {
                let seat = game.turn();
                let view = game.view(seat);
                let pick = decision.is_multiple_of(4);
                decision += 1;
                if game.phase() == Phase::Bidding {
                    if pick {
                        id += 1;
                        lines.push(protocol::bid_request(&json!(id), &view).to_string());
                    }
                    let bid = bot.bid(&view, &view.legal_bids());
                    game.bid(seat, bid).unwrap();
                } else {
                    let legal = game.legal_moves();
                    if pick {
                        id += 1;
                        let with_legal = id.is_multiple_of(2);
                        let request = protocol::act_request(
                            &json!(id),
                            &view,
                            with_legal.then_some(&legal[..]),
                        );
                        lines.push(request.to_string());
                    }
                    let play = bot.play(&view, &legal);
                    game.play(seat, play).unwrap();
                }
            }
        }
    }
    // Requests the robot must refuse, each naming the field.
    for bad in [
        r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": "bad-1", "seat": 0, "landlord_seat": 0, "role": "landlord", "hand": "33333", "cards_left": [5, 17, 17], "history": [], "last": null}"#,
        r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": "bad-2", "seat": 1, "landlord_seat": 0, "role": "landlord_down", "hand": "34", "cards_left": [20, 2, 17], "history": [[1, "3"]], "last": null}"#,
        r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": "bad-3", "seat": 0, "landlord_seat": 0, "role": "landlord", "hand": "3Z", "cards_left": [2, 17, 17], "history": [], "last": null}"#,
        r#"{"protocol": "ddz-jsonl/1", "type": "bid", "id": "bad-4", "seat": 1, "hand": "3456", "bids": [[0, 3]]}"#,
        r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": "bad-5", "seat": 0, "landlord_seat": 0, "role": "landlord", "hand": "34", "cards_left": [2, 17, 17], "history": [], "last": null, "legal_moves": ["5"]}"#,
    ] {
        lines.push(serde_json::from_str::<Value>(bad).unwrap().to_string());
    }
    lines.join("\n") + "\n"
}

/// `tests/data/robot_requests.jsonl` holds the requests [`generated_requests`] makes now.
///
/// To record the fixtures afresh (after a change to the protocol, the deals or the greedy
/// robot), run `scripts/record_robot_fixtures.sh`: it runs this test with
/// `DDZ_RECORD_FIXTURE=1`, which writes the requests instead of comparing them, then records
/// the replies with the real command, for NAME in greedy, value and ddzlib:
/// `ddz bot --bot NAME < robot_requests.jsonl > robot_replies_NAME.jsonl`.
#[test]
fn the_recorded_requests_are_the_generated_ones() {
    let generated = generated_requests();
    if std::env::var_os("DDZ_RECORD_FIXTURE").is_some_and(|v| v == "1") {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/robot_requests.jsonl"
        );
        std::fs::write(path, &generated).unwrap();
        return;
    }
    let recorded: Vec<&str> = REQUESTS.lines().collect();
    let generated: Vec<&str> = generated.lines().collect();
    assert_eq!(recorded.len(), generated.len(), "request count");
    for (i, (r, g)) in recorded.iter().zip(&generated).enumerate() {
        let r: Value = serde_json::from_str(r).unwrap();
        let g: Value = serde_json::from_str(g).unwrap();
        assert_eq!(
            r,
            g,
            "line {}: the fixture differs from the generated request (see this test's doc)",
            i + 1
        );
    }
}

/// The endpoint of a request line.
fn endpoint(request: &Value) -> &'static str {
    match request["type"].as_str() {
        Some("bid") => "/v1/bid",
        _ => "/v1/act",
    }
}

#[tokio::test]
async fn answers_equal_the_recorded_ddz_bot_replies() {
    let app = app(test_config());
    for (name, replies) in [
        ("greedy", include_str!("data/robot_replies_greedy.jsonl")),
        ("value", include_str!("data/robot_replies_value.jsonl")),
        ("ddzlib", include_str!("data/robot_replies_ddzlib.jsonl")),
    ] {
        let requests: Vec<&str> = REQUESTS.lines().collect();
        let replies: Vec<Value> = replies
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(requests.len(), replies.len(), "{name}: one reply a request");
        assert!(requests.len() >= 60, "{} requests", requests.len());
        let mut errors = 0;
        for (line, expected) in requests.iter().zip(&replies) {
            let request: Value = serde_json::from_str(line).unwrap();
            let uri = format!("{}?bot={name}", endpoint(&request));
            let (status, content_type, reply) = call(&app, "POST", &uri, line.to_string()).await;
            assert_eq!(&reply, expected, "{name} on {line}");
            assert_eq!(content_type, "application/json");
            if expected.get("error").is_some() {
                errors += 1;
                assert_eq!(status, 400, "{line}");
            } else {
                assert_eq!(status, 200, "{line}");
            }
        }
        assert_eq!(errors, 5, "{name}: the five bad requests are refused");
    }
}

#[tokio::test]
async fn bot_and_seed_from_the_query() {
    let app = app(test_config());
    let act = r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": 3, "seat": 0, "landlord_seat": 0, "role": "landlord", "hand": "3456789", "cards_left": [7, 17, 17], "history": [], "last": null}"#;
    // The default robot is value; random with a seed is reproducible.
    let (status, _, default) = call(&app, "POST", "/v1/act", act).await;
    assert_eq!(status, 200);
    let (_, _, value) = call(&app, "POST", "/v1/act?bot=value", act).await;
    assert_eq!(default, value);
    let (_, _, a) = call(&app, "POST", "/v1/act?bot=random&seed=9", act).await;
    let (_, _, b) = call(&app, "POST", "/v1/act?bot=random&seed=9", act).await;
    assert_eq!(a, b);
    assert!(a["cards"].is_string(), "{a}");
    // A robot the server does not offer.
    let mut config = test_config();
    config.robots = vec!["greedy".into()];
    config.default_robot = "greedy".into();
    let narrow = ddz_server::app(config);
    let (status, _, reply) = call(&narrow, "POST", "/v1/act?bot=value", act).await;
    assert_eq!(status, 400);
    assert_eq!(
        reply["error"],
        "\"bot\": unknown robot \"value\" (robots: greedy)"
    );
}
