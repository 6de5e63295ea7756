//! `ddz arena --exec`: external robots driven through the stdio protocol, and robots that fail.

use crate::common;

use common::{ddz, hand_computed_scores, json};
use serde_json::Value;

/// `NAME=COMMAND` for `ddz bot --bot ROBOT`, the built ddz.
fn ddz_bot(name: &str, robot: &str) -> String {
    format!("{name}={} bot --bot {robot}", env!("CARGO_BIN_EXE_ddz"))
}

fn failures(pair: &Value) -> (u64, u64) {
    let f = &pair["failures"];
    (f["a"].as_u64().unwrap(), f["b"].as_u64().unwrap())
}

#[test]
fn an_external_robot_plays_whole_games() {
    let exec = ddz_bot("ext", "ddzlib");
    let v = json(&ddz(&[
        "arena",
        "--exec",
        &exec,
        "--bots",
        "ext,value",
        "--deals",
        "6",
        "--quiet",
        "--json",
    ]));
    let p = &v["pairs"][0];
    assert_eq!(
        (p["a"].as_str(), p["b"].as_str()),
        (Some("ext"), Some("value"))
    );
    assert_eq!(p["deals"], 6);
    assert_eq!(p["games"], 12);
    assert_eq!(failures(p), (0, 0));
    let wp = p["wp"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&wp), "{wp}");
    assert!(p["adp"].as_f64().unwrap().abs() <= 64.0);

    // With bidding: bid requests too.
    let v = json(&ddz(&[
        "arena",
        "--exec",
        &exec,
        "--bots",
        "ext,greedy",
        "--deals",
        "2",
        "--bidding",
        "--quiet",
        "--json",
    ]));
    let p = &v["pairs"][0];
    assert_eq!(p["games"], 12);
    assert_eq!(failures(p), (0, 0));
}

#[test]
fn the_same_robot_inside_and_outside_is_even() {
    let exec = ddz_bot("ext", "ddzlib");
    let v = json(&ddz(&[
        "arena",
        "--exec",
        &exec,
        "--bots",
        "ext,ddzlib",
        "--deals",
        "6",
        "--quiet",
        "--json",
    ]));
    let p = &v["pairs"][0];
    assert_eq!(failures(p), (0, 0));
    assert_eq!(
        (p["wp"].as_f64(), p["adp"].as_f64()),
        (Some(0.5), Some(0.0))
    );
}

#[test]
fn every_seat_an_external_process() {
    // Both robots are `ddz bot` processes: every decision of every game goes through the
    // protocol; the same robot in and out gives the same figures as in-process play.
    let (a, b) = (ddz_bot("a", "ddzlib"), ddz_bot("b", "value"));
    let args = [
        "--bots", "a,b", "--deals", "4", "--seed", "9", "--quiet", "--json",
    ];
    let external = json(&ddz(
        &[&["arena", "--exec", &a, "--exec", &b][..], &args].concat()
    ));
    let p = &external["pairs"][0];
    assert_eq!((p["games"].as_u64(), failures(p)), (Some(8), (0, 0)));
    let inside = [
        "--bots",
        "ddzlib,value",
        "--deals",
        "4",
        "--seed",
        "9",
        "--quiet",
        "--json",
    ];
    let internal = json(&ddz(&[&["arena"][..], &inside].concat()));
    let q = &internal["pairs"][0];
    assert_eq!(
        (p["wp"].clone(), p["adp"].clone()),
        (q["wp"].clone(), q["adp"].clone())
    );
}

/// A Python robot: answers hello, then does what `body` says with each request `req` (the
/// parsed JSON) and its `id`.
const PRELUDE: &str = r#"import json, sys
for line in sys.stdin:
    req = json.loads(line)
    rid = req.get("id")
    if req.get("type") == "hello":
        print(json.dumps({"id": rid, "name": "bad", "protocol": "ddz-jsonl/1"}), flush=True)
        continue
"#;

/// Runs `--bots bad,greedy` with the robot `body` (after [`PRELUDE`]) and checks that every
/// game was counted, forfeited by the bad robot, and lost by it; returns the first reason.
fn broken(tag: &str, body: &str) -> String {
    broken_with(tag, body, &[], 4)
}

/// [`broken`] with more arena arguments (`extra`), playing `games` games.
fn broken_with(tag: &str, body: &str, extra: &[&str], games: u64) -> String {
    let dir = std::env::temp_dir().join(format!("ddz-exec-test-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("bad.py");
    std::fs::write(&script, format!("{PRELUDE}{body}")).unwrap();
    let exec = format!("bad=python3 {}", script.display());
    let deals = if extra.is_empty() { "2" } else { "1" };
    let args = [
        "arena",
        "--exec",
        &exec,
        "--bots",
        "bad,greedy",
        "--deals",
        deals,
        "--timeout",
        "300",
        "--quiet",
        "--json",
    ];
    let out = ddz(&[&args[..], extra].concat());
    let _ = std::fs::remove_dir_all(&dir);
    let v = json(&out);
    let p = &v["pairs"][0];
    assert_eq!(p["games"], games, "{p}");
    assert_eq!(failures(p), (games, 0), "{p}");
    assert_eq!(p["wp"].as_f64(), Some(0.0), "{p}");
    assert!(p["adp"].as_f64().unwrap() < 0.0, "{p}");
    p["failures"]["examples"][0].as_str().unwrap().to_string()
}

#[test]
fn an_illegal_move_forfeits() {
    // A single card the hand does not hold.
    let body = r#"    missing = [r for r in "3456789TJQKA2" if r not in req.get("hand", "")][0]
    print(json.dumps({"id": rid, "cards": missing}), flush=True)
"#;
    let why = broken("illegal", body);
    assert!(why.contains("not an allowed move"), "{why}");
    assert!(why.contains("(bad)"), "{why}");
}

/// A robot body that bids 0, plays the first legal move, shows and doubles as `show` and
/// `double` (Python expressions) say.
fn huanle_body(show: &str, double: &str) -> String {
    format!(
        r#"    t = req.get("type")
    if t == "bid":
        out = {{"id": rid, "bid": 0}}
    elif t == "act":
        out = {{"id": rid, "cards": req["legal_moves"][0]}}
    elif t == "show":
        out = {{"id": rid, "show": {show}}}
    elif t == "double":
        out = {{"id": rid, "double": {double}}}
    else:
        out = {{"id": rid, "ok": True}}
    print(json.dumps(out), flush=True)
"#
    )
}

const HUANLE: [&str; 3] = ["--rules", "huanle", "--bidding"];

#[test]
fn hostile_double_and_show_replies_forfeit() {
    // A factor not among the choices.
    let why = broken_with("double", &huanle_body("False", "3"), &HUANLE, 6);
    assert!(why.contains("double: 3 is not an allowed factor"), "{why}");
    // A doubling that is not a number.
    let body = huanle_body("False", "\"lots\"");
    let why = broken_with("double-text", &body, &HUANLE, 6);
    assert!(why.contains("double: \"lots\""), "{why}");
    // A show that is not a boolean.
    let why = broken_with("show", &huanle_body("\"yes\"", "1"), &HUANLE, 6);
    assert!(why.contains("show: \"yes\" is not true or false"), "{why}");
    // No `show` at all.
    let body = huanle_body("None", "1").replace(r#", "show": None"#, "");
    let why = broken_with("show-none", &body, &HUANLE, 6);
    assert!(why.contains("show: null"), "{why}");
}

#[test]
fn a_huanle_game_through_the_protocol() {
    // Every seat an external process: bidding, showing, doubling and play through the
    // protocol give the figures of the same robots in process.
    let (a, b) = (ddz_bot("a", "ddzlib"), ddz_bot("b", "value"));
    let args = [
        "--bots",
        "a,b",
        "--deals",
        "3",
        "--seed",
        "5",
        "--rules",
        "huanle",
        "--bidding",
        "--quiet",
        "--json",
    ];
    let records = std::env::temp_dir().join(format!("ddz-exec-huanle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&records);
    let records_arg = records.to_str().unwrap();
    let external = json(&ddz(&[
        &[
            "arena",
            "--exec",
            &a,
            "--exec",
            &b,
            "--records",
            records_arg,
        ][..],
        &args,
    ]
    .concat()));
    let p = &external["pairs"][0];
    assert_eq!((p["games"].as_u64(), failures(p)), (Some(18), (0, 0)));
    // Each game's scores, as recorded, equal the ones worked out by hand from its actions.
    let mut checked = 0;
    for entry in std::fs::read_dir(&records).expect("records written") {
        let path = entry.unwrap().path();
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let recorded: Vec<i64> = record["result"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(
            hand_computed_scores(&record).to_vec(),
            recorded,
            "{}",
            path.display()
        );
        checked += 1;
    }
    assert_eq!(checked, 18);
    let _ = std::fs::remove_dir_all(&records);
    let inside = [
        "--bots",
        "ddzlib,value",
        "--deals",
        "3",
        "--seed",
        "5",
        "--rules",
        "huanle",
        "--bidding",
        "--quiet",
        "--json",
    ];
    let internal = json(&ddz(&[&["arena"][..], &inside].concat()));
    let q = &internal["pairs"][0];
    assert_eq!(
        (p["wp"].clone(), p["adp"].clone()),
        (q["wp"].clone(), q["adp"].clone())
    );
}

#[test]
fn a_crash_forfeits() {
    let why = broken("crash", "    sys.exit(0)\n");
    assert!(why.contains("exited"), "{why}");
}

#[test]
fn silence_forfeits() {
    let why = broken("silent", "    continue\n");
    assert!(why.contains("timeout"), "{why}");
}

#[test]
fn malformed_and_error_replies_forfeit() {
    let why = broken("garbage", "    print('nonsense', flush=True)\n");
    assert!(why.contains("malformed"), "{why}");
    let body = "    print(json.dumps({'id': rid, 'error': 'no idea'}), flush=True)\n";
    let why = broken("error", body);
    assert!(why.contains("no idea"), "{why}");
    let body = "    print(json.dumps({'id': 99, 'cards': 'pass'}), flush=True)\n";
    let why = broken("wrong-id", body);
    assert!(why.contains("reply to id 99, expected"), "{why}");
    let body = "    print(json.dumps({'id': rid, 'cards': 5}), flush=True)\n";
    let why = broken("cards-number", body);
    assert!(why.contains("act: \"cards\": 5 is not a move"), "{why}");
}

#[test]
fn bad_definitions_are_refused() {
    for (exec, message) in [
        ("nameonly", "expected NAME=COMMAND"),
        ("greedy=ddz bot", "built-in"),
        ("x=/nonexistent/ddz-robot", "cannot start"),
    ] {
        let out = ddz(&[
            "arena", "--exec", exec, "--bots", "x,greedy", "--deals", "1", "--quiet",
        ]);
        assert!(!out.status.success(), "{exec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{exec}: {err}");
    }
    let out = ddz(&[
        "arena", "--exec", "x=prog", "--bots", "y,greedy", "--deals", "1",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("external robots: x"), "{err}");
}
