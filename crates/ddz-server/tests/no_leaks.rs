//! Property: over many games, no message to a seat (or to the spectators) holds a card of
//! another seat that has not been played, before the game is over; legal moves go only to the
//! seat to act and hold only its own cards.
//!
//! Every value of every message is scanned, not only the keys that carry cards today: each
//! number is read as a card id unless its key is one of [`NOT_CARD_NUMBERS`] (and must then
//! be a card the audience may know), and each string's cards part (before `=` or `:`) that
//! reads as cards must fit within the ranks the audience may know. What an audience may know
//! is its own hand (a seat's), the cards played, and the kitty once the landlord has taken it.
//! A leak as text can only be seen at the level of ranks: a hidden card whose rank the
//! audience also holds or has seen played is indistinguishable from it.
//! `the_check_catches_leaks` feeds the check messages with cards leaked in each form.

use ddz_core::{CardSet, Cards, Profile, Rules};
use ddz_game::{BySeat, GameRecord, Phase, Seat};
use ddz_server::room::{Audience, Room, RoomSettings, SeatAction};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Keys whose numbers are not cards: seat numbers, counts, bids, show and doubling factors,
/// multipliers and the stake's parts, totals, the game, step and event numbers. A number
/// under any other key is read as a card id.
const NOT_CARD_NUMBERS: [&str; 23] = [
    "robs",
    "shows",
    "bombs",
    "n",
    "factor",
    "show",
    "double",
    "doublings",
    "multipliers",
    "seat",
    "you",
    "landlord",
    "turn",
    "first_bidder",
    "game",
    "step",
    "bid",
    "bids",
    "base",
    "multiplier",
    "cards_left",
    "total",
    "totals",
];

/// Keys whose strings are not cards: the wild ranks (`laizi`), which every seat is told.
const NOT_CARD_TEXT: [&str; 1] = ["laizi"];

/// Every number and string in `v` with the key it sits under (the nearest object key).
fn scan<'a>(v: &'a Value, key: &'a str, out: &mut Vec<(&'a str, &'a Value)>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| scan(i, key, out)),
        Value::Object(fields) => {
            for (k, v) in fields {
                scan(v, k, out);
            }
        }
        Value::Number(_) | Value::String(_) => out.push((key, v)),
        Value::Null | Value::Bool(_) => {}
    }
}

/// The cards `audience` may know now: the cards played, the kitty once the landlord has
/// taken it, the shown hands, and a seat's own hand.
fn knowable(room: &Room, audience: Audience) -> CardSet {
    let game = room.game();
    let kitty = game.deal().kitty;
    let revealed = game.landlord().is_some();
    // Cards not yet played: in a hand, or in the kitty while nobody has taken it.
    let mut unplayed = if revealed { 0 } else { kitty.bits() };
    for s in Seat::ALL {
        unplayed |= room.physical(s).bits();
    }
    let mut known = CardSet::FULL_DECK.bits() & !unplayed;
    if revealed {
        known |= kitty.bits();
    }
    if let Audience::Seat(me) = audience {
        known |= room.physical(me).bits();
    }
    // Shown hands (明牌), as they are now.
    let shown = *game.view(Seat::ALL[0]).shown();
    for s in Seat::ALL.into_iter().filter(|&s| shown[s].is_some()) {
        known |= room.physical(s).bits();
    }
    CardSet::from_bits(known).unwrap()
}

/// The state `audience` may see now, as the JSON sent.
fn state_json(room: &Room, audience: Audience) -> Value {
    serde_json::to_value(room.state(audience)).unwrap()
}

/// Checks one message (a state or the events) meant for `audience`.
fn check(room: &Room, audience: Audience, msg: &Value) -> Result<(), String> {
    let game = room.game();
    if game.phase() == Phase::Over {
        return Ok(());
    }
    let known = knowable(room, audience);
    let known_ranks = known.to_cards();
    let mut values = Vec::new();
    scan(msg, "", &mut values);
    for (key, v) in values {
        match v {
            Value::Number(n) if !NOT_CARD_NUMBERS.contains(&key) => {
                let card = n
                    .as_u64()
                    .and_then(|id| u8::try_from(id).ok())
                    .and_then(ddz_core::Card::from_id)
                    .ok_or_else(|| {
                        format!(
                            "\"{key}\": {n} is not a card id (a new number that is not a card \
                             belongs in NOT_CARD_NUMBERS): {msg}"
                        )
                    })?;
                if !known.contains(card) {
                    return Err(format!(
                        "card {n} ({}) that {audience:?} may not know under \"{key}\": {msg}",
                        card.rank()
                    ));
                }
            }
            Value::String(text) if !NOT_CARD_TEXT.contains(&key) => {
                let part = text.split(['=', ':']).next().unwrap_or("");
                if let Ok(cards) = part.parse::<Cards>()
                    && !known_ranks.contains(cards)
                {
                    return Err(format!(
                        "\"{key}\": \"{text}\" names cards beyond what {audience:?} may know \
                         ({known_ranks}): {msg}"
                    ));
                }
            }
            _ => {}
        }
    }
    for key in ["hands", "seed", "record", "result"] {
        if msg.get(key).is_some() {
            return Err(format!("\"{key}\" before game over to {audience:?}"));
        }
    }
    if let Some(state) = msg
        .get("state")
        .or(Some(msg))
        .filter(|s| s.get("phase").is_some())
    {
        match audience {
            Audience::Seat(me) => {
                let hand: Cards = state["hand"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|id| {
                        ddz_core::Card::from_id(id.as_u64().unwrap() as u8)
                            .unwrap()
                            .rank()
                    })
                    .collect();
                if hand != game.hand(me) {
                    return Err(format!(
                        "seat {me} was sent the hand {hand}, holds {}",
                        game.hand(me)
                    ));
                }
                let legal = &state["legal"];
                if !game.to_act().contains(&me) && !legal.is_null() {
                    return Err(format!("legal actions sent to seat {me} off its turn"));
                }
                for m in legal["moves"].as_array().into_iter().flatten() {
                    let text = m.as_str().unwrap();
                    let cards = text.split(['=', ':']).next().unwrap();
                    if cards != "pass" && !game.hand(me).contains(cards.parse::<Cards>().unwrap()) {
                        return Err(format!("legal move {text} not in seat {me}'s hand"));
                    }
                }
            }
            Audience::Spectator => {
                if !state["hand"].is_null() || !state["legal"].is_null() {
                    return Err("a hand or legal actions sent to the spectators".into());
                }
            }
        }
    }
    Ok(())
}

const AUDIENCES: [Audience; 4] = [
    Audience::Seat(Seat::ALL[0]),
    Audience::Seat(Seat::ALL[1]),
    Audience::Seat(Seat::ALL[2]),
    Audience::Spectator,
];

/// Plays one game of a room, people acting at random from what their state allows, robots
/// and timed-out turns through jobs; checks every message on the way.
fn play_and_check(
    profile: Profile,
    robots: [bool; 3],
    seed: u64,
    choices: u64,
) -> Result<(), String> {
    let rules = Rules::profile(profile);
    let settings = RoomSettings {
        rules,
        robots: BySeat::from_fn(|s| robots[s.index()].then(|| "greedy".parse().unwrap())),
        seed: Some(seed),
        hint_bot: "greedy".parse().unwrap(),
    };
    let mut room = Room::new(settings, |s| format!("{:032x}", s.index()));
    let mut rng = ChaCha8Rng::seed_from_u64(choices);
    for s in Seat::ALL {
        room.set_connected(s, true);
    }
    let mut steps = 0;
    while !room.is_over() {
        for a in AUDIENCES {
            check(&room, a, &state_json(&room, a))?;
        }
        let seat = room.turn().unwrap();
        let events = if let Some(job) = room.robot_job() {
            let action = job.run();
            room.act(seat, action, false).map_err(|e| e.to_string())?
        } else if rng.random_range(0..10) == 0 {
            // The turn timer ran out.
            let job = room.auto_job(seat);
            let action = job.run();
            room.act(seat, action, true).map_err(|e| e.to_string())?
        } else {
            let state = state_json(&room, Audience::Seat(seat));
            let legal = &state["legal"];
            let step = &state["step"];
            let msg = if let Some(factors) = legal["double"].as_array() {
                let d = &factors[rng.random_range(0..factors.len())];
                serde_json::json!({"type": "double", "double": d, "step": step})
            } else if legal.get("show").is_some() {
                let show = rng.random_range(0..4) == 0;
                serde_json::json!({"type": "show", "show": show, "step": step})
            } else if let Some(bids) = legal["bids"].as_array() {
                let bid = &bids[rng.random_range(0..bids.len())];
                serde_json::json!({"type": "bid", "bid": bid, "step": step})
            } else {
                let moves = legal["moves"].as_array().unwrap();
                let m = &moves[rng.random_range(0..moves.len())];
                serde_json::json!({"type": "play", "move": m, "step": step})
            };
            let ddz_server::room::Request::Act(s, action) = room
                .read_request(Audience::Seat(seat), &serde_json::from_value(msg).unwrap())
                .map_err(|e| e.to_string())?
            else {
                return Err("not an action".into());
            };
            room.act(s, action, false).map_err(|e| e.to_string())?
        };
        if !room.is_over() {
            for a in AUDIENCES {
                check(&room, a, &serde_json::to_value(&events).unwrap())?;
            }
        }
        steps += 1;
        if steps > 500 {
            return Err("the game did not end".into());
        }
    }
    // Over: the record replays to the same result.
    let state = state_json(&room, Audience::Spectator);
    let record: GameRecord = serde_json::from_value(state["record"].clone()).unwrap();
    let game = record.replay().map_err(|e| e.to_string())?;
    if game.result() != room.game().result() {
        return Err("the record does not replay to the result".into());
    }
    // And the next game is dealt once every person is ready.
    for s in Seat::ALL.into_iter().filter(|s| !robots[s.index()]) {
        room.act(s, SeatAction::Next, false)
            .map_err(|e| e.to_string())?;
    }
    if room.number() != 2 || room.is_over() {
        return Err("no second game".into());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn no_seat_sees_another_seats_cards(
        profile in prop_oneof![Just(Profile::Classic), Just(Profile::Laizi), Just(Profile::Tiandi), Just(Profile::Botzone), Just(Profile::Huanle)],
        robots in prop_oneof![Just([false, false, false]), Just([false, true, true]), Just([true, false, true])],
        seed in any::<u64>(),
        choices in any::<u64>(),
    ) {
        if let Err(e) = play_and_check(profile, robots, seed, choices) {
            prop_assert!(false, "{profile:?} {robots:?} seed {seed}: {e}");
        }
    }
}

/// A room of three people at a fixed seed, connected, in the bidding.
fn bidding_room(profile: Profile, seed: u64) -> Room {
    let settings = RoomSettings {
        rules: Rules::profile(profile),
        robots: BySeat::from_fn(|_| None),
        seed: Some(seed),
        hint_bot: "greedy".parse().unwrap(),
    };
    let mut room = Room::new(settings, |s| format!("{:032x}", s.index()));
    for s in Seat::ALL {
        room.set_connected(s, true);
    }
    room
}

fn ids(cards: CardSet) -> Value {
    cards.iter().map(|c| c.id()).collect()
}

/// The check passes the room's own messages and fails each form of leak: another seat's
/// cards as ids or as rank text under any key, one hidden card as a lone number, the kitty
/// before anyone has taken it, and a number that is no card under an unknown key.
#[test]
fn the_check_catches_leaks() {
    for profile in [Profile::Classic, Profile::Laizi] {
        let room = bidding_room(profile, 7);
        let me = Seat::ALL[0];
        let other = room.physical(Seat::ALL[1]);
        let kitty = room.game().deal().kitty;
        assert_eq!(other.len(), 17);
        assert_eq!(kitty.len(), 3);
        let state = state_json(&room, Audience::Seat(me));
        check(&room, Audience::Seat(me), &state).unwrap();
        check(
            &room,
            Audience::Spectator,
            &state_json(&room, Audience::Spectator),
        )
        .unwrap();

        let leaks: Vec<(&str, Value)> = vec![
            ("ids under a new key", ids(other)),
            (
                "rank text under a new key",
                other.to_cards().to_string().into(),
            ),
            (
                "rank text before a reading",
                format!("{}=9999", other.to_cards()).into(),
            ),
            (
                "one hidden card, nested",
                serde_json::json!({"x": [other.iter().next().unwrap().id()]}),
            ),
            ("not a card id", 54.into()),
        ];
        for (what, leak) in leaks {
            let mut msg = state.clone();
            msg["debug"] = leak;
            assert!(
                check(&room, Audience::Seat(me), &msg).is_err(),
                "{profile:?}: {what} passed"
            );
            // The same leak inside an event.
            let events = serde_json::json!([{"event": "play", "seat": 1, "note": msg["debug"]}]);
            assert!(
                check(&room, Audience::Spectator, &events).is_err(),
                "{profile:?}: {what} in an event passed"
            );
        }
        // Under a key that carries cards today.
        let mut msg = state.clone();
        msg["kitty"] = ids(kitty);
        assert!(check(&room, Audience::Seat(me), &msg).is_err(), "kitty");
        let mut msg = state.clone();
        msg["seats"][1]["robot"] = other.to_cards().to_string().into();
        assert!(check(&room, Audience::Seat(me), &msg).is_err(), "robot");
        // The seat's own hand as text is no leak to it, but is to the spectators.
        let mut msg = state.clone();
        msg["debug"] = room.physical(me).to_cards().to_string().into();
        check(&room, Audience::Seat(me), &msg).unwrap();
        assert!(check(&room, Audience::Spectator, &msg).is_err(), "own hand");
    }
}

/// Under `huanle`: a hand is in no message before its seat shows it, and in every audience's
/// state from the show on, as it is then (while dealing, the cards received so far).
#[test]
fn shown_hands_are_public_from_the_show_on() {
    for (seed, shower) in [(3, 1usize), (4, 2), (5, 0)] {
        let mut room = bidding_room(Profile::Huanle, seed);
        let shower = Seat::ALL[shower];
        let mut shown_at = None;
        let mut steps = 0;
        while !room.is_over() && steps < 600 {
            steps += 1;
            let seat = room.turn().unwrap();
            for a in AUDIENCES {
                let state = state_json(&room, a);
                check(&room, a, &state).unwrap();
                let shown = &state["shown"][shower.index()];
                match shown_at {
                    None => assert!(shown.is_null(), "seed {seed}: shown before the show"),
                    Some(_) => assert_eq!(
                        shown,
                        &ids(room.physical(shower)),
                        "seed {seed}: {a:?} sees the shown hand as it is"
                    ),
                }
            }
            let state = state_json(&room, Audience::Seat(seat));
            let legal = &state["legal"];
            let step = &state["step"];
            let msg = if let Some(factors) = legal["double"].as_array() {
                let d = &factors[factors.len() - 1];
                serde_json::json!({"type": "double", "double": d, "step": step})
            } else if legal.get("show").is_some() {
                // The shower shows at its first window with cards (6 received).
                let cards = room.physical(seat).len();
                let show = seat == shower && shown_at.is_none() && cards > 0;
                serde_json::json!({"type": "show", "show": show, "step": step})
            } else if let Some(bids) = legal["bids"].as_array() {
                let bid = &bids[bids.len() - 1];
                serde_json::json!({"type": "bid", "bid": bid, "step": step})
            } else {
                let moves = legal["moves"].as_array().unwrap();
                serde_json::json!({"type": "play", "move": moves[0], "step": step})
            };
            let ddz_server::room::Request::Act(s, action) = room
                .read_request(
                    Audience::Seat(seat),
                    &serde_json::from_value(msg.clone()).unwrap(),
                )
                .unwrap()
            else {
                panic!("not an action")
            };
            let events = room.act(s, action, false).unwrap();
            if msg["show"] == true {
                shown_at = Some(steps);
                let events = serde_json::to_value(&events).unwrap();
                assert!(
                    events.to_string().contains("\"show\""),
                    "seed {seed}: a show event: {events}"
                );
            }
            if !room.is_over() {
                for a in AUDIENCES {
                    check(&room, a, &serde_json::to_value(&events).unwrap()).unwrap();
                }
            }
        }
        assert!(room.is_over(), "seed {seed}: the game ended");
        assert!(shown_at.is_some(), "seed {seed}: seat {shower} showed");
    }
}

/// Hostile `show` and `double` messages are refused with the reason; the room goes on.
#[test]
fn bad_show_and_double_messages_are_refused() {
    let room = bidding_room(Profile::Huanle, 9);
    let seat = room.turn().unwrap();
    let other = seat.next();
    let read = |audience: Audience, msg: Value| {
        room.read_request(audience, &serde_json::from_value(msg).unwrap())
    };
    let me = Audience::Seat(seat);
    for (msg, error) in [
        (serde_json::json!({"type": "show"}), "missing \"show\""),
        (
            serde_json::json!({"type": "show", "show": "yes"}),
            "\"show\": \"yes\" is not true or false",
        ),
        (
            serde_json::json!({"type": "show", "show": null}),
            "\"show\": null",
        ),
        (serde_json::json!({"type": "double"}), "missing \"double\""),
        (
            serde_json::json!({"type": "double", "double": 3}),
            "\"double\": 3 is not a factor",
        ),
        (
            serde_json::json!({"type": "double", "double": -1}),
            "\"double\": -1",
        ),
    ] {
        let e = read(me, msg.clone()).unwrap_err();
        assert!(e.message.contains(error), "{msg}: {e}");
        let field = if error.contains("show") {
            "show"
        } else {
            "double"
        };
        assert_eq!(e.fields["field"], field, "{msg}: {e:?}");
    }
    let e = read(
        Audience::Spectator,
        serde_json::json!({"type": "show", "show": true}),
    )
    .unwrap_err();
    assert_eq!(e.code, "spectator", "{e:?}");
    assert!(e.message.contains("spectators only watch"), "{e}");
    // Well-formed but not allowed now: refused by the game (its code and fields), the room
    // unchanged.
    let mut room = room;
    let step = room.step();
    let doubling = SeatAction::Decide(ddz_game::Action::Double(2));
    let e = room.act(seat, doubling, false).unwrap_err();
    assert_eq!(e.code, "wrong_phase", "{e:?}");
    assert_eq!(
        e.fields["phase"],
        serde_json::json!(room.game().phase()),
        "{e:?}"
    );
    let e = room
        .act(
            other,
            SeatAction::Decide(ddz_game::Action::Show(true)),
            false,
        )
        .unwrap_err();
    assert_eq!(e.code, "not_your_turn", "{e:?}");
    assert_eq!(room.step(), step);
}

/// Any JSON value of a few kinds, for the fields of the messages below.
fn any_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5i64..60).prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::from)),
        "[0-9A-Za-z ]{0,6}".prop_map(Value::from),
        proptest::collection::vec(0u64..60, 0..4).prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Any object with any `type` and any fields reads as a client message; the room answers
    /// it with a request or a refusal whose code is a listed one, and never panics; the room
    /// is unchanged by a refusal.
    #[test]
    fn any_client_object_is_read_or_refused_with_a_listed_code(
        kind in prop_oneof![
            Just(None),
            any_json().prop_map(Some),
            prop_oneof![
                Just("join"), Just("watch"), Just("bid"), Just("show"), Just("double"),
                Just("play"), Just("pass"), Just("hint"), Just("next"), Just("auto"),
            ].prop_map(|k| Some(Value::from(k))),
        ],
        fields in proptest::collection::vec((prop_oneof![
            Just("seat"), Just("step"), Just("bid"), Just("show"), Just("double"), Just("move"),
            Just("ids"), Just("auto"), Just("token"), Just("after"), Just("other"),
        ], any_json()), 0..5),
        spectator in any::<bool>(),
    ) {
        let mut object = serde_json::Map::new();
        if let Some(kind) = kind {
            object.insert("type".into(), kind);
        }
        for (key, value) in fields {
            object.insert(key.into(), value);
        }
        let msg: ddz_server::wire::ClientMessage =
            serde_json::from_value(Value::Object(object.clone())).unwrap();
        let mut room = bidding_room(Profile::Huanle, 3);
        let audience = if spectator { Audience::Spectator } else { Audience::Seat(room.turn().unwrap()) };
        let step = room.step();
        match room.read_request(audience, &msg) {
            Err(e) => {
                prop_assert!(ddz_server::wire::Refusal::CODES.contains(&e.code.as_str()), "{object:?}: {e:?}");
                prop_assert_eq!(room.step(), step);
            }
            Ok(ddz_server::room::Request::Act(seat, action)) => {
                if let Err(e) = room.act(seat, action, false) {
                    prop_assert!(ddz_server::wire::Refusal::CODES.contains(&e.code.as_str()), "{object:?}: {e:?}");
                    prop_assert_eq!(room.step(), step);
                }
            }
            Ok(_) => {}
        }
    }
}
