//! `ddz serve`: the built command serves the robot API with the same answers as `ddz bot`,
//! checks its options, shuts down cleanly on SIGTERM and SIGINT, and resumes the games in
//! progress at a shutdown after a restart with the same database.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{ddz, ddz_stdin, stdout};
use serde_json::Value;

/// `ddz serve` on a free port; the child, its address and what it wrote to stderr after the
/// first line (read all along, so that its writes never fail).
pub(crate) struct Server {
    child: Child,
    pub(crate) addr: String,
    stderr: Arc<Mutex<String>>,
    /// The thread that reads the server's stderr into `stderr`, until it ends.
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub(crate) fn start(args: &[&str]) -> Server {
        Server::start_from(Command::new(env!("CARGO_BIN_EXE_ddz")), args)
    }

    /// `ddz serve` with `args` as `program` runs it: `program` is `ddz` itself, or a command
    /// (a shell, `runuser`) whose own arguments end with the path of `ddz`.
    pub(crate) fn start_from(mut program: Command, args: &[&str]) -> Server {
        let mut child = program
            .arg("serve")
            .args(if args.contains(&"--addr") {
                &[][..]
            } else {
                &["--addr", "127.0.0.1:0"][..]
            })
            .args(if args.contains(&"--db") {
                &[][..]
            } else {
                &["--db", "none"][..]
            })
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ddz serve runs");
        let mut line = String::new();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        reader.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("ddz serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let reader = std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                let mut text = sink.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        Server {
            child,
            addr,
            stderr,
            reader: Some(reader),
        }
    }

    /// Sends `signal` (`-TERM`, `-INT`) and waits up to 10 s for the exit.
    #[cfg(unix)]
    pub(crate) fn stop(&mut self, signal: &str) -> ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(sent.success());
        let start = Instant::now();
        loop {
            if let Some(exit) = self.child.try_wait().unwrap() {
                // Everything the server wrote before it exited is read once its stderr ends.
                if let Some(reader) = self.reader.take() {
                    reader.join().unwrap();
                }
                return exit;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{signal}: still running"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the server with SIGKILL (no shutdown of its own) and waits for it to end.
    pub(crate) fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
    }

    /// What the server wrote to stderr after its first line, so far.
    pub(crate) fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// For a failing test: whether the server still runs, and what it wrote to stderr (after
    /// a moment, so that the reader has caught up).
    pub(crate) fn report(&mut self) -> String {
        std::thread::sleep(Duration::from_millis(500));
        let status = match self.child.try_wait() {
            Ok(Some(exit)) => format!("the server exited ({exit})"),
            Ok(None) => "the server still runs".to_string(),
            Err(e) => format!("the server's status is unknown ({e})"),
        };
        format!("{status}; it wrote: {}", self.stderr())
    }

    /// One HTTP/1.1 request; the status and the body.
    pub(crate) fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const REQUESTS: &str = include_str!("../../ddz-server/tests/data/robot_requests.jsonl");

#[test]
fn robot_api_answers_as_ddz_bot() {
    let server = Server::start(&["--robots", "greedy,value,ddzlib"]);
    for bot in ["value", "ddzlib"] {
        let out = ddz_stdin(&["bot", "--bot", bot], REQUESTS);
        let expected: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let requests: Vec<&str> = REQUESTS.lines().collect();
        assert_eq!(expected.len(), requests.len());
        for (line, want) in requests.iter().zip(&expected) {
            let request: Value = serde_json::from_str(line).unwrap();
            let path = if request["type"] == "bid" {
                "/v1/bid"
            } else {
                "/v1/act"
            };
            let (status, body) = server.request("POST", &format!("{path}?bot={bot}"), line);
            let got: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(&got, want, "{bot}: {line}");
            assert_eq!(
                status,
                if want.get("error").is_some() {
                    400
                } else {
                    200
                }
            );
        }
    }
    let (status, body) = server.request("GET", "/v1/health", "");
    assert_eq!(status, 200);
    let health: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        health["robots"],
        serde_json::json!(["greedy", "value", "ddzlib"])
    );
    let (status, body) = server.request(
        "POST",
        "/v1/act?bot=random",
        REQUESTS.lines().next().unwrap(),
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(body.contains("<script src=\"/app.js\""));
}

#[test]
fn serve_options_are_checked() {
    for (args, needle) in [
        (
            &["serve", "--addr", "localhost"][..],
            "--addr \"localhost\": expected IP:PORT",
        ),
        (
            &["serve", "--robots", "nobody"][..],
            "--robots: unknown robot \"nobody\"",
        ),
        (
            &["serve", "--robots", "greedy", "--bot", "value"][..],
            "--bot \"value\" is not one of --robots",
        ),
        (
            &["serve", "--hint-bot", "x"][..],
            "--hint-bot: unknown robot",
        ),
        (
            &["serve", "--turn-seconds", "601"][..],
            "--turn-seconds 601: at most 600",
        ),
        (
            &["serve", "--allow-origin", "evil.example"][..],
            "--allow-origin \"evil.example\": expected http://HOST[:PORT]",
        ),
        (
            &["serve", "--rules", "poker"][..],
            "--rules: \"poker\" is not a rule profile",
        ),
        // Issue 50: an empty path was a temporary database, silently lost at exit.
        (
            &["serve", "--db", ""][..],
            "--db: an empty path (give a file, or none to keep no games)",
        ),
        (
            &["serve", "--analysis-iters", "0"][..],
            "--analysis-iters 0: 1 to 1000",
        ),
        // Several instances on one PostgreSQL: each needs its own address, checked.
        (
            &["serve", "--db", "postgres://u@127.0.0.1:1/d"][..],
            "give --advertise URL, the address clients reach this instance at",
        ),
        (
            &["serve", "--advertise", "cards.example", "--db", "none"][..],
            "--advertise \"cards.example\": expected http[s]://HOST[:PORT][/PREFIX]",
        ),
        (
            &["serve", "--advertise", "http://a:1", "--db", "none"][..],
            "--advertise names this instance for a shared database: not with --db none",
        ),
        (
            &["serve", "--lease-seconds", "0"][..],
            "--lease-seconds 0: 1 to 600",
        ),
        (
            &[
                "serve",
                "--db",
                "postgres://u:secret@127.0.0.1:1/d",
                "--advertise",
                "http://127.0.0.1:2",
            ][..],
            "--db: postgres://u@127.0.0.1:1/d: database: error connecting to server",
        ),
    ] {
        let out = ddz(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("secret"), "a password in {err}");
    }
    let help = stdout(&ddz(&["serve", "--help"]));
    for option in [
        "--addr",
        "--robots",
        "--bot",
        "--hint-bot",
        "--turn-seconds",
        "--robot-delay-ms",
        "--idle-minutes",
        "--max-rooms",
        "--time-limit-ms",
        "--rooms-per-minute",
        "--connections-per-address",
        "--allow-origin",
        "--trust-forwarded",
        "--db",
        "--advertise",
        "--lease-seconds",
        "--rules",
    ] {
        assert!(help.contains(option), "{option} in {help}");
    }
}

/// SIGTERM and SIGINT stop the server cleanly: it exits with code 0 (SIGTERM used to kill it
/// at once, exit 143).
#[cfg(unix)]
#[test]
fn signals_shut_down_with_exit_0() {
    let dir = std::env::temp_dir().join(format!("ddz-serve-db-{}", std::process::id()));
    let db = dir.join("games.sqlite3");
    for signal in ["-TERM", "-INT"] {
        let mut server = Server::start(&["--db", db.to_str().unwrap()]);
        let (status, body) = server.request("POST", "/v1/rooms", "{}");
        assert_eq!(status, 201, "{body}");
        let exit = server.stop(signal);
        assert_eq!(exit.code(), Some(0), "{signal}: {}", server.stderr());
    }
    // The database was made, with its schema.
    assert!(db.is_file(), "{}", db.display());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A room's WebSocket (blocking), with a 10 s read timeout.
pub(crate) struct Socket {
    ws: tokio_tungstenite::tungstenite::WebSocket<
        tokio_tungstenite::tungstenite::stream::MaybeTlsStream<TcpStream>,
    >,
}

impl Socket {
    /// Joins seat `token` of `room` after message `after`; the welcome and first update.
    pub(crate) fn join(addr: &str, room: &str, token: &str, after: u64) -> (Socket, Value, Value) {
        let mut socket = Socket::connect(addr, room).expect("the room's socket");
        socket.send(serde_json::json!({"type": "join", "token": token, "after": after}));
        let welcome = socket.next().expect("a welcome");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        let update = socket.next().expect("an update");
        assert_eq!(update["type"], "update", "{update}");
        (socket, welcome, update)
    }

    /// The room's socket, not joined; none when the server does not answer.
    pub(crate) fn connect(addr: &str, room: &str) -> Option<Socket> {
        let url = format!("ws://{addr}/v1/rooms/{room}/ws");
        let (ws, _) = tokio_tungstenite::tungstenite::connect(url).ok()?;
        if let tokio_tungstenite::tungstenite::stream::MaybeTlsStream::Plain(tcp) = ws.get_ref() {
            tcp.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
        }
        Some(Socket { ws })
    }

    /// Joins seat `token` of `room`, as a join sent just before the server dies would: none
    /// when the server does not answer (the first update is then read as any other).
    pub(crate) fn try_join(addr: &str, room: &str, token: &str) -> Option<Socket> {
        let mut socket = Socket::connect(addr, room)?;
        socket.try_send(serde_json::json!({"type": "join", "token": token, "after": 0}))?;
        let welcome = socket.next()?;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        Some(socket)
    }

    pub(crate) fn send(&mut self, message: Value) {
        self.try_send(message).expect("the message is sent");
    }

    /// Sends a message; none when the connection is gone.
    pub(crate) fn try_send(&mut self, message: Value) -> Option<()> {
        use tokio_tungstenite::tungstenite::Message;
        self.ws.send(Message::text(message.to_string())).ok()
    }

    /// The next message, or the close frame's code as `{"close": code}`; none once closed.
    pub(crate) fn next(&mut self) -> Option<Value> {
        use tokio_tungstenite::tungstenite::Message;
        loop {
            match self.ws.read() {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
                Ok(Message::Close(frame)) => {
                    let code = frame.map(|f| u16::from(f.code));
                    return Some(serde_json::json!({"close": code}));
                }
                Ok(_) => {}
                // A signal to the test process (SIGCHLD when another test's child exits)
                // interrupts a read with a timeout even under SA_RESTART (signal(7)):
                // nothing was read, read again.
                Err(tokio_tungstenite::tungstenite::Error::Io(e))
                    if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // Shown with a failing test's output: a timeout, a reset, a close.
                    let thread = std::thread::current();
                    eprintln!("the room's socket ({:?}): {e}", thread.name());
                    return None;
                }
            }
        }
    }

    /// Plays seat `me` (its first legal bid or move) until `done` holds for the state after
    /// an update; that state, or none when the connection breaks.
    fn play_until(&mut self, mut state: Value, done: impl Fn(&Value) -> bool) -> Option<Value> {
        let mut answered = None;
        while !done(&state) {
            let step = state["step"].clone();
            if answered.as_ref() != Some(&step) {
                let legal = &state["legal"];
                let action = if let Some(bids) = legal["bids"].as_array() {
                    Some(serde_json::json!({"type": "bid", "bid": bids[0], "step": step}))
                } else {
                    legal["moves"].as_array().map(
                        |moves| serde_json::json!({"type": "play", "move": moves[0], "step": step}),
                    )
                };
                if let Some(action) = action {
                    self.send(action);
                    answered = Some(step);
                }
            }
            let message = self.next()?;
            assert_ne!(message["type"], "error", "{message}");
            if message["type"] == "update" {
                state = message["state"].clone();
            }
        }
        Some(state)
    }
}

/// Issue 20: a game in progress at SIGTERM is saved in the database and resumed after a
/// restart with the same `--db`: the seat's token still joins, the game goes on at the same
/// step with the same hand, and once finished it is listed by GET /v1/games.
#[cfg(unix)]
#[test]
fn a_game_in_progress_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("ddz-serve-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("games.sqlite3");
    let db = db.to_str().unwrap();
    let mut server = Server::start(&["--db", db]);
    let body = r#"{"seats": ["human", "greedy", "value"], "turn_seconds": 0, "robot_delay_ms": 0}"#;
    let (status, created) = server.request("POST", "/v1/rooms", body);
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let room = created["room"].as_str().unwrap();
    let token = created["seats"][0]["token"].as_str().unwrap();

    // Part of a game: the bidding and at least four plays, stopping at seat 0's turn.
    let (mut socket, welcome, update) = Socket::join(&server.addr, room, token, 0);
    assert_eq!(welcome["seat"], 0);
    let before = socket
        .play_until(update["state"].clone(), |state| {
            state["history"].as_array().is_some_and(|h| h.len() >= 4)
                && state["legal"]["moves"].is_array()
        })
        .unwrap_or_else(|| panic!("the room's socket broke: {}", server.report()));
    let exit = {
        let exit = server.stop("-TERM");
        let mut closed = None;
        let mut code = None;
        while let Some(message) = socket.next() {
            if message["type"] == "closed" {
                closed = Some(message["reason"].clone());
            } else if let Some(c) = message.get("close") {
                code = Some(c.clone());
                break;
            }
        }
        assert_eq!(closed, Some(Value::from("server shutting down")));
        assert_eq!(code, Some(Value::from(1001)));
        exit
    };
    assert_eq!(exit.code(), Some(0), "{}", server.stderr());
    assert!(
        server.stderr().contains("saved 1 rooms in progress"),
        "{}",
        server.stderr()
    );

    // The same database: the room is back, the token joins, the game is where it was.
    let mut server = Server::start(&["--db", db]);
    let (mut socket, welcome, update) = Socket::join(&server.addr, room, token, 0);
    assert_eq!(welcome["seat"], 0);
    let after = update["state"].clone();
    for field in [
        "game", "step", "hand", "history", "landlord", "bids", "legal", "totals",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    assert_eq!(
        update["resync"], true,
        "no events are kept across a restart"
    );
    let over = socket
        .play_until(after, |state| state["phase"] == "over")
        .unwrap_or_else(|| panic!("the room's socket broke: {}", server.report()));
    let result = &over["result"];

    // The finished game is in the database, with every play (those before the restart too).
    let (status, page) = server.request("GET", "/v1/games", "");
    assert_eq!(status, 200, "{page}");
    let page: Value = serde_json::from_str(&page).unwrap();
    let game = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["room"] == ddz_server::seeds::room_label(room).as_str())
        .unwrap_or_else(|| panic!("the room's game in {page}"));
    assert_eq!(game["game"], 1);
    assert_eq!(
        game["players"],
        serde_json::json!(["human", "greedy", "value"])
    );
    assert_eq!(game["scores"], result["scores"]);
    let (status, stored) = server.request("GET", &format!("/v1/games/{}", game["id"]), "");
    assert_eq!(status, 200, "{stored}");
    let stored: Value = serde_json::from_str(&stored).unwrap();
    let plays = stored["record"]["plays"].as_array().unwrap();
    let before_restart = before["history"].as_array().unwrap();
    assert_eq!(plays.len(), over["history"].as_array().unwrap().len());
    for (play, seen) in plays.iter().zip(before_restart) {
        assert_eq!(play[0], seen["seat"]);
        assert_eq!(play[1], seen["move"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
