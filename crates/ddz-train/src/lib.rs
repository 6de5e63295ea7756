//! # ddz-train
//!
//! Training of the `net` robot's network ([`ddz_bots::net`]) on the CPU by Deep Monte-Carlo
//! (DMC, as DouZero): actor threads play self-play games with the network (ε-greedy, with
//! `ddzlib` as a teacher whose share fades out), every decision becomes a frame labelled
//! with the deciding seat's outcome (+1 won, −1 lost), and a learner regresses the network's
//! score of each (state, move) on those outcomes from a replay buffer of recent frames.
//! The network's best-scored move is then the move most likely to win under play like its
//! own.
//!
//! A run lives in a directory: `checkpoint.safetensors` (the network and, in its metadata,
//! the run's counters; loadable by `net:weights=FILE`) and `metrics.jsonl` (a line each
//! time the run reports: frames, games, loss, frames a second, and at evaluations the win
//! share against `ddzlib` on fixed deals). A run stops at a frame count or a time limit, and
//! can be stopped at any time: [`train`] with `resume` continues from the last checkpoint,
//! and can first widen its network without changing its function ([`TrainConfig::widen`]).
//! Runs are not repeatable game for game (actors and learner run concurrently); the deals
//! and draws of each actor are seeded.
//!
//! Two variations of self-play ([`Behaviour`]): a share of the games can be played against
//! `ddzlib` (the network on one side, only its side's decisions learnt from: the outcomes
//! against that opponent), and with rollouts each of the network's decisions tries its best
//! few plays, playing each out to the end from the true position or on a few deals of the
//! hidden cards drawn from its view, and is learnt as in imitation (a [`TrainingExample`]: the
//! softmax toward the plays that won the most, the best play's score toward its share of
//! wins): the play-outs of one decision share the hidden cards, so their differences are the
//! plays' own.
//!
//! A run can also learn from recorded games instead ([`imitate`]): the moves of a stronger
//! robot (the search robot playing itself, recorded by `ddz arena --records`) are the
//! targets, and the outcomes keep the scores win estimates; a self-play run can then resume
//! from its checkpoint.
//!
//! Tensors and gradients are candle's (`candle-core`, `candle-nn`): maintained, pure Rust,
//! nothing to download at build time, and a CPU backend fast enough for a small network.

mod actor;
mod eval;
mod imitate;
mod learner;
mod train_game;

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ddz_bots::net::features::{INPUT_LEN, LAYOUT};
use ddz_bots::net::{Net, Scorer};
use ddz_core::Rules;
use ddz_game::SplitMix64;
use serde::Serialize;

pub use actor::{Actor, Behaviour, Expert, Frame, game_seed};
pub use eval::wp_vs_ddzlib;
pub use imitate::{Dataset, TrainingExample, load_records};
pub use learner::{ImitationLoss, Learner};

/// File of a run's checkpoint, in its directory.
pub const CHECKPOINT: &str = "checkpoint.safetensors";
/// File of a run's metrics, in its directory.
pub const METRICS: &str = "metrics.jsonl";

/// A training run's settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The run's directory (created if missing).
    pub dir: PathBuf,
    /// The rules of the games (wild ranks drawn per deal under the wildcard profiles).
    pub rules: Rules,
    /// The name of the rules, recorded in the weights' metadata.
    pub profile: String,
    /// Seed of the deals and of the actors' draws.
    pub seed: u64,
    /// Stop once this many frames have been played in total (a resumed run counts its
    /// checkpoint's).
    pub frames: u64,
    /// Stop after this long (this session only), if set.
    pub time_limit: Option<Duration>,
    /// Hidden layers' widths of a new network (a resumed run keeps its checkpoint's).
    pub hidden: Vec<usize>,
    /// Resuming, widen the checkpoint's network to these hidden widths first, keeping its
    /// function ([`Learner::widened`]).
    pub widen: Option<Vec<usize>>,
    /// Learning rate (Adam).
    pub lr: f64,
    /// Frames per learner step.
    pub batch: usize,
    /// Frames the replay buffer keeps (the most recent).
    pub replay: usize,
    /// How many times, on average, each frame is learnt from (the learner waits for the
    /// actors beyond it).
    pub reuse: f64,
    /// The actors' chance of a random move.
    pub epsilon: f64,
    /// Over this many frames the teacher's share falls from `teacher_start` to 0.
    pub teacher_frames: u64,
    /// The teacher's share at frame 0.
    pub teacher_start: f64,
    /// The teacher's temperature ([`Behaviour::teacher_temperature`]).
    pub teacher_temperature: f64,
    /// The share of games played against `ddzlib` ([`Behaviour::versus`]).
    pub versus: f64,
    /// Plays tried at each of the network's decisions ([`Behaviour::rollouts`]).
    pub rollouts: usize,
    /// With rollouts, the deals of the hidden cards each play is played out on
    /// ([`Behaviour::rollout_deals`]; 0: the true position).
    pub rollout_deals: usize,
    /// Expert iteration: the search robot teaching the network's turns
    /// ([`Behaviour::expert`]; instead of rollouts).
    pub expert: Option<Expert>,
    /// With rollouts, the weight of the valued play's squared error next to the preferred
    /// plays' cross-entropy ([`Learner::imitation_step`]).
    pub value_weight: f64,
    /// Actor threads.
    pub actors: usize,
    /// Learner steps between updates of the actors' network.
    pub publish_every: u64,
    /// Frames between metrics lines.
    pub report_every: u64,
    /// Frames between checkpoints.
    pub checkpoint_every: u64,
    /// Frames between evaluations against `ddzlib` (0: never during the run; one at the end).
    pub eval_every: u64,
    /// Deals of each evaluation (two games each).
    pub eval_deals: u64,
    /// The command line, recorded in the weights' metadata.
    pub command: String,
}

impl TrainConfig {
    /// The defaults: classic rules, hidden layers 256, 256, 128, Adam at 3e-4, batches of
    /// 512, 200,000 frames replayed 4 times each, ε 0.05, the teacher from 0.5 fading over
    /// 2,000,000 frames, one actor.
    pub fn new(dir: PathBuf) -> TrainConfig {
        TrainConfig {
            dir,
            rules: Rules::classic(),
            profile: "classic".to_string(),
            seed: 1,
            frames: 10_000_000,
            time_limit: None,
            hidden: vec![256, 256, 128],
            widen: None,
            lr: 3e-4,
            batch: 512,
            replay: 200_000,
            reuse: 4.0,
            epsilon: 0.05,
            teacher_frames: 2_000_000,
            teacher_start: 0.5,
            teacher_temperature: 0.0,
            versus: 0.0,
            rollouts: 0,
            rollout_deals: 0,
            expert: None,
            value_weight: 1.0,
            actors: 1,
            publish_every: 20,
            report_every: 100_000,
            checkpoint_every: 1_000_000,
            eval_every: 1_000_000,
            eval_deals: 200,
            command: String::new(),
        }
    }

    /// Whether a session started at `session_start` stops at `frames` frames (the frame
    /// count reached, or the time limit).
    pub fn finished(&self, frames: u64, session_start: Instant) -> bool {
        frames >= self.frames
            || self
                .time_limit
                .is_some_and(|t| session_start.elapsed() >= t)
    }

    /// Whether the actors' decisions (rollouts or an expert's) are learnt, not frames.
    pub fn learns_decisions(&self) -> bool {
        self.rollouts > 0 || self.expert.is_some()
    }

    /// The actors' behaviour after `frames` frames.
    pub fn behaviour(&self, frames: u64) -> Behaviour {
        let fade = if self.teacher_frames == 0 {
            0.0
        } else {
            (1.0 - frames as f64 / self.teacher_frames as f64).max(0.0)
        };
        Behaviour {
            epsilon: self.epsilon,
            teacher: self.teacher_start * fade,
            teacher_temperature: self.teacher_temperature,
            versus: self.versus,
            rollouts: self.rollouts,
            rollout_deals: self.rollout_deals,
            expert: self.expert,
        }
    }
}

/// Why a run failed.
#[derive(Debug)]
pub enum TrainError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        why: String,
    },
    /// A game record cannot be learnt from.
    Record {
        /// The record's file.
        path: PathBuf,
        /// What is wrong, and where in the record.
        why: String,
    },
    /// The checkpoint is not one (or not of this build's features).
    Checkpoint(String),
    /// A setting that cannot work.
    Config(String),
    /// The tensor library failed.
    Tensor(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Io { path, why } | TrainError::Record { path, why } => {
                write!(f, "{}: {why}", path.display())
            }
            TrainError::Checkpoint(why) => write!(f, "checkpoint: {why}"),
            TrainError::Config(why) => write!(f, "{why}"),
            TrainError::Tensor(why) => write!(f, "tensor library: {why}"),
        }
    }
}

impl std::error::Error for TrainError {}

fn io(path: &Path) -> impl Fn(std::io::Error) -> TrainError + '_ {
    move |e| TrainError::Io {
        path: path.to_path_buf(),
        why: e.to_string(),
    }
}

/// A run's counters, kept in the checkpoint's metadata.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Counters {
    /// Frames played (decisions with more than one legal move).
    pub frames: u64,
    /// Games played.
    pub games: u64,
    /// Learner steps.
    pub steps: u64,
    /// Seconds of training, over every session of the run.
    pub seconds: f64,
}

/// One metrics line (`metrics.jsonl`), also passed to the progress callback.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The run's counters.
    #[serde(flatten)]
    pub counters: Counters,
    /// Mean loss of the learner steps since the last report.
    pub loss: Option<f64>,
    /// Frames a second since the last report.
    pub frames_per_second: f64,
    /// The teacher's share now.
    pub teacher: f64,
    /// The network's win share against `ddzlib` on the fixed evaluation deals, when evaluated.
    pub wp_vs_ddzlib: Option<f64>,
    /// Games of that evaluation.
    pub eval_games: Option<u64>,
    /// Imitation only: the share of the decisions learnt from since the last report whose
    /// best-scored move was the recorded one (before each step).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<f64>,
    /// Imitation only: that share on the held-out decisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_matched: Option<f64>,
    /// Imitation only: the loss on the held-out decisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_loss: Option<f64>,
}

/// The replay buffer: the most recent frames (or, with rollouts, decisions).
struct Replay<T> {
    frames: Vec<T>,
    next: usize,
    capacity: usize,
}

impl<T> Replay<T> {
    fn new(capacity: usize) -> Replay<T> {
        Replay {
            frames: Vec::with_capacity(capacity.min(1 << 20)),
            next: 0,
            capacity,
        }
    }

    fn push(&mut self, frame: T) {
        if self.frames.len() < self.capacity {
            self.frames.push(frame);
        } else {
            self.frames[self.next] = frame;
            self.next = (self.next + 1) % self.capacity;
        }
    }
}

/// What the actors and the learner share.
struct Shared {
    replay: Mutex<Replay<Frame>>,
    /// The decisions of self-play with rollouts.
    tried: Mutex<Replay<TrainingExample>>,
    net: Mutex<Arc<Net>>,
    net_version: AtomicU64,
    frames: AtomicU64,
    games: AtomicU64,
    /// Frames the learner has sampled this session.
    sampled: AtomicU64,
    stop: AtomicBool,
}

/// Reads a run's checkpoint: the network and its counters.
pub fn read_checkpoint(path: &Path) -> Result<(Net, Counters), TrainError> {
    let net = Net::load(path).map_err(|e| TrainError::Checkpoint(e.to_string()))?;
    let meta = net.mlp().metadata();
    let number = |key: &str| -> Result<f64, TrainError> {
        meta.get(key)
            .and_then(|v| v.parse::<f64>().ok())
            .ok_or_else(|| {
                TrainError::Checkpoint(format!("{}: no \"{key}\" in its metadata", path.display()))
            })
    };
    let counters = Counters {
        frames: number("frames")? as u64,
        games: number("games")? as u64,
        steps: number("steps")? as u64,
        seconds: number("seconds")?,
    };
    Ok((net, counters))
}

/// What made a checkpoint's weights, in its metadata (the last method of the run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    SelfPlay,
    Imitation,
}

/// The metadata written with the weights.
fn metadata(config: &TrainConfig, counters: &Counters, method: Method) -> HashMap<String, String> {
    let method = match method {
        Method::SelfPlay if config.expert.is_some() => {
            "expert iteration: the search robot's plays in games of the network, learnt as \
             imitation (ddz-train)"
        }
        Method::SelfPlay if config.rollouts > 0 && config.rollout_deals > 0 => {
            "self-play with rollouts on dealt hidden cards, learnt as imitation of the plays \
             that won the most (ddz-train)"
        }
        Method::SelfPlay if config.rollouts > 0 => {
            "self-play with rollouts, learnt as imitation of the winning plays (ddz-train)"
        }
        Method::SelfPlay => "Deep Monte-Carlo self-play (ddz-train)",
        Method::Imitation => "imitation of recorded games (ddz-train)",
    };
    HashMap::from([
        ("features".to_string(), LAYOUT.to_string()),
        ("method".to_string(), method.to_string()),
        ("rules".to_string(), config.profile.clone()),
        ("frames".to_string(), counters.frames.to_string()),
        ("games".to_string(), counters.games.to_string()),
        ("steps".to_string(), counters.steps.to_string()),
        ("seconds".to_string(), format!("{:.3}", counters.seconds)),
        ("seed".to_string(), config.seed.to_string()),
        ("command".to_string(), config.command.clone()),
    ])
}

/// Writes the checkpoint atomically (a temporary file renamed over the old one).
fn write_checkpoint(
    dir: &Path,
    learner: &Learner,
    config: &TrainConfig,
    counters: &Counters,
    method: Method,
) -> Result<Arc<Net>, TrainError> {
    let mlp = learner.export(metadata(config, counters, method))?;
    let net = Net::from_mlp(mlp).map_err(|e| TrainError::Checkpoint(e.to_string()))?;
    let path = dir.join(CHECKPOINT);
    let tmp = dir.join(format!("{CHECKPOINT}.tmp"));
    fs::write(&tmp, net.mlp().to_safetensors()).map_err(io(&tmp))?;
    fs::rename(&tmp, &path).map_err(io(&path))?;
    Ok(Arc::new(net))
}

/// Runs (or with `resume`, continues) the training run of `config`, calling `progress` with
/// each report. Returns the last report.
pub fn train(
    config: &TrainConfig,
    resume: bool,
    progress: &mut dyn FnMut(&Report),
) -> Result<Report, TrainError> {
    if config.actors == 0 || config.batch == 0 || config.replay < config.batch {
        return Err(TrainError::Config(format!(
            "need at least one actor and a replay buffer ({}) of at least a batch ({})",
            config.replay, config.batch
        )));
    }
    let mut run = open_run(config, resume, Method::SelfPlay)?;
    let net = run.net.clone();
    let shared = Arc::new(Shared {
        replay: Mutex::new(Replay::new(config.replay)),
        tried: Mutex::new(Replay::new(config.replay)),
        net: Mutex::new(net.clone()),
        net_version: AtomicU64::new(0),
        frames: AtomicU64::new(run.counters.frames),
        games: AtomicU64::new(run.counters.games),
        sampled: AtomicU64::new(0),
        stop: AtomicBool::new(false),
    });
    let session_start = Instant::now();
    let start_seconds = run.counters.seconds;
    let start_frames = run.counters.frames;

    let handles: Vec<_> = (0..config.actors)
        .map(|a| {
            let shared = shared.clone();
            let config = config.clone();
            let net = net.clone();
            let (first_game, first_frame) = (run.counters.games, run.counters.frames);
            std::thread::spawn(move || {
                actor_loop(a, &config, &shared, net, first_game, first_frame)
            })
        })
        .collect();

    let mut rng = SplitMix64::new(ddz_game::derive_seed(
        config.seed,
        0x1EA2 + run.counters.steps,
    ));
    let mut sampled = 0f64;
    let (mut loss_sum, mut loss_n) = (0f64, 0u64);
    let result = (|| -> Result<Report, TrainError> {
        loop {
            let frames = shared.frames.load(Ordering::Relaxed);
            run.counters.frames = frames;
            run.counters.games = shared.games.load(Ordering::Relaxed);
            run.counters.seconds = start_seconds + session_start.elapsed().as_secs_f64();
            let done = config.finished(frames, session_start);
            if run.report_due(frames, done) {
                let loss = (loss_n > 0).then(|| loss_sum / loss_n as f64);
                let teacher = config.behaviour(frames).teacher;
                let report = run.report(
                    config,
                    done,
                    |r| {
                        r.loss = loss;
                        r.teacher = teacher;
                    },
                    progress,
                )?;
                (loss_sum, loss_n) = (0.0, 0);
                if done {
                    return Ok(report);
                }
            }
            // Learn only as much as the reuse ratio allows, once the buffer is warm.
            let allowed = config.reuse * (frames - start_frames) as f64;
            let ready = sampled + config.batch as f64 <= allowed;
            let loss = if config.learns_decisions() {
                let batch = if ready {
                    draw_batch(&shared.tried, config, &mut rng)?
                } else {
                    None
                };
                let Some(batch) = batch else {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                };
                let refs: Vec<&TrainingExample> = batch.iter().collect();
                let loss = run.learner.imitation_step(&refs, config.value_weight)?;
                loss.cross_entropy + config.value_weight as f32 * loss.squared_error
            } else {
                let batch = if ready {
                    draw_batch(&shared.replay, config, &mut rng)?
                } else {
                    None
                };
                let Some(batch) = batch else {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                };
                let refs: Vec<&Frame> = batch.iter().collect();
                run.learner.step(&refs)?
            };
            sampled += config.batch as f64;
            shared
                .sampled
                .fetch_add(config.batch as u64, Ordering::Relaxed);
            loss_sum += f64::from(loss);
            loss_n += 1;
            run.counters.steps += 1;
            if run.counters.steps % config.publish_every.max(1) == 0 {
                let net = Net::from_mlp(run.learner.export(HashMap::new())?)
                    .map_err(|e| TrainError::Checkpoint(e.to_string()))?;
                *shared
                    .net
                    .lock()
                    .map_err(|_| TrainError::Config("an actor failed".into()))? = Arc::new(net);
                shared.net_version.fetch_add(1, Ordering::Release);
            }
        }
    })();
    shared.stop.store(true, Ordering::Relaxed);
    for h in handles {
        let _ = h.join();
    }
    result
}

/// A run opened for training: its learner, counters, first network, metrics file, and when it
/// next reports, evaluates and checkpoints.
struct Run {
    learner: Learner,
    counters: Counters,
    net: Arc<Net>,
    metrics: fs::File,
    metrics_path: PathBuf,
    method: Method,
    eval_scorer: Scorer,
    /// When the last report was made, and at how many frames.
    last_report: (Instant, u64),
    next_report: u64,
    next_checkpoint: u64,
    next_eval: u64,
}

impl Run {
    /// Whether a report is due at `frames` (always when the run is `done`).
    fn report_due(&self, frames: u64, done: bool) -> bool {
        done || frames >= self.next_report || frames >= self.next_eval
    }

    /// Makes the report due at the counters' frames: evaluates the network when that is due
    /// (or the run is `done`), lets `fill` add the method's own fields, writes the metrics
    /// line, passes it to `progress`, and checkpoints when that is due.
    fn report(
        &mut self,
        config: &TrainConfig,
        done: bool,
        fill: impl FnOnce(&mut Report),
        progress: &mut dyn FnMut(&Report),
    ) -> Result<Report, TrainError> {
        let frames = self.counters.frames;
        let (wp, eval_games) = if done || frames >= self.next_eval {
            self.next_eval = frames + config.eval_every.max(1);
            evaluate_now(&self.learner, config, &mut self.eval_scorer)?
        } else {
            (None, None)
        };
        let elapsed = self.last_report.0.elapsed().as_secs_f64().max(1e-9);
        let mut report = Report {
            counters: self.counters,
            loss: None,
            frames_per_second: (frames - self.last_report.1) as f64 / elapsed,
            teacher: 0.0,
            wp_vs_ddzlib: wp,
            eval_games,
            matched: None,
            validation_matched: None,
            validation_loss: None,
        };
        fill(&mut report);
        let line = serde_json::to_string(&report).map_err(|e| TrainError::Config(e.to_string()))?;
        writeln!(self.metrics, "{line}").map_err(io(&self.metrics_path))?;
        progress(&report);
        self.last_report = (Instant::now(), frames);
        self.next_report = frames + config.report_every.max(1);
        if done || frames >= self.next_checkpoint {
            write_checkpoint(
                &config.dir,
                &self.learner,
                config,
                &self.counters,
                self.method,
            )?;
            self.next_checkpoint = frames + config.checkpoint_every.max(1);
        }
        Ok(report)
    }
}

/// Opens the run of `config`: a new network (refusing to overwrite a checkpoint), or with
/// `resume` the checkpoint's; writes the first checkpoint and opens the metrics file.
fn open_run(config: &TrainConfig, resume: bool, method: Method) -> Result<Run, TrainError> {
    let checkpoint = config.dir.join(CHECKPOINT);
    let (learner, counters) = if resume {
        let (net, counters) = read_checkpoint(&checkpoint)?;
        let learner = match &config.widen {
            Some(hidden) => Learner::widened(net.mlp(), hidden, config.lr)?,
            None => Learner::from_mlp(net.mlp(), config.lr)?,
        };
        (learner, counters)
    } else {
        if checkpoint.exists() {
            return Err(TrainError::Config(format!(
                "{} exists: resume it, or train in another directory",
                checkpoint.display()
            )));
        }
        (
            Learner::new(&config.hidden, config.lr)?,
            Counters::default(),
        )
    };
    fs::create_dir_all(&config.dir).map_err(io(&config.dir))?;
    let net = write_checkpoint(&config.dir, &learner, config, &counters, method)?;
    let metrics_path = config.dir.join(METRICS);
    let metrics = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&metrics_path)
        .map_err(io(&metrics_path))?;
    let frames = counters.frames;
    Ok(Run {
        learner,
        counters,
        eval_scorer: Scorer::new(net.clone()),
        net,
        metrics,
        metrics_path,
        method,
        last_report: (Instant::now(), frames),
        next_report: frames + config.report_every,
        next_checkpoint: frames + config.checkpoint_every,
        next_eval: if config.eval_every == 0 {
            u64::MAX
        } else {
            frames + config.eval_every
        },
    })
}

/// The learner's network against `ddzlib` on the fixed evaluation deals: its WP and the
/// games played.
fn evaluate_now(
    learner: &Learner,
    config: &TrainConfig,
    scorer: &mut Scorer,
) -> Result<(Option<f64>, Option<u64>), TrainError> {
    scorer.set_net(Arc::new(
        Net::from_mlp(learner.export(HashMap::new())?)
            .map_err(|e| TrainError::Checkpoint(e.to_string()))?,
    ));
    let wp = wp_vs_ddzlib(scorer, &config.rules, config.eval_deals);
    Ok((Some(wp), Some(2 * config.eval_deals)))
}

/// How a run learns from recorded games ([`imitate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImitateConfig {
    /// Weight of the squared error of the recorded move's score against the outcome, next to
    /// the cross-entropy of the recorded move.
    pub value_weight: f64,
    /// Held-out decisions measured at each report (at most).
    pub validation: usize,
}

impl Default for ImitateConfig {
    /// Value weight 1, 4,096 held-out decisions a report.
    fn default() -> ImitateConfig {
        ImitateConfig {
            value_weight: 1.0,
            validation: 4096,
        }
    }
}

/// Runs (or with `resume`, continues) the run of `config` learning from the recorded
/// decisions of `data` ([`load_records`]) instead of self-play, in shuffled passes, calling
/// `progress` with each report; the counters' frames are the decisions learnt from. Reports
/// add the share of recorded moves the network picks, on the decisions learnt from and on
/// the held-out ones. Returns the last report.
pub fn imitate(
    config: &TrainConfig,
    imitation: &ImitateConfig,
    data: &Dataset,
    resume: bool,
    progress: &mut dyn FnMut(&Report),
) -> Result<Report, TrainError> {
    if config.batch == 0 || data.train.is_empty() {
        return Err(TrainError::Config(
            "need a batch of at least one decision, and decisions to learn from".into(),
        ));
    }
    let mut run = open_run(config, resume, Method::Imitation)?;
    let session_start = Instant::now();
    let start_seconds = run.counters.seconds;
    let mut rng = SplitMix64::new(ddz_game::derive_seed(
        config.seed,
        0x1417 + run.counters.steps,
    ));
    let mut order: Vec<usize> = (0..data.train.len()).collect();
    let mut next = order.len();
    let batch = config.batch.min(order.len());
    let (mut loss_sum, mut loss_n, mut matched, mut seen) = (0f64, 0u64, 0u64, 0u64);
    loop {
        run.counters.seconds = start_seconds + session_start.elapsed().as_secs_f64();
        let frames = run.counters.frames;
        let done = config.finished(frames, session_start);
        if run.report_due(frames, done) {
            let (validation_loss, validation_matched) =
                validate(&mut run.learner, data, imitation, config.batch)?;
            let loss = (loss_n > 0).then(|| loss_sum / loss_n as f64);
            let matched_share = (seen > 0).then(|| matched as f64 / seen as f64);
            let report = run.report(
                config,
                done,
                |r| {
                    r.loss = loss;
                    r.matched = matched_share;
                    r.validation_matched = validation_matched;
                    r.validation_loss = validation_loss;
                },
                progress,
            )?;
            (loss_sum, loss_n, matched, seen) = (0.0, 0, 0, 0);
            if done {
                return Ok(report);
            }
        }
        if next + batch > order.len() {
            // A new pass over the decisions, in a new order (Fisher-Yates).
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            next = 0;
        }
        let refs: Vec<&TrainingExample> = order[next..next + batch]
            .iter()
            .map(|&i| &data.train[i])
            .collect();
        next += batch;
        let loss = run.learner.imitation_step(&refs, imitation.value_weight)?;
        loss_sum +=
            f64::from(loss.cross_entropy) + imitation.value_weight * f64::from(loss.squared_error);
        loss_n += 1;
        matched += loss.matched as u64;
        seen += batch as u64;
        run.counters.frames += batch as u64;
        run.counters.steps += 1;
    }
}

/// The loss and the share of recorded moves matched on (at most `imitation.validation` of)
/// the held-out decisions; `None` when there are none.
fn validate(
    learner: &mut Learner,
    data: &Dataset,
    imitation: &ImitateConfig,
    batch: usize,
) -> Result<(Option<f64>, Option<f64>), TrainError> {
    let held = &data.validation[..data.validation.len().min(imitation.validation)];
    if held.is_empty() {
        return Ok((None, None));
    }
    let (mut loss, mut matched) = (0f64, 0usize);
    for chunk in held.chunks(batch.max(1)) {
        let refs: Vec<&TrainingExample> = chunk.iter().collect();
        let l = learner.imitation_loss(&refs, imitation.value_weight)?;
        loss += (f64::from(l.cross_entropy) + imitation.value_weight * f64::from(l.squared_error))
            * chunk.len() as f64;
        matched += l.matched;
    }
    let n = held.len() as f64;
    Ok((Some(loss / n), Some(matched as f64 / n)))
}

/// Frames the replay buffer holds before the learner starts.
fn warmup(config: &TrainConfig) -> usize {
    config.batch.max(1000).min(config.replay)
}

/// A learner's batch from `replay`: `config.batch` items drawn at random (with replacement),
/// or `None` while it holds fewer than [`warmup`]; an error when an actor failed holding it.
fn draw_batch<T: Clone>(
    replay: &Mutex<Replay<T>>,
    config: &TrainConfig,
    rng: &mut SplitMix64,
) -> Result<Option<Vec<T>>, TrainError> {
    let replay = replay
        .lock()
        .map_err(|_| TrainError::Config("an actor failed".into()))?;
    let held = replay.frames.len();
    Ok((held >= warmup(config).max(1)).then(|| {
        (0..config.batch)
            .map(|_| replay.frames[rng.below(held as u64) as usize].clone())
            .collect()
    }))
}

/// One actor: plays games until told to stop, sending their frames to the replay buffer, and
/// waiting while the learner lags: the frames played this session may run ahead of those the
/// learner sampled (divided by the reuse) by a quarter of the replay buffer at most.
fn actor_loop(
    index: usize,
    config: &TrainConfig,
    shared: &Shared,
    net: Arc<Net>,
    first_game: u64,
    first_frame: u64,
) {
    let mut actor = Actor::new(Scorer::new(net), game_seed(config.seed, index, first_game));
    let mut version = 0;
    let mut frames = Vec::new();
    let mut tried = Vec::new();
    let mut n = first_game;
    // Never less than the learner needs to start plus a step.
    let slack = (config.replay / 4).max(warmup(config) + config.batch) as f64
        + config.batch as f64 / config.reuse;
    while !shared.stop.load(Ordering::Relaxed) {
        let played = shared.frames.load(Ordering::Relaxed) - first_frame;
        let learnt = shared.sampled.load(Ordering::Relaxed) as f64 / config.reuse;
        if played as f64 > learnt + slack {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        let now = shared.net_version.load(Ordering::Acquire);
        if now != version {
            if let Ok(net) = shared.net.lock() {
                actor.scorer_mut().set_net(net.clone());
            }
            version = now;
        }
        let behaviour = config.behaviour(shared.frames.load(Ordering::Relaxed));
        frames.clear();
        tried.clear();
        let added = actor.play(
            &config.rules,
            game_seed(config.seed, index, n),
            behaviour,
            &mut frames,
            &mut tried,
        );
        n += 1;
        if let Ok(mut replay) = shared.replay.lock() {
            for f in frames.drain(..) {
                replay.push(f);
            }
        }
        if let Ok(mut replay) = shared.tried.lock() {
            for d in tried.drain(..) {
                replay.push(d);
            }
        }
        shared.frames.fetch_add(added as u64, Ordering::Relaxed);
        shared.games.fetch_add(1, Ordering::Relaxed);
    }
}

/// Number of inputs of the network (the features' length), for reports.
pub const INPUTS: usize = INPUT_LEN;
