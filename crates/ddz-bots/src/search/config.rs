//! The `search` robot's settings: the options of `search:key=value:...` and their defaults.

use crate::BotError;
use ddz_core::{Rules, Wild};
use ddz_game::Budget;

use super::tuning::*;
use std::time::Duration;

/// The `search` robot's settings. A user sets the options of `search:key=value:...`
/// ([`SearchConfig::OPTIONS`]); the other fields are the search's tuning, set from the
/// constants of search/tuning.rs ([`CANDIDATES`] and the others; each with the measurement that chose it) and open to a
/// program that builds a configuration itself (the robot levels, experiments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// The budget per decision: a number of playouts (`iters=N`, [`Budget::Count`],
    /// deterministic; an exact solve counts 1 + its nodes / 50) or a time (`time=500ms`,
    /// `time=1s`); `None` (neither option given) is the rules' default
    /// ([`SearchConfig::budget_for`]).
    pub budget: Option<Budget>,
    /// Worker threads (`threads=N`); the result does not depend on it.
    pub threads: usize,
    /// Samples holding at most this many cards in all three hands are solved exactly instead
    /// of played out (`solve=N`; 0 never).
    pub solve_cards: u32,
    /// Weight each sample by how likely it makes the other seats' past plays under the
    /// `ddzlib` model ([`super::infer`]; `infer=1`, `infer=0` off).
    pub infer: bool,
    /// How the robot bids: by its estimated chance as landlord (`bid=search`,
    /// [`super::bidding::landlord_chance`]) or as the `ddzlib` robot does (`bid=ddzlib`).
    pub bid_by_search: bool,
    /// Most candidate moves searched ([`CANDIDATES`]).
    pub candidates: usize,
    /// Node budget of one exact solve; past it the sample is played out ([`SOLVE_NODES`]).
    pub solve_nodes: u64,
    /// With `infer`, weigh the samples by the other seats' bids too ([`INFER_BIDS`]).
    pub infer_bids: bool,
    /// The inference model's temperature: lower trusts it more ([`TEMPERATURE`]).
    pub temperature: f64,
    /// How much of the samples' worth the weights may keep, as an effective sample size
    /// (from 0 to 1): each decision tempers its log-weights (multiplies them by the largest
    /// factor up to 1) so that a pilot of samples keeps this share of its size. Lower trusts
    /// the model more; 1 weighs nothing ([`ESS`]).
    pub ess: f64,
    /// The chance as landlord from which the robot bids ([`BID_THRESHOLD`]).
    pub bid_threshold: f64,
    /// The `net` robot's network's best-scored plays among the candidates (the first N after
    /// the seed robots' choices and the pass; 0 none; [`NET_CANDIDATES`]).
    pub net_candidates: usize,
    /// Each candidate's ranking adds this many times the network's score of it (in playout
    /// worth units; 0 none): the network as a prior the playouts correct ([`NET_PRIOR`]).
    pub net_prior: f64,
    /// The last rounds, once at most this many candidates are left, play whole playouts by
    /// the network (0 never): the dearer, better evaluation spent on the few candidates the
    /// `ddzlib` playouts could not part. A candidate's ranking there is the mean of its two
    /// playouts' mean worths (and the prior). `None` is the rules' default
    /// ([`SearchConfig::final_net_for`]).
    pub final_net: Option<usize>,
    /// The share of the budget the network's rounds take when rounds by the `ddzlib`
    /// playouts come before them (all of it otherwise; [`FINAL_SHARE`]).
    pub final_share: f64,
}

impl Default for SearchConfig {
    /// The rules' default budget (3,000 playouts; 1,000 in laizi, 300 in heaven-and-earth:
    /// under 150 ms a decision at the 99th percentile on this project's 2-core VM,
    /// BENCHMARKS.md), one thread, samples of 16 cards or fewer solved, the inference on,
    /// bids by the search, and the tuning constants ([`CANDIDATES`] and the others).
    fn default() -> SearchConfig {
        SearchConfig {
            budget: None,
            threads: 1,
            solve_cards: SOLVE_CARDS,
            infer: true,
            bid_by_search: true,
            candidates: CANDIDATES,
            solve_nodes: SOLVE_NODES,
            infer_bids: INFER_BIDS,
            temperature: TEMPERATURE,
            ess: ESS,
            bid_threshold: BID_THRESHOLD,
            net_candidates: NET_CANDIDATES,
            net_prior: NET_PRIOR,
            final_net: None,
            final_share: FINAL_SHARE,
        }
    }
}

/// The default of [`SearchConfig::final_net`] under rules without wild cards (it was the
/// option `fnet`): the network's playouts decide among the last three candidates
/// (docs/strength-runs/search-fnet3-and-sharp.md, net-playouts-last-rounds-default.md).
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

    /// The options a user sets after `search:` (`weights` and `pweights`, which name network
    /// files, are read by [`crate::BotSpec`]).
    pub const OPTIONS: [&str; 8] = [
        "iters", "time", "threads", "solve", "infer", "bid", "weights", "pweights",
    ];

    /// Reads the options after `search`: `time=500ms`, `time=2s`, `iters=2000`, `threads=2`,
    /// `solve=0`, `infer=0`, `bid=ddzlib`. An unknown key (among them every option the search
    /// once had and no longer has) or a bad value is an error naming it.
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
                "solve" => {
                    // 0 turns the solver off.
                    config.solve_cards = match value.trim() {
                        "0" => 0,
                        v => number(v)?.min(54) as u32,
                    }
                }
                "infer" => config.infer = switch(key, value)?,
                "bid" => config.bid_by_search = either("search", "ddzlib", "search or ddzlib")?,
                other => return Err(BotError::UnknownOption(other.to_string())),
            }
        }
        Ok(config)
    }

    /// The [`SearchConfig::final_net`] in force under `rules`: the one set, else [`DEFAULT_FINAL_NET`] under
    /// rules without wild cards and 0 (never) with them (the network was trained under
    /// classic rules, and a wildcard playout by it was not measured).
    pub fn final_net_for(&self, rules: &Rules) -> usize {
        self.final_net.unwrap_or(match rules.wild {
            Wild::None => DEFAULT_FINAL_NET,
            Wild::Single | Wild::HeavenEarth => 0,
        })
    }

    /// Whether the robot reads the network under some rules: for its candidates, its prior
    /// or the last rounds' playouts (all three by default).
    pub fn reads_net(&self) -> bool {
        self.net_candidates > 0 || self.net_prior > 0.0 || self.final_net.is_none_or(|n| n >= 2)
    }

    /// Whether the playouts read the network under `rules`: whole playouts by it in the last
    /// rounds ([`SearchConfig::final_net_for`]).
    pub(super) fn net_in_playouts(&self, rules: &Rules) -> bool {
        self.final_net_for(rules) >= 2
    }
}

/// An on/off option's value: `1`/`on` or `0`/`off`.
pub(super) fn switch(key: &str, value: &str) -> Result<bool, BotError> {
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

/// A duration read from `500ms`, `2s`, `1.5s`, or a plain number of milliseconds (above 0, at
/// most an hour).
pub fn parse_duration(text: &str) -> Result<Duration, BotError> {
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
