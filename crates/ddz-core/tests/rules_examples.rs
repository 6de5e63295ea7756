//! The examples of RULES.md sections 1 and 3, each as a named test, and the classification
//! vectors of `tests/data/readings.txt`.

use ddz_core::{
    Card, Cards, Kind, Move, Profile, Rules, Suit, classify, legal_moves, move_notation,
    parse_botzone_ids, parse_cards, parse_cards_in, parse_move,
};

fn cards(s: &str) -> Cards {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    parse_move(s, &Rules::classic(), None).unwrap()
}

fn readings(s: &str, rules: &Rules) -> Vec<String> {
    classify(cards(s), rules)
        .iter()
        .map(|m| m.to_string())
        .collect()
}

#[test]
fn readings_data_file() {
    let text = include_str!("data/readings.txt");
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 3, "readings.txt line {}", i + 1);
        let rules = Rules::profile(f[0].parse::<Profile>().unwrap());
        let want: Vec<String> = if f[2] == "-" {
            vec![]
        } else {
            f[2].split(';').map(String::from).collect()
        };
        // The cards as the profile's decks hold them (`four`: two decks, `BB` and 8 of a rank).
        let got: Vec<String> = classify(parse_cards_in(f[1], &rules).unwrap(), &rules)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(got, want, "readings.txt line {}: {}", i + 1, f[1]);
        checked += 1;
    }
    assert!(checked > 40);
}

// --- Section 1: deck, ranks, notation ---

#[test]
fn s1_single_card_order() {
    let order = "3456789TJQKA2BR";
    let ranks: Vec<_> = cards(order).iter().collect();
    assert!(ranks.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(cards(order).to_string(), order);
}

#[test]
fn s1_canonical_output_sorts_ascending() {
    assert_eq!(cards("44333").to_string(), "33344");
    assert_eq!(cards("76543").to_string(), "34567");
    assert_eq!(cards("RB").to_string(), "BR");
    assert_eq!(move_notation(&Move::PASS, &Rules::classic()), "pass");
}

#[test]
fn s1_aliases() {
    assert_eq!(cards("10"), cards("T"));
    assert_eq!(cards("jqka"), cards("JQKA"));
    assert_eq!(cards("X"), cards("B"));
    assert_eq!(cards("x"), cards("B"));
    assert_eq!(cards("D"), cards("R"));
    assert_eq!(cards("d"), cards("R"));
    assert_eq!(cards("小王"), cards("B"));
    assert_eq!(cards("大王"), cards("R"));
}

#[test]
fn s1_botzone_ids_have_their_own_parser() {
    assert_eq!(Card::from_id(0).unwrap().suit(), Some(Suit::Hearts));
    assert_eq!(Card::from_id(1).unwrap().suit(), Some(Suit::Diamonds));
    assert_eq!(Card::from_id(2).unwrap().suit(), Some(Suit::Spades));
    assert_eq!(Card::from_id(3).unwrap().suit(), Some(Suit::Clubs));
    let set = parse_botzone_ids("[0, 4, 44, 48, 52, 53]").unwrap();
    assert_eq!(set.to_cards(), cards("34A2BR"));
    // Rank strings are not ids and ids are not rank strings.
    assert!(parse_botzone_ids("334").is_err());
    assert!(parse_cards("[0, 4]").is_err());
}

#[test]
fn s1_deck_limits_are_errors() {
    assert!(
        parse_cards("33333")
            .unwrap_err()
            .to_string()
            .contains("a deck has only 4")
    );
    assert!(
        parse_cards("BB")
            .unwrap_err()
            .to_string()
            .contains("a deck has only 1")
    );
    assert!(parse_cards("RR").is_err());
}

// --- Section 3: combinations ---

#[test]
fn s3_jokers_are_never_a_pair() {
    assert_eq!(mv("BR").kind(), Kind::Rocket);
    assert!(
        readings("BR", &Rules::classic())
            .iter()
            .all(|r| !r.contains("pair"))
    );
}

#[test]
fn s3_chains_stop_at_ace() {
    let r = Rules::classic();
    assert!(readings("TJQKA2", &r).is_empty());
    assert!(readings("QQKKAA22", &r).is_empty());
    assert!(readings("KKKAAA222", &r).is_empty());
    assert!(readings("KA234", &r).is_empty());
}

#[test]
fn s3_kicker_never_has_a_body_rank() {
    assert_eq!(readings("3333", &Rules::classic()), ["3333:bomb:3"]);
}

#[test]
fn s3_single_kickers_may_repeat() {
    assert_eq!(mv("33344455").kind(), Kind::AirplaneSingles);
    assert_eq!(mv("333444555777").kind(), Kind::AirplaneSingles);
}

#[test]
fn s3_no_bomb_or_rocket_among_kickers() {
    let r = Rules::classic();
    assert!(readings("3334445556667777", &r).is_empty());
    assert!(readings("333444BR", &r).is_empty());
    assert!(readings("4444BR", &r).is_empty());
}

#[test]
fn s3_pair_kickers_are_real_pairs_of_different_ranks() {
    let r = Rules::classic();
    assert!(readings("3334445555", &r).is_empty());
    assert!(readings("44445555", &r).is_empty());
    assert!(readings("33322", &r).contains(&"33322:trio_pair:3".to_string()));
}

#[test]
fn s3_four_two_singles_may_pair() {
    assert_eq!(mv("444455").kind(), Kind::FourTwoSingles);
}

#[test]
fn s3_beating_same_kind_and_count_higher_main() {
    let r = Rules::classic();
    assert!(mv("45678").beats(&mv("34567"), &r));
    assert!(!mv("456789").beats(&mv("34567"), &r));
    // Kickers never count.
    assert!(!mv("4443").beats(&mv("444A"), &r) && !mv("444A").beats(&mv("4443"), &r));
    assert!(mv("5553").beats(&mv("444A"), &r));
}

#[test]
fn s3_bombs_and_rocket() {
    let r = Rules::classic();
    assert!(mv("3333").beats(&mv("22"), &r));
    assert!(
        mv("3333").beats(&mv("444455"), &r),
        "four-with-two is beaten by any bomb"
    );
    assert!(!mv("444455").beats(&mv("3333"), &r));
    assert!(mv("4444").beats(&mv("3333"), &r));
    assert!(mv("BR").beats(&mv("2222"), &r));
    assert!(!mv("2222").beats(&mv("BR"), &r));
}

#[test]
fn s3_several_readings_of_one_card_set() {
    assert_eq!(
        readings("333444555666", &Rules::classic()),
        [
            "333444555666:airplane:6",
            "333444555666:airplane_singles:5",
            "333444555666:airplane_singles:6",
        ]
    );
}

#[test]
fn s3_default_reading_leading_and_following() {
    let r = Rules::classic();
    assert_eq!(mv("333444555666").kind(), Kind::Airplane);
    let table = mv("444555666+999".replace('+', "").as_str());
    assert_eq!(table.to_string(), "444555666999:airplane_singles:6");
    let follow = parse_move("555666777888", &r, Some(&table)).unwrap();
    assert_eq!(follow.to_string(), "555666777888:airplane_singles:8");
}

#[test]
fn s3_same_move_identity() {
    let r = Rules::classic();
    let a = parse_move("333444555666:airplane_singles:6", &r, None).unwrap();
    let b = parse_move("666555444333:airplane_singles:6", &r, None).unwrap();
    let c = parse_move("333444555666:airplane_singles:5", &r, None).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    // The full deck lists both airplane-with-singles readings of 333444555666.
    let n = legal_moves(Cards::FULL_DECK, None, &r)
        .iter()
        .filter(|m| m.cards() == cards("333444555666"))
        .count();
    assert_eq!(n, 3);
}

#[test]
fn s3_shortest_notation() {
    let r = Rules::classic();
    let m = parse_move("333444555666:airplane_singles:6", &r, None).unwrap();
    assert_eq!(move_notation(&m, &r), "333444555666:airplane_singles:6");
    assert_eq!(
        move_notation(&mv("333444555666"), &r),
        "333444555666:airplane:6"
    );
    assert_eq!(move_notation(&mv("33344"), &r), "33344");
}

#[cfg(feature = "serde")]
#[test]
fn s3_json_move_form() {
    use ddz_core::MoveJson;
    let r = Rules::classic();
    let m = parse_move("333444555666:airplane_singles:6", &r, None).unwrap();
    let j = serde_json::to_string(&MoveJson::from(&m)).unwrap();
    assert_eq!(
        j,
        r#"{"cards":"333444555666","kind":"airplane_singles","main":"6","len":3}"#
    );
    let p = serde_json::to_string(&MoveJson::from(&Move::PASS)).unwrap();
    assert_eq!(p, r#"{"cards":"pass","kind":"pass"}"#);
    let rocket = serde_json::to_string(&MoveJson::from(&mv("BR"))).unwrap();
    assert_eq!(
        rocket,
        r#"{"cards":"BR","kind":"rocket","main":"R","len":1}"#
    );
}
