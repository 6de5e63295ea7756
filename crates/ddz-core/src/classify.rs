//! Classification: every reading of a set of cards, and the validity of one reading.

use crate::cards::Cards;
use crate::kind::Kind;
use crate::natural::{fits_decks, for_each_natural_reading, len_for, read_natural};
use crate::play::Move;
use crate::rank::Rank;
use crate::rules::{Readings, Rules};
use crate::wild::{for_each_wild_reading, has_wild, read_wild};

/// The reading of `cards` as `kind` with main rank `main`, if it is a valid combination under
/// `rules` (ignoring [`Rules::readings`]: see [`classify`] for the readings a profile keeps).
///
/// ```
/// use ddz_core::{read_as, Kind, Rank, Rules};
/// let rules = Rules::classic();
/// let cards = "333444555666".parse().unwrap();
/// assert!(read_as(cards, Kind::AirplaneSingles, Rank::Five, &rules).is_some());
/// assert!(read_as(cards, Kind::Straight, Rank::Six, &rules).is_none());
/// ```
pub fn read_as(cards: Cards, kind: Kind, main: Rank, rules: &Rules) -> Option<Move> {
    if has_wild(cards, rules) {
        let len = if kind == Kind::Bomb {
            1
        } else {
            len_for(kind, cards.len(), rules)?
        };
        return read_wild(cards, kind, main, len, rules);
    }
    read_natural(cards, kind, main, rules)
}

/// Calls `f` with every reading of `cards` allowed by the combination fields of `rules`,
/// ignoring [`Rules::readings`], in kind order then main rank ascending.
pub(crate) fn for_each_valid_reading(cards: Cards, rules: &Rules, f: impl FnMut(Move)) {
    if cards.is_empty() || !fits_decks(cards, rules) {
        return;
    }
    if has_wild(cards, rules) {
        for_each_wild_reading(cards, rules, f)
    } else {
        for_each_natural_reading(cards, rules, f)
    }
}

/// Every reading of `cards` under `rules`, in kind order (RULES.md table) then main rank
/// ascending. Under the one-reading profiles ([`Readings::Default`], [`Readings::Douzero`])
/// there is at most one. Empty if the cards form no combination (or are not from the rules'
/// decks: one deck, or two for `four`).
///
/// ```
/// use ddz_core::{classify, Rules};
/// let rules = Rules::classic();
/// let names: Vec<String> = classify("333444555666".parse().unwrap(), &rules)
///     .iter().map(|m| m.to_string()).collect();
/// assert_eq!(names, [
///     "333444555666:airplane:6",
///     "333444555666:airplane_singles:5",
///     "333444555666:airplane_singles:6",
/// ]);
/// ```
pub fn classify(cards: Cards, rules: &Rules) -> Vec<Move> {
    let mut out = Vec::new();
    match rules.readings {
        Readings::All => for_each_valid_reading(cards, rules, |m| out.push(m)),
        Readings::Default | Readings::Douzero => out.extend(only_reading(cards, rules)),
    }
    out
}

/// The one reading a card set has under a one-reading profile.
pub(crate) fn only_reading(cards: Cards, rules: &Rules) -> Option<Move> {
    match rules.readings {
        // DouZero's detector names (kind, main); the reading must also be valid under the
        // profile's combination rules (the detector alone accepts sets DouZero's generator
        // never makes, such as `33334` as a trio + pair).
        Readings::Douzero => {
            crate::douzero::detect(cards).and_then(|(kind, main)| read_as(cards, kind, main, rules))
        }
        _ => preferred_reading(cards, rules),
    }
}

/// The preferred reading among all valid ones (RULES.md section 3's default order).
fn preferred_reading(cards: Cards, rules: &Rules) -> Option<Move> {
    let mut best: Option<Move> = None;
    for_each_valid_reading(cards, rules, |m| {
        if best.is_none_or(|b| m.default_order(&b).is_gt()) {
            best = Some(m);
        }
    });
    best
}

/// The default reading of `cards` when leading (RULES.md section 3): the reading with the most
/// body cards, then the highest main, then the kind that comes first in the table.
pub fn default_reading(cards: Cards, rules: &Rules) -> Option<Move> {
    match rules.readings {
        Readings::All => preferred_reading(cards, rules),
        _ => only_reading(cards, rules),
    }
}

/// True if `m` is one of the readings `rules` give its cards.
pub(crate) fn is_valid_reading(m: &Move, rules: &Rules) -> bool {
    if m.is_pass() {
        return false;
    }
    match rules.readings {
        Readings::All => read_as(m.cards(), m.kind(), m.main(), rules).as_ref() == Some(m),
        _ => only_reading(m.cards(), rules).as_ref() == Some(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readings(s: &str, rules: &Rules) -> Vec<String> {
        classify(s.parse().unwrap(), rules)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    #[test]
    fn simple_kinds() {
        let r = Rules::classic();
        assert_eq!(readings("3", &r), ["3:single:3"]);
        assert_eq!(readings("R", &r), ["R:single:R"]);
        assert_eq!(readings("22", &r), ["22:pair:2"]);
        assert_eq!(readings("BR", &r), ["BR:rocket:R"]);
        assert_eq!(readings("3333", &r), ["3333:bomb:3"]);
        assert_eq!(readings("34567", &r), ["34567:straight:7"]);
        assert!(readings("TJQKA2", &r).is_empty());
        assert!(readings("3B", &r).is_empty());
    }

    fn douzero_reading(s: &str) -> Option<String> {
        let m = classify(s.parse().unwrap(), &Rules::douzero());
        assert!(m.len() <= 1);
        m.first().map(|m| m.to_string())
    }

    #[test]
    fn douzero_detector_examples() {
        assert_eq!(
            douzero_reading("333444555666").as_deref(),
            Some("333444555666:airplane:6")
        );
        assert_eq!(
            douzero_reading("444555666888").as_deref(),
            Some("444555666888:airplane_singles:6")
        );
        assert_eq!(
            douzero_reading("333555666777").as_deref(),
            Some("333555666777:airplane_singles:7")
        );
        assert_eq!(
            douzero_reading("33344455").as_deref(),
            Some("33344455:airplane_singles:4")
        );
        assert_eq!(
            douzero_reading("444455").as_deref(),
            Some("444455:four_two_singles:4")
        );
        assert_eq!(
            douzero_reading("4444BR").as_deref(),
            Some("4444BR:four_two_singles:4")
        );
        assert_eq!(douzero_reading("3334445556667779"), None);
        assert_eq!(douzero_reading("3334445556667777"), None);
        // Lax detector branches DouZero's generator never produces are not readings.
        assert_eq!(douzero_reading("33334"), None);
        assert_eq!(douzero_reading("33335555"), None);
    }
}
