//! `ddz serve`: the built command serves the robot API with the same answers as `ddz bot`.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use common::{ddz, ddz_stdin, stdout};
use serde_json::Value;

/// `ddz serve` on a free port; the child and its address.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ddz"))
            .args(["serve", "--addr", "127.0.0.1:0"])
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
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("ddz serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// One HTTP/1.1 request; the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
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
    ] {
        let out = ddz(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
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
        let pid = server.child.id().to_string();
        let sent = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(sent.success());
        let start = std::time::Instant::now();
        let exit = loop {
            if let Some(exit) = server.child.try_wait().unwrap() {
                break exit;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "{signal}: still running"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert_eq!(exit.code(), Some(0), "{signal}");
    }
    // The database was made, with its schema.
    assert!(db.is_file(), "{}", db.display());
    let _ = std::fs::remove_dir_all(&dir);
}
