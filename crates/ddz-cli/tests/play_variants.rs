//! `ddz play --rules two|four --plain`: whole sittings at two and four seats from answers to
//! the prompts, illegal inputs refused without ending the game, records written and
//! replayed by `ddz replay`, and the options a table of two or four refuses.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::{ddz, stdout};

/// Drives `ddz play --plain` under `rules` for `games` games: the highest bid offered, the
/// first hint at every play, and now and then an input that must be refused ("hello", or
/// three big jokers, which no deck of these games holds). Returns the transcript, how many
/// illegal inputs were sent and the records folder.
fn drive(rules: &str, seed: &str, games: usize) -> (String, usize, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "ddz-play-variants-{}-{rules}-{seed}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ddz"))
        .args(["play", "--plain", "--rules", rules, "--seed", seed])
        .args(["--bots", "ddzlib", "--records", dir.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ddz runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let (mut illegal, mut turns, mut played) = (0, 0, 0);
    let mut hint: Option<String> = None;
    let mut send = |line: &str, transcript: &mut String| {
        transcript.push_str(&format!("<< {line}\n"));
        writeln!(input, "{line}").expect("ddz reads its input");
    };
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("output") == 0 {
            break;
        }
        transcript.push_str(&line);
        let line = line.trim_end();
        if let Some(h) = line.strip_prefix("hint 1/") {
            hint = h.split_once(": ").map(|(_, m)| m.to_string());
        }
        if line.starts_with("your bid?") {
            let bid = line
                .rsplit("bid ")
                .next()
                .and_then(|t| t.chars().next())
                .unwrap_or('0');
            send(&format!("bid {bid}"), &mut transcript);
        } else if line.starts_with("your play?") {
            turns += 1;
            match hint.take() {
                Some(m) => send(&m, &mut transcript),
                None if turns % 5 == 0 => {
                    send(
                        if turns % 10 == 0 { "RRR" } else { "hello" },
                        &mut transcript,
                    );
                    illegal += 1;
                }
                None => send("hint", &mut transcript),
            }
        } else if line.starts_with("play again?") {
            played += 1;
            send(if played < games { "y" } else { "n" }, &mut transcript);
        }
    }
    let status = child.wait().expect("ddz ends");
    assert!(status.success(), "{transcript}");
    (transcript, illegal, dir)
}

/// Checks a sitting's transcript and records: every game over and recorded, each record
/// replayed by `ddz replay`, every illegal input refused, the totals zero-sum.
fn check_sitting(rules: &str, seats: usize, games: usize) {
    let (text, illegal, dir) = drive(rules, "21", games);
    assert_eq!(text.matches("game over:").count(), games, "{text}");
    assert_eq!(text.matches("refused:").count(), illegal, "{text}");
    assert!(illegal > 0, "{text}");
    assert!(text.contains(&format!("{seats} seats")), "{text}");
    let totals = text
        .lines()
        .rfind(|l| l.starts_with("totals after"))
        .expect("totals");
    let sum: i64 = totals
        .split(", ")
        .filter_map(|p| p.rsplit(' ').next()?.parse::<i64>().ok())
        .sum();
    assert_eq!(sum, 0, "{totals}");
    let mut records = 0;
    for entry in std::fs::read_dir(&dir).expect("records folder") {
        let path = entry.unwrap().path();
        let out = ddz(&["replay", path.to_str().unwrap()]);
        let replay = stdout(&out);
        assert!(replay.contains(&format!("({seats} seats)")), "{replay}");
        assert!(replay.contains("checked:"), "{replay}");
        records += 1;
    }
    assert_eq!(records, games);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_seat_sittings_play_record_and_replay() {
    check_sitting("two", 2, 3);
}

#[test]
fn four_seat_sittings_play_record_and_replay() {
    check_sitting("four", 4, 2);
}

#[test]
fn the_handicap_is_told_at_two_seats() {
    let (text, _, dir) = drive("two", "3", 1);
    assert!(text.contains("handicap (让牌): a win for"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn table_options_are_checked_with_clear_errors() {
    for (args, expect) in [
        (
            vec!["--rules", "two", "--seat", "2"],
            "--seat 2: a seat is 0 to 1 at this table of 2",
        ),
        (
            vec!["--rules", "four", "--seat", "4"],
            "--seat 4: a seat is 0 to 3 at this table of 4",
        ),
        (
            vec!["--rules", "four", "--bots", "ddzlib,random"],
            "--bots takes one robot name or 3",
        ),
        (
            vec!["--rules", "two", "--bots", "value"],
            "--bots \"value\": unknown robot",
        ),
        (
            vec!["--rules", "two", "--level", "3"],
            "--level: the robot levels play at three seats",
        ),
        (
            vec!["--rules", "four", "--exec", "x=cat"],
            "--exec: external robots play at three seats",
        ),
        (
            vec!["--rules", "four", "--hint-bot", "search:nope=1"],
            "--hint-bot \"search:nope=1\"",
        ),
    ] {
        let mut all = vec!["play", "--plain", "--no-records"];
        all.extend(&args);
        let out = ddz(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}
