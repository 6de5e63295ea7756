//! Deals at a table of any size (docs/variants.md): the hands of `two` and `four` as rank
//! multisets, the first part of the engine at two and four seats.
//!
//! A [`TableDeal`] holds [`Cards`], not physical cards: a physical card set holds one deck
//! (54 ids), and the second deck of `four` has ids 54-107. The deal is the one docs/variants.md
//! gives, so the physical deal that will come with the four-seat game deals the same hands:
//! the deck's card ids in order (deck by deck, each in Botzone id order, without the removed
//! ranks), shuffled by [`shuffle`] with [`rng`]`(seed)`; seat i takes the i-th run of
//! [`Rules::hand_cards`] cards, the kitty the next [`Rules::kitty_cards`], and the rest is out
//! of play. At the classic table this is [`crate::Deal::from_seed`]'s deal.
//!
//! ```
//! use ddz_core::Rules;
//! use ddz_game::{Seat, TableDeal};
//!
//! let deal = TableDeal::<4>::from_seed(7, &Rules::four()).unwrap();
//! assert_eq!(deal.hands[Seat::ALL[0]].len(), 25);
//! assert_eq!(deal.kitty.len(), 8);
//! assert_eq!(deal.landlord_hands(Seat::ALL[0])[Seat::ALL[0]].len(), 33);
//! ```

use core::fmt;

use ddz_core::{Card, Cards, Rank, Rules};

use crate::seat::{BySeat, Seat};
use crate::shuffle::{rng, shuffle};

/// One deal at an `N`-seat table: each seat's cards before the kitty, the kitty, and the cards
/// out of play (the 9 of `two`, hidden from both seats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableDeal<const N: usize> {
    /// Each seat's cards ([`Rules::hand_cards`] each).
    pub hands: BySeat<Cards, N>,
    /// The kitty (底牌, [`Rules::kitty_cards`]).
    pub kitty: Cards,
    /// The cards out of play ([`Rules::out_of_play_cards`]).
    pub out_of_play: Cards,
}

/// Rules whose table is not `N` seats, or whose deck is too small for the deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The seats asked for.
    pub seats: usize,
    /// What is wrong with the rules.
    pub why: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a deal at {} seats: {}", self.seats, self.why)
    }
}

impl std::error::Error for TableError {}

impl<const N: usize> TableDeal<N> {
    /// The deal of `seed` under `rules` (see the module's documentation); an error when the
    /// rules' table is not `N` seats or their deck cannot fill it.
    pub fn from_seed(seed: u64, rules: &Rules) -> Result<TableDeal<N>, TableError> {
        let error = |why: String| TableError { seats: N, why };
        if usize::from(rules.seats) != N {
            return Err(error(format!(
                "the {} rules seat {} players",
                rules.profile, rules.seats
            )));
        }
        let mut deck = deck_ranks(rules);
        let hand = rules.hand_cards() as usize;
        let dealt = N * hand + rules.kitty_cards() as usize;
        if deck.len() < dealt {
            return Err(error(format!(
                "the deck has {} cards, fewer than the {dealt} dealt",
                deck.len()
            )));
        }
        shuffle(&mut rng(seed), &mut deck);
        let cards = |ranks: &[Rank]| ranks.iter().fold(Cards::EMPTY, |c, &r| c.add(r, 1));
        Ok(TableDeal {
            hands: BySeat::from_fn(|s| cards(&deck[hand * s.index()..hand * (s.index() + 1)])),
            kitty: cards(&deck[N * hand..dealt]),
            out_of_play: cards(&deck[dealt..]),
        })
    }

    /// The hands at the start of play with `landlord` holding the kitty.
    pub fn landlord_hands(&self, landlord: Seat) -> BySeat<Cards, N> {
        let mut hands = self.hands;
        hands[landlord] = hands[landlord].union(self.kitty);
        hands
    }
}

/// The rules' deck as the ranks of its card ids in deal order: deck by deck, each in Botzone
/// id order, without the removed ranks.
fn deck_ranks(rules: &Rules) -> Vec<Rank> {
    let one_deck = (0..54u8).filter_map(Card::from_id).map(Card::rank);
    let one_deck: Vec<Rank> = one_deck
        .filter(|&r| !rules.removed_ranks.contains(r))
        .collect();
    one_deck.repeat(usize::from(rules.decks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Deal;

    #[test]
    fn three_seats_deal_as_the_classic_deal() {
        let rules = Rules::classic();
        for seed in 0..50 {
            let table = TableDeal::<3>::from_seed(seed, &rules).unwrap();
            let deal = Deal::from_seed(seed, &rules);
            assert_eq!(table.hands, BySeat::from_fn(|s| deal.hands[s].to_cards()));
            assert_eq!(table.kitty, deal.kitty.to_cards());
            assert!(table.out_of_play.is_empty());
        }
    }

    #[test]
    fn variant_deals_hold_the_whole_deck() {
        for (rules, hand, kitty, out) in [(Rules::two(), 17, 3, 9), (Rules::four(), 25, 8, 0)] {
            for seed in 0..50 {
                let (hands, k, o): (Vec<Cards>, Cards, Cards) = match rules.seats {
                    2 => {
                        let d = TableDeal::<2>::from_seed(seed, &rules).unwrap();
                        (d.hands.0.to_vec(), d.kitty, d.out_of_play)
                    }
                    _ => {
                        let d = TableDeal::<4>::from_seed(seed, &rules).unwrap();
                        (d.hands.0.to_vec(), d.kitty, d.out_of_play)
                    }
                };
                assert!(hands.iter().all(|h| h.len() == hand));
                assert_eq!((k.len(), o.len()), (kitty, out));
                let all = hands.iter().fold(k.union(o), |a, &h| a.union(h));
                assert_eq!(all, rules.deck(), "{} seed {seed}", rules.profile);
            }
        }
    }

    #[test]
    fn the_wrong_table_is_refused() {
        let e = TableDeal::<4>::from_seed(1, &Rules::two()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a deal at 4 seats: the two rules seat 2 players"
        );
    }
}
