//! `POST /v1/analyse`: one game record analysed (复盘) by the search, as `ddz analyse` does
//! ([`ddz_bots::review`]), off the async threads and one analysis at a time, so that analysis
//! never takes the robots' or the rooms' threads: a request waits in a short queue for its
//! turn and is refused (503) when the queue is full.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use ddz_bots::review::{AnalysisOptions, analyse};
use ddz_game::{Budget, Seat};

use crate::api::record_body;
use crate::config::MAX_ANALYSIS_ITERS as MAX_ITERS;
use crate::http::{json_error, json_response};
use crate::limits::ClientAddr;
use crate::state::AppState;

/// Requests waiting for their turn at most; more are refused.
const MAX_WAITING: usize = 8;
/// The longest a request waits for its turn.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Reads `?seat=N|all&iters=N` (`iters` by default: the server's).
fn read_query(
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    default_iters: u64,
) -> Result<AnalysisOptions, String> {
    let Query(query) = query.map_err(|e| format!("query: {}", e.body_text()))?;
    if let Some(key) = query.keys().find(|k| *k != "seat" && *k != "iters") {
        return Err(format!(
            "query: unknown parameter \"{key}\" (parameters: seat, iters)"
        ));
    }
    let seats = match query.get("seat").map(String::as_str) {
        None | Some("all") => Seat::ALL.to_vec(),
        Some(s) => vec![
            s.parse::<u8>()
                .ok()
                .and_then(Seat::new)
                .ok_or_else(|| format!("\"seat\": \"{s}\" is not 0, 1, 2 or all"))?,
        ],
    };
    let iters = match query.get("iters") {
        None => default_iters,
        Some(n) => n
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_ITERS).contains(n))
            .ok_or_else(|| format!("\"iters\": \"{n}\" is not a number 1-{MAX_ITERS}"))?,
    };
    Ok(AnalysisOptions {
        seats,
        budget: Budget::Count(iters),
        ..AnalysisOptions::default()
    })
}

/// A 503 that says when to try again.
fn busy(message: &str) -> Response {
    let mut response = json_error(StatusCode::SERVICE_UNAVAILABLE, message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// `POST /v1/analyse[?seat=N|all&iters=N]`: the record's analysis (`ddz-analysis/1`); 400
/// for a record that does not parse or replay, 503 when the queue is full.
pub(crate) async fn analyse_record(
    State(state): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    if let Err(response) = state.limits.robot_request(ClientAddr::of(addr)) {
        return *response;
    }
    let options = match read_query(query, state.config.analysis_iters) {
        Ok(options) => options,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, e),
    };
    let record = match record_body(body) {
        Ok(record) => record,
        Err(response) => return *response,
    };
    let queue = &state.analyses;
    if queue.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
        queue.waiting.fetch_sub(1, Ordering::SeqCst);
        return busy("the analysis queue is full: try again in a few seconds");
    }
    let turn = tokio::time::timeout(MAX_WAIT, queue.running.clone().acquire_owned()).await;
    queue.waiting.fetch_sub(1, Ordering::SeqCst);
    let Ok(Ok(turn)) = turn else {
        return busy("no analysis could start within 60 s: try again later");
    };
    let work = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        analyse(&record, &options, &mut |_, _| {})
    });
    match work.await {
        Ok(Ok(analysis)) => json_response(StatusCode::OK, &analysis),
        Ok(Err(e)) => json_error(StatusCode::BAD_REQUEST, e.to_string()),
        Err(_) => json_error(StatusCode::INTERNAL_SERVER_ERROR, "the analysis failed"),
    }
}
