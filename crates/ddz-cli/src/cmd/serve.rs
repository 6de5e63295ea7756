//! `ddz serve`: the web game and the robot service (docs/web.md).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use ddz_server::Config;

use crate::common::RulesArgs;

/// The web game and the robot service on one address: the page at /, the robot API (POST
/// /v1/act and /v1/bid take a ddz-jsonl/1 request and answer its reply; GET /v1/health; POST
/// /v1/replay checks a game record), game rooms over WebSocket (ddz-web/1) and the OpenAPI
/// document at /openapi.json. Hidden cards stay on the server: each seat gets only its own
/// view. Logs go to stderr; Ctrl-C stops it.
#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on (port 0 picks a free port; the line on stderr names it).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    addr: String,
    /// The robots that may be asked for and seated, comma-separated (`search` without a
    /// budget of its own answers the API within half of --time-limit-ms); by default the
    /// seed robots, `search` and the eight difficulty levels, which the lobby offers first.
    #[arg(
        long,
        default_value = "random,greedy,value,ddzlib,search,level:1,level:2,level:3,level:4,level:5,level:6,level:7,level:8",
        value_name = "NAME,..."
    )]
    robots: String,
    /// The robot of /v1/act and /v1/bid requests that name none (?bot=NAME), and of the empty
    /// seats of a room created without "seats".
    #[arg(long, default_value = "value", value_name = "NAME")]
    bot: String,
    /// The robot that gives hints and plays for a person whose turn timer ran out.
    #[arg(long, default_value = "value", value_name = "NAME")]
    hint_bot: String,
    /// A person's seconds for a turn before the hint robot plays for them (0: no timer), for
    /// rooms created without "turn_seconds".
    #[arg(long, default_value_t = 30, value_name = "S")]
    turn_seconds: u64,
    /// Milliseconds a robot seat waits before acting, for rooms created without
    /// "robot_delay_ms".
    #[arg(long, default_value_t = 700, value_name = "MS")]
    robot_delay_ms: u64,
    /// Minutes without a message from a person after which a room is closed.
    #[arg(long, default_value_t = 10, value_name = "MIN")]
    idle_minutes: u64,
    /// The most rooms open at once.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    max_rooms: usize,
    /// Samples of the hidden hands each play is scored on in the analyses the page asks for
    /// (`POST /v1/analyse` without `iters`), 1-1000.
    #[arg(long, default_value_t = ddz_server::DEFAULT_ANALYSIS_ITERS, value_name = "N")]
    analysis_iters: u64,
    /// The longest a robot request may take, in milliseconds (then 503).
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    time_limit_ms: u64,
    /// Rooms one client address may create a minute (then 429 with Retry-After).
    #[arg(long, default_value_t = 10, value_name = "N")]
    rooms_per_minute: u32,
    /// Robot requests (`/v1/act`, `/v1/bid`, `/v1/analyse`) one client address may make a
    /// minute (then 429 with Retry-After).
    #[arg(long, default_value_t = 1200, value_name = "N")]
    robot_requests_per_minute: u32,
    /// TCP connections (HTTP and WebSocket) one client address may hold open; one past it is
    /// closed as soon as it is accepted (not applied with --trust-forwarded: every connection
    /// is then the proxy's).
    #[arg(long, default_value_t = 128, value_name = "N")]
    tcp_per_address: usize,
    /// WebSocket connections one client address may hold open at once (then 429).
    #[arg(long, default_value_t = 64, value_name = "N")]
    connections_per_address: usize,
    /// An origin besides the server's own whose pages may open rooms and their WebSockets
    /// (`https://host[:port]`); repeatable or comma-separated.
    #[arg(long, value_name = "ORIGIN", value_delimiter = ',')]
    allow_origin: Vec<String>,
    /// Behind a reverse proxy: count limits by the last address of X-Forwarded-For and take
    /// X-Forwarded-Host as the server's own origin. Only when every request comes through
    /// the proxy.
    #[arg(long)]
    trust_forwarded: bool,
    /// The games database: every finished game and each room's totals, listed by GET
    /// /v1/games, and every open room as it plays, resumed at the next start (after a
    /// shutdown or a crash). A SQLite file (PATH), or a PostgreSQL server
    /// (postgres://USER[:PASSWORD]@HOST[:PORT]/DB), which several instances share (each then
    /// needs --advertise); `none` keeps nothing. Default: ddz/games.sqlite3 under the user's
    /// data directory ($XDG_DATA_HOME or ~/.local/share).
    #[arg(long, value_name = "PATH|URL|none")]
    db: Option<String>,
    /// The URL at which clients reach this instance (http[s]://HOST[:PORT][/PREFIX]), when
    /// several instances share one PostgreSQL database: the rooms this instance runs are
    /// leased under it, and a client that asks another instance for one of them is sent here.
    /// A restart with the same URL takes back its rooms at once.
    #[arg(long, value_name = "URL")]
    advertise: Option<String>,
    /// How long a room's lease lasts without renewal (1 to 600): an instance renews its
    /// leases every third of it, and another takes over the rooms of one that died within a
    /// lease and a half.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    lease_seconds: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Opens the games database `db` names (a PostgreSQL URL or a SQLite file), its rooms
/// leased under `advertise` (none: a single instance) for `lease`.
fn open_db(
    db: &str,
    advertise: Option<&str>,
    lease: Duration,
) -> Result<std::sync::Arc<ddz_server::db::Database>> {
    use ddz_server::db::Database;
    let postgres = db.starts_with("postgres://") || db.starts_with("postgresql://");
    let database = if postgres {
        let Some(_) = advertise else {
            bail!(
                "--db {}: several instances may share a PostgreSQL database: give --advertise \
                 URL, the address clients reach this instance at",
                db.split('@').next_back().unwrap_or(db)
            );
        };
        Database::connect(db)
    } else {
        Database::open(std::path::Path::new(db))
    }
    .map_err(|e| anyhow!("--db: {e}"))?;
    let database = match advertise {
        Some(url) => database.with_owner(url, lease),
        None => database.with_owner(ddz_server::db::LOCAL_OWNER, lease),
    };
    Ok(std::sync::Arc::new(database))
}

/// The URL given to --advertise, checked: http or https, a host, no query; no trailing slash.
fn advertised(url: &str) -> Result<String> {
    let trimmed = url.trim_end_matches('/');
    let valid = trimmed.split_once("://").is_some_and(|(scheme, rest)| {
        matches!(scheme, "http" | "https")
            && !rest.is_empty()
            && !rest.starts_with('/')
            && !rest.contains(['?', '#', ' '])
    });
    if !valid {
        bail!("--advertise \"{url}\": expected http[s]://HOST[:PORT][/PREFIX]");
    }
    Ok(trimmed.to_string())
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load()?;
    let addr: SocketAddr = args.addr.parse().with_context(|| {
        format!(
            "--addr \"{}\": expected IP:PORT, e.g. 127.0.0.1:8080",
            args.addr
        )
    })?;
    let robots: Vec<String> = args
        .robots
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if robots.is_empty() {
        bail!("--robots: name at least one robot");
    }
    for name in &robots {
        ddz_bots::make_bot(name, 0).map_err(|e| anyhow!("--robots: {e}"))?;
    }
    if !robots.contains(&args.bot) {
        bail!(
            "--bot \"{}\" is not one of --robots ({})",
            args.bot,
            robots.join(", ")
        );
    }
    ddz_bots::make_bot(&args.hint_bot, 0).map_err(|e| anyhow!("--hint-bot: {e}"))?;
    if args.turn_seconds > 600 {
        bail!("--turn-seconds {}: at most 600", args.turn_seconds);
    }
    if !(1..=ddz_server::MAX_ANALYSIS_ITERS).contains(&args.analysis_iters) {
        bail!(
            "--analysis-iters {}: 1 to {}",
            args.analysis_iters,
            ddz_server::MAX_ANALYSIS_ITERS
        );
    }
    if args.robot_delay_ms > 5000 {
        bail!("--robot-delay-ms {}: at most 5000", args.robot_delay_ms);
    }
    if args.idle_minutes == 0
        || args.max_rooms == 0
        || args.time_limit_ms == 0
        || args.rooms_per_minute == 0
        || args.robot_requests_per_minute == 0
        || args.tcp_per_address == 0
        || args.connections_per_address == 0
    {
        bail!(
            "--idle-minutes, --max-rooms, --time-limit-ms, --rooms-per-minute and \
             --connections-per-address must be at least 1"
        );
    }
    for origin in &args.allow_origin {
        let valid = origin.split_once("://").is_some_and(|(scheme, host)| {
            matches!(scheme, "http" | "https") && !host.is_empty() && !host.contains('/')
        });
        if !valid {
            bail!(
                "--allow-origin \"{origin}\": expected http://HOST[:PORT] or https://HOST[:PORT]"
            );
        }
    }
    let mut config = Config::new(rules);
    config.robots = robots;
    config.default_robot = args.bot;
    config.hint_bot = args.hint_bot;
    config.turn_time = Duration::from_secs(args.turn_seconds);
    config.analysis_iters = args.analysis_iters;
    config.robot_delay = Duration::from_millis(args.robot_delay_ms);
    config.idle_expiry = Duration::from_secs(args.idle_minutes * 60);
    config.max_rooms = args.max_rooms;
    config.robot_time_limit = Duration::from_millis(args.time_limit_ms);
    config.rooms_per_minute = args.rooms_per_minute;
    config.robot_requests_per_minute = args.robot_requests_per_minute;
    config.tcp_per_address = args.tcp_per_address;
    config.connections_per_address = args.connections_per_address;
    config.allowed_origins = args.allow_origin;
    config.trust_forwarded = args.trust_forwarded;
    if !(1..=600).contains(&args.lease_seconds) {
        bail!("--lease-seconds {}: 1 to 600", args.lease_seconds);
    }
    let lease = Duration::from_secs(args.lease_seconds);
    let advertise = args.advertise.as_deref().map(advertised).transpose()?;
    if advertise.is_some() && args.db.as_deref() == Some("none") {
        bail!("--advertise names this instance for a shared database: not with --db none");
    }
    let advertise = advertise.as_deref();
    config.database = match args.db.as_deref() {
        Some("none") => None,
        // SQLite takes an empty path for a temporary database, lost at exit: not what a
        // server's database is for (issue 50).
        Some(path) if path.trim().is_empty() => {
            bail!("--db: an empty path (give a file, or none to keep no games)")
        }
        Some(db) => Some(open_db(db, advertise, lease)?),
        None => match ddz_server::db::default_path() {
            Some(path) => Some(open_db(&path.to_string_lossy(), advertise, lease)?),
            None => bail!(
                "--db: no data directory ($XDG_DATA_HOME, $HOME): pass --db PATH or --db none"
            ),
        },
    };
    ddz_server::run(addr, config, |bound| {
        eprintln!("ddz serve: listening on http://{bound}");
    })
    .with_context(|| format!("serving on {addr}"))
}
