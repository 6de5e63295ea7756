//! `ddz replay` end to end on the record files of `ddz-game`'s test data: text, JSON, standard
//! input, and corrupt records (exit code 2, the step named).

use crate::common;

use common::{ddz, ddz_stdin, stdout};

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

fn record(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ddz-game/tests/data/records")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn failure(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "exit code 2 on a bad record");
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn text_shows_every_step_and_the_result() {
    let text = stdout(&ddz(&["replay", &record("classic.json")]));
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(record("classic.json")).unwrap()).unwrap();
    let plays = file["plays"].as_array().unwrap().len();
    assert!(
        text.starts_with("classic game, seed 3, bidding points\n"),
        "{text}"
    );
    assert!(text.contains("  kitty:  47J\n"), "{text}");
    assert!(text.contains("bid  2: seat 0 bids 3\n"), "{text}");
    assert!(
        text.contains("landlord: seat 0 takes the kitty 47J: 20 cards"),
        "{text}"
    );
    assert!(
        text.contains("play   1: seat 0 landlord      999AA                    left 15: "),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("play ")).count(),
        plays
    );
    assert!(text.contains("result: the farmers win (seat 1 out first); base 3 x multiplier 2"));
    assert!(
        text.contains("scores: seat 0 -12, seat 1 +6, seat 2 +6\n"),
        "{text}"
    );

    let wild = stdout(&ddz(&["replay", &record("tiandi-call-rob.json")]));
    assert!(wild.contains("wild ranks: A (heaven), 6 (earth)"), "{wild}");
    assert!(wild.contains("=34888999"), "{wild}");
}

#[test]
fn json_says_ok_with_steps_and_result() {
    for name in [
        "classic.json",
        "laizi.json",
        "tiandi-call-rob.json",
        "douzero.json",
    ] {
        let out = stdout(&ddz(&["replay", &record(name), "--json"]));
        let v: Value = serde_json::from_str(&out).unwrap();
        let file: Value =
            serde_json::from_str(&std::fs::read_to_string(record(name)).unwrap()).unwrap();
        assert_eq!(v["ok"], true);
        let steps =
            file["bids"].as_array().unwrap().len() + file["plays"].as_array().unwrap().len();
        assert_eq!(v["steps"], steps);
        assert_eq!(v["result"], file["result"], "{name}");
    }
}

#[test]
fn reads_standard_input() {
    let text = std::fs::read_to_string(record("laizi.json")).unwrap();
    let v: Value =
        serde_json::from_str(&stdout(&ddz_stdin(&["replay", "-", "--json"], &text))).unwrap();
    assert_eq!(v["ok"], true);
}

#[test]
fn corrupt_records_fail_naming_the_step() {
    let out = ddz(&["replay", &record("corrupt-play.json")]);
    let err = failure(&out);
    assert_eq!(
        err,
        "error: play 5 (seat 1, \"QQQQ\"): not all of these cards are in hand\n"
    );
    // The game is shown up to the failing step.
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("play   4: seat 0"), "{shown}");
    assert!(!shown.contains("play   5"), "{shown}");
    let err = failure(&ddz(&["replay", &record("corrupt-play.json"), "--json"]));
    assert!(err.starts_with("error: play 5 (seat 1, \"QQQQ\")"), "{err}");

    let text = std::fs::read_to_string(record("classic.json")).unwrap();
    let scores = text.replace("[-12,6,6]", "[-6,3,3]");
    let err = failure(&ddz_stdin(&["replay", "-"], &scores));
    assert_eq!(
        err,
        "error: result: recorded scores [-6,3,3], replayed [-12,6,6]\n"
    );
    let v9 = text.replace("ddz-record/1", "ddz-record/9");
    let err = failure(&ddz_stdin(&["replay", "-", "--json"], &v9));
    assert!(
        err.starts_with("error: format: unknown format version \"ddz-record/9\""),
        "{err}"
    );
    let err = failure(&ddz_stdin(&["replay", "-"], "{\"format\""));
    assert!(err.starts_with("error: json: not valid JSON"), "{err}");
    let err = failure(&ddz(&["replay", "/no/such/record.json"]));
    assert!(
        err.contains("cannot read record file /no/such/record.json"),
        "{err}"
    );
}
