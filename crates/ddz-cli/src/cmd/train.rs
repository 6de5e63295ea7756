//! `ddz train`: trains the `net` robot's network by Deep Monte-Carlo self-play (ddz-train).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use ddz_bots::search::SearchConfig;
use ddz_train::{Expert, ImitateConfig, Report, TrainConfig, imitate, load_records, train};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::common::print_json;

/// Trains the `net` robot's network by self-play (Deep Monte-Carlo: each move's score
/// regressed on the game's outcome) in DIR: checkpoint.safetensors (usable as
/// `net:weights=DIR/checkpoint.safetensors`) and metrics.jsonl (one JSON line a report:
/// frames, games, steps, seconds, loss, frames_per_second, teacher, and at evaluations
/// wp_vs_ddzlib over eval_games). Stop it at any time (Ctrl-C): --resume continues from
/// the last checkpoint. With --imitate RECORDS, learns instead from recorded games (for
/// example the search robot's, `ddz arena --bots search,search --records RECORDS`): each
/// recorded move's score is raised above the other legal moves' and regressed on the game's
/// outcome; frames then count the decisions learnt from, and metrics lines add matched and
/// validation_matched (the share of recorded moves the network picks) and validation_loss.
/// A self-play run can --resume an imitation run's directory.
#[derive(clap::Args)]
pub struct Args {
    /// The run's directory (created if missing).
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Continue the run in DIR from its checkpoint (its network and counters; the optimiser
    /// starts afresh).
    #[arg(long)]
    resume: bool,
    /// Stop once this many frames (decisions with a choice) have been played in total.
    #[arg(long, default_value_t = 10_000_000)]
    frames: u64,
    /// Stop after this many minutes of this session (whichever comes first).
    #[arg(long, value_name = "MINUTES")]
    minutes: Option<f64>,
    /// Seed of the deals and the actors' draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rule profile of the games (the wildcard profiles draw their wild ranks per deal).
    #[arg(long, default_value = "classic", value_name = "PROFILE")]
    rules: String,
    /// Hidden layers' widths of a new network, comma-separated.
    #[arg(long, default_value = "256,256,128", value_name = "W,W,...")]
    hidden: String,
    /// With --resume: first widen the checkpoint's hidden layers to these widths,
    /// comma-separated (as many layers, none narrower), keeping the network's function: the
    /// new units start with zero weight into the old ones and learn from there.
    #[arg(long, value_name = "W,W,...")]
    widen: Option<String>,
    /// Learning rate (Adam).
    #[arg(long, default_value_t = 3e-4)]
    lr: f64,
    /// Frames per learner step.
    #[arg(long, default_value_t = 512)]
    batch: usize,
    /// Frames the replay buffer keeps (the most recent).
    #[arg(long, default_value_t = 200_000)]
    replay: usize,
    /// How many times, on average, each frame is learnt from.
    #[arg(long, default_value_t = 4.0)]
    reuse: f64,
    /// The actors' chance of a random move.
    #[arg(long, default_value_t = 0.05)]
    epsilon: f64,
    /// The share of moves made by the ddzlib robot (the teacher) at the start.
    #[arg(long, default_value_t = 0.5)]
    teacher: f64,
    /// The teacher's temperature: 0 makes its first choice; above, its move is drawn from its
    /// ladder (each place e^(-1/T) times as likely as the one before), so that the frames
    /// show its likely alternatives' outcomes too.
    #[arg(long, default_value_t = 0.0)]
    teacher_temp: f64,
    /// Frames over which the teacher's share falls to 0.
    #[arg(long, default_value_t = 2_000_000)]
    teacher_frames: u64,
    /// The share of games played against the ddzlib robot: the network takes the landlord or
    /// the farmers (even chances), ddzlib the other side at its first choice, and only the
    /// network's side's decisions are learnt from (0: self-play only).
    #[arg(long, default_value_t = 0.0, value_name = "SHARE")]
    versus_ddzlib: f64,
    /// Plays tried at each of the network's decisions: its K best-scored plays, each played
    /// out to the end from the true position (or on --rollout-deals deals of the hidden
    /// cards; the network greedy on its side); the network
    /// then learns as in imitation, its softmax toward the plays whose play-outs won and its
    /// best play's score toward that play's outcome, instead of the move made's score toward
    /// the game's outcome (0: plain Deep Monte-Carlo). Frames then count these decisions.
    #[arg(long, default_value_t = 0, value_name = "K")]
    rollouts: usize,
    /// With --rollouts: play each tried play out on this many deals of the cards the network
    /// cannot see, drawn at random consistently with what it sees (the same deals for every
    /// play), and prefer the plays that won the most, instead of one play-out from the true
    /// position (0).
    #[arg(long, default_value_t = 0, value_name = "N", requires = "rollouts")]
    rollout_deals: usize,
    /// Expert iteration: the search robot SPEC (`search`, or `search:` and its options, as
    /// in --bots) decides each of the network's turns and its play is made (but for the
    /// --epsilon draw); the network learns as in imitation, its softmax toward the expert's
    /// play among it and its own best-scored other plays (--keep-moves in all) and that
    /// play's score toward the game's outcome. Frames then count these decisions.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["rollouts", "rollout_deals"])]
    expert: Option<String>,
    /// Actor threads (the learner takes one more).
    #[arg(long, default_value_t = 1)]
    actors: usize,
    /// Frames between metrics lines.
    #[arg(long, default_value_t = 100_000)]
    report_every: u64,
    /// Frames between checkpoints.
    #[arg(long, default_value_t = 1_000_000)]
    checkpoint_every: u64,
    /// Frames between evaluations against ddzlib (0: only at the end).
    #[arg(long, default_value_t = 1_000_000)]
    eval_every: u64,
    /// Deals of each evaluation (two games each, on fixed deals).
    #[arg(long, default_value_t = 200)]
    eval_deals: u64,
    /// Learn from the game records in this directory (ddz-record/1 files at any depth, games
    /// without bidding, seat 0 the landlord, as `ddz arena --records` writes them) instead of
    /// self-play. The games whose seed is a multiple of 50 are held out to measure the imitation.
    #[arg(long, value_name = "RECORDS", conflicts_with_all = [
        "epsilon", "teacher", "teacher_temp", "teacher_frames", "versus_ddzlib", "rollouts", "rollout_deals",
        "expert", "actors",
        "replay", "reuse"
    ])]
    imitate: Option<PathBuf>,
    /// With --imitate: the moves scored at each decision, the recorded one and a sample of
    /// the other legal moves (all of them when fewer); with --expert, the expert's play and
    /// the network's best-scored others [default: 16].
    #[arg(long, value_name = "K")]
    keep_moves: Option<usize>,
    /// With --imitate (or --rollouts, --expert): the weight of the recorded (best-scored) move's squared
    /// error against the outcome, next to the cross-entropy.
    #[arg(long, default_value_t = 1.0, value_name = "W")]
    value_weight: f64,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    quiet: bool,
    /// Print the last report as JSON on stdout (the metrics line's fields).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<()> {
    let rules =
        ddz_core::Rules::build(&a.rules, None, None).map_err(|e| anyhow!("--rules: {e}"))?;
    let hidden = widths("--hidden", &a.hidden)?;
    let widen = a
        .widen
        .as_deref()
        .map(|w| widths("--widen", w))
        .transpose()?;
    if widen.is_some() && !a.resume {
        bail!("--widen: widening needs --resume (it widens the checkpoint's network)");
    }
    if !(a.lr > 0.0 && a.lr.is_finite()) {
        bail!("--lr: {} is not a positive number", a.lr);
    }
    for (name, p) in [
        ("--epsilon", a.epsilon),
        ("--teacher", a.teacher),
        ("--versus-ddzlib", a.versus_ddzlib),
    ] {
        if !(0.0..=1.0).contains(&p) {
            bail!("{name}: {p} is not a chance from 0 to 1");
        }
    }
    if a.epsilon + a.teacher > 1.0 {
        bail!("--epsilon and --teacher add up to more than 1");
    }
    if !(0.0..=100.0).contains(&a.teacher_temp) {
        bail!(
            "--teacher-temp: {} is not a temperature from 0 to 100",
            a.teacher_temp
        );
    }
    if !(a.reuse > 0.0 && a.reuse.is_finite()) {
        bail!("--reuse: {} is not a positive number", a.reuse);
    }
    if a.keep_moves.is_some() && a.imitate.is_none() && a.expert.is_none() {
        bail!("--keep-moves: only with --imitate or --expert");
    }
    let keep_moves = a.keep_moves.unwrap_or(16);
    if !(2..=1000).contains(&keep_moves) {
        bail!("--keep-moves: {keep_moves} is not from 2 to 1000");
    }
    if !(a.value_weight >= 0.0 && a.value_weight.is_finite()) {
        bail!(
            "--value-weight: {} is not a number from 0 up",
            a.value_weight
        );
    }
    if a.rollout_deals > 0 && a.rollouts == 0 {
        bail!("--rollout-deals: play-outs need --rollouts K above 0");
    }
    let expert = a
        .expert
        .as_deref()
        .map(|spec| expert(spec, keep_moves))
        .transpose()?;
    let time_limit = match a.minutes {
        Some(m) if m > 0.0 && m.is_finite() => Some(Duration::from_secs_f64(m * 60.0)),
        Some(m) => bail!("--minutes: {m} is not a positive number"),
        None => None,
    };
    let mut config = TrainConfig::new(a.dir.clone());
    config.rules = rules;
    config.profile = a.rules.clone();
    config.seed = a.seed;
    config.frames = a.frames;
    config.time_limit = time_limit;
    config.hidden = hidden;
    config.widen = widen;
    config.lr = a.lr;
    config.batch = a.batch;
    config.replay = a.replay;
    config.reuse = a.reuse;
    config.epsilon = a.epsilon;
    config.teacher_start = a.teacher;
    config.teacher_frames = a.teacher_frames;
    config.teacher_temperature = a.teacher_temp;
    config.versus = a.versus_ddzlib;
    config.rollouts = a.rollouts;
    config.rollout_deals = a.rollout_deals;
    config.expert = expert;
    config.value_weight = a.value_weight;
    config.actors = a.actors;
    config.report_every = a.report_every;
    config.checkpoint_every = a.checkpoint_every;
    config.eval_every = a.eval_every;
    config.eval_deals = a.eval_deals;
    config.command = std::env::args().collect::<Vec<_>>().join(" ");

    let target = if a.quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let data = match &a.imitate {
        Some(records) => {
            let spinner = if a.quiet {
                ProgressBar::hidden()
            } else {
                ProgressBar::new_spinner()
            };
            spinner.set_message(format!("reading the records in {}", records.display()));
            spinner.enable_steady_tick(Duration::from_millis(200));
            let data =
                load_records(records, keep_moves, a.seed).map_err(|e| anyhow!("--imitate: {e}"))?;
            spinner.finish_and_clear();
            if !a.quiet {
                eprintln!(
                    "{} games: {} decisions to learn from, {} held out; {} records skipped \
                     (bidding games, or a landlord other than seat 0)",
                    data.games,
                    data.train.len(),
                    data.validation.len(),
                    data.skipped
                );
            }
            Some(data)
        }
        None => None,
    };
    let bar = ProgressBar::with_draw_target(Some(a.frames), target);
    let unit = if data.is_some() {
        "decisions"
    } else {
        "frames"
    };
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit} ({{per_sec}}, {{eta}} left) {{msg}}"
        ))
        .map_err(|e| anyhow!("progress bar: {e}"))?,
    );
    let mut last_wp = None;
    let mut on_report = |r: &Report| {
        bar.set_position(r.counters.frames.min(a.frames));
        if r.wp_vs_ddzlib.is_some() {
            last_wp = r.wp_vs_ddzlib;
        }
        let loss = r.loss.map_or("-".to_string(), |l| format!("{l:.4}"));
        let wp = last_wp.map_or("-".to_string(), |w| format!("{w:.3}"));
        let matched = r.validation_matched.map_or(String::new(), |m| {
            format!(", held-out moves matched {m:.3}")
        });
        bar.set_message(format!("loss {loss}{matched}, WP vs ddzlib {wp}"));
    };
    let report = match &data {
        Some(data) => {
            let imitation = ImitateConfig {
                value_weight: a.value_weight,
                ..ImitateConfig::default()
            };
            imitate(&config, &imitation, data, a.resume, &mut on_report)
        }
        None => train(&config, a.resume, &mut on_report),
    }
    .map_err(|e| anyhow!("train: {e}"))?;
    bar.finish_and_clear();
    if a.json {
        let value = serde_json::to_value(&report)?;
        print_json(&mut std::io::stdout().lock(), &value)?;
    } else {
        println!(
            "{} {unit}, {} games, {} steps, {:.0} s; last loss {}; WP vs ddzlib {} over {} games",
            report.counters.frames,
            report.counters.games,
            report.counters.steps,
            report.counters.seconds,
            report.loss.map_or("-".to_string(), |l| format!("{l:.4}")),
            report
                .wp_vs_ddzlib
                .map_or("-".to_string(), |w| format!("{w:.3}")),
            report.eval_games.unwrap_or(0),
        );
        println!(
            "checkpoint: {}",
            a.dir.join(ddz_train::CHECKPOINT).display()
        );
    }
    Ok(())
}

/// Hidden layers' widths from `text` like 256,256,128 (the option `flag` names it in errors).
fn widths(flag: &str, text: &str) -> Result<Vec<usize>> {
    text.split(',')
        .map(|w| w.trim().parse::<usize>().ok().filter(|&w| w > 0))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| anyhow!("{flag}: \"{text}\" is not widths like 256,256,128"))
}

/// The expert of `--expert SPEC`: the search robot and its options.
fn expert(spec: &str, keep_moves: usize) -> Result<Expert> {
    let options = match spec.trim().strip_prefix("search") {
        Some("") => "",
        Some(rest) if rest.starts_with(':') => &rest[1..],
        _ => bail!("--expert: {spec:?} is not the search robot (search, or search:OPTIONS)"),
    };
    let search = SearchConfig::parse(options.split(':').map(str::trim).filter(|o| !o.is_empty()))
        .map_err(|e| anyhow!("--expert: {e}"))?;
    Ok(Expert { search, keep_moves })
}
