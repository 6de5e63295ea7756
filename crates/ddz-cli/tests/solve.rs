//! `ddz solve` end to end: duels and three-seat positions, text and JSON, the table's play,
//! wild readings, and errors with exit code 2.

use crate::common;

use common::{ddz, json, stdout};

use serde_json::Value;

/// The notation of every winning move.
fn winning(v: &Value) -> Vec<&str> {
    v["winning_notation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

/// Runs `ddz` expecting bad input: exit code 2 and an error on stderr; returns the error.
fn bad(args: &[&str]) -> String {
    let out = ddz(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn the_issue_duel_is_lost_by_the_first_player() {
    let v = json(&ddz(&["solve", "--hands", "2QQTT77553,AA9", "--json"]));
    assert_eq!(v["to_move_wins"], false);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 0);
    assert_eq!(v["winning_seats"], serde_json::json!([1]));
    // The line alternates seats from seat 0 and ends with seat 1 going out.
    let line = v["line"].as_array().unwrap();
    assert_eq!(line[0][0], 0);
    for (i, step) in line.iter().enumerate() {
        assert_eq!(step[0], i % 2, "{step}");
        assert!(step[1]["cards"].is_string() && step[1]["kind"].is_string());
    }
    assert_eq!(line.last().unwrap()[0], 1);
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn duel_text_lists_winning_moves_and_a_line() {
    let text = stdout(&ddz(&["solve", "--hands", "QQTT,A3"]));
    assert!(text.starts_with("duel (one pass ends the trick)"), "{text}");
    assert!(
        text.contains("seat 0 to move wins with best play: seat 0 wins."),
        "{text}"
    );
    assert!(text.contains("winning moves (2): TT  QQ"), "{text}");
    assert!(text.contains("principal line:"), "{text}");
}

#[test]
fn duel_with_a_play_to_beat() {
    // Hupu puzzle after 2QQTT77553 led its 3: passing is the only winning reply.
    let v = json(&ddz(&[
        "solve",
        "--hands",
        "AA9,2QQTT7755",
        "--last",
        "3",
        "--json",
    ]));
    assert_eq!(v["to_move_wins"], true);
    assert_eq!(winning(&v), ["pass"]);
    assert_eq!(v["winning_moves"][0]["kind"], "pass");
    // The other seat to move: the last play is then seat 0's by default.
    let v = json(&ddz(&[
        "solve",
        "--hands",
        "2QQTT7755,AA9",
        "--turn",
        "1",
        "--last",
        "3",
        "--json",
    ]));
    assert_eq!(winning(&v), ["pass"]);
    assert_eq!(v["line"][0][0], 1);
}

#[test]
fn three_seats_landlord_and_passes() {
    // The landlord's 9 already passed once (by seat 1): the K is the only winning move.
    let args = [
        "solve",
        "--hands",
        "QQ,T,K4",
        "--turn",
        "2",
        "--last",
        "9",
        "--last-seat",
        "0",
        "--json",
    ];
    let v = json(&ddz(&args));
    assert_eq!(v["to_move_wins"], true);
    assert_eq!(winning(&v), ["K"]);
    assert_eq!(v["winning_seats"], serde_json::json!([1, 2]));
    // Played by the partner just before (no pass yet), passing wins as well.
    let mut args = args;
    args[8] = "1";
    let v = json(&ddz(&args));
    assert_eq!(winning(&v), ["K", "pass"]);
    // Another landlord (the farmers at seats 0 and 2), to move by default: either straight
    // of five leaves a card nobody can beat in time, or all six go at once.
    let v = json(&ddz(&[
        "solve",
        "--hands",
        "9TJ,345678,QQ",
        "--landlord",
        "1",
        "--json",
    ]));
    assert_eq!(v["line"][0][0], 1);
    assert_eq!(v["to_move_wins"], true);
    assert_eq!(winning(&v), ["34567", "45678", "345678"]);
    let text = stdout(&ddz(&["solve", "--hands", "22,3K,4", "--turn", "1"]));
    assert!(text.contains("three seats"), "{text}");
    assert!(text.contains("seat 0 (landlord)"), "{text}");
    assert!(text.contains("the farmers win."), "{text}");
    assert!(text.contains("winning moves (1): 3"), "{text}");
}

#[test]
fn wild_readings_in_moves() {
    let v = json(&ddz(&[
        "solve", "--hands", "7779,88", "--rules", "laizi", "--laizi", "9", "--json",
    ]));
    let w = winning(&v);
    assert!(w.contains(&"7779=7777"), "{w:?}");
    assert!(w.contains(&"7779:trio_single:7"), "{w:?}");
    let bomb = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["as"] == "7777")
        .unwrap();
    assert_eq!(bomb["class"], "soft");
    // A wild reading on the table: the hard bomb beats the soft one.
    let v = json(&ddz(&[
        "solve",
        "--hands",
        "5555,3",
        "--last",
        "7779=7777",
        "--rules",
        "laizi",
        "--laizi",
        "9",
        "--json",
    ]));
    assert_eq!(winning(&v), ["5555"]);
}

#[test]
fn node_limit_reports_unknown() {
    let err = bad(&["solve", "--hands", "2QQTT77553,AA9", "--max-nodes", "10"]);
    assert!(err.contains("node budget ran out"), "{err}");
}

#[test]
fn bad_input_says_what() {
    let err = bad(&["solve", "--hands", "33Z,4"]);
    assert!(err.contains("hand 1 \"33Z\""), "{err}");
    let err = bad(&["solve", "--hands", "3"]);
    assert!(err.contains("two hands"), "{err}");
    let err = bad(&["solve", "--hands", "3,4,5,6"]);
    assert!(err.contains("got 4"), "{err}");
    let err = bad(&["solve", "--hands", "33333,4"]);
    assert!(err.contains("hand 1 \"33333\""), "{err}");
    let err = bad(&["solve", "--hands", "333,33"]);
    assert!(err.contains("hold 5 cards of 3; one deck has 4"), "{err}");
    let err = bad(&["solve", "--hands", "3,,5"]);
    assert!(err.contains("seat 1 holds no cards"), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--turn", "2"]);
    assert!(
        err.contains("--turn \"2\": expected a seat, 0 or 1"),
        "{err}"
    );
    let err = bad(&["solve", "--hands", "3,4,5", "--turn", "x"]);
    assert!(err.contains("0, 1 or 2"), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--landlord", "1"]);
    assert!(err.contains("no landlord"), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--last", "5", "--last-seat", "0"]);
    assert!(err.contains("the seat to move"), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--last", "56"]);
    assert!(err.contains("--last \"56\""), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--last", "pass"]);
    assert!(err.contains("not a pass"), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--last-seat", "1"]);
    assert!(err.contains("--last"), "{err}");
    let err = bad(&["solve", "--hands", "3,4", "--rules", "poker"]);
    assert!(err.contains("not a rule profile"), "{err}");
}

#[test]
fn help_documents_every_option() {
    let text = stdout(&ddz(&["solve", "--help"]));
    for option in [
        "--hands",
        "--turn",
        "--last",
        "--last-seat",
        "--landlord",
        "--max-nodes",
        "--rules",
        "--laizi",
        "--json",
    ] {
        assert!(text.contains(option), "{option}: {text}");
    }
}
