//! # ddz-arena
//!
//! How strong is a robot? Robots play each other over the same deals with the roles swapped
//! (DouZero's evaluation protocol), and the arena reports each robot's winning percentage (WP)
//! and average difference in points (ADP) with 95% confidence intervals ([`tally`]).
//!
//! - [`Format::Duplicate`] (the default): each deal is played twice, A as landlord in seat 0
//!   against two B farmers, then B as landlord against two A farmers; no bidding, DouZero's
//!   scoring (the landlord wins or loses 2 × the bomb multiplier, each farmer 1 ×; no spring).
//!   A's points are in landlord units: as landlord the landlord's score, as farmers the two
//!   farmers' total. A robot against itself scores exactly 0.5 and 0.
//! - [`Format::Bidding`]: each deal is played six times with bidding and the rule set's own
//!   scoring: A alone in each seat against two B, then B alone in each seat against two A. A's
//!   score is its lone seat's score (in the games where B is alone, minus B's lone seat's
//!   score: the game is zero-sum), and a win is a game its lone seat's side won (B's lost).
//!
//! Deals are played in parallel (rayon) and each game's robots are seeded from the game, so a
//! run's figures do not depend on the thread count. Runs can be split into shards
//! ([`Shard`]) whose reports merge ([`Report::merge`]) into exactly the unsharded figures.
//!
//! Robots are given as parsed specs ([`BotSpec`]); external robots (programs speaking
//! `ddz-jsonl/1`, named in a [`ddz_bots::Registry`]) play like the built-in ones. One that fails (an illegal reply, a crash, malformed output, an error reply or a
//! timeout) forfeits the game: its side loses at the stake reached so far (see [`forfeit`]),
//! the failure is counted in the pair's [`Failures`], and the run goes on.
//!
//! ```
//! use ddz_arena::{Arena, Deals, Format, Shard};
//! use ddz_bots::BotSpec;
//! use ddz_core::Rules;
//!
//! let arena = Arena {
//!     rules: Rules::classic(),
//!     format: Format::Duplicate,
//!     seed: 7,
//!     deals: Deals::Seeded { count: 20 },
//!     shard: Shard::WHOLE,
//! };
//! let greedy: BotSpec = "greedy".parse().unwrap();
//! let report = arena.run(&[greedy.clone(), greedy], &|_| {}, &|| {}).unwrap();
//! let pair = &report.pairs[0];
//! assert_eq!(pair.all.wins.estimate().mean, 0.5);
//! assert_eq!(pair.all.points.estimate().mean, 0.0);
//! ```

pub mod ratings;
mod report;
pub mod table;
pub mod tally;

use core::fmt;
use std::time::Instant;

use ddz_bots::{Bot, BotSpec, NoObserver, TurnError, bot_seed, drive};
use ddz_core::{Bidding, Rules, Scoring};
use ddz_game::{BySeat, Deal, DealError, DealLine, Game, Seat, Side, derive_seed};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use report::{CrossCell, Failures, Report};
pub use tally::{Estimate, Tally};

/// How each deal is played (see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Two games a deal, fixed landlord in seat 0, DouZero's scoring.
    Duplicate,
    /// Six games a deal, with bidding and the rule set's scoring.
    Bidding,
}

impl Format {
    /// Games played on each deal for one pair.
    pub const fn games_per_deal(self) -> usize {
        match self {
            Format::Duplicate => 2,
            Format::Bidding => 6,
        }
    }
}

/// Where the deals come from.
#[derive(Clone, Debug)]
pub enum Deals {
    /// `count` deals, deal `i` dealt from `derive_seed(seed, i)`.
    Seeded {
        /// Number of deals.
        count: u64,
    },
    /// The deals of a deal file, in order (the landlord's 20 cards to seat 0).
    Lines(Vec<DealLine>),
}

/// The share of a run's deals one process plays: deals `i` with `i % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` (0 ≤ I < N).
    pub fn parse(text: &str) -> Result<Shard, ArenaError> {
        let bad = || ArenaError::Shard(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// An arena error: a bad robot, deal, shard or result file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArenaError {
    /// A shard that is not `I/N` with 0 <= I < N (the text given).
    Shard(String),
    /// Fewer than two robots.
    TooFewBots,
    /// A robot that cannot be made (a bad spec, or a program that does not start).
    Bot(String),
    /// A deal index beyond the deal file.
    NoDeal(u64),
    /// A line of the deal file that is not a deal.
    Deal {
        /// The line number, from 1.
        line: u64,
        /// What is wrong with it.
        error: DealError,
    },
    /// A game that could not be played.
    Game {
        /// The deal index.
        deal: u64,
        /// The robots, in seat order.
        seats: [String; 3],
        /// What went wrong.
        error: String,
    },
    /// A game that did not finish.
    Unfinished,
    /// A finished game without a landlord.
    NoLandlord,
    /// A file that is not an arena report (serde's message).
    NotAReport(String),
    /// No report to merge.
    NothingToMerge,
    /// A report from another run (rules, format, seed, deals or shard count differ).
    OtherRun {
        /// The report's number in the list, from 1.
        report: usize,
        /// Its shard.
        shard: Shard,
    },
    /// A report whose shard index is not below the shard count.
    ShardOutOfRange {
        /// The report's number in the list, from 1.
        report: usize,
        /// Its shard.
        shard: Shard,
    },
    /// A shard given twice.
    ShardTwice {
        /// The report's number in the list, from 1.
        report: usize,
        /// Its shard.
        shard: Shard,
    },
    /// A report with other robots or pairings.
    OtherRobots {
        /// The report's number in the list, from 1.
        report: usize,
        /// Its shard.
        shard: Shard,
    },
    /// A shard no report covers.
    MissingShard(Shard),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let which = |report: &usize, shard: &Shard| {
            format!("report {report} (shard {}/{})", shard.index, shard.count)
        };
        match self {
            ArenaError::Shard(text) => {
                write!(f, "shard \"{text}\": expected I/N with 0 <= I < N")
            }
            ArenaError::TooFewBots => f.write_str(
                "the arena needs at least two robots (the same one twice plays it against itself)",
            ),
            ArenaError::Bot(e) => f.write_str(e),
            ArenaError::NoDeal(i) => write!(f, "no deal {i}"),
            ArenaError::Deal { line, error } => write!(f, "deal {line}: {error}"),
            ArenaError::Game { deal, seats, error } => {
                write!(f, "deal {deal}, {seats:?}: {error}")
            }
            ArenaError::Unfinished => f.write_str("a game did not finish"),
            ArenaError::NoLandlord => f.write_str("a game has no landlord"),
            ArenaError::NotAReport(e) => write!(f, "not an arena report: {e}"),
            ArenaError::NothingToMerge => f.write_str("nothing to merge"),
            ArenaError::OtherRun { report, shard } => write!(
                f,
                "{} is from another run (rules, format, seed, deals or shard count differ)",
                which(report, shard)
            ),
            ArenaError::ShardOutOfRange { report, shard } => {
                write!(f, "{}: shard index out of range", which(report, shard))
            }
            ArenaError::ShardTwice { report, shard } => {
                write!(f, "{}: that shard is given twice", which(report, shard))
            }
            ArenaError::OtherRobots { report, shard } => {
                write!(f, "{} has other robots", which(report, shard))
            }
            ArenaError::MissingShard(shard) => {
                write!(f, "shard {}/{} is missing", shard.index, shard.count)
            }
        }
    }
}

impl std::error::Error for ArenaError {}

/// Win and point tallies of one side of a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tallies {
    /// Wins (1 a game won, 0 lost): the mean is the WP.
    pub wins: Tally,
    /// Points in landlord units (see the crate docs): the mean is the ADP.
    pub points: Tally,
}

impl Tallies {
    fn merge(&mut self, other: &Tallies) {
        self.wins.merge(&other.wins);
        self.points.merge(&other.points);
    }
}

/// What one deal gave robot A: wins, points and games, overall and by role, and the
/// external robots' failures.
#[derive(Clone, Debug, Default)]
struct DealOutcome {
    /// (wins, points, games) overall, with A's side holding the landlord, and as farmers.
    sums: [(i64, i64, u64); 3],
    /// The games A and B forfeited, with a few reasons.
    failures: Failures,
}

/// The results of one pairing, from A's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    /// Robot A's spec.
    pub a: String,
    /// Robot B's spec.
    pub b: String,
    /// Every game.
    pub all: Tallies,
    /// The games where A's side holds the landlord.
    pub as_landlord: Tallies,
    /// The games where A's side are the farmers.
    pub as_farmers: Tallies,
    /// Wall-clock seconds the pairing took (summed over shards when merged).
    pub seconds: f64,
    /// The games forfeited by a failing external robot, A's and B's.
    pub failures: Failures,
    /// A's wins on each deal this run played, by deal index (what [`ratings`] resamples);
    /// not written in the JSON report, so empty in a report merged from shard files.
    pub per_deal: Vec<DealWins>,
}

/// Robot A's wins on one deal of a pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealWins {
    /// The deal's index in the run.
    pub deal: u64,
    /// A's wins on it.
    pub wins: u32,
    /// The games played on it (the format's games per deal).
    pub games: u32,
}

/// One game as it ended, for records: the deal's index, the game's number within the deal
/// (0-based), the robots in seats 0, 1, 2 and the game.
pub struct PlayedGame<'a> {
    /// The deal's index in the run.
    pub deal: u64,
    /// The game's number within the deal and pairing.
    pub game: usize,
    /// The robot specs in seats 0, 1 and 2.
    pub seats: [&'a str; 3],
    /// The game as it ended: finished, or unfinished when forfeited.
    pub game_state: &'a Game,
    /// Why the game was forfeited (a failing external robot), if it was.
    pub forfeit: Option<&'a str>,
}

/// An arena run: rules, format, deals, seed and shard.
#[derive(Clone, Debug)]
pub struct Arena {
    /// The rules (under [`Format::Duplicate`], played with a fixed landlord in seat 0,
    /// DouZero's scoring and no spring).
    pub rules: Rules,
    /// How each deal is played.
    pub format: Format,
    /// The run's seed: deals (when seeded) and robots derive from it.
    pub seed: u64,
    /// The deals.
    pub deals: Deals,
    /// The share of the deals this run plays.
    pub shard: Shard,
}

impl Arena {
    /// Number of deals in the whole run (every shard).
    pub fn deal_count(&self) -> u64 {
        match &self.deals {
            Deals::Seeded { count } => *count,
            Deals::Lines(lines) => lines.len() as u64,
        }
    }

    /// The indices of the deals this shard plays.
    pub fn shard_deals(&self) -> Vec<u64> {
        (0..self.deal_count())
            .filter(|i| i % self.shard.count == self.shard.index)
            .collect()
    }

    /// The rules the games are played under.
    pub fn game_rules(&self) -> Rules {
        let mut rules = self.rules.clone();
        if self.format == Format::Duplicate {
            rules.bidding = Bidding::Fixed;
            rules.landlord_seat = 0;
            rules.scoring = Scoring::DouzeroAdp;
            rules.spring = false;
        }
        rules
    }

    /// The seed of deal `i`'s games and its deal.
    fn deal(&self, i: u64, rules: &Rules) -> Result<(u64, Deal), ArenaError> {
        let seed = derive_seed(self.seed, i);
        match &self.deals {
            Deals::Seeded { .. } => Ok((seed, Deal::from_seed(seed, rules))),
            Deals::Lines(lines) => {
                let line = lines.get(i as usize).ok_or(ArenaError::NoDeal(i))?;
                let deal = line
                    .to_deal(rules)
                    .map_err(|error| ArenaError::Deal { line: i + 1, error })?;
                Ok((seed, deal))
            }
        }
    }

    /// Plays every pairing of `bots` (each pair once, in list order) and reports.
    /// `on_game` sees every finished game (for records); `on_deal` is called once per deal
    /// and pairing played (for progress).
    pub fn run(
        &self,
        bots: &[BotSpec],
        on_game: &(dyn Fn(&PlayedGame) + Sync),
        on_deal: &(dyn Fn() + Sync),
    ) -> Result<Report, ArenaError> {
        if bots.len() < 2 {
            return Err(ArenaError::TooFewBots);
        }
        // Each robot once, to report programs that do not start before playing.
        for spec in bots {
            spec.build(0).map_err(|e| ArenaError::Bot(e.to_string()))?;
        }
        let mut pairs = Vec::new();
        for (i, a) in bots.iter().enumerate() {
            for b in &bots[i + 1..] {
                pairs.push(self.play_pair(a, b, on_game, on_deal)?);
            }
        }
        Ok(Report {
            rules: self.rules.clone(),
            format: self.format,
            seed: self.seed,
            deals: self.deal_count(),
            shard: self.shard,
            pairs,
        })
    }

    /// Plays A against B over this shard's deals.
    pub fn play_pair(
        &self,
        a: &BotSpec,
        b: &BotSpec,
        on_game: &(dyn Fn(&PlayedGame) + Sync),
        on_deal: &(dyn Fn() + Sync),
    ) -> Result<PairResult, ArenaError> {
        let rules = self.game_rules();
        let start = Instant::now();
        let deals = self.shard_deals();
        let outcomes: Vec<DealOutcome> = deals
            .par_iter()
            .map(|&i| {
                let outcome = self.play_deal(i, a, b, &rules, on_game);
                on_deal();
                outcome
            })
            .collect::<Result<_, _>>()?;
        let mut result = PairResult {
            a: a.as_str().to_string(),
            b: b.as_str().to_string(),
            all: Tallies::default(),
            as_landlord: Tallies::default(),
            as_farmers: Tallies::default(),
            seconds: start.elapsed().as_secs_f64(),
            failures: Failures::default(),
            per_deal: Vec::with_capacity(outcomes.len()),
        };
        for (&deal, o) in deals.iter().zip(&outcomes) {
            result.failures.merge(&o.failures);
            let (wins, _, games) = o.sums[0];
            result.per_deal.push(DealWins {
                deal,
                wins: u32::try_from(wins).unwrap_or(0),
                games: u32::try_from(games).unwrap_or(0),
            });
            let parts = [
                &mut result.all,
                &mut result.as_landlord,
                &mut result.as_farmers,
            ];
            for (t, &(wins, points, games)) in parts.into_iter().zip(&o.sums) {
                t.wins.add(wins, games);
                t.points.add(points, games);
            }
        }
        Ok(result)
    }

    /// Plays the games of deal `i` for A against B.
    fn play_deal(
        &self,
        i: u64,
        a: &BotSpec,
        b: &BotSpec,
        rules: &Rules,
        on_game: &(dyn Fn(&PlayedGame) + Sync),
    ) -> Result<DealOutcome, ArenaError> {
        let (seed, deal) = self.deal(i, rules)?;
        let mut outcome = DealOutcome::default();
        // (lone seat, lone robot is A): duplicate games put the lone robot in seat 0.
        let layouts: Vec<(usize, bool)> = match self.format {
            Format::Duplicate => vec![(0, true), (0, false)],
            Format::Bidding => [true, false]
                .into_iter()
                .flat_map(|a_alone| (0..3).map(move |s| (s, a_alone)))
                .collect(),
        };
        for (n, &(lone, a_alone)) in layouts.iter().enumerate() {
            let (alone, others) = if a_alone { (a, b) } else { (b, a) };
            let specs: [&BotSpec; 3] = [0, 1, 2].map(|s| if s == lone { alone } else { others });
            let seats = specs.map(BotSpec::as_str);
            let (game, forfeited) =
                play(rules, seed, deal.clone(), specs).map_err(|e| ArenaError::Game {
                    deal: i,
                    seats: seats.map(str::to_string),
                    error: e.to_string(),
                })?;
            on_game(&PlayedGame {
                deal: i,
                game: n,
                seats,
                game_state: &game,
                forfeit: forfeited.as_ref().map(|(_, why)| why.as_str()),
            });
            let ended = match &forfeited {
                None => Ended::of(&game)?,
                Some((seat, why)) => {
                    let by_a = (seat.index() == lone) == a_alone;
                    outcome.failures.add(
                        by_a,
                        format!(
                            "deal {i}, game {n}, seat {seat} ({}): {why}",
                            seats[seat.index()]
                        ),
                    );
                    forfeit(&game, *seat)
                }
            };
            let (won, points, a_landlord) = a_side(&ended, Seat::ALL[lone], a_alone, self.format);
            let role = if a_landlord { 1 } else { 2 };
            for k in [0, role] {
                outcome.sums[k].0 += i64::from(won);
                outcome.sums[k].1 += points;
                outcome.sums[k].2 += 1;
            }
        }
        Ok(outcome)
    }
}

/// A game between the robots `seats`, from `deal`, to its end or to the first failure of a
/// robot: then the failing seat and why.
fn play(
    rules: &Rules,
    seed: u64,
    deal: Deal,
    seats: [&BotSpec; 3],
) -> Result<(Game, Option<(Seat, String)>), String> {
    let mut game = Game::with_deal(rules, seed, deal);
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(3);
    for s in Seat::ALL {
        let bot = seats[s.index()].build(bot_seed(seed, s));
        bots.push(bot.map_err(|e| e.to_string())?);
    }
    match drive(&mut game, &mut bots, &mut NoObserver) {
        Ok(()) => Ok((game, None)),
        Err(TurnError::Failed { seat, why }) => Ok((game, Some((seat, why)))),
        Err(e) => Err(e.to_string()),
    }
}

/// How a game ended, as the tallies read it: the landlord, the winning side and the scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The landlord's seat.
    pub landlord: Seat,
    /// The side that won.
    pub winner: Side,
    /// Points per seat (they sum to zero).
    pub scores: BySeat<i64>,
}

impl Ended {
    /// A finished game's end.
    fn of(game: &Game) -> Result<Ended, ArenaError> {
        let result = game.result().ok_or(ArenaError::Unfinished)?;
        let landlord = game.landlord().ok_or(ArenaError::NoLandlord)?;
        Ok(Ended {
            landlord,
            winner: result.winner,
            scores: result.scores,
        })
    }
}

/// The end of a game forfeited by the robot in `failing`: [`Game::forfeit_result`] (its side
/// loses at the stake reached so far: under DouZero's scoring the bomb multiplier, else base ×
/// multiplier without spring, capped; before the landlord is decided the failing seat is a
/// landlord losing at stake 1).
pub fn forfeit(game: &Game, failing: Seat) -> Ended {
    let result = game.forfeit_result(failing);
    Ended {
        landlord: game.landlord().unwrap_or(failing),
        winner: result.winner,
        scores: result.scores,
    }
}

/// A's side in a game (finished or forfeited) whose lone robot sits in `lone`: (won, points, A's side holds
/// the landlord).
fn a_side(ended: &Ended, lone: Seat, a_alone: bool, format: Format) -> (bool, i64, bool) {
    let landlord = ended.landlord;
    let lone_is_landlord = landlord == lone;
    let lone_side = if lone_is_landlord {
        Side::Landlord
    } else {
        Side::Farmers
    };
    let lone_won = ended.winner == lone_side;
    let lone_points = match format {
        // Landlord units: the landlord's score, or the farmers' total.
        Format::Duplicate => {
            let landlord_score = ended.scores[landlord];
            if lone_is_landlord {
                landlord_score
            } else {
                -landlord_score
            }
        }
        Format::Bidding => ended.scores[lone],
    };
    // The others' side is the lone seat's opponents in duplicate games; in bidding games the
    // two others score minus the lone seat between them.
    let (won, points) = if a_alone {
        (lone_won, lone_points)
    } else {
        (!lone_won, -lone_points)
    };
    let a_landlord = if a_alone {
        lone_is_landlord
    } else {
        !lone_is_landlord
    };
    (won, points, a_landlord)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_game::{Phase, bomb_factor};

    /// A game (of the first seed that has one) played up to its first bomb or rocket: the
    /// highest bids, then a bomb whenever there is one, else the first play.
    fn game_with_a_bomb(rules: &Rules) -> Game {
        for seed in 0..200 {
            let mut game = Game::new(rules, seed);
            while game.phase() == Phase::Bidding {
                let seat = game.turn();
                let bid = game.legal_bids().last().copied().unwrap_or(0);
                game.bid(seat, bid).unwrap();
            }
            while game.phase() == Phase::Playing {
                let seat = game.turn();
                let moves = game.legal_moves();
                let m = moves
                    .iter()
                    .find(|m| bomb_factor(m, rules) > 1)
                    .or_else(|| moves.iter().find(|m| !m.is_pass()))
                    .or_else(|| moves.first())
                    .copied()
                    .unwrap();
                if game.hand(seat).len() == m.cards().len() {
                    break;
                }
                game.play(seat, m).unwrap();
                if bomb_factor(&m, rules) > 1 {
                    return game;
                }
            }
        }
        panic!("no game with a bomb");
    }

    #[test]
    fn a_farmer_forfeits_at_the_stake_so_far_under_douzero_scoring() {
        let mut rules = Rules::classic();
        rules.bidding = Bidding::Fixed;
        rules.landlord_seat = 0;
        rules.scoring = Scoring::DouzeroAdp;
        let mut game = Game::new(&rules, 3);
        let ended = forfeit(&game, Seat::ALL[1]);
        assert_eq!(ended.landlord, Seat::ALL[0]);
        assert_eq!(ended.winner, Side::Landlord);
        assert_eq!(ended.scores.0, [2, -1, -1]);
        // The landlord forfeits after a bomb: 2 × 2 lost.
        let game2 = game_with_a_bomb(&rules);
        let ended = forfeit(&game2, Seat::ALL[0]);
        assert_eq!(ended.winner, Side::Farmers);
        assert_eq!(ended.scores.0, [-4, 2, 2]);
        // A pass does not change the stake.
        let first = game.legal_moves()[0];
        game.play(Seat::ALL[0], first).unwrap();
        assert_eq!(forfeit(&game, Seat::ALL[2]).scores.0, [2, -1, -1]);
    }

    #[test]
    fn forfeits_under_standard_scoring_use_base_times_multiplier() {
        let rules = Rules::classic();
        let game = game_with_a_bomb(&rules);
        let landlord = game.landlord().unwrap();
        let stake = i64::from(game.base() * game.multiplier());
        assert!(stake >= 2);
        let farmer = landlord.next();
        let ended = forfeit(&game, farmer);
        assert_eq!(ended.winner, Side::Landlord);
        assert_eq!(ended.scores[landlord], 2 * stake);
        assert_eq!(ended.scores[farmer], -stake);
        assert_eq!(ended.scores.0.iter().sum::<i64>(), 0);
        let ended = forfeit(&game, landlord);
        assert_eq!(ended.winner, Side::Farmers);
        assert_eq!(ended.scores[landlord], -2 * stake);
    }

    #[test]
    fn a_failure_during_bidding_makes_the_failing_seat_a_losing_landlord() {
        let game = Game::new(&Rules::classic(), 5);
        assert_eq!(game.phase(), Phase::Bidding);
        let seat = Seat::ALL[2];
        let ended = forfeit(&game, seat);
        assert_eq!(ended.landlord, seat);
        assert_eq!(ended.winner, Side::Farmers);
        assert_eq!(ended.scores.0, [1, 1, -2]);
        // In A's terms (duplicate units): the lone robot in seat 2 lost 2.
        assert_eq!(
            a_side(&ended, seat, true, Format::Duplicate),
            (false, -2, true)
        );
        assert_eq!(
            a_side(&ended, seat, false, Format::Bidding),
            (true, 2, false)
        );
    }
}
