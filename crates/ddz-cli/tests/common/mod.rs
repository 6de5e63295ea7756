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

/// The scores of a `huanle` game (shuffled deal, base 1, no cap) worked out from its record's
/// actions alone by RULES.md section 7, apart from the engine: `P = show × 2^robs ×
/// 2^(bombs + rockets) × spring`, each farmer settled against the landlord at `P × d_L × d_F`.
pub fn hand_computed_scores(record: &Value) -> [i64; 3] {
    let landlord = record["landlord"].as_u64().unwrap() as usize;
    let seat_of = |v: &Value| v.as_u64().unwrap() as usize;
    // The largest show factor (0 is "no show").
    let show = record["shows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[1].as_i64().unwrap())
        .max()
        .unwrap_or(0)
        .max(1);
    // Call-and-rob: the first call is no rob, every later call is one.
    let calls = record["bids"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b[1].as_u64().unwrap() > 0)
        .count() as u32;
    let robs = calls.saturating_sub(1);
    let mut played = [0usize; 3];
    let mut plays = [0usize; 3];
    let mut bombs = 0;
    for play in record["plays"].as_array().unwrap() {
        let seat = seat_of(&play[0]);
        let cards = play[1].as_str().unwrap();
        if cards == "pass" {
            continue;
        }
        played[seat] += cards.chars().count();
        plays[seat] += 1;
        let first = cards.chars().next().unwrap();
        let four_alike = cards.chars().count() == 4 && cards.chars().all(|c| c == first);
        if four_alike || cards == "BR" || cards == "RB" {
            bombs += 1;
        }
    }
    let hand_size = |seat: usize| if seat == landlord { 20 } else { 17 };
    let out = (0..3)
        .find(|&s| played[s] == hand_size(s))
        .expect("someone went out");
    let landlord_won = out == landlord;
    let farmers = [(landlord + 1) % 3, (landlord + 2) % 3];
    let spring = if landlord_won {
        farmers.iter().all(|&f| plays[f] == 0)
    } else {
        plays[landlord] == 1
    };
    let table = show * (1 << robs) * (1 << bombs) * if spring { 2 } else { 1 };
    let mut doubled = [1i64; 3];
    for d in record["doublings"].as_array().unwrap() {
        doubled[seat_of(&d[0])] = d[1].as_i64().unwrap();
    }
    let mut scores = [0i64; 3];
    for f in farmers {
        let stake = table * doubled[landlord] * doubled[f];
        let farmer_gets = if landlord_won { -stake } else { stake };
        scores[f] = farmer_gets;
        scores[landlord] -= farmer_gets;
    }
    scores
}
