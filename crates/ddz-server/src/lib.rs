//! # ddz-server
//!
//! The web game and robot service behind `ddz serve` (docs/web.md): one axum application
//! with
//!
//! - the robot API: `POST /v1/act` and `POST /v1/bid` take exactly a `ddz-jsonl/1` request
//!   (docs/protocol.md) and answer with its reply, as `ddz bot` does on a line; `GET
//!   /v1/health`; `POST /v1/replay` checks a game record and returns it step by step; `POST
//!   /v1/analyse` rates its plays by the search (one analysis at a time, queued); the
//!   OpenAPI document at `/openapi.json`;
//! - game rooms over WebSocket (`POST /v1/rooms`, then `GET /v1/rooms/{id}/ws`) speaking
//!   `ddz-web/1`: one task per room owns the game ([`room::Room`]), each message is built
//!   from one seat's view, seats are joined with random 128-bit tokens, a turn timer plays
//!   for an absent person, a reconnect resumes from the last message number, idle rooms
//!   expire;
//! - the page (`/`): plain HTML, CSS and JavaScript embedded in the binary;
//! - the games database ([`db`], SQLite, or PostgreSQL shared by several instances):
//!   finished games and rooms' totals, listed by `GET /v1/games` and `GET /v1/games/{id}`,
//!   each browser identity's results against each robot (`GET /v1/players/{id}/results`,
//!   with the next level to try), and every open room, each action committed before anyone
//!   is told of it ([`journal`]), resumed at the next start or taken over by another
//!   instance when its own dies (leases, `resume.rs`);
//! - limits per client address, `Origin` and `Content-Type` checks, and a graceful shutdown
//!   on SIGTERM or Ctrl-C ([`serve_until`]).
//!
//! Bad input gets a 4xx answer with a JSON body `{"error": "..."}` that says what and where.
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_server::{Config, Endpoint, robot_answer};
//!
//! let config = Config::new(Rules::classic());
//! let _app = ddz_server::app(config); // an axum Router, ready for axum::serve
//!
//! let request = r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": 1, "seat": 0,
//!     "landlord_seat": 0, "role": "landlord", "hand": "33", "cards_left": [2, 17, 17],
//!     "history": [], "last": null}"#;
//! let (status, reply) = robot_answer(Endpoint::Act, request.as_bytes(), "greedy", 1, &Rules::classic());
//! assert_eq!(status, 200);
//! assert_eq!(reply.to_string(), r#"{"id":1,"cards":"3"}"#); // greedy leads its smallest play
//! ```

mod analysis;
mod api;
mod assets;
mod config;
pub mod db;
mod games;
mod guard;
mod http;
pub mod journal;
mod limits;
pub mod listener;
mod registry;
mod resume;
pub mod room;
mod rooms;
pub mod seeds;
mod state;
pub mod wire;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use state::AppState;

pub use api::{Endpoint, robot_answer};
pub use config::{
    Config, DEFAULT_ANALYSIS_ITERS, MAX_ANALYSIS_ITERS, MAX_BODY, MAX_FRAME, WEB_PROTOCOL,
};

/// The routes of the application, as the OpenAPI document lists them (checked by a test).
pub const ROUTES: [&str; 12] = [
    "/",
    "/openapi.json",
    "/v1/health",
    "/v1/act",
    "/v1/bid",
    "/v1/replay",
    "/v1/analyse",
    "/v1/rooms",
    "/v1/rooms/{id}/ws",
    "/v1/games",
    "/v1/games/{id}",
    "/v1/players/{id}/results",
];

/// The whole application: page, robot API and rooms.
pub fn app(config: Config) -> Router {
    build(config).0
}

/// The application and the state its handlers share.
fn build(config: Config) -> (Router, AppState) {
    let slots = std::thread::available_parallelism().map_or(2, |n| n.get() * 2);
    let state = AppState {
        rooms: Arc::new(registry::Rooms::new(config.max_rooms)),
        journal: config
            .database
            .clone()
            .map(|db| Arc::new(journal::Journal::start(db))),
        limits: Arc::new(limits::Limits::new(
            config.rooms_per_minute,
            config.robot_requests_per_minute,
            config.connections_per_address,
        )),
        config: Arc::new(config),
        robot_slots: Arc::new(tokio::sync::Semaphore::new(slots)),
        robot_slots_total: slots,
        analyses: Arc::new(state::AnalysisQueue::new()),
        takeover: Arc::new(tokio::sync::Mutex::new(())),
    };
    let router = Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::icon))
        .route("/openapi.json", get(assets::openapi))
        .route("/v1/health", get(api::health))
        .route("/v1/act", post(api::act))
        .route("/v1/bid", post(api::bid))
        .route("/v1/replay", post(api::replay))
        .route("/v1/analyse", post(analysis::analyse_record))
        .route("/v1/rooms", post(rooms::create))
        .route("/v1/rooms/{id}/ws", get(ws::upgrade))
        .route("/v1/games", get(games::list))
        .route("/v1/games/{id}", get(games::one))
        .route("/v1/players/{id}/results", get(games::player_results))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state.clone());
    (router, state)
}

/// How long connections have to close after a shutdown signal before the server stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `app(config)` on `listener` until Ctrl-C (SIGINT) or SIGTERM: see [`serve_until`].
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    serve_until(listener, config, shutdown_signal()).await
}

/// Serves `app(config)` on `listener` until `signal` completes; then stops accepting, sends
/// every room's connections `{"type": "closed", "reason": "server shutting down"}` and a
/// close frame (1001), saves every room in the database (with one) and returns once the
/// connections have closed (at most 5 s later); an error when the rooms could not be saved.
/// Before serving, the rooms saved in the database at the last shutdown open again, as they
/// were.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    config: Config,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (router, state) = build(config);
    resume::resume_rooms(&state).await;
    let heartbeat = tokio::spawn(resume::keep_leases(state.clone()));
    let (fired, on_fire) = tokio::sync::oneshot::channel();
    let rooms = state.rooms.clone();
    let shutdown = async move {
        signal.await;
        rooms.shutdown();
        let _ = fired.send(());
    };
    // Behind a trusted proxy every connection is the proxy's: the cap is its to keep.
    let per_address = (!state.config.trust_forwarded).then_some(state.config.tcp_per_address);
    let listener = listener::PeerCapped::new(listener, per_address);
    let server = listener::serve(listener, router, state.config.header_time, shutdown);
    let grace = async {
        match on_fire.await {
            Ok(()) => tokio::time::sleep(SHUTDOWN_GRACE).await,
            Err(_) => std::future::pending().await,
        }
    };
    let result = tokio::select! {
        result = server => result,
        () = grace => Ok(()),
    };
    // Whichever way serving ended, every room saves its state; rooms that could not be saved
    // make the end an error (issue 50: the server exited 0 having lost them).
    state.rooms.shutdown();
    let saved = resume::save_rooms(&state, SHUTDOWN_GRACE).await;
    heartbeat.abort();
    result?;
    saved.map_err(std::io::Error::other)
}

/// Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    if let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
    {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        return;
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Binds `addr`, calls `ready` with the address bound (port 0 picks a free one) and serves
/// until Ctrl-C or SIGTERM ([`serve`]), on a runtime of its own.
pub fn run(
    addr: SocketAddr,
    config: Config,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        serve(listener, config).await
    })
}
