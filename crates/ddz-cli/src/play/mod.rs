//! `ddz play`: you against robots, in the terminal (ratatui) or line by line (`--plain`):
//! two robots at the classic three-seat table ([`table`]), one or three at the two- and
//! four-seat tables of `--rules two|four` ([`variant`]).

mod describe;
mod plain;
mod records;
mod screen_loop;
mod table;
mod tui;
mod variant;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use ddz_bots::BotSpec;
use ddz_game::Seat;

use crate::common::{RulesArgs, externals};
use records::default_records_dir;
use table::{Options, Table};

/// You against two robots: a full game with bidding (a fixed landlord under the profiles
/// without bidding), game after game with a running total. Every finished game is saved as a
/// record (ddz-record/1) that `ddz replay` shows. With `--rules two` you play one robot
/// (二人斗地主, with the handicap 让牌), with `--rules four` three robots with two decks
/// (四人斗地主); their records are ddz-table-record/1 (docs/variants.md).
///
/// Keys on the table: left/right move, space selects, a rank key (3-9, 0 or t, j, q, k, a, 2,
/// b, r) selects a card of that rank, enter plays, p passes, h cycles hints, ? help, Esc quits.
#[derive(clap::Args)]
pub struct Args {
    /// The two robots, the seat after yours first: one NAME or two, NAME,NAME (random, greedy,
    /// value, ddzlib, search, or a NAME defined with --exec); one name seats it twice. The
    /// default is the strongest, `search`, on a budget of 250 ms a decision
    /// (`search:time=250ms`), so no robot move takes more than about a quarter of a second;
    /// robots on a clock may decide differently when a seed is dealt again (`--bots value` or
    /// `search:iters=N` decide the same way). Under `--rules two` one robot, under `four` one
    /// name or three (random, greedy, ddzlib, search or search:worlds=N:moves=K); the default
    /// there is `search` at 96 sampled deals of 8 moves, which decides the same way each time.
    #[arg(long, value_name = "NAME,NAME")]
    bots: Option<String>,
    /// Both robots at a difficulty level, 1 (a beginner) to 8 (the strongest): the same as
    /// `--bots level:N` (docs/robots.md lists what each level does). Three seats only.
    #[arg(long, value_name = "N", conflicts_with = "bots")]
    level: Option<String>,
    /// The robot that gives hints (h, `hint`) and plays for you on `auto`; default `value`,
    /// under `--rules two|four` `ddzlib`.
    #[arg(long, value_name = "NAME")]
    hint_bot: Option<String>,
    /// Your seat, 0-2 (0-1 under `two`, 0-3 under `four`). The first bidder is drawn from the
    /// seed; under a fixed landlord the rules' landlord seat (0 in every profile) is the
    /// landlord.
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
    /// (docs/protocol.md); repeatable. A robot that fails forfeits the game. Three seats
    /// only.
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
    let rules = args.rules.load_any_table()?;
    match rules.seats {
        2 => return run_variant::<2>(args, rules),
        4 => return run_variant::<4>(args, rules),
        _ => {}
    }
    let seat =
        Seat::new(args.seat).ok_or_else(|| anyhow!("--seat {}: a seat is 0, 1 or 2", args.seat))?;
    let registry = externals(&args.exec, args.timeout)?.registry();
    let spec = |text: &str, option: &str| {
        BotSpec::parse_with(text.trim(), &registry).map_err(|e| anyhow!("{option}: {e}"))
    };
    let bots_text = match &args.level {
        Some(level) => format!("level:{}", level.trim()),
        None => args
            .bots
            .clone()
            .unwrap_or_else(|| "search:time=250ms".to_string()),
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
    let hint_bot = spec(args.hint_bot.as_deref().unwrap_or("value"), "--hint-bot")?;
    let records = records_dir(&args)?;
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

/// Where records go: `--records`, none with `--no-records`, else the default folder.
fn records_dir(args: &Args) -> Result<Option<PathBuf>> {
    if args.no_records {
        return Ok(None);
    }
    match &args.records {
        Some(dir) => Ok(Some(dir.clone())),
        None => Ok(Some(default_records_dir().ok_or_else(|| {
            anyhow!("no data directory known for this user: give --records DIR or --no-records")
        })?)),
    }
}

/// `ddz play` at a table of `N` seats (`--rules two|four`): the table robots, no external
/// robots or levels.
fn run_variant<const N: usize>(args: Args, rules: ddz_core::Rules) -> Result<()> {
    if args.level.is_some() {
        bail!(
            "--level: the robot levels play at three seats; under --rules {} choose --bots from {}",
            rules.profile,
            ddz_bots::table::TABLE_ROBOTS.join(", ")
        );
    }
    if !args.exec.is_empty() {
        bail!(
            "--exec: external robots play at three seats; under --rules {} choose --bots from {}",
            rules.profile,
            ddz_bots::table::TABLE_ROBOTS.join(", ")
        );
    }
    let seat = Seat::of::<N>(args.seat).ok_or_else(|| {
        anyhow!(
            "--seat {}: a seat is 0 to {} at this table of {N}",
            args.seat,
            N - 1
        )
    })?;
    let bots: Vec<String> = args
        .bots
        .as_deref()
        .unwrap_or("search")
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let options = variant::VariantOptions {
        rules,
        bots,
        hint_bot: args.hint_bot.clone().unwrap_or_else(|| "ddzlib".into()),
        seat,
        seed: args.seed.unwrap_or_else(clock_seed),
        records: records_dir(&args)?,
    };
    let table = variant::VariantTable::<N>::new(options).map_err(anyhow::Error::msg)?;
    if args.plain {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut out = std::io::stdout().lock();
        return variant::plain::run(table, &mut input, &mut out);
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("the table needs a terminal; use --plain for line mode");
    }
    variant::screen::run(table, Duration::from_millis(args.delay))
}

/// A seed from the clock, short enough to read off the screen and type back.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % 1_000_000_000) as u64
}
