//! `ddz arena`: robots against each other over duplicate deals; `ddz arena merge`: shards into
//! one report.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, anyhow, bail};
use clap::Subcommand;
use ddz_arena::{Arena, Deals, Format, PlayedGame, Report, Shard};
use ddz_game::{DealLine, GameRecord};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::common::{RulesArgs, externals, print_json};
use ddz_bots::BotSpec;

/// Robots against each other: every deal played with the roles swapped, WP and ADP with 95%
/// confidence intervals per pair, a cross table with three robots or more.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    merge: Option<Merge>,
    /// The robots, comma-separated, each `name[:key=value]...` (random, greedy, value,
    /// ddzlib, or a NAME defined with --exec); every pair plays once. The same robot twice
    /// plays it against itself. Under --rules two or four: exactly two of random, greedy,
    /// ddzlib, search[:worlds=N][:moves=K] (docs/variants.md) or a NAME defined with --exec
    /// (a program for that table: `ddz bot --rules two`), A against B.
    #[arg(long, value_name = "A,B[,C...]")]
    bots: Option<String>,
    /// Define the robot NAME, played by an external program speaking the stdio protocol
    /// ddz-jsonl/1 (docs/protocol.md); repeatable. COMMAND is split on whitespace and run
    /// without a shell, one process per seat and game; its stderr goes to ours. A robot that
    /// replies with a move it was not allowed, an error or malformed output, exits, or is
    /// silent past --timeout forfeits the game (its side loses at the stake so far); the
    /// report counts the failures and the run goes on (at two and four seats too).
    #[arg(long, value_name = "NAME=COMMAND")]
    exec: Vec<String>,
    /// How long an external robot may take over one decision, in milliseconds (over its
    /// start and hello, at least 5000).
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    timeout: u64,
    /// Number of seeded deals (deal i dealt from derive_seed(SEED, i)).
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// The run's seed: deals and robots derive from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play the deals of a deal file instead (docs/deal-files.md; the landlord's cards to
    /// seat 0).
    #[arg(long, value_name = "FILE", conflicts_with = "deals")]
    decks: Option<PathBuf>,
    /// Six games a deal with bidding and the rule set's scoring (each robot alone in each
    /// seat) instead of two with a fixed landlord and DouZero's scoring.
    #[arg(long)]
    bidding: bool,
    /// Play only deals i with i % N == I; `ddz arena merge` combines the shards' --out files.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Write every game's record (ddz-record/1, replayable with `ddz replay`) to DIR.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Write the JSON report to FILE (what `ddz arena merge` reads).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write an SVG chart of the cross table to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print the JSON report on stdout instead of the text table: {"format", "seed", "deals",
    /// "shard", "ci_method", "rules", "pairs": [{"a", "b", "deals", "games", "wp", "wp_ci",
    /// "adp", "adp_ci", "as_landlord": {...}, "as_farmers": {...}, "games_per_sec",
    /// "failures": {"a", "b", "examples"}, "tallies"}...]}, WP as a fraction; "failures"
    /// counts the games each robot forfeited (external robots only).
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum Merge {
    /// Combine the --out reports of every shard of one run into the report of the whole run.
    Merge(MergeArgs),
}

/// Options of `ddz arena merge`.
#[derive(clap::Args)]
struct MergeArgs {
    /// The shards' report files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write an SVG chart of the cross table to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print the merged JSON report instead of the text table.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if let Some(Merge::Merge(m)) = args.merge {
        return merge(m);
    }
    let Some(bots) = args.bots.as_deref() else {
        bail!("--bots is required: two robots or more, e.g. --bots value,random");
    };
    let table = args.rules.load_any_table()?;
    if table.seats != 3 {
        let given = [
            ("--decks", args.decks.is_some()),
            ("--bidding", args.bidding),
            ("--shard", args.shard.is_some()),
            ("--records", args.records.is_some()),
            ("--out", args.out.is_some()),
            ("--svg", args.svg.is_some()),
        ];
        return crate::cmd::arena_table::run(crate::cmd::arena_table::TableRun {
            rules: table,
            bots,
            deals: args.deals,
            seed: args.seed,
            threads: args.threads,
            bar: progress(args.deals, args.quiet, "deals")?,
            externals: externals(&args.exec, args.timeout)?,
            json: args.json,
            three_seat_only: given.iter().filter(|g| g.1).map(|g| g.0).collect(),
        });
    }
    let bots: Vec<&str> = bots.split(',').map(str::trim).collect();
    let rules = args.rules.load()?;
    let deals = match &args.decks {
        None => Deals::Seeded { count: args.deals },
        Some(path) => Deals::Lines(read_decks(path)?),
    };
    let registry = externals(&args.exec, args.timeout)?.registry();
    let bots = bots
        .iter()
        .map(|b| BotSpec::parse_with(b, &registry).map_err(|e| anyhow!("--bots: {e}")))
        .collect::<Result<Vec<_>>>()?;
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(text) => Shard::parse(text).map_err(|e| anyhow!("--shard: {e}"))?,
    };
    let arena = Arena {
        rules,
        format: if args.bidding {
            Format::Bidding
        } else {
            Format::Duplicate
        },
        seed: args.seed,
        deals,
        shard,
    };
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the records folder {}", dir.display()))?;
    }
    let pairs = bots.len() * bots.len().saturating_sub(1) / 2;
    let bar = progress(
        (arena.shard_deals().len() * pairs) as u64,
        args.quiet,
        "deals",
    )?;
    let write_error: Mutex<Option<String>> = Mutex::new(None);
    let on_game = |g: &PlayedGame| {
        if let Some(dir) = &args.records
            && let Err(e) = write_record(dir, g)
        {
            let mut slot = write_error.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(e);
        }
    };
    let on_deal = || bar.inc(1);
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        pool = pool.num_threads(t);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    let report = pool.install(|| arena.run(&bots, &on_game, &on_deal))?;
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        bail!("writing a record: {e}");
    }
    output(&report, args.json, args.out.as_deref(), args.svg.as_deref())
}

/// A progress bar over `len` steps on stderr, hidden with `quiet` or off a terminal.
pub(crate) fn progress(len: u64, quiet: bool, what: &str) -> Result<ProgressBar> {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    let style = ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what} ({{per_sec}}, {{eta}} left)"
    ))
    .map_err(|e| anyhow!("progress bar: {e}"))?;
    bar.set_style(style);
    Ok(bar)
}

/// The deal lines of a deal file (blank lines and # comments skipped).
fn read_decks(path: &Path) -> Result<Vec<DealLine>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the deal file {}", path.display()))?;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        lines.push(
            DealLine::parse(t).with_context(|| format!("{} line {}", path.display(), n + 1))?,
        );
    }
    if lines.is_empty() {
        bail!("the deal file {} has no deals", path.display());
    }
    Ok(lines)
}

/// Longest part of a record's file name one robot takes: three of them and the deal and game
/// stay well under the 255 bytes file systems allow in a name.
const RECORD_NAME_PART: usize = 64;

/// A robot's spec as part of a record's file name: its letters and digits, every other
/// character `_`; a spec longer than [`RECORD_NAME_PART`] (a `weights=` path, say) keeps its
/// beginning and ends with a hash of the whole, so that different specs keep different names.
fn record_name_part(spec: &str) -> String {
    let name: String = spec
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if name.len() <= RECORD_NAME_PART {
        return name;
    }
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let hash = spec.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{}_{hash:016x}", &name[..RECORD_NAME_PART - 17])
}

/// Writes one game's record as DIR/deal{i}-game{n}-{seat robots}.json.
fn write_record(dir: &Path, g: &PlayedGame) -> Result<(), String> {
    let names: Vec<String> = g.seats.iter().map(|s| record_name_part(s)).collect();
    let path = dir.join(format!(
        "deal{:06}-game{}-{}.json",
        g.deal,
        g.game,
        names.join("-")
    ));
    let record = GameRecord::from_game(g.game_state).to_json();
    std::fs::write(&path, record + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

/// Prints the report (text or JSON) and writes the files asked for.
fn output(report: &Report, json: bool, out: Option<&Path>, svg: Option<&Path>) -> Result<()> {
    let doc = report.to_json();
    if let Some(path) = out {
        std::fs::write(path, format!("{doc}\n"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = svg {
        std::fs::write(path, report.svg())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut stdout = std::io::stdout().lock();
    if json {
        print_json(&mut stdout, &doc)?;
    } else {
        write!(stdout, "{}", report.text())?;
    }
    Ok(())
}

fn merge(args: MergeArgs) -> Result<()> {
    let mut reports = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        reports.push(Report::from_json(&text).with_context(|| path.display().to_string())?);
    }
    let merged = Report::merge(&reports)?;
    output(&merged, args.json, args.out.as_deref(), args.svg.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names_stay_short_and_apart() {
        assert_eq!(record_name_part("search:iters=50"), "search_iters_50");
        let long = |file: &str| format!("net:weights=/{}/{file}.safetensors", "dir/".repeat(40));
        let (a, b) = (record_name_part(&long("a")), record_name_part(&long("b")));
        assert_eq!(a.len(), RECORD_NAME_PART);
        assert_eq!(b.len(), RECORD_NAME_PART);
        assert_ne!(
            a, b,
            "specs that differ only at the end keep different names"
        );
        assert!(a.starts_with("net_weights__dir_dir_"), "{a}");
    }
}
