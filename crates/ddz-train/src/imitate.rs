//! Learning from recorded games (the first half of expert iteration): the games of a stronger
//! robot (for example the search robot playing itself, `ddz arena --records DIR`) are replayed,
//! and at every decision with a choice the network learns to score the recorded move above the
//! other legal moves (cross-entropy of the softmax of the scores) and to score it as the
//! deciding seat's outcome (squared error), so that scores stay win estimates that the `net`
//! robot's bidding and the search robot's prior can read.

use std::fs;
use std::path::{Path, PathBuf};

use ddz_bots::net::features::{Position, action_features, state_features};
use ddz_core::{Move, move_notation, parse_move};
use ddz_game::{Deal, GameRecord, Seat, SplitMix64, derive_seed};

use crate::TrainError;
use crate::train_game::{LANDLORD, TrainGame};

/// One recorded decision with a choice.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingExample {
    /// Active state inputs of the deciding seat's position.
    pub state: Box<[u16]>,
    /// Active action inputs of the moves kept: the recorded move first, then other legal moves
    /// (all of them, or a seeded sample when there are more than the limit).
    pub moves: Vec<Box<[u16]>>,
    /// The deciding seat's outcome (+1 won, −1 lost) after the move at `valued`.
    pub target: f32,
    /// How many moves, from the first, the softmax of the scores learns toward, evenly (1:
    /// the recorded move; the winning plays of a self-play decision with rollouts; 0: none).
    pub preferred: usize,
    /// The move whose score learns `target` (the recorded move, 0, in imitation).
    pub valued: usize,
}

/// The decisions of a directory of records.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Decisions to learn from.
    pub train: Vec<TrainingExample>,
    /// Decisions held out to measure how well the network imitates: those of the games whose
    /// seed is a multiple of 50 (one in fifty of seeded deals).
    pub validation: Vec<TrainingExample>,
    /// Games read.
    pub games: u64,
    /// Records skipped: bidding games, or a landlord other than seat 0 (the tables of training
    /// seat the landlord at 0).
    pub skipped: u64,
}

/// Every `*.json` file under `dir`, at any depth, in name order.
fn record_files(dir: &Path) -> Result<Vec<PathBuf>, TrainError> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let entries = fs::read_dir(&d).map_err(crate::io(&d))?;
        for entry in entries {
            let path = entry.map_err(crate::io(&d))?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Reads the game records under `dir` (ddz-record/1 JSON files at any depth, as `ddz arena
/// --records` writes them) and replays them into decisions, keeping at most `keep` moves
/// (at least 2) of each; the sample of other moves is drawn from `seed`. A record that is
/// not one, or whose plays are not legal, is an error naming the file and the play.
pub fn load_records(dir: &Path, keep: usize, seed: u64) -> Result<Dataset, TrainError> {
    let files = record_files(dir)?;
    if files.is_empty() {
        return Err(TrainError::Config(format!(
            "{}: no game records (*.json) there",
            dir.display()
        )));
    }
    let keep = keep.max(2);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(threads);
    let parts: Vec<Result<Dataset, TrainError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .enumerate()
            .map(|(c, paths)| {
                scope.spawn(move || {
                    let mut part = Dataset::default();
                    for (i, path) in paths.iter().enumerate() {
                        let n = (c * chunk + i) as u64;
                        read_record(path, n, keep, seed, &mut part)?;
                    }
                    Ok(part)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(TrainError::Config("a reader failed".into())))
            })
            .collect()
    });
    let mut data = Dataset::default();
    for part in parts {
        let part = part?;
        data.train.extend(part.train);
        data.validation.extend(part.validation);
        data.games += part.games;
        data.skipped += part.skipped;
    }
    if data.train.is_empty() {
        return Err(TrainError::Config(format!(
            "{}: no decision to learn from in {} records ({} skipped: bidding games or a \
             landlord other than seat 0)",
            dir.display(),
            files.len(),
            data.skipped
        )));
    }
    Ok(data)
}

/// Replays the record at `path` (the `n`-th file) into `out`.
fn read_record(
    path: &Path,
    n: u64,
    keep: usize,
    seed: u64,
    out: &mut Dataset,
) -> Result<(), TrainError> {
    let bad = |why: String| TrainError::Record {
        path: path.to_path_buf(),
        why,
    };
    let text = fs::read_to_string(path).map_err(crate::io(path))?;
    let record = GameRecord::parse(&text).map_err(|e| bad(e.to_string()))?;
    if !record.bids.is_empty() || record.landlord != Some(0) || record.redeals > 0 {
        out.skipped += 1;
        return Ok(());
    }
    let deal: Deal = record
        .deal
        .to_deal(&record.rules)
        .map_err(|e| bad(format!("\"deal\": {e}")))?;
    let mut table = TrainGame::start(&deal, &record.rules);
    let mut rng = SplitMix64::new(derive_seed(seed, n));
    let (mut moves, mut state, mut action) = (Vec::new(), Vec::new(), Vec::new());
    let mut decided: Vec<(Seat, TrainingExample)> = Vec::new();
    for (i, (seat, text)) in record.plays.iter().enumerate() {
        let at = |why: String| bad(format!("play {} ({seat} {text}): {why}", i + 1));
        if table.state.is_over() {
            return Err(at("the game is already over".into()));
        }
        let turn = table.state.turn();
        if usize::from(*seat) != turn.index() {
            return Err(at(format!("seat {turn} is to play")));
        }
        table.state.legal_moves_into(&table.rules, &mut moves);
        // As written by ddz, else as any equivalent notation reads.
        let chosen = match moves
            .iter()
            .position(|m| move_notation(m, &table.rules) == *text)
        {
            Some(i) => i,
            None => {
                let beat = table.state.last().map(|(_, m)| m);
                let wanted =
                    parse_move(text, &table.rules, beat.as_ref()).map_err(|e| at(e.to_string()))?;
                moves
                    .iter()
                    .position(|m| *m == wanted)
                    .ok_or_else(|| at("not a legal move here".into()))?
            }
        };
        if moves.len() > 1 {
            let pos: Position = table.position();
            state.clear();
            state_features(&pos, &mut state);
            moves.swap(0, chosen);
            // The others: all of them, or a partial shuffle's first keep − 1.
            let others = (moves.len() - 1).min(keep - 1);
            for j in 0..others {
                let pick = 1 + j + rng.below((moves.len() - 1 - j) as u64) as usize;
                moves.swap(1 + j, pick);
            }
            let kept = moves[..=others]
                .iter()
                .map(|m: &Move| {
                    action.clear();
                    action_features(&pos, m, &table.rules, &mut action);
                    action.as_slice().into()
                })
                .collect();
            decided.push((
                turn,
                TrainingExample {
                    state: state.as_slice().into(),
                    moves: kept,
                    target: 0.0,
                    preferred: 1,
                    valued: 0,
                },
            ));
            let play = moves[0];
            table.apply(play);
        } else {
            table.apply(moves[chosen]);
        }
    }
    if !table.state.is_over() {
        return Err(bad(format!(
            "the game is not over after its {} plays",
            record.plays.len()
        )));
    }
    let landlord_won = table.landlord_won();
    let into = if record.seed % 50 == 0 {
        &mut out.validation
    } else {
        &mut out.train
    };
    into.extend(decided.into_iter().map(|(seat, mut d)| {
        d.target = if (seat == LANDLORD) == landlord_won {
            1.0
        } else {
            -1.0
        };
        d
    }));
    out.games += 1;
    Ok(())
}
