//! What the server runs with ([`Config`]) and its fixed limits on messages.

use ddz_core::Rules;
use std::sync::Arc;
use std::time::Duration;

/// The name of the room protocol, sent in every `welcome` message.
pub const WEB_PROTOCOL: &str = "ddz-web/1";

/// The largest request body read, in bytes (1 MiB, as a `ddz bot` line); larger ones get 413.
pub const MAX_BODY: usize = ddz_protocol::jsonl::MAX_LINE;

/// The largest WebSocket message read, in bytes (64 KiB); a larger one (a frame of at most
/// [`MAX_BODY`]) gets an error message and closes the connection with code 1009 (the seat
/// may reconnect).
pub const MAX_FRAME: usize = 64 * 1024;

/// Samples each play is scored on in `POST /v1/analyse` by default (`ddz serve
/// --analysis-iters`): about a third of a second for a classic game.
pub const DEFAULT_ANALYSIS_ITERS: u64 = 300;

/// The most samples a `POST /v1/analyse` request may ask for.
pub const MAX_ANALYSIS_ITERS: u64 = 1000;

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
    /// Robot requests (`/v1/act`, `/v1/bid`, `/v1/analyse`) one client address may make a
    /// minute (then 429 with `Retry-After`).
    pub robot_requests_per_minute: u32,
    /// TCP connections one client address may hold open (HTTP and WebSocket); one past it is
    /// closed as soon as it is accepted. Not applied behind a trusted proxy.
    pub tcp_per_address: usize,
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
    pub database: Option<Arc<crate::db::Database>>,
    /// How long a client has to send the head of a request (its line and headers) once it
    /// connected or began one; then its connection closes.
    pub header_time: Duration,
    /// How long a request's body may take to arrive once its head has (then 408).
    pub body_time: Duration,
    /// Samples each play is scored on by `POST /v1/analyse` when the request does not say
    /// (`?iters=`): what the page's analyses use.
    pub analysis_iters: u64,
}

impl Config {
    /// The defaults with these rules: every built-in robot and every level (`level:1` to
    /// `level:8`), `value` answering and hinting,
    /// 30 s turns, 700 ms robot pauses, rooms closed after 10 idle minutes, at most 1,000
    /// rooms, robot requests limited to 5 s, client seeds only in rooms with one person; per
    /// client address 10 rooms and 1,200 robot requests a minute, 64 WebSocket connections
    /// and 128 TCP connections; no other origin
    /// allowed, no proxy trusted; no database; 10 s for a request's head and 10 s for its
    /// body; analyses at 300 samples a play.
    pub fn new(rules: Rules) -> Config {
        Config {
            rules,
            robots: ddz_bots::BOT_NAMES
                .iter()
                .map(|s| s.to_string())
                .chain(ddz_bots::level_specs())
                .collect(),
            default_robot: "value".into(),
            hint_bot: "value".into(),
            turn_time: Duration::from_secs(30),
            robot_delay: Duration::from_millis(700),
            idle_expiry: Duration::from_secs(600),
            max_rooms: 1000,
            robot_time_limit: Duration::from_secs(5),
            seeds_for_any_room: false,
            rooms_per_minute: 10,
            robot_requests_per_minute: 1200,
            tcp_per_address: 128,
            connections_per_address: 64,
            allowed_origins: Vec::new(),
            trust_forwarded: false,
            database: None,
            header_time: Duration::from_secs(10),
            body_time: Duration::from_secs(10),
            analysis_iters: DEFAULT_ANALYSIS_ITERS,
        }
    }
}
