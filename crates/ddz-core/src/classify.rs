//! Classification: every reading of a set of cards, and the validity of one reading.

use crate::cards::Cards;
use crate::kind::{Kickers, Kind};
use crate::play::Move;
use crate::rank::Rank;
use crate::rules::{Readings, Rules};

/// Rank mask of 3..2 (the ranks pairs, trios, fours and pair kickers may have).
pub(crate) const SUITED_MASK: u16 = (1 << 13) - 1;
/// Rank mask of the two jokers.
pub(crate) const JOKER_MASK: u16 = 0b11 << 13;

/// `per` cards of each of `len` consecutive ranks starting at index `low`.
#[inline]
pub(crate) const fn window_cards(low: usize, len: u8, per: u8) -> Cards {
    let ones = ((1u64 << (4 * len as u32)) - 1) / 15;
    match Cards::from_bits((per as u64 * ones) << (4 * low)) {
        Some(c) => c,
        None => Cards::EMPTY,
    }
}

/// Rank mask of `len` consecutive ranks starting at index `low`.
#[inline]
pub(crate) const fn window_mask(low: usize, len: u8) -> u16 {
    (((1u32 << len) - 1) << low) as u16
}

/// True if `kind` exists under `rules`.
#[inline]
pub(crate) const fn kind_enabled(kind: Kind, rules: &Rules) -> bool {
    match kind {
        Kind::Pass => false,
        Kind::FourTwoSingles => rules.four_with_two,
        Kind::FourTwoPairs => rules.four_with_two && rules.pair_kickers,
        Kind::TrioPair | Kind::AirplanePairs => rules.pair_kickers,
        Kind::SpaceShuttle | Kind::SpaceShuttleSingles => rules.space_shuttles,
        Kind::SpaceShuttlePairs => rules.space_shuttles && rules.pair_kickers,
        _ => true,
    }
}

/// The most copies of one rank the single kickers of `kind` may hold, before the deck limit.
#[inline]
pub(crate) const fn single_kicker_cap(kind: Kind, rules: &Rules) -> u8 {
    let may_repeat = match kind {
        Kind::FourTwoSingles => rules.four_two_singles_may_pair,
        _ => rules.single_kickers_may_repeat,
    };
    if !may_repeat {
        1
    } else if rules.bomb_in_kickers {
        4
    } else {
        3
    }
}

/// Ranks next to an airplane body whose trio among the kickers would make a longer run.
#[inline]
pub(crate) const fn run_neighbours(low: usize, main: usize) -> u16 {
    let mut m = 0u16;
    if low > 0 {
        m |= 1 << (low - 1);
    }
    if main < Rank::Ace as usize {
        m |= 1 << (main + 1);
    }
    m
}

/// True if `kickers` are valid kickers for a body of `kind` from `low` to `main` (`body_mask`
/// its ranks) under `rules`. The card count is checked by the caller.
pub(crate) fn kickers_ok(
    kind: Kind,
    low: usize,
    main: usize,
    body_mask: u16,
    kickers: Cards,
    rules: &Rules,
) -> bool {
    match kind.shape().kickers {
        Kickers::None => kickers.is_empty(),
        Kickers::Singles { .. } => {
            if kickers.rank_mask() & body_mask != 0 {
                return false;
            }
            if !rules.rocket_as_kickers && kickers.contains(Cards::ROCKET) {
                return false;
            }
            let cap = single_kicker_cap(kind, rules);
            if cap < 4 && kickers.mask_at_least(cap + 1) != 0 {
                return false;
            }
            if kind == Kind::AirplaneSingles
                && !rules.airplane_singles_longer_run
                && kickers.mask_at_least(3) & run_neighbours(low, main) != 0
            {
                return false;
            }
            true
        }
        Kickers::Pairs { .. } => {
            let mask = kickers.rank_mask();
            // Real pairs: even counts, no jokers, no body rank.
            mask & (body_mask | JOKER_MASK) == 0
                && kickers.bits() & 0x0111_1111_1111_1111 == 0
                && (rules.quad_as_two_pairs || kickers.mask_at_least(4) == 0)
        }
    }
}

/// The number of body ranks of `kind` for `n` cards, if `n` fits the kind's shape.
#[inline]
fn len_for(kind: Kind, n: u32) -> Option<u8> {
    let shape = kind.shape();
    let per_len = shape.cards(1) as u32;
    if per_len == 0 || !n.is_multiple_of(per_len) {
        return None;
    }
    let len = n / per_len;
    (len >= shape.min_len as u32 && len <= shape.max_len as u32).then_some(len as u8)
}

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
    if crate::wild::has_wild(cards, rules) {
        let len = if kind == Kind::Bomb {
            1
        } else {
            len_for(kind, cards.len())?
        };
        return crate::wild::read_wild(cards, kind, main, len, rules);
    }
    read_natural(cards, kind, main, rules)
}

/// The reading of `cards` as `kind` with `main`, every card standing for itself.
pub(crate) fn read_natural(cards: Cards, kind: Kind, main: Rank, rules: &Rules) -> Option<Move> {
    if !cards.is_valid_deck_subset() || !kind_enabled(kind, rules) {
        return None;
    }
    match kind {
        Kind::Pass => None,
        Kind::Rocket => (cards == Cards::ROCKET && main == Rank::BigJoker)
            .then(|| Move::new_unchecked(cards, cards, kind, main, 1, None)),
        _ => {
            let len = len_for(kind, cards.len())?;
            body_reading(cards, kind, main as usize, len, rules)
        }
    }
}

/// The reading with body `len` ranks of `kind` topped by rank index `main`, if valid.
#[inline]
fn body_reading(cards: Cards, kind: Kind, main: usize, len: u8, rules: &Rules) -> Option<Move> {
    let shape = kind.shape();
    let low = (main + 1).checked_sub(len as usize)?;
    if shape.is_chain() {
        if main > Rank::Ace as usize {
            return None;
        }
    } else if kind != Kind::Single && main > Rank::Two as usize {
        return None;
    }
    let body = window_cards(low, len, shape.per_rank);
    let kickers = cards.difference(body)?;
    let class = if kind == Kind::Bomb {
        crate::wild::natural_bomb_class(rules)
    } else {
        None
    };
    kickers_ok(kind, low, main, window_mask(low, len), kickers, rules)
        .then(|| Move::new_unchecked(cards, cards, kind, Rank::ALL[main], len, class))
}

/// Calls `f` with every reading of `cards` allowed by the combination fields of `rules`,
/// ignoring [`Rules::readings`], in kind order then main rank ascending.
pub(crate) fn for_each_valid_reading(cards: Cards, rules: &Rules, mut f: impl FnMut(Move)) {
    let n = cards.len();
    if n == 0 || !cards.is_valid_deck_subset() {
        return;
    }
    if crate::wild::has_wild(cards, rules) {
        return crate::wild::for_each_wild_reading(cards, rules, f);
    }
    for kind in Kind::ALL {
        if !kind_enabled(kind, rules) {
            continue;
        }
        if kind == Kind::Rocket {
            if cards == Cards::ROCKET {
                f(Move::new_unchecked(
                    cards,
                    cards,
                    kind,
                    Rank::BigJoker,
                    1,
                    None,
                ));
            }
            continue;
        }
        let Some(len) = len_for(kind, n) else {
            continue;
        };
        let per = kind.shape().per_rank;
        // The body's top rank must be held at least `per` times.
        let mut tops = cards.mask_at_least(per);
        while tops != 0 {
            let main = tops.trailing_zeros() as usize;
            tops &= tops - 1;
            if let Some(m) = body_reading(cards, kind, main, len, rules) {
                f(m);
            }
        }
    }
}

/// Every reading of `cards` under `rules`, in kind order (RULES.md table) then main rank
/// ascending. Under the one-reading profiles ([`Readings::Default`], [`Readings::Douzero`])
/// there is at most one. Empty if the cards form no combination (or are not from one deck).
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
        Readings::Douzero => crate::douzero::detect(cards, rules),
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
    fn window_helpers() {
        assert_eq!(window_cards(0, 3, 2).to_string(), "334455");
        assert_eq!(window_cards(9, 3, 1).to_string(), "QKA");
        assert_eq!(window_mask(1, 2), 0b110);
        assert_eq!(run_neighbours(0, 2), 0b1000);
        assert_eq!(run_neighbours(10, 11), 1 << 9);
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
}
