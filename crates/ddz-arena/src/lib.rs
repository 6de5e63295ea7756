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
//! ```
//! use ddz_arena::{Arena, Deals, Format, Shard};
//! use ddz_core::Rules;
//!
//! let arena = Arena {
//!     rules: Rules::classic(),
//!     format: Format::Duplicate,
//!     seed: 7,
//!     deals: Deals::Seeded { count: 20 },
//!     shard: Shard::WHOLE,
//! };
//! let report = arena.run(&["greedy", "greedy"], &|_| {}, &|| {}).unwrap();
//! let pair = &report.pairs[0];
//! assert_eq!(pair.all.wins.estimate().mean, 0.5);
//! assert_eq!(pair.all.points.estimate().mean, 0.0);
//! ```

mod report;
pub mod tally;

use core::fmt;
use std::time::Instant;

use ddz_bots::{Bot, bot_seed, legal_bids, make_bot};
use ddz_core::{Bidding, Rules, Scoring};
use ddz_game::{Deal, DealLine, Game, Phase, Seat, Side, derive_seed};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use report::{CrossCell, Report};
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
        let bad = || ArenaError(format!("shard \"{text}\": expected I/N with 0 <= I < N"));
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
pub struct ArenaError(pub String);

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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

/// What one deal gave robot A: wins, points and games, overall and by role.
#[derive(Clone, Copy, Debug, Default)]
struct DealOutcome {
    /// (wins, points, games) overall, with A's side holding the landlord, and as farmers.
    sums: [(i64, i64, u64); 3],
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
    /// The finished game.
    pub game_state: &'a Game,
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
                let line = lines
                    .get(i as usize)
                    .ok_or_else(|| ArenaError(format!("no deal {i}")))?;
                let deal = line
                    .to_deal(rules)
                    .map_err(|e| ArenaError(format!("deal {}: {e}", i + 1)))?;
                Ok((seed, deal))
            }
        }
    }

    /// Plays every pairing of `bots` (each pair once, in list order) and reports.
    /// `on_game` sees every finished game (for records); `on_deal` is called once per deal
    /// and pairing played (for progress).
    pub fn run(
        &self,
        bots: &[&str],
        on_game: &(dyn Fn(&PlayedGame) + Sync),
        on_deal: &(dyn Fn() + Sync),
    ) -> Result<Report, ArenaError> {
        if bots.len() < 2 {
            return Err(ArenaError(
                "the arena needs at least two robots (the same one twice plays it against itself)"
                    .into(),
            ));
        }
        for spec in bots {
            make_bot(spec, 0).map_err(|e| ArenaError(e.to_string()))?;
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
        a: &str,
        b: &str,
        on_game: &(dyn Fn(&PlayedGame) + Sync),
        on_deal: &(dyn Fn() + Sync),
    ) -> Result<PairResult, ArenaError> {
        let rules = self.game_rules();
        let start = Instant::now();
        let outcomes: Vec<DealOutcome> = self
            .shard_deals()
            .into_par_iter()
            .map(|i| {
                let outcome = self.play_deal(i, a, b, &rules, on_game);
                on_deal();
                outcome
            })
            .collect::<Result<_, _>>()?;
        let mut result = PairResult {
            a: a.to_string(),
            b: b.to_string(),
            all: Tallies::default(),
            as_landlord: Tallies::default(),
            as_farmers: Tallies::default(),
            seconds: start.elapsed().as_secs_f64(),
        };
        for o in &outcomes {
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
        a: &str,
        b: &str,
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
            let seats: [&str; 3] = [0, 1, 2].map(|s| if s == lone { alone } else { others });
            let game = play(rules, seed, deal.clone(), seats)
                .map_err(|e| ArenaError(format!("deal {i}, {seats:?}: {e}")))?;
            on_game(&PlayedGame {
                deal: i,
                game: n,
                seats,
                game_state: &game,
            });
            let (won, points, a_landlord) = a_side(&game, Seat::ALL[lone], a_alone, self.format)?;
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

/// A game between the robots `seats`, from `deal`, to its end.
fn play(rules: &Rules, seed: u64, deal: Deal, seats: [&str; 3]) -> Result<Game, String> {
    let mut game = Game::with_deal(rules, seed, deal);
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(3);
    for s in Seat::ALL {
        bots.push(make_bot(seats[s.index()], bot_seed(seed, s)).map_err(|e| e.to_string())?);
    }
    while game.phase() != Phase::Over {
        let seat = game.turn();
        let view = game.view(seat);
        let bot = &mut bots[seat.index()];
        if game.phase() == Phase::Bidding {
            let bid = bot.bid(&view, &legal_bids(&view));
            game.bid(seat, bid).map_err(|e| e.to_string())?;
        } else {
            let allowed = game.legal_moves();
            let m = bot.play(&view, &allowed);
            game.play(seat, m).map_err(|e| e.to_string())?;
        }
    }
    Ok(game)
}

/// A's side in a finished game whose lone robot sits in `lone`: (won, points, A's side holds
/// the landlord).
fn a_side(
    game: &Game,
    lone: Seat,
    a_alone: bool,
    format: Format,
) -> Result<(bool, i64, bool), ArenaError> {
    let result = game
        .result()
        .ok_or_else(|| ArenaError("a game did not finish".into()))?;
    let landlord = game
        .landlord()
        .ok_or_else(|| ArenaError("a game has no landlord".into()))?;
    let lone_is_landlord = landlord == lone;
    let lone_side = if lone_is_landlord {
        Side::Landlord
    } else {
        Side::Farmers
    };
    let lone_won = result.winner == lone_side;
    let lone_points = match format {
        // Landlord units: the landlord's score, or the farmers' total.
        Format::Duplicate => {
            let landlord_score = result.scores[landlord];
            if lone_is_landlord {
                landlord_score
            } else {
                -landlord_score
            }
        }
        Format::Bidding => result.scores[lone],
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
    Ok((won, points, a_landlord))
}
