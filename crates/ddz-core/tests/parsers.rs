//! Property tests: parsers never panic on arbitrary input, and notation round-trips.

use ddz_core::{
    Cards, Profile, Rank, Rules, classify, legal_moves, move_notation, parse_botzone_ids,
    parse_cards, parse_move,
};
use proptest::prelude::*;

/// Any profile; the wildcard ones with random wild ranks.
fn any_rules() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(Profile::ALL.to_vec()),
        0usize..13,
        0usize..13,
    )
        .prop_map(|(p, a, b)| {
            let rules = Rules::profile(p);
            let (a, b) = (Rank::SUITED[a], Rank::SUITED[b]);
            match p {
                Profile::Laizi => rules.with_laizi(&[a]).unwrap(),
                Profile::Tiandi if a != b => rules.with_laizi(&[a, b]).unwrap(),
                _ => rules,
            }
        })
}

/// A valid deck subset from per-rank counts.
fn any_cards() -> impl Strategy<Value = Cards> {
    prop::collection::vec(0u8..=4, 15).prop_map(|v| {
        let mut counts = [0u8; 15];
        for (i, c) in v.into_iter().enumerate() {
            counts[i] = if i >= 13 { c.min(1) } else { c };
        }
        Cards::from_counts(&counts)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn card_parser_never_panics(s in ".*") {
        let _ = parse_cards(&s);
    }

    #[test]
    fn card_parser_never_panics_on_card_like_text(s in "[0-9TJQKAtjqkaBRXDxdbr小王大 ,]{0,30}") {
        if let Ok(c) = parse_cards(&s) {
            prop_assert!(c.is_valid_deck_subset());
            prop_assert_eq!(parse_cards(&c.to_string()), Ok(c));
        }
    }

    #[test]
    fn byte_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..64), rules in any_rules()) {
        let s = String::from_utf8_lossy(&bytes);
        let _ = parse_cards(&s);
        let _ = parse_botzone_ids(&s);
        let _ = parse_move(&s, &rules, None);
    }

    #[test]
    fn botzone_parser_never_panics(s in r"\[?[-0-9, .e\]]{0,40}") {
        if let Ok(set) = parse_botzone_ids(&s) {
            prop_assert!(set.to_cards().is_valid_deck_subset());
        }
    }

    #[test]
    fn move_parser_never_panics(s in "[0-9TJQKABR=:a-z_]{0,40}", rules in any_rules()) {
        let _ = parse_move(&s, &rules, None);
    }

    #[test]
    fn cards_round_trip(c in any_cards()) {
        prop_assert_eq!(parse_cards(&c.to_string()), Ok(c));
    }

    #[test]
    fn readings_round_trip_through_notation(c in any_cards(), rules in any_rules()) {
        for m in classify(c, &rules) {
            prop_assert_eq!(parse_move(&move_notation(&m, &rules), &rules, None), Ok(m));
            prop_assert_eq!(parse_move(&m.to_string(), &rules, None), Ok(m));
        }
    }

    #[test]
    fn generated_moves_classify_back(c in any_cards(), rules in any_rules()) {
        let hand = Cards::from_counts(&c.counts().map(|x| x.min(2)));
        for m in legal_moves(hand, None, &rules) {
            prop_assert!(classify(m.cards(), &rules).contains(&m), "{}", m);
        }
    }
}
