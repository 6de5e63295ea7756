//! Refusals: every [`ActionError`] has a stable code of its own, serializes as
//! `{"code", "message", ...fields}`, and the game answers each wrong action with the one
//! its rule names.

use std::collections::HashSet;

use ddz_core::{Cards, Move, Rules, parse_move};
use ddz_game::{ActionError, Game, Phase, Seat};
use serde_json::{Value, json};

fn seat(i: usize) -> Seat {
    Seat::ALL[i]
}

fn single(text: &str) -> Move {
    parse_move(text, &Rules::classic(), None).unwrap()
}

/// One error of each variant, with the fields its serialization must carry. The match makes
/// a new variant a compile error here until it is listed.
fn one_of_each() -> Vec<(ActionError, Value)> {
    let all = vec![
        (ActionError::GameOver, json!({})),
        (
            ActionError::WrongPhase {
                phase: Phase::Bidding,
            },
            json!({"phase": "bidding"}),
        ),
        (
            ActionError::NotYourTurn {
                seat: seat(1),
                turn: seat(2),
            },
            json!({"seat": 1, "turn": 2}),
        ),
        (
            ActionError::BadBid {
                bid: 1,
                allowed: vec![0, 2, 3],
            },
            json!({"bid": 1, "allowed": [0, 2, 3]}),
        ),
        (ActionError::NoCards, json!({})),
        (
            ActionError::NotInHand {
                cards: "33".parse().unwrap(),
            },
            json!({"cards": "33"}),
        ),
        (
            ActionError::NotACombination {
                cards: "3K".parse().unwrap(),
                reading: "3K".parse().unwrap(),
            },
            json!({"cards": "3K"}),
        ),
        (
            ActionError::DoesNotBeat {
                play: single("4"),
                last: single("9"),
                by: seat(0),
            },
            json!({"play": "4", "last": "9", "by": 0}),
        ),
        (ActionError::PassWhenLeading, json!({})),
        (
            ActionError::BadDouble {
                factor: 8,
                allowed: vec![1, 2],
            },
            json!({"factor": 8, "allowed": [1, 2]}),
        ),
        (
            ActionError::AlreadyDoubled {
                seat: seat(2),
                factor: 2,
            },
            json!({"seat": 2, "factor": 2}),
        ),
        (ActionError::NothingToUndo, json!({})),
        (
            ActionError::Notation {
                text: "33Z".into(),
                error: "Z is not a rank".into(),
            },
            json!({"text": "33Z", "error": "Z is not a rank"}),
        ),
    ];
    for (e, _) in &all {
        match e {
            ActionError::GameOver
            | ActionError::WrongPhase { .. }
            | ActionError::NotYourTurn { .. }
            | ActionError::BadBid { .. }
            | ActionError::NoCards
            | ActionError::NotInHand { .. }
            | ActionError::NotACombination { .. }
            | ActionError::DoesNotBeat { .. }
            | ActionError::PassWhenLeading
            | ActionError::BadDouble { .. }
            | ActionError::AlreadyDoubled { .. }
            | ActionError::NothingToUndo
            | ActionError::Notation { .. } => {}
        }
    }
    all
}

#[test]
fn every_variant_has_its_own_stable_code() {
    let all = one_of_each();
    let codes: HashSet<&str> = all.iter().map(|(e, _)| e.code()).collect();
    assert_eq!(codes.len(), all.len(), "two variants share a code");
    assert_eq!(
        codes,
        ActionError::CODES.into_iter().collect::<HashSet<_>>()
    );
    for code in ActionError::CODES {
        assert!(
            !code.is_empty() && code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{code} is not snake_case"
        );
    }
}

#[test]
fn refusals_serialize_as_code_message_and_fields() {
    for (e, fields) in one_of_each() {
        let value = serde_json::to_value(&e).unwrap();
        let mut expected = fields.as_object().unwrap().clone();
        expected.insert("code".into(), json!(e.code()));
        expected.insert("message".into(), json!(e.to_string()));
        assert_eq!(value, Value::Object(expected), "{e:?}");
        assert!(!e.to_string().is_empty());
    }
}

/// A classic game after seat 0 bid 3: seat 0 is the landlord and leads.
fn landlord_leads(seed: u64) -> Game {
    let mut game = Game::new(&Rules::classic(), seed);
    let first = game.turn();
    game.bid(first, 3).unwrap();
    assert_eq!(game.phase(), Phase::Playing);
    game
}

/// The code of a refusal (the action must be refused).
#[track_caller]
fn code(r: Result<(), ActionError>) -> &'static str {
    r.unwrap_err().code()
}

#[test]
fn the_game_refuses_with_the_rule_broken() {
    let mut game = Game::new(&Rules::classic(), 5);
    let first = game.turn();
    let other = Seat::ALL[(first.index() + 1) % 3];
    assert_eq!(code(game.bid(other, 1)), "not_your_turn");
    assert_eq!(code(game.bid(first, 7)), "bad_bid");
    assert_eq!(code(game.play(first, Move::PASS)), "wrong_phase");
    assert_eq!(code(game.undo()), "nothing_to_undo");

    let mut game = landlord_leads(5);
    let me = game.turn();
    let hand = game.hand(me);
    assert_eq!(code(game.play(me, Move::PASS)), "pass_when_leading");
    // One card more of a rank than the hand holds (a single to a bomb): a combination, not
    // in hand.
    let rank = ddz_core::Rank::ALL[..13]
        .iter()
        .copied()
        .find(|&r| hand.count(r) < 4)
        .unwrap();
    let more = Cards::of(rank, hand.count(rank) + 1);
    let absent = parse_move(&more.to_string(), &game.rules(), None).unwrap();
    assert_eq!(code(game.play(me, absent)), "not_in_hand");
    assert_eq!(code(game.bid(me, 1)), "wrong_phase");
    assert_eq!(code(game.double(me, 2)), "wrong_phase");
    // The lowest single led, the next seat tries one no higher.
    let low = hand.lowest().unwrap();
    game.play(
        me,
        parse_move(&low.to_string(), &game.rules(), None).unwrap(),
    )
    .unwrap();
    let next = game.turn();
    let next_hand = game.hand(next);
    let cards = Cards::single(next_hand.lowest().unwrap());
    if next_hand.lowest().unwrap() <= low {
        assert_eq!(
            game.readings(next, cards).unwrap_err().code(),
            "does_not_beat"
        );
    }
    assert_eq!(
        game.readings(next, Cards::EMPTY).unwrap_err().code(),
        "no_cards"
    );
    assert_eq!(
        game.readings(me, cards).unwrap_err().code(),
        "not_your_turn"
    );
}

#[test]
fn readings_name_why_a_selection_cannot_be_played() {
    let game = landlord_leads(11);
    let me = game.turn();
    let hand = game.hand(me);
    // Every reading offered is a legal move of exactly those cards.
    let legal = game.legal_moves();
    for m in legal.iter().filter(|m| !m.is_pass()) {
        let readings = game.readings(me, m.cards()).unwrap();
        assert!(readings.contains(m));
        assert!(
            readings
                .iter()
                .all(|r| r.cards() == m.cards() && legal.contains(r))
        );
    }
    // The lowest and the highest single rank together are not a combination (17+3 cards hold
    // at least two ranks far apart).
    let (low, high) = (hand.lowest().unwrap(), hand.highest().unwrap());
    let odd = Cards::single(low).union(Cards::single(high));
    if !(low == ddz_core::Rank::SmallJoker && high == ddz_core::Rank::BigJoker) {
        let e = game.readings(me, odd).unwrap_err();
        assert_eq!(e.code(), "not_a_combination", "{e}");
    }
}

// --- Moves in notation ----------------------------------------------------------------

/// The classic rules with seat 0 the landlord (no bidding).
fn fixed_landlord() -> Rules {
    let mut r = Rules::classic();
    r.bidding = ddz_core::Bidding::Fixed;
    r
}

/// The landlord holds a 12-card straight and an airplane with singles: a quick spring.
fn spring_deal(rules: &Rules) -> ddz_game::Deal {
    ddz_game::DealLine {
        landlord: "333344445556789TJQKA".into(),
        landlord_down: "5666777888999TTTJ".into(),
        landlord_up: "JJQQQKKKAAA2222BR".into(),
        kitty: "345".into(),
        laizi: None,
    }
    .to_deal(rules)
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn play_notation_and_payoffs() {
    let rules = fixed_landlord();
    let mut g = Game::with_deal(&rules, 1, spring_deal(&rules));
    let [l, d, u] = Seat::ALL;
    let m = g.play_notation(l, "3456789TJQKA").unwrap();
    assert_eq!(m.kind(), ddz_core::Kind::Straight);
    let e = g.play_notation(d, "66").unwrap_err();
    assert!(e.to_string().contains("does not beat"), "{e}");
    assert!(
        g.play_notation(d, "66Z")
            .unwrap_err()
            .to_string()
            .contains("not a rank")
    );
    g.play_notation(d, "pass").unwrap();
    g.play_notation(u, "pass").unwrap();
    let m = g.play_notation(l, "33344455").unwrap();
    assert_eq!(m.kind(), ddz_core::Kind::AirplaneSingles);
    assert_eq!(g.phase(), Phase::Over);
    let result = g.result().unwrap();
    assert!(result.spring);
    assert_eq!(g.win_payoffs().unwrap().0, [1, 0, 0]);
}
