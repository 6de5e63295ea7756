//! Hints, ranked once for every surface (`ddz hint`, the terminal game, the web rooms): the
//! hint robot's choice first, then every other allowed play by the blog's score of what it
//! leaves (SumValue − 7 × NeedRound, [`Valuer::after`]), best first.

use ddz_core::{Cards, Move, Rules};

use crate::blog::{HandValue, Valuer};

/// Every move of `allowed` with the value of the hand it leaves: `choice` (the hint robot's
/// move) first, then the others best first by [`HandValue::score`], ties in `allowed`'s order.
pub fn rank_plays(
    choice: Move,
    hand: Cards,
    allowed: &[Move],
    rules: &Rules,
) -> Vec<(Move, HandValue)> {
    let mut valuer = Valuer::new();
    let mut ranked: Vec<(Move, HandValue)> = allowed
        .iter()
        .map(|&m| (m, valuer.after(hand, &m, rules)))
        .collect();
    ranked.sort_by_key(|(m, v)| (*m != choice, -v.score()));
    ranked
}

/// The hints a player cycles through: [`rank_plays`] without the pass unless it is the
/// robot's choice.
pub fn hints(choice: Move, hand: Cards, allowed: &[Move], rules: &Rules) -> Vec<Move> {
    rank_plays(choice, hand, allowed, rules)
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| *m == choice || !m.is_pass())
        .collect()
}
