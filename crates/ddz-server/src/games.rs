//! `GET /v1/games` (finished games, newest first, a page at a time), `GET /v1/games/{id}`
//! (one game with its record) and `GET /v1/players/{id}/results` (a browser identity's
//! results against each robot, with the next level to try), from the database
//! ([`crate::db`]).

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;

use ddz_bots::{LEVELS, Level};
use serde::Serialize;

use crate::db::{Database, PlayerId, PlayerResults};
use crate::http::{json_error, json_response};
use crate::state::AppState;

/// The most games a page holds, and the default.
const MAX_PAGE: u32 = 100;

/// The wins in a row against a level after which the next level up is suggested.
pub const WINS_FOR_NEXT_LEVEL: u32 = 3;

/// The level suggested to a player who keeps winning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct NextLevel {
    /// The level to try (`level:4`).
    robot: String,
    /// The level beaten (`level:3`).
    after: String,
    /// The wins in a row against it.
    streak: u32,
}

/// `GET /v1/players/{id}/results`'s body: the results, and the suggestion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct ResultsBody {
    #[serde(flatten)]
    results: PlayerResults,
    /// The next level up, when the latest games were a run of
    /// [`WINS_FOR_NEXT_LEVEL`] wins against a level below the top that this server offers.
    next_level: Option<NextLevel>,
}

/// The level after the run of wins that ends the player's latest games, if this server
/// offers it (`offered`: the server's robots).
fn next_level(results: &PlayerResults, offered: &[String]) -> Option<NextLevel> {
    let latest = results.robots.first()?;
    let level = Level::parse(latest.robot.strip_prefix("level:")?).ok()?;
    let up = level.number() + 1;
    let robot = format!("level:{up}");
    (latest.streak >= WINS_FOR_NEXT_LEVEL && LEVELS.contains(&up) && offered.contains(&robot)).then(
        || NextLevel {
            robot,
            after: latest.robot.clone(),
            streak: latest.streak,
        },
    )
}

/// The database, or the 404 that says there is none.
fn database(state: &AppState) -> Result<std::sync::Arc<Database>, Box<Response>> {
    state.config.database.clone().ok_or_else(|| {
        Box::new(json_error(
            StatusCode::NOT_FOUND,
            "no games are kept: the server runs without a database (--db none)",
        ))
    })
}

/// Reads `?before=ID&limit=N`.
fn page_query(
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<(Option<i64>, u32), String> {
    let Query(query) = query.map_err(|e| format!("query: {}", e.body_text()))?;
    if let Some(key) = query.keys().find(|k| *k != "before" && *k != "limit") {
        return Err(format!(
            "query: unknown parameter \"{key}\" (parameters: before, limit)"
        ));
    }
    let before = match query.get("before") {
        None => None,
        Some(b) => Some(
            b.parse::<i64>()
                .ok()
                .filter(|&b| b > 0)
                .ok_or_else(|| format!("\"before\": \"{b}\" is not a game id"))?,
        ),
    };
    let limit = match query.get("limit") {
        None => MAX_PAGE,
        Some(l) => l
            .parse::<u32>()
            .ok()
            .filter(|l| (1..=MAX_PAGE).contains(l))
            .ok_or_else(|| format!("\"limit\": \"{l}\" is not a number 1-{MAX_PAGE}"))?,
    };
    Ok((before, limit))
}

/// `GET /v1/games[?before=ID&limit=N]`: `{"games": [...], "next"}`, newest first.
pub(crate) async fn list(
    State(state): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let db = match database(&state) {
        Ok(db) => db,
        Err(response) => return *response,
    };
    let (before, limit) = match page_query(query) {
        Ok(q) => q,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, e),
    };
    match tokio::task::spawn_blocking(move || db.games(before, limit)).await {
        Ok(Ok(page)) => json_response(StatusCode::OK, &page),
        Ok(Err(e)) => json_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Err(_) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the database task failed",
        ),
    }
}

/// `GET /v1/games/{id}`: the game with its record (404 when there is none).
pub(crate) async fn one(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let db = match database(&state) {
        Ok(db) => db,
        Err(response) => return *response,
    };
    let Some(number) = id.parse::<i64>().ok().filter(|&n| n > 0) else {
        let shown: String = id.chars().take(40).collect();
        return json_error(
            StatusCode::BAD_REQUEST,
            format!("\"{shown}\" is not a game id"),
        );
    };
    match tokio::task::spawn_blocking(move || db.game(number)).await {
        Ok(Ok(Some(game))) => json_response(StatusCode::OK, &game),
        Ok(Ok(None)) => json_error(StatusCode::NOT_FOUND, format!("no game {number}")),
        Ok(Err(e)) => json_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Err(_) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the database task failed",
        ),
    }
}

/// `GET /v1/players/{id}/results`: the results of the browser identity `id` against each robot
/// (the latest played first) and the next level to try; an identity never seen has none.
pub(crate) async fn player_results(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Response {
    let db = match database(&state) {
        Ok(db) => db,
        Err(response) => return *response,
    };
    let Some(player) = PlayerId::parse(&id) else {
        let shown: String = id.chars().take(40).collect();
        return json_error(
            StatusCode::BAD_REQUEST,
            format!("\"{shown}\" is not a browser identity (32 hex digits)"),
        );
    };
    match tokio::task::spawn_blocking(move || db.player_results(&player)).await {
        Ok(Ok(results)) => {
            let next_level = next_level(&results, &state.config.robots);
            json_response(
                StatusCode::OK,
                &ResultsBody {
                    results,
                    next_level,
                },
            )
        }
        Ok(Err(e)) => json_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Err(_) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the database task failed",
        ),
    }
}
