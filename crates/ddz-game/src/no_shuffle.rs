//! No-shuffle deals (不洗牌, RULES.md section 7): the bomb-rich deals of the apps' no-shuffle
//! rooms, seedable and portable with their own generator, SplitMix64.
//!
//! 1. The pile: the 15 rank groups (ranks 3..2 of four ids each, then the small joker, then
//!    the big joker) in an order shuffled by Fisher-Yates, ids ascending in each group, or the
//!    caller's pile (the previous game's cards in gather order, [`gather_pile`]).
//! 2. `cuts` cuts at `1 + below(53)`.
//! 3. `swaps` swaps of the cards at `below(54)` and `below(54)`.
//! 4. Chunks (6, 6, 5 by default): for each chunk size, each seat from the first seat takes
//!    the next cards; the last 3 are the kitty.
//! 5. While the hands hold fewer than `min_bombs` bombs, back to step 1 on the same stream, at
//!    most `max_attempts` tries; the first deal with the most bombs wins.
//!
//! ```
//! use ddz_core::NoShuffle;
//! use ddz_game::{Seat, deal_no_shuffle};
//!
//! let dealt = deal_no_shuffle(1, Seat::ALL[0], &NoShuffle::DEFAULT, None);
//! assert_eq!(dealt.deal.hands[Seat::ALL[0]].to_cards().to_string(), "347799TTQQQQAAAA2");
//! assert_eq!(dealt.deal.kitty.to_cards().to_string(), "899");
//! assert_eq!(dealt.bombs, 5);
//! ```

use ddz_core::{Card, CardSet, NoShuffle, Rank};

use crate::seat::{BySeat, Seat};

/// SplitMix64 as RULES.md section 7 writes it (the step of [`crate::derive_seed`]): the state
/// starts at the seed and each draw adds the golden ratio and mixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator with its state at `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw from `0..n` (`n` > 0; 0 gives 0): `t = (2^64 - n) mod n`, draw `x`
    /// until `x ≥ t`, return `x mod n`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let t = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= t {
                return x % n;
            }
        }
    }
}

/// The bombs the hands hold: each four of a kind whole in one hand, and both jokers in one
/// hand, count 1 (the kitty is not a hand).
pub fn count_bombs(hands: &BySeat<CardSet>) -> u32 {
    hands
        .0
        .iter()
        .map(|h| {
            let cards = h.to_cards();
            let fours = Rank::SUITED
                .iter()
                .filter(|&&r| cards.count(r) == 4)
                .count() as u32;
            let rocket = cards.count(Rank::SmallJoker) > 0 && cards.count(Rank::BigJoker) > 0;
            fours + u32::from(rocket)
        })
        .sum()
}

/// The card ids of rank group `g` (0..=14), ascending.
fn group(g: usize) -> impl Iterator<Item = Card> {
    let ids = match g {
        0..=12 => 4 * g as u8..4 * g as u8 + 4,
        13 => 52..53,
        _ => 53..54,
    };
    ids.filter_map(Card::from_id)
}

/// Step 1 from the generator: the 15 groups in a Fisher-Yates order.
pub(crate) fn groups_pile(g: &mut SplitMix64) -> Vec<Card> {
    let mut order: [usize; 15] = core::array::from_fn(|i| i);
    for i in (1..15).rev() {
        let j = g.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order.into_iter().flat_map(group).collect()
}

/// A pile of 54 different cards, or `None`.
pub(crate) fn whole_deck(pile: &[Card]) -> Option<Vec<Card>> {
    let set: CardSet = pile.iter().copied().collect();
    (pile.len() == 54 && set == CardSet::FULL_DECK).then(|| pile.to_vec())
}

/// Steps 2-4 on `pile`: cuts, swaps, then the chunks from `first`: each seat's cards in the order received and the kitty.
pub(crate) fn cut_swap_deal(
    g: &mut SplitMix64,
    mut pile: Vec<Card>,
    first: Seat,
    params: &NoShuffle,
) -> (BySeat<Vec<Card>>, Vec<Card>) {
    for _ in 0..params.cuts {
        let c = 1 + g.below(53) as usize;
        pile.rotate_left(c);
    }
    for _ in 0..params.swaps {
        let i = g.below(54) as usize;
        let j = g.below(54) as usize;
        pile.swap(i, j);
    }
    let mut order: BySeat<Vec<Card>> = BySeat::default();
    let mut next = pile.into_iter();
    for &k in params.chunks.as_slice() {
        let mut seat = first;
        for _ in 0..3 {
            order[seat].extend(next.by_ref().take(usize::from(k)));
            seat = seat.next();
        }
    }
    let kitty: Vec<Card> = next.collect();
    (order, kitty)
}

/// The previous game's cards in gather order, the pile of `source: previous`: every play in
/// order (`plays`, each play's ids ascending), then the cards left in the hands from the
/// landlord in seat order (from seat 0 when there is none yet), then whatever of the deck is
/// in none of them (the kitty, before it is taken).
pub fn gather_pile(
    plays: &[CardSet],
    hands: &BySeat<CardSet>,
    landlord: Option<Seat>,
) -> Vec<Card> {
    let mut pile: Vec<Card> = Vec::with_capacity(54);
    let mut seen = CardSet::EMPTY;
    let mut put = |set: CardSet, pile: &mut Vec<Card>| {
        for c in set.iter() {
            if !seen.contains(c) {
                seen = seen.with(c);
                pile.push(c);
            }
        }
    };
    for &p in plays {
        put(p, &mut pile);
    }
    let mut seat = landlord.unwrap_or(Seat::ALL[0]);
    for _ in 0..3 {
        put(hands[seat], &mut pile);
        seat = seat.next();
    }
    put(CardSet::FULL_DECK, &mut pile);
    pile
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_follows_the_written_rule() {
        // n = 1 always gives 0; n a power of two never redraws.
        let mut g = SplitMix64::new(9);
        assert_eq!(g.below(1), 0);
        let mut a = SplitMix64::new(3);
        let mut b = SplitMix64::new(3);
        assert_eq!(a.below(8), b.next_u64() % 8);
        assert_eq!(SplitMix64::new(5).below(0), 0);
    }

    #[test]
    fn the_first_draw_is_derive_seeds_step() {
        // derive_seed(m, 0) is one SplitMix64 step from m.
        assert_eq!(SplitMix64::new(77).next_u64(), crate::derive_seed(77, 0));
    }
}
