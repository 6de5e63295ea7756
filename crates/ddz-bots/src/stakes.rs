//! Doubling (加倍) and showing (明牌) by hand strength (RULES.md section 7), for the robots
//! that decide them by a threshold: `greedy` and `ddzlib` by the ddzlib bid
//! ([`crate::ddzlib::desired_bid`]), `value` by the blog's SumValue. See docs/robots.md.
//!
//! Every robot shows only at the last show window of the deal (12 cards, x2) or as the
//! landlord after doubling: before the deal (x5) and at 6 cards (x3) a hand is mostly unknown.

use ddz_game::{Phase, SeatView};

use crate::blog::land_score;
use crate::ddzlib::desired_bid;

/// The fewest cards a seat holds for a robot to consider showing during the deal: the last
/// window (x2) of the classic chunks (6, 6, 5).
pub const SHOW_FROM_CARDS: u32 = 12;

/// The allowed factor closest to `want` from below (the smallest allowed when none is).
pub fn factor_at_most(allowed: &[u32], want: u32) -> u32 {
    allowed
        .iter()
        .copied()
        .filter(|&f| f <= want)
        .max()
        .or_else(|| allowed.iter().copied().min())
        .unwrap_or(1)
}

/// Whether the robot may consider a show in `view`'s window at all: the landlord's window
/// after doubling, or a deal window with at least [`SHOW_FROM_CARDS`] cards received.
pub fn show_window_worth(view: &SeatView) -> bool {
    view.phase() == Phase::LandlordShow || view.hand().len() >= SHOW_FROM_CARDS
}

/// The doubling factor wanted for a hand the ddzlib bid rates `bid` (0-3): 3 super-doubles
/// (4), 2 doubles (2), less keeps 1.
pub fn factor_for_bid(bid: u8) -> u32 {
    match bid {
        3 => 4,
        2 => 2,
        _ => 1,
    }
}

/// The ddzlib doubling decision for the seat of `view` among `allowed`: the factor of
/// [`factor_for_bid`] for the seat's hand (20 cards for the landlord, 17 for a farmer).
pub fn ddzlib_double(view: &SeatView, allowed: &[u32]) -> u32 {
    let want = factor_for_bid(desired_bid(view.hand(), view.rules()));
    factor_at_most(allowed, want)
}

/// The ddzlib show decision for the seat of `view`: only at a worthwhile window
/// ([`show_window_worth`]) and with a hand (so far) the ddzlib bid rates 3.
pub fn ddzlib_show(view: &SeatView) -> bool {
    show_window_worth(view) && desired_bid(view.hand(), view.rules()) == 3
}

/// The blog's doubling factor for a hand of SumValue `sum_value` held by a landlord (20
/// cards) or a farmer (17): a farmer super-doubles where the blog bids 3 ([`land_score`]),
/// doubles where it bids 2; the landlord, whose three more cards add to the sum, needs 5
/// more for each.
pub fn value_factor(sum_value: i32, landlord: bool) -> u32 {
    let sum = if landlord { sum_value - 5 } else { sum_value };
    factor_for_bid(land_score(sum))
}

/// The blog's show decision for the seat of `view`, whose hand (so far) has SumValue
/// `sum_value`: at a worthwhile window ([`show_window_worth`]), with a SumValue of 25 or more
/// (5 above the blog's 3-point bid).
pub fn value_show(view: &SeatView, sum_value: i32) -> bool {
    show_window_worth(view) && sum_value >= 25
}
