//! Helpers shared by the command-line tests: run the built `ddz` and read its output.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `ddz` with `args`.
pub fn ddz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ddz"))
        .args(args)
        .output()
        .expect("ddz runs")
}

/// Runs `ddz` with `args`, writing `input` to its standard input.
pub fn ddz_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ddz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ddz runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Standard output of a successful run.
pub fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Standard output of a successful run, as one JSON value.
pub fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).expect("one JSON value")
}

/// Standard output of a successful run, as JSON lines.
pub fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}
