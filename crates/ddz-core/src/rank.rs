//! The 15 ranks of a Dou Dizhu deck, in single-card order.

use core::fmt;

/// A card rank, ordered as single cards compare: 3 < 4 < … < A < 2 < small joker < big joker.
///
/// Suits never matter to legality or comparison, so all rule logic works on ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 3, the lowest rank.
    Three = 0,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7.
    Seven,
    /// 8.
    Eight,
    /// 9.
    Nine,
    /// 10, written `T`.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Ace, the highest rank a chain may reach.
    Ace,
    /// 2, above the ace; never part of a chain.
    Two,
    /// The small (black) joker 小王, written `B`.
    SmallJoker,
    /// The big (red) joker 大王, written `R`.
    BigJoker,
}

impl Rank {
    /// Every rank, lowest first.
    pub const ALL: [Rank; 15] = [
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
        Rank::Two,
        Rank::SmallJoker,
        Rank::BigJoker,
    ];

    /// The 13 suited ranks 3..2 (the ranks a pair, trio or bomb may have).
    pub const SUITED: [Rank; 13] = [
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
        Rank::Two,
    ];

    /// Number of ranks.
    pub const COUNT: usize = 15;

    /// Canonical letters, indexed by rank: `3456789TJQKA2BR`.
    pub const LETTERS: [char; 15] = [
        '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'B', 'R',
    ];

    /// The rank's index, 0 (3) to 14 (big joker).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank with index `i` (0 = 3 … 14 = big joker), or `None` past 14.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Rank> {
        if i < 15 { Some(Rank::ALL[i]) } else { None }
    }

    /// The canonical letter of the rank (`T` for 10, `B`/`R` for the jokers).
    #[inline]
    pub const fn letter(self) -> char {
        Rank::LETTERS[self as usize]
    }

    /// The rank for one canonical or alias letter: `3`-`9`, `T`/`t`, `J`, `Q`, `K`, `A`, `2`,
    /// `B`/`X` (small joker), `R`/`D` (big joker), any case. `10` and `小王`/`大王` are
    /// multi-character aliases handled by the card parser.
    pub const fn from_letter(c: char) -> Option<Rank> {
        Some(match c {
            '3' => Rank::Three,
            '4' => Rank::Four,
            '5' => Rank::Five,
            '6' => Rank::Six,
            '7' => Rank::Seven,
            '8' => Rank::Eight,
            '9' => Rank::Nine,
            'T' | 't' => Rank::Ten,
            'J' | 'j' => Rank::Jack,
            'Q' | 'q' => Rank::Queen,
            'K' | 'k' => Rank::King,
            'A' | 'a' => Rank::Ace,
            '2' => Rank::Two,
            'B' | 'b' | 'X' | 'x' => Rank::SmallJoker,
            'R' | 'r' | 'D' | 'd' => Rank::BigJoker,
            _ => return None,
        })
    }

    /// True for the two jokers.
    #[inline]
    pub const fn is_joker(self) -> bool {
        (self as u8) >= Rank::SmallJoker as u8
    }

    /// True for the ranks a chain (straight, pair chain, airplane) may hold: 3..A.
    #[inline]
    pub const fn in_chain_range(self) -> bool {
        (self as u8) <= Rank::Ace as u8
    }

    /// How many cards of this rank a deck holds: 4, or 1 for a joker.
    #[inline]
    pub const fn deck_count(self) -> u8 {
        if self.is_joker() { 1 } else { 4 }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A set of ranks packed into 15 bits (bit `i` = rank index `i`), `Copy`.
///
/// Used for the wild ranks of a game and for rank filters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RankSet(u16);

impl RankSet {
    /// The empty set.
    pub const EMPTY: RankSet = RankSet(0);

    /// The set holding one rank.
    #[inline]
    pub const fn single(rank: Rank) -> RankSet {
        RankSet(1 << rank as u16)
    }

    /// The raw bits (bit `i` = rank index `i`).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// True if `rank` is in the set.
    #[inline]
    pub const fn contains(self, rank: Rank) -> bool {
        self.0 & (1 << rank as u16) != 0
    }

    /// The set with `rank` added.
    #[inline]
    pub const fn with(self, rank: Rank) -> RankSet {
        RankSet(self.0 | (1 << rank as u16))
    }

    /// True if the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of ranks in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The ranks in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Rank> {
        Rank::ALL.into_iter().filter(move |r| self.contains(*r))
    }
}

impl FromIterator<Rank> for RankSet {
    fn from_iter<I: IntoIterator<Item = Rank>>(iter: I) -> Self {
        iter.into_iter().fold(RankSet::EMPTY, RankSet::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_single_card_order() {
        for w in Rank::ALL.windows(2) {
            assert!(w[0] < w[1]);
        }
        assert!(Rank::Two > Rank::Ace && Rank::SmallJoker > Rank::Two);
    }

    #[test]
    fn letters_round_trip() {
        for r in Rank::ALL {
            assert_eq!(Rank::from_letter(r.letter()), Some(r));
            assert_eq!(Rank::from_index(r.index()), Some(r));
        }
        assert_eq!(Rank::from_letter('x'), Some(Rank::SmallJoker));
        assert_eq!(Rank::from_letter('D'), Some(Rank::BigJoker));
        assert_eq!(Rank::from_letter('Z'), None);
        assert_eq!(Rank::from_index(15), None);
    }

    #[test]
    fn rank_set_basics() {
        let s: RankSet = [Rank::Nine, Rank::Two].into_iter().collect();
        assert!(s.contains(Rank::Nine) && !s.contains(Rank::Ten));
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Rank::Nine, Rank::Two]);
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::{Rank, RankSet};
    use serde::de::Error;

    /// A rank set is written as a list of rank letters: `["7", "9"]`.
    impl serde::Serialize for RankSet {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.iter().map(|r| r.letter().to_string()))
        }
    }

    impl<'de> serde::Deserialize<'de> for RankSet {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let items: Vec<String> = Vec::deserialize(d)?;
            let mut set = RankSet::EMPTY;
            for item in items {
                let rank = parse_rank(&item)
                    .ok_or_else(|| D::Error::custom(format!("\"{item}\" is not a rank")))?;
                set = set.with(rank);
            }
            Ok(set)
        }
    }

    fn parse_rank(s: &str) -> Option<Rank> {
        match s {
            "10" => Some(Rank::Ten),
            "小王" => Some(Rank::SmallJoker),
            "大王" => Some(Rank::BigJoker),
            _ => {
                let mut chars = s.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    None
                } else {
                    Rank::from_letter(c)
                }
            }
        }
    }
}
