//! Physical cards (rank and suit) and sets of them, for dealing and display.
//!
//! Card ids follow Botzone's numbering: for ids 0-51, `id / 4` is the rank in the order
//! 3..A, 2 and `id % 4` the suit in the order ♥ ♦ ♠ ♣; 52 is the small joker, 53 the big
//! joker. Rules never look at suits: map a [`CardSet`] to [`Cards`] with
//! [`CardSet::to_cards`] before classifying.

use core::fmt;

use crate::cards::Cards;
use crate::rank::Rank;

/// A suit. Suits matter only for dealing and display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Hearts ♥ (red).
    Hearts,
    /// Diamonds ♦ (red).
    Diamonds,
    /// Spades ♠ (black).
    Spades,
    /// Clubs ♣ (black).
    Clubs,
}

impl Suit {
    /// The four suits in Botzone id order.
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Spades, Suit::Clubs];

    /// The suit's symbol: ♥ ♦ ♠ ♣.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Spades => '♠',
            Suit::Clubs => '♣',
        }
    }

    /// True for hearts and diamonds.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// One physical card, stored as its Botzone id 0..=53.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The small joker (id 52).
    pub const SMALL_JOKER: Card = Card(52);
    /// The big joker (id 53).
    pub const BIG_JOKER: Card = Card(53);

    /// The card with Botzone id `id`, or `None` past 53.
    #[inline]
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 54 { Some(Card(id)) } else { None }
    }

    /// The card of a suited rank (3..2) in a suit; `None` for a joker rank.
    #[inline]
    pub const fn suited(rank: Rank, suit: Suit) -> Option<Card> {
        if rank.is_joker() {
            None
        } else {
            Some(Card(rank as u8 * 4 + suit as u8))
        }
    }

    /// The Botzone id, 0..=53.
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The card's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        match self.0 {
            52 => Rank::SmallJoker,
            53 => Rank::BigJoker,
            id => Rank::ALL[(id / 4) as usize],
        }
    }

    /// The card's suit; `None` for a joker.
    #[inline]
    pub const fn suit(self) -> Option<Suit> {
        if self.0 >= 52 {
            None
        } else {
            Some(Suit::ALL[(self.0 % 4) as usize])
        }
    }
}

impl fmt::Display for Card {
    /// `♥3`, `♣T`, or `B`/`R` for the jokers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit() {
            Some(s) => write!(f, "{}{}", s.symbol(), self.rank()),
            None => write!(f, "{}", self.rank()),
        }
    }
}

/// A set of physical cards: bit `id` set for each card held, `Copy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 54 cards.
    pub const FULL_DECK: CardSet = CardSet((1 << 54) - 1);

    /// The set from its bits; `None` if a bit above 53 is set.
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits >> 54 == 0 {
            Some(CardSet(bits))
        } else {
            None
        }
    }

    /// The bits (bit `id` per card).
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// True if `card` is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// The set with `card` added.
    #[inline]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | (1 << card.0))
    }

    /// The set with `card` removed.
    #[inline]
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.0))
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True if the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards, lowest id first.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        (0u8..54)
            .filter(move |&id| self.0 & (1 << id) != 0)
            .map(Card)
    }

    /// The rank multiset of these cards.
    pub fn to_cards(self) -> Cards {
        // The four suits of rank r are bits 4r..4r+3, so each nibble's popcount is that rank's
        // count in `Cards`' packing (4 bits a rank); the big joker (bit 53) moves to its own
        // field (rank 14, bit 56).
        const ONES: u64 = 0x5555_5555_5555_5555;
        const TWOS: u64 = 0x3333_3333_3333_3333;
        let big = (self.0 >> 53) & 1;
        let x = self.0 & !(1 << 53);
        let x = x - ((x >> 1) & ONES);
        let x = (x & TWOS) + ((x >> 2) & TWOS);
        Cards::from_bits(x | big << 56).unwrap_or(Cards::EMPTY)
    }

    /// Picks physical cards of this set that make up `cards` (lowest ids of each rank first),
    /// or `None` if the set lacks some of them.
    pub fn take(self, cards: Cards) -> Option<CardSet> {
        let mut out = CardSet::EMPTY;
        for rank in cards.ranks() {
            let want = cards.count(rank) as usize;
            let of_rank: Vec<Card> = self
                .iter()
                .filter(|c| c.rank() == rank)
                .take(want)
                .collect();
            if of_rank.len() < want {
                return None;
            }
            out = of_rank.into_iter().fold(out, CardSet::with);
        }
        Some(out)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        iter.into_iter().fold(CardSet::EMPTY, CardSet::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_cards_counts_each_card_by_rank() {
        // Every set of a sampled family (each card, then growing unions) against counting the
        // cards one by one.
        let mut set = CardSet::EMPTY;
        for id in (0u8..54).chain((0u8..54).rev().step_by(5)) {
            let card = Card::from_id(id).unwrap();
            let one = CardSet::EMPTY.with(card);
            assert_eq!(one.to_cards(), Cards::single(card.rank()), "card {id}");
            set = set.with(card);
            let counted: Cards = set.iter().map(Card::rank).collect();
            assert_eq!(set.to_cards(), counted);
        }
        assert_eq!(set.to_cards(), Cards::FULL_DECK);
    }

    #[test]
    fn ids_map_to_ranks_and_suits() {
        assert_eq!(Card::from_id(0).unwrap().rank(), Rank::Three);
        assert_eq!(Card::from_id(0).unwrap().suit(), Some(Suit::Hearts));
        assert_eq!(Card::from_id(51).unwrap().rank(), Rank::Two);
        assert_eq!(Card::from_id(51).unwrap().suit(), Some(Suit::Clubs));
        assert_eq!(Card::SMALL_JOKER.rank(), Rank::SmallJoker);
        assert_eq!(Card::BIG_JOKER.suit(), None);
        assert_eq!(Card::from_id(54), None);
        assert_eq!(Card::suited(Rank::Ace, Suit::Spades).unwrap().id(), 46);
        assert_eq!(Card::suited(Rank::BigJoker, Suit::Spades), None);
    }

    #[test]
    fn full_deck_maps_to_full_cards() {
        assert_eq!(CardSet::FULL_DECK.to_cards(), Cards::FULL_DECK);
        let taken = CardSet::FULL_DECK.take("3345BR".parse().unwrap()).unwrap();
        assert_eq!(taken.to_cards().to_string(), "3345BR");
        assert_eq!(CardSet::EMPTY.take("3".parse().unwrap()), None);
    }
}
