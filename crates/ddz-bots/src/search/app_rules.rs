//! The search robot's doubling (加倍) and showing (明牌) decisions (RULES.md section 7), by
//! its side's estimated chance of winning: [`SearchBot::decide_double`] and
//! [`SearchBot::decide_show`]. See docs/robots.md.

use ddz_core::{Cards, Rank};
use ddz_game::{Budget, BySeat, Seat, SeatView, derive_seed};

use super::SearchBot;
use super::bidding::chance_by_playouts;
use crate::stakes::{self, factor_at_most};

/// Most playouts one doubling or show estimate takes under a count budget.
const MAX_STAKE_PLAYOUTS: u64 = 500;

/// The side's chance from which the search robot doubles (x2).
const DOUBLE_FROM: f64 = 0.55;
/// The side's chance from which the search robot super-doubles (x4).
const SUPER_DOUBLE_FROM: f64 = 0.7;
/// The landlord's chance from which the search robot shows its hand after doubling.
const SHOW_FROM: f64 = 0.8;

impl SearchBot {
    /// The doubling factor among `allowed` for the seat of `view` (the landlord has taken the
    /// kitty), by the chance that its side wins (over sampled deals of the hidden cards, played
    /// out by `ddzlib`): x4 from 0.7, x2 from 0.55, else 1; as `ddzlib` when no estimate can
    /// be made.
    pub fn decide_double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        if allowed.len() < 2 {
            return factor_at_most(allowed, 1);
        }
        self.decisions += 1;
        let seed = derive_seed(self.seed, self.decisions);
        match side_chance(view, self.config.budget_for(view.rules()), seed) {
            Some(p) if p >= SUPER_DOUBLE_FROM => factor_at_most(allowed, 4),
            Some(p) if p >= DOUBLE_FROM => factor_at_most(allowed, 2),
            Some(_) => factor_at_most(allowed, 1),
            None => stakes::ddzlib_double(view, allowed),
        }
    }

    /// Whether the seat of `view` shows its hand now: as the landlord after doubling, when its
    /// estimated chance (as for doubling) is at least 0.8; during the deal, whose partial hand
    /// the search cannot play out, as `ddzlib` does ([`stakes::ddzlib_show`]).
    pub fn decide_show(&mut self, view: &SeatView) -> bool {
        if view.landlord() != Some(view.seat()) {
            return stakes::ddzlib_show(view);
        }
        self.decisions += 1;
        let seed = derive_seed(self.seed, self.decisions);
        match side_chance(view, self.config.budget_for(view.rules()), seed) {
            Some(p) => p >= SHOW_FROM,
            None => stakes::ddzlib_show(view),
        }
    }
}

/// The chance that the side of `view`'s seat wins the play from the landlord's lead, once the
/// landlord is decided and before the first play: over deals of the cards the seat cannot see
/// to the other seats (the kitty to the landlord, shown hands as shown), each played to the
/// end by `ddzlib` robots. `budget` is the number of playouts (at most 500) or a time;
/// `seed` draws the deals. `None` before the landlord is decided, after play has begun, or
/// when the view's counts do not add up.
pub(crate) fn side_chance(view: &SeatView, budget: Budget, seed: u64) -> Option<f64> {
    let landlord = view.landlord()?;
    if !view.history().is_empty() {
        return None;
    }
    let me = view.seat();
    let mut known = BySeat([Cards::EMPTY; 3]);
    for s in Seat::ALL {
        known[s] = match view.shown()[s] {
            Some(c) if s != me => c,
            _ => Cards::EMPTY,
        };
    }
    known[me] = view.hand();
    if me != landlord && view.shown()[landlord].is_none() {
        known[landlord] = view.kitty().unwrap_or(Cards::EMPTY);
    }
    let seen = known.iter().fold(Cards::EMPTY, |acc, (_, c)| acc.union(*c));
    if !seen.is_valid_deck_subset() {
        return None;
    }
    let unknown: Vec<Rank> = Cards::FULL_DECK.saturating_minus(seen).iter().collect();
    let mut missing = BySeat([0u32; 3]);
    for s in Seat::ALL {
        missing[s] = view.cards_left()[s].checked_sub(known[s].len())?;
    }
    if missing.iter().map(|(_, &n)| n as usize).sum::<usize>() != unknown.len() {
        return None;
    }
    let deal = |pool: &mut dyn Iterator<Item = Rank>| {
        BySeat::from_fn(|s| {
            let extra: Cards = pool.take(missing[s] as usize).collect();
            known[s].union(extra)
        })
    };
    let budget = budget.capped(MAX_STAKE_PLAYOUTS);
    Some(chance_by_playouts(
        view.rules(),
        &unknown,
        deal,
        landlord,
        me,
        budget,
        seed,
    ))
}
