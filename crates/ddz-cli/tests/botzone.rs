//! `ddz bot --botzone`: Botzone's FightTheLandlord input through the built command.

use crate::common;

use common::{ddz_stdin, json};

fn data(name: &str) -> String {
    let path = format!(
        "{}/../ddz-protocol/tests/data/botzone/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn botzone_answers_one_line() {
    let out = ddz_stdin(
        &["bot", "--botzone", "--bot", "greedy"],
        &data("ftl_farmer_midgame.json"),
    );
    // Greedy leads its lowest single, the 3 of clubs (id 3).
    assert_eq!(json(&out), serde_json::json!({"response": [3]}));

    let out = ddz_stdin(&["bot", "--botzone"], &data("ftl2_bid.json"));
    let bid = json(&out)["response"].as_u64().expect("a bid");
    assert!([0, 2, 3].contains(&bid));
}

#[test]
fn botzone_bad_input_is_a_debug_line_and_exit_2() {
    let out = ddz_stdin(&["bot", "--botzone"], &data("malformed_missing_own.json"));
    assert_eq!(out.status.code(), Some(2));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let debug = line["debug"].as_str().unwrap();
    assert!(
        debug.starts_with("error: ") && debug.contains("\"own\""),
        "{debug}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing \"own\""));
}
