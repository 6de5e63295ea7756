//! The `value` robot: the blog's lead and follow policies and bidding thresholds
//! ([`crate::blog`]), made to play under any rules.
//!
//! Each decision reads the hand's wild cards once, as the ranks that give the best hand value
//! ([`Valuer::good_reading`]: every reading of one wild card, a local search for more), runs
//! the blog's policy on that natural hand, and turns the group chosen back into a move of the
//! physical cards. When that move is not among the allowed ones (a rule profile the blog does
//! not follow, such as kickers it may not carry, or a controller's narrower list) the robot
//! falls back on the blog's own criterion over the allowed moves: the play whose remainder
//! scores best (`SumValue − 7 · NeedRound`, later moves winning ties); when following, passing
//! counts as the whole hand with one more round, and a bomb or the rocket is played only as the
//! blog would (a better remainder, or one worth anything at all).
//!
//! Bidding: points bidding bids the blog's threshold on the hand's SumValue (below 10 nothing,
//! 10-14 one, 15-19 two, 20 and more three) when it is above the current bid, else passes.
//! Call-and-rob calls from 10 (a one-point hand) and robs from 15 (a two-point hand).
//!
//! Like the original, the robot knows nothing of its teammate or of the cards played.

use ddz_core::{Bidding, Cards, Move, Rules};
use ddz_game::{Bid, SeatView};

use crate::Bot;
use crate::analysis::realise;
use crate::blog::{HandValue, Valuer, land_score};

/// SumValue from which call-and-rob calls (a one-point hand).
pub const CALL_FROM: i32 = 10;
/// SumValue from which call-and-rob robs (a two-point hand).
pub const ROB_FROM: i32 = 15;

/// The blog's robot. Deterministic; its memo of hand values lives as long as the robot.
#[derive(Default)]
pub struct ValueBot {
    valuer: Valuer,
}

impl ValueBot {
    /// A value robot with an empty memo.
    pub fn new() -> ValueBot {
        ValueBot::default()
    }

    /// The blog's choice from `hand` (`last` the play to beat), as a move of the physical
    /// cards; `Some(PASS)` for a pass; `None` if the group chosen is not a valid play under
    /// `rules`.
    pub fn blog_choice(&mut self, hand: Cards, last: Option<&Move>, rules: &Rules) -> Option<Move> {
        let (reading, _) = self.valuer.good_reading(hand, rules);
        let group = match last {
            None => self.valuer.lead(reading),
            Some(table) => self.valuer.follow(reading, table),
        };
        match group {
            None => Some(Move::PASS),
            Some(g) => realise(hand, &[(g.cards, g.kind, g.main)], rules)
                .and_then(|moves| moves.first().copied()),
        }
    }

    /// The value of `hand` at a good wild reading ([`Valuer::good_reading`]).
    fn value(&mut self, hand: Cards, rules: &Rules) -> HandValue {
        self.valuer.good_reading(hand, rules).1
    }

    /// The blog's criterion over the allowed moves (see the module docs).
    fn fallback(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        let hand = view.hand();
        let rules = &view.rules();
        let following = view.last().is_some() && allowed.contains(&Move::PASS);
        // Passing leaves the whole hand and hands the opponents a round.
        let mut best_score = self.valuer.after(hand, &Move::PASS, rules).score();
        let mut best = following.then_some(Move::PASS);
        for &m in allowed {
            if m.is_pass() || (following && m.kind().is_bomb_like()) {
                continue;
            }
            let rest = self.valuer.after(hand, &m, rules);
            if best.is_none() || best_score <= rest.score() {
                best_score = rest.score();
                best = Some(m);
            }
        }
        if following && best == Some(Move::PASS) {
            for &m in allowed.iter().filter(|m| m.kind().is_bomb_like()) {
                let rest = self.valuer.after(hand, &m, rules);
                if best_score <= rest.score() || rest.sum_value > 0 {
                    best_score = rest.score();
                    best = Some(m);
                }
            }
        }
        best.or_else(|| allowed.first().copied())
            .unwrap_or(Move::PASS)
    }
}

impl Bot for ValueBot {
    fn name(&self) -> &str {
        "value"
    }

    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        let sum = self.value(view.hand(), view.rules()).sum_value;
        let want = match view.rules().bidding {
            Bidding::Points => land_score(sum),
            _ => {
                let called = view.bids().iter().any(|&(_, b)| b > 0);
                u8::from(sum >= if called { ROB_FROM } else { CALL_FROM })
            }
        };
        if allowed.contains(&want) {
            want
        } else if allowed.contains(&0) {
            0
        } else {
            allowed.first().copied().unwrap_or(0)
        }
    }

    /// The blog's SumValue against thresholds ([`crate::stakes::value_factor`]).
    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        let sum = self.value(view.hand(), view.rules()).sum_value;
        let landlord = view.landlord() == Some(view.seat());
        crate::stakes::factor_at_most(allowed, crate::stakes::value_factor(sum, landlord))
    }

    /// The blog's SumValue against a threshold ([`crate::stakes::value_show`]).
    fn show(&mut self, view: &SeatView, _factor: u32) -> bool {
        if !crate::stakes::show_window_worth(view) {
            return false;
        }
        let sum = self.value(view.hand(), view.rules()).sum_value;
        crate::stakes::value_show(view, sum)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        let last = view.last().map(|(_, m)| m);
        match self.blog_choice(view.hand(), last.as_ref(), view.rules()) {
            Some(m) if allowed.contains(&m) => m,
            _ => self.fallback(view, allowed),
        }
    }
}
