//! `ddz-jsonl/1` at two and four seats: every request a controller writes from a table game's
//! view reads back (`parse_request_at`) as that view, a table robot answers it legally, and
//! what a two- or four-seat request gets wrong is named.

use ddz_bots::table::TableBot;
use ddz_core::Rules;
use ddz_game::{Phase, Seat, TableGame, below, derive_seed, rng};
use ddz_protocol::jsonl::{
    Request, act_request, answer_at, bid_request, parse_request, parse_request_at,
};
use serde_json::{Value, json};

/// Plays `games` random games at `N` seats; at every turn the request of the seat to act is
/// written, read back and answered, and the read view is checked against the game's.
fn round_trip<const N: usize>(rules: &Rules, games: u64) {
    let mut bot = TableBot::from_spec("ddzlib", 1).unwrap();
    for seed in 0..games {
        let mut game = TableGame::<N>::new(rules, seed).unwrap();
        let mut draw = rng(derive_seed(seed, 5));
        let mut step = 0;
        while game.phase() != Phase::Over {
            let seat = game.turn();
            let view = game.view(seat);
            let id = json!(step);
            let line = match game.phase() {
                Phase::Bidding => bid_request(&id, &view),
                _ => act_request(&id, &view, None),
            }
            .to_string();
            let incoming = parse_request_at::<N>(&line, rules)
                .unwrap_or_else(|e| panic!("seed {seed} step {step}: {}\n{line}", e.error));
            match incoming.request {
                Request::Bid(b) => {
                    assert_eq!(b.view.hand(), view.hand());
                    assert_eq!(b.view.bids(), view.bids());
                    assert_eq!(b.allowed, game.legal_bids(), "{line}");
                }
                Request::Act(a) => {
                    assert_eq!(a.view.hand(), view.hand());
                    assert_eq!(a.view.cards_left(), view.cards_left());
                    assert_eq!(a.view.history(), view.history());
                    assert_eq!(a.view.last(), view.last());
                    assert_eq!(a.view.landlord(), view.landlord());
                    assert_eq!(a.view.handicap(), view.handicap(), "{line}");
                    assert_eq!(a.view.played(), view.played());
                    assert_eq!(a.allowed, game.legal_moves(), "{line}");
                }
                other => panic!("{other:?}"),
            }
            // The robot's answer is one of the actions allowed.
            let reply: Value =
                serde_json::from_str(&answer_at::<N>(&mut bot, "ddzlib", rules, &line).to_string())
                    .unwrap();
            assert_eq!(reply["id"], id, "{reply}");
            match game.phase() {
                Phase::Bidding => {
                    let bid = reply["bid"].as_u64().expect("a bid") as u8;
                    assert!(game.legal_bids().contains(&bid), "{reply}");
                    // The game goes on with random bids, so that every bidding path is seen.
                    let bids = game.legal_bids();
                    let pick = bids[below(&mut draw, bids.len() as u64) as usize];
                    game.bid(seat, pick).unwrap();
                }
                _ => {
                    let cards = reply["cards"].as_str().expect("cards");
                    assert!(
                        game.legal_moves().iter().any(|m| {
                            ddz_core::move_notation(m, rules) == cards
                                || (m.is_pass() && cards == "pass")
                                || m.cards().to_string() == cards
                        }),
                        "{reply}"
                    );
                    let moves = game.legal_moves();
                    let m = moves[below(&mut draw, moves.len() as u64) as usize];
                    game.play(seat, m).unwrap();
                }
            }
            step += 1;
        }
    }
}

#[test]
fn two_seat_requests_read_back_as_the_view_and_are_answered() {
    round_trip::<2>(&Rules::two(), 40);
}

#[test]
fn four_seat_requests_read_back_as_the_view_and_are_answered() {
    round_trip::<4>(&Rules::four(), 15);
}

/// The error message of a request line read at `N` seats.
fn error_at<const N: usize>(rules: &Rules, line: &Value) -> String {
    match parse_request_at::<N>(&line.to_string(), rules) {
        Ok(i) => panic!("read: {:?}", i.request),
        Err(r) => r.error.to_string(),
    }
}

#[test]
fn table_requests_name_what_is_wrong() {
    let four = Rules::four();
    let act = |changes: Value| {
        let mut line = json!({
            "protocol": "ddz-jsonl/1", "type": "act", "id": 1, "rules": "four",
            "seat": 1, "landlord_seat": 0, "role": "landlord_down",
            "hand": "3334445556667778889TTJ", "cards_left": [33, 22, 25, 25],
            "history": [], "last": null
        });
        for (k, v) in changes.as_object().unwrap() {
            line[k] = v.clone();
        }
        line
    };
    // A well-formed request reads: the seat is not to play (the landlord leads).
    assert_eq!(
        error_at::<4>(&four, &act(json!({}))),
        "\"seat\": after \"history\" seat 0 is to play, not seat 1"
    );
    for (changes, expected) in [
        (
            json!({"seat": 4}),
            "\"seat\": 4 is not a seat (0, 1, 2 or 3)",
        ),
        (
            json!({"cards_left": [33, 22, 25]}),
            "\"cards_left\": expected 4 counts, got 3",
        ),
        (
            json!({"cards_left": [34, 22, 25, 25]}),
            "\"cards_left\": 34 is not a card count 1-33",
        ),
        (
            json!({"role": "landlord_up"}),
            "\"role\": seat 1 with the landlord in seat 0 is landlord_down, not landlord_up",
        ),
        (
            json!({"role": "king"}),
            "\"role\": \"king\" is not landlord, landlord_down, landlord_across or landlord_up",
        ),
        (
            json!({"rules": "classic"}),
            "\"rules\": classic rules seat 3 players; this robot reads the requests of a table of 4 (start it with those rules)",
        ),
        (
            json!({"handicap": 2, "seat": 0, "role": "landlord",
                   "hand": "33334444555566667777888899TTJJQQK", "cards_left": [33, 25, 25, 25]}),
            "\"handicap\": these rules have no handicap (让牌)",
        ),
    ] {
        assert_eq!(
            error_at::<4>(&four, &act(changes.clone())),
            expected,
            "{changes}"
        );
    }
    // Under `two` the handicap is required and 1 to 3 cards; 3s are not in the deck.
    let two = Rules::two();
    let line = json!({
        "protocol": "ddz-jsonl/1", "type": "act", "id": 1, "rules": "two",
        "seat": 0, "landlord_seat": 0, "role": "landlord",
        "hand": "5556667778TTJJQKAA2B", "cards_left": [20, 17],
        "history": [], "last": null
    });
    assert_eq!(error_at::<2>(&two, &line), "missing \"handicap\"");
    let mut bad = line.clone();
    bad["handicap"] = json!(4);
    assert_eq!(
        error_at::<2>(&two, &bad),
        "\"handicap\": 4 is not a handicap of 1 to 3 cards (1 + robs)"
    );
    let mut ok = line.clone();
    ok["handicap"] = json!(2);
    let read = parse_request_at::<2>(&ok.to_string(), &two).unwrap();
    match read.request {
        Request::Act(a) => assert_eq!(a.view.handicap(), Some((Seat::ALL[1], 2))),
        other => panic!("{other:?}"),
    }
    let mut threes = ok.clone();
    threes["hand"] = json!("3556667778TTJJQKAA2B");
    assert!(
        error_at::<2>(&two, &threes).starts_with("\"hand\": "),
        "{}",
        error_at::<2>(&two, &threes)
    );
    // A three-seat robot refuses a table's rules by name.
    let e = parse_request(&ok.to_string(), &Rules::classic()).unwrap_err();
    assert_eq!(
        e.error.to_string(),
        "\"rules\": two rules seat 2 players; this robot reads the requests of a table of 3 (start it with those rules)"
    );
}
