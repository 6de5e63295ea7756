//! The exact message of every error a bad `ddz-jsonl/1` request or bad Botzone input gets,
//! compared line by line with `tests/data/error_messages.txt`, recorded when the errors were
//! still plain strings (`DDZ_RECORD_FIXTURE=1` records it afresh, for an intended change of a
//! message only).

use std::path::PathBuf;

use ddz_bots::Bot;
use ddz_core::{Move, Rules};
use ddz_game::{Bid, SeatView};
use ddz_protocol::{botzone, jsonl};
use serde_json::{Value, json};

/// A request or input and what it got.
#[derive(Default)]
struct Record(Vec<String>);

impl Record {
    fn line(&mut self, input: &str, outcome: &str) {
        assert!(!input.contains('\n') && !outcome.contains('\n'));
        self.0.push(format!("{input}\t{outcome}"));
    }

    fn check(self, file: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(file);
        let text = self.0.join("\n") + "\n";
        if std::env::var_os("DDZ_RECORD_FIXTURE").is_some() {
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let recorded =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (i, (was, now)) in recorded.lines().zip(text.lines()).enumerate() {
            assert_eq!(
                now,
                was,
                "{file} line {}: now (left), recorded (right)",
                i + 1
            );
        }
        assert_eq!(text.lines().count(), recorded.lines().count(), "{file}");
    }
}

/// `base` with the field `key` set to `value`, or removed when `value` is `None`.
fn with(base: &Value, key: &str, value: Option<Value>) -> Value {
    let mut v = base.clone();
    let obj = v.as_object_mut().unwrap();
    match value {
        Some(x) => {
            obj.insert(key.into(), x);
        }
        None => {
            obj.remove(key);
        }
    }
    v
}

/// `base` with several fields set.
fn with_all(base: &Value, fields: Value) -> Value {
    let mut v = base.clone();
    for (k, x) in fields.as_object().unwrap() {
        v = with(&v, k, Some(x.clone()));
    }
    v
}

/// Seat 1 follows the landlord's 2.
fn act() -> Value {
    json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 7, "seat": 1, "landlord_seat": 0,
        "role": "landlord_down", "hand": "334555668TTTQAA2R", "cards_left": [19, 17, 17],
        "history": [[0, "2"]], "last": {"seat": 0, "cards": "2"}})
}

/// The landlord leads.
fn lead() -> Value {
    json!({"protocol": "ddz-jsonl/1", "type": "act", "id": 8, "seat": 0, "landlord_seat": 0,
        "role": "landlord", "hand": "33445566778899TTJQ", "cards_left": [18, 17, 17],
        "history": [[0, "A"], [1, "pass"], [2, "pass"], [0, "K"], [1, "pass"], [2, "pass"]],
        "last": null})
}

/// Seat 1 bids after seat 0.
fn bid() -> Value {
    json!({"protocol": "ddz-jsonl/1", "type": "bid", "id": 9, "seat": 1, "hand": "3456",
        "bids": [[0, 1]]})
}

#[test]
fn jsonl_errors_are_the_recorded_ones() {
    let mut r = Record::default();
    let rules = Rules::classic();
    let mut lines: Vec<String> = ["", "oops", "[1]", "5", "{}"]
        .into_iter()
        .map(String::from)
        .collect();
    let a = act();
    let l = lead();
    let b = bid();
    let mut values = vec![
        with(&a, "protocol", None),
        with(&a, "protocol", Some(json!("ddz-jsonl/2"))),
        with(&a, "protocol", Some(json!(5))),
        with(&a, "id", None),
        with(&a, "type", None),
        with(&a, "type", Some(json!(5))),
        with(&a, "type", Some(json!("dance"))),
        with(&a, "rules", Some(json!("poker"))),
        with(&a, "rules", Some(json!(5))),
        with(&a, "laizi", Some(json!("9"))),
        with(&a, "laizi", Some(json!(["Z"]))),
        with(&a, "laizi", Some(json!([5]))),
        with(&a, "laizi", Some(json!(["99"]))),
        with(&a, "laizi", Some(json!(["9", "T", "J"]))),
        with_all(&a, json!({"rules": "laizi", "laizi": ["9", "9"]})),
        with_all(&a, json!({"rules": "tiandi", "laizi": ["9", "9"]})),
        with(&a, "seat", None),
        with(&a, "seat", Some(json!(3))),
        with(&a, "seat", Some(json!("1"))),
        with(&a, "landlord_seat", Some(json!(-1))),
        with(&a, "role", None),
        with(&a, "role", Some(json!(5))),
        with(&a, "role", Some(json!("king"))),
        with(&a, "role", Some(json!("landlord_up"))),
        with(&a, "hand", None),
        with(&a, "hand", Some(json!(5))),
        with(&a, "hand", Some(json!("3Z"))),
        with(&a, "hand", Some(json!(""))),
        with(&a, "cards_left", None),
        with(&a, "cards_left", Some(json!("x"))),
        with(&a, "cards_left", Some(json!([1, 2]))),
        with(&a, "cards_left", Some(json!([19, 0, 17]))),
        with(&a, "cards_left", Some(json!([19, 17, 21]))),
        with(&a, "cards_left", Some(json!([19, 16, 17]))),
        with(&a, "cards_left", Some(json!([20, 17, 17]))),
        with(&a, "history", None),
        with(&a, "history", Some(json!("x"))),
        with(&a, "history", Some(json!([[0]]))),
        with(&a, "history", Some(json!([5]))),
        with(&a, "history", Some(json!([[5, "2"]]))),
        with(&a, "history", Some(json!([[1, "2"]]))),
        with(&a, "history", Some(json!([[0, "ZZ"]]))),
        with(&a, "history", Some(json!([[0, 5]]))),
        with(&a, "history", Some(json!([[0, "pass"]]))),
        with(&a, "history", Some(json!([[0, "3"], [1, "33"]]))),
        with(
            &a,
            "history",
            Some(json!([
                [0, "3"],
                [1, "pass"],
                [2, "pass"],
                [0, "4"],
                [1, "3"]
            ])),
        ),
        with(
            &a,
            "history",
            Some(json!([[0, "2222"], [1, "pass"], [2, "pass"], [0, "2"]])),
        ),
        with(&a, "history", Some(json!([[0, "2"], [1, "pass"]]))),
        with(&a, "hand", Some(json!("334555668TTT2222R"))),
        with(&a, "played", Some(json!("x"))),
        with(&a, "played", Some(json!(["2", ""]))),
        with(&a, "played", Some(json!(["3", "", ""]))),
        with(&a, "played", Some(json!([5, "", ""]))),
        with(&a, "played", Some(json!(["Z", "", ""]))),
        with(&a, "bottom_cards_unplayed", Some(json!("3333"))),
        with(&a, "bottom_cards_unplayed", Some(json!(5))),
        with(&l, "bottom_cards_unplayed", Some(json!("222"))),
        with(&a, "last", None),
        with(&a, "last", Some(json!(5))),
        with(&a, "last", Some(json!({}))),
        with(&a, "last", Some(json!({"seat": 0}))),
        with(&a, "last", Some(json!({"seat": "x", "cards": "2"}))),
        with(&a, "last", Some(json!({"seat": 1, "cards": "2"}))),
        with(&a, "last", Some(json!({"seat": 0, "cards": 5}))),
        with(&a, "last", Some(json!({"seat": 0, "cards": "ZZ"}))),
        with(&a, "last", Some(json!({"seat": 0, "cards": "pass"}))),
        with(&a, "last", Some(json!({"seat": 0, "cards": "A"}))),
        with(&a, "last", Some(json!({"seat": 2, "cards": "2"}))),
        with(&a, "last", Some(Value::Null)),
        with(&l, "last", Some(json!({"seat": 2, "cards": "K"}))),
        with(&a, "legal_moves", Some(json!([]))),
        with(&a, "legal_moves", Some(json!("x"))),
        with(&a, "legal_moves", Some(json!([5]))),
        with(&a, "legal_moves", Some(json!(["ZZ"]))),
        with(&a, "legal_moves", Some(json!(["B"]))),
        with(&a, "legal_moves", Some(json!(["33"]))),
        with(&a, "legal_moves", Some(json!(["3"]))),
        with(&a, "legal_moves", Some(json!(["pass", "TTTT"]))),
        with(&l, "legal_moves", Some(json!(["pass"]))),
        with(&l, "legal_moves", Some(json!(["3", "2"]))),
        with(&a, "base", Some(json!(0))),
        with(&a, "multiplier", Some(json!("x"))),
        with(&a, "multiplier", Some(json!(1.5))),
        with(&b, "form", Some(json!("x"))),
        with(&b, "form", Some(json!(5))),
        with(&b, "seat", None),
        with(&b, "hand", Some(json!(""))),
        with(&b, "hand", Some(json!("33334444555566667777"))),
        with(&b, "hand", Some(json!("333344445555666677778"))),
        with(&b, "bids", Some(json!("x"))),
        with(&b, "bids", Some(json!([[0]]))),
        with(&b, "bids", Some(json!([[5, 1]]))),
        with(&b, "bids", Some(json!([[0, 4]]))),
        with(&b, "bids", Some(json!([[0, "1"]]))),
        with_all(&b, json!({"form": "call_rob", "bids": [[0, 2]]})),
        with(&b, "bids", Some(json!([[0, 1], [2, 2]]))),
        with(&b, "bids", Some(json!([[0, 2], [1, 1]]))),
        with(&b, "bids", Some(json!([[2, 1], [0, 2], [1, 0]]))),
        with(&b, "bids", Some(json!([[0, 3]]))),
        with(&b, "seat", Some(json!(0))),
        with(&b, "seat", Some(json!(2))),
        with_all(&b, json!({"seat": 1, "form": "call_rob", "bids": [[1, 1]]})),
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 1, "winner": 5}),
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 1, "winner": "nobody"}),
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 1, "scores": "x"}),
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 1, "scores": [1, 2]}),
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 1, "scores": [1, 2, "x"]}),
    ];
    values.push(json!({"protocol": "ddz-jsonl/1", "type": "hello"}));
    lines.extend(values.iter().map(Value::to_string));
    for line in &lines {
        match jsonl::parse_request(line, &rules) {
            Ok(_) => r.line(line, "accepted"),
            Err(e) => {
                r.line(line, &format!("id {}: {}", e.id, e.error));
                // The reply carries the message, the stable code and the field named.
                let reply = jsonl::rejection_reply(&e);
                assert_eq!(reply["error"], e.error.to_string(), "{line}");
                let code = reply["code"].as_str().unwrap();
                assert!(
                    jsonl::ProtocolError::CODES.contains(&code),
                    "{line}: {code}"
                );
                let field = reply.get("field").and_then(Value::as_str);
                match code {
                    "missing_field" | "invalid_field" => {
                        let field = field.unwrap_or_else(|| panic!("{line}: {reply}"));
                        // The field's own name is in the message (`"last": missing "seat"`).
                        let name = field
                            .split(['.', '['])
                            .rfind(|s| s.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                            .unwrap();
                        assert!(e.error.to_string().contains(name), "{line}: {reply}");
                    }
                    _ => assert_eq!(field, None, "{line}: {reply}"),
                }
            }
        }
    }
    r.check("error_messages_jsonl.txt");
}

/// A robot that answers what it was not allowed.
struct Cheat;

impl Bot for Cheat {
    fn name(&self) -> &str {
        "cheat"
    }

    fn bid(&mut self, _: &SeatView, _: &[Bid]) -> Bid {
        7
    }

    fn play(&mut self, _: &SeatView, allowed: &[Move]) -> Move {
        allowed
            .iter()
            .find(|m| !m.is_pass())
            .map_or(Move::PASS, |m| {
                ddz_core::parse_move("2222", &Rules::botzone(), None).unwrap_or(*m)
            })
    }
}

#[test]
fn botzone_errors_are_the_recorded_ones() {
    let mut r = Record::default();
    let own17 = json!([
        3, 5, 6, 11, 14, 15, 20, 21, 25, 26, 30, 32, 33, 37, 38, 41, 49
    ]);
    let own20 = json!([
        0, 1, 2, 4, 9, 10, 13, 17, 18, 19, 24, 28, 29, 36, 40, 44, 45, 48, 52, 53
    ]);
    let ftl = |first: Value, later: Vec<Value>, responses: Value| {
        let mut requests = vec![first];
        requests.extend(later);
        json!({"requests": requests, "responses": responses}).to_string()
    };
    let lead = json!({"own": own20, "history": [[], []], "public": [45, 48, 53]});
    let farmer = json!({"own": own17, "history": [[], [0]], "publiccard": [46, 50, 51]});
    let bidding = json!({"own": own17, "bid": [1]});
    let ftl2_play = json!({"history": [[], []], "publiccard": [46, 50, 51], "landlord": 1, "pos": 1, "finalbid": 3});
    let mut inputs: Vec<String> = [
        "",
        "oops",
        "[1]",
        "{}",
        r#"{"requests": []}"#,
        r#"{"requests": 5}"#,
        r#"{"requests": [5], "responses": []}"#,
        r#"{"requests": [{}], "responses": []}"#,
        r#"{"requests": [{"own": "x"}], "responses": []}"#,
        r#"{"requests": [{"own": [99]}], "responses": []}"#,
        r#"{"requests": [{"own": [1, 1]}], "responses": []}"#,
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let with_ = |v: &Value, key: &str, x: Option<Value>| with(v, key, x);
    inputs.extend([
        json!({"requests": [lead], "responses": 5}).to_string(),
        json!({"requests": [lead], "responses": [[1]]}).to_string(),
        ftl(with_(&lead, "history", Some(json!("x"))), vec![], json!([])),
        ftl(
            with_(&lead, "history", Some(json!([[]]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&lead, "history", Some(json!([[], "x"]))),
            vec![],
            json!([]),
        ),
        ftl(with_(&lead, "history", None), vec![], json!([])),
        ftl(with_(&lead, "public", None), vec![], json!([])),
        ftl(
            with_(&lead, "public", Some(json!([45, 48]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&lead, "public", Some(json!([0, 1, 2]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&lead, "own", Some(json!([0, 1, 2]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&farmer, "own", Some(json!([3, 5, 6]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(
                &farmer,
                "own",
                Some(json!([
                    3, 5, 6, 11, 14, 15, 20, 21, 25, 26, 30, 32, 33, 37, 38, 41, 46
                ])),
            ),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&farmer, "history", Some(json!([[], [3]]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&farmer, "history", Some(json!([[1], []]))),
            vec![],
            json!([]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [1]]})],
            json!([[]]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [44]]})],
            json!([[3]]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [44]]})],
            json!([[3, 49]]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [44]]})],
            json!([[49]]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [44]]})],
            json!(["x"]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[4], [44]]})],
            json!([[49]]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [44]]}), json!({"history": [[], []]})],
            json!([[49], []]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [1, 2]]})],
            json!([[49]]),
        ),
        ftl(
            farmer.clone(),
            vec![json!({"history": [[], [44]]})],
            json!([[49]]),
        ),
        ftl(farmer.clone(), vec![json!({})], json!([[49]])),
        ftl(farmer.clone(), vec![json!({"bid": [1]})], json!([[49]])),
        ftl(farmer.clone(), vec![json!(5)], json!([[49]])),
        ftl(
            with_(&bidding, "own", Some(json!([3, 5]))),
            vec![],
            json!([]),
        ),
        ftl(with_(&bidding, "bid", Some(json!("x"))), vec![], json!([])),
        ftl(
            with_(&bidding, "bid", Some(json!([1, 2, 3]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&bidding, "bid", Some(json!([3, 0]))),
            vec![],
            json!([]),
        ),
        ftl(
            with_(&bidding, "bid", Some(json!([2, 1]))),
            vec![],
            json!([]),
        ),
        ftl(with_(&bidding, "bid", Some(json!([5]))), vec![], json!([])),
        ftl(bidding.clone(), vec![ftl2_play.clone()], json!([1])),
        ftl(bidding.clone(), vec![ftl2_play.clone()], json!(["x"])),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "landlord", None)],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "landlord", Some(json!(5)))],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "pos", None)],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "pos", Some(json!(0)))],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "finalbid", None)],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "finalbid", Some(json!(0)))],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "history", Some(json!([[], [0]])))],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![with_(&ftl2_play, "pos", Some(json!(2)))],
            json!([3]),
        ),
        ftl(
            bidding.clone(),
            vec![ftl2_play.clone(), json!({"history": [[], []]})],
            json!([3, [50]]),
        ),
        ftl(
            lead.clone(),
            vec![json!({"history": [[], []]})],
            json!([[]]),
        ),
        ftl(
            lead.clone(),
            vec![json!({"history": [[], []]})],
            json!([[0, 4]]),
        ),
        ftl(
            lead.clone(),
            vec![json!({"history": [[], []]})],
            json!([[0, 99]]),
        ),
    ]);
    for input in &inputs {
        let outcome = botzone::Session::from_input(input).and_then(|s| s.turn());
        match outcome {
            Ok(_) => r.line(input, "accepted"),
            Err(e) => r.line(input, &e.to_string()),
        }
    }
    // Straight to the reader: no requests.
    let e = botzone::read_turn(&[], &[]).unwrap_err();
    r.line("read_turn([], [])", &e.to_string());
    // Keep-running lines.
    let mut session =
        botzone::Session::from_input(&ftl(farmer.clone(), vec![], json!([]))).unwrap();
    let e = session.push_request("oops").unwrap_err();
    r.line("push_request(oops)", &e.to_string());
    // Robots that answer what they were not allowed.
    for input in [
        ftl(bidding.clone(), vec![], json!([])),
        ftl(lead.clone(), vec![], json!([])),
    ] {
        let turn = botzone::Session::from_input(&input)
            .unwrap()
            .turn()
            .unwrap();
        let e = botzone::choose(&mut Cheat, &turn).unwrap_err();
        r.line(&format!("cheat on {input}"), &e.to_string());
    }
    // No input at all.
    let mut out = Vec::new();
    let result = botzone::serve(&mut Cheat, &b""[..], &mut out, false).unwrap();
    r.line("serve(no input)", &result.unwrap_err().to_string());
    r.line(
        "serve(no input) wrote",
        String::from_utf8(out).unwrap().trim_end(),
    );
    r.check("error_messages_botzone.txt");
}
