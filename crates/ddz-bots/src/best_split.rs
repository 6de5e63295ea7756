//! The best split of a hand: the fewest plays that empty it when nobody else plays, ties
//! broken by the blog's hand value (seed-origins.md sections 2 and 5).
//!
//! # Definition
//!
//! A *split* of a hand is a set of plays whose cards add up exactly to the hand, each play a
//! legal lead move under the rules: kickers ride on trios, airplanes and four-with-two (and
//! Botzone's space shuttles) exactly as the rules allow, bombs and the rocket are plays, wild
//! cards take whatever reading the rules give them. The *best* split has
//!
//! 1. the fewest plays, then
//! 2. the highest sum of [`move_value`] over its plays (each set of cards taking its
//!    best-valued reading), then
//! 3. the first in this deterministic order: the groups are listed by their lowest card (the
//!    first group holds the hand's lowest card, the second the lowest card of the rest, and so
//!    on; cards by their physical rank, wild or not), and the first group that differs is the smaller in the order of kind (the RULES.md
//!    table order of [`Kind`]), then length, then main rank, then the cards' packed value
//!    ([`Cards::bits`]), then the reading's, then the bomb class. Among readings of one set of
//!    cards with the same value, the first in that order is kept.
//!
//! The search is exact: [`best_split`] is checked against an independent exhaustive search
//! (every partition of the hand into classified sub-multisets, listed in the order above) on
//! thousands of random hands of every profile, plays, value and groups alike.
//!
//! # Method
//!
//! A memoised depth-first search over the remaining cards (one `u64` key), with a budget of
//! plays:
//!
//! - The candidate plays are every legal lead move of the hand, generated once
//!   ([`for_each_legal_move`], so wild readings included), reduced to one entry per set of
//!   physical cards (its best-valued reading), and bucketed by their lowest rank. Whether a
//!   move is a legal lead depends only on its own cards, so the lead moves of any sub-hand
//!   are exactly the candidates whose cards it contains.
//! - The lowest card of the remaining hand belongs to some play of every split, so only the
//!   candidates whose lowest rank is that rank are tried: every split is reached, along one
//!   path (its plays taken in order of their lowest card).
//! - The search of a sub-hand has a budget: it finds the best split of at most that many plays,
//!   or reports that there is none. At the top the budget starts at a lower bound (the hand's
//!   size over the largest candidate's) and grows by one until a split is found. Inside, once a
//!   split of `k` plays is found, the other branches get a budget of `k − 1` for their rest.
//!   A sub-hand that must be one play is only looked up (every candidate is stored as a
//!   sub-hand of one play), and one larger than the budget times the largest candidate is cut
//!   at once. Results are stored exact when found, else as a lower bound on the plays.
//! - A branch is cut only when its rest needs more plays than the best split found so far
//!   would allow, that is when it would need strictly more plays in all. So every split with
//!   the fewest plays is met and compared on value and order: the cuts never change the
//!   result, only the time.
//!
//! # Cost
//!
//! Measured with `cargo bench -p ddz-bots --bench analysis` on seeded random hands (on a
//! shared 2-core VM): natural hands of 17 or 20 cards take well under a millisecond (median
//! about 0.05 ms); hands with wild cards a few milliseconds, the worst 20-card
//! heaven-and-earth hands a few tens. Candidate generation is part of that: a 20-card
//! heaven-and-earth hand has up to tens of thousands of lead moves. Both the candidates and
//! the sub-hands searched grow exponentially with the hand's size, and any hand up to the
//! full deck is accepted: 40 natural cards take up to about a second, the full 54-card deck
//! about a minute and 300 MB in classic rules. With wild cards big hands are far costlier:
//! the full deck has about a million lead moves with one wild rank and five million with two
//! (there its search did not end within ten minutes). Memory is about 50 bytes a sub-hand stored
//! and 100 a candidate play.
//!
//! ```
//! use ddz_bots::best_split::best_split;
//! use ddz_core::Rules;
//!
//! let split = best_split("3334445566BR".parse().unwrap(), &Rules::classic());
//! assert_eq!(split.plays, 2); // 333444+5566 and the rocket
//! assert_eq!(split.groups.len(), 2);
//! ```

use core::hash::{BuildHasherDefault, Hasher};
use core::ops::ControlFlow;
use std::collections::HashMap;

use ddz_core::{Cards, Kind, Move, Rank, Rules, for_each_legal_move};

use crate::analysis::move_value;

/// The best split of a hand (see the [module docs](self) for the order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestSplit {
    /// The fewest plays that empty the hand (0 for an empty hand).
    pub plays: usize,
    /// The sum of [`move_value`] over `groups`: the highest among splits of `plays` plays.
    pub value: i32,
    /// The plays, each a legal lead move, their cards adding up to the hand; listed by their
    /// lowest card (the first holds the hand's lowest card).
    pub groups: Vec<Move>,
}

/// The best split of `hand` under `rules` (see the [module docs](self)). A hand that is not
/// cards of one deck (more than four of a rank or two of a joker) has no legal play: its
/// result is empty (0 plays, no groups). To split many hands, or the sub-hands of one hand as
/// it is played, reuse a [`SplitSolver`].
///
/// ```
/// use ddz_bots::best_split::best_split;
/// use ddz_core::{Kind, Rules};
///
/// let split = best_split("3456789TJQKA".parse().unwrap(), &Rules::classic());
/// assert_eq!(split.plays, 1);
/// assert_eq!(split.groups[0].kind(), Kind::Straight);
/// assert_eq!(split.value, 14 - 9); // a straight topped by an A
/// ```
pub fn best_split(hand: Cards, rules: &Rules) -> BestSplit {
    SplitSolver::new(rules).solve(hand)
}

/// A best-split solver that keeps what it learns: the result of every sub-hand it solved (a
/// property of the sub-hand alone), and the candidate plays of the last hand it was given, so
/// that solving that hand's sub-hands (the same hand as its cards are played) is nearly free.
///
/// Memory grows with every sub-hand searched (about 50 bytes each; a 20-card hand adds up to
/// some tens of thousands, with wild cards); [`SplitSolver::clear`] empties it.
///
/// ```
/// use ddz_bots::best_split::SplitSolver;
/// use ddz_core::{Rank, Rules};
///
/// let rules = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
/// let mut solver = SplitSolver::new(&rules);
/// // With 9 wild, 3339 is a soft bomb of 3s (or 333 with the 9 as a kicker), 33394 is 333
/// // with a pair of 4s (the 9 standing for a 4), and a joker cannot pair with a wild card.
/// assert_eq!(solver.solve("3339".parse().unwrap()).plays, 1);
/// assert_eq!(solver.solve("33394".parse().unwrap()).plays, 1);
/// assert_eq!(solver.solve("3339B".parse().unwrap()).plays, 2);
/// ```
#[derive(Clone, Debug)]
pub struct SplitSolver {
    rules: Rules,
    /// Sub-hand → its exact result, or a lower bound on its plays.
    memo: HashMap<Cards, Entry, BuildHasherDefault<CardsHasher>>,
    /// The hand the candidates were generated for (`None` before the first solve).
    root: Option<Cards>,
    /// One candidate per legal lead card set of `root`, grouped by lowest rank (within a
    /// group: most cards first).
    candidates: Vec<Candidate>,
    /// The candidates' cards, apart for a fast scan.
    bits: Vec<Cards>,
    /// `candidates[starts[r]..starts[r + 1]]` have lowest rank index `r`.
    starts: [usize; 16],
    /// The most cards a candidate holds.
    max_cards: usize,
}

/// One legal lead card set with its best-valued reading.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    play: Move,
    value: i32,
    /// Position in the tie order among all candidates of the root hand.
    order: u32,
}

/// What the memo knows of a sub-hand.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Exact: the fewest plays; otherwise a lower bound on them.
    plays: u8,
    exact: bool,
    /// Exact only: the best value and the first play of the best split.
    value: i32,
    best: Move,
}

impl SplitSolver {
    /// A solver for `rules`, with nothing learnt yet.
    pub fn new(rules: &Rules) -> SplitSolver {
        SplitSolver {
            rules: rules.clone(),
            memo: HashMap::default(),
            root: None,
            candidates: Vec::new(),
            bits: Vec::new(),
            starts: [0; 16],
            max_cards: 1,
        }
    }

    /// The rules the solver splits under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The best split of `hand` (see [`best_split`]). The candidate plays are generated again
    /// only when `hand` is not part of the last hand they were generated for.
    pub fn solve(&mut self, hand: Cards) -> BestSplit {
        if hand.is_empty() || !of_one_deck(hand) {
            return BestSplit {
                plays: 0,
                value: 0,
                groups: Vec::new(),
            };
        }
        if !self.root.is_some_and(|r| r.contains(hand)) {
            self.build(hand);
        }
        // Raise the budget from a lower bound until a split fits: every card alone is a legal
        // single, so one is found with `len` plays at the latest.
        let len = hand.len() as usize;
        let (plays, value) = (len.div_ceil(self.max_cards)..=len)
            .find_map(|budget| self.search(hand, budget as u8))
            .expect("single cards split any hand of one deck");
        let mut groups = Vec::with_capacity(plays as usize);
        let mut rest = hand;
        while !rest.is_empty() {
            let play = self.memo[&rest].best;
            groups.push(play);
            rest = rest.minus(play.cards());
        }
        BestSplit {
            plays: plays as usize,
            value,
            groups,
        }
    }

    /// Forgets every sub-hand solved and the candidate plays.
    pub fn clear(&mut self) {
        self.memo.clear();
        self.root = None;
        self.candidates.clear();
        self.bits.clear();
    }

    /// Number of sub-hands the solver holds a result or bound for (one-play sub-hands
    /// included).
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Number of candidate plays (distinct legal lead card sets) of the last hand.
    pub fn candidate_count(&self) -> usize {
        self.candidates.len()
    }

    /// Generates the candidate plays of `hand`, and records each as a sub-hand of one play.
    fn build(&mut self, hand: Cards) {
        let mut all: Vec<(Move, i32)> = Vec::new();
        let _ = for_each_legal_move(hand, None, &self.rules, |m| {
            all.push((m, move_value(&m)));
            ControlFlow::<()>::Continue(())
        });
        // One entry per card set: the highest value, then the first in the tie order.
        all.sort_unstable_by(|a, b| {
            a.0.cards()
                .cmp(&b.0.cards())
                .then(b.1.cmp(&a.1))
                .then(tie_key(&a.0).cmp(&tie_key(&b.0)))
        });
        all.dedup_by(|later, kept| later.0.cards() == kept.0.cards());
        all.sort_unstable_by_key(|a| tie_key(&a.0));
        let mut candidates: Vec<Candidate> = all
            .iter()
            .enumerate()
            .map(|(i, &(play, value))| Candidate {
                play,
                value,
                order: i as u32,
            })
            .collect();
        // By lowest rank; within a rank, most cards first (small splits are found early).
        candidates.sort_unstable_by_key(|c| {
            let cards = c.play.cards();
            (lowest_index(cards), u32::MAX - cards.len(), cards)
        });
        let mut starts = [candidates.len(); 16];
        for (i, c) in candidates.iter().enumerate().rev() {
            starts[lowest_index(c.play.cards())] = i;
        }
        // Ranks without candidates start where the next rank does.
        for r in (0..15).rev() {
            starts[r] = starts[r].min(starts[r + 1]);
        }
        for c in &candidates {
            self.memo.insert(
                c.play.cards(),
                Entry {
                    plays: 1,
                    exact: true,
                    value: c.value,
                    best: c.play,
                },
            );
        }
        self.max_cards = candidates
            .iter()
            .map(|c| c.play.cards().len() as usize)
            .max()
            .unwrap_or(1);
        self.bits = candidates.iter().map(|c| c.play.cards()).collect();
        self.candidates = candidates;
        self.starts = starts;
        self.root = Some(hand);
    }

    /// The fewest plays and best value of `hand` (a sub-hand of the root) if it can be emptied
    /// in at most `budget` plays; `None` if it needs more.
    fn search(&mut self, hand: Cards, budget: u8) -> Option<(u8, i32)> {
        if hand.is_empty() {
            return Some((0, 0));
        }
        // No play holds more than `max_cards` cards.
        if budget == 0 || hand.len() as usize > budget as usize * self.max_cards {
            return None;
        }
        match self.memo.get(&hand) {
            Some(e) if e.exact => return (e.plays <= budget).then_some((e.plays, e.value)),
            Some(e) if e.plays > budget => return None,
            // Every sub-hand of one play is in the memo (from `build`).
            None if budget == 1 => return None,
            _ => {}
        }
        let low = lowest_index(hand);
        // (plays, value, order, index) of the best split found so far.
        let mut best: Option<(u8, i32, u32, usize)> = None;
        let mut limit = budget;
        for i in self.starts[low]..self.starts[low + 1] {
            if !hand.contains(self.bits[i]) {
                continue;
            }
            let Some((plays, value)) =
                self.search(hand.minus(self.bits[i]), limit.saturating_sub(1))
            else {
                continue;
            };
            let c = &self.candidates[i];
            let (plays, value) = (plays + 1, value + c.value);
            let better =
                best.is_none_or(|(p, v, o, _)| (plays, -value, c.order).cmp(&(p, -v, o)).is_lt());
            if better {
                best = Some((plays, value, c.order, i));
                limit = plays;
            }
        }
        match best {
            Some((plays, value, _, i)) => {
                let play = self.candidates[i].play;
                self.store(hand, plays, true, value, play);
                Some((plays, value))
            }
            None => {
                self.store(hand, budget + 1, false, 0, Move::PASS);
                None
            }
        }
    }

    fn store(&mut self, hand: Cards, plays: u8, exact: bool, value: i32, best: Move) {
        self.memo.insert(
            hand,
            Entry {
                plays,
                exact,
                value,
                best,
            },
        );
    }
}

/// The tie order of plays (module docs): kind, length, main rank, cards, reading, class.
fn tie_key(m: &Move) -> (Kind, u8, Rank, u64, u64, u8) {
    let class = m.class().map_or(0, |c| c as u8 + 1);
    (
        m.kind(),
        m.length(),
        m.main(),
        m.cards().bits(),
        m.reading().bits(),
        class,
    )
}

/// True if `cards` are cards of one deck. (`Cards::is_valid_deck_subset` overflows, a panic
/// in debug builds, when the big joker's count is 10 or more, which a `Cards` may hold.)
fn of_one_deck(cards: Cards) -> bool {
    Rank::ALL.iter().all(|&r| cards.count(r) <= r.deck_count())
}

/// Index of the lowest rank of non-empty `cards` (15 for no cards).
#[inline]
fn lowest_index(cards: Cards) -> usize {
    (cards.rank_mask().trailing_zeros() as usize).min(15)
}

/// A hasher for `Cards` keys: the SplitMix64 finaliser of the packed value (the default
/// SipHash is several times slower, and a plain multiply leaves the low bits, which pick the
/// bucket, depending on the lowest ranks only).
#[derive(Default)]
struct CardsHasher(u64);

impl Hasher for CardsHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let mut z = (self.0 ^ x).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = z ^ (z >> 31);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        s.parse().unwrap()
    }

    #[test]
    fn empty_and_invalid_hands_have_no_plays() {
        let rules = Rules::classic();
        assert_eq!(best_split(Cards::EMPTY, &rules).plays, 0);
        let five_threes = Cards::of(Rank::Three, 5);
        let split = best_split(five_threes, &rules);
        assert_eq!((split.plays, split.groups.len()), (0, 0));
    }

    #[test]
    fn solver_reuses_candidates_for_sub_hands() {
        let rules = Rules::classic();
        let mut solver = SplitSolver::new(&rules);
        assert_eq!(solver.solve(cards("33344456")).plays, 1);
        let n = solver.candidate_count();
        assert_eq!(solver.solve(cards("3334")).plays, 1);
        assert_eq!(solver.candidate_count(), n);
        assert_eq!(solver.solve(cards("BR3")).plays, 2);
        assert_ne!(solver.candidate_count(), n);
        assert!(solver.memo_len() > 0);
        solver.clear();
        assert_eq!(solver.memo_len(), 0);
    }

    #[test]
    fn hasher_spreads_low_bits() {
        let h = |c: u64| {
            let mut s = CardsHasher::default();
            s.write_u64(c);
            s.finish()
        };
        // Hands that differ only in high ranks land in different low bits.
        assert_ne!(h(1) & 0xFF, h(1 | 1 << 56) & 0xFF);
    }
}
