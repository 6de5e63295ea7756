//! Auto-play (托管, docs/web.md): a person's seat on auto-play is played by the hint robot
//! (`Room::robot_job` gives its turns, marked `auto`), every audience sees the seat marked, an
//! action of the seat's own takes the turns back, and a robot's seat cannot be put on it.

use ddz_core::Rules;
use ddz_game::{BySeat, Seat};
use ddz_server::room::{Audience, Request, Room, RoomSettings};
use ddz_server::wire::{ClientMessage, Event, NumberedEvent, Phase};
use serde_json::json;

fn room(seed: u64) -> Room {
    let settings = RoomSettings {
        rules: Rules::classic(),
        robots: BySeat([
            None,
            Some("greedy".parse().unwrap()),
            Some("greedy".parse().unwrap()),
        ]),
        seed: Some(seed),
        hint_bot: "greedy".parse().unwrap(),
    };
    Room::new(settings, |s| format!("{:032x}", s.index() + 1))
}

fn read(room: &Room, audience: Audience, msg: serde_json::Value) -> Result<Request, String> {
    let msg: ClientMessage = serde_json::from_value(msg).unwrap();
    room.read_request(audience, &msg).map_err(|e| e.to_string())
}

fn auto_events(events: &[NumberedEvent]) -> Vec<(Seat, bool)> {
    events
        .iter()
        .filter_map(|e| match e.event {
            Event::Auto { seat, auto } => Some((seat, auto)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_seat_on_auto_play_is_played_by_the_hint_robot_to_the_end() {
    let me = Seat::ALL[0];
    for seed in 1..=5 {
        let mut room = room(seed);
        assert_eq!(
            read(
                &room,
                Audience::Seat(me),
                json!({"type": "auto", "auto": true})
            ),
            Ok(Request::Auto(me, true))
        );
        let on = room.set_auto(me, true);
        assert_eq!(auto_events(&on), vec![(me, true)]);
        assert!(
            room.set_auto(me, true).is_empty(),
            "no event when nothing changes"
        );
        for audience in [
            Audience::Seat(me),
            Audience::Seat(me.next()),
            Audience::Spectator,
        ] {
            assert!(
                room.state(audience).seats[me].auto,
                "{audience:?} sees the mark"
            );
        }
        let mut played_for_me = 0;
        while !room.is_over() {
            let job = room
                .robot_job()
                .expect("every turn has a robot, mine included");
            assert_eq!(job.auto, job.seat == me, "only my turns are auto-played");
            let (seat, auto) = (job.seat, job.auto);
            played_for_me += usize::from(seat == me);
            let action = job.run();
            let events = room.act(seat, action, auto).unwrap();
            assert!(
                auto_events(&events).is_empty(),
                "the robot keeps auto-play on"
            );
        }
        assert!(played_for_me > 0, "seed {seed}: I never had a turn");
        let state = room.state(Audience::Spectator);
        assert_eq!(state.phase, Phase::Over);
        assert!(state.seats[me].auto, "it stays on after the game");
    }
}

#[test]
fn acting_yourself_takes_the_turns_back() {
    let me = Seat::ALL[0];
    let mut room = room(3);
    // Robots act until it is my turn.
    while room.turn() != Some(me) {
        let job = room.robot_job().unwrap();
        let (seat, action) = (job.seat, job.run());
        room.act(seat, action, false).unwrap();
    }
    room.set_auto(me, true);
    let job = room.auto_job(me);
    let action = job.run();
    // The same action sent by the person (not by the robot): auto-play goes off after it.
    let events = room.act(me, action, false).unwrap();
    assert_eq!(auto_events(&events), vec![(me, false)]);
    assert_eq!(
        events.last().map(|e| &e.event),
        Some(&Event::Auto {
            seat: me,
            auto: false
        })
    );
    assert!(!room.is_auto(me));
    assert!(!room.state(Audience::Spectator).seats[me].auto);
}

#[test]
fn auto_play_is_refused_to_robots_and_spectators_and_read_strictly() {
    let me = Seat::ALL[0];
    let mut room = room(4);
    assert!(
        room.set_auto(me.next(), true).is_empty(),
        "a robot's seat is not put on auto-play"
    );
    assert!(!room.state(Audience::Spectator).seats[me.next()].auto);
    let spectator = read(
        &room,
        Audience::Spectator,
        json!({"type": "auto", "auto": true}),
    );
    assert_eq!(spectator, Err("\"auto\": spectators only watch".into()));
    let missing = read(&room, Audience::Seat(me), json!({"type": "auto"}));
    assert_eq!(missing, Err("missing \"auto\"".into()));
    let bad = read(
        &room,
        Audience::Seat(me),
        json!({"type": "auto", "auto": 1}),
    );
    assert_eq!(bad, Err("\"auto\": 1 is not true or false".into()));
    let off = read(
        &room,
        Audience::Seat(me),
        json!({"type": "auto", "auto": false}),
    );
    assert_eq!(off, Ok(Request::Auto(me, false)));
}
