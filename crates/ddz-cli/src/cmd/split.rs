//! `ddz split HAND`: the ddzlib split and hand count, the blog's hand value, the best split.

use std::io::Write;

use anyhow::{Context, Result};
use ddz_bots::best_split::best_split;
use ddz_bots::blog::Valuer;
use ddz_bots::ddzlib;
use ddz_core::{Cards, Move};
use serde_json::{Value, json};

use crate::common::{RulesArgs, move_line, move_value, print_json};

/// Hand analysis: the ddzlib split (拆牌) and its hand count (手数), the blog's hand value
/// (SumValue, NeedRound), and the best split (the fewest plays that empty the hand when nobody
/// else plays, ties broken by the blog's value). Wild cards stand where they serve best.
#[derive(clap::Args)]
pub struct Args {
    /// The hand, e.g. 22AAKQJ9987776654.
    hand: String,
    #[command(flatten)]
    rules: RulesArgs,
    /// Print {"hand_count", "groups": [MOVE...], "sum_value", "need_round", "reading",
    /// "best": {"plays", "value", "groups": [MOVE...]}} instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let rules = args.rules.load()?;
    let hand: Cards = args
        .hand
        .parse()
        .with_context(|| format!("hand \"{}\"", args.hand))?;
    let groups = ddzlib::split(hand, &rules);
    let (reading, value) = Valuer::new().best_reading(hand, &rules);
    let best = best_split(hand, &rules);
    let mut out = std::io::stdout().lock();
    if args.json {
        let list = |moves: &[Move]| moves.iter().map(move_value).collect::<Vec<Value>>();
        let doc = json!({
            "hand_count": groups.len(),
            "groups": list(&groups),
            "sum_value": value.sum_value,
            "need_round": value.need_round,
            "reading": reading.to_string(),
            "best": {"plays": best.plays, "value": best.value, "groups": list(&best.groups)},
        });
        print_json(&mut out, &doc)?;
        return Ok(());
    }
    writeln!(out, "{hand}")?;
    let plural = if groups.len() == 1 { "" } else { "s" };
    writeln!(out, "ddzlib split: {} hand{plural}", groups.len())?;
    for g in &groups {
        writeln!(out, "  {}", move_line(g, &rules))?;
    }
    let read = if reading == hand {
        String::new()
    } else {
        format!(", the wild cards read as {reading}")
    };
    writeln!(
        out,
        "blog value: SumValue {}, NeedRound {} (score {}){read}",
        value.sum_value,
        value.need_round,
        value.score()
    )?;
    let plural = if best.plays == 1 { "" } else { "s" };
    writeln!(
        out,
        "best split: {} play{plural}, value {}",
        best.plays, best.value
    )?;
    for g in &best.groups {
        writeln!(out, "  {}", move_line(g, &rules))?;
    }
    Ok(())
}
