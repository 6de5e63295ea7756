//! Game analysis (复盘): every play decision of a recorded game rated by the search robot's
//! estimate of the chance of winning, and checked with hindsight by the exact solver where the
//! open position is small (docs/analysis.md).
//!
//! For each play decision of the chosen seats, [`analyse`] rebuilds the seat's view at that
//! moment (its hand and the public history: never the hidden hands of the record) and has the
//! search score its candidates and the play made on the same samples of the hidden hands,
//! weighted by the inference from the public history up to then
//! ([`crate::search::SearchBot::estimate`]). The play made gets its chance (`win_played`),
//! the best scored play its own (`win_best`), the loss is the difference (never below 0, as
//! the play made is among those scored) and the mark follows the loss: [`Mark::Blunder`] at
//! 0.20 or more, [`Mark::Mistake`] at 0.10, [`Mark::Inaccuracy`] at 0.05. A decision with a
//! single legal play is listed as forced and not rated.
//!
//! When the three hands hold at most [`AnalysisOptions::exact_cards`] cards, the solver also
//! says, with every hand known, whether the play made wins against the best defence and
//! whether some play did ([`Exact`]): hindsight, kept apart from the estimate.
//!
//! Bids are rated too: each bid the seat could make is taken on the same sampled deals of the
//! cards it could not see (and of the wild ranks not yet revealed), the rest of the bidding
//! (and doubling, showing) made by `ddzlib` robots and the play played out as the search's
//! playouts play it ([`crate::search::decision_chances`]; a quarter of the play's samples).
//! Doubling and showing change the stake, not the chance of winning: their decisions get the
//! chance of winning (`win_played`) but no rating. The samples are not weighted by the bids
//! seen, and a game that was redealt is not rated before its play.
//!
//! ```
//! use ddz_bots::review::{AnalysisOptions, analyse};
//! use ddz_game::{Budget, GameRecord};
//!
//! let game = ddz_bots::play_game(
//!     &ddz_core::Rules::classic(),
//!     7,
//!     &mut [
//!         Box::new(ddz_bots::Greedy),
//!         Box::new(ddz_bots::Greedy),
//!         Box::new(ddz_bots::Greedy),
//!     ],
//! )
//! .unwrap();
//! let record = GameRecord::from_game(&game);
//! let options = AnalysisOptions {
//!     budget: Budget::Count(8),
//!     ..AnalysisOptions::default()
//! };
//! let analysis = analyse(&record, &options, &mut |_, _| {}).unwrap();
//! assert_eq!(analysis.format, "ddz-analysis/1");
//! assert!(analysis.decisions.iter().any(|d| d.kind == "play" && d.loss.is_some()));
//! ```

use crate::search::{SearchBot, SearchConfig, best_chance, decision_chances};
use crate::solver::{OpenPosition, Solver};
use ddz_core::Move;
use ddz_game::{Action, Budget, Game, GameRecord, Phase, ReplayError, Seat, Step, derive_seed};
use serde::Serialize;

/// The loss (in chance of winning) from which a play is a blunder.
pub const BLUNDER: f64 = 0.20;
/// The loss from which a play is a mistake.
pub const MISTAKE: f64 = 0.10;
/// The loss from which a play is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// Samples of the hidden hands each play is scored on, by default.
pub const DEFAULT_SAMPLES: u64 = 1000;
/// The most cards in the three hands for the hindsight verdict, by default.
pub const EXACT_CARDS: u32 = 20;
/// The solver's node budget for one hindsight verdict, by default.
pub const EXACT_NODES: u64 = 2_000_000;

/// How an analysis runs.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisOptions {
    /// The seats whose decisions are rated (all three by default).
    pub seats: Vec<Seat>,
    /// Each decision's budget: samples each play is scored on (`Count`), or a time for the
    /// decision (`Time`).
    pub budget: Budget,
    /// Threads for the playouts (the estimates do not depend on it under a `Count` budget).
    pub threads: usize,
    /// The seed the samples are drawn from (each decision draws its own from it).
    pub seed: u64,
    /// The most cards in the three hands for the hindsight verdict (0: none).
    pub exact_cards: u32,
    /// The solver's node budget for one verdict; past it the verdict is left out.
    pub exact_nodes: u64,
}

impl Default for AnalysisOptions {
    /// Every seat, [`DEFAULT_SAMPLES`] samples a play, one thread, seed 0, the hindsight
    /// verdict at [`EXACT_CARDS`] cards or fewer within [`EXACT_NODES`] nodes.
    fn default() -> AnalysisOptions {
        AnalysisOptions {
            seats: Seat::ALL.to_vec(),
            budget: Budget::Count(DEFAULT_SAMPLES),
            threads: 1,
            seed: 0,
            exact_cards: EXACT_CARDS,
            exact_nodes: EXACT_NODES,
        }
    }
}

/// How bad a play was, by its loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// A loss of [`BLUNDER`] or more.
    Blunder,
    /// A loss of [`MISTAKE`] or more.
    Mistake,
    /// A loss of [`INACCURACY`] or more.
    Inaccuracy,
}

impl Mark {
    /// The mark of a loss, none below [`INACCURACY`].
    pub fn of(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// The solver's hindsight verdict on a play, every hand known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Exact {
    /// Whether the play made wins for its side against the best defence.
    pub played_wins: bool,
    /// Whether some legal play wins.
    pub could_win: bool,
    /// A winning play, when there is one and the play made is not one.
    pub winning: Option<String>,
}

/// One decision of the game, rated or not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatedDecision {
    /// The decision's place among the game's actions (1-based: shows, bids, doublings and
    /// plays in the order they were made).
    pub step: usize,
    /// The seat that decided.
    pub seat: Seat,
    /// `play`, `bid`, `double` or `show`.
    pub kind: &'static str,
    /// The choice made, in the action notation (`33344`, `pass`, `bid 2`).
    pub played: String,
    /// The best play by the estimate (none when not rated).
    pub best: Option<String>,
    /// The chance of winning after the play made, for the seat's side.
    pub win_played: Option<f64>,
    /// The chance of winning after the best play.
    pub win_best: Option<f64>,
    /// `win_best - win_played`.
    pub loss: Option<f64>,
    /// The mark of the loss.
    pub mark: Option<Mark>,
    /// The hindsight verdict, when the position was small enough.
    pub exact: Option<Exact>,
    /// True when there was one legal play (not rated).
    pub forced: bool,
    /// The samples the estimate used.
    pub samples: u32,
}

/// A seat's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub seat: Seat,
    /// Its decisions rated.
    pub decisions: u32,
    /// Their mean loss (0 without any).
    pub mean_loss: f64,
    /// Blunders.
    pub blunders: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Plays the solver proved losing where a winning play existed.
    pub exact_lost: u32,
    /// The step of its costliest decision, when one lost anything.
    pub worst: Option<usize>,
}

/// The game's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// One summary per seat analysed.
    pub seats: Vec<SeatSummary>,
    /// Where the game turned: its costliest decision, when one lost anything.
    pub turning_point: Option<TurningPoint>,
}

/// A game's analysis (`ddz-analysis/1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// `ddz-analysis/1`.
    pub format: &'static str,
    /// The seats analysed.
    pub seats: Vec<Seat>,
    /// Every decision of those seats, in order.
    pub decisions: Vec<RatedDecision>,
    /// The summary.
    pub summary: Summary,
}

/// The game before each of its actions, with the action: the record replayed.
fn decisions_of(record: &GameRecord) -> Result<Vec<(Game, Seat, Action)>, ReplayError> {
    let mut before = record.start()?;
    let mut out = Vec::new();
    record.replay_each(|game, step| {
        let action = match step.step {
            Step::Bid { bid, .. } => Some(Action::Bid(bid)),
            Step::Show { factor, .. } => Some(Action::Show(factor > 0)),
            Step::Double { factor, .. } => Some(Action::Double(factor)),
            Step::Play { .. } => step.play.map(Action::Play),
            _ => None,
        };
        if let Some(action) = action {
            out.push((before.clone(), step.seat, action));
        }
        before = game.clone();
    })?;
    Ok(out)
}

/// The hindsight verdict on `played` in `game` (the seat to play's turn), if small enough.
fn exact_verdict(game: &Game, played: &Move, options: &AnalysisOptions) -> Option<Exact> {
    let cards: u32 = Seat::ALL.iter().map(|&s| game.hand(s).len()).sum();
    if options.exact_cards == 0 || cards > options.exact_cards {
        return None;
    }
    let rules = game.rules();
    let position = OpenPosition::from_game(game).ok()?;
    let mut solver = Solver::new(&rules).with_node_limit(options.exact_nodes);
    let played_wins = solver.move_wins(&position, played).ok()?;
    if played_wins {
        return Some(Exact {
            played_wins,
            could_win: true,
            winning: None,
        });
    }
    let mut winning = None;
    for m in position.legal_moves(&rules) {
        if solver.move_wins(&position, &m).ok()? {
            winning = Some(Action::Play(m).notation(&rules));
            break;
        }
    }
    Some(Exact {
        played_wins,
        could_win: winning.is_some(),
        winning,
    })
}

/// Analyses `record` (see the [module docs](self)); `progress` is told each decision done
/// and the number to do. A record that does not replay is refused with the step.
pub fn analyse(
    record: &GameRecord,
    options: &AnalysisOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, ReplayError> {
    let all = decisions_of(record)?;
    let chosen: Vec<(usize, &(Game, Seat, Action))> = all
        .iter()
        .enumerate()
        .filter(|(_, (_, seat, _))| options.seats.contains(seat))
        .collect();
    let config = SearchConfig {
        threads: options.threads.max(1),
        ..SearchConfig::default()
    };
    let mut search = SearchBot::new(config, options.seed);
    let mut decisions = Vec::with_capacity(chosen.len());
    for (done, &(index, (game, seat, action))) in chosen.iter().enumerate() {
        let step = index + 1;
        let rules = game.rules();
        let mut decision = RatedDecision {
            step,
            seat: *seat,
            kind: match action {
                Action::Play(_) => "play",
                Action::Bid(_) => "bid",
                Action::Double(_) => "double",
                Action::Show(_) => "show",
            },
            played: action.notation(&rules),
            best: None,
            win_played: None,
            win_best: None,
            loss: None,
            mark: None,
            exact: None,
            forced: false,
            samples: 0,
        };
        match (action, game.phase()) {
            (Action::Play(played), Phase::Playing) => {
                let allowed = game.legal_moves();
                decision.forced = allowed.len() <= 1;
                if !decision.forced {
                    let view = game.view(*seat);
                    let seed = derive_seed(options.seed, step as u64);
                    if let Some(estimates) =
                        search.estimate(&view, &allowed, &[*played], options.budget, seed)
                    {
                        let best = estimates.best();
                        let win_played = estimates.chance_of(played).unwrap_or(0.0);
                        rate(
                            &mut decision,
                            win_played,
                            estimates.chances[best],
                            Action::Play(estimates.moves[best]).notation(&rules),
                            estimates.samples,
                        );
                    }
                }
                decision.exact = exact_verdict(game, played, options);
            }
            (Action::Play(_), _) => {}
            _ => rate_before_play(&mut decision, &all, index, record, options),
        }
        decisions.push(decision);
        progress(done + 1, chosen.len());
    }
    let landlord = all.last().and_then(|(g, _, _)| g.landlord());
    let summary = Summary {
        seats: options
            .seats
            .iter()
            .map(|&seat| summarise(seat, &decisions))
            .collect(),
        turning_point: landlord.and_then(|l| turning_point(&decisions, l)),
    };
    Ok(Analysis {
        format: "ddz-analysis/1",
        seats: options.seats.clone(),
        decisions,
        summary,
    })
}

/// Fills in a rated decision: the chances, the best choice, the loss and the mark.
fn rate(decision: &mut RatedDecision, win_played: f64, win_best: f64, best: String, samples: u32) {
    let loss = (win_best - win_played).max(0.0);
    decision.best = Some(best);
    decision.win_played = Some(win_played);
    decision.win_best = Some(win_best);
    decision.loss = Some(loss);
    decision.mark = Mark::of(loss);
    decision.samples = samples;
}

/// Rates a decision before the play (a bid, a doubling, a show): every choice the seat had,
/// on the same sampled deals of what it could not see ([`decision_chances`]), a quarter of
/// the play's samples (a whole game is played out for each; at least 4).
fn rate_before_play(
    decision: &mut RatedDecision,
    all: &[(Game, Seat, Action)],
    index: usize,
    record: &GameRecord,
    options: &AnalysisOptions,
) {
    let (game, seat, made) = &all[index];
    let choices: Vec<Action> = if !matches!(made, Action::Bid(_)) {
        // Only the choice made is played out (see below).
        vec![*made]
    } else if game.turn() == *seat {
        game.legal_actions().all()
    } else if matches!(made, Action::Double(_)) {
        game.doubling_choices()
            .into_iter()
            .map(Action::Double)
            .collect()
    } else {
        Vec::new()
    };
    decision.forced = matches!(made, Action::Bid(_)) && choices.len() <= 1;
    if decision.forced {
        return;
    }
    let samples = match options.budget {
        Budget::Count(n) => (n / 4).max(4),
        Budget::Time(_) => DEFAULT_SAMPLES / 4,
    };
    let history: Vec<(Seat, Action)> = all[..index].iter().map(|(_, s, a)| (*s, *a)).collect();
    let seed = derive_seed(options.seed, index as u64 + 1);
    let Some(chances) = decision_chances(
        game,
        &record.rules,
        &history,
        *seat,
        &choices,
        samples,
        seed,
    ) else {
        return;
    };
    let Some(made_at) = choices.iter().position(|c| c == made) else {
        return;
    };
    if !matches!(made, Action::Bid(_)) {
        // Doubling and showing change the stake, not the chance of winning: the chance is
        // said, the choice not rated.
        decision.win_played = Some(chances[made_at]);
        decision.samples = samples as u32;
        return;
    }
    let best = best_chance(&chances);
    rate(
        decision,
        chances[made_at],
        chances[best],
        choices[best].notation(&game.rules()),
        samples as u32,
    );
}

/// A seat's summary of the decisions.
fn summarise(seat: Seat, decisions: &[RatedDecision]) -> SeatSummary {
    let rated: Vec<&RatedDecision> = decisions
        .iter()
        .filter(|d| d.seat == seat && d.loss.is_some())
        .collect();
    let count = |mark: Mark| rated.iter().filter(|d| d.mark == Some(mark)).count() as u32;
    let losses: Vec<f64> = rated.iter().filter_map(|d| d.loss).collect();
    let worst = rated
        .iter()
        .filter(|d| d.loss.unwrap_or(0.0) > 0.0)
        .max_by(|a, b| a.loss.unwrap_or(0.0).total_cmp(&b.loss.unwrap_or(0.0)))
        .map(|d| d.step);
    SeatSummary {
        seat,
        decisions: rated.len() as u32,
        mean_loss: if losses.is_empty() {
            0.0
        } else {
            losses.iter().sum::<f64>() / losses.len() as f64
        },
        blunders: count(Mark::Blunder),
        mistakes: count(Mark::Mistake),
        inaccuracies: count(Mark::Inaccuracy),
        exact_lost: decisions
            .iter()
            .filter(|d| d.seat == seat)
            .filter(|d| {
                d.exact
                    .as_ref()
                    .is_some_and(|e| e.could_win && !e.played_wins)
            })
            .count() as u32,
        worst,
    }
}

/// The decision that moved the game most: the rated decision with the largest loss, with the
/// landlord's chance before it (after the best play) and after it (after the play made), as
/// the deciding seat saw them. Two seats' estimates are not compared: each sees its own hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurningPoint {
    /// The decision's step.
    pub step: usize,
    /// Its seat.
    pub seat: Seat,
    /// The landlord's chance had the best play been made.
    pub landlord_before: f64,
    /// The landlord's chance after the play made.
    pub landlord_after: f64,
}

/// The costliest rated decision, when one lost anything (see [`TurningPoint`]).
fn turning_point(decisions: &[RatedDecision], landlord: Seat) -> Option<TurningPoint> {
    let landlords = |d: &RatedDecision, win: f64| if d.seat == landlord { win } else { 1.0 - win };
    decisions
        .iter()
        .filter(|d| d.loss.is_some_and(|l| l > 0.0))
        .max_by(|a, b| a.loss.unwrap_or(0.0).total_cmp(&b.loss.unwrap_or(0.0)))
        .and_then(|d| {
            Some(TurningPoint {
                step: d.step,
                seat: d.seat,
                landlord_before: landlords(d, d.win_best?),
                landlord_after: landlords(d, d.win_played?),
            })
        })
}
