//! `ddz play`: you against two robots, in the terminal (ratatui) or line by line (`--plain`).

mod describe;
mod plain;
mod table;
mod tui;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use ddz_bots::BotSpec;
use ddz_game::Seat;

use crate::common::{RulesArgs, externals};
use table::{Options, Table, default_records_dir};

/// You against two robots: a full game with bidding (a fixed landlord under the profiles
/// without bidding), game after game with a running total. Every finished game is saved as a
/// record (ddz-record/1) that `ddz replay` shows.
///
/// Keys on the table: left/right move, space selects, a rank key (3-9, 0 or t, j, q, k, a, 2,
/// b, r) selects a card of that rank, enter plays, p passes, h cycles hints, ? help, Esc quits.
#[derive(clap::Args)]
pub struct Args {
    /// The two robots, the seat after yours first: one NAME or two, NAME,NAME (random, greedy,
    /// value, ddzlib, search, or a NAME defined with --exec); one name seats it twice. The
    /// default is the strongest, `search`, on a budget of 250 ms a decision, so no robot move
    /// takes more than about a quarter of a second; robots on a clock may decide differently
    /// when a seed is dealt again (`--bots value` or `search:iters=N` decide the same way).
    #[arg(long, default_value = "search:time=250ms", value_name = "NAME,NAME")]
    bots: String,
    /// Both robots at a difficulty level, 1 (a beginner) to 8 (the strongest): the same as
    /// `--bots level:N` (docs/robots.md lists what each level does).
    #[arg(long, value_name = "N", conflicts_with = "bots")]
    level: Option<String>,
    /// The robot that gives hints (h, `hint`) and plays for you on `auto`.
    #[arg(long, default_value = "value", value_name = "NAME")]
    hint_bot: String,
    /// Your seat, 0-2. The first bidder is drawn from the seed; under a fixed landlord the
    /// rules' landlord seat (0 in every profile) is the landlord.
    #[arg(long, default_value_t = 0, value_name = "SEAT")]
    seat: u8,
    /// The first game's seed (shown on the table; game n is dealt from SEED + n - 1, so
    /// `--seed` with a shown seed deals that game again). Default: drawn from the clock.
    #[arg(long)]
    seed: Option<u64>,
    /// Save each finished game's record in DIR (default: ddz/records under your data
    /// directory: ~/.local/share on Linux, ~/Library/Application Support on macOS, %APPDATA%
    /// on Windows).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Save no records.
    #[arg(long, conflicts_with = "records")]
    no_records: bool,
    /// Line mode for scripts and screen readers: the state as text, moves typed in move
    /// notation (33344, 7779=7777, 333444555666:airplane_singles:6), pass, hint, bid N, auto
    /// (the robot finishes the game for you), help, quit.
    #[arg(long)]
    plain: bool,
    /// Milliseconds to pause after each robot action on the table (not in --plain).
    #[arg(long, default_value_t = 700, value_name = "MS")]
    delay: u64,
    /// Define the robot NAME, played by an external program speaking ddz-jsonl/1
    /// (docs/protocol.md); repeatable. A robot that fails forfeits the game.
    #[arg(long, value_name = "NAME=COMMAND")]
    exec: Vec<String>,
    /// How long an external robot may take over one decision, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    timeout: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load()?;
    let seat =
        Seat::new(args.seat).ok_or_else(|| anyhow!("--seat {}: a seat is 0, 1 or 2", args.seat))?;
    let registry = externals(&args.exec, args.timeout)?.registry();
    let spec = |text: &str, option: &str| {
        BotSpec::parse_with(text.trim(), &registry).map_err(|e| anyhow!("{option}: {e}"))
    };
    let bots_text = match &args.level {
        Some(level) => format!("level:{}", level.trim()),
        None => args.bots.clone(),
    };
    let option = if args.level.is_some() {
        "--level"
    } else {
        "--bots"
    };
    let names: Vec<&str> = bots_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let bots = match names.as_slice() {
        [one] => [spec(one, option)?, spec(one, option)?],
        [a, b] => [spec(a, option)?, spec(b, option)?],
        _ => bail!("--bots takes one or two robot names, e.g. value,ddzlib"),
    };
    let hint_bot = spec(&args.hint_bot, "--hint-bot")?;
    let records = if args.no_records {
        None
    } else {
        match args.records {
            Some(dir) => Some(dir),
            None => Some(default_records_dir().ok_or_else(|| {
                anyhow!("no data directory known for this user: give --records DIR or --no-records")
            })?),
        }
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let options = Options {
        rules,
        bots,
        hint_bot,
        seat,
        seed,
        records,
    };
    let table = Table::new(options).map_err(|e| anyhow!("--bots: {e}"))?;
    if args.plain {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut out = std::io::stdout().lock();
        return plain::run(table, &mut input, &mut out);
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("the table needs a terminal; use --plain for line mode");
    }
    tui::run(table, Duration::from_millis(args.delay))
}

/// A seed from the clock, short enough to read off the screen and type back.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % 1_000_000_000) as u64
}
