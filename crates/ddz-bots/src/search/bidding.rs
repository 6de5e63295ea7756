//! Bidding by search: the chance of winning as landlord, estimated over sampled kitties and
//! hidden hands with `ddzlib` playouts, decides the bid.

use std::time::Instant;

use ddz_core::{Bidding, Cards, Move, Rank, Rules};
use ddz_game::{Bid, Budget, BySeat, PlayState, Seat, SeatView, derive_seed};
use ddz_game::{rng, shuffle};

use crate::ddzlib::DdzlibBot;

/// Most playouts one bidding estimate takes under a count budget (a bid needs a rough
/// chance, not a play's precision).
const MAX_BID_PLAYOUTS: u64 = 1_000;

/// The chance that the seat of `view` wins if it becomes landlord: over deals of the cards it
/// cannot see (3 to the kitty, which it takes, 17 to each other seat), each played to the end
/// from its lead by `ddzlib` robots in every seat. `budget` is the number of playouts (at
/// most 1,000) or a time; `seed` draws the deals. The wild ranks are those `view.rules`
/// holds (none yet when they are revealed after the bidding). `None` when the view holds
/// more than 20 cards or the deck cannot fill the other hands.
pub fn landlord_chance(view: &SeatView, budget: Budget, seed: u64) -> Option<f64> {
    let rules = &view.rules();
    let me = view.seat();
    let unknown: Vec<Rank> = Cards::FULL_DECK
        .saturating_minus(view.hand())
        .iter()
        .collect();
    let other = (unknown.len().checked_sub(3)? / 2) as u32;
    if view.hand().len() + 3 > 20 || other == 0 {
        return None;
    }
    let deal = |pool: &mut dyn Iterator<Item = Rank>| {
        let mut take = |n: u32| pool.take(n as usize).collect::<Cards>();
        let mut hands = BySeat([Cards::EMPTY; 3]);
        hands[me] = view.hand().union(take(3));
        hands[me.next()] = take(other);
        hands[me.prev()] = take(other);
        hands
    };
    Some(chance_by_playouts(
        rules,
        &unknown,
        deal,
        me,
        me,
        budget.capped(MAX_BID_PLAYOUTS),
        seed,
    ))
}

/// The share of playouts won by the side of `me`: each deals `unknown`, shuffled from `seed`
/// and the playout's number, with `deal` (every seat's hand), and plays from `landlord`'s lead
/// to the end with `ddzlib` robots in every seat. `budget` is a number of playouts or a time
/// (at least one playout either way).
pub(super) fn chance_by_playouts(
    rules: &Rules,
    unknown: &[Rank],
    mut deal: impl FnMut(&mut dyn Iterator<Item = Rank>) -> BySeat<Cards>,
    landlord: Seat,
    me: Seat,
    budget: Budget,
    seed: u64,
) -> f64 {
    let start = Instant::now();
    let mut seats = Seats::with_memo(1024);
    let (mut wins, mut played) = (0u64, 0u64);
    loop {
        // At least one playout, whatever the budget.
        if played > 0 && budget.is_spent(played, start.elapsed()) {
            break;
        }
        let mut pool = unknown.to_vec();
        shuffle(&mut rng(derive_seed(seed, played)), &mut pool);
        let hands = deal(&mut pool.into_iter());
        let mut state = PlayState::new(hands.0, landlord);
        if finish(&mut state, rules, landlord, &mut seats) == (me == landlord) {
            wins += 1;
        }
        played += 1;
    }
    wins as f64 / played as f64
}

/// Plays `state` to the end with `ddzlib` robots in every seat (`landlord` the landlord),
/// each taking its first choice. Returns true when the landlord wins.
pub(super) fn finish(
    state: &mut PlayState,
    rules: &Rules,
    landlord: Seat,
    seats: &mut Seats,
) -> bool {
    loop {
        if let Some(out) = state.first_out() {
            return out == landlord;
        }
        let turn = state.turn_view(rules, landlord);
        let Seats { bots, buf } = seats;
        let play = bots[turn.seat().index()].choose_legal(&turn, buf);
        state.apply_legal(play, rules);
    }
}

/// The robots of a playout, one a seat, and their move buffer.
pub(super) struct Seats {
    pub(super) bots: [DdzlibBot; 3],
    pub(super) buf: Vec<Move>,
}

impl Seats {
    /// Robots whose split memos hold about `hands` hands each.
    pub(super) fn with_memo(hands: usize) -> Seats {
        Seats {
            bots: std::array::from_fn(|_| DdzlibBot::with_memo(hands)),
            buf: Vec::with_capacity(64),
        }
    }
}

/// The bid for a landlord's chance `chance` among `allowed` under `view`'s bidding, wanting
/// to be landlord from `threshold` on. Points: the highest bid allowed (the stake is worth
/// most when the chance is good), else the pass. Call-and-rob: call from `threshold` on, rob
/// (which doubles the stake) from `threshold` + 0.05.
pub fn bid_for_chance(view: &SeatView, allowed: &[Bid], chance: f64, threshold: f64) -> Bid {
    let pass = if allowed.contains(&0) {
        0
    } else {
        allowed.iter().copied().min().unwrap_or(0)
    };
    let want = match view.rules().bidding {
        Bidding::Points => chance >= threshold,
        _ => {
            let robbing = view.bids().iter().any(|b| b.1 == 1);
            chance >= threshold + if robbing { 0.05 } else { 0.0 }
        }
    };
    if want {
        allowed.iter().copied().max().unwrap_or(pass)
    } else {
        pass
    }
}
