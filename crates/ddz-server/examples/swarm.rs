//! A swarm of WebSocket clients playing concurrent games against a running `ddz serve`, for
//! the load figures in BENCHMARKS.md. Loopback only; bounded in clients, games and time.
//!
//! ```text
//! ddz serve --addr 127.0.0.1:8931 --robot-delay-ms 0 --turn-seconds 0 &
//! cargo run --release -p ddz-server --example swarm -- --addr 127.0.0.1:8931 --clients 200 --games 5
//! ```
//!
//! Each client creates a room (itself and two robots), joins its seat and plays `--games`
//! games, choosing at random among the legal actions it is sent. It measures the time from
//! sending an action to the update that shows it applied. Prints one JSON line: games,
//! actions, wall time, games/s, actions/s, latency percentiles, the most games in progress at
//! once, and errors (refusals, lost connections, timeouts).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

/// What one client did.
#[derive(Default)]
struct Tally {
    games: u64,
    actions: u64,
    latencies_us: Vec<u64>,
    errors: Vec<String>,
}

/// POST /v1/rooms over a plain loopback connection.
async fn create_room(addr: &str, robots: &str, seed: u64) -> Result<Value, String> {
    let body = json!({"seats": ["human", robots, robots], "turn_seconds": 0, "robot_delay_ms": 0, "seed": seed}).to_string();
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    let request = format!(
        "POST /v1/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .map_err(|e| e.to_string())?;
    let (head, body) = response.split_once("\r\n\r\n").ok_or("no HTTP body")?;
    if !head.starts_with("HTTP/1.1 201") {
        return Err(format!("room not created: {head} {body}"));
    }
    serde_json::from_str(body).map_err(|e| e.to_string())
}

/// Plays `games` games in a new room.
async fn client(
    addr: String,
    robots: String,
    games: u64,
    seed: u64,
    in_play: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
) -> Tally {
    let mut tally = Tally::default();
    if let Err(e) = play(&addr, &robots, games, seed, &in_play, &most, &mut tally).await {
        tally.errors.push(e);
    }
    tally
}

async fn play(
    addr: &str,
    robots: &str,
    games: u64,
    seed: u64,
    in_play: &AtomicUsize,
    most: &AtomicUsize,
    tally: &mut Tally,
) -> Result<(), String> {
    let room = create_room(addr, robots, seed).await?;
    let url = format!(
        "ws://{addr}/v1/rooms/{}/ws",
        room["room"].as_str().ok_or("no room id")?
    );
    let (mut ws, _) = connect_async(url).await.map_err(|e| e.to_string())?;
    let token = room["seats"][0]["token"].as_str().ok_or("no token")?;
    ws.send(Message::text(
        json!({"type": "join", "token": token}).to_string(),
    ))
    .await
    .map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acted_at: Option<(u64, Instant)> = None;
    let mut playing_game = 0u64;
    let mut counted_over = 0u64;
    let start = |in_play: &AtomicUsize| {
        let now = in_play.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
    };
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "no message within 30 s".to_string())?;
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | None => return Err("connection closed".into()),
            Some(Err(e)) => return Err(e.to_string()),
            Some(Ok(_)) => continue,
        };
        let msg: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
        match msg["type"].as_str() {
            Some("update") => {}
            Some("error") => {
                tally.errors.push(format!("refused: {}", msg["error"]));
                continue;
            }
            _ => continue,
        }
        let state = &msg["state"];
        let step = state["step"].as_u64().unwrap_or(0);
        let game = state["game"].as_u64().unwrap_or(0);
        if let Some((at, t)) = acted_at
            && step > at
        {
            tally.latencies_us.push(t.elapsed().as_micros() as u64);
            acted_at = None;
        }
        if game != playing_game && state["phase"] != "over" {
            playing_game = game;
            start(in_play);
        }
        if state["phase"] == "over" {
            if counted_over == game {
                continue;
            }
            counted_over = game;
            in_play.fetch_sub(1, Ordering::SeqCst);
            tally.games += 1;
            if tally.games == games {
                let _ = ws.close(None).await;
                return Ok(());
            }
            ws.send(Message::text(
                json!({"type": "next", "step": step}).to_string(),
            ))
            .await
            .map_err(|e| e.to_string())?;
            acted_at = Some((step, Instant::now()));
            continue;
        }
        if state["turn"] != state["you"] || acted_at.is_some() {
            continue;
        }
        let legal = &state["legal"];
        let action = if let Some(bids) = legal["bids"].as_array() {
            json!({"type": "bid", "bid": bids[rng.random_range(0..bids.len())], "step": step})
        } else if let Some(moves) = legal["moves"].as_array() {
            json!({"type": "play", "move": moves[rng.random_range(0..moves.len())], "step": step})
        } else {
            continue;
        };
        ws.send(Message::text(action.to_string()))
            .await
            .map_err(|e| e.to_string())?;
        tally.actions += 1;
        acted_at = Some((step, Instant::now()));
    }
}

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_string())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = arg(&args, "--addr", "127.0.0.1:8931");
    if !addr.starts_with("127.") && !addr.starts_with("localhost") {
        eprintln!("swarm: loopback addresses only (127.0.0.0/8)");
        std::process::exit(2);
    }
    let clients: u64 = arg(&args, "--clients", "200").parse().expect("--clients N");
    let games: u64 = arg(&args, "--games", "5").parse().expect("--games N");
    let robots = arg(&args, "--robots", "greedy");
    let in_play = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            tokio::spawn(client(
                addr.clone(),
                robots.clone(),
                games,
                i,
                in_play.clone(),
                most.clone(),
            ))
        })
        .collect();
    let mut all = Tally::default();
    for task in tasks {
        match tokio::time::timeout(Duration::from_secs(600), task).await {
            Ok(Ok(t)) => {
                all.games += t.games;
                all.actions += t.actions;
                all.latencies_us.extend(t.latencies_us);
                all.errors.extend(t.errors);
            }
            _ => all
                .errors
                .push("a client did not finish within 10 minutes".into()),
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    all.latencies_us.sort_unstable();
    let pct = |p: f64| {
        let v = &all.latencies_us;
        if v.is_empty() {
            0.0
        } else {
            v[((v.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
        }
    };
    let report = json!({
        "clients": clients, "games_per_client": games, "robots": robots,
        "games": all.games, "actions": all.actions, "seconds": (secs * 100.0).round() / 100.0,
        "games_per_s": (all.games as f64 / secs * 10.0).round() / 10.0,
        "actions_per_s": (all.actions as f64 / secs).round(),
        "latency_ms": {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
        "most_games_at_once": most.load(Ordering::SeqCst),
        "errors": all.errors.len(), "first_errors": all.errors.iter().take(5).collect::<Vec<_>>(),
    });
    println!("{report}");
    if !all.errors.is_empty() {
        std::process::exit(1);
    }
}
