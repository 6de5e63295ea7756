//! `GET /v1/games` (finished games, newest first, a page at a time) and `GET
//! /v1/games/{id}` (one game with its record), from the database ([`crate::db`]).

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::db::Database;
use crate::http::{json_error, json_response};
use crate::state::AppState;

/// The most games a page holds, and the default.
const MAX_PAGE: u32 = 100;

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
