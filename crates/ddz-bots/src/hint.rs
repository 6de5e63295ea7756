//! Hints, ranked once for every surface (`ddz hint`, the terminal game, the web rooms): the
//! hint robot's choice first, then every other allowed play by the blog's score of what it
//! leaves (SumValue − 7 × NeedRound, [`Valuer::after`]), best first.

use ddz_core::{Cards, Move, Rules};
use ddz_game::SeatView;

use crate::Bot;
use crate::blog::{HandValue, Valuer};

/// The hints of the seat whose `view` this is, `bot` being its hint robot: the robot's play
/// among `allowed`, then [`rank_plays`] of the others. What `ddz hint` prints (with the
/// values), and what the terminal game and the web rooms cycle through ([`hints_by`]).
pub fn ranked_hints(
    bot: &mut dyn Bot,
    view: &SeatView,
    allowed: &[Move],
) -> Vec<(Move, HandValue)> {
    let choice = bot.play(view, allowed);
    rank_plays(choice, view.hand(), allowed, view.rules())
}

/// The hints a player cycles through, [`ranked_hints`] without the pass unless it is the
/// robot's choice.
pub fn hints_by(bot: &mut dyn Bot, view: &SeatView, allowed: &[Move]) -> Vec<Move> {
    let choice = bot.play(view, allowed);
    hints(choice, view.hand(), allowed, view.rules())
}

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
