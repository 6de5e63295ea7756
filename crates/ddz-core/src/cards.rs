//! `Cards`: a multiset of ranks packed into one `u64`.

use crate::rank::Rank;

/// Bit mask of the low bit of every rank's 4-bit field.
const LOW_BITS: u64 = 0x0111_1111_1111_1111;
/// Bit mask of the high bit of every rank's 4-bit field.
const HIGH_BITS: u64 = LOW_BITS << 3;
/// Mask of the 60 bits that hold the 15 rank fields.
const FIELD_MASK: u64 = 0x0FFF_FFFF_FFFF_FFFF;

/// A multiset of ranks: how many cards of each of the 15 ranks, 4 bits a rank in one `u64`
/// (rank index `i` in bits `4i..4i+4`).
///
/// `Cards` is what every rule works on: suits never matter to legality or comparison. It is
/// `Copy`, compares and hashes as its packed value, and its operations are `const fn`s of a
/// few instructions. A value made by [`Cards::from_counts`], the parsers or [`Cards::add`]
/// keeps at most 15 cards a rank; a valid *hand* has at most 4 of a rank and 1 of each joker
/// ([`Cards::is_valid_deck_subset`]).
///
/// ```
/// use ddz_core::{Cards, Rank};
/// let hand: Cards = "33344T".parse().unwrap();
/// assert_eq!(hand.count(Rank::Three), 3);
/// assert_eq!(hand.len(), 6);
/// assert_eq!(hand.to_string(), "33344T");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cards(u64);

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards(0);

    /// The full 54-card deck: four of each rank 3..2 and one of each joker.
    pub const FULL_DECK: Cards = Cards(0x0114_4444_4444_4444);

    /// The rocket: small joker and big joker.
    pub const ROCKET: Cards = Cards(0x0110_0000_0000_0000);

    /// The four jokers of two decks (天王炸): two small and two big jokers.
    pub const FOUR_JOKERS: Cards = Cards(0x0220_0000_0000_0000);

    /// Builds `Cards` from its packed value; `None` if a bit above the 15 rank fields is set.
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<Cards> {
        if bits & !FIELD_MASK == 0 {
            Some(Cards(bits))
        } else {
            None
        }
    }

    /// The packed value: rank index `i` counted in bits `4i..4i+4`.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// `n` cards of one rank (`n` is taken modulo 16).
    #[inline]
    pub const fn of(rank: Rank, n: u8) -> Cards {
        Cards(((n & 15) as u64) << (4 * rank as u32))
    }

    /// One card of `rank`.
    #[inline]
    pub const fn single(rank: Rank) -> Cards {
        Cards::of(rank, 1)
    }

    /// Builds `Cards` from per-rank counts (index 0 = 3 … 14 = big joker); counts are taken
    /// modulo 16.
    pub const fn from_counts(counts: &[u8; 15]) -> Cards {
        let mut bits = 0u64;
        let mut i = 0;
        while i < 15 {
            bits |= ((counts[i] & 15) as u64) << (4 * i);
            i += 1;
        }
        Cards(bits)
    }

    /// Per-rank counts, index 0 = 3 … 14 = big joker.
    #[inline]
    pub const fn counts(self) -> [u8; 15] {
        let mut out = [0u8; 15];
        let mut i = 0;
        while i < 15 {
            out[i] = ((self.0 >> (4 * i)) & 15) as u8;
            i += 1;
        }
        out
    }

    /// How many cards of `rank`.
    #[inline]
    pub const fn count(self, rank: Rank) -> u8 {
        ((self.0 >> (4 * rank as u32)) & 15) as u8
    }

    /// Total number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        // Fold nibbles into bytes, then sum the bytes with one multiplication.
        let bytes = (self.0 & 0x0F0F_0F0F_0F0F_0F0F) + ((self.0 >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// True if there are no cards.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These cards plus `n` of `rank`. Counts wrap past 15; callers keep them in range.
    #[inline]
    pub const fn add(self, rank: Rank, n: u8) -> Cards {
        Cards(self.0 + (((n & 15) as u64) << (4 * rank as u32)))
    }

    /// These cards less `n` of `rank`, or `None` if there are fewer than `n`.
    #[inline]
    pub const fn remove(self, rank: Rank, n: u8) -> Option<Cards> {
        if self.count(rank) >= n {
            Some(Cards(self.0 - ((n as u64) << (4 * rank as u32))))
        } else {
            None
        }
    }

    /// The union as multisets (counts added). Each count must stay at most 15.
    #[inline]
    pub const fn union(self, other: Cards) -> Cards {
        Cards(self.0 + other.0)
    }

    /// True if every card of `other` is in `self` (multiset inclusion), for any counts.
    #[inline]
    pub const fn contains(self, other: Cards) -> bool {
        // Compare the low three bits of each field with borrows kept inside the field (its
        // high bit set, the other's cleared): the high bit survives where self's low bits are
        // >= other's. Then the high bits decide: self's set and other's clear means more, equal
        // high bits leave it to the low bits. Correct for counts up to 15 (two decks hold 8).
        let low = (self.0 | HIGH_BITS) - (other.0 & !HIGH_BITS);
        let ge = (self.0 & !other.0) | (!(self.0 ^ other.0) & low);
        ge & HIGH_BITS == HIGH_BITS
    }

    /// `self` less `other`, or `None` if `other` is not contained in `self`.
    #[inline]
    pub const fn difference(self, other: Cards) -> Option<Cards> {
        if self.contains(other) {
            Some(Cards(self.0 - other.0))
        } else {
            None
        }
    }

    /// `self` less `other`, assuming `self.contains(other)` (checked in debug builds).
    #[inline]
    pub const fn minus(self, other: Cards) -> Cards {
        debug_assert!(self.contains(other));
        Cards(self.0 - other.0)
    }

    /// One card of each rank in `rank_mask` (a bit set over rank indices).
    #[inline]
    pub const fn one_of_each(rank_mask: u16) -> Cards {
        Cards(spread_bits(rank_mask))
    }

    /// The cards of `self` whose rank is in `mask` (a bit set over rank indices).
    #[inline]
    pub const fn restrict(self, rank_mask: u16) -> Cards {
        Cards(self.0 & (spread_bits(rank_mask) * 15))
    }

    /// Bit set of the ranks present at least once (bit `i` = rank index `i`).
    #[inline]
    pub const fn rank_mask(self) -> u16 {
        self.mask_at_least(1)
    }

    /// Bit set of the ranks present at least `n` times (`n` from 1 to 8; exact for every count
    /// up to `7 + n`, so for every hand of two decks).
    #[inline]
    pub const fn mask_at_least(self, n: u8) -> u16 {
        // For n in 1..=8 with counts <= 7 + n: field >= n  <=>  (field + 8 - n) has its high
        // bit, and the sum stays within the field.
        let add = (8 - n as u64) * LOW_BITS;
        let high = (self.0 + add) & HIGH_BITS;
        compress_high_bits(high)
    }

    /// Number of distinct ranks present.
    #[inline]
    pub const fn distinct_ranks(self) -> u32 {
        self.rank_mask().count_ones()
    }

    /// True if this could be part of one 54-card deck: at most 4 of each rank 3..2 and at
    /// most 1 of each joker.
    #[inline]
    pub const fn is_valid_deck_subset(self) -> bool {
        // Counts up to 15 (not only those `contains` handles): spread the fields into 8-bit
        // lanes, even and odd fields apart, add 7 - limit to each (3 for 3..2, 6 for a joker)
        // and look for a lane reaching 8, with no carry between lanes.
        const LANES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        const OVER: u64 = 0xF8F8_F8F8_F8F8_F8F8;
        // Even fields 0, 2, ..., 14 (the big joker is field 14, lane 7).
        const EVEN_ADD: u64 = 0x0603_0303_0303_0303;
        // Odd fields 1, 3, ..., 13 (the small joker is field 13, lane 6; lane 7 is unused).
        const ODD_ADD: u64 = 0x0306_0303_0303_0303;
        let even = self.0 & LANES;
        let odd = (self.0 >> 4) & LANES;
        (even + EVEN_ADD) & OVER == 0 && (odd + ODD_ADD) & OVER == 0
    }

    /// True if this could be part of `decks` 54-card decks shuffled together: at most 4 a deck
    /// of each rank 3..2 and 1 a deck of each joker (every count fits from four decks on).
    ///
    /// ```
    /// use ddz_core::{Cards, Rank};
    /// let two_decks = Cards::of(Rank::Five, 8).add(Rank::SmallJoker, 2);
    /// assert!(two_decks.is_valid_subset_of(2) && !two_decks.is_valid_subset_of(1));
    /// assert!(!Cards::of(Rank::BigJoker, 3).is_valid_subset_of(2));
    /// ```
    pub const fn is_valid_subset_of(self, decks: u8) -> bool {
        if decks == 1 {
            return self.is_valid_deck_subset();
        }
        let counts = self.counts();
        let mut i = 0;
        while i < 15 {
            let per_deck = if i < 13 { 4 } else { 1 };
            if counts[i] as u32 > per_deck * decks as u32 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The ranks present, lowest first (each once).
    pub fn ranks(self) -> impl Iterator<Item = Rank> {
        Rank::ALL.into_iter().filter(move |r| self.count(*r) > 0)
    }

    /// Every card's rank with multiplicity, lowest first (`33344` gives 3, 3, 3, 4, 4).
    pub fn iter(self) -> impl Iterator<Item = Rank> {
        Rank::ALL
            .into_iter()
            .flat_map(move |r| core::iter::repeat_n(r, self.count(r) as usize))
    }

    /// The cards of `self` not matched in `other` (multiset difference, floored at zero).
    pub const fn saturating_minus(self, other: Cards) -> Cards {
        let a = self.counts();
        let b = other.counts();
        let mut out = [0u8; 15];
        let mut i = 0;
        while i < 15 {
            out[i] = a[i].saturating_sub(b[i]);
            i += 1;
        }
        Cards::from_counts(&out)
    }

    /// The highest rank present, if any.
    #[inline]
    pub fn highest(self) -> Option<Rank> {
        let mask = self.rank_mask();
        if mask == 0 {
            None
        } else {
            Rank::from_index(15 - mask.leading_zeros() as usize)
        }
    }

    /// The lowest rank present, if any.
    #[inline]
    pub fn lowest(self) -> Option<Rank> {
        let mask = self.rank_mask();
        if mask == 0 {
            None
        } else {
            Rank::from_index(mask.trailing_zeros() as usize)
        }
    }

    /// The highest rank held exactly three times, if any: DouZero compares two airplanes with
    /// singles by it, a trio among the kickers included (`444555666888` tops at 8).
    ///
    /// ```
    /// use ddz_core::{Cards, Rank};
    /// let cards: Cards = "444555666888".parse().unwrap();
    /// assert_eq!(cards.top_trio(), Some(Rank::Eight));
    /// assert_eq!("33334444".parse::<Cards>().unwrap().top_trio(), None);
    /// ```
    #[inline]
    pub fn top_trio(self) -> Option<Rank> {
        let threes = self.mask_at_least(3) & !self.mask_at_least(4);
        if threes == 0 {
            None
        } else {
            Rank::from_index(15 - threes.leading_zeros() as usize)
        }
    }
}

/// Moves each field's high bit (bit `4i+3`) to bit `i`: the inverse of [`spread_bits`], by
/// halving the gaps between the bits in five steps.
#[inline]
const fn compress_high_bits(high: u64) -> u16 {
    let mut x = (high >> 3) & 0x1111_1111_1111_1111;
    x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
    x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
    x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
    x = (x | (x >> 24)) & 0xFFFF;
    x as u16
}

/// Moves bit `i` of `mask` to bit `4i` (the low bit of rank `i`'s field).
#[inline]
const fn spread_bits(mask: u16) -> u64 {
    let mut x = mask as u64 & 0x7FFF;
    x = (x | (x << 24)) & 0x0000_00FF_0000_00FF;
    x = (x | (x << 12)) & 0x000F_000F_000F_000F;
    x = (x | (x << 6)) & 0x0303_0303_0303_0303;
    x = (x | (x << 3)) & 0x1111_1111_1111_1111;
    x
}

impl core::fmt::Debug for Cards {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Cards({self})")
    }
}

impl core::fmt::Display for Cards {
    /// Canonical notation: rank letters ascending (`33344`), empty for no cards.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write;
        for r in self.iter() {
            f.write_char(r.letter())?;
        }
        Ok(())
    }
}

impl FromIterator<Rank> for Cards {
    fn from_iter<I: IntoIterator<Item = Rank>>(iter: I) -> Self {
        let mut counts = [0u8; 15];
        for r in iter {
            counts[r.index()] = counts[r.index()].saturating_add(1);
        }
        Cards::from_counts(&counts.map(|c| c.min(15)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_deck_is_54_cards() {
        assert_eq!(Cards::FULL_DECK.len(), 54);
        assert_eq!(Cards::FULL_DECK.count(Rank::Two), 4);
        assert_eq!(Cards::FULL_DECK.count(Rank::BigJoker), 1);
        assert!(Cards::FULL_DECK.is_valid_deck_subset());
        assert!(
            !Cards::FULL_DECK
                .add(Rank::SmallJoker, 1)
                .is_valid_deck_subset()
        );
        assert_eq!(Cards::ROCKET.len(), 2);
    }

    #[test]
    fn deck_subsets_for_every_count() {
        // Each rank alone at every count a field can hold, against the deck's limit.
        for rank in Rank::ALL {
            for n in 0..16u8 {
                let c = Cards::of(rank, n);
                assert_eq!(
                    c.is_valid_deck_subset(),
                    n <= rank.deck_count(),
                    "{rank:?} x{n}"
                );
                let with_deck_rest = Cards::FULL_DECK.minus(Cards::of(rank, rank.deck_count()));
                assert_eq!(
                    with_deck_rest.union(c).is_valid_deck_subset(),
                    n <= rank.deck_count()
                );
            }
        }
        assert!(!Cards::from_counts(&[15; 15]).is_valid_deck_subset());
    }

    #[test]
    fn containment_and_difference() {
        let a = Cards::of(Rank::Three, 3).add(Rank::Four, 2);
        let b = Cards::of(Rank::Three, 2).add(Rank::Four, 2);
        assert!(a.contains(b) && !b.contains(a));
        assert_eq!(a.difference(b), Some(Cards::single(Rank::Three)));
        assert_eq!(b.difference(a), None);
        assert!(a.contains(Cards::EMPTY));
        assert!(!Cards::EMPTY.contains(Cards::single(Rank::BigJoker)));
    }

    #[test]
    fn containment_for_every_pair_of_counts() {
        for a in 0..16u8 {
            for b in 0..16u8 {
                let (x, y) = (Cards::of(Rank::Nine, a), Cards::of(Rank::Nine, b));
                let rest = Cards::of(Rank::Three, 8).add(Rank::BigJoker, 2);
                assert_eq!(x.contains(y), a >= b, "{a} >= {b}");
                assert_eq!(x.union(rest).contains(y.union(rest)), a >= b, "{a} >= {b}");
            }
        }
    }

    #[test]
    fn masks_hold_for_two_decks() {
        for count in 0..=8u8 {
            for n in 1..=8u8 {
                let c = Cards::of(Rank::Two, count).add(Rank::Three, 8);
                assert_eq!(
                    c.mask_at_least(n) & (1 << 12) != 0,
                    count >= n,
                    "{count} {n}"
                );
                assert_eq!(c.mask_at_least(n) & 1, 1);
            }
        }
        assert_eq!(Cards::FOUR_JOKERS.len(), 4);
        assert!(Cards::FOUR_JOKERS.contains(Cards::ROCKET));
    }

    #[test]
    fn masks() {
        let a = Cards::of(Rank::Three, 3)
            .add(Rank::Five, 1)
            .add(Rank::Two, 4);
        assert_eq!(a.rank_mask(), 0b1_0000_0000_0101);
        assert_eq!(a.mask_at_least(3), 0b1_0000_0000_0001);
        assert_eq!(a.mask_at_least(4), 0b1_0000_0000_0000);
        assert_eq!(a.highest(), Some(Rank::Two));
        assert_eq!(a.lowest(), Some(Rank::Three));
        assert_eq!(
            a.restrict(0b101),
            Cards::of(Rank::Three, 3).add(Rank::Five, 1)
        );
    }

    #[test]
    fn bit_spreading_round_trips() {
        for mask in [0u16, 1, 0b101, 0x7FFF, 0x4000, 0x1234] {
            let spread = spread_bits(mask);
            assert_eq!(compress_high_bits(spread << 3), mask);
            for i in 0..15 {
                assert_eq!((spread >> (4 * i)) & 0xF, u64::from(mask >> i & 1));
            }
        }
    }

    #[test]
    fn counts_round_trip() {
        let counts = [1, 2, 3, 4, 0, 0, 1, 0, 0, 0, 0, 2, 4, 1, 1];
        let c = Cards::from_counts(&counts);
        assert_eq!(c.counts(), counts);
        assert_eq!(c.len(), counts.iter().map(|&x| x as u32).sum::<u32>());
    }

    #[test]
    fn top_trio_counts_kicker_trios() {
        let cards = |s: &str| s.parse::<Cards>().unwrap();
        assert_eq!(cards("444555666888").top_trio(), Some(Rank::Eight));
        assert_eq!(cards("3334445555").top_trio(), Some(Rank::Four));
        assert_eq!(cards("33").top_trio(), None);
    }
}
