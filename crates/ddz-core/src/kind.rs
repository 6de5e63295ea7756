//! Combination kinds and their shapes.

use core::fmt;
use core::str::FromStr;

use crate::rules::Rules;

/// The kind of a play (RULES.md section 3), in the table's order; `Pass` first, then the Botzone
/// space shuttles, then the two-deck four jokers (docs/variants.md), last so that the kinds of
/// one deck keep their numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Kind {
    /// No cards: a pass (only when following).
    Pass,
    /// One card.
    Single,
    /// Two cards of a rank 3..2; with two decks also `BB` and `RR`, above `22`.
    Pair,
    /// Three cards of a rank 3..2.
    Trio,
    /// A trio and one single kicker.
    TrioSingle,
    /// A trio and one pair kicker.
    TrioPair,
    /// 5 to 12 consecutive single ranks within 3..A.
    Straight,
    /// 3 to 10 consecutive pairs within 3..A (to 12 with two decks).
    PairChain,
    /// 2 to 6 consecutive trios within 3..A (to 11 with two decks).
    Airplane,
    /// An airplane of n trios and n single kickers.
    AirplaneSingles,
    /// An airplane of n trios and n pair kickers.
    AirplanePairs,
    /// Four of a rank and two single kickers (not a bomb).
    FourTwoSingles,
    /// Four of a rank and two pair kickers (not a bomb).
    FourTwoPairs,
    /// Four cards of a rank (more under long bombs, 4 to 8 with two decks), beating every
    /// non-bomb.
    Bomb,
    /// Small and big joker, beating everything (one deck only).
    Rocket,
    /// Botzone: 2 or more consecutive fours within 3..A.
    SpaceShuttle,
    /// Botzone: a space shuttle with two single kickers per four.
    SpaceShuttleSingles,
    /// Botzone: a space shuttle with two pair kickers per four.
    SpaceShuttlePairs,
    /// Two decks: the four jokers `BBRR` (天王炸), beating everything.
    FourJokers,
}

/// What a kind carries besides its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kickers {
    /// No kickers.
    None,
    /// `per_rank` single cards for each body rank.
    Singles {
        /// Kickers per body rank (1 for trios, 2 for fours).
        per_rank: u8,
    },
    /// `per_rank` pairs for each body rank.
    Pairs {
        /// Kicker pairs per body rank (1 for trios, 2 for fours).
        per_rank: u8,
    },
}

impl Kickers {
    /// Number of kicker cards for a body of `len` ranks.
    #[inline]
    pub const fn cards(self, len: u8) -> u8 {
        match self {
            Kickers::None => 0,
            Kickers::Singles { per_rank } => per_rank * len,
            Kickers::Pairs { per_rank } => 2 * per_rank * len,
        }
    }
}

/// The shape of a kind: cards per body rank, chain lengths and kickers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Cards of each body rank (1 single, 2 pair, 3 trio, 4 four).
    pub per_rank: u8,
    /// Fewest body ranks (chains: 5 straight, 3 pair chain, 2 airplane and space shuttle).
    pub min_len: u8,
    /// Most body ranks, within 3..A and 20 cards (see [`Kind::shape_for`] for larger hands).
    pub max_len: u8,
    /// The kickers carried.
    pub kickers: Kickers,
}

impl Shape {
    /// True for chains (straights, pair chains, airplanes, space shuttles): body ranks must be
    /// consecutive within 3..A.
    #[inline]
    pub const fn is_chain(self) -> bool {
        self.min_len > 1
    }

    /// Total cards for a body of `len` ranks.
    #[inline]
    pub const fn cards(self, len: u8) -> u8 {
        self.per_rank * len + self.kickers.cards(len)
    }
}

/// The ranks a chain may run over: 3..A.
const CHAIN_RANKS: u32 = 12;

const fn shape(per_rank: u8, min_len: u8, max_len: u8, kickers: Kickers) -> Shape {
    Shape {
        per_rank,
        min_len,
        max_len,
        kickers,
    }
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: [Kind; 19] = [
        Kind::Pass,
        Kind::Single,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioSingle,
        Kind::TrioPair,
        Kind::Straight,
        Kind::PairChain,
        Kind::Airplane,
        Kind::AirplaneSingles,
        Kind::AirplanePairs,
        Kind::FourTwoSingles,
        Kind::FourTwoPairs,
        Kind::Bomb,
        Kind::Rocket,
        Kind::SpaceShuttle,
        Kind::SpaceShuttleSingles,
        Kind::SpaceShuttlePairs,
        Kind::FourJokers,
    ];

    /// The kind's name as used in notation and JSON (`airplane_singles`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pass => "pass",
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioSingle => "trio_single",
            Kind::TrioPair => "trio_pair",
            Kind::Straight => "straight",
            Kind::PairChain => "pair_chain",
            Kind::Airplane => "airplane",
            Kind::AirplaneSingles => "airplane_singles",
            Kind::AirplanePairs => "airplane_pairs",
            Kind::FourTwoSingles => "four_two_singles",
            Kind::FourTwoPairs => "four_two_pairs",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
            Kind::SpaceShuttle => "space_shuttle",
            Kind::SpaceShuttleSingles => "space_shuttle_singles",
            Kind::SpaceShuttlePairs => "space_shuttle_pairs",
            Kind::FourJokers => "four_jokers",
        }
    }

    /// The shape of the kind's body and kickers, for hands of at most 20 cards. Bombs have the
    /// classic four-card shape; the rocket, the four jokers and pass have no rank body
    /// (`per_rank` 0).
    pub const fn shape(self) -> Shape {
        use Kickers::{None as No, Pairs, Singles};
        match self {
            Kind::Pass | Kind::Rocket | Kind::FourJokers => shape(0, 1, 1, No),
            Kind::Single => shape(1, 1, 1, No),
            Kind::Pair => shape(2, 1, 1, No),
            Kind::Trio => shape(3, 1, 1, No),
            Kind::TrioSingle => shape(3, 1, 1, Singles { per_rank: 1 }),
            Kind::TrioPair => shape(3, 1, 1, Pairs { per_rank: 1 }),
            Kind::Straight => shape(1, 5, 12, No),
            Kind::PairChain => shape(2, 3, 10, No),
            Kind::Airplane => shape(3, 2, 6, No),
            Kind::AirplaneSingles => shape(3, 2, 5, Singles { per_rank: 1 }),
            Kind::AirplanePairs => shape(3, 2, 4, Pairs { per_rank: 1 }),
            Kind::FourTwoSingles => shape(4, 1, 1, Singles { per_rank: 2 }),
            Kind::FourTwoPairs => shape(4, 1, 1, Pairs { per_rank: 2 }),
            Kind::Bomb => shape(4, 1, 1, No),
            Kind::SpaceShuttle => shape(4, 2, 5, No),
            Kind::SpaceShuttleSingles => shape(4, 2, 3, Singles { per_rank: 2 }),
            Kind::SpaceShuttlePairs => shape(4, 2, 2, Pairs { per_rank: 2 }),
        }
    }

    /// The shape under `rules`: chains as long as the largest hand allows (the landlord's 20
    /// cards, 33 with two decks: straights and pair chains to 12, airplanes to 11 trios,
    /// airplanes + pairs to 6), within the 12 ranks 3..A. Equal to [`Kind::shape`] for 20 cards.
    ///
    /// ```
    /// use ddz_core::{Kind, Rules};
    /// assert_eq!(Kind::Airplane.shape_for(&Rules::classic()).max_len, 6);
    /// assert_eq!(Kind::Airplane.shape_for(&Rules::four()).max_len, 11);
    /// assert_eq!(Kind::AirplanePairs.shape_for(&Rules::four()).max_len, 6);
    /// ```
    #[inline]
    pub const fn shape_for(self, rules: &Rules) -> Shape {
        let mut s = self.shape();
        // One deck: the landlord's 20 cards, the table of `shape` (no division on the hot path).
        if !s.is_chain() || rules.decks <= 1 {
            return s;
        }
        let largest = rules.hand_cards() + rules.kitty_cards();
        let fit = largest / s.cards(1) as u32;
        s.max_len = if fit < CHAIN_RANKS {
            fit as u8
        } else {
            CHAIN_RANKS as u8
        };
        s
    }

    /// True for the bomb, the rocket and the four jokers, the kinds that beat other kinds
    /// (bombs of every length).
    #[inline]
    pub const fn is_bomb_like(self) -> bool {
        matches!(self, Kind::Bomb | Kind::Rocket | Kind::FourJokers)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        write!(
            f,
            "\"{}\" is not a kind (kinds: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownKind {}

impl FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(k.name().parse::<Kind>(), Ok(k));
        }
        assert!(
            "plane"
                .parse::<Kind>()
                .unwrap_err()
                .to_string()
                .contains("airplane_singles")
        );
    }

    #[test]
    fn shapes_fit_twenty_cards() {
        for k in Kind::ALL {
            let s = k.shape();
            assert!(s.cards(s.max_len) <= 20, "{k}");
            if s.is_chain() {
                assert!(s.max_len <= 12, "{k}");
            }
        }
        assert_eq!(Kind::AirplaneSingles.shape().cards(5), 20);
        assert_eq!(Kind::FourTwoPairs.shape().cards(1), 8);
    }

    #[test]
    fn shapes_follow_the_largest_hand() {
        for rules in [Rules::classic(), Rules::two(), Rules::botzone()] {
            for k in Kind::ALL {
                assert_eq!(k.shape_for(&rules), k.shape(), "{k}");
            }
        }
        let four = Rules::four();
        let max = |k: Kind| k.shape_for(&four).max_len;
        assert_eq!(
            [
                Kind::Straight,
                Kind::PairChain,
                Kind::Airplane,
                Kind::AirplanePairs
            ]
            .map(max),
            [12, 12, 11, 6]
        );
        assert_eq!(max(Kind::AirplaneSingles), 8);
        for k in Kind::ALL {
            let s = k.shape_for(&four);
            assert!(s.cards(s.max_len) <= 33, "{k}");
        }
    }
}
