//! The arena at two and four seats (docs/variants.md): robot A against robot B over seeded
//! deals, as the three-seat arena's duplicate protocol plays them. Each deal is played twice,
//! with no bidding: A as the landlord in seat 0 against B at every other seat, then B as the
//! landlord against A. Under `two` the farmer's handicap is then 1 card (no robs). The scores
//! are the rules' own (bombs, the four jokers, spring).
//!
//! WP is the share of games A's side won; ADP the average of A's side's points in landlord
//! units (as the landlord its score, as farmers minus the landlord's). Both come with 95%
//! intervals over deals ([`Tally`]): a deal's two games are one observation. Every game's
//! record ([`TableRecord`]) is replayed before it counts.
//!
//! Besides the built-in table robots, a robot may be a [`TablePlayer`] from outside
//! ([`run_table_with`]: `ddz arena --rules two --exec`). One that fails (a program that exits,
//! is silent or answers wrongly) forfeits the game ([`TableGame::forfeit_result`]: its side
//! loses at the stake so far); the report counts the failures and names the first.

use std::sync::atomic::{AtomicU64, Ordering};

use ddz_bots::BotError;
use ddz_bots::table::{TableBot, TablePlayer};
use ddz_core::{Bidding, Rules};
use ddz_game::{Phase, Seat, Side, TableGame, TableRecord, derive_seed};
use serde::Serialize;

use crate::tally::{Estimate, Tally};

/// The figures of a table run, as `ddz arena --rules two|four --json` prints them.
#[derive(Clone, Debug, Serialize)]
pub struct TableReport {
    /// The profile played.
    pub rules: String,
    /// Seats at the table.
    pub seats: usize,
    /// Robot A's spec.
    pub a: String,
    /// Robot B's spec.
    pub b: String,
    /// Deals played (two games each).
    pub deals: u64,
    /// The run's seed: deal `i` is dealt from `derive_seed(seed, i)`.
    pub seed: u64,
    /// Games A's side won, a game.
    pub wp: Estimate,
    /// A's side's points in landlord units, a game.
    pub adp: Estimate,
    /// WP with A as the landlord alone.
    pub wp_as_landlord: Estimate,
    /// WP with A as the farmers alone.
    pub wp_as_farmers: Estimate,
    /// The sums the estimates come from (wins and points), for merging runs.
    pub tallies: [Tally; 4],
    /// Games forfeited by a failing player from outside.
    pub failures: u64,
    /// The first few failures (at most 3): the deal's seed, the seat, the player and why.
    pub first_failures: Vec<String>,
}

/// How a game ended: whether the landlord won, its score, and the failure that forfeited it.
struct GameEnd {
    landlord_won: bool,
    landlord_score: i64,
    failure: Option<String>,
}

/// What went wrong in a table run: a robot spec, or a game that did not replay (a bug).
#[derive(Debug)]
pub enum TableRunError {
    /// A robot spec that is not one.
    Bot(BotError),
    /// A game that does not replay from its record, or rules a table cannot play.
    Game(String),
}

impl core::fmt::Display for TableRunError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TableRunError::Bot(e) => write!(f, "{e}"),
            TableRunError::Game(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for TableRunError {}

/// The players from outside a run may seat, by name: `ddz arena --exec`'s programs.
pub trait Outside<const N: usize>: Sync {
    /// Whether `name` is one of them.
    fn knows(&self, name: &str) -> bool;
    /// Starts the player `name` for one seat of one game, or says why it cannot start.
    fn start(&self, name: &str) -> Result<Box<dyn TablePlayer<N>>, String>;
}

/// No players from outside: every name is a built-in table robot's.
struct NoOutside;

impl<const N: usize> Outside<N> for NoOutside {
    fn knows(&self, _: &str) -> bool {
        false
    }

    fn start(&self, name: &str) -> Result<Box<dyn TablePlayer<N>>, String> {
        Err(format!("no player from outside is named {name}"))
    }
}

/// A seat's player in a game: a built-in robot or one from outside.
enum Player<const N: usize> {
    Robot(TableBot),
    Outside(Box<dyn TablePlayer<N>>),
}

/// The player of `spec` for one game: an outside player when `outside` knows the name, else
/// the built-in robot.
fn player<const N: usize>(
    spec: &str,
    seed: u64,
    outside: &dyn Outside<N>,
) -> Result<Player<N>, TableRunError> {
    if outside.knows(spec) {
        return outside
            .start(spec)
            .map(Player::Outside)
            .map_err(TableRunError::Game);
    }
    TableBot::from_spec(spec, seed)
        .map(Player::Robot)
        .map_err(TableRunError::Bot)
}

/// One game of a deal: `landlord_spec` in seat 0, `farmer_spec` at every other seat; a
/// player from outside that fails forfeits it.
fn play_game<const N: usize>(
    rules: &Rules,
    seed: u64,
    (landlord_spec, farmer_spec): (&str, &str),
    outside: &dyn Outside<N>,
) -> Result<GameEnd, TableRunError> {
    let game_error = |e: String| TableRunError::Game(format!("deal seed {seed}: {e}"));
    let mut game = TableGame::<N>::new(rules, seed).map_err(|e| game_error(e.to_string()))?;
    let mut players = Vec::with_capacity(N);
    for s in 0..N {
        let spec = if s == 0 { landlord_spec } else { farmer_spec };
        players.push(player(spec, derive_seed(seed, 1 + s as u64), outside)?);
    }
    while game.phase() == Phase::Playing {
        let Some(turn) = game.turn_view() else {
            break;
        };
        let allowed = game.legal_moves();
        let seat = game.turn();
        let m = match &mut players[seat.index()] {
            Player::Robot(bot) => bot.play(&turn, &allowed),
            Player::Outside(p) => {
                let m = p.play(&game.view(seat), &allowed);
                if let Some(why) = p.failure() {
                    let result = game.forfeit_result(seat);
                    let landlord = Seat::ALL[0];
                    return Ok(GameEnd {
                        landlord_won: result.winner == Side::Landlord,
                        landlord_score: result.scores[landlord],
                        failure: Some(format!(
                            "deal seed {seed}, seat {seat} ({}): {why}",
                            p.name()
                        )),
                    });
                }
                m
            }
        };
        game.play(seat, m).map_err(|e| game_error(e.to_string()))?;
    }
    let record = TableRecord::from_game(&game);
    record
        .replay()
        .map_err(|e| game_error(format!("the record does not replay: {e}")))?;
    let result = game
        .result()
        .ok_or_else(|| game_error("the game did not end".to_string()))?;
    let landlord = Seat::ALL[0];
    Ok(GameEnd {
        landlord_won: result.winner == Side::Landlord,
        landlord_score: result.scores[landlord],
        failure: None,
    })
}

/// Plays `deals` deals of robot `a` against robot `b` at an `N`-seat table under `rules`
/// (the bidding replaced by a fixed landlord in seat 0) on `threads` threads; `progress` is
/// called with the deals done after each. The figures do not depend on the thread count.
pub fn run_table<const N: usize>(
    rules: &Rules,
    a: &str,
    b: &str,
    deals: u64,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TableReport, TableRunError> {
    run_table_with::<N>(rules, (a, b), (deals, seed), threads, progress, &NoOutside)
}

/// [`run_table`] with players from outside: a name `outside` knows is the player it starts
/// (one a seat and game), any other a built-in table robot.
pub fn run_table_with<const N: usize>(
    rules: &Rules,
    (a, b): (&str, &str),
    (deals, seed): (u64, u64),
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    outside: &dyn Outside<N>,
) -> Result<TableReport, TableRunError> {
    // Both built-in specs are checked before any game.
    for spec in [a, b] {
        if !outside.knows(spec) {
            TableBot::from_spec(spec, 0).map_err(TableRunError::Bot)?;
        }
    }
    let mut rules = rules.clone();
    rules.bidding = Bidding::Fixed;
    rules.landlord_seat = 0;
    let rules = &rules;
    let done = AtomicU64::new(0);
    let threads = threads.max(1) as u64;
    // [wins, points, wins as landlord, wins as farmers] and the failures (deal, text), per
    // thread.
    type Part = ([Tally; 4], Vec<(u64, String)>);
    let per_thread: Vec<Result<Part, TableRunError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut tallies = [Tally::default(); 4];
                    let mut failures = Vec::new();
                    for deal in (t..deals).step_by(threads as usize) {
                        let seed = derive_seed(seed, deal);
                        let first = play_game::<N>(rules, seed, (a, b), outside)?;
                        let second = play_game::<N>(rules, seed, (b, a), outside)?;
                        for failure in [&first.failure, &second.failure].into_iter().flatten() {
                            failures.push((deal, failure.clone()));
                        }
                        let a_won = i64::from(first.landlord_won);
                        let farmers_won = i64::from(!second.landlord_won);
                        tallies[0].add(a_won + farmers_won, 2);
                        tallies[1].add(first.landlord_score - second.landlord_score, 2);
                        tallies[2].add(a_won, 1);
                        tallies[3].add(farmers_won, 1);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    Ok((tallies, failures))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(TableRunError::Game("a game thread panicked".into())))
            })
            .collect()
    });
    let mut tallies = [Tally::default(); 4];
    let mut failures = Vec::new();
    for part in per_thread {
        let (part, failed) = part?;
        for (t, p) in tallies.iter_mut().zip(part) {
            t.merge(&p);
        }
        failures.extend(failed);
    }
    // In deal order, whatever the thread count.
    failures.sort();
    Ok(TableReport {
        rules: rules.profile.to_string(),
        seats: N,
        a: a.to_string(),
        b: b.to_string(),
        deals,
        seed,
        wp: tallies[0].estimate(),
        adp: tallies[1].estimate(),
        wp_as_landlord: tallies[2].estimate(),
        wp_as_farmers: tallies[3].estimate(),
        tallies,
        failures: failures.len() as u64,
        first_failures: failures.into_iter().take(3).map(|(_, f)| f).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_robot_against_itself_is_even_and_every_game_replays() {
        for (rules, seats) in [(Rules::two(), 2), (Rules::four(), 4)] {
            let report = match seats {
                2 => run_table::<2>(&rules, "ddzlib", "ddzlib", 30, 1, 2, &|_| {}),
                _ => run_table::<4>(&rules, "ddzlib", "ddzlib", 10, 1, 2, &|_| {}),
            }
            .unwrap();
            // The same robot on both sides of each deal: exactly one side wins each deal's
            // pair of games when the deal favours a side, so WP is 0.5 and ADP 0.
            assert_eq!(report.wp.mean, 0.5, "{rules:?}");
            assert_eq!(report.adp.mean, 0.0);
        }
    }

    #[test]
    fn the_thread_count_does_not_change_the_figures() {
        let rules = Rules::two();
        let one = run_table::<2>(&rules, "greedy", "random", 20, 3, 1, &|_| {}).unwrap();
        let two = run_table::<2>(&rules, "greedy", "random", 20, 3, 2, &|_| {}).unwrap();
        assert_eq!(one.tallies, two.tallies);
        assert!(one.wp.mean > 0.5, "greedy beats random: {}", one.wp.mean);
    }

    #[test]
    fn bad_specs_are_refused_by_name() {
        let e = run_table::<2>(&Rules::two(), "value", "random", 1, 1, 1, &|_| {}).unwrap_err();
        assert!(e.to_string().contains("value"), "{e}");
        let e = run_table::<2>(&Rules::two(), "search:worlds=0", "random", 1, 1, 1, &|_| {})
            .unwrap_err();
        assert!(e.to_string().contains("worlds"), "{e}");
    }
}
