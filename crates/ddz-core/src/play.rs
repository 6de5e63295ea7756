//! `Move`: a play with its reading, and comparison between plays.

use core::cmp::Ordering;
use core::fmt;

use crate::cards::Cards;
use crate::kind::Kind;
use crate::rank::Rank;
use crate::rules::{Readings, Rules};

/// The class of a bomb under wildcards (RULES.md section 5), lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BombClass {
    /// 软炸: natural cards plus at least one wild card standing for another rank.
    Soft,
    /// 硬炸: four natural cards of a rank that is not wild.
    Hard,
    /// 纯癞子炸弹: made only of wild cards.
    Pure,
}

impl BombClass {
    /// The class's name in JSON (`soft`, `hard`, `pure`).
    pub const fn name(self) -> &'static str {
        match self {
            BombClass::Soft => "soft",
            BombClass::Hard => "hard",
            BombClass::Pure => "pure",
        }
    }
}

/// One play: the cards that leave the hand and how they are read.
///
/// A move carries its physical `cards` (as ranks), the `reading` (the multiset of ranks the
/// play is read as: equal to `cards` unless a wild card stands for another rank), its `kind`,
/// `main` rank (the body's rank; the top of the body for chains and airplanes; `R` for the
/// rocket and the four jokers), `len` (number of body ranks: 1 for every kind that is not a chain) and, under
/// wildcards, the bomb class. Two moves are the same move when their cards, kind, main, len and
/// class are equal; kickers never change a move's identity, so the reading of a wild kicker
/// is kept canonical (its own rank when allowed, else the lowest allowed rank).
///
/// Moves are made by classification ([`crate::classify()`]), generation
/// ([`crate::legal_moves`]) or notation ([`crate::parse_move`]); they are `Copy` and 24 bytes.
///
/// ```
/// use ddz_core::{classify, Kind, Rules};
/// let rules = Rules::classic();
/// let readings = classify("333444555666".parse().unwrap(), &rules);
/// assert_eq!(readings.len(), 3);
/// assert_eq!(readings[0].kind(), Kind::Airplane);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    cards: Cards,
    reading: Cards,
    /// Kind, main, length and class packed into one word (see [`Move::pack`]), so that a move
    /// is written and read as three whole words: generation writes millions of them.
    meta: u64,
}

impl Move {
    /// The pass.
    pub const PASS: Move =
        Move::new_unchecked(Cards::EMPTY, Cards::EMPTY, Kind::Pass, Rank::Three, 0, None);

    /// Packs kind (bits 0-7), main (8-15), length (16-23) and class (24-31, 0 for none).
    #[inline]
    pub(crate) const fn pack(kind: Kind, main: Rank, len: u8, class: Option<BombClass>) -> u64 {
        let class = match class {
            None => 0,
            Some(c) => c as u64 + 1,
        };
        kind as u64 | (main as u64) << 8 | (len as u64) << 16 | class << 24
    }

    /// A move from its cards, reading and packed meta word ([`Move::pack`]), unchecked.
    #[inline]
    pub(crate) const fn from_parts(cards: Cards, reading: Cards, meta: u64) -> Move {
        Move {
            cards,
            reading,
            meta,
        }
    }

    /// Builds a move without checking it is a valid reading: for the crate's generators,
    /// which only build valid ones.
    #[inline]
    pub(crate) const fn new_unchecked(
        cards: Cards,
        reading: Cards,
        kind: Kind,
        main: Rank,
        len: u8,
        class: Option<BombClass>,
    ) -> Move {
        Move {
            cards,
            reading,
            meta: Move::pack(kind, main, len, class),
        }
    }

    /// The physical cards (as ranks) that leave the hand.
    #[inline]
    pub const fn cards(&self) -> Cards {
        self.cards
    }

    /// The ranks the play is read as (equal to [`Move::cards`] without wild substitution).
    #[inline]
    pub const fn reading(&self) -> Cards {
        self.reading
    }

    /// The kind.
    #[inline]
    pub const fn kind(&self) -> Kind {
        Kind::ALL[(self.meta & 0xFF) as usize]
    }

    /// The main rank: the body's rank, the top of the body for chains and airplanes, `R` for
    /// the rocket and the four jokers (meaningless for a pass).
    #[inline]
    pub const fn main(&self) -> Rank {
        Rank::ALL[((self.meta >> 8) & 0xFF) as usize]
    }

    /// Number of body ranks: the chain length for chains and airplanes, else 1 (0 for a pass).
    #[inline]
    pub const fn length(&self) -> u8 {
        (self.meta >> 16) as u8
    }

    /// The bomb class under wildcards; `None` for non-bombs and for bombs in classic profiles.
    #[inline]
    pub const fn class(&self) -> Option<BombClass> {
        match (self.meta >> 24) & 0xFF {
            1 => Some(BombClass::Soft),
            2 => Some(BombClass::Hard),
            3 => Some(BombClass::Pure),
            _ => None,
        }
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(&self) -> bool {
        self.meta & 0xFF == Kind::Pass as u64
    }

    /// Number of cards played.
    #[inline]
    pub const fn card_count(&self) -> u32 {
        self.cards.len()
    }

    /// The lowest body rank (the bottom of a chain).
    #[inline]
    pub fn low(&self) -> Rank {
        let low = (self.main() as usize + 1).saturating_sub(self.length().max(1) as usize);
        Rank::ALL[low]
    }

    /// The body (the reading's ranks that make the combination, without kickers).
    pub fn body(&self) -> Cards {
        match self.kind() {
            Kind::Pass => Cards::EMPTY,
            Kind::Rocket => Cards::ROCKET,
            Kind::FourJokers => Cards::FOUR_JOKERS,
            // A (long) bomb's body is all of its reading.
            Kind::Bomb => self.reading,
            _ => {
                let per = self.kind().shape().per_rank;
                (self.low() as usize..=self.main() as usize)
                    .fold(Cards::EMPTY, |acc, i| acc.add(Rank::ALL[i], per))
            }
        }
    }

    /// Number of cards in the body (used by the default-reading order).
    pub fn body_cards(&self) -> u32 {
        self.body().len()
    }

    /// Does this move beat `other` on the table? Same kind, same length and card count, and a
    /// strictly higher main rank (under `douzero`, airplanes with singles compare their highest
    /// trio, kicker trios included, as DouZero does); bombs beat every non-bomb, a higher bomb
    /// (class, then rank; size first under long bombs and with two decks) a lower one; the
    /// rocket, or with two decks the four jokers, beats everything. A pass never beats and is
    /// never beaten.
    ///
    /// ```
    /// use ddz_core::{parse_move, Rules};
    /// let rules = Rules::classic();
    /// let pair_k = parse_move("KK", &rules, None).unwrap();
    /// let pair_q = parse_move("QQ", &rules, None).unwrap();
    /// let bomb = parse_move("3333", &rules, None).unwrap();
    /// assert!(pair_k.beats(&pair_q, &rules));
    /// assert!(bomb.beats(&pair_k, &rules) && !pair_k.beats(&bomb, &rules));
    /// ```
    #[inline]
    pub fn beats(&self, other: &Move, rules: &Rules) -> bool {
        match (self.kind(), other.kind()) {
            (Kind::Pass, _) | (_, Kind::Pass) => false,
            (Kind::FourJokers, k) => k != Kind::FourJokers,
            (_, Kind::FourJokers) => false,
            (Kind::Rocket, k) => k != Kind::Rocket,
            (_, Kind::Rocket) => false,
            (Kind::Bomb, Kind::Bomb) => self.bomb_strength().cmp(&other.bomb_strength()).is_gt(),
            (Kind::Bomb, _) => true,
            (_, Kind::Bomb) => false,
            (a, b) => {
                let same_shape = a == b
                    && self.length() == other.length()
                    && self.cards.len() == other.cards.len();
                if same_shape && a == Kind::AirplaneSingles && rules.readings == Readings::Douzero {
                    // DouZero compares airplanes with singles by their top trio, kickers included
                    // (none, possible only with wild cards, counts as the lowest rank).
                    let top = |cards: Cards| cards.top_trio().unwrap_or(Rank::Three);
                    return top(self.cards) > top(other.cards);
                }
                same_shape && self.main() > other.main()
            }
        }
    }

    /// (size, class, rank): the order of bombs.
    fn bomb_strength(&self) -> (u32, Option<BombClass>, Rank) {
        (self.cards.len(), self.class(), self.main())
    }

    /// The default-reading order of RULES.md section 3 between two readings of the same cards:
    /// `Greater` when `self` is preferred (more body cards, then higher main, then the kind that
    /// comes first in the table, then fewer wild cards standing for another rank).
    pub fn default_order(&self, other: &Move) -> Ordering {
        let substituted = |m: &Move| m.reading.saturating_minus(m.cards).len();
        self.body_cards()
            .cmp(&other.body_cards())
            .then(self.main().cmp(&other.main()))
            .then(other.kind().cmp(&self.kind()))
            .then(substituted(other).cmp(&substituted(self)))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl fmt::Display for Move {
    /// The explicit notation `cards[=reading]:kind:main` (`pass` for the pass), which always
    /// names the move exactly. [`crate::move_notation()`] gives the shortest form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        write!(f, "{}", self.cards)?;
        if self.reading != self.cards {
            write!(f, "={}", self.reading)?;
        }
        write!(f, ":{}:{}", self.kind(), self.main())
    }
}
