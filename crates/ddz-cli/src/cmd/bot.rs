//! `ddz bot`: a robot behind the stdio protocol `ddz-jsonl/1` (PROTOCOL.md, docs/protocol.md).

use anyhow::{Result, anyhow};
use ddz_bots::{make_bot, protocol};

use crate::common::RulesArgs;

/// A robot behind the stdio protocol: reads one JSON request a line on stdin (hello, act, bid,
/// result), writes one JSON reply a line on stdout, flushed after each, until the end of input.
/// A bad request gets {"id", "error"} and the robot goes on. Requests without a "rules" field
/// are read under --rules (or --rules-file); without a "laizi" field, with --laizi's wild ranks.
#[derive(clap::Args)]
pub struct Args {
    /// The robot that answers: random, greedy, value or ddzlib.
    #[arg(long, default_value = "value", value_name = "NAME")]
    bot: String,
    /// Seed of a robot that draws random numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load()?;
    let mut bot = make_bot(&args.bot, args.seed).map_err(|e| anyhow!("--bot: {e}"))?;
    let name = bot.name().to_string();
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    protocol::serve(bot.as_mut(), &name, &rules, stdin, stdout)?;
    Ok(())
}
