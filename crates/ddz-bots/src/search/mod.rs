//! The `search` robot: determinized Monte Carlo search over sampled hidden hands.
//!
//! At each play decision the robot
//!
//! 1. narrows the allowed moves to a few candidates: the `ddzlib` and `value` robots' choices,
//!    the pass when allowed, the network's best-scored plays, then the plays that leave the
//!    best hand by the blog's score ([`crate::blog::Valuer::after`]), up to [`SearchConfig::candidates`];
//! 2. deals the cards it cannot see to the other two seats, consistently with its view
//!    ([`sample_hidden`]): every card not in its hand and not played, each seat's cards left,
//!    and the kitty cards the landlord has not played are in the landlord's hand;
//! 3. weighs each sample by how likely it makes what the other two seats did so far, under
//!    the `ddzlib` ladder as a model of their play and the `ddzlib` bid as a model of their
//!    bids ([`infer`]; the option `infer`), the weights tempered so that a pilot of samples
//!    keeps a share of its effective size;
//! 4. plays each candidate on each sample to the end with fast playouts in which every seat
//!    is played by the `ddzlib` policy (its first choice), worth ±1 for its own side's win or
//!    loss. A sample small enough (`solve` cards in all three hands, 16 by default) is
//!    instead solved exactly by [`crate::solver`] within a node budget, and played out when
//!    the budget runs out;
//! 5. shares the budget among ⌈log2 K⌉ rounds of sequential halving: each round scores every
//!    candidate still in on the same new samples, then keeps the better half by weighted
//!    total plus the network's prior, until one is left. Under rules without wild cards the
//!    rounds among the last three candidates take half the budget and play whole playouts by
//!    the network (net_playout.rs) instead, each worth 16 `ddzlib` playouts of the budget,
//!    and rank by the mean of the two kinds of playouts' mean worths.
//!
//! The budget is a number of playouts (`iters`, deterministic; an exact solve counts 1 + its
//! nodes / 50) or a time (`time`); either way the samples are drawn from the robot's seed, the
//! decision number and the sample number, each sample gets a fresh solver, the samples are
//! dealt in batches of a fixed size and their weighted results summed in sample order, so a
//! fixed seed and iteration budget gives the same move whatever the thread count.
//!
//! Bidding ([`bidding`]): the chance of winning as landlord, over sampled kitties and hidden
//! hands played out by `ddzlib` robots, against a threshold (0.5); `bid=ddzlib` bids as the
//! `ddzlib` robot does.
//!
//! The `net` robot's network ([`crate::net`]) guides the search: its best-scored plays join
//! the candidates, and each candidate's ranking adds a share of the network's score of it (its
//! estimate of the seat's outcome, −1 to 1) to its mean playout worth; `weights=FILE` (read by
//! [`crate::BotSpec`]) gives it another network than the shipped one (`weights=A+B+...`
//! several: the candidates and the prior read their mean score). The playouts read a
//! smaller network, a third of the cost a playout ([`crate::net::Net::small`]; `pweights=FILE` another).
//!
//! The parts: [`SearchConfig`] (config.rs, the options), the robot (robot.rs), what a decision
//! knows and its samples (sample.rs), the weights of the samples (tempering.rs, with
//! [`infer`]), the playouts (playout.rs, net_playout.rs), the rounds and batches
//! (schedule.rs), the tuning constants with their measurements (tuning.rs). What each adds is
//! measured in docs/strength-runs/; the options removed are listed in
//! docs/strength-runs/search-options-removed.md.
//!
//! Not done: a search tree below the first move (a one-step look at the next seat's answers
//! measured weaker).

mod app_rules;
pub mod bidding;
mod config;
mod estimate;
pub mod infer;
mod net_playout;
mod playout;
mod robot;
mod sample;
mod schedule;
mod tempering;
#[cfg(test)]
mod tests;
mod tuning;

pub use config::*;
pub use estimate::{Estimates, best_chance, decision_chances};
pub use robot::SearchBot;
pub use sample::{sample_hidden, unknown_cards};
pub use tuning::{
    BID_THRESHOLD, CANDIDATES, ESS, FINAL_SHARE, INFER_BIDS, NET_CANDIDATES, NET_PRIOR,
    SOLVE_CARDS, SOLVE_NODES, TEMPERATURE,
};
