//! The `ddz-jsonl/1` protocol: valid requests, every malformed or hostile kind of request (each
//! answered with an error naming the field, serving going on), random input, and whole games
//! played through `serve` only.

use ddz_bots::{Bot, make_bot};
use ddz_core::{Bidding, Rules, is_legal, parse_move};
use ddz_game::{Action, Actions, Game, Phase};
use ddz_game::{below, rng};
use ddz_protocol::jsonl::{self as protocol, MAX_LINE, Request, parse_request};
use serde_json::{Value, json};

/// Serves `input` with the `value` robot under classic default rules; one reply per line.
fn serve_bytes(input: &[u8], lines: usize) -> Vec<Value> {
    let mut bot = make_bot("value", 1).unwrap();
    let mut out = Vec::new();
    protocol::serve(bot.as_mut(), "value", &Rules::classic(), input, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let replies: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON reply line"))
        .collect();
    assert_eq!(replies.len(), lines, "one reply per request:\n{text}");
    replies
}

fn serve_lines(lines: &[String]) -> Vec<Value> {
    let mut input = lines.join("\n");
    input.push('\n');
    serve_bytes(input.as_bytes(), lines.len())
}

fn hello(id: i64) -> String {
    json!({"protocol": "ddz-jsonl/1", "type": "hello", "id": id}).to_string()
}

/// A valid act request (seat 1 following the landlord's 2) with `changes` applied; a change
/// to `ABSENT` removes the field.
fn act(changes: Value) -> String {
    let mut req = json!({
        "protocol": "ddz-jsonl/1", "type": "act", "id": 7, "rules": "classic", "laizi": [],
        "seat": 1, "landlord_seat": 0, "role": "landlord_down",
        "hand": "334555668TTTQAA2R", "cards_left": [19, 17, 17], "played": ["2", "", ""],
        "bottom_cards_unplayed": "8KA", "history": [[0, "2"]],
        "last": {"seat": 0, "cards": "2"}, "legal_moves": ["pass", "R"],
    });
    merge(&mut req, changes);
    req.to_string()
}

/// A valid bid request with `changes` applied.
fn bid(changes: Value) -> String {
    let mut req = json!({"protocol": "ddz-jsonl/1", "type": "bid", "id": 1, "rules": "classic",
        "form": "points", "laizi": [], "seat": 2, "hand": "334555668TTTQAA2R",
        "bids": [[0, 1], [1, 0]]});
    merge(&mut req, changes);
    req.to_string()
}

/// A change that removes a field.
const ABSENT: &str = "<absent>";

fn merge(req: &mut Value, changes: Value) {
    let (Value::Object(req), Value::Object(changes)) = (req, changes) else {
        panic!("objects");
    };
    for (k, v) in changes {
        if v == ABSENT {
            req.remove(&k);
        } else {
            req.insert(k, v);
        }
    }
}

#[test]
fn hello_result_and_ids_of_any_type() {
    let ids = [
        json!(0),
        json!("abc"),
        json!(1.5),
        json!([1, {"a": null}]),
        json!({"k": 2}),
        json!(true),
        Value::Null,
    ];
    let mut lines: Vec<String> = ids
        .iter()
        .map(|id| json!({"protocol": "ddz-jsonl/1", "type": "hello", "id": id}).to_string())
        .collect();
    lines.push(
        json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 9,
                      "winner": "landlord", "scores": [4, -2, -2]})
        .to_string(),
    );
    let replies = serve_lines(&lines);
    for (id, r) in ids.iter().zip(&replies) {
        assert_eq!(&r["id"], id);
        assert_eq!(r["name"], "value");
        assert_eq!(r["protocol"], "ddz-jsonl/1");
        assert!(r["version"].is_string());
    }
    assert_eq!(replies[ids.len()], json!({"id": 9, "ok": true}));
}

#[test]
fn act_follows_and_leads() {
    let leading = json!({"seat": 0, "role": "landlord", "hand": "33344456789TJQKA2BR2",
        "cards_left": [20, 17, 17], "played": ["", "", ""], "history": [], "last": null,
        "legal_moves": null, "bottom_cards_unplayed": "2BR"});
    let after_passes = json!({"history": [[0, "2"], [1, "pass"], [2, "pass"]], "seat": 0,
        "role": "landlord", "hand": "3334445678TJQKA2BR", "cards_left": [18, 17, 17],
        "played": ["2", "", ""], "last": null, "legal_moves": null,
        "bottom_cards_unplayed": null});
    let replies = serve_lines(&[
        act(json!({})),
        act(json!({"legal_moves": null})),
        act(leading),
        act(after_passes),
    ]);
    let rules = Rules::classic();
    let two = parse_move("2", &rules, None).unwrap();
    assert_eq!(replies[0]["id"], 7);
    let c = replies[0]["cards"].as_str().unwrap();
    assert!(c == "pass" || c == "R", "{c}");
    let hand = "334555668TTTQAA2R".parse().unwrap();
    let m = parse_move(replies[1]["cards"].as_str().unwrap(), &rules, Some(&two)).unwrap();
    assert!(is_legal(hand, Some(&two), &m, &rules));
    for (r, hand) in [
        (&replies[2], "33344456789TJQKA2BR2"),
        (&replies[3], "3334445678TJQKA2BR"),
    ] {
        let m = parse_move(r["cards"].as_str().unwrap(), &rules, None).unwrap();
        assert!(
            !m.is_pass() && is_legal(hand.parse().unwrap(), None, &m, &rules),
            "{r}"
        );
    }
}

#[test]
fn wild_and_declared_readings_round_trip() {
    // With 9 wild, 7779=7777 is the soft bomb of 7s; the robot must answer exactly it.
    let wild = json!({"rules": "laizi", "laizi": ["9"], "seat": 0, "role": "landlord",
        "hand": "7779", "cards_left": [4, 17, 17], "played": null, "history": [], "last": null,
        "legal_moves": ["7779=7777"], "bottom_cards_unplayed": null});
    let declared = json!({"seat": 0, "role": "landlord", "hand": "333444555666",
        "cards_left": [12, 17, 17], "played": null, "history": [], "last": null,
        "legal_moves": ["333444555666:airplane_singles:6"], "bottom_cards_unplayed": null});
    // A wild play in the history, read back as the play to beat.
    let beaten = json!({"rules": "laizi", "laizi": ["9"], "hand": "334555668TTTQAA2R",
        "cards_left": [16, 17, 17], "played": ["7779", "", ""], "history": [[0, "7779=7777"]],
        "last": {"seat": 0, "cards": "7779=7777"}, "legal_moves": null,
        "bottom_cards_unplayed": null});
    let replies = serve_lines(&[act(wild), act(declared), act(beaten)]);
    assert_eq!(replies[0]["cards"], "7779=7777");
    assert_eq!(replies[1]["cards"], "333444555666:airplane_singles:6");
    assert!(replies[2]["cards"].is_string(), "{}", replies[2]);
    let rules = Rules::laizi().with_laizi(&[ddz_core::Rank::Nine]).unwrap();
    let parsed = parse_request(
        &act(json!({"rules": "laizi", "laizi": ["9"], "seat": 0,
        "role": "landlord", "hand": "7779", "cards_left": [4, 17, 17], "played": null,
        "history": [], "last": null, "legal_moves": ["7779=7777"],
        "bottom_cards_unplayed": null})),
        &Rules::classic(),
    )
    .unwrap();
    let Request::Act(a) = parsed.request else {
        panic!("act")
    };
    assert_eq!(
        a.allowed,
        vec![parse_move("7779=7777", &rules, None).unwrap()]
    );
    assert_eq!(a.view.rules(), &rules);
}

#[test]
fn bids_points_and_call_rob() {
    let replies = serve_lines(&[
        bid(json!({})),
        bid(json!({"form": "call_rob", "bids": [[0, 0], [1, 1]]})),
        bid(json!({"bids": [], "id": "b"})),
    ]);
    let b = replies[0]["bid"].as_u64().unwrap();
    assert!([0, 2, 3].contains(&b), "{b}");
    assert!(replies[1]["bid"].as_u64().unwrap() <= 1);
    assert_eq!(replies[2]["id"], "b");
    assert!(replies[2]["bid"].as_u64().unwrap() <= 3);
    let parsed = parse_request(&bid(json!({"form": "call_rob"})), &Rules::classic()).unwrap();
    let Request::Bid(b) = parsed.request else {
        panic!("bid")
    };
    assert_eq!(b.allowed, vec![0, 1]);
    assert_eq!(b.view.rules().bidding, Bidding::CallRob);
}

/// Each bad request with the substring its error must hold; a hello follows each one.
#[test]
fn bad_requests_get_errors_and_serving_goes_on() {
    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "not JSON"),
        ("".into(), "not JSON"),
        ("[1, 2]".into(), "not a JSON object"),
        (
            r#"{"type": "hello", "id": 1}"#.into(),
            "missing \"protocol\"",
        ),
        (
            r#"{"protocol": "ddz-jsonl/2", "type": "hello", "id": 1}"#.into(),
            "\"protocol\": \"ddz-jsonl/2\" is not",
        ),
        (
            r#"{"protocol": "ddz-jsonl/1", "type": "x", "id": 1}"#.into(),
            "unknown type \"x\"",
        ),
        (
            r#"{"protocol": "ddz-jsonl/1", "id": 1}"#.into(),
            "missing \"type\"",
        ),
        (
            r#"{"protocol": "ddz-jsonl/1", "type": "hello"}"#.into(),
            "missing \"id\"",
        ),
        (
            act(json!({"hand": "Z34555668TTTQAA2R"})),
            "\"hand\": \"Z\" at position",
        ),
        (
            act(json!({"hand": 5})),
            "\"hand\": expected cards as a string",
        ),
        (act(json!({"hand": ABSENT})), "missing \"hand\""),
        (act(json!({"history": ABSENT})), "missing \"history\""),
        (act(json!({"last": ABSENT})), "missing \"last\""),
        (act(json!({"seat": 3})), "\"seat\": 3 is not a seat"),
        (act(json!({"seat": -1})), "\"seat\": -1 is not a seat"),
        (
            act(json!({"landlord_seat": "0"})),
            "\"landlord_seat\": \"0\" is not a seat",
        ),
        (
            act(json!({"role": "landlord_up"})),
            "\"role\": seat 1 with the landlord in seat 0 is landlord_down",
        ),
        (act(json!({"role": "king"})), "\"role\": \"king\" is not"),
        (
            act(json!({"cards_left": [19, 16, 17]})),
            "\"cards_left\": seat 1 has 16 cards left, but \"hand\" holds 17",
        ),
        (
            act(json!({"cards_left": [19, 17]})),
            "\"cards_left\": expected 3 counts",
        ),
        (
            act(json!({"cards_left": [20, 17, 17]})),
            "\"cards_left\": seat 0 has 20 left and played 1",
        ),
        (
            act(json!({"last": {"seat": 1, "cards": "2"}})),
            "\"last.seat\": seat 1 is the seat to act",
        ),
        (
            act(json!({"last": {"seat": 0, "cards": "3"}})),
            "\"last\": 3 by seat 0 does not match \"history\"",
        ),
        (
            act(json!({"last": {"seat": 0}})),
            "\"last\": missing \"cards\"",
        ),
        (act(json!({"last": 5})), "\"last\": expected"),
        (
            act(json!({"history": [], "last": {"seat": 0, "cards": "2"}})),
            "\"seat\": after \"history\" seat 0 is to play",
        ),
        (
            act(json!({"history": [[1, "2"]]})),
            "\"history\"[0]: seat 1 plays out of turn",
        ),
        (
            act(json!({"history": [[0, "pass"]]})),
            "\"history\"[0]: seat 0 passes while leading",
        ),
        (
            act(json!({"history": [[0, "2"], [1, "3"]]})),
            "\"history\"[1]: \"3\": 3 does not beat 2",
        ),
        (
            act(json!({"history": [0, "2"]})),
            "\"history\"[0]: 0 is not [seat, move]",
        ),
        (
            act(
                json!({"history": [[0, "2222"]], "cards_left": [16, 17, 17], "played": null,
                    "last": {"seat": 0, "cards": "2222"}, "legal_moves": null}),
            ),
            "more cards than a deck",
        ),
        (
            act(json!({"played": ["3", "", ""]})),
            "\"played\"[0]: \"3\" is not what seat 0 played",
        ),
        (
            act(json!({"bottom_cards_unplayed": "8KAA"})),
            "\"bottom_cards_unplayed\": 8KAA is more than",
        ),
        (
            act(json!({"legal_moves": ["pass", "B"]})),
            "\"legal_moves\"[1]: \"B\": B is not in \"hand\"",
        ),
        (
            act(json!({"legal_moves": ["3"]})),
            "\"legal_moves\"[0]: \"3\": 3 does not beat 2",
        ),
        (
            act(json!({"legal_moves": ["33456"]})),
            "\"legal_moves\"[0]: \"33456\": 33456 is not a combination",
        ),
        (act(json!({"legal_moves": []})), "\"legal_moves\": empty"),
        (
            act(json!({"legal_moves": "R"})),
            "\"legal_moves\": expected an array",
        ),
        (
            act(
                json!({"seat": 0, "role": "landlord", "hand": "3334445678TJQKA2BR",
                    "cards_left": [18, 17, 17], "history": [[0, "2"], [1, "pass"], [2, "pass"]],
                    "last": null, "legal_moves": ["pass"], "bottom_cards_unplayed": null}),
            ),
            "a pass is not allowed when leading",
        ),
        (
            act(json!({"rules": "poker"})),
            "\"rules\": \"poker\" is not a rule profile",
        ),
        (act(json!({"laizi": ["9"]})), "\"laizi\":"),
        (
            act(json!({"rules": "laizi", "laizi": ["99"]})),
            "\"laizi\"[0]: \"99\" is not one rank",
        ),
        (
            act(json!({"multiplier": 0})),
            "\"multiplier\": 0 is not a positive integer",
        ),
        (
            bid(json!({"bids": [[0, 1], [1, 1]]})),
            "\"bids\"[1]: bid 1 is not above the bid 1",
        ),
        (
            bid(json!({"bids": [[0, 1], [2, 2]]})),
            "\"bids\"[1]: seat 2 bids out of turn",
        ),
        (
            bid(json!({"bids": [[0, 4]]})),
            "\"bids\"[0]: bid 4 is not 0 to 3",
        ),
        (
            bid(json!({"bids": [[0, 0], [1, 0], [2, 0]]})),
            "\"bids\": the bidding is already over",
        ),
        (
            bid(json!({"seat": 0})),
            "\"seat\": seat 0 cannot bid right after seat 1",
        ),
        (
            bid(json!({"form": "auction"})),
            "\"form\": \"auction\" is not",
        ),
        (bid(json!({"hand": ""})), "\"hand\": 0 cards"),
        (
            json!({"protocol": "ddz-jsonl/1", "type": "result", "id": 3, "winner": "nobody"})
                .to_string(),
            "\"winner\": \"nobody\" is not",
        ),
    ];
    let mut lines = Vec::new();
    for (i, (line, _)) in cases.iter().enumerate() {
        lines.push(line.clone());
        lines.push(hello(i as i64));
    }
    let replies = serve_lines(&lines);
    for (i, (line, want)) in cases.iter().enumerate() {
        let r = &replies[2 * i];
        let e = r["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error for {line}: {r}"));
        assert!(e.contains(want), "{line}\n  error: {e}\n  wanted: {want}");
        assert_eq!(replies[2 * i + 1]["id"], i as i64);
        assert_eq!(replies[2 * i + 1]["name"], "value");
    }
    // The id is echoed when the line is an object that has one.
    assert_eq!(replies[2 * 13]["id"], 7);
    assert_eq!(replies[0]["id"], Value::Null);
}

#[test]
fn long_lines_and_bad_bytes_are_refused() {
    let mut input = Vec::new();
    input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
    input.push(b'\n');
    input.extend(hello(1).as_bytes());
    input.extend(b"\n\xff\xfe{}\n");
    // A whole valid request just under the limit, padded with spaces.
    let mut padded = hello(2);
    padded.push_str(&" ".repeat(MAX_LINE - padded.len()));
    input.extend(padded.as_bytes());
    input.push(b'\n');
    // The last line may lack its line end; an overlong one at the end of input too.
    input.extend(hello(3).as_bytes());
    input.push(b'\n');
    input.extend(std::iter::repeat_n(b'{', MAX_LINE + 1));
    let replies = serve_bytes(&input, 6);
    assert!(
        replies[0]["error"]
            .as_str()
            .unwrap()
            .contains("line longer than")
    );
    assert_eq!(replies[0]["id"], Value::Null);
    assert_eq!(replies[1]["id"], 1);
    assert!(replies[2]["error"].as_str().unwrap().contains("not UTF-8"));
    assert_eq!(replies[3]["id"], 2);
    assert_eq!(replies[4]["id"], 3);
    assert!(
        replies[5]["error"]
            .as_str()
            .unwrap()
            .contains("line longer than")
    );
}

/// A random JSON value, nested at most `depth` deep, biased to the protocol's own keys.
fn random_value(r: &mut rand_chacha::ChaCha8Rng, depth: u32) -> Value {
    const KEYS: [&str; 20] = [
        "protocol",
        "type",
        "id",
        "rules",
        "laizi",
        "seat",
        "landlord_seat",
        "role",
        "hand",
        "cards_left",
        "played",
        "bottom_cards_unplayed",
        "history",
        "last",
        "legal_moves",
        "cards",
        "form",
        "bids",
        "winner",
        "scores",
    ];
    const STRINGS: [&str; 14] = [
        "ddz-jsonl/1",
        "act",
        "bid",
        "hello",
        "result",
        "landlord",
        "pass",
        "3",
        "2BR",
        "7779=7777",
        "laizi",
        "",
        "\u{0}",
        "333444555666:airplane:6",
    ];
    match below(r, if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => json!(below(r, 2) == 0),
        2 => json!(below(r, 25) as i64 - 3),
        3 => json!(STRINGS[below(r, STRINGS.len() as u64) as usize]),
        4 => json!(f64::from(below(r, 1000) as u32) / 7.0),
        5 => (0..below(r, 4))
            .map(|_| random_value(r, depth - 1))
            .collect(),
        _ => Value::Object(
            (0..below(r, 6))
                .map(|_| {
                    (
                        KEYS[below(r, KEYS.len() as u64) as usize].to_string(),
                        random_value(r, depth - 1),
                    )
                })
                .collect(),
        ),
    }
}

#[test]
fn random_input_never_panics_and_gets_one_reply_a_line() {
    let mut r = rng(2024);
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for _ in 0..300 {
        let len = below(&mut r, 80) as usize;
        lines.push(
            (0..len)
                .map(|_| below(&mut r, 256) as u8)
                .filter(|&b| b != b'\n')
                .collect(),
        );
    }
    let bases: Vec<Value> = [
        act(json!({})),
        act(json!({"legal_moves": null})),
        bid(json!({})),
        hello(0),
    ]
    .iter()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect();
    for i in 0..1500 {
        let v = if i % 2 == 0 {
            random_value(&mut r, 3)
        } else {
            // A valid request with one field dropped or replaced by a random value.
            let mut v = bases[below(&mut r, bases.len() as u64) as usize].clone();
            if let Value::Object(obj) = &mut v {
                let keys: Vec<String> = obj.keys().cloned().collect();
                let key = &keys[below(&mut r, keys.len() as u64) as usize];
                if below(&mut r, 4) == 0 {
                    obj.remove(key);
                } else {
                    obj.insert(key.clone(), random_value(&mut r, 2));
                }
            }
            v
        };
        lines.push(v.to_string().into_bytes());
    }
    let input: Vec<u8> = lines.join(&b'\n');
    let replies = serve_bytes(&input, lines.len());
    for r in &replies {
        assert!(r.get("id").is_some(), "{r}");
        assert!(
            r.get("error").is_some()
                || r.get("name").is_some()
                || r.get("cards").is_some()
                || r.get("bid").is_some()
                || r.get("ok").is_some(),
            "{r}"
        );
    }
}

/// Sends one request through `serve` and returns the one reply.
fn ask(bot: &mut dyn Bot, request: &Value) -> Value {
    let mut out = Vec::new();
    let line = request.to_string();
    protocol::serve(bot, "robot", &Rules::classic(), line.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let reply: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(reply["id"], request["id"]);
    assert!(reply.get("error").is_none(), "{request}\n  -> {reply}");
    reply
}

/// Plays whole games, bidding included, every seat's robot seeing only protocol requests.
#[test]
fn games_played_through_serve_only() {
    let mut call_rob = Rules::classic();
    call_rob.bidding = Bidding::CallRob;
    let mut turns = 0;
    for (rules, seeds) in [
        (Rules::classic(), 0..6),
        (Rules::laizi(), 0..6),
        (call_rob, 0..4),
    ] {
        for seed in seeds {
            let mut bots = [
                make_bot("value", 1).unwrap(),
                make_bot("ddzlib", 2).unwrap(),
                make_bot("random", seed).unwrap(),
            ];
            let mut game = Game::new(&rules, seed);
            while game.phase() != Phase::Over {
                turns += 1;
                let seat = game.turn();
                let view = game.view(seat);
                let id = json!(turns);
                let bot = bots[seat.index()].as_mut();
                if game.phase() == Phase::Bidding {
                    let reply = ask(bot, &protocol::bid_request(&id, &view));
                    let b = reply["bid"].as_u64().unwrap();
                    game.bid(seat, u8::try_from(b).unwrap()).unwrap();
                    continue;
                }
                // Every other turn the controller narrows the choice with legal_moves.
                let legal = game.legal_moves();
                let narrowed = (turns % 2 == 0).then(|| &legal[..legal.len().min(3)]);
                let request = protocol::act_request(&id, &view, narrowed);
                // The request reads back as the game's own view.
                let Request::Act(a) = parse_request(&request.to_string(), &Rules::classic())
                    .unwrap()
                    .request
                else {
                    panic!("act")
                };
                assert_eq!(
                    (a.view.hand(), a.view.cards_left(), a.view.played()),
                    (view.hand(), view.cards_left(), view.played())
                );
                assert_eq!(
                    (&a.view.history(), a.view.last(), a.view.laizi()),
                    (&view.history(), view.last(), view.laizi())
                );
                assert_eq!(a.allowed, narrowed.map_or(legal.clone(), <[_]>::to_vec));
                let reply = ask(bot, &request);
                let text = reply["cards"].as_str().unwrap();
                let last = view.last().map(|(_, m)| m);
                let m = parse_move(text, &game.rules(), last.as_ref()).unwrap();
                if let Some(n) = narrowed {
                    assert!(n.contains(&m), "{text} not among the legal_moves sent");
                }
                game.play(seat, m).unwrap();
            }
            let result = game.result().unwrap().clone();
            for bot in &mut bots {
                let reply = ask(
                    bot.as_mut(),
                    &protocol::result_request(&json!("end"), &result),
                );
                assert_eq!(reply["ok"], true);
            }
        }
    }
    assert!(turns > 300, "{turns}");
}

/// Plays whole `huanle` games (showing, call-and-rob bidding, doubling), every seat's robot
/// seeing only protocol requests; each request reads back as the game's view, shown hands
/// and doublings included.
#[test]
fn huanle_games_played_through_serve_only() {
    let rules = Rules::huanle();
    let (mut shows, mut doublings) = (0, 0);
    for seed in 0..12 {
        let mut bots = [
            make_bot("value", 1).unwrap(),
            make_bot("ddzlib", 2).unwrap(),
            make_bot("random", seed).unwrap(),
        ];
        let mut game = Game::new(&rules, seed);
        let mut turn = 0;
        while game.phase() != Phase::Over {
            turn += 1;
            let seat = game.turn();
            let view = game.view(seat);
            let id = json!(turn);
            let bot = bots[seat.index()].as_mut();
            let action = match game.legal_actions() {
                Actions::Show { factor } => {
                    let request = protocol::show_request(&id, &view, factor);
                    let parsed = parse_request(&request.to_string(), &Rules::classic()).unwrap();
                    let Request::Show(s) = parsed.request else {
                        panic!("show: {request}")
                    };
                    assert_eq!(
                        (s.factor, s.view.hand(), s.view.shown()),
                        (factor, view.hand(), view.shown())
                    );
                    let reply = ask(bot, &request);
                    let show = reply["show"].as_bool().unwrap();
                    shows += usize::from(show);
                    Action::Show(show)
                }
                Actions::Double(choices) => {
                    let request = protocol::double_request(&id, &view, &choices);
                    let parsed = parse_request(&request.to_string(), &Rules::classic()).unwrap();
                    let Request::Double(d) = parsed.request else {
                        panic!("double: {request}")
                    };
                    assert_eq!(d.choices, choices);
                    assert_eq!(
                        (
                            d.view.hand(),
                            d.view.landlord(),
                            d.view.kitty(),
                            d.view.shown()
                        ),
                        (view.hand(), view.landlord(), view.kitty(), view.shown())
                    );
                    assert_eq!(d.view.doublings(), view.doublings());
                    let reply = ask(bot, &request);
                    let f = u32::try_from(reply["double"].as_u64().unwrap()).unwrap();
                    doublings += usize::from(f > 1);
                    Action::Double(f)
                }
                Actions::Bids(_) => {
                    let request = protocol::bid_request(&id, &view);
                    let parsed = parse_request(&request.to_string(), &Rules::classic()).unwrap();
                    let Request::Bid(b) = parsed.request else {
                        panic!("bid: {request}")
                    };
                    assert_eq!(b.view.shown(), view.shown());
                    let reply = ask(bot, &request);
                    Action::Bid(u8::try_from(reply["bid"].as_u64().unwrap()).unwrap())
                }
                Actions::Moves(legal) => {
                    let request = protocol::act_request(&id, &view, Some(&legal));
                    let parsed = parse_request(&request.to_string(), &Rules::classic()).unwrap();
                    let Request::Act(a) = parsed.request else {
                        panic!("act: {request}")
                    };
                    assert_eq!(
                        (a.view.shown(), a.view.doublings()),
                        (view.shown(), view.doublings())
                    );
                    let reply = ask(bot, &request);
                    let text = reply["cards"].as_str().unwrap();
                    let last = view.last().map(|(_, m)| m);
                    Action::Play(parse_move(text, &game.rules(), last.as_ref()).unwrap())
                }
                Actions::None => break,
            };
            game.act(seat, action).unwrap();
        }
        let result = game.result().unwrap();
        assert_eq!(result.scores.0.iter().sum::<i64>(), 0);
    }
    assert!(
        shows > 0 && doublings > 0,
        "{shows} shows, {doublings} doublings"
    );
}

/// Bad `double` and `show` requests get errors that name the field; serving goes on.
#[test]
fn bad_double_and_show_requests_get_errors() {
    let double = |changes: Value| {
        let mut req = json!({
            "protocol": "ddz-jsonl/1", "type": "double", "id": 4, "rules": "huanle",
            "seat": 1, "landlord_seat": 0, "role": "landlord_down",
            "hand": "3345567899TJQKA22", "cards_left": [20, 17, 17],
            "bottom_cards_unplayed": "BR3", "choices": [1, 2, 4],
            "shown": {"2": "44667789TJJQQKKAA"}, "doubling": [2, null, null],
        });
        merge(&mut req, changes);
        req.to_string()
    };
    let show = |changes: Value| {
        let mut req = json!({
            "protocol": "ddz-jsonl/1", "type": "show", "id": 5, "rules": "huanle",
            "seat": 2, "hand": "33445566", "window": "deal", "factor": 3,
        });
        merge(&mut req, changes);
        req.to_string()
    };
    let cases = [
        (double(json!({})), None),
        (show(json!({})), None),
        (
            double(json!({"choices": []})),
            Some("\"choices\": expected a non-empty array"),
        ),
        (double(json!({"choices": "all"})), Some("\"choices\"")),
        (
            double(json!({"hand": "33"})),
            Some("\"hand\": a hand of 2 cards where 17"),
        ),
        (
            double(json!({"doubling": [2, 1]})),
            Some("\"doubling\": expected 3 entries"),
        ),
        (
            double(json!({"doubling": [0, null, null]})),
            Some("\"doubling\""),
        ),
        (
            double(json!({"shown": {"2": "3345"}})),
            Some("\"shown\": seat 2 shows 4 cards"),
        ),
        (
            double(json!({"shown": {"7": "3345"}})),
            Some("\"shown\": \"7\" is not a seat"),
        ),
        (
            double(json!({"shown": [1]})),
            Some("\"shown\": expected an object"),
        ),
        (
            double(json!({"shown": {"2": "3333TTJJQQKKAA222"}})),
            Some("\"shown\": the shown hands and the hand hold more cards than a deck"),
        ),
        (
            show(json!({"window": "later"})),
            Some("\"window\": \"later\" is not a show window"),
        ),
        (show(json!({"factor": 0})), Some("\"factor\"")),
        (
            show(json!({"window": "start"})),
            Some("\"hand\": a hand of 8 cards"),
        ),
        (
            show(
                json!({"window": "landlord", "landlord_seat": 0, "role": "landlord_up",
                        "hand": "3345567899TJQKA22"}),
            ),
            Some("\"window\": only the landlord"),
        ),
        // `cards_dealt` is the count of `hand` (issue 50: 99 with 8 cards was taken).
        (show(json!({"cards_dealt": 8})), None),
        (
            show(json!({"cards_dealt": 99})),
            Some("\"cards_dealt\": 99 is not the 8 cards dealt so far in \"hand\""),
        ),
        (
            show(json!({"cards_dealt": "8"})),
            Some("\"cards_dealt\": \"8\" is not the 8 cards"),
        ),
        (
            show(json!({"window": "start", "hand": "", "cards_dealt": 5})),
            Some("\"cards_dealt\": 5 is not the 0 cards"),
        ),
    ];
    let lines: Vec<String> = cases.iter().map(|(l, _)| l.clone()).collect();
    let replies = serve_lines(&lines);
    for ((line, expected), reply) in cases.iter().zip(&replies) {
        match expected {
            None => assert!(reply.get("error").is_none(), "{line}\n  -> {reply}"),
            Some(text) => {
                let error = reply["error"].as_str().unwrap_or_default();
                assert!(
                    error.contains(text),
                    "{line}\n  -> {reply}\n  expected {text}"
                );
            }
        }
    }
    assert!(replies[0]["double"].is_u64() && replies[1]["show"].is_boolean());
}
