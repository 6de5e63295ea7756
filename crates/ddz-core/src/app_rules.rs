//! The rule fields of today's apps (RULES.md section 7): doubling (加倍), showing cards (明牌)
//! and no-shuffle deals (不洗牌). Each is a group of fields of [`crate::Rules`]; every group's
//! default is "off", which is what the profiles of sections 1-6 have, so their play and scoring
//! are exactly sections 2-4.
//!
//! ```
//! use ddz_core::{DealMethod, DoublingOrder, Rules};
//! let rules = Rules::huanle();
//! assert!(rules.doubling.enabled && rules.show.enabled);
//! assert_eq!(rules.doubling.order, DoublingOrder::Simultaneous);
//! assert_eq!(rules.doubling.factors.as_slice(), [2, 4]);
//! assert_eq!(rules.deal, DealMethod::Shuffle);
//! assert_eq!(rules.no_shuffle.chunks.as_slice(), [6, 6, 5]);
//! assert!(!Rules::classic().doubling.enabled);
//! ```

use core::fmt;

/// A short list of small numbers kept inline (at most `N`), so that [`crate::Rules`] stays
/// free of allocations; written as a JSON or TOML list of numbers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShortList<const N: usize> {
    len: u8,
    items: [u8; N],
}

impl<const N: usize> ShortList<N> {
    /// The list of `items`, or `None` when there are more than `N`.
    pub const fn new(items: &[u8]) -> Option<ShortList<N>> {
        if items.len() > N {
            return None;
        }
        let mut list = ShortList {
            len: items.len() as u8,
            items: [0; N],
        };
        let mut i = 0;
        while i < items.len() {
            list.items[i] = items[i];
            i += 1;
        }
        Some(list)
    }

    /// The items in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.items[..usize::from(self.len)]
    }

    /// The most items the list holds.
    pub const CAPACITY: usize = N;
}

impl<const N: usize> fmt::Debug for ShortList<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(feature = "serde")]
impl<const N: usize> serde::Serialize for ShortList<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

#[cfg(feature = "serde")]
impl<'de, const N: usize> serde::Deserialize<'de> for ShortList<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ShortList<N>, D::Error> {
        let items = <Vec<u8>>::deserialize(d)?;
        ShortList::new(&items).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "a list of at most {N} numbers, not {}",
                items.len()
            ))
        })
    }
}

/// The doubling factors a seat may choose besides 1 (at most 4 of them).
pub type Factors = ShortList<4>;

/// The chunk sizes of a no-shuffle deal (at most 17 chunks, adding up to 17).
pub type Chunks = ShortList<17>;

/// In which order the three seats decide their doubling (RULES.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DoublingOrder {
    /// All three decide at once; each choice is public once made (the default).
    Simultaneous,
    /// The landlord first, then the farmers, who see its choice.
    LandlordFirst,
}

/// Doubling (加倍) after the landlord takes the kitty: each seat's factor `d` is 1 or one of
/// `factors`; each farmer is settled against the landlord at `P × d_L × d_F`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DoublingRules {
    /// Whether the doubling phase is played (off: every factor stays 1).
    pub enabled: bool,
    /// The order of the decisions.
    pub order: DoublingOrder,
    /// The factors allowed besides 1 (加倍 2, 超级加倍 4 by default), each at least 2.
    pub factors: Factors,
}

impl DoublingRules {
    /// No doubling (sections 2-4).
    pub const OFF: DoublingRules = DoublingRules {
        enabled: false,
        order: DoublingOrder::Simultaneous,
        factors: match Factors::new(&[2, 4]) {
            Some(f) => f,
            None => unreachable!(),
        },
    };
    /// The apps' doubling: simultaneous, factors 2 and 4.
    pub const APPS: DoublingRules = DoublingRules {
        enabled: true,
        ..DoublingRules::OFF
    };

    /// True when these are [`DoublingRules::OFF`].
    pub fn is_off(&self) -> bool {
        *self == DoublingRules::OFF
    }
}

impl Default for DoublingRules {
    fn default() -> Self {
        DoublingRules::OFF
    }
}

/// How the factors of several shows make the `show` factor of the table multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShowCombine {
    /// The largest factor of any show (the default).
    Max,
    /// The product of every show's factor.
    Product,
}

/// Showing cards (明牌): windows before the deal (x5), during the deal (x4, x3, x2 by the
/// cards received) and the landlord's after doubling (x2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ShowRules {
    /// Whether seats may show their hands.
    pub enabled: bool,
    /// How several shows combine.
    pub combine: ShowCombine,
}

impl ShowRules {
    /// No showing (sections 2-4).
    pub const OFF: ShowRules = ShowRules {
        enabled: false,
        combine: ShowCombine::Max,
    };
    /// The apps' showing: on, the largest factor counts.
    pub const APPS: ShowRules = ShowRules {
        enabled: true,
        combine: ShowCombine::Max,
    };

    /// True when these are [`ShowRules::OFF`].
    pub fn is_off(&self) -> bool {
        *self == ShowRules::OFF
    }

    /// The factor of a show during the deal by a seat that has received `k` cards: x4 for
    /// k ≤ 5, x3 for 6 ≤ k ≤ 11, x2 for 12 ≤ k ≤ 16; `None` from 17 (the deal is done).
    ///
    /// ```
    /// use ddz_core::ShowRules;
    /// assert_eq!(ShowRules::during_deal_factor(0), Some(4));
    /// assert_eq!(ShowRules::during_deal_factor(6), Some(3));
    /// assert_eq!(ShowRules::during_deal_factor(12), Some(2));
    /// assert_eq!(ShowRules::during_deal_factor(17), None);
    /// ```
    pub const fn during_deal_factor(k: u32) -> Option<u32> {
        match k {
            0..=5 => Some(4),
            6..=11 => Some(3),
            12..=16 => Some(2),
            _ => None,
        }
    }

    /// The factor of a show before the deal (明牌开始).
    pub const BEFORE_DEAL_FACTOR: u32 = 5;
    /// The factor of the landlord's show after doubling.
    pub const LANDLORD_FACTOR: u32 = 2;
}

impl Default for ShowRules {
    fn default() -> Self {
        ShowRules::OFF
    }
}

/// How the cards are dealt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DealMethod {
    /// A uniform shuffle (the default).
    #[default]
    Shuffle,
    /// The apps' no-shuffle deal (不洗牌): rank groups, cuts, a few swaps, chunks
    /// ([`NoShuffle`]).
    NoShuffle,
}

impl DealMethod {
    /// True for [`DealMethod::Shuffle`].
    pub fn is_shuffle(&self) -> bool {
        *self == DealMethod::Shuffle
    }
}

/// Where a no-shuffle deal's pile comes from (step 1 of the algorithm).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PileSource {
    /// The 15 rank groups in a seeded order (the default).
    #[default]
    Groups,
    /// The previous game's cards in gather order (a sitting of several games); the first
    /// game of a sitting, and a redeal, use the rank groups.
    Previous,
}

/// The parameters of a no-shuffle deal (RULES.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct NoShuffle {
    /// Where the pile comes from.
    pub source: PileSource,
    /// How many times the pile is cut (default 1).
    pub cuts: u32,
    /// How many random swaps of two cards follow (default 8).
    pub swaps: u32,
    /// The chunk sizes each seat takes in turn (default 6, 6, 5; they add up to 17).
    pub chunks: Chunks,
    /// Deal again (same stream) while the hands hold fewer bombs than this (default 0).
    pub min_bombs: u32,
    /// The most tries for `min_bombs` (default 32); the first deal with the most bombs wins.
    pub max_attempts: u32,
    /// A cap on each pair's multiplier in games dealt without shuffling (64 in `huanle`),
    /// on top of [`crate::Rules::multiplier_cap`].
    pub multiplier_cap: Option<u32>,
}

impl NoShuffle {
    /// The defaults of RULES.md section 7, no cap.
    pub const DEFAULT: NoShuffle = NoShuffle {
        source: PileSource::Groups,
        cuts: 1,
        swaps: 8,
        chunks: match Chunks::new(&[6, 6, 5]) {
            Some(c) => c,
            None => unreachable!(),
        },
        min_bombs: 0,
        max_attempts: 32,
        multiplier_cap: None,
    };

    /// True when these are [`NoShuffle::DEFAULT`].
    pub fn is_default(&self) -> bool {
        *self == NoShuffle::DEFAULT
    }
}

impl Default for NoShuffle {
    fn default() -> Self {
        NoShuffle::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_hold_what_fits() {
        let l = Factors::new(&[2, 4]).unwrap();
        assert_eq!(l.as_slice(), [2, 4]);
        assert_eq!(format!("{l:?}"), "[2, 4]");
        assert!(Factors::new(&[1, 2, 3, 4, 5]).is_none());
        assert_eq!(Chunks::CAPACITY, 17);
    }

    #[test]
    fn show_factors_by_cards_received() {
        let f: Vec<_> = (0..=17).map(ShowRules::during_deal_factor).collect();
        assert_eq!(f[5], Some(4));
        assert_eq!(f[11], Some(3));
        assert_eq!(f[16], Some(2));
        assert_eq!(f[17], None);
    }
}
