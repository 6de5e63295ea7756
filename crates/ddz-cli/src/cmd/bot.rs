//! `ddz bot`: a robot behind the stdio protocol `ddz-jsonl/1` (PROTOCOL.md, docs/protocol.md),
//! or behind Botzone's FightTheLandlord input (`--botzone`).

use anyhow::{Result, anyhow, bail};
use ddz_bots::make_bot;
use ddz_bots::table::{TABLE_ROBOTS, TableBot};
use ddz_protocol::{botzone, jsonl as protocol};

use crate::common::RulesArgs;

/// A robot behind the stdio protocol: reads one JSON request a line on stdin (hello, act, bid,
/// result), writes one JSON reply a line on stdout, flushed after each, until the end of input.
/// A bad request gets {"id", "error"} and the robot goes on. Requests without a "rules" field
/// are read under --rules (or --rules-file); without a "laizi" field, with --laizi's wild ranks.
/// Under --rules two or four the robot is a table robot (random, greedy, ddzlib or search) and
/// the requests are a two- or four-seat game's: cards_left and played hold one entry a seat
/// (docs/protocol.md).
///
/// With --botzone the robot plays Botzone's FightTheLandlord or FightTheLandlord2 instead, under
/// the botzone rules: it reads Botzone's one input line {"requests", "responses", ...} from
/// stdin, writes the one line {"response": ...} (card ids, [] to pass, or a bid 0-3) and exits
/// 0. Bad input writes the one line {"debug": "error: ..."} and exits 2. With
/// --keep-running it then writes Botzone's line >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and answers
/// each further line (a bare request) the same way until the end of input.
#[derive(clap::Args)]
pub struct Args {
    /// The robot that answers: random, greedy, value, ddzlib or search, with options
    /// (`search:time=100ms:infer=0`; docs/robots.md lists them). Under --rules two or four:
    /// random, greedy, ddzlib or search (`search:worlds=N:moves=K`); default ddzlib there.
    #[arg(long, value_name = "NAME")]
    bot: Option<String>,
    /// Seed of a robot that draws random numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Answer Botzone's FightTheLandlord(2) input (botzone rules) instead of ddz-jsonl/1.
    #[arg(long)]
    botzone: bool,
    /// With --botzone: Botzone's keep-running mode, answering further requests one a line.
    #[arg(long, requires = "botzone")]
    keep_running: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    if !args.botzone {
        let rules = args.rules.load_any_table()?;
        if rules.seats != 3 {
            return run_table(&args, &rules);
        }
    }
    let spec = args.bot.as_deref().unwrap_or("value");
    let mut bot = make_bot(spec, args.seed).map_err(|e| anyhow!("--bot: {e}"))?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    if args.botzone {
        if args.rules.rules != "classic"
            || args.rules.rules_file.is_some()
            || args.rules.laizi.is_some()
        {
            bail!("--botzone plays the botzone rules: drop --rules, --rules-file and --laizi");
        }
        if let Err(e) = botzone::serve(bot.as_mut(), stdin, stdout, args.keep_running)? {
            bail!("botzone input: {e}");
        }
        return Ok(());
    }
    let rules = args.rules.load()?;
    let name = bot.name().to_string();
    protocol::serve(bot.as_mut(), &name, &rules, stdin, stdout)?;
    Ok(())
}

/// A table robot behind the protocol, for the requests of a two- or four-seat game.
fn run_table(args: &Args, rules: &ddz_core::Rules) -> Result<()> {
    let spec = args.bot.as_deref().unwrap_or("ddzlib");
    let mut bot = TableBot::from_spec(spec, args.seed).map_err(|e| {
        anyhow!(
            "--bot \"{spec}\": {e} (under --rules {} the robots are {})",
            rules.profile,
            TABLE_ROBOTS.join(", ")
        )
    })?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    let name = bot.name();
    match rules.seats {
        2 => protocol::serve_at::<2>(&mut bot, name, rules, stdin, stdout)?,
        4 => protocol::serve_at::<4>(&mut bot, name, rules, stdin, stdout)?,
        n => bail!("--rules: a table of {n} seats has no robots"),
    }
    Ok(())
}
