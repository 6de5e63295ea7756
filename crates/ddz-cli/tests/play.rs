//! `ddz play --plain`: whole games from scripted input, illegal inputs refused without ending
//! the game, records written and replayable.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{ddz, ddz_stdin, hand_computed_scores, stdout};

/// A fresh, empty folder for records.
fn records_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ddz-play-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The records in a folder, each checked by `ddz replay`; returns how many.
fn replay_all(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("records folder") {
        let path = entry.unwrap().path();
        let out = ddz(&["replay", path.to_str().unwrap()]);
        let text = stdout(&out);
        assert!(text.contains("checked:"), "{text}");
        assert!(text.contains("result:"), "a finished game: {text}");
        n += 1;
    }
    n
}

#[test]
fn a_fixed_script_with_illegal_inputs_then_auto() {
    // Seed 7 (classic): you bid first after the robots or before them; "bid 9" and garbage are
    // refused wherever they come; "auto" finishes each game; "a" analyses your plays; "y"
    // plays a second game.
    let dir = records_dir("script");
    let script = "bid 9\nfoo bar\nhint\nbid 3\nxyz\n3K\nauto\na\ny\nbid 7\nauto\nn\n";
    let out = ddz_stdin(
        &[
            "play",
            "--plain",
            "--seed",
            "7",
            // The robots of the recorded behaviour (the default robots search on a clock).
            "--bots",
            "value",
            "--records",
            dir.to_str().unwrap(),
        ],
        script,
    );
    let text = stdout(&out);
    assert!(text.contains("== game 1, seed 7"), "{text}");
    assert!(text.contains("== game 2, seed 8"), "{text}");
    assert!(text.contains("refused: bid 9 is not allowed now"), "{text}");
    assert!(
        text.contains("refused: \"foo bar\" is not a command"),
        "{text}"
    );
    assert!(
        text.contains("refused: hints are given on your turn to play"),
        "{text}"
    );
    assert!(text.contains("refused: \"xyz\""), "{text}");
    assert!(text.contains("refused: 3K is not a combination"), "{text}");
    assert!(text.contains("refused: bid 7 is not allowed now"), "{text}");
    // The analysis of game 1 rates your seat's plays only, then asks again.
    let analysis = text
        .split("play again? (y/n; a: analyse your plays)\n")
        .nth(1)
        .unwrap_or_default();
    assert!(analysis.contains(" seat 0 play "), "{text}");
    assert!(analysis.contains("\nseat 0: "), "{text}");
    assert!(
        !analysis
            .lines()
            .take_while(|l| !l.starts_with("seat 0: "))
            .any(|l| l.contains(" seat 1 ") || l.contains(" seat 2 ")),
        "{text}"
    );
    assert_eq!(text.matches("play again?").count(), 3, "{text}");
    assert_eq!(text.matches("game over: ").count(), 2, "{text}");
    assert!(text.contains("total after 2 games: you "), "{text}");
    assert_eq!(replay_all(&dir), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drives `ddz play --plain` line by line: answers each prompt with a legal action (bids from
/// the prompt, plays from the hints), slipping in illegal inputs that must each be refused.
/// Returns the whole output and how many illegal inputs were sent.
fn drive(args: &[&str], games: usize) -> (String, usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ddz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ddz runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let mut illegal = 0;
    let mut turns = 0;
    let mut played = 0;
    let mut hint: Option<String> = None;
    let (mut shows, mut doublings) = (0, 0);
    let send = |input: &mut std::process::ChildStdin, line: &str, transcript: &mut String| {
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
            turns += 1;
            if turns % 3 == 0 {
                send(&mut input, "bid 5", &mut transcript);
                illegal += 1;
                continue;
            }
            // The highest bid offered: "(bid 0 (pass), bid 1, bid 2)".
            let bid = line
                .rsplit("bid ")
                .next()
                .and_then(|t| t.chars().next())
                .unwrap_or('0');
            send(&mut input, &format!("bid {bid}"), &mut transcript);
        } else if line.starts_with("your play?") {
            turns += 1;
            match hint.take() {
                Some(m) => send(&mut input, &m, &mut transcript),
                None if turns % 5 == 0 => {
                    // Not cards, or cards not in hand (a fifth ace cannot be held).
                    let bad = if turns % 10 == 0 { "AAAAA" } else { "hello" };
                    send(&mut input, bad, &mut transcript);
                    illegal += 1;
                }
                None => send(&mut input, "hint", &mut transcript),
            }
        } else if line.starts_with("your show?") {
            // Show at the first window of every other game; otherwise keep the hand hidden.
            turns += 1;
            shows += 1;
            let answer = if shows % 7 == 1 { "show" } else { "no" };
            send(&mut input, answer, &mut transcript);
        } else if line.starts_with("your doubling?") {
            turns += 1;
            doublings += 1;
            let answer = match doublings % 4 {
                1 => "super",
                2 => "double",
                3 => {
                    // Not a factor offered: refused, and asked again.
                    illegal += 1;
                    "double 3"
                }
                _ => "nodouble",
            };
            send(&mut input, answer, &mut transcript);
        } else if line.starts_with("play again?") {
            played += 1;
            let again = if played < games { "y" } else { "n" };
            send(&mut input, again, &mut transcript);
        }
    }
    let status = child.wait().expect("ddz ends");
    assert!(status.success(), "{transcript}");
    (transcript, illegal)
}

#[test]
fn whole_games_driven_by_hints_under_every_bidding_form() {
    for (profile, seed) in [
        ("classic", 11),
        ("laizi", 12),
        ("tiandi", 13),
        ("douzero", 14),
        ("botzone", 15),
    ] {
        let dir = records_dir(profile);
        let (text, illegal) = drive(
            &[
                "play",
                "--plain",
                "--rules",
                profile,
                "--seed",
                &seed.to_string(),
                "--bots",
                "ddzlib,value",
                "--records",
                dir.to_str().unwrap(),
            ],
            2,
        );
        assert!(illegal >= 2, "{profile}: illegal inputs were sent");
        assert_eq!(
            text.matches("refused: ").count(),
            illegal,
            "{profile}: every illegal input refused, nothing else:\n{text}"
        );
        assert_eq!(text.matches("game over: ").count(), 2, "{profile}:\n{text}");
        assert!(text.contains("total after 2 games"), "{profile}:\n{text}");
        assert_eq!(replay_all(&dir), 2, "{profile}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_huanle_sitting_with_showing_and_doubling() {
    // Shows, doublings (with a factor not offered, refused), bidding and play in the line
    // mode; the shown hands and each pair's multiplier are printed; the records replay (the
    // replay checks the scores).
    let dir = records_dir("huanle");
    let (text, illegal) = drive(
        &[
            "play",
            "--plain",
            "--rules",
            "huanle",
            "--seed",
            "3",
            "--bots",
            "ddzlib,value",
            "--records",
            dir.to_str().unwrap(),
        ],
        3,
    );
    assert!(illegal >= 1, "illegal inputs were sent:\n{text}");
    assert_eq!(
        text.matches("refused: ").count(),
        illegal,
        "every illegal input refused, nothing else:\n{text}"
    );
    assert!(text.contains("your show? (show for x5, no)"), "{text}");
    assert!(text.contains("you (seat 0) shows its hand (x5)"), "{text}");
    assert!(
        text.contains("your doubling? (nodouble (x1), double (x2), super (x4))"),
        "{text}"
    );
    assert!(
        text.contains("refused: doubling x3 is not allowed (allowed: 1, 2, 4)"),
        "{text}"
    );
    assert!(text.contains("you (seat 0) chooses doubling x4"), "{text}");
    assert!(text.contains("your show? (show for x2, no)"), "{text}");
    assert!(text.contains("vs the landlord x"), "{text}");
    assert_eq!(text.matches("game over: ").count(), 3, "{text}");
    assert_eq!(replay_all(&dir), 3);
    // Each game's scores as printed equal the ones worked out by hand from its record.
    let printed: Vec<[i64; 3]> = text
        .lines()
        .filter_map(|l| l.strip_prefix("scores: "))
        .map(|l| {
            let seats: Vec<i64> = l
                .split(", ")
                .map(|s| s.rsplit(' ').next().unwrap().parse().unwrap())
                .collect();
            [seats[0], seats[1], seats[2]]
        })
        .collect();
    let mut records: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    records.sort_by_key(|p| game_number(p));
    assert_eq!(printed.len(), records.len(), "{text}");
    let mut shown = 0;
    for (path, printed) in records.iter().zip(&printed) {
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(
            hand_computed_scores(&record),
            *printed,
            "{}: {record}",
            path.display()
        );
        shown += usize::from(record["result"]["show"].as_i64().unwrap_or(1) > 1);
    }
    assert!(shown > 0, "no game with a show: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game number of a record file named `...-gameN.json`.
fn game_number(path: &Path) -> u32 {
    let name = path.file_stem().unwrap().to_str().unwrap();
    name.rsplit("game").next().unwrap().parse().unwrap()
}

#[test]
fn several_readings_are_offered_and_picked_by_number() {
    // Find a laizi deal where you lead holding two wild cards and a pair, then type the four
    // cards: the game lists the readings; a number out of range is refused; "2" plays.
    for seed in 0..100u64 {
        let laizi = |input: &str| {
            let seed = seed.to_string();
            let args = [
                "play",
                "--plain",
                "--rules",
                "laizi",
                "--seed",
                &seed,
                "--bots",
                "value",
                "--no-records",
            ];
            stdout(&ddz_stdin(&args, input))
        };
        let text = laizi("bid 3\nstate\n");
        let Some(hand) = text
            .lines()
            .find(|l| l.starts_with("your hand (landlord"))
            .and_then(|l| l.split_once("): "))
            .map(|(_, h)| h.to_string())
        else {
            continue;
        };
        if !text.contains("you lead") {
            continue;
        }
        let wild: Vec<&str> = hand.split(' ').filter(|c| c.ends_with('*')).collect();
        let natural: Vec<&str> = hand.split(' ').filter(|c| !c.ends_with('*')).collect();
        let pair = natural
            .iter()
            .find(|c| natural.iter().filter(|d| d == c).count() == 2 && !"BR".contains(**c));
        let (Some(pair), true) = (pair, wild.len() >= 2) else {
            continue;
        };
        let w = wild[0].trim_end_matches('*');
        let cards = format!("{pair}{pair}{w}{w}");
        let text = laizi(&format!("bid 3\n{cards}\n9\n{cards}\n2\nquit\n"));
        assert!(text.contains("several readings"), "{text}");
        assert!(text.contains("  2) "), "{text}");
        assert!(text.contains("refused: pick a reading from 1 to"), "{text}");
        let second = text
            .lines()
            .find(|l| l.starts_with("  2) "))
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap()
            .to_string();
        assert!(
            text.contains(&format!("you (seat 0) plays {second} ")),
            "the second reading {second} was played:\n{text}"
        );
        return;
    }
    panic!("no seed gave a lead with two wild cards and a pair");
}

#[test]
fn a_game_against_a_level() {
    let dir = records_dir("level");
    let (text, _) = drive(
        &[
            "play",
            "--plain",
            "--seed",
            "31",
            "--level",
            "2",
            "--records",
            dir.to_str().unwrap(),
        ],
        1,
    );
    assert_eq!(text.matches("game over: ").count(), 1, "{text}");
    // The running total names the level.
    assert!(text.contains("total after 1 game: you "), "{text}");
    assert!(text.contains("level:2 (seat 1) "), "{text}");
    assert_eq!(replay_all(&dir), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_clear_errors() {
    for (args, expect) in [
        (vec!["play", "--plain", "--bots", "nosuch"], "unknown robot"),
        (
            vec!["play", "--plain", "--bots", "a,b,c"],
            "one or two robot",
        ),
        (
            vec!["play", "--plain", "--seat", "3"],
            "a seat is 0, 1 or 2",
        ),
        (vec!["play", "--plain", "--hint-bot", "x"], "--hint-bot"),
        (
            vec!["play", "--plain", "--level", "9"],
            "--level: \"level:9\" is not a level: level:1 (a beginner) to level:8",
        ),
        (
            vec!["play", "--plain", "--level", "3", "--bots", "value"],
            "cannot be used with",
        ),
        (vec!["play", "--plain", "--rules", "nope"], "--rules"),
        (vec!["play", "--no-records"], "needs a terminal"),
    ] {
        let out = ddz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

#[test]
fn input_ending_mid_game_leaves_cleanly_without_a_record() {
    let dir = records_dir("eof");
    let out = ddz_stdin(
        &[
            "play",
            "--plain",
            "--seed",
            "3",
            "--bots",
            "value",
            "--records",
            dir.to_str().unwrap(),
        ],
        "help\n",
    );
    let text = stdout(&out);
    assert!(text.contains("commands:"), "{text}");
    assert!(text.contains("total after 0 games"), "{text}");
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
}

/// `ddz play --plain --seed 21 --no-records --exec EXEC --bots NAME,value` on `script`.
fn with_external(exec: &str, name: &str, script: &str) -> String {
    let bots = format!("{name},value");
    let args = [
        "play",
        "--plain",
        "--seed",
        "21",
        "--no-records",
        "--exec",
        exec,
        "--bots",
        &bots,
    ];
    stdout(&ddz_stdin(&args, script))
}

#[test]
fn an_external_robot_takes_a_seat_with_exec() {
    let exec = format!("ext={} bot --bot greedy", env!("CARGO_BIN_EXE_ddz"));
    let text = with_external(&exec, "ext", "auto\nn\n");
    assert!(
        text.contains("robots ext (seat 1) and value (seat 2)"),
        "{text}"
    );
    assert!(text.contains("ext (seat 1) "), "{text}");
    assert!(!text.contains("forfeits"), "{text}");
    assert_eq!(text.matches("game over: ").count(), 1, "{text}");
}

#[test]
fn a_failing_external_robot_forfeits_and_the_sitting_goes_on() {
    // `false` exits at once: the robot fails at its first decision.
    let text = with_external("dead=false", "dead", "auto\ny\nauto\nn\n");
    assert_eq!(
        text.matches("failed and forfeits the game").count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("game over: ").count(), 2, "{text}");
}

#[test]
fn the_default_robots_are_search_on_a_clock() {
    // Without --bots both seats are the strongest robot, searching 250 ms a decision.
    let out = ddz_stdin(
        &["play", "--plain", "--seed", "3", "--no-records"],
        "quit\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("robots search (seat 1) and search (seat 2)"),
        "{text}"
    );
    let help = stdout(&ddz(&["play", "--help"]));
    assert!(help.contains("search:time=250ms"), "{help}");
}
