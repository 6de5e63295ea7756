//! Botzone's FightTheLandlord and FightTheLandlord2 input: the example files, malformed input,
//! keep-running mode and whole games with one seat driven only through Botzone's format.

use ddz_bots::{Bot, bot_seed, make_bot};
use ddz_core::{Bidding, CardSet, Rules, legal_moves, parse_botzone_ids};
use ddz_game::{Game, Phase, Seat};
use ddz_protocol::botzone::{self, KEEP_RUNNING, Session, Turn};
use serde_json::{Value, json};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/botzone/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn turn_of(name: &str) -> Turn {
    Session::from_input(&data(name))
        .and_then(|s| s.turn())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn set_of(v: &Value) -> CardSet {
    parse_botzone_ids(&v.to_string()).expect("a response of card ids")
}

/// The robots a turn is checked with.
fn robots() -> Vec<Box<dyn Bot>> {
    let mut bots: Vec<Box<dyn Bot>> = ["greedy", "value", "ddzlib"]
        .iter()
        .map(|n| make_bot(n, 1).unwrap())
        .collect();
    bots.extend((0..8).map(|s| make_bot("random", s).unwrap()));
    bots
}

/// Checks a response to `turn` on its own terms: a bid above the earlier ones or 0; ids in the
/// hand that form a legal play beating the table (or leading).
fn check_response(turn: &Turn, response: &Value) {
    match turn {
        Turn::Bid { view, .. } => {
            let b = response.as_u64().expect("a bid") as u8;
            let high = view.bids().iter().map(|x| x.1).max().unwrap_or(0);
            assert!(b == 0 || (b > high && b <= 3), "bid {b} over {high}");
        }
        Turn::Play { view, hand, .. } => {
            let set = set_of(response);
            assert_eq!(hand.bits() & set.bits(), set.bits(), "ids in hand");
            assert_eq!(hand.to_cards(), view.hand());
            let beat = view.last().map(|(_, m)| m);
            if set.is_empty() {
                assert!(beat.is_some(), "a pass only when following");
            } else {
                let cards = set.to_cards();
                assert!(
                    legal_moves(view.hand(), beat.as_ref(), &Rules::botzone())
                        .iter()
                        .any(|m| m.cards() == cards),
                    "{cards} is a legal play"
                );
            }
        }
    }
}

#[test]
fn example_turns_are_rebuilt() {
    let t = turn_of("ftl_landlord_first.json");
    let Turn::Play { view, .. } = &t else {
        panic!("a play")
    };
    assert_eq!(view.seat(), Seat::ALL[0]);
    assert_eq!(view.landlord(), Some(Seat::ALL[0]));
    assert_eq!(view.hand().len(), 20);
    assert_eq!(view.last(), None);
    assert_eq!(view.rules().bidding, Bidding::Fixed);

    let t = turn_of("ftl_farmer_midgame.json");
    let Turn::Play { view, hand, .. } = &t else {
        panic!("a play")
    };
    assert_eq!(view.seat(), Seat::ALL[1]);
    assert_eq!(view.cards_left().0, [18, 15, 17]);
    assert_eq!(hand.len(), 15);
    assert_eq!(view.last(), None, "both others passed: the farmer leads");
    assert_eq!(view.history().len(), 7);
    assert_eq!(view.played()[Seat::ALL[1]].to_string(), "52");

    let t = turn_of("ftl2_bid.json");
    let Turn::Bid { view, allowed } = &t else {
        panic!("a bid")
    };
    assert_eq!(view.seat(), Seat::ALL[1]);
    assert_eq!(allowed, &vec![0, 2, 3]);
    assert_eq!(allowed, &view.legal_bids());

    let t = turn_of("ftl2_landlord_first_play.json");
    let Turn::Play { view, .. } = &t else {
        panic!("a play")
    };
    assert_eq!(
        (view.seat(), view.landlord()),
        (Seat::ALL[1], Some(Seat::ALL[1]))
    );
    assert_eq!(view.hand().len(), 20);
    assert_eq!(view.cards_left().0, [17, 20, 17]);
    assert_eq!(view.base(), 3);
    assert_eq!(view.bids(), vec![(Seat::ALL[0], 1), (Seat::ALL[1], 3)]);
}

#[test]
fn every_robot_answers_the_examples_legally() {
    for name in [
        "ftl_landlord_first.json",
        "ftl_farmer_midgame.json",
        "ftl2_bid.json",
        "ftl2_landlord_first_play.json",
    ] {
        let turn = turn_of(name);
        for mut bot in robots() {
            let response = botzone::choose(bot.as_mut(), &turn).unwrap();
            check_response(&turn, &serde_json::to_value(&response).unwrap());
        }
    }
}

#[test]
fn malformed_inputs_name_the_problem() {
    for (name, expected) in [
        ("malformed_not_json.json", "input is not JSON"),
        ("malformed_missing_own.json", "requests[0]: missing \"own\""),
        ("malformed_bad_id.json", "requests[0].own"),
        (
            "malformed_responses_count.json",
            "\"responses\": 0 responses for 2",
        ),
        (
            "malformed_history_does_not_beat.json",
            "requests[0].history[1]",
        ),
        (
            "malformed_response_not_in_hand.json",
            "responses[0]: seat 1",
        ),
        ("malformed_bid_not_above.json", "requests[0].bid[1]"),
        ("malformed_missing_finalbid.json", "missing \"finalbid\""),
    ] {
        let e = Session::from_input(&data(name))
            .and_then(|s| s.turn())
            .expect_err(name);
        assert!(e.to_string().contains(expected), "{name}: {e}");
    }
    let mut out = Vec::new();
    let mut bot = make_bot("greedy", 1).unwrap();
    let result = botzone::serve(bot.as_mut(), &b"[1, 2]\n"[..], &mut out, false).unwrap();
    assert_eq!(result, Err(botzone::BotzoneError::NotObject));
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"debug\":\"error: input is not a JSON object\"}\n"
    );
}

#[test]
fn keep_running_answers_each_later_request() {
    let first = data("ftl_farmer_midgame.json");
    let first = first.trim();
    // The same game one turn earlier, then its last request alone.
    let (mut requests, mut responses) = botzone::parse_input(first).unwrap();
    let last = requests.pop().unwrap();
    responses.pop();
    let earlier = json!({"requests": requests, "responses": responses}).to_string();
    let mut bot = make_bot("greedy", 1).unwrap();
    let input = format!("{earlier}\n{last}\n");
    let mut out = Vec::new();
    let result = botzone::serve(bot.as_mut(), input.as_bytes(), &mut out, true).unwrap();
    assert_eq!(result, Ok(()));
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!((lines[1], lines[3]), (KEEP_RUNNING, KEEP_RUNNING));
    // Greedy follows the landlord's A with its 2, then leads its lowest single 3.
    assert_eq!(lines[0], r#"{"response":[49]}"#);
    assert_eq!(lines[2], r#"{"response":[3]}"#);
}

/// Plays whole games where `driven` answers only through Botzone's format (a fresh session a
/// turn, as Botzone starts the program each turn, and one kept-running session), checked
/// against the game's own view of that seat. Returns the games finished.
fn botzone_games(rules: &Rules, seeds: core::ops::Range<u64>) -> usize {
    let mut finished = 0;
    for seed in seeds {
        let driven = Seat::ALL[(seed % 3) as usize];
        let mut game = Game::new(rules, seed);
        let deal = game.deal().clone();
        let fixed = rules.bidding == Bidding::Fixed;
        let first = game.first_bidder();
        // Botzone's seats count from the first bidder (seat 0 with a fixed landlord).
        let pos = |s: Seat| (s.index() + 3 - first.index()) % 3;
        let mut hands = deal.hands;
        let mut others: Vec<Box<dyn Bot>> = Seat::ALL
            .iter()
            .map(|&s| {
                make_bot(
                    if seed % 2 == 0 { "random" } else { "greedy" },
                    bot_seed(seed, s),
                )
                .unwrap()
            })
            .collect();
        let mut fresh_bot = make_bot("ddzlib", 1).unwrap();
        let mut kept_bot = make_bot("ddzlib", 1).unwrap();
        let mut kept: Option<Session> = None;
        let (mut requests, mut responses): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
        let mut plays: Vec<CardSet> = Vec::new();
        let mut started = false;
        while game.phase() != Phase::Over && game.redeals() == 0 {
            let seat = game.turn();
            if game.phase() == Phase::Playing && !started {
                started = true;
                let landlord = game.landlord().unwrap();
                hands[landlord] =
                    CardSet::from_bits(hands[landlord].bits() | deal.kitty.bits()).unwrap();
            }
            if seat != driven {
                let view = game.view(seat);
                let bot = &mut others[seat.index()];
                if game.phase() == Phase::Bidding {
                    game.bid(seat, bot.bid(&view, &view.legal_bids())).unwrap();
                } else {
                    let m = bot.play(&view, &game.legal_moves());
                    let set = hands[seat].take(m.cards()).unwrap();
                    hands[seat] = CardSet::from_bits(hands[seat].bits() & !set.bits()).unwrap();
                    plays.push(set);
                    game.play(seat, m).unwrap();
                }
                continue;
            }
            let mut request = if game.phase() == Phase::Bidding {
                let bids: Vec<u8> = game.bids().iter().map(|b| b.1).collect();
                json!({"bid": bids})
            } else {
                let n = plays.len();
                let entry = |back: usize| {
                    n.checked_sub(back).map_or(json!([]), |i| {
                        json!(plays[i].iter().map(|c| c.id()).collect::<Vec<_>>())
                    })
                };
                json!({"history": [entry(2), entry(1)]})
            };
            let ids = |s: CardSet| json!(s.iter().map(|c| c.id()).collect::<Vec<_>>());
            let obj = request.as_object_mut().unwrap();
            if requests.is_empty() {
                let own = if fixed && seat == Seat::ALL[0] {
                    deal.landlord_cards()
                } else {
                    deal.hands[seat]
                };
                obj.insert("own".into(), ids(own));
            }
            let first_play = game.phase() == Phase::Playing
                && requests.iter().all(|r: &Value| r.get("history").is_none());
            if first_play {
                obj.insert("publiccard".into(), ids(deal.kitty));
                if !fixed {
                    obj.insert("landlord".into(), json!(pos(game.landlord().unwrap())));
                    obj.insert("pos".into(), json!(pos(seat)));
                    obj.insert("finalbid".into(), json!(game.base()));
                }
            }
            requests.push(request.clone());
            let input = json!({"requests": requests, "responses": responses}).to_string();
            let mut session = Session::from_input(&input).unwrap();
            let turn = session.turn().unwrap();
            let answer = session.answer(fresh_bot.as_mut()).unwrap();
            let kept_answer = match kept.as_mut() {
                None => {
                    let mut s = Session::from_input(&input).unwrap();
                    let a = s.answer(kept_bot.as_mut()).unwrap();
                    kept = Some(s);
                    a
                }
                Some(s) => {
                    s.push_request(&request.to_string()).unwrap();
                    s.answer(kept_bot.as_mut()).unwrap()
                }
            };
            assert_eq!(
                answer, kept_answer,
                "seed {seed}: keep-running answers the same"
            );
            let response = answer["response"].clone();
            check_response(&turn, &response);
            let game_view = game.view(seat);
            match &turn {
                Turn::Bid { view, .. } => {
                    assert_eq!(view.hand(), game_view.hand());
                    game.bid(seat, response.as_u64().unwrap() as u8).unwrap();
                }
                Turn::Play { view, .. } => {
                    assert_eq!(view.hand(), game_view.hand(), "seed {seed}");
                    for s in Seat::ALL {
                        let p = Seat::ALL[pos(s)];
                        assert_eq!(
                            view.cards_left()[p],
                            game_view.cards_left()[s],
                            "seed {seed}"
                        );
                    }
                    assert_eq!(
                        view.last().map(|(_, m)| m.cards()),
                        game_view.last().map(|(_, m)| m.cards()),
                        "seed {seed}"
                    );
                    assert_eq!(view.multiplier(), game_view.multiplier(), "seed {seed}");
                    let set = set_of(&response);
                    let cards = set.to_cards();
                    let m = *game
                        .legal_moves()
                        .iter()
                        .find(|m| m.cards() == cards)
                        .expect("the response is legal in the game");
                    hands[seat] = CardSet::from_bits(hands[seat].bits() & !set.bits()).unwrap();
                    plays.push(set);
                    game.play(seat, m).unwrap();
                }
            }
            responses.push(response);
        }
        if game.phase() == Phase::Over {
            assert!(game.result().is_some());
            finished += 1;
        }
    }
    finished
}

#[test]
fn fight_the_landlord_games_finish_through_botzone_input() {
    assert_eq!(botzone_games(&Rules::botzone(), 0..12), 12);
}

#[test]
fn fight_the_landlord2_games_finish_through_botzone_input() {
    let mut rules = Rules::botzone();
    rules.bidding = Bidding::Points;
    // Deals everyone passes on are redealt by the game and skipped here.
    assert!(botzone_games(&rules, 0..16) >= 8);
}

/// Botzone input mutated byte by byte (bytes replaced, dropped or doubled) never panics the
/// reader: every outcome is a turn answered or a typed error with a message.
#[test]
fn mutated_input_never_panics() {
    use ddz_game::{below, rng};
    let mut r = rng(55);
    let bases: Vec<Vec<u8>> = [
        "ftl2_bid.json",
        "ftl2_landlord_first_play.json",
        "ftl_farmer_midgame.json",
        "ftl_landlord_first.json",
    ]
    .iter()
    .map(|n| data(n).into_bytes())
    .collect();
    let mut bot = make_bot("greedy", 1).unwrap();
    for i in 0..400 {
        let mut line = bases[i % bases.len()].clone();
        for _ in 0..1 + below(&mut r, 4) {
            if line.is_empty() {
                break;
            }
            let at = below(&mut r, line.len() as u64) as usize;
            match below(&mut r, 3) {
                0 => line[at] = b" \"[]{},:0123456789abtrue-"[below(&mut r, 25) as usize],
                1 => {
                    line.remove(at);
                }
                _ => line.insert(at, line[at]),
            }
        }
        let text = String::from_utf8_lossy(&line);
        match Session::from_input(&text) {
            Ok(mut s) => {
                if let Err(e) = s.answer(bot.as_mut()) {
                    assert!(!e.to_string().is_empty());
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}
