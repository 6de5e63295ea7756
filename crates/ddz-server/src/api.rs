//! The robot API (`/v1/act`, `/v1/bid`), `/v1/health`, `/v1/replay` and the JSON errors.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Query, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use ddz_bots::make_bot;
use ddz_core::Rules;
use ddz_game::{BySeat, GameRecord, Step};
use ddz_protocol::jsonl::{self as protocol, ErrorCode, Request, error_reply, rejection_reply};
use serde_json::Value;
use tokio::time::Instant;

use crate::http::{json_error, json_response, read_body};
use crate::limits::ClientAddr;
use crate::state::AppState;
use crate::wire::{Health, ReplayFailure, ReplayReply, ReplayStep, StepKind};

/// Which robot endpoint a request came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /v1/act`: an `act` request.
    Act,
    /// `POST /v1/bid`: a `bid` request.
    Bid,
}

impl Endpoint {
    fn name(self) -> &'static str {
        match self {
            Endpoint::Act => "act",
            Endpoint::Bid => "bid",
        }
    }
}

/// The reply to a robot request, as `ddz bot` gives it on a line, with its HTTP status: 200
/// and the reply; 400 and `{"id", "error"}` for a request that is not a checked
/// `ddz-jsonl/1` request of this endpoint's type or that names an unknown robot; 500 only if
/// the robot failed (it panicked or chose an action it was not allowed).
pub fn robot_answer(
    endpoint: Endpoint,
    body: &[u8],
    bot: &str,
    seed: u64,
    rules: &Rules,
) -> (u16, Value) {
    let line = match std::str::from_utf8(body) {
        Ok(line) => line,
        Err(e) => {
            return (
                400,
                error_reply(
                    &Value::Null,
                    ErrorCode::NotJson,
                    &format!("not JSON: not UTF-8 ({e})"),
                ),
            );
        }
    };
    let incoming = match protocol::parse_request(line, rules) {
        Ok(incoming) => incoming,
        Err(r) => return (400, rejection_reply(&r)),
    };
    let kind = match &incoming.request {
        Request::Act(_) => "act",
        Request::Bid(_) => "bid",
        Request::Double(_) => "double",
        Request::Show(_) => "show",
        Request::Hello => "hello",
        Request::Result { .. } => "result",
    };
    if kind != endpoint.name() {
        let message = format!(
            "/v1/{0} takes a \"{0}\" request, not \"{kind}\"",
            endpoint.name()
        );
        return (
            400,
            error_reply(&incoming.id, ErrorCode::WrongEndpoint, &message),
        );
    }
    let mut robot = match make_bot(bot, seed) {
        Ok(robot) => robot,
        Err(e) => {
            return (
                400,
                error_reply(
                    &incoming.id,
                    ErrorCode::UnknownRobot,
                    &format!("\"bot\": {e}"),
                ),
            );
        }
    };
    let id = incoming.id.clone();
    let name = robot.name().to_string();
    match catch_unwind(AssertUnwindSafe(|| {
        protocol::reply(robot.as_mut(), &name, incoming)
    })) {
        Ok(reply) if reply.get("error").is_some() => (500, reply),
        Ok(reply) => (200, reply),
        Err(_) => (
            500,
            error_reply(
                &id,
                ErrorCode::InternalError,
                "internal error: the robot failed on this request",
            ),
        ),
    }
}

/// `?bot=NAME&seed=N` of a robot request.
fn robot_query(
    state: &AppState,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<(String, u64), Box<Response>> {
    let bad = |code: ErrorCode, message: String| {
        Box::new(json_response(
            StatusCode::BAD_REQUEST,
            &error_reply(&Value::Null, code, &message),
        ))
    };
    let Query(query) =
        query.map_err(|e| bad(ErrorCode::BadQuery, format!("query: {}", e.body_text())))?;
    if let Some(key) = query.keys().find(|k| *k != "bot" && *k != "seed") {
        return Err(bad(
            ErrorCode::BadQuery,
            format!("query: unknown parameter \"{key}\" (parameters: bot, seed)"),
        ));
    }
    let bot = query
        .get("bot")
        .cloned()
        .unwrap_or_else(|| state.config.default_robot.clone());
    if !state.config.robots.contains(&bot) {
        return Err(bad(
            ErrorCode::UnknownRobot,
            format!(
                "\"bot\": unknown robot \"{bot}\" (robots: {})",
                state.config.robots.join(", ")
            ),
        ));
    }
    let seed = match query.get("seed") {
        None => 1,
        Some(s) => s.parse::<u64>().map_err(|_| {
            bad(
                ErrorCode::BadQuery,
                format!("\"seed\": \"{s}\" is not a number 0-18446744073709551615"),
            )
        })?,
    };
    Ok((bot, seed))
}

/// The search robot without a budget of its own gets half the time that remains before the
/// request's deadline, so that it answers in time; other robot specs are kept as they are.
fn within_time(bot: &str, remaining: Duration) -> String {
    let mut parts = bot.split(':');
    let searching = parts.next() == Some("search");
    let budgeted = bot
        .split(':')
        .any(|o| o.starts_with("time=") || o.starts_with("iters="));
    if searching && !budgeted {
        format!("{bot}:time={}ms", (remaining.as_millis() / 2).max(1))
    } else {
        bot.to_string()
    }
}

/// The longest a robot request waits for a robot to be free, as a share of the time limit
/// (a quarter): a request that would wait longer is refused, since it could not be answered
/// in time.
const WAIT_SHARE: u32 = 4;

/// 503 with `Retry-After: 1`: the robots are busy or the robot ran out of time.
fn unavailable(message: String) -> Response {
    let mut response = json_error(StatusCode::SERVICE_UNAVAILABLE, message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// Answers a robot request off the async threads, by its deadline: the time limit from the
/// request's arrival. A request that finds no robot free within a quarter of the limit is
/// refused then (503), and the search robot's budget is what remains.
async fn robot_request(
    endpoint: Endpoint,
    state: AppState,
    addr: Option<Extension<ClientAddr>>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let arrival = Instant::now();
    let client = ClientAddr::of(addr);
    if let Err(response) = state.limits.robot_request(client) {
        return *response;
    }
    let (bot, seed) = match robot_query(&state, query) {
        Ok(q) => q,
        Err(response) => return *response,
    };
    let body = match read_body(body) {
        Ok(body) => body,
        Err(response) => return *response,
    };
    let limit = state.config.robot_time_limit;
    let deadline = arrival + limit;
    // Half the robots' threads at most for one address (one at least).
    let at_once = (state.robot_slots_total / 2).max(1);
    let running = match state.limits.robot_running(client, at_once) {
        Ok(running) => running,
        Err(response) => return *response,
    };
    let slots = state.robot_slots.clone();
    let slot = match slots.clone().try_acquire_owned() {
        Ok(slot) => slot,
        Err(_) => {
            match tokio::time::timeout_at(arrival + limit / WAIT_SHARE, slots.acquire_owned()).await
            {
                Ok(Ok(slot)) => slot,
                _ => {
                    return unavailable(format!(
                        "every robot is busy: this request could not be answered within {} ms",
                        limit.as_millis()
                    ));
                }
            }
        }
    };
    let bot = within_time(&bot, deadline.saturating_duration_since(Instant::now()));
    let rules = state.config.rules.clone();
    // The slot is held until the robot is done, even past the deadline.
    let work = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let _running = running;
        robot_answer(endpoint, &body, &bot, seed, &rules)
    });
    match tokio::time::timeout_at(deadline, work).await {
        Ok(Ok((status, reply))) => json_response(
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            &reply,
        ),
        Ok(Err(_)) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the robot task failed",
        ),
        Err(_) => unavailable(format!(
            "the robot did not answer within {} ms",
            limit.as_millis()
        )),
    }
}

/// `POST /v1/act`.
pub(crate) async fn act(
    State(state): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    robot_request(Endpoint::Act, state, addr, query, body).await
}

/// `POST /v1/bid`.
pub(crate) async fn bid(
    State(state): State<AppState>,
    addr: Option<Extension<ClientAddr>>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    robot_request(Endpoint::Bid, state, addr, query, body).await
}

/// `GET /v1/health`.
pub(crate) async fn health(State(state): State<AppState>) -> Response {
    let failing = state.journal.as_ref().and_then(|j| j.failing());
    let database = match (&state.journal, &failing) {
        (None, _) => "none".to_string(),
        (Some(_), None) => "ok".to_string(),
        (Some(_), Some(e)) => format!("writes failing: {e}"),
    };
    let health = Health {
        status: if failing.is_some() { "degraded" } else { "ok" }.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        protocols: vec![
            protocol::PROTOCOL.into(),
            crate::config::WEB_PROTOCOL.into(),
        ],
        rules: state.config.rules.profile,
        robots: state.config.robots.clone(),
        rooms: state.rooms.len(),
        database,
    };
    let status = if failing.is_some() {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    json_response(status, &health)
}

/// A body that is a game record (`/v1/replay`, `/v1/analyse`), read, or the 4xx that says
/// what is wrong.
pub(crate) fn record_body(
    body: Result<Bytes, BytesRejection>,
) -> Result<GameRecord, Box<Response>> {
    let body = read_body(body)?;
    let Ok(text) = std::str::from_utf8(&body) else {
        return Err(Box::new(json_error(
            StatusCode::BAD_REQUEST,
            "json: not UTF-8",
        )));
    };
    GameRecord::parse(text)
        .map_err(|e| Box::new(json_error(StatusCode::BAD_REQUEST, e.to_string())))
}

/// `POST /v1/replay`: a game record (`ddz-record/1`) checked and returned step by step.
pub(crate) async fn replay(body: Result<Bytes, BytesRejection>) -> Response {
    let record = match record_body(body) {
        Ok(record) => record,
        Err(response) => return *response,
    };
    let deal = match record.deal.to_deal(&record.rules) {
        Ok(deal) => deal,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, format!("deal: {e}")),
    };
    let mut steps = vec![ReplayStep {
        kind: StepKind::Deal,
        text: "deal".into(),
        seat: None,
        hands: BySeat::from_fn(|s| deal.hands[s].to_cards().to_string()),
        landlord: None,
        laizi: None,
        play: None,
        bid: None,
        multiplier: None,
    }];
    let outcome = record.replay_each(|game, step| {
        let (kind, bid) = match &step.step {
            Step::Bid { bid, .. } => (StepKind::Bid, Some(*bid)),
            Step::Play { .. } => (StepKind::Play, None),
            Step::Landlord => (StepKind::Landlord, None),
            _ => (StepKind::Redeal, None),
        };
        steps.push(ReplayStep {
            kind,
            text: step.to_string(),
            seat: Some(step.seat),
            hands: BySeat::from_fn(|s| game.hand(s).to_string()),
            landlord: game.landlord(),
            laizi: Some(game.laizi()),
            play: step.notation.clone(),
            bid,
            multiplier: Some(game.multiplier()),
        });
    });
    match outcome {
        Ok(game) => {
            let reply = ReplayReply {
                ok: true,
                rules: record.rules.profile,
                seed: record.seed,
                kitty: deal.kitty.to_cards().to_string(),
                steps,
                result: game.result().cloned(),
            };
            json_response(StatusCode::OK, &reply)
        }
        Err(e) => {
            let failure = ReplayFailure {
                error: e.to_string(),
                steps,
            };
            json_response(StatusCode::BAD_REQUEST, &failure)
        }
    }
}

/// Any other path: 404.
pub(crate) async fn not_found(method: Method, uri: Uri) -> Response {
    json_error(
        StatusCode::NOT_FOUND,
        format!("no route {method} {} (see /openapi.json)", uri.path()),
    )
}

/// A known path with another method: 405.
pub(crate) async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    json_error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} does not take {method} (see /openapi.json)", uri.path()),
    )
}

#[cfg(test)]
mod tests {
    use super::within_time;
    use std::time::Duration;

    #[test]
    fn search_without_a_budget_gets_half_the_time_limit() {
        let limit = Duration::from_secs(5);
        assert_eq!(within_time("search", limit), "search:time=2500ms");
        assert_eq!(
            within_time("search:threads=2", limit),
            "search:threads=2:time=2500ms"
        );
        assert_eq!(within_time("search:iters=100", limit), "search:iters=100");
        assert_eq!(within_time("search:time=1s", limit), "search:time=1s");
        assert_eq!(within_time("value", limit), "value");
    }
}
