//! Card notation: rank strings, readings, Botzone id arrays and wild ranks.

use ddz_core::{Rank, Rules, parse_botzone_ids, parse_cards, parse_reading, parse_wild_ranks};

/// Reads `data` (as text) as cards, as a reading, as Botzone ids and as wild ranks; what
/// parses must print as text that parses to the same value.
pub fn cards(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(cards) = parse_cards(&text) {
        let printed = cards.to_string();
        assert_eq!(
            parse_cards(&printed),
            Ok(cards),
            "{text:?} printed {printed:?}"
        );
    }
    if let Ok(reading) = parse_reading(&text) {
        let printed = reading.to_string();
        assert_eq!(
            parse_reading(&printed),
            Ok(reading),
            "{text:?} printed {printed:?}"
        );
    }
    if let Ok(set) = parse_botzone_ids(&text) {
        let printed = ddz_core::format_botzone_ids(set);
        assert_eq!(
            parse_botzone_ids(&printed),
            Ok(set),
            "{text:?} printed {printed:?}"
        );
    }
    if let Ok(ranks) = parse_wild_ranks(&text) {
        let printed: Vec<String> = ranks.iter().map(|r| r.letter().to_string()).collect();
        let printed = printed.join(",");
        let again = parse_wild_ranks(&printed).map_err(|e| e.to_string());
        assert_eq!(again, Ok(ranks.clone()), "{text:?} printed {printed:?}");
        // Wild ranks are checked against the rules, never trusted.
        for rules in [Rules::classic(), Rules::laizi(), Rules::tiandi()] {
            if let Ok(with) = rules.with_laizi(&ranks) {
                let got: Vec<Rank> = with.laizi.iter().collect();
                assert!(got.iter().all(|r| ranks.contains(r)), "{text:?}: {got:?}");
            }
        }
    }
}
