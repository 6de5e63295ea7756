//! The transcript of rooms driven directly (`web_room.txt`).

use super::*;

const AUDIENCES: [Audience; 4] = [
    Audience::Seat(Seat::ALL[0]),
    Audience::Seat(Seat::ALL[1]),
    Audience::Seat(Seat::ALL[2]),
    Audience::Spectator,
];

fn audience_name(a: Audience) -> String {
    match a {
        Audience::Seat(s) => format!("seat {s}"),
        Audience::Spectator => "spectator".into(),
    }
}

/// Reads a client message as the room's task does (a frame's JSON object). A probe without
/// `"step"` is read as answering the room's current step (`tests/stale.rs` checks missing
/// and stale steps).
fn read(room: &Room, audience: Audience, msg: &Value) -> Result<Request, Refusal> {
    let mut msg = msg.clone();
    if let Some(fields) = msg.as_object_mut() {
        fields.entry("step").or_insert(json!(room.step()));
    }
    let msg: ClientMessage = serde_json::from_value(msg).unwrap();
    room.read_request(audience, &msg)
}

/// A request read, in words.
fn describe(room: &Room, request: &Request) -> String {
    match request {
        Request::Hint(s) => format!("hint for seat {s}"),
        Request::Auto(s, on) => format!("auto {on} by seat {s}"),
        Request::Act(s, SeatAction::Next) => format!("next by seat {s}"),
        Request::Act(s, SeatAction::Bid(b)) => format!("bid {b} by seat {s}"),
        Request::Act(s, SeatAction::Decide(decision)) => format!("{decision:?} by seat {s}"),
        Request::Act(s, SeatAction::Play(m, ids)) => {
            let ids = ids.map_or("no ids".to_string(), |set| {
                format!("ids {:?}", set.iter().map(|c| c.id()).collect::<Vec<_>>())
            });
            format!(
                "play {} by seat {s} with {ids}",
                move_notation(m, &room.game().rules())
            )
        }
    }
}

/// Applies an action; the events, or the refusal.
fn act(
    t: &mut Transcript,
    room: &mut Room,
    label: &str,
    seat: Seat,
    action: SeatAction,
    auto: bool,
) {
    match room.act(seat, action, auto) {
        Ok(events) => {
            round_trip::<Vec<NumberedEvent>>(&serde_json::to_string(&events).unwrap());
            t.json(format!("events ({label}, seat {seat})"), &events);
        }
        Err(e) => t.json(format!("refused ({label}, seat {seat})"), &e),
    }
}

/// The states of every audience.
fn states(t: &mut Transcript, room: &Room) {
    for a in AUDIENCES {
        let state = room.state(a);
        round_trip::<TableState>(&serde_json::to_string(&state).unwrap());
        t.json(format!("state for {}", audience_name(a)), &state);
    }
}

/// The state of one audience as a JSON value.
fn state_value(room: &Room, a: Audience) -> Value {
    serde_json::to_value(room.state(a)).unwrap()
}

/// The hand's card ids in a state.
fn hand_ids(state: &Value) -> Vec<u64> {
    let mut hand: Vec<u64> = state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    hand.sort_unstable();
    hand
}

/// The rank letter of a card id.
fn letter(id: u64) -> char {
    Card::from_id(id as u8).unwrap().rank().letter()
}

/// The lowest ids of each rank of `text`'s cards part in the hand.
fn ids_for(state: &Value, text: &str) -> Vec<u64> {
    let mut hand = hand_ids(state);
    let cards = text.split(['=', ':']).next().unwrap();
    let mut ids = Vec::new();
    for l in cards.chars() {
        let pos = hand.iter().position(|&id| letter(id) == l).unwrap();
        ids.push(hand.remove(pos));
    }
    ids
}

/// A person's choice from its state: a bid (0 when `pass`), or a play sent as `play` with or
/// without ids or as `pass`.
pub(super) fn choose(state: &Value, rng: &mut ChaCha8Rng, pass: bool) -> Value {
    let legal = &state["legal"];
    let step = &state["step"];
    if let Some(bids) = legal["bids"].as_array() {
        let bid = if pass {
            json!(0)
        } else {
            bids[rng.random_range(0..bids.len())].clone()
        };
        return json!({"type": "bid", "bid": bid, "step": step});
    }
    let moves = legal["moves"].as_array().unwrap();
    let m = moves[rng.random_range(0..moves.len())].as_str().unwrap();
    match (m, rng.random_range(0..3)) {
        ("pass", 0) => json!({"type": "pass", "step": step}),
        (m, 1) if m != "pass" => {
            json!({"type": "play", "move": m, "ids": ids_for(state, m), "step": step})
        }
        (m, _) => json!({"type": "play", "move": m, "step": step}),
    }
}

/// Reads each client message as `audience`, records the request or the error, and tries the
/// actions of those marked to act (each must be refused).
fn probe(t: &mut Transcript, room: &mut Room, audience: Audience, messages: &[(Value, bool)]) {
    let who = audience_name(audience);
    for (msg, try_it) in messages {
        t.line(format!("from {who}"), msg.to_string());
        match read(room, audience, msg) {
            Err(e) => t.json("error", &e),
            Ok(request) => {
                t.line("read", describe(room, &request));
                if !try_it {
                    continue;
                }
                match request {
                    Request::Hint(seat) => match room.hint_job(seat) {
                        Ok(job) => t.json("hints", &job.run()),
                        Err(e) => t.json("error", &e),
                    },
                    // Auto-play on, its state, and off again: the room goes on as it was.
                    Request::Auto(seat, on) => {
                        t.json("events (auto)", &room.set_auto(seat, on));
                        t.json("auto state", &room.state(Audience::Seat(seat)).seats);
                        t.json("events (auto off)", &room.set_auto(seat, false));
                    }
                    Request::Act(seat, action) => {
                        let step = room.step();
                        act(t, room, "probe", seat, action, false);
                        assert_eq!(room.step(), step, "{msg} was not refused");
                    }
                }
            }
        }
    }
}

/// Bad and good messages of the seat to act while bidding, of another person and of a
/// spectator.
fn probe_bidding(t: &mut Transcript, room: &mut Room, me: Seat, other: Option<Seat>) {
    let o = me.next().index();
    let long = "3".repeat(201);
    let msgs = [
        (json!({}), false),
        (json!({"type": 5}), false),
        (json!({"type": null}), false),
        (json!({"type": "dance"}), false),
        (json!({"type": "join", "token": "x"}), false),
        (json!({"type": "watch"}), false),
        (json!({"type": "pass", "seat": o}), false),
        (json!({"type": "pass", "seat": "0"}), false),
        (json!({"type": "pass", "seat": null}), false),
        (json!({"type": "pass", "seat": 7}), false),
        (json!({"type": "pass", "seat": -1}), false),
        (json!({"type": "pass", "seat": 1.5}), false),
        (json!({"type": "pass", "seat": me.index()}), true),
        (json!({"type": "bid"}), false),
        (json!({"type": "bid", "bid": null}), false),
        (json!({"type": "bid", "bid": 9}), false),
        (json!({"type": "bid", "bid": "1"}), false),
        (json!({"type": "bid", "bid": -1}), false),
        (json!({"type": "bid", "bid": 2.0}), false),
        (json!({"type": "bid", "bid": 300}), false),
        (json!({"type": "bid", "bid": [1]}), false),
        (json!({"type": "bid", "bid": 9, "seat": o}), false),
        (json!({"type": "bid", "seat": o}), false),
        (
            json!({"type": "bid", "bid": 1, "note": "extra fields are ignored"}),
            false,
        ),
        (json!({"type": "play"}), false),
        (json!({"type": "play", "move": 5}), false),
        (json!({"type": "play", "move": null}), false),
        (json!({"type": "play", "move": "ZZ"}), false),
        (json!({"type": "play", "move": "33Z"}), false),
        (json!({"type": "play", "move": long}), false),
        (json!({"type": "play", "move": "3", "ids": "x"}), false),
        (json!({"type": "play", "ids": [99], "move": "ZZ"}), false),
        (json!({"type": "play", "move": 5, "seat": o}), false),
        (json!({"type": "play", "move": "3"}), true),
        (json!({"type": "hint"}), true),
        (json!({"type": "next"}), true),
    ];
    probe(t, room, Audience::Seat(me), &msgs);
    let spectator = [
        (json!({"type": "bid", "bid": 1}), false),
        (json!({"type": "hint"}), false),
        (json!({"type": "next", "seat": 0}), false),
        (json!({"type": "dance"}), false),
        (json!({"type": "watch"}), false),
        (json!({}), false),
    ];
    probe(t, room, Audience::Spectator, &spectator);
    if let Some(other) = other {
        let msgs = [
            (json!({"type": "bid", "bid": 1}), true),
            (json!({"type": "hint"}), true),
            (json!({"type": "pass"}), true),
        ];
        probe(t, room, Audience::Seat(other), &msgs);
    }
}

/// Bad and good messages of the seat to act while playing.
fn probe_playing(t: &mut Transcript, room: &mut Room, me: Seat) {
    let state = state_value(room, Audience::Seat(me));
    let hand = hand_ids(&state);
    let low = hand[0];
    let l = letter(low).to_string();
    let other_rank = *hand.iter().find(|&&id| letter(id) != letter(low)).unwrap();
    let foreign = u64::from(room.physical(me.next()).iter().next().unwrap().id());
    // A rank the seat does not hold: a play of cards not in its hand.
    let missing = "3456789TJQKA2BR"
        .chars()
        .find(|&c| !hand.iter().any(|&id| letter(id) == c))
        .unwrap()
        .to_string();
    let many: Vec<u64> = (0..21).collect();
    let msgs = [
        (json!({"type": "bid", "bid": 1}), true),
        (json!({"type": "play", "move": "ZZ"}), false),
        (json!({"type": "play", "move": missing}), true),
        (json!({"type": "play", "move": l, "ids": [low]}), false),
        (
            json!({"type": "play", "move": l, "ids": [other_rank]}),
            false,
        ),
        (json!({"type": "play", "move": l, "ids": [foreign]}), false),
        (json!({"type": "play", "move": l, "ids": [99]}), false),
        (json!({"type": "play", "move": l, "ids": [-1]}), false),
        (json!({"type": "play", "move": l, "ids": ["a"]}), false),
        (json!({"type": "play", "move": l, "ids": [low, low]}), false),
        (json!({"type": "play", "move": l, "ids": many}), false),
        (json!({"type": "play", "move": l, "ids": {}}), false),
        (json!({"type": "play", "move": l, "ids": null}), false),
        (json!({"type": "play", "move": l, "ids": [low, 99]}), false),
        (
            json!({"type": "play", "move": l, "ids": [foreign, 99]}),
            false,
        ),
        (json!({"type": "play", "move": "pass", "ids": [low]}), false),
        (json!({"type": "play", "move": "pass", "ids": []}), false),
        (json!({"type": "hint"}), true),
        (json!({"type": "next"}), true),
        (json!({"type": "auto"}), false),
        (json!({"type": "auto", "auto": "yes"}), false),
        (json!({"type": "auto", "auto": null}), false),
        (json!({"type": "auto", "auto": true}), true),
    ];
    probe(t, room, Audience::Seat(me), &msgs);
}

/// A room played for `games` games: people choose at random (every ninth decision is the
/// turn timer's), robots through their jobs. With `redeal`, the people pass on the first deal.
/// Every event and refusal is recorded, every audience's state at the start, at the changes
/// of phase and every twentieth action.
fn play_room(
    t: &mut Transcript,
    name: &str,
    rules: Rules,
    robots: [Option<&str>; 3],
    seed: u64,
    games: u32,
    redeal: bool,
) {
    t.line("room", name);
    let settings = RoomSettings {
        rules,
        robots: BySeat(robots.map(|r| r.map(|n| n.parse().unwrap()))),
        seed: Some(seed),
        hint_bot: "greedy".parse().unwrap(),
    };
    let mut room = Room::new(settings, |s| format!("{:032x}", s.index() + 1));
    let people: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|s| robots[s.index()].is_none())
        .collect();
    let (events, complete) = room.events_after(0);
    t.json(format!("events after 0 (complete: {complete})"), &events);
    states(t, &room);
    for &s in &people {
        t.json(format!("connected seat {s}"), &room.set_connected(s, true));
    }
    t.json("connected again", &room.set_connected(people[0], true));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut decision = 0u32;
    let mut probed_bidding = false;
    let mut probed_playing = false;
    let mut passes = if redeal { people.len() } else { 0 };
    for game in 1..=games {
        while !room.is_over() {
            let seat = room.turn().unwrap();
            let phase = room.game().phase();
            if let Some(job) = room.robot_job() {
                let action = job.run();
                act(t, &mut room, "robot", seat, action, false);
            } else {
                decision += 1;
                if phase == Phase::Bidding && !probed_bidding {
                    probed_bidding = true;
                    let other = people.iter().copied().find(|&s| s != seat);
                    probe_bidding(t, &mut room, seat, other);
                }
                if phase == Phase::Playing && !probed_playing {
                    probed_playing = true;
                    probe_playing(t, &mut room, seat);
                    // A job of the turn timer made for a seat not to act is refused.
                    let job = room.auto_job(seat.next());
                    let (s, auto) = (job.seat, job.auto);
                    act(t, &mut room, "auto off turn", s, job.run(), auto);
                }
                if phase == Phase::Bidding {
                    // A bid not allowed now, when there is one.
                    let allowed = room.game().legal_bids();
                    if let Some(b) = (0..=3).find(|b| !allowed.contains(b)) {
                        act(t, &mut room, "not allowed", seat, SeatAction::Bid(b), false);
                    }
                }
                if decision.is_multiple_of(9) {
                    let job = room.auto_job(seat);
                    let (s, auto) = (job.seat, job.auto);
                    act(t, &mut room, "turn timer", s, job.run(), auto);
                } else {
                    let state = state_value(&room, Audience::Seat(seat));
                    let pass = passes > 0 && phase == Phase::Bidding;
                    passes = passes.saturating_sub(usize::from(pass));
                    let msg = choose(&state, &mut rng, pass);
                    t.line(format!("from seat {seat}"), msg.to_string());
                    let request = read(&room, Audience::Seat(seat), &msg).unwrap();
                    t.line("read", describe(&room, &request));
                    let Request::Act(s, action) = request else {
                        panic!("not an action")
                    };
                    act(t, &mut room, "person", s, action, false);
                }
            }
            // Every audience's state at each change of phase and every twentieth action.
            if room.game().phase() != phase || room.step().is_multiple_of(20) {
                states(t, &room);
            }
        }
        // Over: actions are refused; each person gets ready, one of them disconnected.
        let first = people[0];
        let over = [
            (json!({"type": "bid", "bid": 1}), true),
            (json!({"type": "pass"}), true),
            (json!({"type": "hint"}), true),
        ];
        probe(t, &mut room, Audience::Seat(first), &over);
        if game < games {
            let last = *people.last().unwrap();
            if people.len() > 1 {
                t.json(
                    format!("disconnected seat {last}"),
                    &room.set_connected(last, false),
                );
            }
            for &s in &people {
                let next = json!({"type": "next"});
                t.line(format!("from seat {s}"), next.to_string());
                let request = read(&room, Audience::Seat(s), &next).unwrap();
                let Request::Act(s, action) = request else {
                    panic!("not an action")
                };
                act(t, &mut room, "next", s, action, false);
            }
            if people.len() > 1 {
                t.json(
                    format!("connected seat {last}"),
                    &room.set_connected(last, true),
                );
            }
            states(t, &room);
        }
    }
    let n = room.last_event();
    let (events, complete) = room.events_after(n.saturating_sub(3));
    t.json(
        format!(
            "events after {} (complete: {complete})",
            n.saturating_sub(3)
        ),
        &events,
    );
}

#[test]
fn room_messages_are_byte_for_byte_the_recorded_ones() {
    let mut t = Transcript::default();
    let mut call_rob = Rules::classic();
    call_rob.bidding = Bidding::CallRob;
    play_room(
        &mut t,
        "classic, three people",
        Rules::classic(),
        [None; 3],
        11,
        2,
        true,
    );
    play_room(
        &mut t,
        "laizi, a person and two robots",
        Rules::laizi(),
        [None, Some("greedy"), Some("value")],
        5,
        1,
        false,
    );
    play_room(
        &mut t,
        "tiandi, two people and a robot",
        Rules::tiandi(),
        [None, None, Some("ddzlib")],
        3,
        1,
        false,
    );
    play_room(&mut t, "call and rob", call_rob, [None; 3], 2, 1, true);
    play_room(
        &mut t,
        "botzone, fixed landlord",
        Rules::botzone(),
        [None, Some("greedy"), None],
        9,
        1,
        false,
    );
    t.check("web_room.txt");
}
