//! The `search` robot's settings: the options of `search:key=value:...` and their defaults.

use crate::BotError;
use ddz_core::{Rules, Wild};
use ddz_game::{Budget, Seat, Side, side_scores};
use std::time::Duration;

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
    /// [`super::bidding::landlord_chance`]) or as the `ddzlib` robot does (`bid=ddzlib`).
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
    pub(super) fn worth(self, me: Seat, landlord: Seat, landlord_won: bool, stake: u32) -> i64 {
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
    pub(super) fn net_opponents_for(&self, rules: &Rules) -> Option<f64> {
        (self.net_opponent_temperature > 0.0 && rules.wild == Wild::None)
            .then_some(self.net_opponent_temperature)
    }

    /// Whether the playouts read the network under `rules` (`pnet`, `leaf=net`, `fnet`).
    pub(super) fn net_in_playouts(&self, rules: &Rules) -> bool {
        self.playout_net_turns > 0 || self.net_leaf || self.final_net_for(rules) >= 2
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

/// `500ms`, `2s`, `1.5s`, or a plain number of milliseconds.
pub(super) fn parse_duration(text: &str) -> Result<Duration, BotError> {
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
