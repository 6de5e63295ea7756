//! `ddz bench bots`: decision time per robot on seeded positions.

use std::io::Write;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use ddz_bots::{BOT_NAMES, Bot, BotSpec, bot_seed, take_turn};
use ddz_core::Move;
use ddz_game::{Bid, Game, Phase, SeatView, derive_seed};
use serde_json::{Value, json};

use crate::common::{RulesArgs, print_json};

/// Options of `ddz bench bots`.
#[derive(clap::Args)]
pub struct BotsArgs {
    /// Robots to time, comma-separated (default: every robot).
    #[arg(long, value_name = "NAME,...")]
    bots: Option<String>,
    /// Number of positions: the play decisions of seeded games between random robots, in
    /// order, until this many are collected.
    #[arg(long, default_value_t = 2000)]
    positions: usize,
    /// Time bids instead of plays: the positions are the bidding decisions of the same games.
    #[arg(long)]
    bids: bool,
    /// Seed of the games the positions come from (game i from derive_seed(SEED, i)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"rules", "decisions" ("play" or "bid"), "positions", "bots": [{"bot",
    /// "median_us", "p99_us", "max_us", "mean_us"}...]} instead of text.
    #[arg(long)]
    json: bool,
}

/// A decision to time: a seat's view and what it may do.
enum TimedDecision {
    /// A play, among the allowed moves.
    Play(SeatView, Vec<Move>),
    /// A bid, among the allowed bids.
    Bid(SeatView, Vec<Bid>),
}

/// Play decisions (or with `--bids` bidding decisions) from seeded random games.
fn positions(args: &BotsArgs, rules: &ddz_core::Rules) -> Vec<TimedDecision> {
    let mut out = Vec::with_capacity(args.positions);
    let mut game_index = 0;
    while out.len() < args.positions {
        let seed = derive_seed(args.seed, game_index);
        game_index += 1;
        let mut game = Game::new(rules, seed);
        let mut bots: Vec<Box<dyn Bot>> = ddz_game::Seat::ALL
            .iter()
            .map(|&s| Box::new(ddz_bots::RandomBot::new(bot_seed(seed, s))) as Box<dyn Bot>)
            .collect();
        while game.phase() != Phase::Over && out.len() < args.positions {
            match game.phase() {
                Phase::Playing if !args.bids => {
                    out.push(TimedDecision::Play(
                        game.view(game.turn()),
                        game.legal_moves(),
                    ));
                }
                Phase::Bidding if args.bids => {
                    out.push(TimedDecision::Bid(
                        game.view(game.turn()),
                        game.legal_bids(),
                    ));
                }
                // Bids timed: the rest of the game is of no use.
                Phase::Playing => break,
                _ => {}
            }
            // Random robots only make legal actions; a refusal would be an engine bug.
            let bot = bots[game.turn().index()].as_mut();
            if take_turn(&mut game, bot).is_err() {
                break;
            }
        }
    }
    out
}

/// Microseconds at quantile `q` of sorted times.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted.get(i).copied().unwrap_or(0.0)
}

/// Runs the command.
pub fn run(args: BotsArgs) -> Result<()> {
    let rules = args.rules.load()?;
    if args.positions == 0 {
        bail!("--positions must be at least 1");
    }
    let names: Vec<&str> = match &args.bots {
        None => BOT_NAMES.to_vec(),
        Some(list) => list.split(',').map(str::trim).collect(),
    };
    let specs = names
        .iter()
        .map(|name| BotSpec::parse(name).map_err(|e| anyhow!("--bots: {e}")))
        .collect::<Result<Vec<_>>>()?;
    let what = if args.bids { "bid" } else { "play" };
    eprintln!(
        "collecting {} {what} positions from random games ({} rules) ...",
        args.positions, rules.profile
    );
    let positions = positions(&args, &rules);
    let mut rows = Vec::new();
    for spec in &specs {
        eprintln!("timing {spec} ...");
        let mut times = Vec::with_capacity(positions.len());
        for (i, decision) in positions.iter().enumerate() {
            // A fresh robot for each decision: nothing learnt from earlier positions.
            let mut bot = spec
                .build(derive_seed(args.seed, i as u64))
                .map_err(|e| anyhow!("{e}"))?;
            let start = Instant::now();
            match decision {
                TimedDecision::Play(view, allowed) => {
                    std::hint::black_box(bot.play(view, allowed));
                }
                TimedDecision::Bid(view, allowed) => {
                    std::hint::black_box(bot.bid(view, allowed));
                }
            }
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        rows.push((
            spec.to_string(),
            quantile(&times, 0.5),
            quantile(&times, 0.99),
            quantile(&times, 1.0),
            mean,
        ));
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let bots: Vec<Value> = rows
            .iter()
            .map(|(name, med, p99, max, mean)| {
                json!({"bot": name, "median_us": med, "p99_us": p99, "max_us": max,
                       "mean_us": mean})
            })
            .collect();
        let doc = json!({"rules": rules.profile.name(), "decisions": what,
                         "positions": positions.len(), "bots": bots});
        print_json(&mut out, &doc)?;
        return Ok(());
    }
    writeln!(
        out,
        "{what} decision time, {} rules, {} positions, a fresh robot each, one thread \
         (microseconds)",
        rules.profile,
        positions.len()
    )?;
    writeln!(
        out,
        "  {:<10} {:>10} {:>10} {:>10} {:>10}",
        "robot", "median", "p99", "max", "mean"
    )?;
    for (name, med, p99, max, mean) in &rows {
        writeln!(
            out,
            "  {name:<10} {med:>10.1} {p99:>10.1} {max:>10.1} {mean:>10.1}"
        )?;
    }
    Ok(())
}
