//! # ddz-server
//!
//! The web game and robot service behind `ddz serve` (docs/web.md): one axum application
//! with
//!
//! - the robot API: `POST /v1/act` and `POST /v1/bid` take exactly a `ddz-jsonl/1` request
//!   (docs/protocol.md) and answer with its reply, as `ddz bot` does on a line; `GET
//!   /v1/health`; `POST /v1/replay` checks a game record and returns it step by step; the
//!   OpenAPI document at `/openapi.json`;
//! - game rooms over WebSocket (`POST /v1/rooms`, then `GET /v1/rooms/{id}/ws`) speaking
//!   `ddz-web/1`: one task per room owns the game ([`room::Room`]), each message is built
//!   from one seat's view, seats are joined with random 128-bit tokens, a turn timer plays
//!   for an absent person, a reconnect resumes from the last message number, idle rooms
//!   expire;
//! - the page (`/`): plain HTML, CSS and JavaScript embedded in the binary;
//! - the games database ([`db`], SQLite): finished games and rooms' totals, listed by `GET
//!   /v1/games` and `GET /v1/games/{id}`, and the rooms open at a shutdown, resumed at the
//!   next start;
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

mod api;
mod assets;
pub mod db;
mod games;
mod limits;
mod resume;
pub mod room;
mod rooms;
pub mod seeds;
pub mod wire;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use ddz_core::Rules;

pub use api::{Endpoint, robot_answer};

/// The name of the room protocol, sent in every `welcome` message.
pub const WEB_PROTOCOL: &str = "ddz-web/1";

/// The largest request body read, in bytes (1 MiB, as a `ddz bot` line); larger ones get 413.
pub const MAX_BODY: usize = ddz_protocol::jsonl::MAX_LINE;

/// The largest WebSocket message read, in bytes (64 KiB); a larger one (a frame of at most
/// [`MAX_BODY`]) gets an error message and closes the connection with code 1009 (the seat
/// may reconnect).
pub const MAX_FRAME: usize = 64 * 1024;

/// What the server runs with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rules of robot requests without `"rules"` and of rooms created without `"rules"`.
    pub rules: Rules,
    /// The robots that may be asked for (API) or seated (rooms).
    pub robots: Vec<String>,
    /// The robot of a request that names none (`/v1/act?bot=NAME`).
    pub default_robot: String,
    /// The robot that gives hints and plays for a person whose turn timer ran out.
    pub hint_bot: String,
    /// A person's time for a turn before the hint robot plays for them (zero: no timer),
    /// for rooms created without `"turn_seconds"`.
    pub turn_time: Duration,
    /// The pause before a robot seat acts, so people can follow (rooms without
    /// `"robot_delay_ms"`).
    pub robot_delay: Duration,
    /// A room with no message from a person for this long is closed.
    pub idle_expiry: Duration,
    /// The most rooms open at once; creating another gets 429.
    pub max_rooms: usize,
    /// The longest a robot request may take; past it the answer is 503.
    pub robot_time_limit: Duration,
    /// Whether a room with two or three people may be dealt from a client's `"seed"`. False
    /// by default: only a room with at most one person may (practice and replays), since
    /// whoever knows the seed knows every hand; true only for tests and private tables.
    pub seeds_for_any_room: bool,
    /// Rooms one client address may create a minute (all at once, then evenly; beyond it 429
    /// with `Retry-After`).
    pub rooms_per_minute: u32,
    /// WebSocket connections one client address may hold open at once (then 429).
    pub connections_per_address: usize,
    /// Origins besides the server's own (`https://host:port`) whose pages may open rooms'
    /// WebSockets and send POSTs; a request with another `Origin` gets 403, one without it
    /// (not from a browser) goes on.
    pub allowed_origins: Vec<String>,
    /// Whether the server sits behind a reverse proxy it trusts: the client address is then
    /// the last of `X-Forwarded-For` and the own origin may be `X-Forwarded-Host`.
    pub trust_forwarded: bool,
    /// The games database: every finished game and each room's totals are saved there and
    /// listed by `GET /v1/games`; none: nothing is saved (`--db none`).
    pub database: Option<Arc<db::Database>>,
}

impl Config {
    /// The defaults with these rules: every built-in robot, `value` answering and hinting,
    /// 30 s turns, 700 ms robot pauses, rooms closed after 10 idle minutes, at most 1,000
    /// rooms, robot requests limited to 5 s, client seeds only in rooms with one person; per
    /// client address 10 rooms a minute and 64 WebSocket connections; no other origin
    /// allowed, no proxy trusted; no database.
    pub fn new(rules: Rules) -> Config {
        Config {
            rules,
            robots: ddz_bots::BOT_NAMES.iter().map(|s| s.to_string()).collect(),
            default_robot: "value".into(),
            hint_bot: "value".into(),
            turn_time: Duration::from_secs(30),
            robot_delay: Duration::from_millis(700),
            idle_expiry: Duration::from_secs(600),
            max_rooms: 1000,
            robot_time_limit: Duration::from_secs(5),
            seeds_for_any_room: false,
            rooms_per_minute: 10,
            connections_per_address: 64,
            allowed_origins: Vec::new(),
            trust_forwarded: false,
            database: None,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub config: Arc<Config>,
    pub rooms: Arc<rooms::Rooms>,
    /// Bounds the robot requests computed at once (the others wait, within the time limit).
    pub robot_slots: Arc<tokio::sync::Semaphore>,
    /// The limits per client address.
    pub limits: Arc<limits::Limits>,
}

/// The routes of the application, as the OpenAPI document lists them (checked by a test).
pub const ROUTES: [&str; 10] = [
    "/",
    "/openapi.json",
    "/v1/health",
    "/v1/act",
    "/v1/bid",
    "/v1/replay",
    "/v1/rooms",
    "/v1/rooms/{id}/ws",
    "/v1/games",
    "/v1/games/{id}",
];

/// The whole application: page, robot API and rooms.
pub fn app(config: Config) -> Router {
    build(config).0
}

/// The application and the state its handlers share.
fn build(config: Config) -> (Router, AppState) {
    let slots = std::thread::available_parallelism().map_or(2, |n| n.get() * 2);
    let state = AppState {
        rooms: Arc::new(rooms::Rooms::new(config.max_rooms)),
        limits: Arc::new(limits::Limits::new(
            config.rooms_per_minute,
            config.connections_per_address,
        )),
        config: Arc::new(config),
        robot_slots: Arc::new(tokio::sync::Semaphore::new(slots)),
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
        .route("/v1/rooms", post(rooms::create))
        .route("/v1/rooms/{id}/ws", get(ws::upgrade))
        .route("/v1/games", get(games::list))
        .route("/v1/games/{id}", get(games::one))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::guard,
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
/// connections have closed (at most 5 s later). Before serving, the rooms saved in the
/// database at the last shutdown open again, as they were.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    config: Config,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (router, state) = build(config);
    resume::resume_rooms(&state).await;
    let (fired, on_fire) = tokio::sync::oneshot::channel();
    let rooms = state.rooms.clone();
    let shutdown = async move {
        signal.await;
        rooms.shutdown();
        let _ = fired.send(());
    };
    let app = router.into_make_service_with_connect_info::<SocketAddr>();
    let server = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .into_future();
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
    // Whichever way serving ended, every room saves its state.
    state.rooms.shutdown();
    resume::save_rooms(&state, SHUTDOWN_GRACE).await;
    result
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
