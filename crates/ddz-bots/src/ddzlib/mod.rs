//! The ddzlib robot (seed 004, qmarliu/ddzlib): its split (拆牌), hand count (手数) and the
//! rule robot that leads and follows by the split. Re-implemented from the seed's design text
//! and from the description in `seed-origins.md` (section 3.5); no code of the original.
//!
//! ```
//! use ddz_bots::ddzlib::{hand_count, split};
//! use ddz_core::Rules;
//!
//! let rules = Rules::classic();
//! let hand = "22AAKQJ9987776654".parse().unwrap();
//! let groups: Vec<String> = split(hand, &rules).iter().map(|m| m.cards().to_string()).collect();
//! assert_eq!(groups, ["456789", "77", "AA", "22", "6", "9", "J", "Q", "K"]);
//! assert_eq!(hand_count(hand, &rules), 9);
//! ```
//!
//! # The split
//!
//! On a natural hand (no wild card), groups are taken in this order:
//!
//! 1. the rocket;
//! 2. bombs (four of a rank, 3..2);
//! 3. airplanes (trio chains within 3..A), the longest run first, repeated;
//! 4. straights:
//!    - (a) runs of five or more ranks among the cards that are not trios, the longest first,
//!      repeated (a rank held twice gives one card to each straight through it);
//!    - (b) a trio whose rank completes a run of five or more with the other cards around it
//!      gives one card to that straight and becomes a pair (4566678 → 45678 + 66; the README
//!      hand's 4 5 66 777 8 99 → 456789 + 6 + 77 + 9), then (a) runs again on what is left
//!      (44 55 666 77 88 → 45678, then 45678 again);
//!    - (c) a trio next to a straight gives one card to extend it through the loose cards
//!      (ranks held once) beyond, or into the straight beyond, and becomes a pair: 45678 +
//!      999 + TJ → 456789TJ + 99; done only when a loose card or a straight is absorbed, so it
//!      never costs a group (34567 + 888 stay as they are);
//!    - two identical straights become one pair chain (34567 + 34567 → 3344556677);
//! 5. trios (3..2);
//! 6. pair chains: the merged straights, then runs of three or more pairs, the longest first;
//! 7. pairs (3..2);
//! 8. singles: every card left.
//!
//! [`split`] returns the groups in that order (straights in the order found), each a move of
//! the hand's physical cards with no kickers: kickers are chosen when playing.
//!
//! Rule choices:
//! - every profile allows the groups the split makes (singles, pairs, trios, straights, pair
//!   chains, airplanes, bombs, the rocket) with the classic lengths. A run longer than a kind
//!   allows is cut into as few, as even legal chains as possible: twelve pairs 3..A (ddzlib's
//!   own test data has this 24-card pair chain) become two pair chains of six, since pair
//!   chains stop at ten pairs. Only a pile larger than a hand can hold such a run (a straight
//!   never passes 3..A; seven trios are 21 cards);
//! - bombs are four cards: a natural reading never holds more than four of a rank, so the
//!   robot never makes or plays a long bomb (heaven-and-earth) on purpose.
//!
//! # Wild cards
//!
//! With wild cards in hand every natural reading of them ([`crate::analysis::wild_readings`])
//! is split, and the split kept is the one with the fewest groups, then the highest sum of
//! [`crate::analysis::move_value`], then the strongest bombs (the value table cannot see a bomb's
//! class: a pure wild bomb beats every hard one), then the first. Its groups are turned back
//! into moves of physical cards with [`crate::analysis::realise`], one group at a time: natural
//! cards go first to the smallest groups, then wild cards of the needed rank, then the lowest
//! wild cards, so that no group is left made only of wild cards standing for another rank (not
//! a valid play). A reading whose groups cannot all be played is skipped for the next best.
//! The original's special order (pure wild bomb, then hard bombs, then soft bombs) falls out of
//! the search: 99992222BR with 9 wild splits as the rocket, the pure bomb 9999 and 2222.
//!
//! # The robot
//!
//! [`DdzlibBot`] splits its hand at each decision (keeping the last split while the hand does
//! not change) and answers from the groups.
//!
//! Leading, first rule that applies:
//! - play the whole hand if it is one allowed play;
//! - a farmer whose next seat is its teammate holding one card leads its smallest card;
//! - the groups other than bombs, smallest first (lowest rank; on a tie single, pair, pair
//!   chain, straight, airplane, trio); against an opponent on one card (报单) singles are left
//!   for last, against an opponent on two cards (报双) pairs; when only singles remain against
//!   a one-card opponent they go from the biggest down; when only pairs remain against a
//!   two-card opponent the smallest pair is split and one of its cards led;
//! - surplus rule: a single or pair is led alone only while trios ≤ singles + pairs − 2 (every
//!   trio of an airplane counts); otherwise the smallest trio or airplane goes with them as
//!   kickers;
//! - a trio carries the smallest single, else the smallest pair, else nothing; an airplane of
//!   n trios carries n singles (topped up with the bottom cards of straights of 6 or more when
//!   some singles exist), else n pairs (topped up with the bottom pairs of pair chains of 4 or
//!   more), else, with fewer kickers, it is shortened from the top to the kickers there are (a
//!   single trio then carries one), else it goes bare. A 2 or a joker is never a kicker unless
//!   only two hands are left;
//! - bombs last, weakest first (soft, hard, pure, by rank), the rocket last of all.
//!
//! Following a play, first rule that applies:
//! - a rocket: pass;
//! - a single while an opponent holds one card: the landlord, and the farmer just before the
//!   landlord when the landlord holds one card, follow with their biggest card not in a bomb
//!   (the landlord bombs if no such card beats it; the farmer never bombs its teammate);
//! - a group of the same type that beats it (a trio or airplane with the kickers the table
//!   wants), smallest first;
//! - a teammate's play: follow a single or pair with such a group only below J (JJ) unless the
//!   landlord holds one or two cards; pass everything else;
//! - with at most one group left besides bombs: bomb;
//! - split a group, by the ladder of the table's type:
//!   - single: a 2 out of a pair or trio of 2s, a pair, the top of a straight of 6 or more, a
//!     trio, an airplane, the top of a straight of 5, a pair chain;
//!   - pair: the top pair of a pair chain of 4 or more, a trio, any pair chain, an airplane;
//!   - trio (with or without kickers): a trio out of an airplane;
//!   - airplane: a shorter airplane out of a longer one;
//!   - straight: a pair chain of the same length, an airplane of the same length, a longer
//!     straight, a longer pair chain, an airplane of another length;
//!   - pair chain: a longer pair chain, an airplane of another length, an airplane of the same
//!     length;
//!   - four with two, space shuttles (Botzone), bombs: nothing to split;
//!
//!   where several pieces of a group beat the table, the one with the fewest wild cards, then
//!   the lowest (for a "top" step the highest) is taken;
//! - bomb or rocket, weakest first;
//! - pass.
//!
//! Kickers when following come by the splitting order: singles from single groups, pairs,
//! the bottom cards of straights of 6 or more, trios, airplanes, straights of 5, pair chains;
//! pairs from pair groups, the bottom pairs of pair chains of 4 or more, trios, pair chains,
//! airplanes. A 2 or a joker is a kicker only when the play leaves at most one hand.
//!
//! The robot plays only moves of `allowed`. Its choices come as a list, best first; the first
//! one allowed (or an allowed reading of the same cards) is played. If none is, leading plays
//! the smallest allowed play (non-bombs first, then the lowest main rank, then the fewest
//! cards), following passes if allowed, else plays the smallest allowed play the same way.
//!
//! Bidding (the seed has none): see [`desired_bid`]. Points bidding bids it when allowed, else
//! passes; call-and-rob calls with a desired bid of 1 or more and robs with 2 or more.
//!
//! # Fixes against the original
//!
//! - The lead against an opponent on two cards (报双) tested the one-card condition (报单);
//!   here 报双 keeps pairs for last and splits the smallest pair when only pairs remain.
//! - The next-seat test `(landlord − seat) % 3 == 1` went wrong for negative values; seats are
//!   compared with [`ddz_game::Seat::next`] and [`ddz_game::Role`].
//! - The farmer lead rule replaced every lead by the smallest card when the next seat was the
//!   teammate; here only when the teammate holds exactly one card.
//! - Empty lists were popped (`v.pop_back()` on an empty vector); every choice here is an
//!   `Option` or a possibly empty list, and the robot never panics.
//! - Face/code confusion (`Card(14)` read as a joker): does not arise, ranks are one
//!   [`ddz_core::Rank`] type from 3 to the big joker.
//! - Beating plays were sampled through sliding windows and missed some; here the pieces of a
//!   group are every move of the kind it holds ([`ddz_core::moves_of_kind`]), the bombs are
//!   checked with [`ddz_core::Move::beats`], and the answer is always one of `allowed`.
//! - The README's recombination of a straight with a trio and the loose cards beyond it
//!   (45678 + 999 + TJ → 456789TJ + 99) was not implemented; it is here (step 4c).
//! - Wild cards were read by per-length formulas with joker leaks and missing readings; here
//!   every natural reading is tried and the moves are checked by [`ddz_core::read_as`].

mod ladders;
mod robot;
mod split;

use ddz_core::{Cards, Move, Rules};

pub use robot::{DdzlibBot, ddzlib_bid, desired_bid};

/// The ddzlib split of `hand` under `rules`: groups in the order found (rocket, bombs,
/// airplanes, straights, trios, pair chains, pairs, singles), each a legal move of the hand's
/// cards with no kickers; the groups' cards add up to the hand. With wild cards the best split
/// over every reading of them (see the [module docs](self)).
///
/// ```
/// use ddz_bots::ddzlib::split;
/// use ddz_core::Rules;
/// let groups = split("4566678".parse().unwrap(), &Rules::classic());
/// let names: Vec<String> = groups.iter().map(|m| m.cards().to_string()).collect();
/// assert_eq!(names, ["45678", "66"]);
/// ```
pub fn split(hand: Cards, rules: &Rules) -> Vec<Move> {
    split::split_hand(hand, rules)
}

/// The hand count (手数) of `hand`: how many plays it needs when nobody beats them, the
/// number of groups of [`split`].
///
/// ```
/// use ddz_bots::ddzlib::hand_count;
/// use ddz_core::Rules;
/// assert_eq!(hand_count("22AAKQJ9987776654".parse().unwrap(), &Rules::classic()), 9);
/// ```
pub fn hand_count(hand: Cards, rules: &Rules) -> usize {
    split(hand, rules).len()
}
