//! The examples of docs/variants.md ("Combinations" of the `four` profile), each as a named
//! test, and a property test: classification and generation never panic on two-deck cards.

use ddz_core::{
    Cards, Kind, Move, MoveJson, Rank, Rules, classify, legal_moves, move_notation, parse_cards_in,
    parse_move,
};
use proptest::prelude::*;

fn four() -> Rules {
    Rules::four()
}

fn cards(s: &str) -> Cards {
    parse_cards_in(s, &four()).unwrap()
}

fn mv(s: &str) -> Move {
    parse_move(s, &four(), None).unwrap()
}

fn beats(a: &str, b: &str) -> bool {
    mv(a).beats(&mv(b), &four())
}

#[test]
fn four_jokers_beat_the_longest_bomb() {
    assert_eq!(mv("BBRR").kind(), Kind::FourJokers);
    assert!(beats("BBRR", "22222222"));
    assert!(!beats("22222222", "BBRR"));
    assert!(!beats("BBRR", "BBRR"));
    assert!(Kind::FourJokers.is_bomb_like() && mv("33333333").kind().is_bomb_like());
}

#[test]
fn longer_bombs_beat_shorter_ones() {
    assert!(beats("55555", "AAAA"));
    assert!(!beats("AAAA", "55555"));
    assert!(beats("333333", "55555"));
    assert!(!beats("55555", "333333"));
    // Same length: by rank.
    assert!(beats("666666", "333333") && !beats("333333", "666666"));
    assert!(beats("3333", "KK"));
}

#[test]
fn joker_pairs_are_the_highest_pairs() {
    assert!(beats("BB", "22"));
    assert!(beats("RR", "BB"));
    assert!(!beats("22", "BB"));
    assert!(beats("3333", "RR"));
}

#[test]
fn a_small_and_a_big_joker_are_the_rocket_only_with_one_deck() {
    assert!(classify(cards("BR"), &four()).is_empty());
    assert!(parse_move("BR", &four(), None).is_err());
    assert_eq!(
        parse_move("BR", &Rules::classic(), None).unwrap().kind(),
        Kind::Rocket
    );
    // One deck has no joker pairs and no four jokers.
    assert!(parse_move("BB", &Rules::classic(), None).is_err());
    let one = Cards::from_counts(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2]);
    assert!(classify(one, &Rules::classic()).is_empty());
}

#[test]
fn no_trio_with_a_single_but_trio_with_a_pair() {
    assert!(classify(cards("5556"), &four()).is_empty());
    assert!(classify(cards("55566677"), &four()).is_empty());
    let m = mv("55566");
    assert_eq!((m.kind(), m.main()), (Kind::TrioPair, Rank::Five));
    assert_eq!(mv("555RR").kind(), Kind::TrioPair);
}

#[test]
fn trio_single_kickers_is_a_rule_of_its_own() {
    let mut classic = Rules::classic();
    classic.trio_single_kickers = false;
    assert!(classify("3334".parse().unwrap(), &classic).is_empty());
    assert!(classify("33344456".parse().unwrap(), &classic).is_empty());
    assert_eq!(classify("33344".parse().unwrap(), &classic).len(), 1);
    let mut four = Rules::four();
    four.trio_single_kickers = true;
    assert_eq!(mv_in("5556", &four).kind(), Kind::TrioSingle);
}

fn mv_in(s: &str, rules: &Rules) -> Move {
    parse_move(s, rules, None).unwrap()
}

#[test]
fn a_body_may_come_from_a_rank_held_more_often() {
    // Six 5s and two 6s: a trio + pair, four + two singles, bombs of 4, 5 and 6.
    let hand = cards("55555566");
    let leads: Vec<String> = legal_moves(hand, None, &four())
        .iter()
        .map(|m| m.to_string())
        .collect();
    for want in [
        "555:trio:5",
        "55566:trio_pair:5",
        "555566:four_two_singles:5",
        "5555:bomb:5",
        "55555:bomb:5",
        "555555:bomb:5",
    ] {
        assert!(leads.iter().any(|l| l == want), "{want} in {leads:?}");
    }
    // A body never takes more than its shape, and no kicker shares its rank.
    assert!(
        classify(cards("555555"), &four())
            .iter()
            .all(|m| m.kind() == Kind::Bomb)
    );
    assert!(
        classify(cards("55555"), &four())
            .iter()
            .all(|m| m.kind() == Kind::Bomb)
    );
}

#[test]
fn kickers_never_hold_the_four_jokers() {
    assert!(classify(cards("5555BBRR"), &four()).is_empty());
    assert!(classify(cards("555666BBRR"), &four()).is_empty());
    assert_eq!(mv("5555BB66").kind(), Kind::FourTwoPairs);
    assert_eq!(mv("5555BB").kind(), Kind::FourTwoSingles);
    assert_eq!(mv("555666BB77").kind(), Kind::AirplanePairs);
    // Two pair kickers of one rank are four of a kind, as with one deck.
    assert!(classify(cards("55556666"), &four()).is_empty());
}

#[test]
fn following_gives_bombs_by_size_then_the_four_jokers() {
    let hand = cards("3333355556BBRR");
    let table = mv("KK");
    let replies: Vec<String> = legal_moves(hand, Some(&table), &four())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(
        replies,
        [
            "BB:pair:B",
            "RR:pair:R",
            "3333:bomb:3",
            "5555:bomb:5",
            "33333:bomb:3",
            "BBRR:four_jokers:R",
            "pass"
        ]
    );
    let on_bomb = legal_moves(hand, Some(&mv("4444")), &four());
    let names: Vec<String> = on_bomb.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        names,
        ["5555:bomb:5", "33333:bomb:3", "BBRR:four_jokers:R", "pass"]
    );
    assert_eq!(legal_moves(hand, Some(&mv("BBRR")), &four()), [Move::PASS]);
}

#[test]
fn notation_and_json_name_the_four_jokers() {
    let m = mv("RBRB");
    assert_eq!(move_notation(&m, &four()), "BBRR");
    assert_eq!(m.to_string(), "BBRR:four_jokers:R");
    let j = MoveJson::from(&m);
    assert_eq!(j.kind, "four_jokers");
    assert_eq!(j.to_move(&four()), Ok(m));
    assert_eq!("four_jokers".parse::<Kind>(), Ok(Kind::FourJokers));
    let e = parse_cards_in("BBB", &four()).unwrap_err();
    assert_eq!(e.to_string(), "3 cards of rank B: two decks have only 2");
}

#[test]
fn two_has_classic_combinations_from_five_up() {
    let two = Rules::two();
    let deck = two.deck();
    assert_eq!(deck.len(), 46);
    let leads = legal_moves(deck, None, &two);
    assert!(
        leads
            .iter()
            .all(|m| m.cards().count(Rank::Three) == 0 && m.cards().count(Rank::Four) == 0)
    );
    let lowest = leads.iter().find(|m| m.kind() == Kind::Straight).unwrap();
    assert_eq!(lowest.to_string(), "56789:straight:9");
    assert_eq!(mv_in("BR", &two).kind(), Kind::Rocket);
}

/// Cards of two decks: up to 8 of a rank 3..2, up to 2 of each joker.
fn two_deck_cards() -> impl Strategy<Value = Cards> {
    prop::collection::vec(0u8..=8, 15).prop_map(|v| {
        let mut counts = [0u8; 15];
        for (i, c) in v.into_iter().enumerate() {
            counts[i] = if i >= 13 { c % 3 } else { c };
        }
        Cards::from_counts(&counts)
    })
}

/// Any counts a `Cards` holds (up to 15 of each rank), valid for no deck.
fn any_counts() -> impl Strategy<Value = Cards> {
    prop::collection::vec(0u8..=15, 15).prop_map(|v| {
        let mut counts = [0u8; 15];
        counts.copy_from_slice(&v);
        Cards::from_counts(&counts)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn classification_never_panics_on_two_deck_cards(c in two_deck_cards()) {
        let rules = Rules::four();
        for m in classify(c, &rules) {
            prop_assert_eq!(m.cards(), c);
            prop_assert_eq!(parse_move(&move_notation(&m, &rules), &rules, None), Ok(m));
        }
        let _ = classify(c, &Rules::two());
        let _ = classify(c, &Rules::classic());
    }

    #[test]
    fn generation_never_panics_on_two_deck_hands(c in two_deck_cards()) {
        let rules = Rules::four();
        let moves = legal_moves(c, None, &rules);
        // Every move classifies back (a sample: large hands have thousands).
        for m in moves.iter().step_by(moves.len() / 50 + 1) {
            prop_assert!(classify(m.cards(), &rules).contains(m), "{}", m);
            let replies = legal_moves(c, Some(m), &rules);
            prop_assert!(replies.iter().all(|r| r.is_pass() || r.beats(m, &rules)));
        }
    }

    #[test]
    fn cards_beyond_the_decks_have_no_reading(c in any_counts()) {
        let rules = Rules::four();
        if !c.is_valid_subset_of(2) {
            prop_assert!(classify(c, &rules).is_empty());
            prop_assert!(legal_moves(c, None, &rules).is_empty());
        }
    }
}
