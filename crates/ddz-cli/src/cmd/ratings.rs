//! `ddz ratings`: every robot on one rating scale, from a round robin over duplicate deals
//! (the arena's games) fitted by Bradley-Terry on the Elo scale ([`ddz_arena::ratings`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use ddz_arena::ratings::Ratings;
use ddz_arena::{Arena, Deals, Format, Report, Shard};
use ddz_bots::BotSpec;
use serde_json::json;

use crate::cmd::arena::progress;
use crate::common::{RulesArgs, externals, print_json};

/// Every robot on one rating scale: a round robin over the same duplicate deals (every pair
/// plays each deal twice, the roles swapped), then a Bradley-Terry fit of every pair's games
/// on the Elo scale (200 points apart, the stronger wins about 76% of the games), with 95%
/// intervals from a bootstrap over the deals. The same seed gives the same ratings whatever
/// the thread count.
#[derive(clap::Args)]
pub struct Args {
    /// The robots, comma-separated, each once: `name[:key=value]...` (random, greedy, value,
    /// ddzlib, net, search, or a NAME defined with --exec).
    #[arg(long, value_name = "A,B[,C...]", required_unless_present = "reports")]
    bots: Option<String>,
    /// Fit the reports of earlier runs (the --out files of every shard of one run, merged as
    /// `ddz arena merge` does) instead of playing.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "bots")]
    reports: Vec<PathBuf>,
    /// Define the robot NAME, played by an external program speaking ddz-jsonl/1
    /// (docs/protocol.md); repeatable, as in `ddz arena`.
    #[arg(long, value_name = "NAME=COMMAND")]
    exec: Vec<String>,
    /// How long an external robot may take over one decision, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    timeout: u64,
    /// Number of seeded deals every pair plays.
    #[arg(long, default_value_t = 200)]
    deals: u64,
    /// The run's seed: the deals, the robots and the bootstrap derive from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The robot whose rating is fixed, and that rating (default: random=0 when random
    /// plays, else the first robot at 0).
    #[arg(long, value_name = "NAME=R")]
    anchor: Option<String>,
    /// Bootstrap resamples of the deals behind the 95% intervals.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    resamples: usize,
    /// Play only deals i with i % N == I (with --out; fit the shards with --reports).
    #[arg(long, value_name = "I/N", requires = "out")]
    shard: Option<String>,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Write the arena's JSON report of the games to FILE (what --reports reads).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print JSON instead of the table: {"format": "ddz-ratings/1", "scale": "elo", "anchor":
    /// {"robot", "rating"}, "deals", "seed", "resamples", "robots": [{"robot", "rating",
    /// "ci", "games", "wins"}...]}, strongest first.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if args.resamples == 0 {
        bail!("--resamples must be at least 1");
    }
    let report = if args.reports.is_empty() {
        play(&args)?
    } else {
        let mut reports = Vec::new();
        for path in &args.reports {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            reports.push(Report::from_json(&text).with_context(|| path.display().to_string())?);
        }
        Report::merge(&reports)?
    };
    if let Some(path) = &args.out {
        let text = serde_json::to_string_pretty(&report.to_json())? + "\n";
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if report.shard != Shard::WHOLE {
        // One shard of a run: its games are written; the fit waits for every shard.
        eprintln!(
            "shard {}/{} written; fit the shards with ddz ratings --reports",
            report.shard.index, report.shard.count
        );
        return Ok(());
    }
    let robots = report.robots();
    let (anchor, rating) = anchor(args.anchor.as_deref(), &robots)?;
    let ratings = report
        .ratings(&anchor, rating, args.resamples, args.seed)
        .map_err(|e| anyhow!("{e}"))?;
    if args.json {
        print_json(
            &mut std::io::stdout().lock(),
            &ratings_json(&ratings, &report),
        )?;
        Ok(())
    } else {
        print_table(&ratings)
    }
}

/// Plays the round robin of `--bots`.
fn play(args: &Args) -> Result<Report> {
    let Some(list) = args.bots.as_deref() else {
        bail!("--bots is required: two robots or more, e.g. --bots random,greedy,value");
    };
    let registry = externals(&args.exec, args.timeout)?.registry();
    let mut bots: Vec<BotSpec> = Vec::new();
    for text in list.split(',').map(str::trim) {
        let spec = BotSpec::parse_with(text, &registry).map_err(|e| anyhow!("--bots: {e}"))?;
        if bots.iter().any(|b| b.as_str() == spec.as_str()) {
            bail!("--bots: \"{text}\" is given twice (each robot once)");
        }
        bots.push(spec);
    }
    if bots.len() < 2 {
        bail!("--bots: two robots or more");
    }
    if args.deals == 0 {
        bail!("--deals must be at least 1");
    }
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(text) => Shard::parse(text).map_err(|e| anyhow!("--shard: {e}"))?,
    };
    let arena = Arena {
        rules: args.rules.load()?,
        format: Format::Duplicate,
        seed: args.seed,
        deals: Deals::Seeded { count: args.deals },
        shard,
    };
    let pairs = bots.len() * (bots.len() - 1) / 2;
    let bar = progress(
        (arena.shard_deals().len() * pairs) as u64,
        args.quiet,
        "deals",
    )?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        pool = pool.num_threads(t);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    let report = pool.install(|| arena.run(&bots, &|_| {}, &|| bar.inc(1)))?;
    bar.finish_and_clear();
    Ok(report)
}

/// The anchor robot and its rating: `--anchor NAME=R`, else `random` at 0 when it plays,
/// else the first robot at 0.
fn anchor(given: Option<&str>, robots: &[String]) -> Result<(String, f64)> {
    let Some(text) = given else {
        let name = if robots.iter().any(|r| r == "random") {
            "random".to_string()
        } else {
            robots.first().cloned().unwrap_or_default()
        };
        return Ok((name, 0.0));
    };
    let Some((name, rating)) = text.rsplit_once('=') else {
        bail!("--anchor: \"{text}\" is not NAME=RATING (random=0, say)");
    };
    let rating: f64 = rating
        .trim()
        .parse()
        .ok()
        .filter(|r: &f64| r.is_finite())
        .ok_or_else(|| anyhow!("--anchor: \"{rating}\" is not a rating (a number)"))?;
    let name = name.trim();
    if !robots.iter().any(|r| r == name) {
        bail!(
            "--anchor: \"{name}\" is not one of the robots ({})",
            robots.join(", ")
        );
    }
    Ok((name.to_string(), rating))
}

/// The robots' indices, strongest first.
fn by_rating(ratings: &Ratings) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.robots.len()).collect();
    order.sort_by(|&a, &b| {
        ratings.robots[b]
            .rating
            .total_cmp(&ratings.robots[a].rating)
    });
    order
}

fn ratings_json(ratings: &Ratings, report: &Report) -> serde_json::Value {
    let (anchor, rating) = ratings.anchor;
    json!({
        "format": "ddz-ratings/1",
        "scale": "elo",
        "anchor": {"robot": ratings.robots[anchor].name, "rating": rating},
        "deals": ratings.deals,
        "seed": report.seed,
        "resamples": ratings.resamples,
        "robots": by_rating(ratings).into_iter().map(|i| {
            let r = &ratings.robots[i];
            json!({"robot": r.name, "rating": r.rating, "ci": r.ci, "games": r.games, "wins": r.wins})
        }).collect::<Vec<_>>(),
    })
}

fn print_table(ratings: &Ratings) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let (anchor, rating) = ratings.anchor;
    writeln!(
        out,
        "Ratings (Elo scale, {} at {rating}), {} deals, 95% intervals from {} resamples:",
        ratings.robots[anchor].name, ratings.deals, ratings.resamples
    )?;
    writeln!(
        out,
        "{:>7}  {:>17}  {:>7}  {:>6}  robot",
        "rating", "95% interval", "games", "won"
    )?;
    for i in by_rating(ratings) {
        let r = &ratings.robots[i];
        let won = if r.games > 0 {
            100.0 * r.wins as f64 / r.games as f64
        } else {
            0.0
        };
        writeln!(
            out,
            "{:>7.0}  [{:>6.0}, {:>6.0}]  {:>7}  {:>5.1}%  {}",
            r.rating, r.ci[0], r.ci[1], r.games, won, r.name
        )?;
    }
    Ok(())
}
