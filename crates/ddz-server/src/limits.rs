//! What a client may ask of the server (docs/web.md, "Security model"): limits per client
//! address on room creation, robot requests (`/v1/act`, `/v1/bid`, `/v1/analyse`) and
//! WebSocket connections, the `Origin` of WebSocket upgrades and
//! POSTs, and JSON bodies only with `Content-Type: application/json`.
//!
//! The client address is the peer's (IPv6 addresses counted per /64), or with
//! [`crate::Config::trust_forwarded`] the last address of `X-Forwarded-For` (the one the
//! reverse proxy in front of the server added). A request whose address is not known (an
//! application called in-process) counts as one unknown address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use tokio::time::Instant;

use crate::http::json_error;

/// The address a request counts against (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ClientAddr(pub Option<IpAddr>);

impl ClientAddr {
    /// The address the guard recorded for a request (unknown when it recorded none).
    pub(crate) fn of(recorded: Option<axum::extract::Extension<ClientAddr>>) -> ClientAddr {
        recorded.map_or(ClientAddr(None), |axum::extract::Extension(a)| a)
    }
}

/// How many addresses the room-creation buckets keep before full ones are forgotten.
const KEPT_ADDRESSES: usize = 10_000;

/// A token bucket: `capacity` requests at once, refilled at `per_minute`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// What each address holds open at once (connections, robot requests running).
type Open = Arc<Mutex<HashMap<ClientAddr, usize>>>;

/// The per-address counters.
pub(crate) struct Limits {
    rooms: Mutex<HashMap<ClientAddr, Bucket>>,
    robot_requests: Mutex<HashMap<ClientAddr, Bucket>>,
    connections: Open,
    robots_running: Open,
    rooms_per_minute: u32,
    robot_requests_per_minute: u32,
    connections_per_address: usize,
}

/// One thing an address holds open, counted until dropped.
pub(crate) struct Held {
    open: Open,
    addr: ClientAddr,
}

/// A WebSocket connection counted against its address until dropped.
pub(crate) struct ConnectionSlot {
    _held: Held,
    /// True for a connection past the address's limit, within [`SEAT_RESERVE`]: it may join
    /// a seat with its token, not watch.
    pub seat_only: bool,
}

/// Connections an address may open past its limit to join a seat (never to watch): the
/// spectators of a shared address (a NAT, a school) cannot lock its own players out (issue
/// 50: 64 spectator sockets from one address made the player's join a 429).
pub(crate) const SEAT_RESERVE: usize = 8;

impl Drop for Held {
    fn drop(&mut self) {
        if let Ok(mut map) = self.open.lock()
            && let Some(n) = map.get_mut(&self.addr)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.addr);
            }
        }
    }
}

/// Takes one token of `addr`'s bucket in `buckets` (`per_minute` at once, refilled evenly
/// over a minute), or the 429 that says when to try again; `what` names the requests.
fn take(
    buckets: &Mutex<HashMap<ClientAddr, Bucket>>,
    addr: ClientAddr,
    per_minute: u32,
    what: &str,
) -> Result<(), Box<Response>> {
    let now = Instant::now();
    let capacity = f64::from(per_minute);
    let rate = capacity / 60.0;
    let Ok(mut map) = buckets.lock() else {
        return Ok(());
    };
    if map.len() >= KEPT_ADDRESSES {
        map.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < capacity);
    }
    let bucket = map.entry(addr).or_insert(Bucket {
        tokens: capacity,
        at: now,
    });
    bucket.tokens =
        (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(capacity);
    bucket.at = now;
    if bucket.tokens >= 1.0 {
        bucket.tokens -= 1.0;
        return Ok(());
    }
    let wait = Duration::from_secs_f64((1.0 - bucket.tokens) / rate);
    Err(Box::new(too_many(
        format!(
            "too many {what} from this address (at most {per_minute} a minute): try again in {} s",
            wait.as_secs_f64().ceil() as u64
        ),
        wait,
    )))
}

/// A refusal: 429 with `Retry-After` (whole seconds, at least 1).
pub(crate) fn too_many(message: String, retry_after: Duration) -> Response {
    let mut response = json_error(StatusCode::TOO_MANY_REQUESTS, message);
    let secs = retry_after.as_secs_f64().ceil().max(1.0) as u64;
    if let Ok(value) = HeaderValue::from_str(&secs.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

impl Limits {
    /// Counters for `rooms_per_minute` room creations and `robot_requests_per_minute` robot
    /// requests (each as a burst, refilled evenly over a minute) and
    /// `connections_per_address` WebSocket connections open at once.
    pub fn new(
        rooms_per_minute: u32,
        robot_requests_per_minute: u32,
        connections_per_address: usize,
    ) -> Limits {
        Limits {
            rooms: Mutex::new(HashMap::new()),
            robot_requests: Mutex::new(HashMap::new()),
            connections: Arc::default(),
            robots_running: Arc::default(),
            rooms_per_minute: rooms_per_minute.max(1),
            robot_requests_per_minute: robot_requests_per_minute.max(1),
            connections_per_address: connections_per_address.max(1),
        }
    }

    /// Takes one room creation of `addr`, or the 429 to answer with.
    pub fn create_room(&self, addr: ClientAddr) -> Result<(), Box<Response>> {
        take(&self.rooms, addr, self.rooms_per_minute, "rooms created")
    }

    /// Takes one robot request of `addr` (`/v1/act`, `/v1/bid`, `/v1/analyse`), or the 429
    /// to answer with.
    pub fn robot_request(&self, addr: ClientAddr) -> Result<(), Box<Response>> {
        take(
            &self.robot_requests,
            addr,
            self.robot_requests_per_minute,
            "robot requests",
        )
    }

    /// Counts one more WebSocket connection of `addr` (until the slot is dropped), or the 429
    /// to answer with; past `connections_per_address`, [`SEAT_RESERVE`] more that may only
    /// join a seat.
    pub fn connect(self: &Arc<Self>, addr: ClientAddr) -> Result<ConnectionSlot, Box<Response>> {
        let Ok(mut map) = self.connections.lock() else {
            return Err(Box::new(json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the connection counter failed",
            )));
        };
        let n = map.entry(addr).or_insert(0);
        if *n >= self.connections_per_address + SEAT_RESERVE {
            return Err(Box::new(too_many(
                format!(
                    "{} WebSocket connections are open from this address, the most allowed",
                    *n
                ),
                Duration::from_secs(1),
            )));
        }
        let seat_only = *n >= self.connections_per_address;
        *n += 1;
        Ok(ConnectionSlot {
            _held: Held {
                open: self.connections.clone(),
                addr,
            },
            seat_only,
        })
    }

    /// Counts one more robot request of `addr` computing (until dropped), or the 503 to
    /// answer with when it has `at_once` computing already: the robots' threads are few, and
    /// one address looping on slow requests must not hold them all (issue 50: 4 looping
    /// clients made 28 of 30 other requests 503).
    pub fn robot_running(&self, addr: ClientAddr, at_once: usize) -> Result<Held, Box<Response>> {
        let Ok(mut map) = self.robots_running.lock() else {
            return Err(Box::new(json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the robot request counter failed",
            )));
        };
        let n = map.entry(addr).or_insert(0);
        if *n >= at_once {
            let mut response = json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{n} robot requests of this address are being computed, the most at once: \
                     wait for their answers"
                ),
            );
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(1),
            );
            return Err(Box::new(response));
        }
        *n += 1;
        Ok(Held {
            open: self.robots_running.clone(),
            addr,
        })
    }
}
