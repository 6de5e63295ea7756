//! Readings where every card stands for itself, and the helpers every reading shares: rank
//! windows, which kinds the rules enable, which kickers they allow.
//!
//! The lowest layer of classification: [`crate::wild`] reads plays that hold wild cards on top
//! of it, and [`crate::classify`] and [`crate::movegen`] use both.

use crate::cards::Cards;
use crate::kind::{Kickers, Kind};
use crate::play::{BombClass, Move};
use crate::rank::Rank;
use crate::rules::{Rules, Wild};

/// Rank mask of 3..2 (the ranks trios and fours may have, and with one deck pairs).
pub(crate) const SUITED_MASK: u16 = (1 << 13) - 1;
/// Rank mask of the two jokers.
pub(crate) const JOKER_MASK: u16 = 0b11 << 13;
/// Rank mask of 3..A, the ranks a chain may hold.
pub(crate) const CHAIN_MASK: u16 = (1 << 12) - 1;

/// True if the rules deal from two decks (or more): joker pairs, the four jokers and no rocket,
/// bombs of up to every copy of a rank (docs/variants.md).
#[inline]
pub(crate) const fn two_decks(rules: &Rules) -> bool {
    rules.decks > 1
}

/// True if `cards` could be part of the rules' decks. Wild cards are read with one deck only
/// (the rules refuse wildcards with two decks), so with wild ranks the one-deck limits hold.
#[inline]
pub(crate) const fn fits_decks(cards: Cards, rules: &Rules) -> bool {
    if two_decks(rules) && matches!(rules.wild, Wild::None) {
        cards.is_valid_subset_of(rules.decks)
    } else {
        cards.is_valid_deck_subset()
    }
}

/// Rank mask of the ranks a pair (and a pair kicker) may have: 3..2, and the jokers with two
/// decks.
#[inline]
pub(crate) const fn pair_ranks(rules: &Rules) -> u16 {
    if two_decks(rules) {
        SUITED_MASK | JOKER_MASK
    } else {
        SUITED_MASK
    }
}

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
        Kind::TrioSingle | Kind::AirplaneSingles => rules.trio_single_kickers,
        Kind::Rocket => !two_decks(rules),
        Kind::FourJokers => two_decks(rules),
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
    // With two decks the four jokers are never kickers.
    if two_decks(rules) && kickers.contains(Cards::FOUR_JOKERS) {
        return false;
    }
    match kind.shape().kickers {
        Kickers::None => kickers.is_empty(),
        Kickers::Singles { .. } => {
            if kickers.rank_mask() & body_mask != 0 {
                return false;
            }
            if !rules.rocket_as_kickers && kickers.contains(Cards::ROCKET) {
                return false;
            }
            // With one deck a cap of 4 is no limit; two decks hold 8 of a rank.
            let cap = single_kicker_cap(kind, rules);
            if kickers.mask_at_least(cap + 1) != 0 {
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
            // Real pairs: even counts, no body rank, jokers only with two decks.
            mask & (body_mask | !pair_ranks(rules)) == 0
                && kickers.bits() & 0x0111_1111_1111_1111 == 0
                && (rules.quad_as_two_pairs || kickers.mask_at_least(4) == 0)
        }
    }
}

/// The number of body ranks of `kind` for `n` cards, if `n` fits the kind's shape under
/// `rules` (a bomb has one body rank of 4 to [`Rules::max_bomb_cards`] cards).
// Always inlined: the checked play of every game (`is_legal`) reads its move through here.
#[inline(always)]
pub(crate) fn len_for(kind: Kind, n: u32, rules: &Rules) -> Option<u8> {
    if kind == Kind::Bomb {
        return (n >= 4 && n <= rules.max_bomb_cards() as u32).then_some(1);
    }
    let shape = kind.shape_for(rules);
    let per_len = shape.cards(1) as u32;
    if per_len == 0 || !n.is_multiple_of(per_len) {
        return None;
    }
    let len = n / per_len;
    (len >= shape.min_len as u32 && len <= shape.max_len as u32).then_some(len as u8)
}

/// The class a bomb gets in a wild profile when it holds no wild card.
#[inline]
pub(crate) fn natural_bomb_class(rules: &Rules) -> Option<BombClass> {
    (rules.wild != Wild::None).then_some(BombClass::Hard)
}

/// The reading of `cards` as `kind` with `main`, every card standing for itself.
pub(crate) fn read_natural(cards: Cards, kind: Kind, main: Rank, rules: &Rules) -> Option<Move> {
    if !fits_decks(cards, rules) || !kind_enabled(kind, rules) {
        return None;
    }
    match kind {
        Kind::Pass => None,
        Kind::Rocket => (cards == Cards::ROCKET && main == Rank::BigJoker)
            .then(|| Move::new_unchecked(cards, cards, kind, main, 1, None)),
        Kind::FourJokers => (cards == Cards::FOUR_JOKERS && main == Rank::BigJoker)
            .then(|| Move::new_unchecked(cards, cards, kind, main, 1, None)),
        _ => {
            let len = len_for(kind, cards.len(), rules)?;
            body_reading(cards, kind, main as usize, len, rules)
        }
    }
}

/// The reading with body `len` ranks of `kind` topped by rank index `main`, if valid.
#[inline]
fn body_reading(cards: Cards, kind: Kind, main: usize, len: u8, rules: &Rules) -> Option<Move> {
    let shape = kind.shape();
    let low = (main + 1).checked_sub(len as usize)?;
    let top_ranks = match kind {
        _ if shape.is_chain() => CHAIN_MASK,
        Kind::Single => u16::MAX,
        Kind::Pair => pair_ranks(rules),
        _ => SUITED_MASK,
    };
    if main > Rank::BigJoker as usize || top_ranks & (1 << main) == 0 {
        return None;
    }
    // A bomb's body is all of its cards (4 to 8 with two decks).
    let per = if kind == Kind::Bomb {
        cards.len() as u8
    } else {
        shape.per_rank
    };
    let body = window_cards(low, len, per);
    let kickers = cards.difference(body)?;
    let class = if kind == Kind::Bomb {
        natural_bomb_class(rules)
    } else {
        None
    };
    kickers_ok(kind, low, main, window_mask(low, len), kickers, rules)
        .then(|| Move::new_unchecked(cards, cards, kind, Rank::ALL[main], len, class))
}

/// Calls `f` with every reading of `cards` (non-empty, from one deck, holding no wild card)
/// allowed by the combination fields of `rules`, in kind order then main rank ascending.
pub(crate) fn for_each_natural_reading(cards: Cards, rules: &Rules, mut f: impl FnMut(Move)) {
    let n = cards.len();
    for kind in Kind::ALL {
        if !kind_enabled(kind, rules) {
            continue;
        }
        if kind == Kind::Rocket || kind == Kind::FourJokers {
            let top = if kind == Kind::Rocket {
                Cards::ROCKET
            } else {
                Cards::FOUR_JOKERS
            };
            if cards == top {
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
        let Some(len) = len_for(kind, n, rules) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_helpers() {
        assert_eq!(window_cards(0, 3, 2).to_string(), "334455");
        assert_eq!(window_cards(9, 3, 1).to_string(), "QKA");
        assert_eq!(window_mask(1, 2), 0b110);
        assert_eq!(run_neighbours(0, 2), 0b1000);
        assert_eq!(run_neighbours(10, 11), 1 << 9);
    }
}
