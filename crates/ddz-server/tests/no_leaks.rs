//! Property: over many games, no message to a seat (or to the spectators) holds a card of
//! another seat that has not been played, before the game is over; legal moves go only to the
//! seat to act and hold only its own cards.

use ddz_core::{CardSet, Cards, Profile, Rules};
use ddz_game::{BySeat, GameRecord, Phase, Seat};
use ddz_server::room::{Action, Audience, Room, RoomSettings};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// The keys under which messages carry card ids.
const CARD_KEYS: [&str; 4] = ["hand", "ids", "kitty", "hands"];

/// Every card id under a card key, anywhere in `v`.
fn card_ids(v: &Value, under_card_key: bool, out: &mut Vec<u64>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| card_ids(i, under_card_key, out)),
        Value::Object(fields) => {
            for (k, v) in fields {
                card_ids(v, CARD_KEYS.contains(&k.as_str()), out);
            }
        }
        Value::Number(n) if under_card_key => out.push(n.as_u64().unwrap()),
        _ => {}
    }
}

/// Checks one message (a state or the events) meant for `audience`.
fn check(room: &Room, audience: Audience, msg: &Value) -> Result<(), String> {
    let game = room.game();
    if game.phase() == Phase::Over {
        return Ok(());
    }
    // Cards still hidden from this audience: each other seat's cards, less the kitty once the
    // landlord has taken it (it is shown to everyone).
    let kitty = if game.landlord().is_some() {
        game.deal().kitty
    } else {
        CardSet::EMPTY
    };
    let mut hidden = CardSet::EMPTY;
    for s in Seat::ALL {
        if audience != Audience::Seat(s) {
            hidden = CardSet::from_bits(hidden.bits() | (room.physical(s).bits() & !kitty.bits()))
                .unwrap();
        }
    }
    let mut ids = Vec::new();
    card_ids(msg, false, &mut ids);
    for id in ids {
        if hidden.bits() & (1 << id) != 0 {
            return Err(format!(
                "card {id} of another seat sent to {audience:?}: {msg}"
            ));
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
                if game.turn() != me && !legal.is_null() {
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
        seed,
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
            check(&room, a, &room.state(a))?;
        }
        let seat = room.turn().unwrap();
        let events = if let Some(job) = room.robot_job() {
            let action = job.run();
            room.act(seat, action, false)?
        } else if rng.random_range(0..10) == 0 {
            // The turn timer ran out.
            let job = room.auto_job(seat);
            let action = job.run();
            room.act(seat, action, true)?
        } else {
            let state = room.state(Audience::Seat(seat));
            let legal = &state["legal"];
            let msg = if let Some(bids) = legal["bids"].as_array() {
                serde_json::json!({"type": "bid", "bid": bids[rng.random_range(0..bids.len())]})
            } else {
                let moves = legal["moves"].as_array().unwrap();
                serde_json::json!({"type": "play", "move": moves[rng.random_range(0..moves.len())]})
            };
            let ddz_server::room::Request::Act(s, action) =
                room.read_request(Audience::Seat(seat), msg.as_object().unwrap())?
            else {
                return Err("not an action".into());
            };
            room.act(s, action, false)?
        };
        if !room.is_over() {
            for a in AUDIENCES {
                check(&room, a, &Value::Array(events.clone()))?;
            }
        }
        steps += 1;
        if steps > 500 {
            return Err("the game did not end".into());
        }
    }
    // Over: the record replays to the same result.
    let state = room.state(Audience::Spectator);
    let record: GameRecord = serde_json::from_value(state["record"].clone()).unwrap();
    let game = record.replay().map_err(|e| e.to_string())?;
    if game.result() != room.game().result() {
        return Err("the record does not replay to the result".into());
    }
    // And the next game is dealt once every person is ready.
    for s in Seat::ALL.into_iter().filter(|s| !robots[s.index()]) {
        room.act(s, Action::Next, false)?;
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
        profile in prop_oneof![Just(Profile::Classic), Just(Profile::Laizi), Just(Profile::Tiandi), Just(Profile::Botzone)],
        robots in prop_oneof![Just([false, false, false]), Just([false, true, true]), Just([true, false, true])],
        seed in any::<u64>(),
        choices in any::<u64>(),
    ) {
        if let Err(e) = play_and_check(profile, robots, seed, choices) {
            prop_assert!(false, "{profile:?} {robots:?} seed {seed}: {e}");
        }
    }
}
