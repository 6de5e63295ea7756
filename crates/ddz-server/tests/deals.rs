//! Unpredictable deals (issue 20, finding 1): no game's deal can be computed from anything a
//! seat received before that game was dealt. Game n + 1 used to be dealt from the seed game n
//! revealed plus one, and room seeds were 32-bit; now every game is dealt from a fresh 64-bit
//! seed from the operating system, and a client's seed is taken only in a room with one
//! person.

use crate::common;

use std::collections::HashSet;

use axum::http::StatusCode;
use common::{Client, call, create_room, serve, test_config};
use ddz_core::Rules;
use ddz_game::{Seat, Sitting};
use ddz_server::{Config, app};
use serde_json::{Value, json};

/// The server's defaults for seeds (the tests' config lets any room take a seed).
fn config() -> Config {
    let mut config = test_config();
    config.seeds_for_any_room = false;
    config
}

/// The hands (ids, sorted) a game dealt from `seed` under classic rules starts with.
fn deal_of(seed: u64) -> Vec<Vec<u64>> {
    let sitting = Sitting::new(&Rules::classic(), seed);
    Seat::ALL
        .into_iter()
        .map(|seat| {
            let mut ids: Vec<u64> = sitting
                .physical(seat)
                .iter()
                .map(|c| u64::from(c.id()))
                .collect();
            ids.sort_unstable();
            ids
        })
        .collect()
}

/// Plays `games` games as seat 0 (the first legal action each turn), checking that no state
/// before game over holds a seed; the seeds revealed at game over.
async fn play(addr: &str, room: &Value, games: usize) -> Vec<u64> {
    let (mut c, _) = Client::join(addr, room, 0, 0).await;
    let mut seeds = Vec::new();
    let mut acted = u64::MAX;
    while seeds.len() < games {
        let update = c.next_of("update").await.expect("an update");
        let state = &update["state"];
        let step = state["step"].as_u64().unwrap();
        if state["phase"] == "over" {
            if acted != step {
                acted = step;
                // Decimal text: 64 bits do not fit a JavaScript number.
                let seed = state["seed"].as_str().expect("the seed at game over");
                seeds.push(seed.parse::<u64>().unwrap());
                c.send(json!({"type": "next"})).await;
            }
            continue;
        }
        assert!(state["seed"].is_null(), "a seed before game over: {state}");
        if state["turn"] != state["you"] || acted == step {
            continue;
        }
        acted = step;
        let legal = &state["legal"];
        let action = if let Some(bids) = legal["bids"].as_array() {
            json!({"type": "bid", "bid": bids[0], "step": step})
        } else {
            json!({"type": "play", "move": legal["moves"][0], "step": step})
        };
        c.send(action).await;
    }
    seeds
}

#[tokio::test]
async fn no_deal_follows_from_what_came_before() {
    let app = app(config());
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"seats": ["human", "greedy", "greedy"], "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    let seeds = play(&addr, &room, 4).await;
    assert_eq!(seeds.iter().collect::<HashSet<_>>().len(), seeds.len());
    // 64-bit seeds: four below 2^32 would happen once in 2^128 rooms.
    assert!(seeds.iter().any(|&s| s > u64::from(u32::MAX)), "{seeds:?}");
    for k in 1..seeds.len() {
        let deal = deal_of(seeds[k]);
        // Everything revealed before game k + 1 was dealt: the earlier seeds. Neither they
        // nor their neighbours deal it.
        for &before in &seeds[..k] {
            for guess in before.saturating_sub(3)..=before.saturating_add(3) {
                assert_ne!(
                    deal,
                    deal_of(guess),
                    "game {} was dealt from seed {guess}, computable from seed {before}",
                    k + 1
                );
            }
        }
    }
}

#[tokio::test]
async fn client_seeds_only_with_one_person() {
    let app = app(config());
    for seats in [
        json!(["human", "human", "greedy"]),
        json!(["human", "human", "human"]),
    ] {
        let body = json!({"seats": seats, "seed": 5});
        let (status, _, reply) = call(&app, "POST", "/v1/rooms", body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(error.starts_with("\"seed\": a room with"), "{error}");
    }
    // Practice against robots: the seed deals game 1, and game n from seed + n - 1.
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"seats": ["human", "greedy", "greedy"], "seed": 41, "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    assert_eq!(play(&addr, &room, 2).await, [41, 42]);
}
