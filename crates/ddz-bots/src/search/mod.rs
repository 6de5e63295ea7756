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

use std::sync::Arc;
use std::time::{Duration, Instant};

use ddz_core::{Cards, Move, Rank, Rules, Wild};
use ddz_game::{
    Bid, Budget, BySeat, PlayState, Seat, SeatView, Side, Trick, derive_seed, side_scores,
};
use ddz_game::{rng, shuffle};

mod app_rules;
pub mod bidding;
pub mod infer;
mod net_playout;

use bidding::{Endgame, Seats, SoftDraws};
use infer::{NetModel, Observations};
use net_playout::{NetPlayer, Root};

use crate::blog::Valuer;
use crate::ddzlib::DdzlibBot;
use crate::net::features::Position;
use crate::net::{Ensemble, Net};
use crate::solver::{OpenPosition as SolverPosition, Solver};
use crate::value_bot::ValueBot;
use crate::{Bot, BotError};

/// The `search` robot's settings, written `search:key=value:...`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// The budget per decision: a number of playouts (`iters=N`, [`Budget::Count`],
    /// deterministic; an exact solve counts 1 + its nodes / 50) or a time (`time=500ms`,
    /// `time=1s`); `None` (neither option given) is the rules' default
    /// ([`SearchConfig::budget_for`]).
    pub budget: Option<Budget>,
    /// Worker threads (`threads=N`); the result does not depend on it.
    pub threads: usize,
    /// Most candidate moves searched (`candidates=N`, at least 2).
    pub candidates: usize,
    /// Samples holding at most this many cards in all three hands are solved exactly instead
    /// of played out (`solve=N`; 0 never).
    pub solve_cards: u32,
    /// Node budget of one exact solve (`nodes=N`); past it the sample is played out.
    pub solve_nodes: u64,
    /// Weight each sample by how likely it makes the other seats' past plays under the
    /// `ddzlib` model ([`infer`]; `infer=1`, `infer=0` off).
    pub infer: bool,
    /// With `infer`, weigh the samples by the other seats' bids too ([`infer`]; `ibid=1`,
    /// `ibid=0` off).
    pub infer_bids: bool,
    /// The model's temperature (`temp=1.5`): lower trusts it more.
    pub temperature: f64,
    /// The prior chance that another seat plays as the model says at the sharp temperature
    /// (`sharp=0.5`; 0, the default, off): each seat's turns and bids weigh a sample by the
    /// mixture, this share at [`SearchConfig::sharp_temperature`] and the rest at
    /// [`SearchConfig::temperature`], so that a seat that keeps playing the model's first
    /// choices (the `ddzlib` robot itself) is read more sharply than one that does not.
    pub sharp: f64,
    /// The sharp model's temperature (`stemp=0.25`).
    pub sharp_temperature: f64,
    /// How much of the samples' worth the weights may keep, as an effective sample size
    /// (`ess=0.5`, from 0 to 1): each decision tempers its log-weights (multiplies them by
    /// the largest factor up to 1) so that a pilot of samples keeps this share of its size.
    /// Lower trusts the model more; 1 weighs nothing.
    pub ess: f64,
    /// What a playout's result is worth (`objective=win`, the default, or `objective=score`):
    /// the win measured stronger by the measure, the share of games won, and as
    /// strong by the points (STRENGTH.md).
    pub objective: Objective,
    /// The playouts' temperature (`ptemp=0.5`): each playout seat draws its play from its
    /// `ddzlib` ladder, falling by `e^(−1/T)` a place ([`DdzlibBot::choose_softly`]); 0
    /// (`ptemp=0`) plays the ladder's first choice, deterministic playouts.
    pub playout_temperature: f64,
    /// Replies searched below the move (`reply=3`): on each sample the next seat's first
    /// choices by its `ddzlib` ladder are each played out, and the candidate is worth the worst
    /// of them for the robot when that seat is an opponent (the best when the teammate); 0 or 1
    /// plays the ladder's first choice alone.
    pub replies: usize,
    /// Playouts reaching at most this many cards in the three hands end by an exact solve
    /// (`psolve=N`, within 1,000 nodes; 0 never): the rest of the game with best play by
    /// every seat, each hand open.
    pub playout_solve: u32,
    /// How the robot bids: by its estimated chance as landlord (`bid=search`,
    /// [`bidding::landlord_chance`]) or as the `ddzlib` robot does (`bid=ddzlib`).
    pub bid_by_search: bool,
    /// The chance as landlord from which the robot bids (`bid_at=0.5`).
    pub bid_threshold: f64,
    /// The `net` robot's network's best-scored plays among the candidates (`netc=N`, the
    /// first N after the seed robots' choices and the pass; 0 none; 4 by default).
    pub net_candidates: usize,
    /// Each candidate's ranking adds this many times the network's score of it (`prior=W`,
    /// in playout worth units; 0 none; 0.5 by default): the network as a prior the playouts
    /// correct.
    pub net_prior: f64,
    /// Turns of each playout played by the network (`pnet=N`, after the candidate; 0 none):
    /// each seat takes the network's best-scored play, the `ddzlib` policy the turns after.
    pub playout_net_turns: u32,
    /// End each playout after its network turns with the network's estimate of the outcome
    /// (`leaf=net`) instead of playing on (`leaf=play`, the default).
    pub net_leaf: bool,
    /// The last rounds, once at most this many candidates are left, play whole playouts by
    /// the network (`fnet=N`; 0 never): the dearer, better evaluation spent on the few
    /// candidates the `ddzlib` playouts could not part. A candidate's ranking there is the mean
    /// of its two playouts' mean worths (and the prior). `None` (no `fnet` option) is the
    /// rules' default ([`SearchConfig::final_net_for`]).
    pub final_net: Option<usize>,
    /// The share of the budget the network's rounds take (`fshare=0.5`) when rounds by the
    /// `ddzlib` playouts come before them (all of it otherwise).
    pub final_share: f64,
    /// Who plays the other seats in the network's playout turns (`pnet`, `fnet`; `popp=net`,
    /// `popp=ddzlib` or `popp=auto`).
    pub playout_opponents: PlayoutOpponents,
    /// The inference reads the other seats' follows by the playout network at this
    /// temperature (`inet=T`; 0, the default, off: by the `ddzlib` ladder), under rules
    /// without wild cards ([`Observations::log_likelihood_by_net`]); leads and bids stay read
    /// by the ladder, and so do the sharp mixture (`sharp`) and `popp=auto`'s readings.
    pub net_opponent_temperature: f64,
}

/// Who plays the other seats in the network's playout turns ([`SearchConfig::playout_opponents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutOpponents {
    /// The network plays every seat (`popp=net`, the default).
    Net,
    /// The `ddzlib` policy plays the robot's opponents, the network its side (`popp=ddzlib`).
    Ddzlib,
    /// The `ddzlib` policy plays each other seat that plays like it, the network the rest
    /// (`popp=auto`): a seat plays like it when, over the samples of the `ddzlib` rounds (at
    /// least [`MIN_READINGS`], topped up with samples of their own), each weighed by its
    /// likelihood, the sharp model ([`SearchConfig::sharp`], at its prior share, or an even
    /// one when `sharp=0`) explains its turns and bids better than the plain one: its
    /// posterior chance above one half. Read when the network's rounds begin; without
    /// observations to read, no seat.
    Auto,
}

/// What the search maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The expected score: the landlord wins or loses 2 × the bomb stake, a farmer 1 ×
    /// (`objective=score`).
    Score,
    /// The chance that the robot's side wins (`objective=win`): every result is ±1.
    Win,
}

impl Objective {
    /// The worth for `me` of a game the landlord (`landlord`) won or lost at `stake`.
    fn worth(self, me: Seat, landlord: Seat, landlord_won: bool, stake: u32) -> i64 {
        let winner = if landlord_won {
            Side::Landlord
        } else {
            Side::Farmers
        };
        match self {
            Objective::Score => side_scores(landlord, winner, i64::from(stake))[me],
            Objective::Win if (me == landlord) == landlord_won => 1,
            Objective::Win => -1,
        }
    }
}

impl Default for SearchConfig {
    /// The rules' default budget (3,000 playouts; 1,000 in laizi, 300 in heaven-and-earth:
    /// under 150 ms a decision at the 99th percentile on this project's 2-core VM,
    /// BENCHMARKS.md), one thread, 12 candidates, samples of 16 cards or fewer solved
    /// within 5,000 nodes.
    fn default() -> SearchConfig {
        SearchConfig {
            budget: None,
            threads: 1,
            candidates: 12,
            solve_cards: 16,
            solve_nodes: 5_000,
            infer: true,
            infer_bids: true,
            temperature: 1.0,
            sharp: 0.0,
            sharp_temperature: 0.25,
            ess: 0.5,
            objective: Objective::Win,
            playout_temperature: 0.0,
            replies: 0,
            playout_solve: 0,
            bid_by_search: true,
            bid_threshold: 0.5,
            net_candidates: 4,
            net_prior: 0.5,
            playout_net_turns: 0,
            net_leaf: false,
            final_net: None,
            final_share: 0.5,
            playout_opponents: PlayoutOpponents::Net,
            net_opponent_temperature: 0.0,
        }
    }
}

/// The default `fnet` under rules without wild cards: the network's playouts decide among the
/// last three candidates (STRENGTH.md).
pub const DEFAULT_FINAL_NET: usize = 3;

/// Playouts a decision by default under rules without wild cards.
pub const DEFAULT_PLAYOUTS: u64 = 3_000;

/// Playouts a decision by default with one wild rank (laizi), whose playouts cost about three
/// times as much (the `ddzlib` policy splits every reading of the wild cards): under 150 ms
/// at the 99th percentile (BENCHMARKS.md), and as strong as 3,000 there (STRENGTH.md).
pub const DEFAULT_LAIZI_PLAYOUTS: u64 = 1_000;

/// Playouts a decision by default with two wild ranks (heaven-and-earth), whose playouts
/// cost about ten times as much as without wild cards; as strong as 1,000 there (STRENGTH.md).
pub const DEFAULT_TIANDI_PLAYOUTS: u64 = 300;

impl SearchConfig {
    /// The budget under `rules`: the one given (`iters`, `time`), else the rules' default
    /// number of playouts ([`DEFAULT_PLAYOUTS`], [`DEFAULT_LAIZI_PLAYOUTS`],
    /// [`DEFAULT_TIANDI_PLAYOUTS`]).
    pub fn budget_for(&self, rules: &Rules) -> Budget {
        self.budget.unwrap_or(Budget::Count(match rules.wild {
            Wild::None => DEFAULT_PLAYOUTS,
            Wild::Single => DEFAULT_LAIZI_PLAYOUTS,
            Wild::HeavenEarth => DEFAULT_TIANDI_PLAYOUTS,
        }))
    }

    /// Reads the options after `search`: `time=500ms`, `time=2s`, `iters=2000`, `threads=2`,
    /// `candidates=8`. An unknown key or a bad value is an error naming it.
    pub fn parse<'a>(options: impl Iterator<Item = &'a str>) -> Result<SearchConfig, BotError> {
        let mut config = SearchConfig::default();
        for option in options {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| BotError::NotKeyValue(option.to_string()))?;
            let number = |v: &str| {
                v.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| BotError::BadValue {
                        key: key.to_string(),
                        value: v.to_string(),
                        expected: "a positive number",
                    })
            };
            // A real number that `ok` accepts, else an error saying what was `expected`.
            let real = |ok: fn(f64) -> bool, expected: &'static str| {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|&x| ok(x))
                    .ok_or_else(|| BotError::BadValue {
                        key: key.to_string(),
                        value: value.to_string(),
                        expected,
                    })
            };
            // One of two words: true for `first`, false for `second`.
            let either = |first: &str, second: &str, expected: &'static str| match value.trim() {
                v if v == first => Ok(true),
                v if v == second => Ok(false),
                v => Err(BotError::BadValue {
                    key: key.to_string(),
                    value: v.to_string(),
                    expected,
                }),
            };
            match key.trim() {
                "iters" => config.budget = Some(Budget::Count(number(value)?.min(1 << 30))),
                "time" => config.budget = Some(Budget::Time(parse_duration(value)?)),
                "threads" => config.threads = number(value)?.min(256) as usize,
                "candidates" => config.candidates = number(value)?.clamp(2, 1000) as usize,
                "solve" => {
                    // 0 turns the solver off.
                    config.solve_cards = match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(54) as u32,
                    }
                }
                "nodes" => config.solve_nodes = number(value)?,
                "infer" => config.infer = switch(key, value)?,
                "ibid" => config.infer_bids = switch(key, value)?,
                "temp" => {
                    config.temperature = real(
                        |t| (0.05..=100.0).contains(&t),
                        "a temperature from 0.05 to 100",
                    )?
                }
                "sharp" => {
                    config.sharp = real(|t| (0.0..1.0).contains(&t), "a chance from 0 to below 1")?
                }
                "stemp" => {
                    config.sharp_temperature = real(
                        |t| (0.05..=100.0).contains(&t),
                        "a temperature from 0.05 to 100",
                    )?
                }
                "ess" => {
                    config.ess = real(|t| t > 0.0 && t <= 1.0, "a share above 0 and at most 1")?
                }
                "ptemp" => {
                    config.playout_temperature = real(
                        |t| (0.0..=100.0).contains(&t),
                        "a temperature from 0 to 100",
                    )?
                }
                "reply" => {
                    config.replies = match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(16) as usize,
                    }
                }
                "psolve" => {
                    config.playout_solve = match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(54) as u32,
                    }
                }
                "bid" => config.bid_by_search = either("search", "ddzlib", "search or ddzlib")?,
                "bid_at" => {
                    config.bid_threshold =
                        real(|t| (0.0..=1.0).contains(&t), "a chance from 0 to 1")?
                }
                "objective" => {
                    config.objective = if either("score", "win", "score or win")? {
                        Objective::Score
                    } else {
                        Objective::Win
                    }
                }
                "netc" => {
                    config.net_candidates = match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(1000) as usize,
                    }
                }
                "prior" => {
                    config.net_prior =
                        real(|w| (0.0..=100.0).contains(&w), "a weight from 0 to 100")?
                }
                "pnet" => {
                    config.playout_net_turns = match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(1000) as u32,
                    }
                }
                "leaf" => config.net_leaf = either("net", "play", "net or play")?,
                "fnet" => {
                    config.final_net = Some(match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(1000) as usize,
                    })
                }
                "popp" => {
                    config.playout_opponents = match value.trim() {
                        "net" => PlayoutOpponents::Net,
                        "ddzlib" => PlayoutOpponents::Ddzlib,
                        "auto" => PlayoutOpponents::Auto,
                        v => {
                            return Err(BotError::BadValue {
                                key: key.to_string(),
                                value: v.to_string(),
                                expected: "net, ddzlib or auto",
                            });
                        }
                    }
                }
                "inet" => {
                    config.net_opponent_temperature = real(
                        |t| t == 0.0 || (0.05..=100.0).contains(&t),
                        "0 (off) or a temperature from 0.05 to 100",
                    )?
                }
                "fshare" => {
                    config.final_share =
                        real(|t| t > 0.0 && t < 1.0, "a share above 0 and below 1")?
                }
                other => return Err(BotError::UnknownOption(other.to_string())),
            }
        }
        Ok(config)
    }

    /// The `fnet` in force under `rules`: the one given, else [`DEFAULT_FINAL_NET`] under
    /// rules without wild cards and 0 (never) with them (the network was trained under
    /// classic rules, and a wildcard playout by it was not measured).
    pub fn final_net_for(&self, rules: &Rules) -> usize {
        self.final_net.unwrap_or(match rules.wild {
            Wild::None => DEFAULT_FINAL_NET,
            Wild::Single | Wild::HeavenEarth => 0,
        })
    }

    /// Whether an option reads the network (`netc`, `prior`, `pnet`, `leaf=net`, `fnet`, the
    /// last by default under rules without wild cards).
    pub fn reads_net(&self) -> bool {
        self.net_candidates > 0 || self.net_prior > 0.0 || self.net_in_any_playouts()
    }

    /// Whether the playout network is read under some rules (`pnet`, `leaf=net`, `fnet`, and
    /// `inet`, whose model is that network): what makes a `pweights` option count.
    pub fn net_in_any_playouts(&self) -> bool {
        self.playout_net_turns > 0
            || self.net_leaf
            || self.final_net.is_none_or(|n| n >= 2)
            || self.net_opponent_temperature > 0.0
    }

    /// The temperature at which the playout network reads the other seats' follows under
    /// `rules` (`inet`), `None` when the ladder does (`inet=0`, or rules with wild cards).
    fn net_opponents_for(&self, rules: &Rules) -> Option<f64> {
        (self.net_opponent_temperature > 0.0 && rules.wild == Wild::None)
            .then_some(self.net_opponent_temperature)
    }

    /// Whether the playouts read the network under `rules` (`pnet`, `leaf=net`, `fnet`).
    fn net_in_playouts(&self, rules: &Rules) -> bool {
        self.playout_net_turns > 0 || self.net_leaf || self.final_net_for(rules) >= 2
    }
}

/// An on/off option's value: `1`/`on` or `0`/`off`.
fn switch(key: &str, value: &str) -> Result<bool, BotError> {
    match value.trim() {
        "0" | "off" => Ok(false),
        "1" | "on" => Ok(true),
        v => Err(BotError::BadValue {
            key: key.to_string(),
            value: v.to_string(),
            expected: "0 or 1",
        }),
    }
}

/// `500ms`, `2s`, `1.5s`, or a plain number of milliseconds.
fn parse_duration(text: &str) -> Result<Duration, BotError> {
    let t = text.trim();
    let bad = || BotError::BadValue {
        key: "time".to_string(),
        value: t.to_string(),
        expected: "a duration (500ms, 2s)",
    };
    let (number, unit) = match t.strip_suffix("ms") {
        Some(n) => (n, 0.001),
        None => match t.strip_suffix('s') {
            Some(n) => (n, 1.0),
            None => (t, 0.001),
        },
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let secs = value * unit;
    if !(secs > 0.0 && secs <= 3600.0) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The `search` robot (see the [module docs](self)).
pub struct SearchBot {
    config: SearchConfig,
    seed: u64,
    /// Decisions made so far: each draws its own samples.
    decisions: u64,
    valuer: Valuer,
    value: ValueBot,
    ddzlib: DdzlibBot,
    /// The networks' scorer, when an option reads the network: the candidates (`netc`) and
    /// the prior average every network's scores.
    net: Option<Ensemble>,
    /// The network of the playouts (`pweights`) when it is not the shipped one ([`Net::small`]).
    playout_net: Option<Arc<Net>>,
    name: String,
}

impl SearchBot {
    /// Makes the robot read `nets` instead of the shipped network (when an option reads the
    /// network; otherwise it reads none): the candidates and the prior average their
    /// scores.
    ///
    /// # Panics
    ///
    /// If `nets` is empty.
    pub fn set_nets(&mut self, nets: &[Arc<Net>]) {
        if let Some(ensemble) = &mut self.net {
            *ensemble = Ensemble::new(nets);
        }
    }

    /// Makes the playouts (`pnet`, `leaf=net`, `fnet`) read `net` instead of the shipped
    /// playout network ([`Net::small`]).
    pub fn set_playout_net(&mut self, net: Arc<Net>) {
        self.playout_net = Some(net);
    }

    /// A search robot with `config`, drawing its samples from `seed`.
    pub fn new(config: SearchConfig, seed: u64) -> SearchBot {
        SearchBot {
            config,
            seed,
            decisions: 0,
            valuer: Valuer::new(),
            value: ValueBot::new(),
            ddzlib: DdzlibBot::new(),
            net: config
                .reads_net()
                .then(|| Ensemble::new(&[Net::embedded()])),
            playout_net: None,
            name: "search".to_string(),
        }
    }

    /// The candidates: the two seed robots' choices, the pass, the network's best plays
    /// (`netc`, scored in `net_scores`), then the best plays by what they leave, without
    /// repeats, at most `config.candidates`.
    fn candidates(&mut self, view: &SeatView, allowed: &[Move], net_scores: &[f32]) -> Vec<Move> {
        let mut out: Vec<Move> = Vec::new();
        let push = |m: Move, out: &mut Vec<Move>| {
            if !out.contains(&m) {
                out.push(m);
            }
        };
        push(self.ddzlib.play(view, allowed), &mut out);
        push(self.value.play(view, allowed), &mut out);
        if let Some(&pass) = allowed.iter().find(|m| m.is_pass()) {
            push(pass, &mut out);
        }
        if !net_scores.is_empty() {
            let mut by_net: Vec<usize> = (0..allowed.len()).collect();
            by_net.sort_by(|&a, &b| net_scores[b].total_cmp(&net_scores[a]).then(a.cmp(&b)));
            for &i in by_net.iter().take(self.config.net_candidates) {
                push(allowed[i], &mut out);
            }
        }
        let mut ranked: Vec<(i32, usize)> = allowed
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_pass())
            .map(|(i, m)| (-self.valuer.after(view.hand(), m, view.rules()).score(), i))
            .collect();
        ranked.sort_unstable();
        for (_, i) in ranked {
            if out.len() >= self.config.candidates {
                break;
            }
            push(allowed[i], &mut out);
        }
        out.truncate(self.config.candidates.max(2));
        out
    }
}

impl Bot for SearchBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn bid(&mut self, view: &SeatView, allowed: &[Bid]) -> Bid {
        if !self.config.bid_by_search || allowed.len() < 2 {
            return self.ddzlib.bid(view, allowed);
        }
        self.decisions += 1;
        let seed = derive_seed(self.seed, self.decisions);
        match bidding::landlord_chance(view, self.config.budget_for(view.rules()), seed) {
            Some(chance) => {
                bidding::bid_for_chance(view, allowed, chance, self.config.bid_threshold)
            }
            None => self.ddzlib.bid(view, allowed),
        }
    }

    fn double(&mut self, view: &SeatView, allowed: &[u32]) -> u32 {
        self.decide_double(view, allowed)
    }

    fn show(&mut self, view: &SeatView, _factor: u32) -> bool {
        self.decide_show(view)
    }

    fn play(&mut self, view: &SeatView, allowed: &[Move]) -> Move {
        if let Some(m) = crate::obvious_play(view.hand(), allowed) {
            return m;
        }
        self.decisions += 1;
        let Some(landlord) = view.landlord() else {
            return self.ddzlib.play(view, allowed);
        };
        let mut net_scores = Vec::new();
        if let (Some(ensemble), Some(pos)) = (self.net.as_mut(), Position::of_view(view)) {
            ensemble.scores(&pos, view.rules(), allowed, &mut net_scores);
        }
        let candidates = self.candidates(view, allowed, &net_scores);
        if candidates.len() == 1 {
            return candidates[0];
        }
        let prior: Vec<f64> = if self.config.net_prior > 0.0 && !net_scores.is_empty() {
            candidates
                .iter()
                .map(|c| {
                    allowed
                        .iter()
                        .position(|m| m == c)
                        .map_or(0.0, |i| self.config.net_prior * f64::from(net_scores[i]))
                })
                .collect()
        } else {
            Vec::new()
        };
        let seed = derive_seed(self.seed, self.decisions);
        let position = Decision::of(view, landlord, self.config.infer_bids);
        let playout_net = self
            .net
            .as_ref()
            .map(|_| self.playout_net.clone().unwrap_or_else(Net::small));
        let opponent_net = playout_net
            .clone()
            .zip(self.config.net_opponents_for(view.rules()));
        let playout_net = playout_net.filter(|_| self.config.net_in_playouts(view.rules()));
        search(
            &position,
            &candidates,
            &prior,
            playout_net,
            opponent_net,
            self.config,
            seed,
        )
    }
}

/// What a decision knows, as the search needs it.
#[derive(Clone, Debug)]
struct Decision {
    rules: Rules,
    me: Seat,
    landlord: Seat,
    hand: Cards,
    cards_left: BySeat<u32>,
    last: Option<(Seat, Move)>,
    /// Cards neither in the hand nor played: the other two hands (and, in a position without
    /// history, cards out of the game).
    unknown: Cards,
    /// Cards the landlord must hold (its unplayed kitty cards), when the landlord is another
    /// seat.
    forced: Cards,
    /// The other seats' past turns, to weigh samples by (`None`: no inference).
    observations: Option<Observations>,
    /// The cards each seat has played.
    played: BySeat<Cards>,
    /// Every turn so far, passes included (what the network reads in playouts).
    history: Arc<Vec<(Seat, Move)>>,
    /// The seats the `ddzlib` policy plays in the network's playout turns
    /// ([`SearchConfig::playout_opponents`]; set by the search).
    ddzlib_seats: BySeat<bool>,
}

impl Decision {
    /// What `view` knows, `landlord` being the landlord's seat; `bids`: whether the
    /// observations keep the bids.
    fn of(view: &SeatView, landlord: Seat, bids: bool) -> Decision {
        Decision {
            rules: view.rules().clone(),
            me: view.seat(),
            landlord,
            hand: view.hand(),
            cards_left: view.cards_left(),
            last: view.last(),
            unknown: unknown_cards(view),
            forced: forced_for_landlord(view),
            observations: Observations::of(view, landlord)
                .map(|o| if bids { o } else { o.without_bids() })
                .filter(|o| !o.is_empty()),
            played: view.played(),
            history: view.shared_history(),
            ddzlib_seats: BySeat([false; 3]),
        }
    }
}

/// Every card the seat cannot see: not in its hand, not played by anyone.
pub fn unknown_cards(view: &SeatView) -> Cards {
    let played = Seat::ALL
        .iter()
        .fold(Cards::EMPTY, |acc, &s| acc.union(view.played()[s]));
    Cards::FULL_DECK
        .saturating_minus(view.hand())
        .saturating_minus(played)
}

/// The kitty cards the landlord (another seat) still holds for sure: the kitty less what it
/// has played of those ranks.
fn forced_for_landlord(view: &SeatView) -> Cards {
    match (view.landlord(), view.kitty()) {
        (Some(l), Some(kitty)) if l != view.seat() => {
            let forced = kitty.saturating_minus(view.played()[l]);
            // Within what is unknown (a view without history may not list every play).
            forced.saturating_minus(forced.saturating_minus(unknown_cards(view)))
        }
        _ => Cards::EMPTY,
    }
}

/// Deals the unknown cards to the two other seats of `view` at random, consistently with it
/// (cards left per seat; the landlord's unplayed kitty cards in the landlord's hand), from
/// `seed`. Returns every seat's hand (the seat's own as it is), or `None` when the view is
/// impossible (fewer unknown cards than the others hold).
pub fn sample_hidden(view: &SeatView, seed: u64) -> Option<BySeat<Cards>> {
    let landlord = view.landlord().unwrap_or(view.seat());
    let position = Decision::of(view, landlord, false);
    deal(&position, seed)
}

/// One random deal of the unknown cards (see [`sample_hidden`]).
fn deal(p: &Decision, seed: u64) -> Option<BySeat<Cards>> {
    let others = [p.me.next(), p.me.prev()];
    let need: u32 = others.iter().map(|&s| p.cards_left[s]).sum();
    if p.unknown.len() < need || p.forced.len() > p.cards_left[p.landlord] {
        return None;
    }
    let mut pool: Vec<Rank> = p.unknown.saturating_minus(p.forced).iter().collect();
    shuffle(&mut rng(seed), &mut pool);
    let mut hands = BySeat([Cards::EMPTY; 3]);
    hands[p.me] = p.hand;
    let mut next = pool.into_iter();
    for seat in others {
        let mut hand = if seat == p.landlord {
            p.forced
        } else {
            Cards::EMPTY
        };
        while hand.len() < p.cards_left[seat] {
            hand = hand.add(next.next()?, 1);
        }
        hands[seat] = hand;
    }
    Some(hands)
}

/// Plays a position to the end with every seat played by `ddzlib`, starting with `first`
/// played by `p.me`; returns its worth for `p.me` by `config.objective` at the bomb stake
/// (capped; no base, no spring) and the playouts it took. With `net` (`pnet`, `leaf=net`),
/// the network plays the first `config.playout_net_turns` turns after `first`, and with
/// `leaf=net` the playout ends there, worth the network's estimate of the outcome at the
/// stake so far. With `config.replies` above 1, the next seat's first choices are each played
/// out (with the same draws) and the worst for `p.me` counts when that seat is an opponent,
/// the best when it is the teammate. Moves go through [`PlayState::apply_legal`]: each is one
/// the seat may make, and no view is built.
#[allow(clippy::too_many_arguments)]
fn playout(
    p: &Decision,
    hands: BySeat<Cards>,
    first: Move,
    config: &SearchConfig,
    seats: &mut Seats,
    soft: Option<&mut SoftDraws>,
    mut endgame: Option<&mut Endgame>,
    mut net: Option<&mut NetPlayer>,
) -> (f64, u64) {
    let rules = &p.rules;
    let mut state = PlayState::with_trick(hands, Trick::at(p.me, p.last));
    state.apply_legal(first, rules);
    let root = Root {
        landlord: p.landlord,
        played: p.played,
        history: &p.history,
        ddzlib_seats: p.ddzlib_seats,
    };
    let stake = |state: &PlayState| {
        state
            .bomb_multiplier()
            .min(rules.multiplier_cap.unwrap_or(u32::MAX))
    };
    let mut to_end = |mut state: PlayState,
                      seats: &mut Seats,
                      soft: Option<&mut SoftDraws>,
                      moves: &[(Seat, Move)]| {
        if let Some(net) = net.as_deref_mut() {
            net.start(&root, moves);
            net.play(
                &mut state,
                &root,
                &hands,
                rules,
                seats,
                config.playout_net_turns,
            );
            if config.net_leaf && !state.is_over() {
                let value = net.landlord_value(&state, &root, &hands, rules);
                let side = if p.me == p.landlord { value } else { -value };
                // The expected worth: a win's worth times the chance to win less the chance
                // to lose.
                let win =
                    config
                        .objective
                        .worth(p.me, p.landlord, p.me == p.landlord, stake(&state));
                return side * win as f64;
            }
        }
        if let Some(end) = endgame.as_deref_mut() {
            end.reset();
        }
        let landlord_won = bidding::finish(
            &mut state,
            rules,
            p.landlord,
            seats,
            soft,
            endgame.as_deref_mut(),
        );
        config
            .objective
            .worth(p.me, p.landlord, landlord_won, stake(&state)) as f64
    };
    if config.replies > 1 && state.first_out().is_none() {
        let seat = state.turn();
        let turn = state.turn_view(rules, p.landlord);
        let Seats { bots, buf } = seats;
        let replies: Vec<Move> = bots[seat.index()]
            .options(&turn, buf, config.replies)
            .to_vec();
        if replies.len() > 1 {
            let friend = (seat == p.landlord) == (p.me == p.landlord);
            let mut worst_or_best: Option<f64> = None;
            for &reply in &replies {
                let mut branch = state;
                branch.apply_legal(reply, rules);
                let mut draws = soft.as_deref().cloned();
                let moves = [(p.me, first), (seat, reply)];
                let worth = to_end(branch, seats, draws.as_mut(), &moves);
                worst_or_best = Some(match worst_or_best {
                    None => worth,
                    Some(w) if friend => w.max(worth),
                    Some(w) => w.min(worth),
                });
            }
            return (worst_or_best.unwrap_or(0.0), replies.len() as u64);
        }
    }
    (to_end(state, seats, soft, &[(p.me, first)]), 1)
}

/// The playout robots of one thread (one `ddzlib` robot a seat), the opponent model of the
/// inference, the solver of the playouts' endgames, and the thread's move buffer.
struct Players {
    seats: Seats,
    model: DdzlibBot,
    endgames: Option<Solver>,
    /// The network's player, when the playouts read it (`pnet`, `leaf=net`).
    net: Option<NetPlayer>,
    /// The network as the opponent model of the follows, when asked (`inet`).
    opponents: Option<NetModel>,
}

/// Hands a playout robot's split memo holds: a decision's playouts meet thousands.
const PLAYOUT_MEMO: usize = 4096;

impl Players {
    /// A thread's players, the network's among them when `net` is given, and the network
    /// model of the other seats' follows at its temperature when `opponents` is.
    fn new(net: Option<&Arc<Net>>, opponents: Option<&(Arc<Net>, f64)>) -> Players {
        Players {
            seats: Seats::with_memo(PLAYOUT_MEMO),
            model: DdzlibBot::with_memo(PLAYOUT_MEMO),
            endgames: None,
            net: net.map(|net| NetPlayer::new(net.clone())),
            opponents: opponents.map(|(net, t)| NetModel::new(net.clone(), *t)),
        }
    }
}

/// Samples dealt at a time: every alive candidate is scored on each, the work split over the
/// threads; the budget is looked at between batches, so the batch size (not the thread
/// count) decides how many samples a round takes.
const BATCH: u32 = 4;

/// The node budget of a playout's endgame solve (about 20 playouts' work).
const ENDGAME_NODES: u64 = 1_000;

/// The size of the playouts' endgame solver's table (2^bits entries), emptied every sample.
const ENDGAME_TABLE_BITS: u32 = 12;

/// Solver nodes that count as one playout in the budget (a playout costs about as much as
/// this many nodes).
const NODES_PER_PLAYOUT: u64 = 50;

/// Samples whose log-likelihoods set a decision's tempering ([`Tempering::of`]).
const PILOT: u32 = 16;

/// How a decision turns a sample's log-likelihood into its weight: `exp(scale × (ll −
/// reference))`, the scale chosen so that the pilot samples keep the effective size asked
/// for ([`SearchConfig::ess`]).
#[derive(Clone, Copy, Debug)]
struct Tempering {
    scale: f64,
    reference: f64,
}

impl Tempering {
    /// The tempering of decision `p` (drawing the pilot from `seed`, as the first samples are
    /// drawn), or `None` without inference.
    fn of(
        p: &Decision,
        config: SearchConfig,
        seed: u64,
        players: &mut Players,
    ) -> Option<Tempering> {
        let seen = p.observations.as_ref().filter(|_| config.infer)?;
        let (model, mut opponents) = (&mut players.model, players.opponents.as_mut());
        let lls: Vec<f64> = (0..PILOT)
            .filter_map(|s| deal(p, derive_seed(seed, u64::from(s))))
            .map(|hands| {
                read_sample(
                    seen,
                    &hands,
                    &p.rules,
                    &config,
                    model,
                    opponents.as_deref_mut(),
                )
                .0
            })
            .collect();
        let reference = lls.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !reference.is_finite() {
            return None;
        }
        let ess = |scale: f64| {
            let (sum, squares) = lls.iter().fold((0.0, 0.0), |(a, b), ll| {
                let w = (scale * (ll - reference)).exp();
                (a + w, b + w * w)
            });
            sum * sum / squares / lls.len() as f64
        };
        // The largest scale in [0, 1] keeping the share: the share falls as the scale grows.
        let scale = if ess(1.0) >= config.ess {
            1.0
        } else {
            let (mut low, mut high) = (0.0, 1.0);
            for _ in 0..30 {
                let mid = (low + high) / 2.0;
                if ess(mid) >= config.ess {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            low
        };
        Some(Tempering { scale, reference })
    }

    /// The weight of a sample of log-likelihood `ll`.
    fn weight(self, ll: f64) -> f64 {
        // Clamped: below −700 `exp` rounds to 0; above, a sample far likelier than the pilot's
        // best would overflow.
        (self.scale * (ll - self.reference))
            .clamp(-700.0, 60.0)
            .exp()
    }
}

/// The other seats of `view` that `popp=auto` reads as playing like the `ddzlib` robot
/// ([`PlayoutOpponents::Auto`]), by `config`'s models over `samples` samples drawn from
/// `seed` ([`ddzlib_like`]): none before the landlord is known or without a history to read.
/// The search reads them from its own samples; this is the same reading on fresh ones.
pub fn ddzlib_like_seats(
    view: &SeatView,
    config: &SearchConfig,
    seed: u64,
    samples: u32,
) -> BySeat<bool> {
    let Some(landlord) = view.landlord() else {
        return BySeat([false; 3]);
    };
    let p = Decision::of(view, landlord, config.infer_bids);
    let Some(seen) = p.observations.as_ref() else {
        return BySeat([false; 3]);
    };
    let mut model = DdzlibBot::new();
    let readings: Vec<Reading> = (0..samples)
        .filter_map(|s| deal(&p, derive_seed(seed, u64::from(s))))
        .map(|hands| read_sample(seen, &hands, &p.rules, config, &mut model, None).1)
        .collect();
    ddzlib_like(&readings, p.me)
}

/// What a sample says of the other seats under the mixture of the plain and the sharp
/// models ([`SearchConfig::sharp`], at its prior share, or an even one when `sharp=0`): the
/// sample's log-likelihood under it, and each seat's posterior chance of the sharp model
/// given the sample.
#[derive(Clone, Copy, Debug)]
struct Reading {
    log_likelihood: f64,
    sharp_chance: [f64; 3],
}

/// The other seats that play like the `ddzlib` robot, from the `readings` of a set of
/// samples drawn uniformly: those whose posterior chance of the sharp model (each sample's
/// chance weighed by its likelihood under the mixture) is above one half.
fn ddzlib_like(readings: &[Reading], me: Seat) -> BySeat<bool> {
    let top = readings
        .iter()
        .map(|r| r.log_likelihood)
        .fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return BySeat([false; 3]);
    }
    let weight = |r: &Reading| (r.log_likelihood - top).exp();
    let total: f64 = readings.iter().map(weight).sum();
    BySeat::from_fn(|seat| {
        let sharp: f64 = readings
            .iter()
            .map(|r| weight(r) * r.sharp_chance[seat.index()])
            .sum();
        seat != me && sharp / total > 0.5
    })
}

/// The log-likelihood of a sample's `hands` given what was `seen`, under the model of
/// `config` (at its temperature, or with [`SearchConfig::sharp`] each seat's own by the
/// mixture of the sharp and the plain model), and, when the sharp model is in use or
/// `popp=auto` reads the seats, the sample's [`Reading`]. Without those, `opponents` (`inet`)
/// reads the follows when given.
fn read_sample(
    seen: &Observations,
    hands: &BySeat<Cards>,
    rules: &Rules,
    config: &SearchConfig,
    model: &mut DdzlibBot,
    opponents: Option<&mut NetModel>,
) -> (f64, Reading) {
    let reads = config.playout_opponents == PlayoutOpponents::Auto;
    if config.sharp <= 0.0 && !reads {
        let ll = match opponents {
            Some(net) => seen.log_likelihood_by_net(hands, rules, config.temperature, model, net),
            None => seen.log_likelihood(hands, rules, config.temperature, model),
        };
        let reading = Reading {
            log_likelihood: ll,
            sharp_chance: [0.0; 3],
        };
        return (ll, reading);
    }
    let temperatures = [config.temperature, config.sharp_temperature];
    let seats = seen.seat_log_likelihoods(hands, rules, temperatures, model);
    let share = if config.sharp > 0.0 {
        config.sharp
    } else {
        0.5
    };
    let (plain, sharp) = ((1.0 - share).ln(), share.ln());
    let mut reading = Reading {
        log_likelihood: 0.0,
        sharp_chance: [0.0; 3],
    };
    for (k, &[l0, l1]) in seats.0.iter().enumerate() {
        // ln((1 − s)·e^l0 + s·e^l1), computed from the larger term.
        let (a, b) = (plain + l0, sharp + l1);
        let top = a.max(b);
        let mix = top + ((a - top).exp() + (b - top).exp()).ln();
        reading.log_likelihood += mix;
        reading.sharp_chance[k] = (b - mix).exp();
    }
    let ll = if config.sharp > 0.0 {
        reading.log_likelihood
    } else {
        seats.0.iter().map(|l| l[0]).sum()
    };
    (ll, reading)
}

/// The fewest samples `popp=auto` reads the other seats from: the `ddzlib` rounds' samples,
/// topped up with samples of their own when they are fewer (at 64 a test reads `ddzlib`
/// players as such in two cases of three, at 256 in four of five).
pub const MIN_READINGS: u32 = 128;

/// The work a whole playout by `net-classic` (256-256-128 hidden units) counts for in a
/// `Count` budget: at the median it costs about seven `ddzlib` playouts (0.2 ms against
/// 28 µs, BENCHMARKS.md), more in the slow decisions (leads with many plays), and at 16 the
/// budget of the time kept its 99th percentile within 150 ms (at 8 it reached 148 ms).
/// Another network's playout counts in proportion to its parameters
/// ([`net_playout_work`]).
const NET_PLAYOUT_WORK: u64 = 16;

/// `net-classic`'s parameters, the measure of [`NET_PLAYOUT_WORK`].
const NET_PLAYOUT_WORK_PARAMETERS: u64 = 273_153;

/// The work a whole playout by `net` counts for in a `Count` budget: [`NET_PLAYOUT_WORK`] in
/// proportion to its parameters (rounded, at least 1), which a playout's cost follows: the
/// shipped playout network ([`Net::small`]), 35% of `net-classic`'s, costs 35% as much
/// (BENCHMARKS.md) and counts 6.
fn net_playout_work(net: &Net) -> u64 {
    let parameters = net.mlp().parameters() as u64;
    ((NET_PLAYOUT_WORK * parameters + NET_PLAYOUT_WORK_PARAMETERS / 2)
        / NET_PLAYOUT_WORK_PARAMETERS)
        .max(1)
}

/// How sequential halving shares the budget among its rounds: the rounds by `ddzlib` playouts
/// equally, and with [`SearchConfig::final_net`] the last rounds, by the network's playouts,
/// equally among them, [`SearchConfig::final_share`] of the budget in all.
struct Rounds {
    /// Rounds from the first one on that play by the network.
    net_from: u32,
    /// Each round's share of the budget, first to last.
    shares: Vec<f64>,
}

impl Rounds {
    /// Round `round`'s share of a budget of `n` playouts.
    fn count_share(&self, n: u64, round: u32) -> u64 {
        if self.net_from as usize >= self.shares.len() {
            // Every round by `ddzlib`: equal integer shares.
            n / self.shares.len().max(1) as u64
        } else {
            let share = self.shares.get(round as usize).copied().unwrap_or(1.0);
            (n as f64 * share) as u64
        }
    }

    /// The rounds of a search among `candidates` candidates under `config` and `rules`.
    fn of(candidates: usize, config: &SearchConfig, rules: &Rules) -> Rounds {
        let final_net = config.final_net_for(rules);
        // How many candidates each round starts with.
        let mut alive = Vec::new();
        let mut k = candidates.max(2);
        while k > 1 {
            alive.push(k);
            k = k.div_ceil(2);
        }
        let by_net = alive
            .iter()
            .filter(|&&k| final_net >= 2 && k <= final_net)
            .count();
        let by_ddzlib = alive.len() - by_net;
        let net_share = match (by_ddzlib, by_net) {
            (_, 0) => 0.0,
            (0, _) => 1.0,
            _ => config.final_share,
        };
        let shares = alive
            .iter()
            .enumerate()
            .map(|(i, _)| {
                if i < by_ddzlib {
                    (1.0 - net_share) / by_ddzlib as f64
                } else {
                    net_share / by_net as f64
                }
            })
            .collect();
        Rounds {
            net_from: by_ddzlib as u32,
            shares,
        }
    }
}

/// Sequential halving over the candidates on shared samples: ⌈log2 K⌉ rounds share the budget
/// ([`Rounds`]); each round scores every candidate still in on new batches of samples until its
/// share is spent, then keeps the better half by weighted total (with `fnet`, in the
/// network's rounds, by the mean of its `ddzlib` and network playouts' mean worths). Returns
/// the best candidate.
fn search(
    p: &Decision,
    candidates: &[Move],
    prior: &[f64],
    playout_net: Option<Arc<Net>>,
    opponent_net: Option<(Arc<Net>, f64)>,
    config: SearchConfig,
    seed: u64,
) -> Move {
    let start = Instant::now();
    let budget = config.budget_for(&p.rules);
    let net_work = playout_net
        .as_deref()
        .map_or(NET_PLAYOUT_WORK, net_playout_work);
    // One set of playout robots per thread, kept over the batches: their split memos fill up
    // with the sampled hands (a memo changes no decision, so the results do not depend on it).
    let mut players: Vec<Players> = (0..config.threads.clamp(1, BATCH as usize))
        .map(|_| Players::new(playout_net.as_ref(), opponent_net.as_ref()))
        .collect();
    let tempering = Tempering::of(p, config, seed, &mut players[0]);
    // With `popp=ddzlib` the opponents; with `popp=auto`, read from the `ddzlib` rounds'
    // samples once the network's rounds begin.
    let mut decision = p.clone();
    if config.playout_opponents == PlayoutOpponents::Ddzlib {
        decision.ddzlib_seats = BySeat::from_fn(|s| (s == p.landlord) != (p.me == p.landlord));
    }
    let mut readings: Vec<Reading> = Vec::new();
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    // The weighted worths of the `ddzlib` playouts ([0]) and of the network's ([1]), and the
    // samples' total weights: every alive candidate has seen every sample of its kind so far.
    let mut totals = [vec![0f64; candidates.len()], vec![0f64; candidates.len()]];
    let mut weights = [0f64; 2];
    let rounds = Rounds::of(candidates.len(), &config, &p.rules);
    let net_config = SearchConfig {
        playout_net_turns: 1000,
        net_leaf: false,
        ..config
    };
    let mut sample: u32 = 0;
    let mut round = 0;
    // The share of the budget the rounds so far may take.
    let mut allowed = 0.0;
    while alive.len() > 1 {
        let by_net = round >= rounds.net_from && playout_net.is_some();
        if by_net
            && round == rounds.net_from
            && let (PlayoutOpponents::Auto, Some(seen)) =
                (config.playout_opponents, &p.observations)
        {
            // Too few readings from the `ddzlib` rounds (none when the network's rounds come
            // first): more, on samples of their own.
            let mut extra = sample;
            while readings.len() < MIN_READINGS as usize && extra < sample + MIN_READINGS {
                if let Some(hands) = deal(p, derive_seed(seed, u64::from(extra))) {
                    let model = &mut players[0].model;
                    readings.push(read_sample(seen, &hands, &p.rules, &config, model, None).1);
                }
                extra += 1;
            }
            decision.ddzlib_seats = ddzlib_like(&readings, p.me);
        }
        let kind = usize::from(by_net);
        allowed += rounds.shares.get(round as usize).copied().unwrap_or(0.0);
        round += 1;
        let mut used: u64 = 0;
        loop {
            let batch = Batch {
                alive: &alive,
                from: sample,
                tempering,
            };
            let round_config = if by_net { net_config } else { config };
            let (rows, work) = run_batch(
                &decision,
                candidates,
                &batch,
                round_config,
                seed,
                &mut players,
            );
            // Summed in sample order, whatever the threads: the totals are the same bits.
            for row in rows {
                readings.extend(row.reading);
                weights[kind] += row.weight;
                for (k, &c) in alive.iter().enumerate() {
                    totals[kind][c] += row.weight * row.worth[k];
                }
            }
            sample += BATCH;
            used += if by_net { work * net_work } else { work };
            let done = match budget {
                Budget::Count(n) => used >= rounds.count_share(n, round - 1),
                // Each round until the share of the time of the rounds so far is spent.
                Budget::Time(limit) => start.elapsed() >= limit.mul_f64(allowed.min(1.0)),
            };
            if done {
                break;
            }
        }
        // Every alive candidate has seen the same samples: compare mean worths (plus the
        // network's prior when asked; without it the order is the totals'), in the network's
        // rounds the mean of the two kinds of playouts' means.
        let mean = |kind: usize, c: usize| totals[kind][c] / weights[kind].max(f64::MIN_POSITIVE);
        let rank = |c: usize| match (prior.get(c), weights[1] > 0.0) {
            (None, false) => totals[0][c],
            (Some(prior), false) => mean(0, c) + prior,
            (prior, true) => {
                let ddzlib = if weights[0] > 0.0 {
                    mean(0, c)
                } else {
                    mean(1, c)
                };
                (ddzlib + mean(1, c)) / 2.0 + prior.copied().unwrap_or(0.0)
            }
        };
        alive.sort_by(|&a, &b| rank(b).total_cmp(&rank(a)).then(a.cmp(&b)));
        alive.truncate(alive.len().div_ceil(2));
    }
    candidates[alive[0]]
}

/// What one batch scores: the candidates still in (indices), the first sample, the weighting.
struct Batch<'a> {
    alive: &'a [usize],
    from: u32,
    tempering: Option<Tempering>,
}

/// One sample's results: its weight, what each alive candidate was worth on it, and what it
/// says of the other seats (with `popp=auto`).
struct Row {
    weight: f64,
    worth: Vec<f64>,
    reading: Option<Reading>,
}

/// Scores each alive candidate on one batch of samples (from `from` on), the samples split
/// over the threads; returns a row a sample, in sample order, and the work done in playouts
/// (a solver call counts its nodes). Neither depends on the split.
fn run_batch(
    p: &Decision,
    candidates: &[Move],
    batch: &Batch,
    config: SearchConfig,
    seed: u64,
    players: &mut [Players],
) -> (Vec<Row>, u64) {
    let Batch {
        alive,
        from,
        tempering,
    } = *batch;
    let samples: Vec<u32> = (from..from + BATCH).collect();
    let work = |part: &[u32], players: &mut Players| -> (Vec<Row>, u64) {
        let Players {
            seats,
            model,
            endgames,
            net,
            opponents,
        } = players;
        let mut rows = Vec::with_capacity(part.len());
        let mut work = 0;
        for &s in part {
            let sample_seed = derive_seed(seed, u64::from(s));
            let Some(hands) = deal(p, sample_seed) else {
                work += alive.len() as u64;
                continue;
            };
            let (weight, reading) = match (&p.observations, tempering) {
                (Some(seen), Some(t)) => {
                    let (ll, reading) =
                        read_sample(seen, &hands, &p.rules, &config, model, opponents.as_mut());
                    let reads = config.playout_opponents == PlayoutOpponents::Auto;
                    (t.weight(ll), reads.then_some(reading))
                }
                _ => (1.0, None),
            };
            // The endgames' solver, emptied for each sample: what it proves depends on the
            // sample alone.
            let mut endgame = (config.playout_solve > 0).then(|| {
                let solver = endgames.get_or_insert_with(|| {
                    Solver::new(&p.rules)
                        .with_node_limit(ENDGAME_NODES)
                        .with_table_bits(ENDGAME_TABLE_BITS)
                });
                solver.clear();
                Endgame::new(solver, config.playout_solve)
            });
            // A fresh solver for each sample: what it proves depends on the sample alone.
            let mut solver = (config.solve_cards > 0
                && hands.0.iter().map(|h| h.len()).sum::<u32>() <= config.solve_cards)
                .then(|| {
                    Solver::new(&p.rules)
                        .with_node_limit(config.solve_nodes)
                        .with_table_bits(18)
                });
            let mut worth = Vec::with_capacity(alive.len());
            for &c in alive {
                let exact = solver.as_mut().and_then(|solver| {
                    let position =
                        SolverPosition::three(hands.0, p.landlord, p.me, p.last, &p.rules).ok()?;
                    let won = solver.move_wins(&position, &candidates[c]);
                    work += 1 + solver.nodes() / NODES_PER_PLAYOUT;
                    won.ok()
                });
                worth.push(match exact {
                    Some(won) => {
                        config
                            .objective
                            .worth(p.me, p.landlord, won == (p.me == p.landlord), 1)
                            as f64
                    }
                    None => {
                        // The same draws for every candidate on a sample: common random
                        // numbers, so that candidates differ by their move, not by luck.
                        let mut draws = (config.playout_temperature > 0.0).then(|| {
                            SoftDraws::new(config.playout_temperature, derive_seed(sample_seed, 1))
                        });
                        let nodes_before = endgame.as_ref().map_or(0, |e| e.nodes);
                        let (worth, playouts) = playout(
                            p,
                            hands,
                            candidates[c],
                            &config,
                            seats,
                            draws.as_mut(),
                            endgame.as_mut(),
                            net.as_mut(),
                        );
                        let nodes = endgame.as_ref().map_or(0, |e| e.nodes) - nodes_before;
                        work += playouts + nodes / NODES_PER_PLAYOUT;
                        worth
                    }
                });
            }
            rows.push(Row {
                weight,
                worth,
                reading,
            });
        }
        (rows, work)
    };
    let threads = players.len().clamp(1, samples.len());
    if threads == 1 {
        return work(&samples, &mut players[0]);
    }
    let chunk = samples.len().div_ceil(threads);
    let parts: Vec<(Vec<Row>, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .zip(players.iter_mut())
            .map(|(part, players)| scope.spawn(move || work(part, players)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| (Vec::new(), 0)))
            .collect()
    });
    let mut rows = Vec::with_capacity(samples.len());
    let mut work = 0;
    for (part, w) in parts {
        work += w;
        rows.extend(part);
    }
    (rows, work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bot;
    use ddz_core::{Profile, legal_moves_into};
    use ddz_game::{Game, Phase, below};

    /// The playout as it was before the play state: the trick re-derived from the last play,
    /// a [`SeatView`] built for every simulated move, the stake a running capped product.
    fn former_playout(
        p: &Decision,
        hands: BySeat<Cards>,
        first: Move,
        bots: &mut [DdzlibBot; 3],
    ) -> i64 {
        let rules = &p.rules;
        let cap = rules.multiplier_cap.unwrap_or(u32::MAX);
        let mut hands = hands;
        let mut stake: u32 = 1;
        let mut last = p.last;
        let mut seat = p.me;
        let mut play = first;
        let mut buf: Vec<Move> = Vec::new();
        loop {
            if !play.is_pass() {
                hands[seat] = hands[seat].minus(play.cards());
                stake = stake
                    .saturating_mul(ddz_game::bomb_factor(&play, rules))
                    .min(cap);
                if hands[seat].is_empty() {
                    return Objective::Score.worth(p.me, p.landlord, seat == p.landlord, stake);
                }
                last = Some((seat, play));
            }
            seat = seat.next();
            let to_beat = last.filter(|(s, _)| *s != seat);
            legal_moves_into(
                hands[seat],
                to_beat.as_ref().map(|(_, m)| m),
                rules,
                &mut buf,
            );
            let cards_left = BySeat::from_fn(|s| hands[s].len());
            let view =
                SeatView::position(rules, seat, p.landlord, hands[seat], cards_left, to_beat);
            play = bots[seat.index()].play(&view, &buf);
        }
    }

    #[test]
    fn playouts_equal_the_former_copy_on_random_positions() {
        let mut checked = 0;
        for profile in Profile::ALL {
            let mut rules = Rules::profile(profile);
            rules.bidding = ddz_core::Bidding::Fixed;
            for seed in 0..300u64 {
                let mut game = Game::new(&rules, seed);
                let mut r = rng(seed);
                // Somewhere into the game, at random.
                let steps = below(&mut r, 40);
                for _ in 0..steps {
                    let moves = game.legal_moves();
                    if game.phase() != Phase::Playing || moves.len() < 2 {
                        break;
                    }
                    let m = moves[below(&mut r, moves.len() as u64) as usize];
                    game.play(game.turn(), m).unwrap();
                }
                if game.phase() != Phase::Playing {
                    continue;
                }
                let view = game.view(game.turn());
                let p = Decision::of(&view, view.landlord().unwrap(), true);
                let allowed = game.legal_moves();
                // The former copy scored the seat's score.
                let config = SearchConfig {
                    objective: Objective::Score,
                    ..SearchConfig::default()
                };
                for sample in 0..3 {
                    let Some(hands) = deal(&p, derive_seed(seed, sample)) else {
                        continue;
                    };
                    for &first in allowed.iter().take(6) {
                        let mut a = Seats::with_memo(64);
                        let mut b = [DdzlibBot::new(), DdzlibBot::new(), DdzlibBot::new()];
                        assert_eq!(
                            playout(&p, hands, first, &config, &mut a, None, None, None).0,
                            former_playout(&p, hands, first, &mut b) as f64,
                            "{profile} seed {seed} first {first}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5_000, "only {checked} playouts checked");
    }

    #[test]
    fn a_network_playout_counts_as_its_share_of_net_classics_parameters() {
        assert_eq!(net_playout_work(&Net::embedded()), NET_PLAYOUT_WORK);
        assert_eq!(net_playout_work(&Net::small()), 6);
    }

    #[test]
    fn the_rounds_share_the_budget_between_the_two_kinds_of_playouts() {
        let classic = Rules::classic();
        let with = |final_net: usize, final_share: f64| SearchConfig {
            final_net: Some(final_net),
            final_share,
            ..SearchConfig::default()
        };
        // 12 candidates: rounds of 12, 6, 3 and 2.
        let plain = Rounds::of(12, &with(0, 0.5), &classic);
        assert_eq!((plain.net_from, plain.shares.len()), (4, 4));
        assert_eq!(plain.count_share(1000, 0), 250, "equal integer shares");
        let hybrid = Rounds::of(12, &with(3, 0.4), &classic);
        assert_eq!(hybrid.net_from, 2, "the rounds of 3 and 2 by the network");
        let expected = [0.3, 0.3, 0.2, 0.2];
        for (share, want) in hybrid.shares.iter().zip(expected) {
            assert!((share - want).abs() < 1e-12, "{:?}", hybrid.shares);
        }
        assert_eq!(hybrid.count_share(1000, 2), 200);
        // Every round by the network: the whole budget.
        let all = Rounds::of(3, &with(4, 0.4), &classic);
        assert_eq!(all.net_from, 0);
        assert!((all.shares.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // The default: by the network from three candidates on without wild cards, never
        // with them.
        let default = SearchConfig::default();
        assert_eq!(Rounds::of(12, &default, &classic).net_from, 2);
        assert_eq!(Rounds::of(12, &default, &Rules::laizi()).net_from, 4);
    }
}
