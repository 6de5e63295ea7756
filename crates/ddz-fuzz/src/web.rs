//! `ddz-web/1` client messages (a room's WebSocket frames) and the body of
//! `POST /v1/rooms`.

use ddz_bots::BotSpec;
use ddz_core::Rules;
use ddz_game::{BySeat, Seat};
use ddz_server::room::{Audience, Request, Room, RoomSettings};
use ddz_server::wire::{ClientMessage, NewRoom, NumberedEvent, TableState};
use serde_json::Value;

/// Client messages read from one input at most.
const MAX_MESSAGES: usize = 64;
/// Robot decisions (auto-play) made after one message at most.
const MAX_JOBS: usize = 64;

/// Reads each line of `data` (as text) as a client message, as a WebSocket frame is read,
/// and gives it to a room of three people (classic rules, and the huanle rules with showing
/// and doubling) as from the seat it names, else the seat to act: what the room takes is
/// applied, and the seats on auto-play then play. Every event and state the room sends must
/// read back as itself. The whole of `data` is also read as the body of `POST /v1/rooms`.
pub fn web(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let hint_bot = BotSpec::parse("greedy").expect("the greedy robot");
    for rules in [Rules::classic(), Rules::huanle()] {
        let settings = RoomSettings {
            rules,
            robots: BySeat([None, None, None]),
            seed: Some(1),
            hint_bot: hint_bot.clone(),
        };
        let mut room = Room::new(settings, |seat| format!("{:032x}", seat.index()));
        for line in text.lines().take(MAX_MESSAGES) {
            let Some(msg) = frame(line) else {
                continue;
            };
            let _ = (msg.kind(), msg.after());
            let named = msg
                .turn()
                .and_then(|t| t.seat.as_ref())
                .and_then(|s| s.value);
            let audience = match named.or_else(|| room.turn()) {
                Some(seat) => Audience::Seat(seat),
                None => Audience::Spectator,
            };
            let events = match room.read_request(audience, &msg) {
                Ok(Request::Act(seat, action)) => room.act(seat, action, false).unwrap_or_default(),
                Ok(Request::Auto(seat, auto)) => room.set_auto(seat, auto),
                Ok(Request::Hint(seat)) => {
                    if let Ok(job) = room.hint_job(seat) {
                        let _ = job.run();
                    }
                    Vec::new()
                }
                Err(refusal) => {
                    let _ = serde_json::to_string(&refusal).expect("a refusal serialises");
                    Vec::new()
                }
            };
            check_events(&events);
            auto_play(&mut room);
            for audience in [Audience::Spectator, Audience::Seat(Seat::ALL[0])] {
                check_state(&room.state(audience));
            }
        }
    }
    if let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(&text) {
        let _ = serde_json::from_value::<NewRoom>(value);
    }
}

/// A text frame read as `ws.rs` reads it: JSON, an object, then a message.
fn frame(line: &str) -> Option<ClientMessage> {
    match serde_json::from_str::<Value>(line) {
        Ok(value @ Value::Object(_)) => serde_json::from_value(value).ok(),
        _ => None,
    }
}

/// The decisions of the seats on auto-play, as the room's task makes them.
fn auto_play(room: &mut Room) {
    for _ in 0..MAX_JOBS {
        let Some(job) = room.robot_job() else {
            return;
        };
        let (seat, auto) = (job.seat, job.auto);
        match room.act(seat, job.run(), auto) {
            Ok(events) => check_events(&events),
            Err(refusal) => {
                panic!("the room refused its own robot job for seat {seat}: {refusal:?}")
            }
        }
    }
}

/// Events as sent read back as themselves.
fn check_events(events: &[NumberedEvent]) {
    for event in events {
        let text = serde_json::to_string(event).expect("an event serialises");
        let again: NumberedEvent = serde_json::from_str(&text).expect("an event reads back");
        assert_eq!(&again, event, "{text}");
    }
}

/// A state as sent reads back as itself.
fn check_state(state: &TableState) {
    let text = serde_json::to_string(state).expect("a state serialises");
    let again: TableState = serde_json::from_str(&text).expect("a state reads back");
    assert_eq!(&again, state, "{text}");
}
