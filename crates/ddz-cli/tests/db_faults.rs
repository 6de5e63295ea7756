//! Issue 50: a games database that is corrupt, missing, read-only or full gives `ddz serve` a
//! clear error at its start, or a clean refusal at run time: never a panic, never an action
//! told but not kept. The read-only case runs the server as `nobody` when the tests run as
//! root (root writes any file); the full disk is a file size limit (`ulimit -f`, SIGXFSZ
//! ignored) on the server's process.

use crate::serve::{Server, Socket};

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A scratch directory of this test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ddz-db-fault-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `command` (a `ddz serve` expected to refuse its start), killing it after 20 s: its
/// output.
fn refused_start(mut command: Command) -> Output {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ddz runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("ddz serve started on a database it should refuse");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Checks that `out` is a refusal to start (exit 2, no panic) whose message has `needles`.
fn assert_refused(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
}

fn serve(db: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ddz"));
    command.args(["serve", "--addr", "127.0.0.1:0", "--db", db]);
    command
}

#[test]
fn a_corrupt_database_is_refused_at_start() {
    let dir = scratch("corrupt");
    let path = dir.join("games.sqlite3");
    std::fs::write(&path, b"not a database, just some text ".repeat(200)).unwrap();
    let db = path.to_str().unwrap();
    assert_refused(
        &refused_start(serve(db)),
        &[&format!("--db: {db}: "), "file is not a database"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_that_cannot_be_made_is_refused_at_start() {
    // /proc takes no new directories, root or not.
    assert_refused(
        &refused_start(serve("/proc/ddz-no-such-dir/games.sqlite3")),
        &["--db: /proc/ddz-no-such-dir: "],
    );
    // A PostgreSQL database that does not exist, on a server that does.
    let name = format!("ddz_faults_{}", std::process::id());
    if let Some(url) = ddz_server::db::test_postgres(&name).unwrap() {
        let missing = format!("{}_missing", url);
        let mut command = serve(&missing);
        command.args(["--advertise", "http://127.0.0.1:1"]);
        assert_refused(
            &refused_start(command),
            &[
                "--db: postgres://",
                &format!("database \"{name}_missing\" does not exist"),
            ],
        );
    }
}

#[cfg(unix)]
#[test]
fn a_read_only_database_is_refused_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    let path = dir.join("games.sqlite3");
    drop(ddz_server::db::Database::open(&path).unwrap());
    // The file may not be written; its directory may (SQLite's -wal and -shm files go there),
    // so that only the database itself is read-only.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let db = path.to_str().unwrap();
    let root = String::from_utf8_lossy(&Command::new("id").arg("-u").output().unwrap().stdout)
        .trim()
        == "0";
    let command = if root {
        let mut command = Command::new("runuser");
        command.args(["-u", "nobody", "--", env!("CARGO_BIN_EXE_ddz")]);
        command.args(["serve", "--addr", "127.0.0.1:0", "--db", db]);
        command
    } else {
        serve(db)
    };
    assert_refused(
        &refused_start(command),
        &[&format!("--db: {db}: "), "cannot be written", "readonly"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A full disk while rooms play: the server goes on answering, refuses what it cannot keep
/// (a new room 503, an action `not_saved` with the state as last kept), says so on
/// `/v1/health` (503, `degraded`), and its shutdown says what was not saved (exit 2).
#[cfg(unix)]
#[test]
fn a_full_disk_is_refused_cleanly_at_run_time() {
    let dir = scratch("full");
    let path = dir.join("games.sqlite3");
    let db = path.to_str().unwrap();
    // 160 KiB a file: the schema and a first room fit, not much more.
    let mut shell = Command::new("bash");
    shell.args([
        "-c",
        r#"trap "" XFSZ; ulimit -f 160; exec "$0" "$@""#,
        env!("CARGO_BIN_EXE_ddz"),
    ]);
    let mut server = Server::start_from(
        shell,
        &[
            "--db",
            db,
            "--robot-delay-ms",
            "0",
            "--rooms-per-minute",
            "1000",
        ],
    );
    let body = json!({"seats": ["human", "greedy", "greedy"], "turn_seconds": 0});
    let (status, created) = server.request("POST", "/v1/rooms", &body.to_string());
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let (room, token) = (
        created["room"].as_str().unwrap().to_string(),
        created["seats"][0]["token"].as_str().unwrap().to_string(),
    );
    // More rooms until the disk is full: each is refused, none half made.
    let mut refused = None;
    for _ in 0..200 {
        let (status, body) = server.request("POST", "/v1/rooms", &body.to_string());
        if status == 503 {
            refused = Some(body);
            break;
        }
        assert_eq!(status, 201, "{body}");
    }
    let refused = refused.expect("the disk never filled");
    assert!(
        refused.contains("the room could not be saved: "),
        "{refused}"
    );
    let (status, health) = server.request("GET", "/v1/health", "");
    assert_eq!(status, 503, "{health} after {refused}");
    let health: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(health["status"], "degraded");
    assert!(
        health["database"]
            .as_str()
            .unwrap()
            .starts_with("writes failing: ")
    );

    // The first room plays on: an action the database does not take is refused, and its
    // room goes back to the state last kept: the person's own (`not_saved`, after the state
    // again), or a robot's (every seat sent the state again, `resync`, no events).
    let (mut socket, _, update) = Socket::join(&server.addr, &room, &token, 0);
    let mut state = update["state"].clone();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut answered = None;
    loop {
        assert!(Instant::now() < deadline, "no refusal: {}", server.report());
        let legal = &state["legal"];
        let step = state["step"].clone();
        let action = match legal["bids"].as_array() {
            Some(bids) => Some(json!({"type": "bid", "bid": bids[0], "step": step})),
            None => legal["moves"]
                .as_array()
                .map(|moves| json!({"type": "play", "move": moves[0], "step": step})),
        };
        if let Some(action) = action
            && answered != Some(step.clone())
        {
            socket.send(action);
            answered = Some(step);
        }
        let message = socket.next().expect("an answer");
        if message["type"] == "error" {
            assert_eq!(message["error"]["code"], "not_saved", "{message}");
            break;
        }
        if message["type"] == "update" {
            if message["resync"] == true {
                assert_eq!(message["events"], json!([]), "{message}");
                // The state last told, again: the refused action is not in it.
                assert_eq!(message["state"]["step"], state["step"], "{message}");
                break;
            }
            state = message["state"].clone();
        }
    }

    let exit = server.stop("-TERM");
    let err = server.stderr();
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("an action could not be saved"), "{err}");
    // Whether the rooms could still be written at the end or not, the exit says so.
    if exit.code() == Some(2) {
        assert!(err.contains("rooms in progress not saved"), "{err}");
    } else {
        assert_eq!(exit.code(), Some(0), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
