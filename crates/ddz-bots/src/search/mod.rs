//! The `search` robot: determinized Monte Carlo search over sampled hidden hands.
//!
//! At each play decision the robot
//!
//! 1. narrows the allowed moves to a few candidates: the `ddzlib` and `value` robots' choices,
//!    the pass when allowed, then the plays that leave the best hand by the blog's score
//!    ([`Valuer::after`]), up to `candidates` in all;
//! 2. deals the cards it cannot see to the other two seats, consistently with its view
//!    ([`sample_hidden`]): every card not in its hand and not played, each seat's cards left,
//!    and the kitty cards the landlord has not played are in the landlord's hand;
//! 3. weighs each sample by how likely it makes what the other two seats did so far, under
//!    the `ddzlib` ladder as a model of their play and the `ddzlib` bid as a model of their
//!    bids ([`infer`], `infer`, `ibid`, `temp`; with `sharp=P` each seat by a mixture, a
//!    share P of the ladder at the sharp temperature `stemp`; with `inet=T` the follows read by
//!    the playout network instead), the weights tempered so that a pilot of samples keeps a
//!    share `ess` of its effective size;
//! 4. plays each candidate on each sample to the end with fast playouts in which every seat
//!    is played by the `ddzlib` policy (its first choice, or with `ptemp` a choice drawn from
//!    its ladder, the same draws for every candidate), worth ±1 for its own side's win or
//!    loss (`objective=win`, the default; `objective=score`: the seat's score, the landlord
//!    winning or losing 2 × the bomb stake, a farmer 1 ×); with
//!    `reply=k` the next seat's first k choices are each played out and the worst for the
//!    robot counts (the best, for its teammate). A sample small enough (`solve` cards in all
//!    three hands, 16 by default) is instead solved exactly by [`crate::solver`] within a node
//!    budget (`nodes`, 5,000), the win or loss scored at stake 1, and played out when the
//!    budget runs out;
//! 5. shares the budget among ⌈log2 K⌉ rounds of sequential halving: each round scores every
//!    candidate still in on the same new samples, then keeps the better half by weighted
//!    total, until one is left. Under rules without wild cards the rounds among the last
//!    three candidates (`fnet=3`) take half the budget (`fshare`) and play whole playouts by
//!    the network ([`net_playout`]) instead, each worth 16 `ddzlib` playouts of the
//!    budget, and rank by the mean of the two kinds of playouts' mean worths.
//!
//! The budget is a number of playouts (`iters`, deterministic; an exact solve counts 1 + its
//! nodes / 50) or a time (`time`); either way the samples are drawn from the robot's seed, the
//! decision number and the sample number, each sample gets a fresh solver, the samples are
//! dealt in batches of a fixed size and their weighted results summed in sample order, so a
//! fixed seed and iteration budget gives the same move whatever the thread count.
//!
//! Bidding ([`bidding`]): the chance of winning as landlord, over sampled kitties and hidden
//! hands played out by `ddzlib` robots, against a threshold (`bid_at`, 0.5); `bid=ddzlib` bids
//! as the `ddzlib` robot does.
//!
//! The `net` robot's network ([`crate::net`]) guides the search: its N best-scored plays join
//! the candidates (`netc=N`, 4), and each candidate's ranking adds W times the network's score
//! of it (its estimate of the seat's outcome, −1 to 1) to its mean playout worth (`prior=W`,
//! 0.5); `netc=0:prior=0:fnet=0` searches without it, and `weights=FILE` (read by
//! [`crate::BotSpec`]) gives it another network than the shipped one (`weights=A+B+...`
//! several: the candidates and the prior read their mean score). The playouts read a
//! smaller network, a third of the cost a playout ([`Net::small`]; `pweights=FILE` another).
//! Inside the playouts ([`net_playout`]), `pnet=N` lets the network play the first N turns
//! after the candidate, and `leaf=net` ends each playout there with the network's estimate
//! instead of playing on;
//! with `fnet=N`, once at most N candidates are left, the last rounds of the halving play
//! whole playouts by the network, a share `fshare` of the budget (0.5), and rank each
//! candidate by the mean of its `ddzlib` and network playouts' means; with `popp=ddzlib` the
//! `ddzlib` policy plays the robot's opponents in those turns, with `popp=auto` each other
//! seat whose plays it explains well ([`PlayoutOpponents::Auto`], read from the samples).
//! `pnet` and `leaf=net` are off by default; `fnet` is 3 under rules without wild cards, off
//! with them ([`SearchConfig::final_net_for`]). What each adds, and costs, is measured in
//! STRENGTH.md.
//!
//! Not done: a search tree below the first move (`reply` is a one-step look at the next
//! seat's answers, and it measured weaker: STRENGTH.md).

mod app_rules;
pub mod bidding;
mod config;
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
pub use robot::SearchBot;
pub use sample::{sample_hidden, unknown_cards};
pub use tempering::ddzlib_like_seats;
pub use tuning::MIN_READINGS;
