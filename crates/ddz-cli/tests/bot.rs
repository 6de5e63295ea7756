//! `ddz bot`: the stdio protocol end to end through the built command.

use crate::common;

use common::{ddz, ddz_stdin, stdout};
use serde_json::{Value, json};

#[test]
fn bot_answers_every_line_and_exits_at_end_of_input() {
    let requests = [
        json!({"protocol": "ddz-jsonl/1", "type": "hello", "id": 0}).to_string(),
        json!({"protocol": "ddz-jsonl/1", "type": "bid", "id": "b1", "form": "points",
               "seat": 2, "hand": "334555668TTTQAA2R", "bids": [[0, 1], [1, 0]]})
        .to_string(),
        json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 7, "rules": "classic",
               "laizi": [], "seat": 1, "landlord_seat": 0, "role": "landlord_down",
               "hand": "334555668TTTQAA2R", "cards_left": [19, 17, 17],
               "played": ["2", "", ""], "bottom_cards_unplayed": "8KA",
               "history": [[0, "2"]], "last": {"seat": 0, "cards": "2"},
               "legal_moves": ["pass", "R"]})
        .to_string(),
        "this is not json".to_string(),
        json!({"protocol": "ddz-jsonl/1", "type": "act", "id": [8], "rules": "laizi",
               "laizi": ["9"], "seat": 0, "landlord_seat": 0, "role": "landlord",
               "hand": "7779", "cards_left": [4, 17, 17], "history": [], "last": null,
               "legal_moves": ["7779=7777"]})
        .to_string(),
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 9, "winner": "farmers",
               "scores": [-4, 2, 2]})
        .to_string(),
    ];
    let out = ddz_stdin(&["bot", "--bot", "value"], &(requests.join("\n") + "\n"));
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let replies: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("only JSON lines on stdout"))
        .collect();
    assert_eq!(replies.len(), requests.len(), "{text}");
    assert_eq!(replies[0]["id"], 0);
    assert_eq!(replies[0]["name"], "value");
    assert_eq!(replies[0]["protocol"], "ddz-jsonl/1");
    assert_eq!(replies[1]["id"], "b1");
    assert!([0, 2, 3].contains(&replies[1]["bid"].as_u64().unwrap()));
    assert_eq!(replies[2]["id"], 7);
    assert!(["pass", "R"].contains(&replies[2]["cards"].as_str().unwrap()));
    assert_eq!(replies[3]["id"], Value::Null);
    assert!(
        replies[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("not JSON")
    );
    assert_eq!(replies[4], json!({"id": [8], "cards": "7779=7777"}));
    assert_eq!(replies[5], json!({"id": 9, "ok": true}));
}

#[test]
fn bot_options() {
    // The default rules and wild ranks apply to requests without "rules" and "laizi".
    let act = json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 1, "seat": 0,
                     "landlord_seat": 0, "role": "landlord", "hand": "7779",
                     "cards_left": [4, 17, 17], "history": [], "last": null,
                     "legal_moves": ["7779=7777"]})
    .to_string();
    let out = ddz_stdin(
        &[
            "bot", "--bot", "random", "--seed", "3", "--rules", "laizi", "--laizi", "9",
        ],
        &act,
    );
    assert_eq!(stdout(&out).trim(), r#"{"id":1,"cards":"7779=7777"}"#);
    let out = ddz_stdin(&["bot"], &act);
    assert!(stdout(&out).contains("cannot be read as 7777"));
    // Bad options are refused before serving.
    let out = ddz(&["bot", "--bot", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bot: unknown robot"));
    // A difficulty level answers the protocol; a level that does not exist is refused.
    let hello = json!({"protocol": "ddz-jsonl/1", "type": "hello", "id": 0}).to_string() + "\n";
    let level = [
        "bot", "--bot", "level:3", "--rules", "laizi", "--laizi", "9",
    ];
    let out = ddz_stdin(&level, &(hello + &act));
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains(r#""cards":"7779=7777""#),
        "{}",
        stdout(&out)
    );
    for missing in ["level:0", "level:9"] {
        let out = ddz(&["bot", "--bot", missing]);
        assert_eq!(out.status.code(), Some(2), "{missing}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("\"{missing}\" is not a level")),
            "{err}"
        );
    }
    // Every option the search robot no longer has (docs/strength-runs/search-options-removed.md)
    // is refused by name, exit code 2.
    for removed in [
        "candidates",
        "nodes",
        "ibid",
        "temp",
        "sharp",
        "stemp",
        "ess",
        "objective",
        "ptemp",
        "reply",
        "psolve",
        "bid_at",
        "netc",
        "prior",
        "pnet",
        "leaf",
        "fnet",
        "fshare",
        "popp",
        "inet",
    ] {
        let spec = format!("search:{removed}=2");
        let out = ddz(&["bot", "--bot", &spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(
            error.contains(&format!("unknown search option \"{removed}\"")),
            "{spec}: {error}"
        );
    }
    let help = stdout(&ddz(&["bot", "--help"]));
    for option in ["--bot", "--seed", "--rules", "--rules-file", "--laizi"] {
        assert!(help.contains(option), "{option} in {help}");
    }
}

#[test]
fn table_robots_answer_two_and_four_seat_requests() {
    let two = [
        json!({"protocol": "ddz-jsonl/1", "type": "hello", "id": 0}),
        json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 1, "seat": 0, "landlord_seat": 0,
               "role": "landlord", "hand": "5556667778TTJJQKAA2B", "cards_left": [20, 17],
               "history": [], "last": null, "handicap": 2}),
        json!({"protocol": "ddz-jsonl/1", "type": "bid", "id": 2, "seat": 1,
               "hand": "56789TTJJQQKKAA2R", "bids": [[0, 1]]}),
        json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 3, "seat": 0, "landlord_seat": 0,
               "role": "landlord", "hand": "5556667778TTJJQKAA2B", "cards_left": [20, 17, 17],
               "history": [], "last": null, "handicap": 2}),
    ];
    let input: String = two.iter().map(|l| format!("{l}\n")).collect();
    let out = ddz_stdin(&["bot", "--rules", "two", "--bot", "ddzlib"], &input);
    assert!(out.status.success());
    let replies: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 4);
    assert_eq!(replies[0]["name"], "ddzlib");
    let cards = replies[1]["cards"].as_str().expect("a lead");
    assert!(cards != "pass", "{}", replies[1]);
    assert!(
        replies[2]["bid"].as_u64().is_some_and(|b| b <= 1),
        "{}",
        replies[2]
    );
    assert_eq!(
        replies[3]["error"], "\"cards_left\": expected 2 counts, got 3",
        "{}",
        replies[3]
    );
    // Four seats: the landlord's 33 cards, any table robot.
    let four = json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 9, "rules": "four",
        "seat": 2, "landlord_seat": 0, "role": "landlord_across",
        "hand": "3456789TTJJQQKKAA2222BBRR", "cards_left": [32, 25, 25, 25],
        "history": [[0, "3"], [1, "pass"]], "last": {"seat": 0, "cards": "3"}});
    for bot in ["random", "greedy", "ddzlib", "search:worlds=4:moves=2"] {
        let out = ddz_stdin(
            &["bot", "--rules", "four", "--bot", bot],
            &format!("{four}\n"),
        );
        let reply: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(reply["id"], 9, "{bot}: {reply}");
        assert!(reply["cards"].is_string(), "{bot}: {reply}");
    }
    // A three-seat robot's name is refused at a table, with the table's robots named.
    let out = ddz(&["bot", "--rules", "four", "--bot", "value"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--bot \"value\"") && err.contains("random, greedy, ddzlib, search"),
        "{err}"
    );
}
