//! Helpers shared by the robot tests.

#![allow(dead_code)]

use ddz_bots::{Bot, bot_seed, make_bot};
use ddz_core::{Bidding, Profile, Rules};
use ddz_game::Seat;

/// The robots `names` in seats 0, 1, 2, seeded for the game of `seed`.
pub fn bots(names: [&str; 3], seed: u64) -> [Box<dyn Bot>; 3] {
    Seat::ALL.map(|s| make_bot(names[s.index()], bot_seed(seed, s)).unwrap())
}

/// Every profile, plus classic rules with call-and-rob bidding.
pub fn configs() -> Vec<Rules> {
    let mut configs: Vec<Rules> = Profile::ALL.iter().map(|&p| Rules::profile(p)).collect();
    let mut call_rob = Rules::classic();
    call_rob.bidding = Bidding::CallRob;
    configs.push(call_rob);
    configs
}
